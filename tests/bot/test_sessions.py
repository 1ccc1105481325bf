"""The session manager on a simulated clock and a real database (SQLite, and PostgreSQL when
``KORTBORD_TEST_POSTGRES`` names one): who may act, when, and what
happens when nobody does. No Discord here; the e2e tests drive the same manager through SimCord.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock import ManualClock
from bot.errors import UserError
from bot.sessions import DECISION_FACTOR, LiveTable, Member, SessionManager, forced_card
from bot.storage import Storage, StorageUnavailable, open_storage
from bot.thinking import Thinker
from games.core import Action, Game, Seat
from games.piquet.match import Piquet
from games.tvamanswhist import Tvamanswhist

CHANNEL, GUILD = 100, 1
ANNA, BO, CILLA = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla")


class Recorder:
    """A listener that remembers what it was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int, frozenset[Seat]]] = []

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        self.calls.append((table.table_id, table.version, hands))


@pytest.fixture
async def storage(any_database: Path | str) -> AsyncIterator[Storage]:
    """Every test here runs on SQLite and on PostgreSQL (``tests/conftest.py``)."""
    store = await open_storage(any_database)
    yield store
    await store.close()


def manager(
    storage: Storage,
    clock: ManualClock,
    listener: Recorder | None = None,
    thinker: Thinker | None = None,
) -> SessionManager:
    """A manager whose tables deal from a fixed seed, so every run plays the same cards."""
    return SessionManager(
        storage,
        clock,
        turn_seconds=60,
        idle_seconds=600,
        computer_delay=1.0,
        listeners=[listener] if listener is not None else [],
        rng=random.Random(1),
        thinker=thinker,
    )


async def two_member_match(sessions: SessionManager) -> LiveTable:
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.join(CHANNEL, BO)
    return await sessions.start(CHANNEL, ANNA.user_id)


def member_to_act(table: LiveTable) -> tuple[int, Seat]:
    assert table.game is not None
    seat = min(table.game.to_act())
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    return user_id, seat


def first_legal(table: LiveTable, seat: Seat) -> str:
    assert table.game is not None
    return table.game.notation(table.game.legal_actions(seat)[0])


async def test_only_the_seat_to_act_may_act_and_only_for_itself(storage: Storage) -> None:
    sessions = manager(storage, ManualClock())
    table = await two_member_match(sessions)
    user_id, seat = member_to_act(table)
    other = ANNA.user_id if user_id == BO.user_id else BO.user_id
    move = first_legal(table, seat)
    with pytest.raises(UserError) as refused:
        await sessions.act(table.table_id, other, table.version, move)
    assert refused.value.msg.key == "errors.not_your_turn"
    with pytest.raises(UserError) as stranger:
        await sessions.act(table.table_id, CILLA.user_id, table.version, move)
    assert stranger.value.msg.key == "errors.not_seated"
    version = table.version
    await sessions.act(table.table_id, user_id, version, move)
    assert table.seq == 1
    assert table.version == version + 1


async def test_a_stale_panel_is_refused_and_changes_nothing(storage: Storage) -> None:
    """A panel stays valid for its seat while the other seats play (so a waiting member's panel
    needs no edit when the turn comes), and is refused once its own seat has acted."""
    sessions = manager(storage, ManualClock())
    table = await two_member_match(sessions)
    built = table.version  # both members' panels are built now
    user_id, seat = member_to_act(table)
    await sessions.act(table.table_id, user_id, built, first_legal(table, seat))
    other_id, other = member_to_act(table)
    assert other != seat
    await sessions.act(table.table_id, other_id, built, first_legal(table, other))
    assert table.seq == 2
    user_id, seat = member_to_act(table)  # whoever leads next has acted since ``built``
    with pytest.raises(UserError) as refused:
        await sessions.act(table.table_id, user_id, built, first_legal(table, seat))
    assert refused.value.msg.key == "errors.stale_panel"
    with pytest.raises(UserError) as forged:  # a version from the future was never built
        await sessions.act(table.table_id, user_id, table.version + 1, first_legal(table, seat))
    assert forged.value.msg.key == "errors.stale_panel"
    assert table.seq == 2
    assert len(await storage.actions(table.table_id)) == 2
    await sessions.act(table.table_id, user_id, table.version, first_legal(table, seat))
    assert table.seq == 3


