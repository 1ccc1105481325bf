"""Outage benchmark: 20 tables played on PostgreSQL while the database goes away, then hangs.

    ./dev bench -m benchmarks.outage [--tables 20] [--seconds 10] [--postgres ADDRESS]

The session manager runs on PostgreSQL through the fault proxy of the test suite
(``tests/faultproxy.py``). ``--tables`` Tvåmanswhist tables of two members are played at once,
each member acting as soon as it is their turn (a failed move is tried again 0.25 s later, as a
member would). After a few seconds of play the proxy refuses and cuts every connection for
``--seconds``, then the tables play on; then it stalls every connection for ``--seconds``
(nothing answers, nothing is refused), then they play on again.

Printed for each fault: the member interactions it touched and the share answered within
Discord's 3 s (an outcome, or the deferral the Discord layer sends at ``DEFER_AFTER`` seconds),
with the share whose outcome itself came within 3 s; the tables that resume after it and the
time from the database's return to each table's next saved move. At the end: actions lost (a
move a member was told was saved but that is not in the database, or a table whose stored log
does not replay to what the members saw).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from bot.clock import SystemClock
from bot.discord.replies import DEFER_AFTER
from bot.errors import UserError
from bot.sessions import LiveTable, Member, SessionManager, replay
from bot.storage import open_storage

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from faultproxy import fault_proxy

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
WINDOW = 3.0
RETRY = 0.25


@dataclass
class Phase:
    name: str
    durations: list[float] = field(default_factory=list)
    resumed: dict[int, float] = field(default_factory=dict)
    back_at: float | None = None


@dataclass
class Run:
    phase: Phase
    saved: dict[int, list[str]] = field(default_factory=dict)
    stop: bool = False


async def play(sessions: SessionManager, table: LiveTable, run: Run) -> None:
    run.saved[table.table_id] = []
    while not run.stop and table.live and table.game is not None:
        game = table.game
        seat = min(game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        move = game.notation(game.legal_actions(seat)[0])
        phase = run.phase
        started = time.monotonic()
        try:
            await sessions.act(table.table_id, user_id, table.version, move)
        except UserError:
            phase.durations.append(time.monotonic() - started)
            await asyncio.sleep(RETRY)
            continue
        finished = time.monotonic()
        phase.durations.append(finished - started)
        run.saved[table.table_id].append(move)
        if phase.back_at is not None and table.table_id not in phase.resumed:
            phase.resumed[table.table_id] = finished - phase.back_at
        await asyncio.sleep(0.5)  # a member takes a moment to choose


def report(phase: Phase, tables: int) -> None:
    touched = phase.durations
    answered = sum(1 for d in touched if min(d, DEFER_AFTER) <= WINDOW)
    outcome = sum(1 for d in touched if d <= WINDOW)
    resume = sorted(phase.resumed.values())
    print(
        f"{phase.name}: {len(touched)} interactions, answered within {WINDOW:g} s:"
        f" {answered}/{len(touched)} ({100 * answered / max(1, len(touched)):.0f} %),"
        f" outcome within {WINDOW:g} s: {outcome}/{len(touched)};"
        f" tables resumed {len(resume)}/{tables}"
        + (
            f", in {statistics.median(resume):.2f} s median, {resume[-1]:.2f} s at most"
            if resume
            else ""
        )
    )


async def main(tables: int, seconds: float, server: str) -> None:
    schema = f"kortbord_outage_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        address = f"{server}{'&' if '?' in server else '?'}search_path={schema}"
        async with fault_proxy(address) as (proxy, proxied):
            storage = await open_storage(proxied)
            sessions = SessionManager(storage, SystemClock(), turn_seconds=3600, idle_seconds=7200)
            live = []
            for i in range(tables):
                await sessions.open_table(
                    guild_id=1,
                    channel_id=100 + i,
                    host=Member(1000 + 2 * i, f"A{i}"),
                    game_id="tvamanswhist",
                )
                await sessions.join(100 + i, Member(1001 + 2 * i, f"B{i}"))
                live.append(await sessions.start(100 + i, 1000 + 2 * i))
            run = Run(Phase("warm-up"))
            players = [asyncio.create_task(play(sessions, t, run)) for t in live]
            await asyncio.sleep(2)
            for name, away in (
                (f"{seconds:g} s outage (refused and cut)", "refuse"),
                (f"{seconds:g} s stall", "stall"),
            ):
                phase = Phase(name)
                run.phase = phase
                if away == "refuse":
                    await proxy.refuse()
                    proxy.cut()
                else:
                    proxy.stall()
                await asyncio.sleep(seconds)
                await proxy.resume()
                phase.back_at = time.monotonic()
                await asyncio.sleep(max(10.0, seconds))
                report(phase, tables)
            run.stop = True
            await asyncio.gather(*players)
            lost = 0
            for table in live:
                stored = await storage.actions(table.table_id)
                # every move a member was told was saved is in the log (the log may hold one
                # more: a move kept although its write got no answer, which the table caught up)
                lost += max(0, len(run.saved[table.table_id]) - len(stored))
                record = await storage.table(table.table_id)
                assert record is not None
                if table.game is not None and replay(record, stored).view(None) != table.game.view(
                    None
                ):
                    lost += 1
            print(f"actions lost or diverged: {lost}")
            await sessions.shutdown()
            await storage.close()
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--postgres", default=os.environ.get("KORTBORD_TEST_POSTGRES", DEFAULT_POSTGRES)
    )
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.seconds, args.postgres))
