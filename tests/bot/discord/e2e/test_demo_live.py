"""``kortbord demo`` live: the demo's own simulated Discord and page, its clock following the
wall clock. A member waits in wall time, as at the demo's page.

Nothing here races the machine: a click is answered once SimCord has joined the bot's work, and
the bot's timers wait for the demo's clock (``SimulatedClock``), so a busy machine makes the demo
slower and never wrong. Hej knekt is played with six other processes spinning on the cores: a
card's reaction window opens when the page shows the card, and a press a second later counts.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp
import pytest
from members import button, components, message_text, open_hand, play_first_legal, table_in
from PIL import Image
from simcord import Preview, SetupError

from bot.demo import TICK, Simulated, _follow_the_clock, _Shown, simulated
from bot.discord.views.table import reaction_label
from bot.i18n import catalog
from bot.sessions import LiveTable, correct_press, window_ms
from bot.settings import Settings

T = TypeVar("T")
SEED = 2026
PATIENCE = 600.0
"""Seconds of wall time the match may take to come to what a step waits for: a bound for a demo
that hangs, far beyond what a busy machine needs."""
SPINNERS = 6
"""Processes kept spinning beside the demo: a load of about 7 on two cores."""
MEMBER_WAITS = 1.0
"""Seconds a member takes to press once the card is on the page."""


@contextlib.contextmanager
def busy_cores(count: int = SPINNERS) -> Iterator[None]:
    """``count`` processes spinning on the cores for as long as the block runs; each is ended,
    by its own id, however the block ends."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


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
        assert time.monotonic() < deadline, "the demo did not get there at all"
        await asyncio.sleep(0.01)
        if step is not None:
            await step()


async def hej_knekt(demo: Simulated, *, seated: int = 1) -> tuple[Any, LiveTable]:
    """Anna opens Hej knekt, the next ``seated - 1`` members sit down, and Anna starts it, the
    empty seats taken by computer players."""
    anna = demo.members[0]
    opened = await between_ticks(lambda: anna.slash(demo.channel, "spel ny", spel="hej_knekt"))
    message = opened.response
    assert message is not None
    for member in demo.members[1:seated]:
        await between_ticks(lambda: member.click(message, label="Sätt dig"))  # noqa: B023
    asked = (await between_ticks(lambda: anna.click(message, label="Starta"))).response
    assert asked is not None
    await between_ticks(lambda: anna.click(asked, label="Fyll med datorspelare och starta"))
    return message, table_in(demo.env, demo.channel.id)


async def turn_until_a_reaction(demo: Simulated, message: Any, table: LiveTable) -> None:
    """The members turn their cards (the computer players theirs) until one calls for a
    reaction."""
    by_user = {m.id: m for m in demo.members}
    for _ in range(200):
        await until(lambda: table.in_window or members_turn(table) is not None)
        if table.in_window:
            return
        seat = members_turn(table)
        assert seat is not None
        member = by_user[table.record.seats[seat].user_id or 0]
        turn = button(message, "kb:t:", ":turn")
        await between_ticks(lambda: member.click(message, custom_id=turn))  # noqa: B023
    raise AssertionError("no card called for a reaction")


def members_turn(table: LiveTable) -> int | None:
    """The seat of the member whose turn it is to turn a card, if it is a member's."""
    game = table.game
    if game is None or table.in_window:
        return None
    acting = [s for s in game.to_act() if not table.by_computer(s)]
    return acting[0] if len(acting) == 1 and len(game.to_act()) == 1 else None


async def in_the_demo(
    play: Callable[[Simulated, Preview], Awaitable[None]], *, tick: float = TICK
) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    async with (
        simulated(settings, rng=random.Random(SEED)) as demo,
        demo.env.preview(demo.channel, viewers=demo.members, layout="channel") as page,
    ):
        clock = asyncio.create_task(
            _follow_the_clock(demo.env, page, demo.channel, tick=tick, sight=demo.sight)
        )
        try:
            await play(demo, page)
        finally:
            clock.cancel()
            await asyncio.gather(clock, return_exceptions=True)


async def presses_of(demo: Simulated, table: LiveTable, seat: int) -> list[list[str]]:
    """The presses ``seat`` made on the last card turned, as logged: ``[verb, ms]``."""
    log = [(a.seat, a.notation) for a in await demo.bot.storage.actions(table.table_id)]
    turned = max(i for i, (_, n) in enumerate(log) if n == "turn")
    return [n.split() for s, n in log[turned + 1 :] if s == seat]


