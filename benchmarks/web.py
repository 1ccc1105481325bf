"""Web table benchmark: the time from a move to every connected page, and the client's size.

    ./dev bench -m benchmarks.web [--tables 20] [--moves 30] [--game nittionio]

The web table's server (``bot.web``: aiohttp, the hub, the real session manager on SQLite) listens
on a local port; at each of ``--tables`` tables of three members, each member has a page open
(an aiohttp WebSocket client in this process: three pages a table). The member whose turn it is
sends the first action their last state offers; the time is taken from sending the move until
each of the table's three pages has received the state of that move (parsed JSON: what a page
draws from), and the figure per move is the last of the three. All tables play at once. Timers
run on a simulated clock that does not move, so no deadline or computer player ever acts.

Beside it, the client's size: the built page (``bot/web/client/dist``: its HTML, scripts and
styles) gzipped at level 9, as a browser would fetch it. Goals: median at most 100 ms, p99 at
most 250 ms; the client at most 200 kB gzipped. The process's CPU time per move is printed beside
the times: on a machine busy with other work the times wait for it, the CPU time hardly does.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import random
import statistics
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bot.clock import ManualClock
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import open_storage
from bot.web.auth import IssuedSessions, WebUser
from bot.web.hub import WebHub
from bot.web.server import DIST, WebApp, WebServer

GOAL_MEDIAN_MS = 100.0
GOAL_P99_MS = 250.0
GOAL_CLIENT_KB = 200.0


@dataclass
class Page:
    """One member's page: its socket and when each version of the table reached it."""

    socket: aiohttp.ClientWebSocketResponse
    seen: dict[int, float] = field(default_factory=dict)
    last: dict[str, Any] = field(default_factory=dict)
    answers: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for message in self.socket:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(message.data)
            if frame["type"] == "state":
                self.seen.setdefault(int(frame["version"]), time.perf_counter())
                self.last = frame
                self.arrived.set()
            elif frame["type"] in ("ack", "refused"):
                await self.answers.put(frame)

    async def reached(self, version: int) -> float:
        while not any(v >= version for v in self.seen):
            self.arrived.clear()
            await self.arrived.wait()
        return min(t for v, t in self.seen.items() if v >= version)


async def play_table(
    url: str, sessions: SessionManager, issued: IssuedSessions, index: int, game: str, moves: int
) -> list[float]:
    """Opens a table of three members with a page each; returns each move's time in ms."""
    channel = 1000 + index
    members = [Member(10_000 + 3 * index + i, f"M{index}-{i}") for i in range(3)]
    await sessions.open_table(guild_id=1, channel_id=channel, host=members[0], game_id=game)
    for member in members[1:]:
        await sessions.join(channel, member)
    table = await sessions.start(channel, members[0].user_id)
    tokens = {m.user_id: issued.issue(WebUser(m.user_id, m.name)) for m in members}
    return await timed_moves(url, table, tokens, moves)


async def timed_moves(
    url: str, table: LiveTable, tokens: Mapping[int, str], moves: int
) -> list[float]:
    """A page at ``url`` for each member of ``table``, signed in with its session in ``tokens``
    (by user id); the member whose turn it is plays the first action offered, ``moves`` times.
    Each move's time in ms: from sending it until the last of the pages has its state."""
    client = aiohttp.ClientSession()
    pages: dict[int, Page] = {}
    readers = []
    for member_id, token in tokens.items():
        socket = await client.ws_connect(url)
        await socket.send_json(
            {"type": "hello", "session": token, "table_id": table.table_id, "lang": "sv"}
        )
        page = Page(socket)
        pages[member_id] = page
        readers.append(asyncio.create_task(page.read()))
    times: list[float] = []
    try:
        for page in pages.values():
            await page.reached(table.version)
        for _ in range(moves):
            game_now = table.game
            if game_now is None or game_now.is_over():
                break
            seat = min(game_now.to_act())
            user_id = table.record.seats[seat].user_id
            assert user_id is not None
            page = pages[user_id]
            await page.reached(table.version)
            if not page.last.get("actions"):
                break
            notation = page.last["actions"][0]["notation"]
            version = int(page.last["version"])
            started = time.perf_counter()
            act = {"type": "act", "table_id": table.table_id, "version": version}
            await page.socket.send_json({**act, "notation": notation})
            answer = await page.answers.get()
            if answer["type"] != "ack":
                raise RuntimeError(f"move {notation} refused: {answer}")
            arrivals = [await p.reached(int(answer["version"])) for p in pages.values()]
            times.append((max(arrivals) - started) * 1000)
    finally:
        for page in pages.values():
            await page.socket.close()
        for reader in readers:
            reader.cancel()
        await client.close()
    return times


def client_size(dist: Path) -> tuple[int, int] | None:
    """The built client's bytes and gzipped bytes (HTML, scripts, styles), or None if unbuilt."""
    files = [p for p in dist.rglob("*") if p.is_file() and p.suffix in (".html", ".js", ".css")]
    files = [p for p in files if p.name != "sdk-mock.html" and "mock" not in p.name]
    if not files:
        return None
    raw = sum(p.stat().st_size for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), compresslevel=9)) for p in files)
    return raw, packed


async def run(tables: int, moves: int, game: str) -> tuple[list[float], float]:
    """Every move's time (ms), and the process's CPU time while the tables played (s)."""
    with tempfile.TemporaryDirectory(prefix="kortbord-web-bench-") as folder:
        storage = await open_storage(Path(folder) / "bench.sqlite3")
        clock = ManualClock()
        sessions = SessionManager(storage, clock, rng=random.Random(24))
        issued = IssuedSessions(time.time)
        hub = WebHub(sessions, issued)
        sessions.add_listener(hub)
        server = WebServer(WebApp(hub, issued, client_id="0"), "127.0.0.1", 0)
        port = await server.start()
        try:
            url = f"http://127.0.0.1:{port}/ws"
            cpu = time.process_time()
            results = await asyncio.gather(
                *(play_table(url, sessions, issued, i, game, moves) for i in range(tables))
            )
            cpu = time.process_time() - cpu
        finally:
            await server.stop()
            await storage.close()
    return [t for table in results for t in table], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=30, help="moves per table")
    parser.add_argument("--game", default="nittionio")
    args = parser.parse_args()
    times, cpu = asyncio.run(run(args.tables, args.moves, args.game))
    times.sort()
    median = statistics.median(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"web table: {args.tables} tables of {args.game}, 3 pages each, {len(times)} moves")
    print(f"  move to every page of its table: median {median:.1f} ms, p99 {p99:.1f} ms")
    print(
        f"  CPU time per move (the server and every page, one process): "
        f"{cpu / len(times) * 1000:.1f} ms"
    )
    print(
        f"  goal: median at most {GOAL_MEDIAN_MS:.0f} ms: "
        f"{'met' if median <= GOAL_MEDIAN_MS else 'NOT met'}; "
        f"p99 at most {GOAL_P99_MS:.0f} ms: {'met' if p99 <= GOAL_P99_MS else 'NOT met'}"
    )
    size = client_size(DIST)
    if size is None:
        print("  client: not built (./dev builds it with Node 20)")
    else:
        raw, packed = size
        verdict = "met" if packed / 1000 <= GOAL_CLIENT_KB else "NOT met"
        print(f"  client: {raw / 1000:.1f} kB, {packed / 1000:.1f} kB gzipped")
        print(f"  goal: at most {GOAL_CLIENT_KB:.0f} kB gzipped: {verdict}")


if __name__ == "__main__":
    main()
