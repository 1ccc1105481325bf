"""A corrupt row never drops a table silently (SQLite files, and PostgreSQL when
``KORTBORD_TEST_POSTGRES`` names a server): restore brings back what is sound, the match as it
was after the last sound action, marks the table damaged (the log says which row and why), takes
no move on it, does not hold its members, and lets the host or an administrator end it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.discord.embeds import table_layout
from bot.discord.messages import layout_view, texts_of
from bot.discord.views.table import table_view
from bot.errors import UserError
from bot.i18n import catalog
from bot.sessions import Member, SessionManager
from bot.storage import Storage, open_storage

CHANNEL, GUILD = 100, 1
ANNA, BO, CILLA = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla")
SOUND = 3
"""Actions 1..3 are sound; the corruption is in action 4 or in the table row."""

CORRUPTIONS = {
    "notation": ("UPDATE actions SET notation = 'Zq%!' WHERE table_id = ? AND seq = 4", SOUND),
    "seat": ("UPDATE actions SET seat = 7 WHERE table_id = ? AND seq = 4", SOUND),
    "gap": ("DELETE FROM actions WHERE table_id = ? AND seq = 4", SOUND),
    "options": ("UPDATE tables SET options = '[[\"target\",' WHERE table_id = ?", 0),
    "variant": ("UPDATE tables SET variant = 'nonesuch' WHERE table_id = ?", 0),
}


REASONS = (
    *("notation", "seat", "gap", "row"),
    *("options", "variant", "game", "status", "seats", "table"),
)


@pytest.fixture
def database(any_database: Path | str) -> Path | str:
    return any_database


def manager(storage: Storage, clock: ManualClock) -> SessionManager:
    return SessionManager(storage, clock, turn_seconds=60, idle_seconds=600, computer_delay=1.0)


async def played(storage: Storage, clock: ManualClock, actions: int) -> tuple[int, object]:
    """A two-member Tvåmanswhist match with ``actions`` moves stored, then a graceful stop.
    Returns its table id and the public view after ``SOUND`` moves (one move per ``act``: no
    card is played for a member)."""
    sessions = manager(storage, clock)
    for member in (ANNA, BO):
        await sessions.choices.set("forced_cards", member.user_id, False)
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.join(CHANNEL, BO)
    table = await sessions.start(CHANNEL, ANNA.user_id)
    await sessions.attach_message(table, 777)
    view = None
    for _ in range(actions):
        assert table.game is not None
        if table.seq == SOUND:
            view = table.game.view(None)
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        move = table.game.notation(table.game.legal_actions(seat)[0])
        await sessions.act(table.table_id, user_id, table.version, move)
    await sessions.shutdown()
    return table.table_id, view


async def corrupt(storage: Storage, sql: str, table_id: int) -> None:
    async with storage._write() as db:  # the test breaks a row on purpose
        await db.execute(sql, table_id)


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
async def test_a_corrupt_row_leaves_the_table_restored_damaged_and_endable(
    database: Path | str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    async with await open_storage(database) as storage:
        table_id, view = await played(storage, clock, 6)
        sql, sound = CORRUPTIONS[kind]
        await corrupt(storage, sql, table_id)

    caplog.set_level(logging.ERROR)
    async with await open_storage(database) as storage:
        sessions = manager(storage, clock)
        assert await sessions.restore() == 1
        table = sessions.table_in(CHANNEL)
        assert table is not None, "the damaged table was dropped"
        assert table.damage is not None
        assert table.seq == sound
        if sound:
            assert table.game is not None
            assert table.game.view(None) == view
            assert table.damage.seq == SOUND + 1
        else:
            assert table.game is None
        logged = " ".join(r.getMessage() for r in caplog.records)
        assert f"table {table_id} is damaged" in logged
        assert table.damage.detail in logged

        # nothing moves on it: no timers but its idleness, no member's move
        assert sessions.clock.pending() == 1  # type: ignore[attr-defined]
        for user in (ANNA, BO):
            with pytest.raises(UserError) as refused:
                await sessions.act(table_id, user.user_id, table.version, "pass")
            assert refused.value.msg.key == "errors.table_damaged"
        # its members are free to play elsewhere meanwhile
        assert sessions.table_of(BO.user_id) is None
        elsewhere = await sessions.open_table(
            guild_id=GUILD, channel_id=CHANNEL + 1, host=BO, game_id="tvamanswhist"
        )
        await sessions.attach_message(elsewhere, 778)
        # the table says so, and offers only the end
        texts = catalog("en")
        shown = layout_view(table_layout(texts, table, None))
        assert "damaged" in "\n".join(texts_of(shown))
        controls = table_view(texts, table)
        assert controls is not None
        assert [c.custom_id for c in controls.children] == [f"kb:t:{table_id}:end"]  # type: ignore[attr-defined]

        # only the host (or an administrator) ends it; the corrupt rows stay for inspection
        with pytest.raises(UserError):
            await sessions.end(CHANNEL, CILLA.user_id)
        await sessions.end(CHANNEL, ANNA.user_id)
        assert sessions.table_in(CHANNEL) is None
        stored = await storage.table(table_id)
        if kind != "options":
            assert stored is not None
            assert stored.status == "ended"
        assert len(await storage.actions(table_id)) >= SOUND

    async with await open_storage(database) as storage:
        again = manager(storage, clock)
        assert await again.restore() == 1  # Bo's new lobby only
        assert again.table_in(CHANNEL) is None


async def test_an_administrator_ends_a_damaged_table(database: Path | str) -> None:
    clock = ManualClock()
    async with await open_storage(database) as storage:
        table_id, _ = await played(storage, clock, 5)
        await corrupt(storage, CORRUPTIONS["notation"][0], table_id)
    async with await open_storage(database) as storage:
        sessions = manager(storage, clock)
        await sessions.restore()
        ended = await sessions.end(CHANNEL, CILLA.user_id, admin=True)
        assert ended.record.end_reason == "ended_by_admin"
        assert await manager(storage, clock).restore() == 0


def test_the_damage_is_on_the_table_in_both_languages() -> None:
    for language in ("sv", "en"):
        texts = catalog(language)
        for reason in REASONS:
            assert texts.has(f"ui.damage.{reason}"), (language, reason)
        assert texts.has("errors.table_damaged")
