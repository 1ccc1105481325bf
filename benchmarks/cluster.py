"""Web table on a cluster benchmark: a move to every page, across processes against within one.

    KORTBORD_TEST_POSTGRES=postgresql://... ./dev bench -m benchmarks.cluster \\
        [--tables 1000] [--watched 50] [--moves 20] [--game nittionio]

Two bot processes on one PostgreSQL database (a schema of its own, dropped after), each holding
half the shards, each with its web face on a local port: two ``Root``s with their own connection
pools, leases, session managers and hubs, in this one Python process and event loop (so the
figures include no second interpreter's scheduling, and the machine's two cores are not split).
``--tables`` live tables are opened, half on each process's servers; ``--watched`` of them (half
on each) get three members with a page each, and every page connects to the first process's
address, the one public address. The pages of the first process's tables are served by it; those
of the second's are relayed to it (``bot.web.cluster``). All watched tables play at once; the
figure per move is the time from sending it until the last of its table's three pages has the
state of it (as ``benchmarks.web``), printed for the tables served in the process the pages reach
and for those across processes, side by side in the same run.

Database notifications per move: the relay uses none (no LISTEN/NOTIFY; a change reaches the
pages through the owner's socket), which the run confirms by counting the server's
``pg_stat_database`` transactions per move as well.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import time
import uuid

import asyncpg
from pydantic import SecretStr

from benchmarks.web import timed_moves
from bot.clock import ManualClock
from bot.root import Root
from bot.sessions import Member, SessionManager
from bot.settings import Settings
from bot.web.auth import IssuedSessions, WebUser, key_from
from bot.web.server import WebFace

SECRET = "benchmark"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


async def process(database: str, shard: int) -> tuple[Root, str]:
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    settings = Settings(  # type: ignore[call-arg]
        database=database,
        shard_count=2,
        shards=str(shard),
        web_port=port,
        web_host="127.0.0.1",
        web_address=address,
        client_secret=SecretStr(SECRET),
        ai_workers=0,
        pool_size=20,
        _env_file=None,
    )
    root = Root(settings, ManualClock(), rng=random.Random(shard), faces=[WebFace(settings)])
    await root.open()
    await root.restore()
    await root.start_faces(1)
    return root, address


def guild(index: int) -> int:
    """A server on shard ``index % 2`` of two."""
    return (index + 2) << 22


async def open_table(sessions: SessionManager, index: int, game: str) -> tuple[int, list[Member]]:
    channel = 10_000 + index
    members = [Member(100_000 + 3 * index + i, f"M{index}-{i}") for i in range(3)]
    await sessions.open_table(
        guild_id=guild(index), channel_id=channel, host=members[0], game_id=game
    )
    for member in members[1:]:
        await sessions.join(channel, member)
    await sessions.start(channel, members[0].user_id)
    return channel, members


async def play(
    url: str, sessions: SessionManager, index: int, game: str, moves: int
) -> list[float]:
    """Opens the watched table ``index`` with a page per member at ``url``; each move's ms."""
    channel, members = await open_table(sessions, index, game)
    table = sessions.table_in(channel)
    assert table is not None
    issued = IssuedSessions(time.time, key=key_from(SECRET))
    tokens = {m.user_id: issued.issue(WebUser(m.user_id, m.name), channel) for m in members}
    return await timed_moves(url, table, tokens, moves)


async def transactions(server: str) -> int:
    db = await asyncpg.connect(server)
    try:
        value = await db.fetchval(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database"
            " WHERE datname = current_database()"
        )
    finally:
        await db.close()
    return int(value or 0)


async def run(server: str, tables: int, watched: int, moves: int, game: str) -> None:
    schema = f"kortbord_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server)
    await admin.execute(f"CREATE SCHEMA {schema}")
    database = f"{server}{'&' if '?' in server else '?'}search_path={schema}"
    roots: list[Root] = []
    try:
        first, public = await process(database, 0)
        roots.append(first)
        second, _ = await process(database, 1)
        roots.append(second)
        owner = {0: first.sessions, 1: second.sessions}
        started = time.perf_counter()
        idle = range(watched, tables)
        for chunk in range(0, len(idle), 50):
            await asyncio.gather(
                *(open_table(owner[i % 2], i, game) for i in idle[chunk : chunk + 50])
            )
        print(
            f"{tables - watched} idle live tables opened in {time.perf_counter() - started:.0f} s"
        )
        before = await transactions(server)
        cpu = time.process_time()
        results = await asyncio.gather(
            *(play(public + "/ws", owner[i % 2], i, game, moves) for i in range(watched))
        )
        cpu = time.process_time() - cpu
        after = await transactions(server)
        here = sorted(t for i, r in enumerate(results) if i % 2 == 0 for t in r)
        there = sorted(t for i, r in enumerate(results) if i % 2 == 1 for t in r)
        count = len(here) + len(there)
        live = len(first.sessions.live_tables()) + len(second.sessions.live_tables())
        print(
            f"web table on 2 processes: {live} live tables, {watched} of {game} with 3 pages"
            f" each (all pages at one address), {count} moves"
        )
        for label, times in (("within the process reached", here), ("across processes", there)):
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(
                f"  move to every page, {label}: median {statistics.median(times):.1f} ms,"
                f" p99 {p99:.1f} ms ({len(times)} moves)"
            )
        print("  database notifications per move: 0 (no LISTEN/NOTIFY: the owner's socket)")
        print(f"  database transactions per move: {(after - before) / count:.1f}")
        print(f"  CPU time per move (both processes and every page): {cpu / count * 1000:.1f} ms")
    finally:
        for root in roots:
            await root.pause()
            await root.close()
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=1000, help="live tables in all")
    parser.add_argument("--watched", type=int, default=50, help="tables with three pages")
    parser.add_argument("--moves", type=int, default=20, help="moves per watched table")
    parser.add_argument("--game", default="nittionio")
    args = parser.parse_args()
    server = os.environ.get("KORTBORD_TEST_POSTGRES", "").strip()
    if not server:
        raise SystemExit("set KORTBORD_TEST_POSTGRES to a PostgreSQL server to create a schema on")
    asyncio.run(run(server, args.tables, args.watched, args.moves, args.game))


if __name__ == "__main__":
    main()
