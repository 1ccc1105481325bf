"""Storage benchmark: the session manager on SQLite and on PostgreSQL, side by side in one run.

    ./dev bench -m benchmarks.storage [--tables 1000] [--actions 5000] [--postgres ADDRESS]

For each database: ``--tables`` Tvåmanswhist tables are opened, joined and started through the
session manager (two members each), then ``--actions`` member actions are played, round-robin
over the tables with every table acting at once, as members on many servers would. The figure
is member actions committed per second (each one stored in its own transaction before
``act`` returns, as before a member is answered), with the median time of one action while all
the tables wait their turn for the database (so mostly waiting, at 1,000 tables). Then the
process stops as on SIGTERM (every table paused and saved) and a fresh session manager restores
all the live tables: the restore time is what a restart costs before the bot serves again.

PostgreSQL is the server named by ``--postgres`` (default: ``KORTBORD_TEST_POSTGRES``, else
``postgresql://postgres@127.0.0.1:5432/test``), in a schema of its own that is dropped after.
Without a server that answers, its line says why it was not measured.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.clock import ManualClock
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import Storage, open_storage

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass(frozen=True)
class Figures:
    actions: int
    seconds: float
    median_ms: float
    restored: int
    restore_seconds: float


def manager(storage: Storage) -> SessionManager:
    return SessionManager(storage, ManualClock(), turn_seconds=60, idle_seconds=3600)


async def open_tables(sessions: SessionManager, count: int) -> list[LiveTable]:
    tables = []
    for n in range(count):
        host, guest = Member(10_000 + 2 * n, f"A{n}"), Member(10_001 + 2 * n, f"B{n}")
        channel = 1_000 + n
        await sessions.open_table(
            guild_id=(n % 64) << 22, channel_id=channel, host=host, game_id="tvamanswhist"
        )
        await sessions.join(channel, guest)
        tables.append(await sessions.start(channel, host.user_id))
    return tables


async def play(sessions: SessionManager, table: LiveTable, moves: int, times: list[float]) -> int:
    """The member to act plays a legal card, ``moves`` times (fewer if the deal ends)."""
    played = 0
    for _ in range(moves):
        game = table.game
        if game is None or game.is_over() or not table.live:
            break
        seat = min(game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        move = game.notation(game.legal_actions(seat)[0])
        start = time.perf_counter()
        await sessions.act(table.table_id, user_id, table.version, move)
        times.append(time.perf_counter() - start)
        played += 1
    return played


async def measure(database: Path | str, tables: int, actions: int) -> Figures:
    storage = await open_storage(database)
    try:
        sessions = manager(storage)
        live = await open_tables(sessions, tables)
        per_table = max(1, actions // tables)
        times: list[float] = []
        start = time.perf_counter()
        played = await asyncio.gather(*(play(sessions, t, per_table, times) for t in live))
        seconds = time.perf_counter() - start
        await sessions.shutdown()
    finally:
        await storage.close()
    storage = await open_storage(database)
    try:
        start = time.perf_counter()
        restored = await manager(storage).restore()
        restore_seconds = time.perf_counter() - start
    finally:
        await storage.close()
    return Figures(sum(played), seconds, statistics.median(times) * 1000, restored, restore_seconds)


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


async def main(tables: int, actions: int, postgres: str) -> None:
    print(
        f"{tables} live Tvåmanswhist tables (two members each), {actions} member actions"
        " played at all tables at once, then a stop and a restore"
    )
    print(f"{'database':11} {'actions/s':>10} {'median ms':>10} {'restore':>10}  tables restored")
    rows: list[tuple[str, Figures | str]] = []
    with tempfile.TemporaryDirectory() as folder:
        rows.append(("sqlite", await measure(Path(folder) / "bench.sqlite3", tables, actions)))
    try:
        async with fresh_schema(postgres) as address:
            rows.append(("postgresql", await measure(address, tables, actions)))
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        rows.append(("postgresql", f"not measured: {postgres} does not answer ({error})"))
    for name, figures in rows:
        if isinstance(figures, str):
            print(f"{name:11} {figures}")
            continue
        print(
            f"{name:11} {figures.actions / figures.seconds:10.0f}"
            f" {figures.median_ms:10.2f} {figures.restore_seconds:9.2f}s  {figures.restored}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="live tables (default 1000)")
    parser.add_argument("--actions", type=int, default=5000, help="member actions (default 5000)")
    parser.add_argument(
        "--postgres",
        default=os.environ.get("KORTBORD_TEST_POSTGRES") or DEFAULT_POSTGRES,
        help="the PostgreSQL server (default: KORTBORD_TEST_POSTGRES, else the local one)",
    )
    args = parser.parse_args()
    asyncio.run(main(args.tables, args.actions, args.postgres))