@pytest.mark.slow
async def test_a_press_a_second_after_the_page_shows_the_card_counts_on_a_busy_machine() -> None:
    """Anna and Bo play Hej knekt with two computer players while six processes spin on the
    cores. Anna waits for the page to show her the turned card, then presses a second later:
    her press counts as her reaction (the window ran from when she could see the card)."""

    async def play(demo: Simulated, page: Preview) -> None:
        anna = demo.members[0]
        message, table = await hej_knekt(demo, seated=2)
        anna_seat = table.seat_of(anna.id)
        assert anna_seat is not None
        async with Browser.opened(page, anna.id) as browser:
            await turn_until_a_reaction(demo, message, table)
            game = table.game
            assert game is not None
            right = correct_press(game, anna_seat)
            assert right is not None
            label = reaction_label(catalog("sv"), "hej_knekt", right)
            # the page shows the turned card, with its buttons: Anna sees it, and a second later
            # she presses on the page
            await browser.until(lambda: browser.control(label, seq=table.reveal_seq) is not None)
            await asyncio.sleep(MEMBER_WAITS)
            status, pressed = await browser.click(label)
        assert (status, pressed["settlement"]) == (200, "settled"), pressed["diagnostics"]
        length = window_ms(table.view(None)) or 5000
        presses = await presses_of(demo, table, anna_seat)
        assert [verb for verb, _ in presses] == [right]  # it counts, as Anna's reaction
        assert int(presses[0][1]) < length

    with busy_cores():
        await in_the_demo(play)


async def test_a_member_turns_a_card_and_presses_in_time_in_the_demo() -> None:
    async def play(demo: Simulated, page: Preview) -> None:
        anna = demo.members[0]
        message, table = await hej_knekt(demo)
        seat = table.seat_of(anna.id)
        assert seat is not None
        await turn_until_a_reaction(demo, message, table)
        # the card is shown, and its window open, before anyone can react
        await until(lambda: table.reveal_at is not None)
        game = table.game
        assert game is not None
        right, length = correct_press(game, seat), window_ms(table.view(None))
        assert right is not None
        assert length is not None
        press = button(message, f"kb:r:{table.table_id}:{table.reveal_seq}:", f":{right}")
        pressed = await between_ticks(lambda: anna.click(message, custom_id=press))
        assert not pressed.ephemeral  # no refusal: the press was taken
        presses = await presses_of(demo, table, seat)
        assert [verb for verb, _ in presses] == [right]  # it counts, as Anna's reaction
        assert int(presses[0][1]) < length

        # the computer players press too and the window closes; a press then is too late
        await until(lambda: not table.in_window)
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
        await self.until(lambda: self.control(label) is not None)

    async def until(self, condition: Callable[[], bool]) -> None:
        """Reads the state again and again, as the page does, until ``condition`` holds."""
        await until(condition, self.read)

    def control(self, label: str, *, seq: int | None = None) -> str | None:
        """The control key of the control shown with ``label`` (a reaction button: for the
        card turned at action ``seq``)."""
        for control in controls(self.shown):
            key = control["control_key"]
            custom_id = str(control.get("custom_id", ""))
            if control["label"] == label and (seq is None or f":{seq}:" in custom_id):
                return str(key)
        return None

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

    async def fetch(self, asset_id: str) -> tuple[int, bytes]:
        """Fetches a picture the state names, as the page does to show it."""
        fetched = await self.http.get(f"{self.base}/api/assets/{asset_id}", headers=self.headers())
        return fetched.status, await fetched.read()

    def headers(self) -> dict[str, str]:
        return {"X-Simcord-Context": self.context["id"]}


def gallery(node: object) -> list[dict[str, Any]]:
    """The pictures a part of a page's state shows in its media galleries."""
    if isinstance(node, list):
        return [m for item in node for m in gallery(item)]
    if not isinstance(node, dict):
        return []
    found = [item["media"] for item in node.get("items", [])] if node.get("type") == 12 else []
    return found + [m for value in node.values() for m in gallery(value)]


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


@contextlib.asynccontextmanager
async def whist_on_the_page() -> AsyncIterator[tuple[Simulated, Preview, _Shown, Any]]:
    """Anna plays Tvåmanswhist against a computer player in the demo, its page shown the table;
    the clock stands still (the test steps it)."""
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    async with (
        simulated(settings, rng=random.Random(SEED)) as demo,
        demo.env.preview(demo.channel, viewers=demo.members, layout="channel") as page,
    ):
        shown = _Shown(page, demo.channel, demo.sight)
        anna = demo.members[0]
        opened = await anna.slash(demo.channel, "spel ny", spel="tvamanswhist")
        message = opened.response
        assert message is not None
        asked = (await anna.click(message, label="Starta")).response
        assert asked is not None
        await anna.click(asked, label="Fyll med datorspelare och starta")
        await shown.catch_up()
        yield demo, page, shown, message


