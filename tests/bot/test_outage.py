"""When the database goes away while the bot lives, on SQLite and on PostgreSQL.

PostgreSQL is reached through ``tests/faultproxy.py``, which refuses, cuts and stalls its
connections; SQLite meets the same faults as its own: a file that fails every statement (a
failing disk) and a file another process keeps locked (it hangs). Whatever the fault: a member
is told in words that fit the database, nothing half-applied is kept, a table is never held
longer than the storage's timeout, and every table goes on by itself when the database is back.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, Protocol

import pytest
from faultproxy import FaultProxy, fault_proxy
from live_tables import started_tables

from bot.clock import ManualClock
from bot.discord.client import Kortbord
from bot.errors import UserError
from bot.i18n import catalog
from bot.leaderboard import leaderboard
from bot.root import LEASE_SECONDS, RENEW_SECONDS
from bot.sessions import MAX_SAVE_RETRY, LiveTable, Member, SessionManager
from bot.settings import Settings
from bot.storage import Shards, Storage, StorageUnavailable, open_storage
from bot.storage.records import ActionRecord, TableRecord

CHANNEL, GUILD = 100, 1
ANNA, BO = Member(11, "Anna"), Member(12, "Bo")
TURN = 60
TIMEOUT = 0.5
"""The storage's timeout in these tests: a hang is over in half a second of real time."""


class Fault(Protocol):
    storage: Storage

    async def away(self) -> None:
        """The database stops answering: refused, or failing every statement."""

    async def hang(self) -> None:
        """The database stops answering without saying so."""

    async def back(self) -> None: ...


