"""Bot benchmark: the handling cost of a member's action and the Discord API calls it makes.

    ./dev bench -m benchmarks.bot [--tables 20] [--moves 10] [--no-forced] [--no-pictures]

Many Tvåmanswhist tables run at once on SimCord (the simulated Discord, in this process); at each
table the member whose turn it is plays from their open hand panel, round-robin over the tables.
A member's only legal card is played for them with the move before it, as by default
(``/spel tvingade``); ``--no-forced`` has them click it, and a panel that does not offer it yet
(a card just drawn) is then edited at once, which the panel count shows.
In the same run and the same simulated Discord, a trivial echo button answers as many clicks by
editing its message, so the figure to read is the ratio: what Kortbord adds over the least a bot
can do. The API calls of each action are counted by kind: the
interaction response, the table message edit, the other member's open panel, and DM hands. The
goal allows an edit of the other member's panel only where the action narrowed their choices
(their panel offered a move they may no longer make): such actions are counted from the game,
beside the panel edits made in any other, and the panels left offering a move not allowed. DM
edits are not delayed here (in production they are merged over ``DM_PAUSE``), so the DM count is
an upper bound. Beside the calls: the time to draw a table and a hand picture (the CPU
time of the thread that draws them, and the wall time beside) and the bytes sent per action
(request bodies and pictures). And how soon a click shows: the wall time from the click to the
request that answers it on the member's own panel, to the table message's edit, and to the edit of
the other member's panel when the turn narrows its choices (median and slowest tenth).

The bot's timers run on a simulated clock (``ManualClock``) that does not move: each member plays
the moment their turn comes, so the machine's wall time never counts as a member's thinking. The
refreshes and turn notices that a member who thinks longer than ``PANEL_GRACE`` or
``TURN_NOTICE_GRACE`` (``listener``) sets off are not counted here: at most one panel edit and
one notice per such turn.

The process's collector is tuned as ``kortbord run`` tunes it (``bot.service.tune_collector``),
once the bot is built. The echo clicks run first, before any table is open, so the baseline
measures a click and its answer alone, not the tables' background work (their edits, DMs and
timers) settling around it.
Both are measured in CPU time of the whole process (every thread), from the click until
everything it set off has settled: wall time would mostly measure SimCord's settling, which polls
for quiet every 50 ms, and made the echo look slower than Kortbord's action. That CPU time holds
the simulated Discord's own work too: answering each request (checking its components and the
message they make, storing it), which grows with a message's components, so a table message and a
hand panel cost the simulation far more than the echo's one button. That part (``Stamped``: its
router, its making of a click into an interaction, its handing of gateway events to the bot, less
the bot's own parsing of them as it would parse Discord's) is printed beside, and the ratio
without it: nearer what the bot itself spends, which is what a real Discord leaves to the bot's
machine (SimCord's settling and its tracking of the bot's tasks stay in it). The goal is read on
the whole.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import json
import re
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import discord
import simcord
import simcord.http.router
import simcord.interactions
from discord.state import ConnectionState
from simcord import Env, MemberActor, ResponseMessage
from simcord.backend import serializers
from simcord.backend.ops.base import BackendBase

from bot.clock import ManualClock
from bot.discord import listener
from bot.discord.client import Kortbord
from bot.discord.views import panel as panels
from bot.service import tune_collector
from bot.sessions import member_actions
from bot.settings import Settings

PICTURE_GOALS = {"table": 3, "hand": 2}
"""The most a picture may take to draw (median, ms): the table's and a hand's."""


class Drawn:
    """Times and sizes of the pictures drawn, by kind, wrapped around the drawing functions: the
    CPU time of the thread that draws (what drawing costs), and its wall time."""

    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = {"table": [], "hand": []}
        self.wall: dict[str, list[float]] = {"table": [], "hand": []}
        self.bytes = 0

    def wrap(self, kind: str, draw: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> bytes:
            started, cpu = time.perf_counter(), time.thread_time()
            data: bytes = draw(*args, **kwargs)
            self.ms[kind].append((time.thread_time() - cpu) * 1000)
            self.wall[kind].append((time.perf_counter() - started) * 1000)
            self.bytes += len(data)
            return data

        return timed


class EchoButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=r"echo:(?P<n>\d+)"
):
    """The least a bot can do with a click: answer it by editing the message."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=str(n), custom_id=f"echo:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> EchoButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(EchoButton(self.n + 1))
        view.stop()
        await interaction.response.edit_message(content=f"echo {self.n}", view=view)