async def whist_moves_on(demo: Simulated, message: Any, until: Callable[[], bool]) -> None:
    """The table of ``whist_on_the_page`` plays on (Anna, or the computer player as the clock
    steps) until ``until`` holds."""
    anna = demo.members[0]
    table = table_in(demo.env, demo.channel.id)
    while not until():
        assert table.game is not None
        if any(not table.by_computer(s) for s in table.game.to_act()):
            await play_first_legal(anna, await open_hand(anna, message))
        else:
            await demo.env.advance_time(1.0)


async def test_a_page_opened_while_the_table_moves_on_takes_its_phones_width() -> None:
    """A page sets its width with its first action. Computer players republished the page
    before it came, and SimCord refused it as made on an old page: a phone was shown the
    channel 960 px wide."""
    async with whist_on_the_page() as (demo, page, shown, message):
        table = table_in(demo.env, demo.channel.id)
        async with Browser.opened(page, demo.members[0].id) as browser:
            await browser.read()
            seq = table.seq
            await whist_moves_on(demo, message, lambda: table.seq != seq)
            await shown.catch_up()  # the page is republished
            size = {"width": 360, "height": 740, "host_width": 360, "host_height": 740}
            status, receipt = await browser.act(
                "configure_presentation", layout="channel", display="responsive", **size
            )
        assert (status, receipt["settlement"], receipt["diagnostics"]) == (200, "settled", [])
        assert browser.shown["presentation"]["viewport"] == {"width": 360, "height": 740}


async def test_a_picture_the_page_read_is_served_after_the_bot_replaced_it() -> None:
    """The page reads the table with its picture; the bot edits the table (a new picture) before
    the page has fetched it, and the demo republishes the page: the page still gets the picture
    it read, a read before the republication still names it, and the new one is served too."""
    async with whist_on_the_page() as (demo, page, shown, message):
        anna = demo.members[0]

        def table_pictures(browser: Browser) -> list[dict[str, Any]]:
            return gallery(browser.shown["messages"][str(message.id)])

        def attachments() -> list[str]:
            edited = demo.env.backend.get_message(demo.channel.id, message.id)
            return [str(a["id"]) for a in edited.attachments]

        async with Browser.opened(page, anna.id) as browser:
            await browser.read()
            (read,) = table_pictures(browser)
            assert read["attachment_id"] == attachments()[0]
            # the table moves on (Anna plays, or a computer player), and the bot uploads the
            # picture anew; the page has not been republished yet
            before = attachments()
            await whist_moves_on(demo, message, lambda: attachments() != before)
            await browser.read()
            assert table_pictures(browser) == [read]  # the state as published: its picture
            status, _ = await browser.fetch(read["asset_id"])
            assert status == 200
            await shown.catch_up()  # the page is republished with the new picture
            status, _ = await browser.fetch(read["asset_id"])
            assert status == 200  # the page that read the old state still gets its picture
            await browser.read()
            (new,) = table_pictures(browser)
            assert new["attachment_id"] == attachments()[0] != read["attachment_id"]
            status, _ = await browser.fetch(new["asset_id"])
            assert status == 200


