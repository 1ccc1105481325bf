"""A queue is not an outage, and one commit serves many tables: on SQLite and PostgreSQL.

A burst of actions from more tables than the database can serve at once waits its turn and is
committed, even when the wait is longer than the storage's timeout; actions arriving together
share a transaction, each table's in order, and one refused action refuses only itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot.clock import ManualClock
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import (
    ActionRecord,
    DuplicateActionError,
    SeatRecord,
    Storage,
    StorageUnavailable,
    TableNotLiveError,
    TableRecord,
    open_storage,
)
from bot.storage.sql import Connection
from bot.storage.sqlite import SqliteStorage
from bot.storage.watch import STALL

T = TypeVar("T")

TIMEOUT = 0.5
"""The storage's timeout here; the database's turns are held for twice as long."""

POOL = 2
"""PostgreSQL's pool: far fewer connections than tables acting at once."""

TABLES = 40


@pytest.fixture
async def storage(any_database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_storage(any_database, pool_size=POOL, timeout=TIMEOUT)
    yield opened
    await opened.close()


async def new_table(storage: Storage, n: int) -> TableRecord:
    return await storage.create_table(
        guild_id=1,
        channel_id=100 + n,
        host_id=10 + n,
        game_id="tvamanswhist",
        variant="standard",
        seed=n,
        turn_seconds=60,
        language="sv",
        created_at=1.0,
        status="playing",
        seats=(SeatRecord(0, 10 + n, "A"), SeatRecord(1, None, "Dator", ai="medium")),
    )


def move(seq: int) -> ActionRecord:
    return ActionRecord(seq=seq, seat=seq % 2, notation=f"card {seq}", at=float(seq), by="member")


@asynccontextmanager
async def turns_held(storage: Storage) -> AsyncIterator[None]:
    """Every turn the database has (SQLite's one connection, each connection of the pool) is
    held by a read that ends only when the block does; the reads are untimed, so that only the
    actions waiting behind them could run out of time."""
    released = asyncio.Event()
    holding: list[asyncio.Task[None]] = []
    taken = asyncio.Semaphore(0)
    count = 1 if storage.dialect == "sqlite" else POOL
    storage.timeout = 3600.0

    async def hold() -> None:
        reading: AbstractAsyncContextManager[Connection] = storage._read()
        async with reading:
            taken.release()
            await released.wait()

    async with AsyncExitStack() as stack:
        for _ in range(count):
            holding.append(asyncio.create_task(hold()))
        for _ in range(count):
            await taken.acquire()
        storage.timeout = TIMEOUT
        stack.callback(released.set)
        yield
    await asyncio.gather(*holding)


async def test_a_burst_larger_than_the_pool_waits_its_turn_and_commits(storage: Storage) -> None:
    tables = [await new_table(storage, n) for n in range(TABLES)]
    async with turns_held(storage):
        burst = asyncio.gather(
            *(storage.record_action(table, move(1)) for table in tables), return_exceptions=True
        )
        # the line is longer than the timeout: waiting for a turn is not the database failing
        await asyncio.sleep(2 * TIMEOUT)
    answers = await burst
    assert answers == [None] * TABLES
    assert not storage.away
    for table in tables:
        assert await storage.actions(table.table_id) == [move(1)]


async def test_an_answer_the_loop_is_too_busy_to_read_in_time_is_not_an_outage(
    storage: Storage,
) -> None:
    # thousands of tables' follow-up work keeps the event loop from reading the database's
    # answers for longer than the timeout: the database answered, it is not away. Each turn of
    # the loop is taken up by other work for a little longer than a stall (``watch.STALL``),
    # and two such turns are longer than the timeout (a block of twice the timeout at each turn
    # made this the suite's longest test: 87 s on PostgreSQL)
    tables = [await new_table(storage, n) for n in range(3)]
    busy = True
    taken = 1.2 * STALL
    assert 2 * taken > TIMEOUT

    async def other_work() -> None:
        while busy:
            time.sleep(taken)  # the loop taken up by other work
            await asyncio.sleep(0)

    working = asyncio.create_task(other_work())
    try:
        answers = await asyncio.gather(
            *(storage.record_action(table, move(1)) for table in tables),
            storage.table(tables[0].table_id),
            return_exceptions=True,
        )
    finally:
        busy = False
        await working
    assert answers[:3] == [None] * 3
    assert isinstance(answers[3], TableRecord)  # a read is timed the same way
    assert not storage.away
    for table in tables:
        assert await storage.actions(table.table_id) == [move(1)]


async def test_actions_of_many_tables_arriving_together_share_one_transaction(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    tables = [await new_table(storage, n) for n in range(TABLES)]
    transactions = 0
    real = storage._in_transaction

    async def counted(work: Callable[[Connection], Awaitable[T]]) -> T:
        nonlocal transactions
        transactions += 1
        return await real(work)

    monkeypatch.setattr(storage, "_in_transaction", counted)
    async with turns_held(storage):
        burst = asyncio.gather(*(storage.record_action(table, move(1)) for table in tables))
        await asyncio.sleep(0)
    await burst
    assert transactions == 1
    for table in tables:
        assert await storage.actions(table.table_id) == [move(1)]


async def test_each_tables_actions_are_written_in_order_and_a_refusal_refuses_only_itself(
    storage: Storage,
) -> None:
    tables = [await new_table(storage, n) for n in range(5)]
    await storage.record_action(tables[0], move(1))
    calls = [storage.record_action(table, move(seq)) for seq in (1, 2, 3) for table in tables]
    answers = await asyncio.gather(*calls, return_exceptions=True)
    # table 0 already had action 1: that one is refused, its 2 and 3 and every other go in
    assert isinstance(answers[0], DuplicateActionError)
    assert answers[1:] == [None] * (len(calls) - 1)
    for table in tables:
        assert await storage.actions(table.table_id) == [move(1), move(2), move(3)]


async def test_a_batch_saves_each_tables_row_exactly_and_one_no_longer_live_refuses_only_itself(
    storage: Storage,
) -> None:
    """Each table's row is saved with its action as it was handed in, to the last bit of its
    times; a table ended meanwhile refuses its action and keeps its row as ended, and the other
    actions of the batch are kept."""
    tables = [await new_table(storage, n) for n in range(TABLES)]
    ended = tables[7]
    await storage.end_table(ended, "host")
    moved = [
        dataclasses.replace(table, version=table.version + 1, updated_at=1_800_000_000.1 + n / 7)
        for n, table in enumerate(tables)
    ]
    async with turns_held(storage):
        burst = asyncio.gather(
            *(storage.record_action(table, move(1), seats=False) for table in moved),
            return_exceptions=True,
        )
        await asyncio.sleep(0)
    answers = await burst
    assert isinstance(answers[7], TableNotLiveError)
    assert answers[:7] + answers[8:] == [None] * (TABLES - 1)
    for table, before in zip(moved, tables, strict=True):
        stored = await storage.table(table.table_id)
        assert stored is not None
        if table is moved[7]:
            assert (stored.status, stored.version) == ("ended", before.version)
            assert await storage.actions(table.table_id) == []
        else:
            assert stored == table
            assert await storage.actions(table.table_id) == [move(1)]


# --- through the session manager ---------------------------------------------------------------


async def test_members_at_many_tables_acting_in_a_long_line_are_all_saved(
    storage: Storage,
) -> None:
    sessions = SessionManager(
        storage, ManualClock(), turn_seconds=60, idle_seconds=3600, rng=random.Random(3)
    )
    tables: list[LiveTable] = []
    for n in range(TABLES):
        host, guest = Member(1000 + 2 * n, f"A{n}"), Member(1001 + 2 * n, f"B{n}")
        await sessions.open_table(guild_id=1, channel_id=100 + n, host=host, game_id="tvamanswhist")
        await sessions.join(100 + n, guest)
        tables.append(await sessions.start(100 + n, host.user_id))

    def act(table: LiveTable) -> asyncio.Future[object]:
        assert table.game is not None
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        card = table.game.notation(table.game.legal_actions(seat)[0])
        return asyncio.ensure_future(sessions.act(table.table_id, user_id, table.version, card))

    async with turns_held(storage):
        burst = asyncio.gather(*(act(table) for table in tables), return_exceptions=True)
        await asyncio.sleep(2 * TIMEOUT)
    answers = await burst
    assert [a for a in answers if isinstance(a, BaseException)] == []  # none "not saved"
    for table in tables:
        assert table.seq >= 1  # the move, and a forced card after it
        assert len(await storage.actions(table.table_id)) == table.seq


# --- SQLite: a transaction of actions is one trip to its thread --------------------------------


@pytest.fixture
async def sqlite_storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    opened = await open_storage(tmp_path / "kortbord.sqlite3", timeout=TIMEOUT)
    assert isinstance(opened, SqliteStorage)
    yield opened
    await opened.close()


async def test_an_actions_write_on_sqlite_is_one_trip_to_its_thread(
    sqlite_storage: SqliteStorage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The transaction is begun, checked, written and committed on SQLite's thread at once:
    one trip from the event loop, for one action and for a batch, where a trip per statement
    took six."""
    storage = sqlite_storage
    tables = [await new_table(storage, n) for n in range(3)]
    trips = 0
    real: Callable[..., Awaitable[Any]] = storage._db._execute

    async def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal trips
        trips += 1
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage._db, "_execute", counted)
    await storage.record_action(tables[0], move(1))
    assert trips == 1
    trips = 0
    async with turns_held(storage):
        burst = asyncio.gather(*(storage.record_action(table, move(2)) for table in tables))
        await asyncio.sleep(0)
    await burst
    assert trips == 1
    monkeypatch.undo()
    assert [a.seq for a in await storage.actions(tables[0].table_id)] == [1, 2]
    assert await storage.actions(tables[2].table_id) == [move(2)]


async def test_an_action_given_up_at_the_timeout_before_its_commit_is_not_kept(
    sqlite_storage: SqliteStorage,
) -> None:
    """SQLite still works on a transaction whose caller gave up waiting (the timeout: the
    member is told it was not saved): it is rolled back instead of committed, and the table's
    next write finds the database as it was."""
    storage = sqlite_storage
    table = await new_table(storage, 0)
    go_on = threading.Event()
    await storage._db.create_function("pause", 0, lambda: go_on.wait(10))
    await storage._db.execute(
        "CREATE TEMP TRIGGER paused AFTER INSERT ON actions BEGIN SELECT pause(); END"
    )
    with pytest.raises(StorageUnavailable):
        await storage.record_action(table, move(1))
    go_on.set()
    assert await storage.actions(table.table_id) == []
    assert (await storage.table(table.table_id)) == table
    await storage.record_action(table, move(1))
    assert await storage.actions(table.table_id) == [move(1)]