async def test_an_expired_deadline_lets_the_computer_act_then_take_the_seat(
    storage: Storage,
) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    table = await two_member_match(sessions)
    _, seat = member_to_act(table)
    deadline = sessions.deadline(table)
    assert deadline == clock.now() + 60
    await clock.advance(59)
    assert table.seq == 0
    await clock.advance(1)
    assert table.seq >= 1
    log = await storage.actions(table.table_id)
    assert (log[0].seat, log[0].by) == (seat, "timeout")
    assert table.record.seats[seat].strikes == 1
    assert not table.record.seats[seat].autoplay
    # the seat misses again: the computer player keeps it until the member takes it back
    while table.record.seats[seat].strikes < 2:
        await clock.advance(60)
    assert table.record.seats[seat].autoplay
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    await sessions.reclaim(CHANNEL, user_id)
    assert not table.record.seats[seat].autoplay
    assert table.record.seats[seat].strikes == 0


async def test_members_acting_in_time_keep_their_timers_and_each_deadline_still_holds(
    storage: Storage,
) -> None:
    """A move sets no new timer while the one set fires no later than needed: when it fires and
    nothing is due, nothing is told and it is set for the deadline that is now the first. The
    idle timer likewise. A deadline that passes is met exactly when it falls."""
    clock = ManualClock()
    listener = Recorder()
    sessions = manager(storage, clock, listener)
    table = await two_member_match(sessions)
    timers = table.deadline_timer, table.idle_timer
    for _ in range(4):
        await clock.advance(10)
        user_id, seat = member_to_act(table)
        await sessions.act(table.table_id, user_id, table.version, first_legal(table, seat))
        assert (table.deadline_timer, table.idle_timer) == timers
    assert clock.pending() == 2
    deadline = sessions.deadline(table)
    assert deadline == clock.now() + 60
    told, seq = len(listener.calls), table.seq
    await clock.advance(deadline - clock.now() - 1)  # the kept timer fired on the way: no news
    assert (table.seq, len(listener.calls)) == (seq, told)
    assert table.deadline_timer is not None
    assert table.deadline_timer is not timers[0]
    assert sessions.deadline(table) == deadline
    await clock.advance(1)
    assert table.seq > seq
    assert (await storage.actions(table.table_id))[seq].by == "timeout"
    assert len(listener.calls) > told


async def test_a_strike_and_its_clearing_are_stored_with_the_moves_that_change_them(
    storage: Storage,
) -> None:
    """Most moves change no seat and leave the seats as stored; a timeout's strike, and the
    member's own move that clears it, are stored with their moves."""
    clock = ManualClock()
    sessions = manager(storage, clock)
    table = await two_member_match(sessions)
    _, seat = member_to_act(table)
    await clock.advance(60)
    assert table.record.seats[seat].strikes == 1
    stored = await storage.table(table.table_id)
    assert stored is not None
    assert stored.seats[seat].strikes == 1
    while (acting := member_to_act(table))[1] != seat:
        await sessions.act(table.table_id, acting[0], table.version, first_legal(table, acting[1]))
    stored = await storage.table(table.table_id)
    assert stored is not None
    assert stored.seats[seat].strikes == 1
    await sessions.act(table.table_id, acting[0], table.version, first_legal(table, seat))
    stored = await storage.table(table.table_id)
    assert stored is not None
    assert stored.seats == table.record.seats
    assert stored.seats[seat].strikes == 0


async def test_an_idle_table_ends_by_itself(storage: Storage) -> None:
    clock = ManualClock()
    listener = Recorder()
    sessions = manager(storage, clock, listener)
    table = await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist"
    )
    await clock.advance(599)
    assert sessions.table_in(CHANNEL) is table
    await clock.advance(1)
    assert sessions.table_in(CHANNEL) is None
    assert table.record.status == "ended"
    assert table.record.end_reason == "idle"
    assert listener.calls[-1][0] == table.table_id
    # the channel and the member are free again
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")


async def test_one_table_per_channel_and_one_table_per_member(storage: Storage) -> None:
    sessions = manager(storage, ManualClock())
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    with pytest.raises(UserError) as busy:
        await sessions.open_table(
            guild_id=GUILD, channel_id=CHANNEL, host=BO, game_id="tvamanswhist"
        )
    assert busy.value.msg.key == "errors.channel_busy"
    with pytest.raises(UserError) as seated:
        await sessions.open_table(
            guild_id=GUILD, channel_id=CHANNEL + 1, host=ANNA, game_id="tvamanswhist"
        )
    assert seated.value.msg.key == "errors.already_seated"
    await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL + 1, host=BO, game_id="tvamanswhist"
    )
    with pytest.raises(UserError) as elsewhere:
        await sessions.join(CHANNEL, BO)
    assert elsewhere.value.msg.key == "errors.already_seated"


