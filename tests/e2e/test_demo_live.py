"""``kortbord demo`` live: the demo's own simulated Discord and page, its clock following the
wall clock. Clicks are timed in wall time, as the member waits.

A click in the demo is answered once SimCord has settled the bot's work and its timers about to
fall due; with SimCord's default (5 s) a card turned in Hej knekt was answered only after its
reaction window had closed, so the member never saw it open. SimCord carries out one operation at
a time, and a step of the clock is one: the page's clicks wait for it rather than fail.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import aiohttp
from members import components, message_text, table_in
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


async def until(condition: Callable[[], bool]) -> None:
    """Wait, in wall time, while the demo plays on."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "the match did not get there in time"
        await asyncio.sleep(0.01)


def button(message: Any, prefix: str, suffix: str) -> str:
    for c in components(message):
        cid = str(c.get("custom_id", ""))
        if cid.startswith(prefix) and cid.endswith(suffix):
            return cid
    raise AssertionError(f"no button {prefix}...{suffix}")


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
        right, length = correct_press(game, seat), window_ms(game)
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


async def test_the_pages_actions_wait_for_the_steps_of_the_clock() -> None:
    """The page sends its actions over HTTP while the clock steps all the time: none is refused
    for coming during a step (the page would take its outcome as uncertain and stop)."""

    async def play(demo: Simulated, page: Preview) -> None:
        address = urlsplit(page.url)
        base = f"http://{address.netloc}"
        async with aiohttp.ClientSession(
            headers={"X-Simcord-Capability": address.fragment}
        ) as http:
            opened = await (await http.post(f"{base}/api/pages", json={})).json()
            context = opened["context"]
            statuses = []
            for sequence in range(1, 41):
                sent = await http.post(
                    f"{base}/api/action",
                    headers={"X-Simcord-Context": context["id"]},
                    json={
                        "protocol_version": 3,
                        "sequence": sequence,
                        "request_id": f"refresh-{sequence}",
                        "generation": context["generation"],
                        "bot_generation": opened["botGeneration"],
                        "kind": "refresh",
                    },
                )
                receipt = await sent.json()
                statuses.append((sent.status, receipt.get("settlement")))
        assert statuses == [(200, "settled")] * 40

    await in_the_demo(play, tick=0.0)
