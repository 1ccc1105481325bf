"""*Ny match* under a finished table: only the finished match's seated members (or an
administrator) start it, and its host is one of them, never a member who left or was kicked."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.errors import UserError
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import Storage, open_storage

CHANNEL, GUILD = 100, 1
ANNA, BO, CILLA = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla")


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await open_storage(tmp_path / "kortbord.sqlite3")
    yield store
    await store.close()


async def finished_after_bo_left(sessions: SessionManager, clock: ManualClock) -> LiveTable:
    """Anna, Bo and Cilla play Reunion; Bo leaves, the computer plays his seat to the end."""
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="reunion")
    await sessions.join(CHANNEL, BO)
    await sessions.join(CHANNEL, CILLA)
    table = await sessions.start(CHANNEL, ANNA.user_id)
    await sessions.leave(CHANNEL, BO.user_id)
    for _ in range(2000):
        game = table.game
        assert game is not None
        if not table.live:
            break
        seat = min(game.to_act())
        user_id = table.record.seats[seat].user_id
        if user_id is not None and not table.by_computer(seat):
            action = game.legal_actions(seat)[0]
            await sessions.act(table.table_id, user_id, table.version, game.notation(action))
        else:
            await clock.advance(1.0)
    assert table.record.status == "finished"
    return table


async def test_a_member_who_left_cannot_start_the_rematch_and_a_seated_one_hosts_it(
    storage: Storage,
) -> None:
    clock = ManualClock()
    sessions = SessionManager(storage, clock, computer_delay=1.0, rng=random.Random(5))
    old = await finished_after_bo_left(sessions, clock)
    with pytest.raises(UserError) as refused:
        await sessions.rematch(old.table_id, BO)
    assert refused.value.msg.key == "errors.not_seated"
    assert sessions.table_in(CHANNEL) is None

    new = await sessions.rematch(old.table_id, CILLA)
    assert new.record.host_id == CILLA.user_id
    assert BO.user_id not in {s.user_id for s in new.record.seats}


async def test_an_administrator_not_seated_starts_a_rematch_hosted_by_a_seated_member(
    storage: Storage,
) -> None:
    clock = ManualClock()
    sessions = SessionManager(storage, clock, computer_delay=1.0, rng=random.Random(5))
    old = await finished_after_bo_left(sessions, clock)
    admin = Member(99, "Admin")
    new = await sessions.rematch(old.table_id, admin, admin=True)
    assert new.record.host_id == ANNA.user_id
    assert new.seat_of(new.record.host_id) is not None