class SqliteFault:
    """The SQLite file fails every statement (a failing disk), or another process holds its
    write lock (the file hangs until it lets go)."""

    def __init__(self, storage: Storage, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.storage, self.path, self.monkeypatch = storage, path, monkeypatch
        self.holder: sqlite3.Connection | None = None

    async def away(self) -> None:
        db: Any = self.storage._db  # type: ignore[attr-defined]

        async def failing(*args: object, **kwargs: object) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        self.monkeypatch.setattr(db, "_execute", failing)  # under every statement and fetch

    async def hang(self) -> None:
        self.holder = sqlite3.connect(self.path, timeout=0, isolation_level=None)
        self.holder.execute("BEGIN IMMEDIATE")

    async def back(self) -> None:
        self.monkeypatch.undo()
        if self.holder is not None:
            self.holder.execute("ROLLBACK")
            self.holder.close()
            self.holder = None


class PostgresFault:
    """The server behind a proxy that refuses and cuts, or stalls."""

    def __init__(self, storage: Storage, proxy: FaultProxy) -> None:
        self.storage, self.proxy = storage, proxy

    async def away(self) -> None:
        await self.proxy.refuse()
        self.proxy.cut()

    async def hang(self) -> None:
        self.proxy.stall()

    async def back(self) -> None:
        await self.proxy.resume()


@pytest.fixture
async def fault(any_database: Path | str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Fault]:
    async with AsyncExitStack() as stack:
        if isinstance(any_database, Path):
            storage = await open_storage(any_database, timeout=TIMEOUT)
            stack.push_async_callback(storage.close)
            found: Fault = SqliteFault(storage, any_database, monkeypatch)
            stack.push_async_callback(found.back)
        else:
            proxy, address = await stack.enter_async_context(fault_proxy(any_database))
            storage = await open_storage(address, timeout=TIMEOUT)
            stack.push_async_callback(storage.close)
            found = PostgresFault(storage, proxy)
            stack.push_async_callback(found.back)
        yield found


@pytest.fixture
async def postgres_fault(postgres_database: str) -> AsyncIterator[PostgresFault]:
    async with fault_proxy(postgres_database) as (proxy, address):
        storage = await open_storage(address, timeout=TIMEOUT)
        try:
            yield PostgresFault(storage, proxy)
        finally:
            await proxy.resume()
            await storage.close()


def manager(storage: Storage, clock: ManualClock) -> SessionManager:
    return SessionManager(
        storage,
        clock,
        turn_seconds=TURN,
        idle_seconds=3600,
        computer_delay=1.0,
        rng=random.Random(3),
    )


def not_saved(storage: Storage) -> str:
    return f"errors.not_saved_{storage.place}"


async def two_members(sessions: SessionManager) -> LiveTable:
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.join(CHANNEL, BO)
    return await sessions.start(CHANNEL, ANNA.user_id)


async def member_and_computer(sessions: SessionManager) -> LiveTable:
    """A match in which the computer player is to move next."""
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.add_computer(CHANNEL, ANNA.user_id)
    table = await sessions.start(CHANNEL, ANNA.user_id)
    if table.record.seats[next_seat(table)].user_id is not None:
        await sessions.act(table.table_id, ANNA.user_id, table.version, first_move(table))
    return table


def next_seat(table: LiveTable) -> int:
    assert table.game is not None
    return min(table.game.to_act())


def first_move(table: LiveTable) -> str:
    assert table.game is not None
    seat = next_seat(table)
    return table.game.notation(table.game.legal_actions(seat)[0])


def mover(table: LiveTable) -> int:
    user_id = table.record.seats[next_seat(table)].user_id
    assert user_id is not None
    return user_id


async def refused(call: Awaitable[object]) -> str:
    with pytest.raises(UserError) as error:
        await call
    return error.value.msg.key


# --- 1. every driver error becomes the storage's own --------------------------------------------


async def test_an_outage_reaches_the_caller_as_the_storages_own_error_and_is_logged_twice(
    fault: Fault, caplog: pytest.LogCaptureFixture
) -> None:
    storage = fault.storage
    table = await storage.create_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ANNA.user_id,
        game_id="tvamanswhist",
        variant="standard",
        seed=1,
        turn_seconds=TURN,
        language="sv",
        created_at=1.0,
    )
    caplog.set_level(logging.INFO, logger="bot.storage")
    await fault.away()
    for _ in range(3):
        with pytest.raises(StorageUnavailable):
            await storage.save_table(table)
        with pytest.raises(StorageUnavailable):
            await leaderboard(storage, GUILD, "tvamanswhist")
    assert storage.away
    await fault.back()
    assert await leaderboard(storage, GUILD, "tvamanswhist") == []
    assert not storage.away
    lines = [r for r in caplog.records if r.name.startswith("bot.storage")]
    assert [r.levelno for r in lines] == [logging.ERROR, logging.WARNING]
    assert "does not answer" in lines[0].getMessage()
    assert "answers again" in lines[1].getMessage()
    assert all(r.exc_info is None for r in lines)  # a line each, no traceback


async def test_a_member_move_in_an_outage_is_not_saved_and_goes_through_when_it_is_back(
    fault: Fault,
) -> None:
    sessions = manager(fault.storage, ManualClock())
    table = await two_members(sessions)
    assert table.game is not None
    version, view, move, user_id = (
        table.version,
        table.game.view(None),
        first_move(table),
        mover(table),
    )
    await fault.away()
    key = await refused(sessions.act(table.table_id, user_id, version, move))
    assert key == not_saved(fault.storage)
    assert (table.version, table.seq, table.game.view(None)) == (version, 0, view)
    await fault.back()
    await sessions.act(table.table_id, user_id, version, move)
    assert table.seq == 1
    assert [a.notation for a in await fault.storage.actions(table.table_id)] == [move]


def placed(place: str) -> property:
    """A storage's ``place`` that says its data lives at ``place``."""
    return property(lambda _: place)


