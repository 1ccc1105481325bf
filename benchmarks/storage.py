"""Storage benchmark: the session manager on SQLite and on PostgreSQL, side by side in one run.

    ./dev bench -m benchmarks.storage [--tables 1000 3000 10000] [--moves 3] [--postgres ADDRESS]
                                      [--game tvamanswhist]

For each database and each count of ``--tables``: that many tables of ``--game`` (Tvåmanswhist
unless named) are opened, joined and started through the session manager, a member in every seat of
the fewest the game is played by, then every table plays ``--moves`` member actions, all tables
acting at once, as members on many servers would. The figures: actions not saved (a member told
their move was not saved; the goal is none: a queue is not an outage), member actions committed per
second (each one committed before ``act`` returns, as before a member is answered), and the median
time of one action while all the tables wait their turn for the database (mostly waiting, with
thousands of tables). Then the process stops as on SIGTERM (every table paused and saved: the stop
time) and a fresh session manager restores all the live tables: the restore time is what a restart
costs before the bot serves again, measured as in a new process (the stopped session manager's
tables and garbage let go first). A member plays the first move their panel offers
(``LiveTable.choices``, what a face builds it from): the first of the seats to act whose panel
offers one (a reaction window's presses are left to its timers, which this clock never runs: a table
that waits only for them stops there).

The last column is the storage alone: the same count of tables, each recording ``--moves``
actions straight through ``Storage.record_action`` (all tables at once), without the session
manager's own work per action (rules, views, timers), which otherwise bounds the first figure.

An action that is not saved never stops the run: it is counted, and its table goes on.

The process's collector is tuned as ``kortbord run`` tunes it (``bot.service.tune_collector``),
before the first table is opened.

PostgreSQL is the server named by ``--postgres`` (default: ``KORTBORD_TEST_POSTGRES``, else
``postgresql://postgres@127.0.0.1:5432/test``), in a schema of its own that is dropped after.
Without a server that answers, its line says why it was not measured.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import asyncpg

from bot.clock import ManualClock
from bot.errors import UserError
from bot.service import tune_collector
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import (
    ActionRecord,
    SeatRecord,
    Storage,
    StorageError,
    TableRecord,
    open_storage,
)
from games.registry import SPECS

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"

T = TypeVar("T")


@dataclass(frozen=True)
class Figures:
    tables: int
    actions: int
    not_saved: int
    seconds: float
    median_ms: float
    stop_seconds: float
    """The graceful stop (SIGTERM): every table paused and saved."""
    restored: int
    restore_seconds: float
    storage_rate: float
    """Actions committed per second by the storage alone."""


def manager(storage: Storage) -> SessionManager:
    return SessionManager(storage, ManualClock(), turn_seconds=60, idle_seconds=3600)


async def open_tables(
    sessions: SessionManager, count: int, game_id: str = "tvamanswhist"
) -> list[LiveTable]:
    """``count`` tables opened, joined and started, one after another (not measured)."""
    return [await open_one(sessions, n, game_id) for n in range(count)]


async def open_one(sessions: SessionManager, n: int, game_id: str = "tvamanswhist") -> LiveTable:
    """Table ``n`` of ``game_id``, opened, joined by a member for each seat of the fewest the
    game is played by, and started. A step the database did not take (a busy machine) is tried
    again, up to ``SETUP_TRIES`` times."""
    seats = SPECS[game_id].min_players
    host, *guests = (Member(10_000 + 10 * n + i, f"{'ABCDEFGHIJ'[i]}{n}") for i in range(seats))
    channel = 1_000 + n
    await again(
        lambda: sessions.open_table(
            guild_id=(n % 64) << 22, channel_id=channel, host=host, game_id=game_id
        )
    )
    for guest in guests:
        await again(functools.partial(sessions.join, channel, guest))
    return await again(lambda: sessions.start(channel, host.user_id))


SETUP_TRIES = 5


async def again(step: Callable[[], Awaitable[T]]) -> T:
    for _ in range(SETUP_TRIES - 1):
        try:
            return await step()
        except (StorageError, UserError) as error:
            print(f"  (setting up: {error}; tried again)", flush=True)
    return await step()


async def play(
    sessions: SessionManager, table: LiveTable, moves: int, times: list[float], unsaved: list[str]
) -> int:
    """The member to act plays a legal card, ``moves`` times (fewer if the deal ends); returns
    how many were committed. One not saved is kept in ``unsaved`` (why) and the table goes on."""
    played = 0
    for _ in range(moves):
        game = table.game
        if game is None or game.is_over() or not table.live:
            break
        # the first move the member's panel offers, from the choices a face builds the panel
        # from: worked out once per state and kept, for ``act`` checks the move against them
        # (a decision's many moves, a Piquet exchange's 1,507, are spelled out here as for a
        # panel); this loop makes no objects of its own for the collector to go through
        for seat in sorted(game.to_act()):
            choices = table.choices(seat)
            if choices:
                break
        else:
            break  # only a reaction window's timers may move
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        move = next(iter(choices.values()))
        start = time.perf_counter()
        try:
            await sessions.act(table.table_id, user_id, table.version, move)
        except UserError as error:
            unsaved.append(error.msg.key)
            continue
        except StorageError as error:  # escaped the session manager: a fault of its own
            unsaved.append(f"{type(error).__name__}: {error}")
            continue
        times.append(time.perf_counter() - start)
        played += 1
    return played


@dataclass(frozen=True)
class Played:
    actions: int
    not_saved: int
    seconds: float
    times: list[float]
    stop_seconds: float


async def play_all(database: Path | str, tables: int, moves: int, game_id: str) -> Played:
    """``tables`` tables opened, then ``moves`` actions at each, all at once; then the stop."""
    storage = await open_storage(database)
    unsaved: list[str] = []
    try:
        sessions = manager(storage)
        live = await open_tables(sessions, tables, game_id)
        times: list[float] = []
        start = time.perf_counter()
        played = await asyncio.gather(*(play(sessions, t, moves, times, unsaved) for t in live))
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        await sessions.shutdown()
        stop_seconds = time.perf_counter() - start
    finally:
        await storage.close()
    return Played(sum(played), len(unsaved), seconds, times, stop_seconds)


async def measure(database: Path | str, tables: int, moves: int, game_id: str) -> Figures:
    played = await play_all(database, tables, moves, game_id)
    # a restart is a new process: none of the stopped one's tables in memory, nor its garbage
    # for the collector to go through while the restore builds thousands of tables
    gc.collect()
    storage = await open_storage(database)
    try:
        start = time.perf_counter()
        restored = await manager(storage).restore()
        restore_seconds = time.perf_counter() - start
    finally:
        await storage.close()
    median = statistics.median(played.times) * 1000 if played.times else float("nan")
    alone = await storage_alone(database, tables, moves)
    return Figures(
        tables,
        played.actions,
        played.not_saved,
        played.seconds,
        median,
        played.stop_seconds,
        restored,
        restore_seconds,
        alone,
    )


async def storage_alone(database: Path | str, tables: int, moves: int) -> float:
    """Actions committed per second by ``record_action`` alone, ``tables`` tables at once."""
    storage = await open_storage(database)
    try:
        records = [
            await storage.create_table(
                guild_id=(n % 64) << 22,
                channel_id=500_000 + n,
                host_id=1,
                game_id="tvamanswhist",
                variant="standard",
                seed=n,
                turn_seconds=60,
                language="sv",
                created_at=0.0,
                status="playing",
                seats=(SeatRecord(0, 1, "A"), SeatRecord(1, 2, "B")),
            )
            for n in range(tables)
        ]

        async def record(table: TableRecord) -> int:
            done = 0
            for seq in range(1, moves + 1):
                try:
                    await storage.record_action(
                        table, ActionRecord(seq, seq % 2, "AS", float(seq), "member")
                    )
                except StorageError:
                    continue
                done += 1
            return done

        start = time.perf_counter()
        committed = sum(await asyncio.gather(*(record(table) for table in records)))
        return committed / (time.perf_counter() - start)
    finally:
        await storage.close()


@asynccontextmanager
async def fresh_schema(server: str) -> AsyncIterator[str]:
    schema = f"kortbord_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server, timeout=5)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield f"{server}{'&' if '?' in server else '?'}search_path={schema}"
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


async def main(
    counts: list[int], moves: int, postgres: str, databases: list[str], game_id: str
) -> None:
    tune_collector()  # as ``kortbord run`` does once the bot is built
    print(
        f"live {game_id} tables ({SPECS[game_id].min_players} members each), {moves} member"
        " actions each, played at all tables at once, then a stop and a restore"
    )
    print(
        f"{'database':11} {'tables':>7} {'not saved':>10} {'actions/s':>10} {'median ms':>10}"
        f" {'stop':>7} {'restore':>9} {'restored':>8} {'storage alone/s':>16}"
    )
    for tables in counts:
        if "sqlite" in databases:
            with tempfile.TemporaryDirectory() as folder:
                show(
                    "sqlite", await measure(Path(folder) / "bench.sqlite3", tables, moves, game_id)
                )
        if "postgresql" not in databases:
            continue
        try:
            async with fresh_schema(postgres) as address:
                show("postgresql", await measure(address, tables, moves, game_id))
        except (OSError, asyncpg.PostgresError, TimeoutError) as error:
            print(f"{'postgresql':11} not measured: {postgres} does not answer ({error})")


def show(name: str, figures: Figures) -> None:
    print(
        f"{name:11} {figures.tables:7} {figures.not_saved:10}"
        f" {figures.actions / figures.seconds:10.0f} {figures.median_ms:10.2f}"
        f" {figures.stop_seconds:6.2f}s {figures.restore_seconds:8.2f}s {figures.restored:8}"
        f" {figures.storage_rate:16.0f}",
        flush=True,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--tables",
        type=int,
        nargs="+",
        default=[1000, 3000, 10000],
        help="live tables, one run for each count (default 1000 3000 10000)",
    )
    parser.add_argument(
        "--moves", type=int, default=3, help="member actions at each table (default 3)"
    )
    parser.add_argument(
        "--postgres",
        default=os.environ.get("KORTBORD_TEST_POSTGRES") or DEFAULT_POSTGRES,
        help="the PostgreSQL server (default: KORTBORD_TEST_POSTGRES, else the local one)",
    )
    parser.add_argument(
        "--databases",
        nargs="+",
        choices=["sqlite", "postgresql"],
        default=["sqlite", "postgresql"],
        help="which databases to measure (default both)",
    )
    parser.add_argument(
        "--game",
        choices=sorted(SPECS),
        default="tvamanswhist",
        help="the game the tables play (default tvamanswhist)",
    )
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.moves, args.postgres, args.databases, args.game))