async def test_a_restart_restores_the_match_and_its_deadline(storage: Storage) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    table = await two_member_match(sessions)
    for _ in range(3):
        user_id, seat = member_to_act(table)
        await sessions.act(table.table_id, user_id, table.version, first_legal(table, seat))
    assert table.game is not None
    before = table.game.view(None)
    await sessions.shutdown()

    restarted = manager(storage, clock)
    assert await restarted.restore() == 1
    again = restarted.table_in(CHANNEL)
    assert again is not None
    assert again.game is not None
    assert again.game.view(None) == before
    assert again.version == table.version
    assert restarted.table_of(ANNA.user_id) is again
    assert restarted.deadline(again) == clock.now() + 60
    user_id, seat = member_to_act(again)
    seq = again.seq
    await restarted.act(again.table_id, user_id, again.version, first_legal(again, seat))
    assert again.seq > seq


def spelled_out(monkeypatch: pytest.MonkeyPatch, game: type[Game]) -> list[Action]:
    """Every action whose notation a match of ``game`` spells out from now on, in order."""
    spelled: list[Action] = []
    notation = game.notation

    def counted(match: Game, action: Action) -> str:
        spelled.append(action)
        return notation(match, action)

    monkeypatch.setattr(game, "notation", counted)
    return spelled


async def test_a_decisions_many_moves_are_spelled_out_only_where_its_choices_are_asked(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Piquet exchange offers 1,507 moves, whose notations took milliseconds to spell out:
    the table's start and a restart's restore time the elder's turn and look for a forced move
    from the first alone. Their choices (a panel, a click checked) spell them all out."""
    spelled = spelled_out(monkeypatch, Piquet)
    clock = ManualClock()
    sessions = manager(storage, clock)
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="piquet")
    await sessions.join(CHANNEL, BO)
    table = await sessions.start(CHANNEL, ANNA.user_id)
    assert table.game is not None
    _, elder = member_to_act(table)
    exchanges = len(table.game.legal_actions(elder))
    assert exchanges > 1000
    assert len(spelled) <= 2
    assert sessions.deadline(table) == clock.now() + 60 * DECISION_FACTOR  # a decision's time
    await sessions.shutdown()

    restarted = manager(storage, clock)
    assert await restarted.restore() == 1
    assert len(spelled) <= 4
    again = restarted.table_in(CHANNEL)
    assert again is not None
    assert restarted.deadline(again) == clock.now() + 60 * DECISION_FACTOR
    assert len(again.choices(elder)) == exchanges


async def test_a_card_turns_moves_are_spelled_out_once(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Timing a turn of cards spells out its moves, which are kept: its forced card and its
    choices read them without spelling any again."""
    spelled = spelled_out(monkeypatch, Tvamanswhist)
    table = await two_member_match(manager(storage, ManualClock()))
    assert table.game is not None
    _, seat = member_to_act(table)
    moves = table.game.legal_actions(seat)
    assert set(moves) <= set(spelled)  # the turn was timed
    before = len(spelled)
    assert table.plays_cards(seat)
    assert table.single(seat) == ((), ())  # a full hand: no card forced
    assert list(table.choices(seat)) == list(moves)
    assert len(spelled) == before


async def test_the_computer_fills_empty_seats_and_plays_without_blocking(storage: Storage) -> None:
    clock = ManualClock()
    sessions = manager(storage, clock)
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="hej_knekt")
    await sessions.add_computer(CHANNEL, ANNA.user_id)
    table = await sessions.start(CHANNEL, ANNA.user_id)
    assert len(table.record.seats) == 3  # filled up to the game's minimum
    assert [s.user_id for s in table.record.seats[1:]] == [None, None]
    assert table.game is not None
    computers_first = table.record.seats[min(table.game.to_act())].user_id is None
    if computers_first:
        await clock.advance(1)
        assert table.seq >= 1


async def forced_next(sessions: SessionManager, table: LiveTable) -> tuple[int, str, Seat]:
    """Play the first legal moves until the next one leaves the other member a single legal
    card: (the member to act, their move, the seat then forced)."""
    for _ in range(200):
        game = table.game
        assert game is not None
        user_id, seat = member_to_act(table)
        move = first_legal(table, seat)
        after = game.clone()
        after.apply(seat, game.parse(move))
        acting = sorted(after.to_act())
        if acting and acting[0] != seat and forced_card(after, acting[0]) is not None:
            return user_id, move, acting[0]
        await sessions.act(table.table_id, user_id, table.version, move)
    raise AssertionError("no forced card in 200 moves")


async def test_a_members_only_legal_card_is_played_with_the_move_before_it(
    storage: Storage,
) -> None:
    recorder = Recorder()
    sessions = SessionManager(storage, ManualClock(), listeners=[recorder], rng=random.Random(3))
    table = await two_member_match(sessions)
    user_id, move, forced = await forced_next(sessions, table)
    assert table.game is not None
    card = table.game.clone()
    built, seq, calls = table.version, table.seq, len(recorder.calls)
    await sessions.act(table.table_id, user_id, built, move)
    assert table.seq == seq + 2
    last = (await storage.actions(table.table_id))[-1]
    assert (last.seat, last.by) == (forced, "computer")  # the table played it, not the member
    card.apply(min(card.to_act()), card.parse(move))
    assert last.notation == card.notation(card.legal_actions(forced)[0])
    assert len(recorder.calls) == calls + 1  # one change told: one table edit shows both cards
    assert table.panel_valid(forced, built)  # the forced member's panel needs no edit for it
    assert table.record.seats[forced].strikes == 0


