"""``kortbord demo`` live: the demo's own simulated Discord and page, its clock following the
wall clock. Clicks are timed in wall time, as the member waits.

A click in the demo is answered once SimCord has settled the bot's work and its timers about to
fall due; with SimCord's default (5 s) a card turned in Hej knekt was answered only after its
reaction window had closed, so the member never saw it open. SimCord carries out one operation at
a time, and a step of the clock is one: the page's clicks wait for it rather than fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp
from members import button, message_text, table_in
from simcord import Preview, SetupError

from bot.demo import TICK, Simulated, _follow_the_clock, simulated
from bot.sessions import LiveTable, correct_press, window_ms
from bot.settings import Settings

T = TypeVar("T")
SEED = 2026
PROMPT = 1.0
"""Seconds within which a click is answered: well under the reaction window (5 s)."""
PATIENCE = 60.0
"""Seconds of wall time the match may take to come to what a step waits for."""


async def between_ticks(act: Callable[[], Awaitable[T]]) -> T:
    """``act`` once the demo's clock is not moving: SimCord runs one operation at a time, and
    each tick of the clock (every half second) holds it for a moment."""
    while True:
        try:
            return await act()
        except SetupError as error:
            if "overlaps" not in str(error):
                raise
            await asyncio.sleep(0.005)


async def until(
    condition: Callable[[], bool], step: Callable[[], Awaitable[object]] | None = None
) -> None:
    """Wait, in wall time, while the demo plays on (taking ``step`` meanwhile), until
    ``condition`` holds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "the demo did not get there in time"
        await asyncio.sleep(0.01)
        if step is not None:
            await step()


async def hej_knekt_against_computers(demo: Simulated) -> tuple[Any, LiveTable]:
    """Anna opens Hej knekt and starts it, the empty seats taken by computer players."""
    anna = demo.members[0]
    opened = await between_ticks(lambda: anna.slash(demo.channel, "spel ny", spel="hej_knekt"))
    message = opened.response
    assert message is not None
    asked = (await between_ticks(lambda: anna.click(message, label="Starta"))).response
    assert asked is not None
    await between_ticks(lambda: anna.click(asked, label="Fyll med datorspelare och starta"))
    return message, table_in(demo.env, demo.channel.id)


async def in_the_demo(
    play: Callable[[Simulated, Preview], Awaitable[None]], *, tick: float = TICK
) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    async with (
        simulated(settings, rng=random.Random(SEED)) as demo,
        demo.env.preview(demo.channel, viewers=demo.members, layout="channel") as page,
    ):
        clock = asyncio.create_task(_follow_the_clock(demo.env, page, demo.channel, tick=tick))
        try:
            await play(demo, page)
        finally:
            clock.cancel()
            await asyncio.gather(clock, return_exceptions=True)


async def test_a_member_turns_a_card_and_presses_in_time_in_the_demo() -> None:
    async def play(demo: Simulated, page: Preview) -> None:
        anna = demo.members[0]
        message, table = await hej_knekt_against_computers(demo)
        seat = next(s for s, placed in enumerate(table.record.seats) if placed.user_id == anna.id)

        def anna_turns() -> bool:
            game = table.game
            return game is not None and table.reveal_at is None and game.to_act() == {seat}

        # Anna turns her cards until one calls for a reaction
        for _ in range(30):
            await until(anna_turns)
            turn = button(message, "kb:t:", ":turn")
            started = time.monotonic()
            await between_ticks(lambda: anna.click(message, custom_id=turn))  # noqa: B023
            turned_in = time.monotonic() - started
            assert turned_in < PROMPT
            if table.reveal_at is not None:
                break
        # the click that turned it is answered while the window is open, not once it has closed
        assert table.reveal_at is not None
        game = table.game
        assert game is not None
        right, length = correct_press(game, seat), window_ms(table.view(None))
        assert right is not None
        assert length is not None
        press = button(message, f"kb:r:{table.table_id}:{table.reveal_seq}:", f":{right}")

        started = time.monotonic()
        pressed = await between_ticks(lambda: anna.click(message, custom_id=press))
        assert time.monotonic() - started < PROMPT
        assert not pressed.ephemeral  # no refusal: the press was taken
        log = [(a.seat, a.notation) for a in await demo.bot.storage.actions(table.table_id)]
        turned = max(i for i, (s, n) in enumerate(log) if s == seat and n == "turn")
        presses = [n.split() for s, n in log[turned + 1 :] if s == seat]
        assert [verb for verb, _ in presses] == [right]  # it counts, as Anna's reaction
        assert int(presses[0][1]) < length

        # the computer players press too and the window closes; a press then is too late
        await until(lambda: table.reveal_at is None)
        seq = table.seq
        late = await between_ticks(
            lambda: anna.click(message, custom_id=button(message, "kb:r:", f":{right}"))
        )
        assert late.ephemeral
        assert late.response is not None
        assert "För sent" in message_text(late.response)
        assert table.seq == seq

    await in_the_demo(play)


