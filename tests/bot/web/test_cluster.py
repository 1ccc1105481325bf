"""The web table on a cluster: two bot processes on the test PostgreSQL, each holding half the
shards, and one web address (the first process's) for every page. Pages on a table of each
process play a whole deal; the process of one table is killed during play and a new process
takes its shards over; nothing is lost, nothing doubled, every page resumes.

Each process is a ``Root`` with its own storage (connection pool), session manager, lease and web
face on a port of its own, in this test's event loop; killing one cuts its connections without
giving its shards up, and closes its sockets. Every wait is for the work (a frame, a takeover),
bounded generously."""

from __future__ import annotations

import asyncio
import random
import socket
import time
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from pydantic import SecretStr

from bot.clock import ManualClock
from bot.root import Root
from bot.sessions import LiveTable, Member
from bot.settings import Settings
from bot.storage.postgres import PostgresStorage
from bot.web.auth import IssuedSessions, WebUser, key_from
from bot.web.server import WebFace

pytestmark = pytest.mark.postgresql

T0 = 1_800_000_000.0
LEASE = 3.0
SECRET = "the application's client secret"
WAIT = 90.0
"""The longest any step may take, however busy the machine: generous, never raced."""
GUILDS = {0: 6 << 22, 1: 7 << 22}
"""A server on each shard of two ((guild_id >> 22) % 2)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Process:
    root: Root
    face: WebFace
    address: str


async def start(database: str, shard: int, dist: Path) -> Process:
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
        _env_file=None,
    )
    face = WebFace(settings, dist=dist)
    root = Root(
        settings, ManualClock(T0), rng=random.Random(shard), faces=[face], lease_seconds=LEASE
    )
    await root.open()
    await root.restore()
    await root.start_faces(4242)
    return Process(root, face, address)


async def kill(process: Process) -> None:
    """The process dies: its lease is no longer renewed nor given up, its connections are cut,
    its sockets close."""
    root = process.root
    assert root._lease_task is not None
    root._lease_task.cancel()
    assert isinstance(root.storage, PostgresStorage)
    root.storage._pool.terminate()
    for table in root.sessions.live_tables():
        table.cancel_timers()
    await process.face.stop()


class Page:
    """One open page at the one public address: it says hello, and after its socket closes it
    reconnects (as the web client does) and asks for its table again."""

    def __init__(
        self, client: aiohttp.ClientSession, address: str, member: Member, table: LiveTable
    ) -> None:
        self.client = client
        self.address = address
        self.member = member
        self.table_id = table.table_id
        self.channel_id = table.record.channel_id
        issued = IssuedSessions(time.time, key=key_from(SECRET))  # any process's sign-in
        self.session = issued.issue(WebUser(member.user_id, member.name), self.channel_id)
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.reconnections = 0
        self.unread: list[dict[str, object]] = []

    async def connect(self) -> None:
        while True:
            try:
                self.socket = await self.client.ws_connect(self.address + "/ws")
                await self.socket.send_json(
                    {
                        "type": "hello",
                        "session": self.session,
                        "channel_id": str(self.channel_id),
                        "table_id": self.table_id,
                        "lang": "en",
                    }
                )
                return
            except aiohttp.ClientError:
                await asyncio.sleep(0.2)  # the client's own retry

    async def frame(self, *, fresh: bool = False) -> dict[str, object] | None:
        """The next frame (``fresh``: from the socket, not one put aside); None when the socket
        closed (the page reconnects)."""
        if self.unread and not fresh:
            return self.unread.pop(0)
        assert self.socket is not None
        message = await self.socket.receive(timeout=WAIT)
        if message.type != aiohttp.WSMsgType.TEXT:
            self.reconnections += 1
            await asyncio.sleep(0.2)  # the client waits a moment before it tries again
            await self.connect()
            return None
        frame: dict[str, object] = message.json()
        assert frame["type"] != "error", frame
        return frame

    async def state(self, version: int) -> dict[str, object]:
        """The newest state at ``version`` or later (reconnecting as often as it takes)."""
        while True:
            frame = await self.frame()
            if frame is not None and frame["type"] == "state" and _version(frame) >= version:
                return frame

    async def act(self, version: int, notation: str) -> dict[str, object] | None:
        """A move; its answer (``ack`` or ``refused``), or None if the socket closed first."""
        assert self.socket is not None
        try:
            await self.socket.send_json(
                {"type": "act", "table_id": self.table_id, "version": version, "notation": notation}
            )
        except ConnectionError:
            return None
        states: list[dict[str, object]] = []
        try:
            while True:
                frame = await self.frame(fresh=True)
                if frame is None:
                    return None
                if frame["type"] in ("ack", "refused"):
                    return frame
                if frame["type"] == "state":
                    states.append(frame)  # read after the answer
        finally:
            self.unread.extend(states)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()


def _version(frame: dict[str, object]) -> int:
    version = frame["version"]
    assert isinstance(version, int)
    return version


async def open_match(root: Root, guild_id: int, host: Member, guest: Member) -> LiveTable:
    sessions = root.sessions
    channel = guild_id + host.user_id
    await sessions.open_table(
        guild_id=guild_id, channel_id=channel, host=host, game_id="tvamanswhist"
    )
    await sessions.join(channel, guest)
    return await sessions.start(channel, host.user_id)


@dataclass
class Played:
    acked: list[tuple[int, str]]
    """The moves answered ``ack``: the version each was sent from, and its notation."""
    unanswered: int = 0
    """Moves whose socket closed before their answer (applied or not: the state tells)."""


async def play_a_deal(pages: list[Page], halfway: asyncio.Event | None = None) -> Played:
    """The seated members play the deal out from their pages, each move from the state their
    page shows; ``halfway`` is set after a dozen moves."""
    played = Played([])
    version = 0
    deal: object = None
    while True:
        frames = [await page.state(version) for page in pages]
        newest = max(_version(f) for f in frames)
        if any(_version(f) != newest for f in frames):
            version = newest  # a page is a state behind: it catches up first
            continue
        view = frames[0]["view"]
        assert isinstance(view, dict)
        if deal is None:
            deal = view["deal"]
        if view["deal"] != deal or frames[0]["status"] != "playing":
            return played
        mover, frame = next((p, f) for p, f in zip(pages, frames, strict=True) if f["actions"])
        actions = frame["actions"]
        assert isinstance(actions, list)
        notation = actions[0]["notation"]
        answer = await mover.act(newest, notation)
        if answer is None:
            played.unanswered += 1
        else:
            assert answer["type"] == "ack", answer
            played.acked.append((newest, notation))
            version = _version(answer)
        if halfway is not None and len(played.acked) == 12:
            halfway.set()


ANNA, BO, CILLA, DAVID = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla"), Member(14, "D")


async def test_one_address_serves_the_tables_of_both_processes_through_a_takeover(
    postgres_database: str, tmp_path: Path
) -> None:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Kortbord</title>", encoding="utf-8")
    first = await start(postgres_database, 0, dist)
    second = await start(postgres_database, 1, dist)
    third: Process | None = None
    try:
        here = await open_match(first.root, GUILDS[0], ANNA, BO)
        there = await open_match(second.root, GUILDS[1], CILLA, DAVID)
        async with aiohttp.ClientSession() as client:
            # Every page goes to the first process's address, the one public address.
            pages_here = [Page(client, first.address, m, here) for m in (ANNA, BO)]
            pages_there = [Page(client, first.address, m, there) for m in (CILLA, DAVID)]
            for page in pages_here + pages_there:
                await page.connect()
            # A seat is only its own member's: Cilla's page cannot play Anna's table.
            stranger = Page(client, first.address, CILLA, here)
            await stranger.connect()
            shown = await stranger.state(0)
            assert shown["seat"] is None
            refused = await stranger.act(_version(shown), "pass")
            assert refused is not None
            assert refused["type"] == "refused"
            await stranger.close()

            halfway = asyncio.Event()
            playing_there = asyncio.create_task(play_a_deal(pages_there, halfway))
            playing_here = asyncio.create_task(play_a_deal(pages_here))
            await asyncio.wait_for(halfway.wait(), WAIT)
            await kill(second)
            killed_at = time.monotonic()
            third = await asyncio.wait_for(start(postgres_database, 1, dist), WAIT)
            took_over = time.monotonic() - killed_at
            here_played = await asyncio.wait_for(playing_here, WAIT)
            there_played = await asyncio.wait_for(playing_there, WAIT)

            # A move sent again from a state it was already made on is refused, never doubled.
            last_version, last_move = there_played.acked[-1]
            again = await pages_there[0].act(last_version, last_move)
            assert again is not None
            assert again["type"] == "refused", again
            for page in pages_here + pages_there:
                await page.close()

        assert first.face.relay is not None
        assert first.face.relay.relayed >= 2
        assert sum(p.reconnections for p in pages_there) >= 2  # both pages of the table resumed
        assert took_over < WAIT
        assert third is not None
        for process, table, played in (
            (first, here, here_played),
            (third, there, there_played),
        ):
            log = [a.notation for a in await process.root.storage.actions(table.table_id)]
            acked = [notation for _, notation in played.acked]
            # nothing lost: every acknowledged move is in the log, in order; nothing doubled
            assert [n for n in log if n in acked] == acked
            assert len(log) == len(set(log))  # (cards: a card is played once a deal)
            assert len(log) == 52  # the whole deal: 26 tricks (with the cards the game forced)
    finally:
        for alive in (first, third):
            if alive is not None:
                await alive.root.pause()
                await alive.root.close()
        await second.root.close()


def test_a_sign_in_by_one_process_is_taken_by_every_other_and_a_forged_one_by_none() -> None:
    now = [T0]
    one = IssuedSessions(lambda: now[0], key=key_from(SECRET))
    other = IssuedSessions(lambda: now[0], key=key_from(SECRET))
    elsewhere = IssuedSessions(lambda: now[0], key=key_from("another application"))
    session = one.issue(WebUser(ANNA.user_id, "Anna Åberg"))
    assert other.user_of(session) == WebUser(ANNA.user_id, "Anna Åberg")
    assert elsewhere.user_of(session) is None
    _, expires, channel, guild, name, signature = session.split(".")
    forged = ".".join([str(BO.user_id), expires, channel, guild, name, signature])
    assert other.user_of(forged) is None
    assert other.user_of("not.a.session") is None
    now[0] += 12 * 3600
    assert other.user_of(session) is None  # expired
