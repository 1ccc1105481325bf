"""The demo's clock-following loop survives a preview or a step that does not settle in time."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.demo import _fingerprint, _follow_the_clock

HOUR = 3600.0
STEP = 0.5  # simulated seconds per tick, as the demo's wall-clock tick


class Message:
    def __init__(self, number: int) -> None:
        self.id, self.content = number, f"move {number}"
        self.embeds: list[object] = []
        self.components: list[object] = []
        self.attachments: list[Attachment] = []


class Attachment:
    def __init__(self, number: int) -> None:
        self.id = number


class Channel:
    """The channel: a new message for every ten seconds of simulated play."""

    def __init__(self) -> None:
        self.time = 0.0

    def history(self) -> list[Message]:
        return [Message(n) for n in range(int(self.time // 10))]


class SlowEnv:
    """Simulated time whose step times out once every 97 ticks (SimCord's settle)."""

    def __init__(self, channel: Channel) -> None:
        self.channel, self.calls, self.timeouts = channel, 0, 0

    async def advance_time(self, seconds: float) -> None:
        self.calls += 1
        if self.calls % 97 == 0:
            self.timeouts += 1
            raise TimeoutError
        self.channel.time += seconds


class SlowPreview:
    """A preview whose refresh times out on every fifth call; closed after an hour."""

    def __init__(self, channel: Channel) -> None:
        self.channel, self.refreshes, self.timeouts = channel, 0, 0
        self.closed = asyncio.Event()

    async def wait_closed(self) -> None:
        if self.channel.time >= HOUR:
            self.closed.set()
        await self.closed.wait()

    async def _action(self, context_id: str | None, body: dict[str, object]) -> dict[str, object]:
        return {}  # the page's actions, which the demo makes wait for the clock's steps

    # the preview's steps that the demo wraps to keep the pictures a page has read
    def _page_payload(self, page: object) -> dict[str, object]:
        return {}

    def _reconcile_assets(self, page: object) -> None:
        pass

    def _authorize_attachment_source(self, page: object, source: object, digest: object) -> None:
        pass

    async def refresh(self) -> None:
        self.refreshes += 1
        if self.refreshes % 5 == 0:
            self.timeouts += 1
            raise TimeoutError


async def test_the_demo_loop_survives_settle_timeouts_for_an_hour(
    caplog: pytest.LogCaptureFixture,
) -> None:
    channel = Channel()
    env = SlowEnv(channel)
    preview = SlowPreview(channel)
    clock = [0.0]

    def now() -> float:
        clock[0] += STEP
        return clock[0]

    await _follow_the_clock(env, preview, channel, tick=0.0001, now=now)  # type: ignore[arg-type]

    assert channel.time >= HOUR  # simulated time kept up with the clock, missed steps included
    assert env.timeouts > 10
    assert preview.timeouts > 10
    assert preview.refreshes >= HOUR // 10  # the page followed the channel all the while
    # a step that outlasts the settle time is no fault: the terminal running the demo is not
    # filled with warnings whenever the bot thinks for longer
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


class Component:
    def __init__(self, text: str) -> None:
        self.text = text

    def to_dict(self) -> dict[str, object]:
        return {"type": 10, "content": self.text}


class LayoutChannel:
    """A table message with no content and no embeds, only layout components."""

    def __init__(self) -> None:
        self.message = Message(1)
        self.message.content = ""

    def history(self) -> list[Message]:
        return [self.message]


def test_the_preview_refreshes_when_only_the_layout_components_change() -> None:
    channel = LayoutChannel()
    channel.message.components = [Component("Tur: anna")]
    before = _fingerprint(channel)  # type: ignore[arg-type]
    channel.message.components = [Component("Tur: bo")]
    assert _fingerprint(channel) != before  # type: ignore[arg-type]


def test_the_preview_refreshes_when_only_the_picture_changes() -> None:
    """An edit that uploads a new picture with the same text: the page is shown the new one."""
    channel = LayoutChannel()
    channel.message.components = [Component("Tur: anna")]
    channel.message.attachments = [Attachment(10)]
    before = _fingerprint(channel)  # type: ignore[arg-type]
    channel.message.attachments = [Attachment(11)]
    assert _fingerprint(channel) != before  # type: ignore[arg-type]