class Browser:
    """What the preview's page does over HTTP: opens a page for a member, reads its state, and
    sends actions, numbered in order, each on the revision of the state it read last."""

    def __init__(self, http: aiohttp.ClientSession, base: str, opened: dict[str, Any]) -> None:
        self.http, self.base = http, base
        self.context = opened["context"]
        self.bot_generation = opened["botGeneration"]
        self.shown = opened
        self.sequence = 0

    @classmethod
    @contextlib.asynccontextmanager
    async def opened(cls, page: Preview, viewer_id: int) -> AsyncIterator[Browser]:
        address = urlsplit(page.url)
        base = f"http://{address.netloc}"
        capability = {"X-Simcord-Capability": address.fragment}
        async with aiohttp.ClientSession(headers=capability) as http:
            opened = await http.post(f"{base}/api/pages", json={"viewer_id": str(viewer_id)})
            yield cls(http, base, await opened.json())

    async def read(self) -> None:
        read = await self.http.get(f"{self.base}/api/state", headers=self.headers())
        self.shown = await read.json()

    async def until_shown(self, label: str) -> None:
        """Reads the state again and again, as the page does, until it shows ``label``."""
        await until(lambda: self.control(label) is not None, self.read)

    def control(self, label: str) -> str | None:
        """The control key of the control shown with ``label``."""
        return next((c["control_key"] for c in controls(self.shown) if c["label"] == label), None)

    async def act(self, kind: str, **fields: object) -> tuple[int, dict[str, Any]]:
        """Sends an action; answers the HTTP status and the receipt, then reads the state, as
        the page does once it has its receipt."""
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": f"{kind}-{self.sequence}",
            "generation": self.context["generation"],
            "bot_generation": self.bot_generation,
            "published_revision": self.shown["publishedRevision"],
            "kind": kind,
            **fields,
        }
        sent = await self.http.post(f"{self.base}/api/action", headers=self.headers(), json=body)
        receipt: dict[str, Any] = await sent.json()
        if sent.status == 200:
            await self.read()
        return sent.status, receipt

    async def click(self, label: str) -> tuple[int, dict[str, Any]]:
        key = self.control(label)
        assert key is not None, f"the page shows no {label}"
        return await self.act("click", control_key=key, target_id=key.split(":")[1])

    def headers(self) -> dict[str, str]:
        return {"X-Simcord-Context": self.context["id"]}


def controls(node: object) -> list[dict[str, Any]]:
    """Every control that a page's state shows to click."""
    if isinstance(node, list):
        return [c for item in node for c in controls(item)]
    if not isinstance(node, dict):
        return []
    found = [node] if "control_key" in node and "label" in node else []
    return found + [c for value in node.values() for c in controls(value)]


async def test_the_pages_actions_wait_for_the_steps_of_the_clock() -> None:
    """The page sends its actions while the clock steps all the time: none is refused for
    coming during a step (the page would take its outcome as uncertain and stop)."""

    async def play(demo: Simulated, page: Preview) -> None:
        async with Browser.opened(page, demo.members[0].id) as browser:
            answers = [await browser.act("refresh") for _ in range(40)]
        assert [(status, receipt.get("settlement")) for status, receipt in answers] == [
            (200, "settled")
        ] * 40

    await in_the_demo(play, tick=0.0)


async def test_a_click_that_changes_the_channel_leaves_the_page_current() -> None:
    """Bo sits down at a table from the page, then leaves: his second click is made on the
    revision the page read after the first, and is not refused as made on an old page."""

    async def play(demo: Simulated, page: Preview) -> None:
        anna, bo = demo.members[0], demo.members[1]
        await between_ticks(lambda: anna.slash(demo.channel, "spel ny", spel="hej_knekt"))
        table = table_in(demo.env, demo.channel.id)
        async with Browser.opened(page, bo.id) as browser:
            await browser.until_shown("Sätt dig")
            status, sat = await browser.click("Sätt dig")
            assert (status, sat["settlement"]) == (200, "settled")
            assert bo.id in {s.user_id for s in table.record.seats}
            # the clock steps on and nothing changes: the page Bo read after his click stays
            # current, and his next click, made on it, is taken
            await asyncio.sleep(3 * TICK)
            status, left = await browser.click("Lämna")
        assert (status, left.get("settlement"), left["diagnostics"]) == (200, "settled", [])
        assert bo.id not in {s.user_id for s in table.record.seats}

    await in_the_demo(play)
