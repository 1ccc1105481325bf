"""Hostile members at the session manager: whatever a forged control sends, only what the panel
offers is taken, and a timed action's time comes from the server, never from the member."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.errors import UserError
from bot.sessions import LiveTable, Member, SessionManager, member_actions
from bot.storage import ActionRecord, Storage, StorageUnavailable, TableRecord, open_storage
from games.core import option_infos
from games.registry import SPECS

CHANNEL, GUILD = 100, 1
MEMBERS = [Member(11 + i, f"M{i}") for i in range(10)]


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await open_storage(tmp_path / "kortbord.sqlite3")
    yield store
    await store.close()


def manager(storage: Storage, clock: ManualClock) -> SessionManager:
    return SessionManager(
        storage, clock, turn_seconds=60, idle_seconds=600, computer_delay=1.0, rng=random.Random(1)
    )


async def all_members(
    sessions: SessionManager, game_id: str, options: dict[str, str] | None = None
) -> LiveTable:
    """A match of ``game_id`` with a member in each of its fewest seats."""
    spec = SPECS[game_id]
    host = MEMBERS[0]
    await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=host, game_id=game_id, options=options
    )
    for member in MEMBERS[1 : spec.min_players]:
        await sessions.join(CHANNEL, member)
    return await sessions.start(CHANNEL, host.user_id)


def user_of(table: LiveTable, seat: int) -> int:
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    return user_id


async def refused(coro: object) -> str:
    with pytest.raises(UserError) as error:
        await coro  # type: ignore[misc]
    return error.value.msg.key


async def open_window(sessions: SessionManager, table: LiveTable) -> None:
    """Members turn cards until one calls for a reaction."""
    for _ in range(200):
        if table.reveal_at is not None:
            return
        assert table.game is not None
        seat = min(table.game.to_act())
        await sessions.act(table.table_id, user_of(table, seat), table.version, "turn")
    raise AssertionError("no reaction window opened")


async def test_a_member_cannot_send_a_timed_press_or_close_the_window(storage: Storage) -> None:
    sessions = manager(storage, ManualClock())
    table = await all_members(sessions, "hej_knekt", {"reaction_ms": "15000"})
    await open_window(sessions, table)
    assert table.game is not None
    seat = min(table.game.to_act())
    user_id, seq = user_of(table, seat), table.seq
    for forged in ("hej 1079", "hej 0", "slap 1", "close 600", "close 15000"):
        key = await refused(sessions.act(table.table_id, user_id, table.version, forged))
        assert key == "errors.illegal_action", forged
    # the reaction buttons take a press verb only, never the timer's close
    now = sessions.clock.now()
    key = await refused(sessions.press(table.table_id, user_id, table.reveal_seq, "close", now))
    assert key == "errors.illegal_action"
    key = await refused(sessions.press(table.table_id, user_id, table.reveal_seq, "turn", now))
    assert key == "errors.illegal_action"
    assert table.seq == seq
    assert table.reveal_at is not None
    assert len(await storage.actions(table.table_id)) == seq


def forgeries(notations: set[str]) -> set[str]:
    """Notations a member could craft from what they have seen: the same words with other
    numbers (times, counts, seats)."""
    out = set(notations)
    for text in notations:
        words = text.split()
        for i, word in enumerate(words):
            if word.isdigit():
                for n in ("0", "1", "7", "99", "1079", "999999"):
                    out.add(" ".join([*words[:i], n, *words[i + 1 :]]))
    return out


@pytest.mark.parametrize("game_id", sorted(SPECS))
async def test_every_game_takes_from_a_member_only_what_the_panel_offers(
    storage: Storage, game_id: str
) -> None:
    sessions = manager(storage, ManualClock())
    table = await all_members(sessions, game_id)
    rng = random.Random(16)
    seen: set[str] = set()
    for _ in range(40):
        game = table.game
        if game is None or game.is_over() or not table.live:
            break
        for seat in range(game.players):
            seen.update(game.notation(a) for a in game.legal_actions(seat))
        seat = rng.choice(sorted(game.to_act()))
        offered = member_actions(game, seat)
        for text in sorted(forgeries(seen)):
            try:
                action = game.parse(text)
            except ValueError:
                continue
            if action in offered:
                continue
            before = (table.seq, table.version)
            with pytest.raises(UserError):
                await sessions.act(table.table_id, user_of(table, seat), table.version, text)
            assert (table.seq, table.version) == before, text
        if not offered:
            break  # a timed window: the reaction buttons' business
        choice = rng.choice(sorted(offered.values()))
        await sessions.act(table.table_id, user_of(table, seat), table.version, choice)


async def test_a_restart_arms_idleness_and_ends_a_lobby_never_posted(storage: Storage) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    posted = await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=MEMBERS[0], game_id="tvamanswhist"
    )
    await sessions.attach_message(posted, 555)
    await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL + 1, host=MEMBERS[1], game_id="tvamanswhist"
    )  # crashed before its message was posted
    await sessions.shutdown()

    restarted = manager(storage, clock)
    assert await restarted.restore() == 1
    assert restarted.table_in(CHANNEL + 1) is None
    assert restarted.table_of(MEMBERS[1].user_id) is None  # the host is free again
    lobby = restarted.table_in(CHANNEL)
    assert lobby is not None
    await clock.advance(600)  # idle_seconds: the restored lobby ends by itself
    assert restarted.table_in(CHANNEL) is None
    assert lobby.record.end_reason == "idle"


@pytest.mark.parametrize("value", ["0", "-5000", "999999999999"])
async def test_an_option_out_of_range_is_refused_when_the_table_is_opened(
    storage: Storage, value: str
) -> None:
    sessions = manager(storage, ManualClock())
    with pytest.raises(UserError) as refused:
        await sessions.open_table(
            guild_id=GUILD,
            channel_id=CHANNEL,
            host=MEMBERS[0],
            game_id="hej_knekt",
            options={"reaction_ms": value},
        )
    assert refused.value.msg.key == "errors.option_range"
    assert dict(refused.value.msg.args) == {
        "name": "reaction_ms",
        "low": 3000,
        "high": 15000,
        "value": int(value),
    }
    assert sessions.table_in(CHANNEL) is None


def test_every_whole_number_option_of_every_game_is_bounded_around_its_default() -> None:
    for game_id, spec in SPECS.items():
        for info in option_infos(spec.options_type):
            if info.choices or not isinstance(info.default, int):
                continue
            assert info.low is not None, (game_id, info.name)
            assert info.high is not None, (game_id, info.name)
            assert info.low <= info.default <= info.high, (game_id, info.name)


async def test_a_move_that_cannot_be_saved_is_refused_in_words_and_can_be_retried(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    sessions = manager(storage, ManualClock())
    table = await all_members(sessions, "tvamanswhist")
    assert table.game is not None
    seat = min(table.game.to_act())
    move = table.game.notation(table.game.legal_actions(seat)[0])
    version, view = table.version, table.game.view(None)
    real = storage.record_action

    async def disk_full(*args: object, **kwargs: object) -> None:
        raise StorageUnavailable("database or disk is full")

    monkeypatch.setattr(storage, "record_action", disk_full)
    key = await refused(sessions.act(table.table_id, user_of(table, seat), version, move))
    assert key == "errors.not_saved_disk"
    assert (table.version, table.seq, table.game.view(None)) == (version, 0, view)
    monkeypatch.setattr(storage, "record_action", real)
    await sessions.act(table.table_id, user_of(table, seat), version, move)  # the retry
    assert table.seq == 1
    assert len(await storage.actions(table.table_id)) == 1


async def test_a_computer_move_that_cannot_be_saved_is_retried_with_back_off(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=MEMBERS[0], game_id="tvamanswhist"
    )
    await sessions.add_computer(CHANNEL, MEMBERS[0].user_id)
    table = await sessions.start(CHANNEL, MEMBERS[0].user_id)
    assert table.game is not None
    if table.record.seats[min(table.game.to_act())].user_id is not None:
        seat = min(table.game.to_act())
        move = table.game.notation(table.game.legal_actions(seat)[0])
        await sessions.act(table.table_id, MEMBERS[0].user_id, table.version, move)
    seq = table.seq
    real = storage.record_action
    failures = 0

    async def failing_twice(record: TableRecord, action: ActionRecord, *, seats: bool) -> None:
        nonlocal failures
        if failures < 2:
            failures += 1
            raise StorageUnavailable("database or disk is full")
        await real(record, action, seats=seats)

    monkeypatch.setattr(storage, "record_action", failing_twice)
    await clock.advance(1)  # the computer's move fails to save
    assert (failures, table.seq) == (1, seq)
    await clock.advance(2)  # tried again after 2 s, fails again
    assert (failures, table.seq) == (2, seq)
    await clock.advance(4)  # and after 4 s more it is saved: the table goes on
    assert table.seq > seq


class FailingWrites:
    """``record_action`` failing its next ``times`` calls (a full disk), then working again."""

    def __init__(self, storage: Storage, times: int) -> None:
        self.real, self.left, self.failed = storage.record_action, times, 0

    async def __call__(self, record: TableRecord, action: ActionRecord, *, seats: bool) -> None:
        if self.left > 0:
            self.left -= 1
            self.failed += 1
            raise StorageUnavailable("database or disk is full")
        await self.real(record, action, seats=seats)


async def test_a_timeout_that_cannot_be_saved_is_retried_with_back_off(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    table = await all_members(sessions, "tvamanswhist")
    assert table.game is not None
    seat = min(table.game.to_act())
    deadline = table.turn_deadlines[seat]
    failing = FailingWrites(storage, 2)
    monkeypatch.setattr(storage, "record_action", failing)
    await clock.advance(deadline - clock.now())  # the deadline passes; the write fails
    assert (failing.failed, table.seq) == (1, 0)
    assert table.record.seats[seat].strikes == 0  # nothing half-applied
    assert table.timeouts == []
    assert seat in table.turn_deadlines  # still due: it is tried again
    await clock.advance(2)  # after 2 s: fails again
    assert (failing.failed, table.seq) == (2, 0)
    await clock.advance(4)  # after 4 s more: saved, the computer acted for the seat
    assert table.seq == 1
    assert table.record.seats[seat].strikes == 1
    assert [t.seat for t in table.timeouts] == [seat]
    assert [a.by for a in await storage.actions(table.table_id)] == ["timeout"]


async def test_a_reaction_window_whose_close_cannot_be_saved_closes_later(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    table = await all_members(sessions, "hej_knekt", {"reaction_ms": "15000"})
    await open_window(sessions, table)
    assert table.reveal_at is not None
    seq = table.seq
    failing = FailingWrites(storage, 2)
    monkeypatch.setattr(storage, "record_action", failing)
    await clock.advance(table.reveal_at + 15 - clock.now())  # the window's time is up
    assert (failing.failed, table.seq) == (1, seq)
    assert table.reveal_at is not None  # still open: nothing half-applied
    await clock.advance(2)
    assert (failing.failed, table.seq) == (2, seq)
    await clock.advance(4)
    assert table.seq > seq
    stored = await storage.actions(table.table_id)
    assert len(stored) == table.seq
    assert stored[seq].notation.startswith("close")


async def test_a_result_that_cannot_be_saved_is_saved_later(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    table = await all_members(sessions, "tvamanswhist")
    real, failed = storage.finish_table, 0

    async def failing_once(*args: object, **kwargs: object) -> object:
        nonlocal failed
        if failed == 0:
            failed += 1
            raise StorageUnavailable("database or disk is full")
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(storage, "finish_table", failing_once)
    for _ in range(500):
        game = table.game
        assert game is not None
        if game.is_over():
            break
        seat = min(game.to_act())
        move = game.notation(game.legal_actions(seat)[0])
        await sessions.act(table.table_id, user_of(table, seat), table.version, move)
    assert failed == 1
    assert table.record.status == "playing"  # over, its result not stored yet
    await clock.advance(2)
    assert table.record.status in ("finished",)  # stored at the retry
    stored = await storage.table(table.table_id)
    assert stored is not None
    assert stored.status == "finished"
    assert sessions.table_in(CHANNEL) is None
