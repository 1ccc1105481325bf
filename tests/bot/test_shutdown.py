"""The graceful stop (SIGTERM) of the session manager with a live table, on a simulated clock:
the action in flight is finished and stored, the table is paused and shown so, later changes
are refused, and the next start resumes it with fresh deadlines."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from live_tables import started_tables

from bot.clock import ManualClock
from bot.errors import UserError
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import Storage, open_storage
from games.core import Seat

CHANNEL, GUILD = 100, 1
ANNA, BO = Member(11, "Anna"), Member(12, "Bo")
TURN = 60


class Recorder:
    """A listener that remembers the status each table had when it was told of a change."""

    def __init__(self) -> None:
        self.statuses: list[tuple[int, str]] = []

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        self.statuses.append((table.table_id, table.record.status))


@pytest.fixture
async def storage(any_database: Path | str) -> AsyncIterator[Storage]:
    """Every test here runs on SQLite and on PostgreSQL (``tests/conftest.py``)."""
    store = await open_storage(any_database)
    yield store
    await store.close()


def manager(storage: Storage, clock: ManualClock, listener: Recorder) -> SessionManager:
    return SessionManager(
        storage,
        clock,
        turn_seconds=TURN,
        idle_seconds=600,
        computer_delay=1.0,
        listeners=[listener],
        rng=random.Random(1),
    )


async def live_match(sessions: SessionManager) -> LiveTable:
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.join(CHANNEL, BO)
    return await sessions.start(CHANNEL, ANNA.user_id)


def next_move(table: LiveTable) -> tuple[int, str]:
    """The member to act and their first legal move, in notation."""
    assert table.game is not None
    seat = min(table.game.to_act())
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    return user_id, table.game.notation(table.game.legal_actions(seat)[0])


async def test_sigterm_with_a_live_table_finishes_the_action_and_pauses(
    storage: Storage,
) -> None:
    clock = ManualClock()
    told = Recorder()
    sessions = manager(storage, clock, told)
    table = await live_match(sessions)
    user_id, move = next_move(table)
    version = table.version

    # The member's action is being stored when the signal comes.
    acting = asyncio.create_task(sessions.act(table.table_id, user_id, version, move))
    await asyncio.sleep(0)
    assert table.lock.locked()
    await sessions.shutdown()

    assert acting.done()
    assert acting.exception() is None
    assert [a.notation for a in await storage.actions(table.table_id)] == [move]
    stored = await storage.table(table.table_id)
    assert stored is not None
    assert stored.status == "paused"
    assert stored.version == version + 1  # the action's bump; pausing changes no panel
    assert told.statuses[-1] == (table.table_id, "paused")  # its message says so
    assert sessions.deadline(table) is None
    assert clock.pending() == 0  # no timer is left to fire during the stop


async def test_after_sigterm_changes_are_refused_and_nothing_moves(storage: Storage) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock, Recorder())
    table = await live_match(sessions)
    await sessions.shutdown()
    user_id, move = next_move(table)
    with pytest.raises(UserError) as refused:
        await sessions.act(table.table_id, user_id, table.version, move)
    assert refused.value.msg.key == "errors.restarting"
    with pytest.raises(UserError) as opening:
        await sessions.open_table(
            guild_id=GUILD, channel_id=CHANNEL + 1, host=Member(13, "Cilla"), game_id="tvamanswhist"
        )
    assert opening.value.msg.key == "errors.restarting"
    await clock.advance(10 * TURN)  # deadlines and computer players stay still
    assert await storage.actions(table.table_id) == []


async def test_the_next_start_resumes_the_paused_table_with_fresh_deadlines(
    storage: Storage,
) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock, Recorder())
    table = await live_match(sessions)
    user_id, move = next_move(table)
    await sessions.act(table.table_id, user_id, table.version, move)
    await clock.advance(TURN - 5)  # the next member has 5 s left when the bot stops
    assert table.game is not None
    before = table.game.view(None)
    await sessions.shutdown()

    await clock.advance(300)  # the restart takes five minutes
    told = Recorder()
    restarted = manager(storage, clock, told)
    assert await restarted.restore() == 1
    again = restarted.table_in(CHANNEL)
    assert again is not None
    assert again.record.status == "playing"
    assert again.game is not None
    assert again.game.view(None) == before
    assert again.version == table.version  # a panel opened before the restart still works
    assert restarted.deadline(again) == clock.now() + TURN
    stored = await storage.table(again.table_id)
    assert stored is not None
    assert stored.status == "playing"

    await clock.advance(TURN - 1)  # a full turn's time, not the 5 s that were left
    assert again.seq == 1
    user_id, move = next_move(again)
    await restarted.act(again.table_id, user_id, table.version, move)
    assert again.seq == 2


async def test_a_lobby_stays_a_lobby_through_a_restart(storage: Storage) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock, Recorder())
    lobby = await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist"
    )
    await sessions.shutdown()
    stored = await storage.table(lobby.table_id)
    assert stored is not None
    assert stored.status == "lobby"


async def test_a_table_whose_pause_is_refused_keeps_no_other_from_its_pause(
    storage: Storage,
) -> None:
    clock = ManualClock()
    told = Recorder()
    sessions = manager(storage, clock, told)
    tables = await started_tables(sessions, 3, guild_id=GUILD, channel_id=CHANNEL)
    # the middle table's row is gone from the database (removed by hand): its pause is refused
    gone = tables[1].table_id
    async with storage._write() as db:  # the storage's own connection, as an operator's would
        await db.execute("DELETE FROM tables WHERE table_id = ?", gone)

    await sessions.shutdown()

    for table in (tables[0], tables[2]):
        stored = await storage.table(table.table_id)
        assert stored is not None
        assert stored.status == "paused"
        assert (table.table_id, "paused") in told.statuses
    assert await storage.table(gone) is None
    assert tables[1].record.status == "playing"  # not paused: its message is not told so
    assert (gone, "paused") not in told.statuses
    assert clock.pending() == 0
