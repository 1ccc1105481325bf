"""Storage on a real SQLite file and, when ``KORTBORD_TEST_POSTGRES`` names a server, on
PostgreSQL too (``any_database``): migrations, round trips, restart, refusals, leaderboards."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import get_args

import aiosqlite
import asyncpg
import pytest

from bot import ratings
from bot.leaderboard import GameStats, finish_table, leaderboard, member_stats
from bot.storage import (
    ActionRecord,
    DuplicateActionError,
    GuildSettings,
    IntegrityViolation,
    MemberChoice,
    MigrationError,
    SchemaTooNewError,
    SeatRecord,
    Storage,
    StorageError,
    TableNotFoundError,
    TableNotLiveError,
    TableRecord,
    backup_storage,
    open_storage,
    probe_storage,
)
from bot.storage.schema import Migration, migrate, migrations

GUILD = 111
CHANNEL = 222
ALICE, BOB, CECILIA = 1001, 1002, 1003
T0 = 1_700_000_000.0


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "kortbord.sqlite3"


@pytest.fixture
async def storage(any_database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_storage(any_database)
    yield opened
    await opened.close()


def seats(*members: int | None) -> tuple[SeatRecord, ...]:
    """Seats in order; None is a computer player."""
    return tuple(
        SeatRecord(seat, user_id, f"member {user_id}" if user_id else f"Dator {seat}")
        for seat, user_id in enumerate(members)
    )


async def new_table(
    storage: Storage, *members: int | None, game_id: str = "nittionio", guild_id: int = GUILD
) -> TableRecord:
    return await storage.create_table(
        guild_id=guild_id,
        channel_id=CHANNEL,
        host_id=ALICE,
        game_id=game_id,
        options=(("target", "99"), ("bidding", "true")),
        variant="standard",
        seed=42,
        turn_seconds=60,
        language="sv",
        created_at=T0,
        seats=seats(*(members or (ALICE, BOB, None))),
    )


def action(seq: int, seat: int, notation: str = "QS") -> ActionRecord:
    return ActionRecord(seq=seq, seat=seat, notation=notation, at=T0 + seq, by="member")


def play(table: TableRecord, seq: int) -> TableRecord:
    """The table as the session manager would save it with action ``seq``."""
    return replace(table, status="playing", version=seq, updated_at=T0 + seq, deadline_at=T0 + 99)


def raw(path: Path) -> sqlite3.Connection:
    """A second, plain connection to the file, as a person with the sqlite3 shell would use."""
    return sqlite3.connect(path, isolation_level=None)


# --- opening and migrations ----------------------------------------------------------------------


async def test_open_creates_the_directory_and_the_schema(path: Path) -> None:
    assert not path.parent.exists()
    storage = await open_storage(path)
    assert await storage.ping()
    await storage.close()
    with raw(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(migrations()) == 11
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"tables", "seats", "actions", "results", "standings", "guild_settings"} <= names


async def test_reopening_keeps_the_data_and_migrates_nothing(path: Path) -> None:
    async with await open_storage(path) as storage:
        await storage.save_guild_settings(GuildSettings(GUILD, language="en"))
    async with await open_storage(path) as storage:
        assert (await storage.guild_settings(GUILD)).language == "en"
    with raw(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(migrations())


async def test_a_database_newer_than_the_code_is_refused_and_left_alone(path: Path) -> None:
    path.parent.mkdir(parents=True)
    latest = len(migrations())
    future = latest + 1
    with raw(path) as db:
        db.execute(f"PRAGMA user_version = {future}")
        db.execute("CREATE TABLE future (x)")
    with pytest.raises(SchemaTooNewError, match=rf"version {future}, but .* only up to {latest}"):
        await open_storage(path)
    with raw(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == future
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("future",)]


async def test_a_failing_migration_leaves_the_database_at_its_last_version(path: Path) -> None:
    async with await open_storage(path):
        pass
    number = len(migrations()) + 1
    broken = Migration(number, "broken", "CREATE TABLE extra (x);\nCREATE TABLE tables (x);")
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        with pytest.raises(MigrationError, match=f"{number:04d}_broken failed"):
            await migrate(db, str(path), [*migrations(), broken])
    finally:
        await db.close()
    with raw(path) as check:
        assert check.execute("PRAGMA user_version").fetchone()[0] == len(migrations())
        assert check.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchall() == []


async def test_foreign_keys_are_enforced(storage: Storage) -> None:
    with pytest.raises(IntegrityViolation):
        await storage.set_private_copy(table_id=999, user_id=ALICE, channel_id=1, message_id=2)


async def test_a_closed_storage_answers_no_ping_and_refuses_work(storage: Storage) -> None:
    await storage.close()
    await storage.close()
    assert not await storage.ping()
    with pytest.raises(StorageError, match="closed"):
        await storage.guild_settings(GUILD)


# --- round trips ---------------------------------------------------------------------------------


async def test_guild_settings_round_trip(storage: Storage) -> None:
    assert await storage.guild_settings(GUILD) == GuildSettings(GUILD)
    chosen = GuildSettings(
        GUILD,
        language="en",
        thread_per_table=True,
        turn_seconds=120,
        reaction_seconds=4,
        table_channels=(CHANNEL, 333),
        pictures=False,
    )
    await storage.save_guild_settings(chosen)
    assert await storage.guild_settings(GUILD) == chosen
    await storage.save_guild_settings(GuildSettings(GUILD))
    assert await storage.guild_settings(GUILD) == GuildSettings(GUILD)
    assert await storage.guild_settings(GUILD + 1) == GuildSettings(GUILD + 1)


async def test_a_new_table_round_trips(storage: Storage) -> None:
    first = await new_table(storage)
    second = await new_table(storage, BOB, CECILIA)
    assert first.table_id > 0
    assert second.table_id != first.table_id
    assert first.status == "lobby"
    assert first.updated_at == T0
    assert await storage.table(first.table_id) == first
    assert await storage.table(second.table_id) == second
    assert await storage.table(12345) is None


async def test_save_table_round_trips_every_field(storage: Storage) -> None:
    table = await new_table(storage)
    changed = replace(
        table,
        thread_id=444,
        message_id=555,
        options=(("variant_text", 'å ä ö, "citat"'),),
        variant="sjuttiosju",
        status="paused",
        turn_seconds=300,
        language="en",
        version=7,
        updated_at=T0 + 50.5,
        deadline_at=T0 + 110.25,
        seats=(
            SeatRecord(0, ALICE, "Alice", ai="search", autoplay=True, strikes=2, left=True),
            SeatRecord(1, None, "Dator 1", ai="rules"),
        ),
        end_reason=None,
    )
    await storage.save_table(changed)
    assert await storage.table(table.table_id) == changed


async def test_a_record_after_an_action_is_the_record_with_three_fields_replaced(
    storage: Storage,
) -> None:
    table = await new_table(storage)
    seats = (SeatRecord(0, ALICE, "Alice", strikes=1), SeatRecord(1, None, "Dator 1"))
    acted = table.acted(table.version + 1, T0 + 3.5, seats)
    assert acted == replace(table, version=table.version + 1, updated_at=T0 + 3.5, seats=seats)
    assert table.version == acted.version - 1  # the record acted on is as it was
    with pytest.raises(AttributeError):
        acted.version = 0  # type: ignore[misc]


async def test_seats_must_be_numbered_in_order(storage: Storage) -> None:
    table = await new_table(storage)
    gap = replace(table, seats=(SeatRecord(0, ALICE, "A"), SeatRecord(2, BOB, "B")))
    with pytest.raises(ValueError, match="seats must be numbered"):
        await storage.save_table(gap)
    assert await storage.table(table.table_id) == table


async def test_saving_an_unknown_table_is_refused(storage: Storage) -> None:
    table = await new_table(storage)
    with pytest.raises(TableNotFoundError):
        await storage.save_table(replace(table, table_id=999))


async def test_record_action_appends_and_saves_the_table_together(storage: Storage) -> None:
    table = await new_table(storage)
    for seq, (seat, card) in enumerate([(0, "QS"), (1, "TH"), (2, "AS")], start=1):
        table = play(table, seq)
        await storage.record_action(table, action(seq, seat, card))
    computer = ActionRecord(seq=4, seat=2, notation="pass", at=T0 + 4.5, by="computer")
    timeout = ActionRecord(seq=5, seat=1, notation="2C", at=T0 + 5.5, by="timeout")
    await storage.record_action(play(table, 4), computer)
    table = play(table, 5)
    await storage.record_action(table, timeout)
    assert await storage.actions(table.table_id) == [
        action(1, 0, "QS"),
        action(2, 1, "TH"),
        action(3, 2, "AS"),
        computer,
        timeout,
    ]
    assert await storage.table(table.table_id) == table
    assert await storage.actions(999) == []


async def test_an_action_whose_seats_are_as_stored_saves_the_row_and_leaves_the_seats(
    storage: Storage,
) -> None:
    table = await new_table(storage)
    first = play(table, 1)
    # the seats are said to be as stored: only the row is saved with the action, and the seats
    # stay as they were written (the record's differing seats are not looked at)
    await storage.record_action(
        replace(first, seats=seats(ALICE, BOB, BOB)), action(1, 0, "QS"), seats=False
    )
    assert await storage.table(table.table_id) == first
    struck = replace(play(first, 2), seats=seats(ALICE, BOB, None))
    await asyncio.gather(
        storage.record_action(struck, action(2, 1, "TH")),
        storage.record_action(play(await new_table(storage), 1), action(1, 0, "AS"), seats=False),
    )
    assert await storage.table(table.table_id) == struck


async def test_an_action_saves_what_play_changes_and_leaves_the_rest_of_the_row_as_stored(
    storage: Storage,
) -> None:
    tables = [await new_table(storage) for _ in range(3)]

    def acted(table: TableRecord) -> TableRecord:
        # what play never changes differs from the stored row: an action does not save it
        return replace(
            play(table, 1), options=(("target", "50"),), host_id=BOB, message_id=77, language="en"
        )

    await storage.record_action(acted(tables[0]), action(1, 0))  # alone in its transaction
    await asyncio.gather(*(storage.record_action(acted(t), action(1, 0)) for t in tables[1:]))
    for table in tables:
        assert await storage.table(table.table_id) == play(table, 1)


async def test_a_duplicate_seq_is_refused_and_nothing_changes(storage: Storage) -> None:
    table = play(await new_table(storage), 1)
    await storage.record_action(table, action(1, 0, "QS"))
    retried = replace(play(table, 2), status="paused", seats=seats(ALICE, BOB, BOB))
    with pytest.raises(DuplicateActionError, match=f"table {table.table_id} already has action 1"):
        await storage.record_action(retried, action(1, 1, "TH"))
    assert await storage.table(table.table_id) == table
    assert await storage.actions(table.table_id) == [action(1, 0, "QS")]


async def test_an_action_for_a_seat_that_does_not_exist_is_refused(storage: Storage) -> None:
    table = await new_table(storage)
    with pytest.raises(ValueError, match="no seat 3"):
        await storage.record_action(play(table, 1), action(1, 3))
    assert await storage.actions(table.table_id) == []


async def test_concurrent_writes_are_serialised(storage: Storage) -> None:
    tables = [await new_table(storage) for _ in range(5)]
    await asyncio.gather(
        *(
            storage.record_action(play(table, seq), action(seq, seq % 3))
            for table in tables
            for seq in range(1, 6)
        )
    )
    for table in tables:
        assert [a.seq for a in await storage.actions(table.table_id)] == [1, 2, 3, 4, 5]


async def test_dm_state_round_trips(storage: Storage) -> None:
    table = await new_table(storage)
    assert not await storage.unreachable(ALICE)
    await storage.set_unreachable(ALICE, True)
    await storage.set_unreachable(ALICE, True)
    assert await storage.unreachable(ALICE)
    assert not await storage.unreachable(BOB)
    await storage.set_unreachable(ALICE, False)
    assert not await storage.unreachable(ALICE)

    assert await storage.private_copy(table.table_id, ALICE) is None
    await storage.set_private_copy(table.table_id, ALICE, channel_id=7001, message_id=8001)
    assert await storage.private_copy(table.table_id, ALICE) == (7001, 8001)
    await storage.set_private_copy(table.table_id, ALICE, channel_id=7001, message_id=8002)
    assert await storage.private_copy(table.table_id, ALICE) == (7001, 8002)
    assert await storage.private_copy(table.table_id, BOB) is None


@pytest.mark.parametrize("choice", get_args(MemberChoice))
async def test_a_members_choice_round_trips(storage: Storage, choice: MemberChoice) -> None:
    assert await storage.member_choice(choice, ALICE)
    await storage.set_member_choice(choice, ALICE, False)
    await storage.set_member_choice(choice, ALICE, False)
    assert not await storage.member_choice(choice, ALICE)
    assert await storage.member_choice(choice, BOB)
    for other in get_args(MemberChoice):
        assert await storage.member_choice(other, ALICE) == (other != choice)
    await storage.set_member_choice(choice, ALICE, True)
    assert await storage.member_choice(choice, ALICE)


async def test_an_unknown_member_choice_never_reaches_sql(storage: Storage) -> None:
    with pytest.raises(ValueError, match="no such member choice"):
        await storage.member_choice("x; DROP TABLE seats", ALICE)  # type: ignore[arg-type]


# --- restart -------------------------------------------------------------------------------------


async def test_a_restart_restores_the_live_tables_with_their_logs(
    any_database: Path | str,
) -> None:
    async with await open_storage(any_database) as storage:
        lobby = await new_table(storage, ALICE)
        playing = await new_table(storage)
        for seq, notation in [(1, "QS"), (2, "TH"), (3, "AS"), (4, "2C")]:
            playing = play(playing, seq)
            await storage.record_action(playing, action(seq, (seq - 1) % 3, notation))
        paused = replace(await new_table(storage, BOB, CECILIA), status="paused", version=3)
        await storage.save_table(paused)
        finished = await new_table(storage, ALICE, BOB)
        await finish_table(storage, finished, scores=(10, 5), places=(1, 2))
        ended = await new_table(storage, CECILIA)
        await storage.end_table(ended, "idle")

    async with await open_storage(any_database) as storage:
        restored = await storage.live_tables()
    assert [stored.record for stored in restored] == [lobby, playing, paused]
    assert [stored.damage for stored in restored] == [None, None, None]
    logs = [[(a.seq, a.notation) for a in stored.actions] for stored in restored]
    assert logs == [[], [(1, "QS"), (2, "TH"), (3, "AS"), (4, "2C")], []]
    assert restored[1].record.deadline_at == T0 + 99


async def test_a_corrupt_row_comes_back_damaged_with_what_is_sound_and_is_kept(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with await open_storage(path) as storage:
        good = [await new_table(storage) for _ in range(2)]
        bad_json, bad_status, bad_seats, bad_action, bad_seat, gap, lost = [
            await new_table(storage) for _ in range(7)
        ]
        await storage.record_action(play(good[1], 1), action(1, 0))
        good[1] = play(good[1], 1)
        for table in (bad_action, bad_seat, gap):
            for seq in (1, 2, 3):
                await storage.record_action(play(table, seq), action(seq, seq - 1))
    with raw(path) as db:
        db.execute(
            "UPDATE tables SET options = '[[\"target\",' WHERE table_id = ?", (bad_json.table_id,)
        )
        db.execute("PRAGMA ignore_check_constraints = ON")
        db.execute(
            "UPDATE tables SET status = 'waiting' WHERE table_id = ?", (bad_status.table_id,)
        )
        db.execute(
            "UPDATE actions SET by = 'ghost' WHERE table_id = ? AND seq = 2",
            (bad_action.table_id,),
        )
        db.execute(
            "UPDATE seats SET seat = 5 WHERE table_id = ? AND seat = 1", (bad_seats.table_id,)
        )
        db.execute(
            "UPDATE actions SET seat = 9 WHERE table_id = ? AND seq = 3", (bad_seat.table_id,)
        )
        db.execute("DELETE FROM actions WHERE table_id = ? AND seq = 2", (gap.table_id,))
        db.execute("UPDATE tables SET guild_id = 'x' WHERE table_id = ?", (lost.table_id,))

    caplog.set_level(logging.ERROR, logger="bot.storage.store")
    async with await open_storage(path) as storage:
        restored = {stored.record.table_id: stored for stored in await storage.live_tables()}
    assert [restored[t.table_id].record for t in good] == good
    assert [restored[t.table_id].damage for t in good] == [None, None]
    damaged: dict[TableRecord, tuple[str, int | None, int, str]] = {
        bad_json: ("options", None, 0, "cannot be read"),
        bad_status: ("status", None, 0, "unknown status 'waiting'"),
        bad_seats: ("seats", None, 0, "seats must be numbered 0..2 in order, got [0, 2, 5]"),
        bad_action: ("row", 2, 1, "unknown kind 'ghost'"),
        bad_seat: ("seat", 3, 2, "action 3 is for seat 9, but the table has 3 seats"),
        gap: ("gap", 2, 1, "action 2 is missing (the log goes on at 3)"),
    }
    for table, (reason, first, sound, why) in damaged.items():
        stored = restored[table.table_id]
        assert stored.damage is not None, reason
        assert (stored.damage.reason, stored.damage.seq, len(stored.actions)) == (
            reason,
            first,
            sound,
        )
        assert why in stored.damage.detail
        assert stored.record.host_id == ALICE
        assert stored.record.channel_id == CHANNEL
    assert restored[bad_seats.table_id].record.seats[1].seat == 1  # what can be read, in order
    assert lost.table_id not in restored  # not even its server can be read: logged, kept
    logged = [record.getMessage() for record in caplog.records]
    assert any(f"table {lost.table_id} is corrupt beyond reading" in line for line in logged)
    with raw(path) as db:
        assert db.execute("SELECT count(*) FROM tables").fetchone()[0] == 9
        assert db.execute(
            "SELECT options FROM tables WHERE table_id = ?", (bad_json.table_id,)
        ).fetchone() == ('[["target",',)


# --- finishing, ratings and leaderboards ---------------------------------------------------------


async def test_finishing_rates_exactly_the_members(storage: Storage) -> None:
    table = await new_table(storage, ALICE, None, BOB)
    changes = await finish_table(storage, table, scores=(40, 99, 12), places=(2, 1, 3))

    base = ratings.DISPLAY_BASE
    assert [change.user_id for change in changes] == [ALICE, BOB]
    alice, bob = changes
    assert alice.before == bob.before == pytest.approx(base)
    assert alice.after > bob.after  # Alice beat Bob; both lost to the computer player
    assert base > bob.after

    board = await leaderboard(storage, GUILD, "nittionio")
    assert [(s.user_id, s.games, s.wins) for s in board] == [(ALICE, 1, 0), (BOB, 1, 0)]
    assert board[0].rating == pytest.approx(alice.after)
    assert board[0].name == f"member {ALICE}"
    assert await member_stats(storage, GUILD, ALICE) == [
        GameStats("nittionio", games=1, wins=0, places=(0, 1), rating=alice.after)
    ]
    assert await member_stats(storage, GUILD, BOB) == [
        GameStats("nittionio", games=1, wins=0, places=(0, 0, 1), rating=bob.after)
    ]
    finished = await storage.table(table.table_id)
    assert finished is not None
    assert (finished.status, finished.deadline_at) == ("finished", None)
    assert await storage.live_tables() == []


async def test_a_table_with_one_member_changes_no_rating(storage: Storage) -> None:
    table = await new_table(storage, ALICE, None, None)
    assert await finish_table(storage, table, scores=(99, 0, 0), places=(1, 2, 3)) == []
    assert await leaderboard(storage, GUILD, "nittionio") == []
    assert await member_stats(storage, GUILD, ALICE) == []
    finished = await storage.table(table.table_id)
    assert finished is not None
    assert finished.status == "finished"


async def test_a_member_in_two_seats_is_not_rated(storage: Storage) -> None:
    table = await new_table(storage, ALICE, ALICE)
    assert await finish_table(storage, table, scores=(1, 0), places=(1, 2)) == []
    assert await leaderboard(storage, GUILD, "nittionio") == []


async def test_a_table_is_finished_or_ended_only_once(storage: Storage) -> None:
    table = await new_table(storage, ALICE, BOB)
    await finish_table(storage, table, scores=(1, 0), places=(1, 2))
    with pytest.raises(TableNotLiveError, match="already finished"):
        await finish_table(storage, table, scores=(1, 0), places=(1, 2))
    with pytest.raises(TableNotLiveError):
        await storage.end_table(table, "idle")
    with pytest.raises(TableNotLiveError):
        await storage.record_action(play(table, 1), action(1, 0))
    assert await storage.actions(table.table_id) == []
    board = await leaderboard(storage, GUILD, "nittionio")
    assert [s.games for s in board] == [1, 1]


async def test_a_result_that_does_not_fit_the_seats_changes_nothing(storage: Storage) -> None:
    table = await new_table(storage, ALICE, BOB)
    with pytest.raises(ValueError, match="2 seats, but 3 scores and 2 places"):
        await finish_table(storage, table, scores=(1, 0, 0), places=(1, 2))
    assert await storage.table(table.table_id) == table
    assert await leaderboard(storage, GUILD, "nittionio") == []


async def test_ending_a_table_keeps_its_reason(storage: Storage) -> None:
    table = replace(await new_table(storage), deadline_at=T0 + 60)
    await storage.end_table(table, "idle")
    ended = await storage.table(table.table_id)
    assert ended == replace(table, status="ended", deadline_at=None, end_reason="idle")
    assert await storage.live_tables() == []


async def test_the_leaderboard_is_ordered_by_rating_per_server_and_game(storage: Storage) -> None:
    # Alice beats Bob and Cecilia three times; Bob beats Cecilia once more.
    for _ in range(3):
        table = await new_table(storage, ALICE, BOB, CECILIA)
        await finish_table(storage, table, scores=(3, 2, 1), places=(1, 2, 3))
    table = await new_table(storage, BOB, CECILIA)
    await finish_table(storage, table, scores=(1, 0), places=(1, 2))
    # Elsewhere: another game, another server.
    table = await new_table(storage, CECILIA, ALICE, game_id="femkort")
    await finish_table(storage, table, scores=(1, 0), places=(1, 2))
    table = await new_table(storage, CECILIA, BOB, guild_id=GUILD + 1)
    await finish_table(storage, table, scores=(1, 0), places=(1, 2))

    board = await leaderboard(storage, GUILD, "nittionio")
    assert [(s.user_id, s.games, s.wins) for s in board] == [
        (ALICE, 3, 3),
        (BOB, 4, 1),
        (CECILIA, 4, 0),
    ]
    assert board[0].rating > board[1].rating > board[2].rating
    assert all(
        s.rating == pytest.approx(ratings.display(ratings.Skill(s.mu, s.sigma))) for s in board
    )
    assert [s.user_id for s in await leaderboard(storage, GUILD, "nittionio", limit=2)] == [
        ALICE,
        BOB,
    ]
    assert [s.user_id for s in await leaderboard(storage, GUILD, "femkort")] == [CECILIA, ALICE]
    assert [s.user_id for s in await leaderboard(storage, GUILD + 1, "nittionio")] == [CECILIA, BOB]

    stats = await member_stats(storage, GUILD, CECILIA)
    assert [(s.game_id, s.games, s.wins, s.places) for s in stats] == [
        ("femkort", 1, 1, (1,)),
        ("nittionio", 4, 0, (0, 1, 3)),
    ]


async def test_members_tied_behind_a_computer_player_both_lose_rating(storage: Storage) -> None:
    # a tie for second behind a computer player is a loss to it, not a draw that raises both
    table = await new_table(storage, None, ALICE, BOB)
    changes = await finish_table(storage, table, scores=(99, 40, 40), places=(1, 2, 2))
    assert [change.user_id for change in changes] == [ALICE, BOB]
    assert changes[0].after == pytest.approx(changes[1].after)
    assert changes[0].after < ratings.DISPLAY_BASE
    board = await leaderboard(storage, GUILD, "nittionio")
    assert {(s.user_id, s.wins) for s in board} == {(ALICE, 0), (BOB, 0)}


async def test_ties_for_first_count_as_wins(storage: Storage) -> None:
    table = await new_table(storage, ALICE, BOB, CECILIA)
    changes = await finish_table(storage, table, scores=(5, 5, 0), places=(1, 1, 3))
    assert changes[0].after == pytest.approx(changes[1].after)
    board = await leaderboard(storage, GUILD, "nittionio")
    assert {(s.user_id, s.wins) for s in board} == {(ALICE, 1), (BOB, 1), (CECILIA, 0)}


async def test_a_database_of_version_1_gains_the_left_flag_of_seats(path: Path) -> None:
    path.parent.mkdir(parents=True)
    db = await aiosqlite.connect(path, isolation_level=None)
    try:
        await migrate(db, str(path), migrations()[:1])
        await db.execute(
            "INSERT INTO tables (table_id, guild_id, channel_id, host_id, game_id, options,"
            " variant, seed, status, turn_seconds, language, version, created_at, updated_at)"
            " VALUES (1, 1, 2, 3, 'tvamanswhist', '[]', 'standard', 0, 'playing', 60, 'sv', 1,"
            " 0, 0)"
        )
        await db.execute(
            "INSERT INTO seats (table_id, seat, user_id, name, ai, autoplay, strikes)"
            " VALUES (1, 0, 3, 'Anna', 'rules', 0, 0)"
        )
    finally:
        await db.close()
    async with await open_storage(path) as storage:
        table = await storage.table(1)
    assert table is not None
    assert table.seats[0].left is False


# --- both dialects -------------------------------------------------------------------------------


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    sqlite, postgresql = migrations("sqlite"), migrations("postgresql")
    assert [(m.version, m.name) for m in sqlite] == [(m.version, m.name) for m in postgresql]


@pytest.mark.postgresql
async def test_postgresql_is_migrated_once_and_a_newer_schema_is_refused(
    postgres_database: str,
) -> None:
    async with await open_storage(postgres_database) as storage:
        await storage.save_guild_settings(GuildSettings(GUILD, language="en"))
    async with await open_storage(postgres_database) as storage:
        assert (await storage.guild_settings(GUILD)).language == "en"
    db = await asyncpg.connect(postgres_database)
    try:
        assert await db.fetchval("SELECT version FROM schema_version") == len(migrations())
        newer = len(migrations()) + 1
        await db.execute("UPDATE schema_version SET version = $1", newer)
    finally:
        await db.close()
    latest = len(migrations())
    with pytest.raises(
        SchemaTooNewError, match=rf"schema version {newer}, but .* only up to {latest}"
    ):
        await open_storage(postgres_database)


async def test_a_postgresql_password_never_shows_and_backup_points_at_pg_dump(
    tmp_path: Path,
) -> None:
    address = "postgresql://kortbord:hemligt@db.example:5432/kortbord"
    with pytest.raises(StorageError, match="pg_dump") as refused:
        await backup_storage(address, tmp_path / "copy.sqlite3")
    assert "hemligt" not in str(refused.value)
    assert "kortbord:***@db.example" in str(refused.value)
    assert not (tmp_path / "copy.sqlite3").exists()


@pytest.mark.postgresql
async def test_the_health_probe_asks_postgresql_for_a_read(postgres_database: str) -> None:
    assert "has no schema yet" in (await probe_storage(postgres_database) or "")
    async with await open_storage(postgres_database) as storage:
        assert await storage.ping()
    assert await probe_storage(postgres_database) is None
    problem = await probe_storage("postgresql://kortbord:hemligt@127.0.0.1:1/kortbord")
    assert problem is not None
    assert "does not answer" in problem
    assert "hemligt" not in problem


async def test_many_tables_saved_at_once_round_trip_and_an_unknown_one_changes_none(
    storage: Storage,
) -> None:
    tables = [await new_table(storage) for _ in range(3)]
    resumed = [replace(play(table, 0), seats=seats(ALICE, BOB, CECILIA)) for table in tables]
    await storage.save_tables(resumed)
    for table in resumed:
        assert await storage.table(table.table_id) == table
    unknown = replace(resumed[0], table_id=999)
    with pytest.raises(TableNotFoundError):
        await storage.save_tables([replace(resumed[1], status="paused"), unknown])
    assert await storage.table(resumed[1].table_id) == resumed[1]