class Stamped:
    """When each request reached the simulated Discord (wall time), by its place in SimCord's log
    of requests, and the CPU time the simulated Discord spent on its own work (``simulated``,
    seconds): answering the requests (its router, which logs every request the bot makes), making
    a member's click into an interaction (the clicked message's payload), and handing gateway
    events to the bot (copying each, hiding what the bot's intents do not grant), less the bot's
    own parsing of those events (discord.py's ``parse_*``, as it would parse Discord's). Its
    settling (waiting for quiet) and its tracking of the bot's tasks and timers are not counted
    here. Made before the bot is built, whose parsers are taken then."""

    def __init__(self) -> None:
        self.at: dict[int, float] = {}
        self.simulated = 0.0
        self._parsed = 0.0
        self._inside = 0
        dispatch = simcord.http.router.dispatch

        def simulating(work: Any, stamp: bool = False) -> Any:
            def simulated(*args: Any, **kwargs: Any) -> Any:
                reached, cpu, parsed = time.perf_counter(), time.thread_time(), self._parsed
                self._inside += 1
                try:
                    return work(*args, **kwargs)
                finally:
                    self._inside -= 1
                    if not self._inside:
                        self.simulated += time.thread_time() - cpu - (self._parsed - parsed)
                    if stamp:
                        self.at.setdefault(len(args[0].http_requests) - 1, reached)

            return simulated

        def parsing(parse: Any) -> Any:
            def parsed(*args: Any, **kwargs: Any) -> Any:
                cpu = time.thread_time()
                try:
                    return parse(*args, **kwargs)
                finally:
                    if self._inside:
                        self._parsed += time.thread_time() - cpu

            return parsed

        simcord.http.router.dispatch = simulating(dispatch, stamp=True)
        serializers.message_payload = simulating(serializers.message_payload)
        simcord.interactions.base_payload = simulating(simcord.interactions.base_payload)
        BackendBase.emit = simulating(BackendBase.emit)  # type: ignore[method-assign]
        for name, parse in vars(ConnectionState).items():
            if name.startswith("parse_"):
                setattr(ConnectionState, name, parsing(parse))


def kind_of(request: Any, table_messages: set[int]) -> str:
    path = str(request.path)
    if path.startswith("/interactions/"):
        return "response"
    if path.startswith("/webhooks/"):
        return "panel"
    match = re.match(r"/channels/\d+/messages/(\d+)$", path)
    if match and int(match[1]) in table_messages:
        return "table"
    return "dm" if "/messages" in path or path.startswith("/users/") else "other"


def legal_control(message: Any, legal: set[str]) -> dict[str, Any] | None:
    """The first control on the panel that makes a legal move now, as the member would pick it
    (on the member's turn the panel offers only legal moves: it is edited when it offered more)."""
    for c in controls_of(message.components):
        cid = str(c.get("custom_id", ""))
        if cid.startswith("kb:a:") and panels.decode(cid.rsplit(":", 1)[1]) in legal:
            return dict(c)
        if cid.startswith("kb:s:") and any(o["value"] in legal for o in c["options"]):
            return dict(c)
    return None


def offered(message: Any) -> set[str]:
    """What a hand panel offers now: the moves of its action buttons and select menus."""
    moves: set[str] = set()
    for c in controls_of(message.components):
        cid = str(c.get("custom_id", ""))
        if cid.startswith("kb:a:"):
            moves.add(panels.decode(cid.rsplit(":", 1)[1]))
        elif cid.startswith("kb:s:"):
            moves.update(str(o["value"]) for o in c["options"])
    return moves


def not_allowed(table: Any, offers: dict[int, set[str]]) -> int:
    """How many of these members' panels (what each offers) offer a move that the member may
    not make now, on their turn: before an action, where it narrowed their choices (a suit to
    follow), the panel edits the goal allows; after it, a panel left wrong."""
    count = 0
    for user_id, moves in offers.items():
        seat = table.seat_of(user_id)
        if seat is None or table.game is None or table.game.is_over():
            continue
        legal = set(member_actions(table.game, seat).values())
        count += bool(legal) and not moves <= legal
    return count