async def test_a_member_who_turned_forced_cards_off_plays_the_card_themselves(
    storage: Storage,
) -> None:
    sessions = SessionManager(storage, ManualClock(), rng=random.Random(3))
    table = await two_member_match(sessions)
    for member in (ANNA, BO):
        await sessions.choices.set("forced_cards", member.user_id, False)
    user_id, move, forced = await forced_next(sessions, table)
    seq = table.seq
    await sessions.act(table.table_id, user_id, table.version, move)
    assert table.seq == seq + 1
    assert table.game is not None
    assert forced in table.game.to_act()


async def test_a_forced_card_whose_members_choice_cannot_be_read_is_left_to_them(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = Recorder()
    sessions = SessionManager(storage, ManualClock(), listeners=[recorder], rng=random.Random(3))
    table = await two_member_match(sessions)
    user_id, move, forced = await forced_next(sessions, table)

    async def away(choice: str, user_ids: object) -> dict[int, bool]:
        raise StorageUnavailable("no answer within 5 s")

    monkeypatch.setattr(storage, "member_choices", away)
    seq, calls = table.seq, len(recorder.calls)
    # the move is saved and stands; the card the table would play is left to its member, as a
    # forced card that cannot be saved is
    await sessions.act(table.table_id, user_id, table.version, move)
    assert table.seq == seq + 1
    assert len(await storage.actions(table.table_id)) == seq + 1
    assert table.game is not None
    assert forced in table.game.to_act()
    assert forced in table.turn_deadlines  # their turn runs
    assert len(recorder.calls) == calls + 1  # the faces show the move
    monkeypatch.undo()
    forced_user = table.record.seats[forced].user_id
    assert forced_user is not None
    card = first_legal(table, forced)
    await sessions.act(table.table_id, forced_user, table.version, card)
    assert table.seq == seq + 2


class Broken:
    """A face that fails to show every change."""

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        raise RuntimeError("this face is down")


async def test_every_face_is_told_and_one_failing_face_does_not_hide_a_change_from_another(
    storage: Storage,
) -> None:
    discord_face, web_face = Recorder(), Recorder()
    sessions = manager(storage, ManualClock(), discord_face)
    sessions.add_listener(web_face)
    table = await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio"
    )
    await sessions.join(CHANNEL, BO)
    assert discord_face.calls == web_face.calls
    assert web_face.calls[-1][:2] == (table.table_id, table.version)

    sessions.listeners.insert(0, Broken())
    with pytest.raises(RuntimeError, match="this face is down"):
        await sessions.join(CHANNEL, CILLA)
    assert web_face.calls[-1][:2] == (table.table_id, table.version)
    assert discord_face.calls == web_face.calls


@pytest.mark.parametrize("how", ["leaves", "is kicked"])
async def test_a_member_who_goes_while_the_last_moves_result_is_written_is_told_it_is_over(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    sessions = manager(storage, ManualClock())
    table = await two_member_match(sessions)
    writing, written = asyncio.Event(), asyncio.Event()
    real = storage.finish_table

    async def slow_finish(*args: Any, **kwargs: Any) -> Any:
        writing.set()
        await written.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage, "finish_table", slow_finish)
    result_written = asyncio.ensure_future(writing.wait())
    while True:  # the members play the whole match; the last move's result waits to be written
        user_id, seat = member_to_act(table)
        move = first_legal(table, seat)
        acting = asyncio.ensure_future(sessions.act(table.table_id, user_id, table.version, move))
        await asyncio.wait({acting, result_written}, return_when=asyncio.FIRST_COMPLETED)
        if writing.is_set():
            break
        await acting
    if how == "leaves":
        going = asyncio.ensure_future(sessions.leave(CHANNEL, BO.user_id))
    else:
        going = asyncio.ensure_future(sessions.kick(CHANNEL, ANNA.user_id, BO.user_id))
    await asyncio.sleep(0)  # it waits for the table behind the last move
    written.set()
    await acting
    with pytest.raises(UserError) as refused:
        await going
    assert refused.value.msg.key == "errors.table_gone"  # not "the disk does not answer"
    stored = await storage.table(table.table_id)
    assert stored is not None
    assert stored.status == "finished"
    assert not any(seat.left or seat.autoplay for seat in stored.seats)  # nobody rewritten as gone