async def test_the_words_for_an_outage_come_from_where_the_storage_says_its_data_lives(
    fault: Fault, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = manager(fault.storage, ManualClock())
    table = await two_members(sessions)
    version, move, user_id = table.version, first_move(table), mover(table)
    await fault.away()
    said = {}
    for place in ("disk", "server"):
        monkeypatch.setattr(type(fault.storage), "place", placed(place))
        said[place] = await refused(sessions.act(table.table_id, user_id, version, move))
    assert said == {"disk": "errors.not_saved_disk", "server": "errors.not_saved_server"}
    texts = {lang: catalog(lang) for lang in ("sv", "en")}
    assert "disk" in texts["sv"].text("errors.not_saved_disk")
    assert "databasserver" in texts["sv"].text("errors.not_saved_server")
    assert "disk" in texts["en"].text("errors.storage_disk")
    assert "database server" in texts["en"].text("errors.storage_server")


async def test_a_move_whose_connection_is_cut_mid_write_is_not_saved_and_can_be_retried(
    postgres_fault: PostgresFault,
) -> None:
    storage, proxy = postgres_fault.storage, postgres_fault.proxy
    sessions = manager(storage, ManualClock())
    table = await two_members(sessions)
    version, move, user_id = table.version, first_move(table), mover(table)
    proxy.stall()
    acting = asyncio.create_task(sessions.act(table.table_id, user_id, version, move))
    await asyncio.wait_for(proxy.holding.wait(), 5)  # the write is on its way
    proxy.cut()
    await proxy.resume()
    assert await refused(acting) == "errors.not_saved_server"
    assert not table.lock.locked()
    assert table.seq == 0
    await sessions.act(table.table_id, user_id, version, move)
    assert [a.notation for a in await storage.actions(table.table_id)] == [move]


async def test_a_computer_move_in_an_outage_keeps_trying_and_the_table_goes_on(
    fault: Fault,
) -> None:
    clock = ManualClock()
    sessions = manager(fault.storage, clock)
    table = await member_and_computer(sessions)
    seq = table.seq
    await fault.away()
    await clock.advance(1.0)  # the computer player's move is due, and not saved
    await clock.advance(10.0)
    assert table.seq == seq
    assert table.computer_timer is not None  # still trying: the table is not stuck
    await fault.back()
    await clock.advance(MAX_SAVE_RETRY)
    assert table.seq > seq
    assert len(await fault.storage.actions(table.table_id)) == table.seq


async def test_a_deadline_in_an_outage_is_tried_again_and_the_table_goes_on(fault: Fault) -> None:
    clock = ManualClock()
    sessions = manager(fault.storage, clock)
    table = await two_members(sessions)
    await fault.away()
    await clock.advance(TURN + 1)  # the deadline passes while the database is away
    assert table.seq == 0
    assert table.deadline_timer is not None
    await fault.back()
    await clock.advance(MAX_SAVE_RETRY)
    assert table.seq >= 1
    assert table.timeouts  # the computer player acted for the member, and says so
    assert len(await fault.storage.actions(table.table_id)) == table.seq


# --- 3. a database that hangs holds nobody --------------------------------------------------------


async def test_a_write_that_hangs_times_out_frees_the_table_and_counts_as_not_saved(
    fault: Fault,
) -> None:
    sessions = manager(fault.storage, ManualClock())
    table = await two_members(sessions)
    version, move, user_id = table.version, first_move(table), mover(table)
    await fault.hang()
    started = time.monotonic()
    key = await refused(sessions.act(table.table_id, user_id, version, move))
    waited = time.monotonic() - started
    assert key == not_saved(fault.storage)
    assert waited < TIMEOUT + 0.5
    assert not table.lock.locked()
    assert table.seq == 0
    await fault.back()
    await sessions.act(table.table_id, user_id, version, move)
    assert [a.notation for a in await fault.storage.actions(table.table_id)] == [move]


async def test_a_move_kept_although_its_write_got_no_answer_is_not_played_twice(
    fault: Fault, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection was cut just after the commit: the database kept the move, the bot
    heard nothing. The next try reads the log first and goes on from the kept move."""
    storage = fault.storage
    sessions = manager(storage, ManualClock())
    table = await two_members(sessions)
    version, move, user_id = table.version, first_move(table), mover(table)
    real = storage.record_action

    async def kept_unheard(record: TableRecord, action: ActionRecord, *, seats: bool) -> None:
        await real(record, action, seats=seats)
        raise StorageUnavailable("connection was closed in the middle of operation")

    monkeypatch.setattr(storage, "record_action", kept_unheard)
    assert await refused(sessions.act(table.table_id, user_id, version, move)) == not_saved(storage)
    monkeypatch.setattr(storage, "record_action", real)
    # the member clicks the same card again: it is already played
    assert (
        await refused(sessions.act(table.table_id, user_id, version, move)) == "errors.stale_panel"
    )
    assert table.seq == 1
    assert [a.notation for a in await storage.actions(table.table_id)] == [move]
    await sessions.act(table.table_id, mover(table), table.version, first_move(table))
    assert len(await storage.actions(table.table_id)) == table.seq == 2


# --- 2. the shard lease outlives an outage, and a lease lost stops the process -----------------


async def test_the_shard_lease_outlives_an_outage_and_a_lease_run_out_stops_the_process(
    postgres_fault: PostgresFault,
) -> None:
    storage = postgres_fault.storage
    bot = Kortbord(Settings(database=storage.where, _env_file=None))  # type: ignore[call-arg]
    bot.root.storage = storage
    t0 = time.time()
    await storage.claim_shards(Shards.all(), "this process", t0, LEASE_SECONDS)
    assert await bot.renew_lease(now=t0)
    await postgres_fault.away()
    assert await bot.renew_lease(now=t0 + RENEW_SECONDS)  # refused: tried again, not dead
    assert await bot.renew_lease(now=t0 + LEASE_SECONDS - 1)
    assert not bot.shards_lost
    await postgres_fault.back()
    assert await bot.renew_lease(now=t0 + LEASE_SECONDS - 1)
    assert not bot.shards_lost
    await postgres_fault.away()
    # the outage outlasts the renewed lease: another process may serve the shards by now
    assert not await bot.renew_lease(now=t0 + 2 * LEASE_SECONDS)
    assert bot.shards_lost
    assert bot.is_closed()


# --- 4. a graceful stop while the database is away --------------------------------------------


async def test_a_stop_while_the_database_is_away_stops_every_table_says_so_and_resumes_later(
    fault: Fault, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    sessions = manager(fault.storage, clock)
    tables = await started_tables(sessions, 3, guild_id=GUILD, channel_id=CHANNEL)
    views = [t.game.view(None) for t in tables if t.game is not None]
    await fault.away()
    caplog.set_level(logging.INFO, logger="bot.sessions")
    await sessions.shutdown()  # does not raise
    assert clock.pending() == 0  # every table stopped, not only those before the first failure
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    said = [line for line in said if "not saved as paused" in line]
    assert len(said) == 1
    assert all(str(t.table_id) in said[0] for t in tables)
    await fault.back()

    again = manager(fault.storage, clock)
    assert await again.restore() == 3
    for table, view in zip(tables, views, strict=True):
        resumed = again.table_by_id(table.table_id)
        assert resumed is not None
        assert resumed.game is not None
        assert resumed.record.status == "playing"
        assert resumed.game.view(None) == view


async def test_a_stop_while_the_database_hangs_ends_in_bounded_time(fault: Fault) -> None:
    sessions = manager(fault.storage, ManualClock())
    await started_tables(sessions, 3, guild_id=GUILD, channel_id=CHANNEL)
    await fault.hang()
    started = time.monotonic()
    await sessions.shutdown()
    await fault.storage.close()
    # one write waits out the timeout, the other tables are not tried, closing waits it once more
    assert time.monotonic() - started < 4 * TIMEOUT