def controls_of(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A layout message's controls, out of its container and rows, in order."""
    out = []
    for c in components:
        if c.get("type") in (2, 3):
            out.append(c)
        out += controls_of(list(c.get("components", [])))
    return out


async def run(
    tables: int,
    moves: int,
    folder: Path,
    drawn: Drawn,
    forced: bool,
    profile: Path | None = None,
    updates: dict[str, list[float]] | None = None,
    pictures: bool = True,
) -> tuple[list[float], list[float], Counter[str], int, int, int, list[float], list[float]]:
    settings = Settings(database=folder / "bench.sqlite3", _env_file=None)  # type: ignore[call-arg]
    clock = ManualClock(time.time())
    stamped = Stamped()
    bot = Kortbord(settings, computer_delay=0.0, dm_pause=0.0, clock=clock)
    bot.add_dynamic_items(EchoButton)
    tune_collector()  # as ``kortbord run`` does once the bot is built
    async with simcord.run(bot) as env:
        await bot.tree.sync()
        guild = env.create_guild()
        if not pictures:  # as /inställningar kortbilder:False sets it
            found = await bot.guild_settings(guild.id)
            await bot.save_guild_settings(dataclasses.replace(found, pictures=False))
        echo, echo_simulated = await echo_clicks(env, guild, tables * moves, stamped)
        seats: list[tuple[Any, dict[int, MemberActor], dict[int, ResponseMessage]]] = []
        for t in range(tables):
            channel = guild.create_text_channel(f"bord-{t}")
            anna = guild.add_member(env.create_user(f"anna{t}"))
            bo = guild.add_member(env.create_user(f"bo{t}"))
            opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
            message = opened.response
            assert message is not None
            await bo.click(message, label="Sätt dig")
            for m in (anna, bo):
                await bot.sessions.choices.set("forced_cards", m.id, forced)
            await anna.click(message, label="Starta")
            hand_panels: dict[int, ResponseMessage] = {}
            for m in (anna, bo):
                shown = await m.click(message, label="Min hand")
                assert shown.response is not None
                hand_panels[m.id] = shown.response
            seats.append((channel, {anna.id: anna, bo.id: bo}, hand_panels))
        table_messages = {
            t.record.message_id for t in bot.sessions.live_tables() if t.record.message_id
        }
        kinds: Counter[str] = Counter()
        times: list[float] = []
        simulated: list[float] = []
        sent = picture_bytes = played_for = 0
        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        for _ in range(moves):
            for channel, members, hand_panels in seats:
                table = bot.sessions.table_in(channel.id)
                if table is None or table.game is None or table.game.is_over():
                    continue
                seat = min(table.game.to_act())
                user_id = table.record.seats[seat].user_id
                assert user_id is not None
                before, drawn_before = len(env.http_requests), drawn.bytes
                panel = hand_panels[user_id]
                legal = set(member_actions(table.game, seat).values())
                control = legal_control(panel, legal)
                assert control is not None, "the panel offers no legal move: it needed an edit"
                seq = table.seq
                others = {m: offered(hand_panels[m]) for m in members if m != user_id}
                # from the click on: the member's finding their move is not the bot's work
                started, clicked = time.process_time(), time.perf_counter()
                simulated_before = stamped.simulated
                if control["custom_id"].startswith("kb:a:"):
                    await members[user_id].click(panel, custom_id=control["custom_id"])
                else:
                    value = next(o["value"] for o in control["options"] if o["value"] in legal)
                    await members[user_id].select(panel, [value], custom_id=control["custom_id"])
                await env.settle()
                times.append(time.process_time() - started)
                simulated.append(stamped.simulated - simulated_before)
                assert table.seq > seq, "the click did not play"
                played_for += table.seq - seq - 1  # an only legal card that followed it
                requests = env.http_requests[before:]
                kinds.update(kind_of(r, table_messages) for r in requests)
                narrowing = not_allowed(table, others)
                kinds["left wrong"] += not_allowed(
                    table, {m: offered(hand_panels[m]) for m in others}
                )
                kinds["narrowed"] += narrowing
                edits = sum(kind_of(r, table_messages) == "panel" for r in requests)
                kinds["panel elsewhere"] += max(edits - narrowing, 0)
                if updates is not None:
                    for where in ("response", "table", "panel"):
                        at = [
                            stamped.at[before + n]
                            for n, r in enumerate(requests)
                            if kind_of(r, table_messages) == where and before + n in stamped.at
                        ]
                        if at:
                            updates[where].append((at[0] - clicked) * 1000)
                sent += sum(len(json.dumps(r.json)) for r in requests if r.json is not None)
                picture_bytes += drawn.bytes - drawn_before
        if profiler and profile:
            profiler.disable()
            profiler.dump_stats(profile)
        await bot.close()  # closes the database too, whose thread would keep the process alive
    n = len(times)
    return times, echo[:n], kinds, sent, picture_bytes, played_for, simulated, echo_simulated[:n]


async def echo_clicks(
    env: Env, guild: Any, clicks: int, stamped: Stamped
) -> tuple[list[float], list[float]]:
    """The same number of clicks on the echo button, in the same simulated Discord: the CPU
    time of each, and the simulated Discord's part of it."""
    channel = guild.create_text_channel("echo")
    member = guild.add_member(env.create_user("echo"))
    view = discord.ui.View(timeout=None)
    view.add_item(EchoButton(0))
    view.stop()
    await env.bot.get_partial_messageable(channel.id).send("echo", view=view)
    await env.settle()
    message = channel.history()[-1]
    times, simulated = [], []
    for n in range(clicks):
        started, simulated_before = time.process_time(), stamped.simulated
        await member.click(message, custom_id=f"echo:{n}")
        await env.settle()
        times.append(time.process_time() - started)
        simulated.append(stamped.simulated - simulated_before)
    return times, simulated


async def main(
    tables: int, moves: int, forced: bool, profile: Path | None = None, pictures: bool = True
) -> None:
    drawn = Drawn()
    for module, name, kind in ((listener, "table_png", "table"), (panels, "hand_png", "hand")):
        setattr(module, name, drawn.wrap(kind, getattr(module, name)))
    with tempfile.TemporaryDirectory() as folder:
        shown: dict[str, list[float]] = {"response": [], "table": [], "panel": []}
        run_ = await run(tables, moves, Path(folder), drawn, forced, profile, shown, pictures)
    times, echo, kinds, sent, picture_bytes, played_for, simulated, echo_simulated = run_
    ours, theirs = statistics.median(times) * 1000, statistics.median(echo) * 1000
    print(
        f"{tables} tables, {len(times)} member actions through SimCord (median, CPU time), "
        f"pictures {'on' if pictures else 'off'}"
    )
    print(
        f"only legal cards played for the members: {played_for} "
        f"({'on' if forced else 'off'}, as /spel tvingade sets it)"
    )
    print(f"kortbord: {ours:7.2f} ms per action")
    ratio = ours / theirs
    print(f"echo bot: {theirs:7.2f} ms per click   (kortbord/echo {ratio:.1f}x; goal: at most 4x)")
    ours_less = statistics.median(t - d for t, d in zip(times, simulated, strict=True)) * 1000
    theirs_less = statistics.median(t - d for t, d in zip(echo, echo_simulated, strict=True)) * 1000
    answering = statistics.median(simulated) * 1000, statistics.median(echo_simulated) * 1000
    print(
        f"  of which the simulated Discord's own work: "
        f"kortbord {answering[0]:.2f} ms, echo {answering[1]:.2f} ms"
    )
    print(
        f"  less that: kortbord {ours_less:.2f} ms, echo {theirs_less:.2f} ms "
        f"(kortbord/echo {ours_less / theirs_less:.1f}x)"
    )
    calls = sum(kinds[k] for k in ("response", "table", "panel", "dm", "other"))
    print(
        f"Discord API calls per action: {calls / len(times):.3f} (goal: one response, one table "
        "edit, and a waiting member's panel edit only where their choices narrowed)"
    )
    for kind in ("response", "table", "panel", "dm", "other"):
        print(f"  {kind:9} {kinds[kind] / len(times):5.2f}")
    print(
        f"  the other member's choices narrowed in {kinds['narrowed']} of {len(times)} actions; "
        f"panel edits beyond those: {kinds['panel elsewhere']}; "
        f"panels left offering a move not allowed: {kinds['left wrong']}"
    )
    for kind, ms in drawn.ms.items():
        if ms:
            goal = PICTURE_GOALS[kind]
            wall = statistics.median(drawn.wall[kind])
            print(
                f"{kind} picture: {statistics.median(ms):6.2f} ms CPU to draw "
                f"(median of {len(ms)}; goal: at most {goal} ms; wall time {wall:.2f} ms)"
            )
    print("from the click to (wall time, ms: median, slowest tenth):")
    names = {
        "response": "the member's own panel",
        "table": "the table message",
        "panel": "the other member's panel",
    }
    for where, ms in shown.items():
        if len(ms) >= 2:
            p90 = statistics.quantiles(ms, n=10)[-1]
            print(f"  {names[where]:26} {statistics.median(ms):6.1f} {p90:6.1f}  ({len(ms)})")
    total = sent + picture_bytes
    print(
        f"bytes sent per action: {total / len(times) / 1000:.1f} kB "
        f"(requests {sent / len(times) / 1000:.1f} kB, "
        f"pictures {picture_bytes / len(times) / 1000:.1f} kB)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables played at once")
    parser.add_argument("--moves", type=int, default=10, help="member actions per table")
    parser.add_argument(
        "--no-forced",
        action="store_true",
        help="the members click their only legal card themselves (/spel tvingade på:False)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        metavar="FILE",
        help="write cProfile statistics of the measured actions (the event loop's thread) to FILE",
    )
    parser.add_argument(
        "--no-pictures",
        action="store_true",
        help="the server has turned the pictures off (/inställningar kortbilder:False)",
    )
    args = parser.parse_args()
    asyncio.run(
        main(args.tables, args.moves, not args.no_forced, args.profile, not args.no_pictures)
    )