async def test_the_page_gets_a_picture_without_a_process_started_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SimCord checks a picture before it serves it; the demo checks the bot's pictures in its
    own process, so the page has one at once on a busy machine too, and with no warning."""
    started: list[tuple[object, ...]] = []
    start = asyncio.create_subprocess_exec

    async def counted(*command: Any, **options: Any) -> asyncio.subprocess.Process:
        started.append(command)
        return await start(*command, **options)

    monkeypatch.setattr(asyncio, "create_subprocess_exec", counted)
    async with (
        whist_on_the_page() as (demo, page, _, message),
        Browser.opened(page, demo.members[0].id) as browser,
    ):
        await browser.read()
        pictures = [m for shown in browser.shown["messages"].values() for m in gallery(shown)]
        assert [m["filename"] for m in pictures] == ["table.png"]
        status, picture = await browser.fetch(pictures[0]["asset_id"])
        assert status == 200
        uploaded = demo.env.backend.get_message(demo.channel.id, message.id).attachments
        assert pixels(picture) == pixels(demo.env.backend.cdn.get(uploaded[0]["url"]) or b"")
        # checked within SimCord's bounds, as its process would be: the page warns of nothing
        await browser.read()
        assert browser.shown["assets"][pictures[0]["asset_id"]]["workerMemoryLimited"] is True
    assert started == []


@pytest.mark.slow
@pytest.mark.parametrize("game", ["snipp_snapp_snorum", "tvamanswhist"])
async def test_the_page_shows_the_picture_of_every_state_of_a_whole_match(game: str) -> None:
    """Anna plays a whole match with computer players while her page reads the channel again
    and again, as the page does. Every state it reads names the pictures of the table and of her
    hand, and each can be fetched: at once, and still after the page has read a newer state (a
    page fetches what it read while the bot edits on). At the end the page shows the table's
    last picture."""

    async def play(demo: Simulated, page: Preview) -> None:
        anna = demo.members[0]
        opened = await between_ticks(lambda: anna.slash(demo.channel, "spel ny", spel=game))
        message = opened.response
        assert message is not None
        asked = (await between_ticks(lambda: anna.click(message, label="Starta"))).response
        assert asked is not None
        await between_ticks(lambda: anna.click(asked, label="Fyll med datorspelare och starta"))
        table = table_in(demo.env, demo.channel.id)
        table_id = str(table.record.message_id)
        missing: list[str] = []
        read: list[int] = []
        async with Browser.opened(page, anna.id) as browser:

            async def fetched(revision: int, pictures: list[tuple[str, Any]], when: str) -> None:
                for message_id, media in pictures:
                    what = f"revision {revision}, {media.get('filename')} of {message_id} {when}"
                    if not media.get("asset_id") or not media.get("available"):
                        missing.append(f"{what}: not named")
                        continue
                    status, _ = await browser.fetch(media["asset_id"])
                    if status != 200:
                        missing.append(f"{what}: {status}")

            async def watch() -> None:
                before: tuple[int, list[tuple[str, Any]]] | None = None
                while True:
                    await browser.read()
                    revision = browser.shown["publishedRevision"]
                    if before is not None and revision == before[0]:
                        await asyncio.sleep(0.01)
                        continue
                    messages = browser.shown["messages"]
                    shown = [(i, m) for i, message in messages.items() for m in gallery(message)]
                    read.append(revision)
                    await fetched(revision, shown, "at once")
                    if before is not None:
                        await fetched(*before, "after a newer state was read")
                    before = (revision, shown)

            watching = asyncio.create_task(watch())
            try:
                while table.game is not None and not table.game.is_over():
                    if not any(not table.by_computer(s) for s in table.game.to_act()):
                        await asyncio.sleep(0.01)
                        continue

                    async def hand() -> Any:
                        # the match may have ended since: a finished table has no hand to open
                        # (looked at with no await before the click)
                        if table.game is None or table.game.is_over():
                            return None
                        return await open_hand(anna, message)

                    panel = await between_ticks(hand)
                    if panel is not None and offers_a_move(panel):  # not while a trick shows
                        await between_ticks(lambda: play_first_legal(anna, panel))  # noqa: B023
                    else:
                        await asyncio.sleep(0.01)
                # the page comes to the table's last picture, as the bot uploaded it last
                last: list[dict[str, Any]] = []

                def at_the_end() -> bool:
                    last[:] = demo.env.backend.get_message(demo.channel.id, message.id).attachments
                    named = gallery(browser.shown["messages"].get(table_id, {}))
                    return table.record.status == "finished" and [
                        m.get("attachment_id") for m in named
                    ] == [str(a["id"]) for a in last]

                await until(at_the_end)
                shown = gallery(browser.shown["messages"][table_id])
                status, picture = await browser.fetch(shown[0]["asset_id"])
            finally:
                watching.cancel()
                await asyncio.gather(watching, return_exceptions=True)
        assert len(read) >= 5  # the page read the match as it went
        assert missing == []
        assert status == 200
        uploaded = demo.env.backend.cdn.get(last[0]["url"])
        assert uploaded is not None
        assert pixels(picture) == pixels(uploaded)

    await in_the_demo(play)


def offers_a_move(panel: Any) -> bool:
    """Whether a hand panel offers a choice to play."""
    prefixes = ("kb:a:", "kb:s:", "kb:st:")
    return any(str(c.get("custom_id", "")).startswith(prefixes) for c in components(panel))


def pixels(png: bytes) -> bytes:
    """What a picture shows (the preview serves it re-encoded)."""
    return Image.open(io.BytesIO(png)).convert("RGBA").tobytes()
