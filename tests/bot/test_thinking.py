"""Computer players think off the event loop: ``hard`` in worker processes with a budget, a dead
worker replaced with the rule-based player moving instead, the table's lock free while a computer
thinks, the host's choice of level kept per seat, and a member's seat taken over at ``normal``."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from forks import count_lost
from test_sessions import manager as sessions_manager

from bot.clock import ManualClock
from bot.discord.embeds import lobby_lines
from bot.errors import UserError
from bot.i18n import catalog
from bot.sessions import Member, SessionManager
from bot.sessions.computers import fixed_position
from bot.sessions.rebuild import replay
from bot.storage import Storage, open_storage
from bot.storage.records import ActionRecord, SeatRecord, TableRecord
from bot.thinking import Thinker
from games import ai
from games.core import Action, Game, Seat
from games.registry import SPECS

CHANNEL, GUILD = 100, 1
ANNA, BO = Member(11, "Anna"), Member(12, "Bo")


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await open_storage(tmp_path / "kortbord.sqlite3")
    yield store
    await store.close()


class GatedThinker(Thinker):
    """Thinks with the rule-based player, but only once the test opens the gate; remembers the
    kinds it was asked to play."""

    def __init__(self) -> None:
        super().__init__(workers=0)
        self.gate = asyncio.Event()
        self.asked = asyncio.Event()
        self.kinds: list[str] = []
        self.games: list[Game] = []

    async def choose(
        self, game: Game, seat: Seat, kind: str, seed: int, *, playouts: int | None = None
    ) -> Action:
        self.kinds.append(kind)
        self.games.append(game)
        self.asked.set()
        await self.gate.wait()
        return ai.choose(game, seat, "normal", random.Random(seed))


def manager(storage: Storage, clock: ManualClock, thinker: Thinker) -> SessionManager:
    return sessions_manager(storage, clock, thinker=thinker)


async def test_the_host_picks_a_level_and_the_seat_shows_it(storage: Storage) -> None:
    sessions = manager(storage, ManualClock(), Thinker(workers=0))
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio")
    await sessions.add_computer(CHANNEL, ANNA.user_id, "hard")
    table = await sessions.add_computer(CHANNEL, ANNA.user_id, "easy")
    assert [s.ai for s in table.record.seats[1:]] == ["hard", "easy"]
    assert lobby_lines(catalog("sv"), table)[1:] == ["Dator 1 (svår)", "Dator 2 (lätt)"]
    assert lobby_lines(catalog("en"), table)[1:] == ["Computer 1 (hard)", "Computer 2 (easy)"]
    with pytest.raises(UserError) as refused:
        await sessions.add_computer(CHANNEL, ANNA.user_id, "oracle")
    assert refused.value.msg.key == "errors.bad_level"
    # the level survives a restart (of a lobby whose message was posted)
    await sessions.attach_message(table, 555)
    again = SessionManager(storage, ManualClock(), thinker=Thinker(workers=0))
    await again.restore()
    restored = again.table_in(CHANNEL)
    assert restored is not None
    assert [s.ai for s in restored.record.seats[1:]] == ["hard", "easy"]


async def test_members_act_while_a_computer_thinks(storage: Storage) -> None:
    # Nittionio opens with every seat laying bid cards at once: the members bid while the hard
    # computer player is still thinking, and it thinks again from the new position.
    clock = ManualClock()
    thinker = GatedThinker()
    sessions = manager(storage, clock, thinker)
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio")
    await sessions.join(CHANNEL, BO)
    await sessions.add_computer(CHANNEL, ANNA.user_id, "hard")
    table = await sessions.start(CHANNEL, ANNA.user_id)
    assert table.game is not None
    assert table.game.to_act() == {0, 1, 2}
    thinking = asyncio.create_task(clock.advance(1))
    await thinker.asked.wait()
    assert not table.lock.locked()
    game = table.game
    bid = game.notation(game.legal_actions(0)[0])
    await sessions.act(table.table_id, ANNA.user_id, table.version, bid)  # not delayed
    assert table.seq == 1
    thinker.gate.set()
    await thinking
    assert table.seq == 1  # its move was for an older position: it thinks again
    await clock.advance(1)
    assert table.seq == 2
    assert table.game.to_act() == {1}
    log = await storage.actions(table.table_id)
    assert [(a.seat, a.by) for a in log] == [(0, "member"), (2, "computer")]
    assert thinker.kinds == ["hard", "hard"]


async def test_a_computer_thinks_on_a_copy_that_deals_from_a_generator_of_its_own(
    storage: Storage,
) -> None:
    """The copy a computer player thinks on (in another thread, while members act) shares no
    generator with the table's match (``Game.detached``): even with the count of who holds a
    shared generator lost between threads, whatever the copy draws, the table deals what its seed
    says."""
    clock = ManualClock()
    thinker = GatedThinker()
    sessions = manager(storage, clock, thinker)
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio")
    await sessions.add_computer(CHANNEL, ANNA.user_id, "hard")
    await sessions.add_computer(CHANNEL, ANNA.user_id, "hard")
    table = await sessions.start(CHANNEL, ANNA.user_id)
    assert table.game is not None
    game = table.game
    await sessions.act(
        table.table_id, ANNA.user_id, table.version, game.notation(game.legal_actions(0)[0])
    )
    thinking = asyncio.create_task(clock.advance(1))
    await thinker.asked.wait()
    assert table.game is not None
    state = table.game.rng.getstate()
    given = thinker.games[0]
    for rng in (given.rng, given.clone().rng):
        count_lost(rng)
        rng.getrandbits(64)
    assert table.game.rng.getstate() == state
    thinker.gate.set()
    await thinking


async def test_a_seat_taken_over_after_missed_turns_plays_at_normal(storage: Storage) -> None:
    clock = ManualClock()
    thinker = GatedThinker()
    thinker.gate.set()
    sessions = manager(storage, clock, thinker)
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.join(CHANNEL, BO)
    table = await sessions.start(CHANNEL, ANNA.user_id)
    assert table.game is not None
    seat = min(table.game.to_act())
    while not table.record.seats[seat].autoplay:
        await clock.advance(60)
    await clock.advance(5)
    assert thinker.kinds
    assert set(thinker.kinds) == {"normal"}


def _position() -> Game:
    game = SPECS["tvamanswhist"].new(2, rng=random.Random(4))
    rng = random.Random(4)
    for _ in range(3):
        seat = min(game.to_act())
        game.apply(seat, ai.choose(game, seat, "normal", rng))
    return game


async def test_a_search_runs_in_a_worker_process_and_a_dead_worker_is_replaced() -> None:
    thinker = Thinker(workers=1, seconds=0.2, iterations=40)
    game = _position()
    seat = min(game.to_act())
    try:
        assert thinker.worker_pids() == []  # no process until a hard player is added
        thinker.warm()
        assert thinker.worker_pids()
        action = await thinker.choose(game, seat, "hard", 9)
        assert action in game.legal_actions(seat)
        pids = thinker.worker_pids()
        assert pids
        assert os.getpid() not in pids
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        # the decision is not lost: the rule-based player makes it, and the pool is replaced
        fallback = await thinker.choose(game, seat, "hard", 9)
        assert fallback == ai.choose(game, seat, "normal", random.Random(9))
        assert (thinker.replaced, thinker.fallbacks) == (1, 1)
        again = await thinker.choose(game, seat, "hard", 9)
        assert again in game.legal_actions(seat)
        assert thinker.worker_pids()
        assert set(thinker.worker_pids()).isdisjoint(pids)
    finally:
        thinker.close()


async def test_cheap_levels_think_in_a_thread_and_give_legal_moves() -> None:
    thinker = Thinker(workers=0, seconds=0.05, iterations=20)
    game = _position()
    seat = min(game.to_act())
    for kind in ("easy", "normal", "hard", "random"):
        assert await thinker.choose(game, seat, kind, 1) in game.legal_actions(seat)
    assert thinker.worker_pids() == []


async def test_a_search_is_shared_by_every_worker() -> None:
    thinker = Thinker(workers=2, seconds=5.0, iterations=60)
    game = _position()
    seat = min(game.to_act())
    try:
        action = await thinker.choose(game, seat, "hard", 3)
        assert action in game.legal_actions(seat)
        assert len(thinker.worker_pids()) == 2
        assert thinker.fallbacks == 0
    finally:
        thinker.close()


async def test_a_search_bounded_by_playouts_is_the_same_on_workers_as_in_a_thread() -> None:
    """A table of the day's decision: the same move however many workers search it (none, one,
    two), and nothing to do with the clock."""
    game = _position()
    seat = min(game.to_act())
    moves = []
    for workers in (0, 1, 2):
        thinker = Thinker(workers=workers, seconds=0.05, iterations=10)
        try:
            moves.append(
                [await thinker.choose(game, seat, "hard", s, playouts=400) for s in (1, 2, 3)]
            )
        finally:
            thinker.close()
        assert thinker.fallbacks == 0
    assert moves[0] == moves[1] == moves[2]


def test_a_days_computer_decides_on_the_position_its_turn_began_in_whoever_chose_first() -> None:
    """Nittionio's bid cards are chosen by every seat at once: a computer seat's position and
    seed are the same whether the member chose before it thought or after."""
    record = TableRecord(
        table_id=7,
        guild_id=GUILD,
        channel_id=CHANNEL,
        thread_id=None,
        message_id=1,
        host_id=ANNA.user_id,
        game_id="nittionio",
        options=(("_day", "2026-01-05"),),
        variant="standard",
        seed=1234,
        status="playing",
        turn_seconds=60,
        language="sv",
        version=1,
        created_at=0.0,
        updated_at=0.0,
        deadline_at=None,
        seats=tuple(SeatRecord(s, ANNA.user_id if s == 0 else None, "x", "hard") for s in range(3)),
    )
    game = replay(record, [])
    assert game.to_act() == frozenset({0, 1, 2})
    bid = game.notation(ai.choose(game, 0, "normal", random.Random(1)))
    member_first = [ActionRecord(1, 0, bid, 0.0, "member")]
    alone, alone_seed = fixed_position(record, [], 1, "hard")
    after, after_seed = fixed_position(record, member_first, 1, "hard")
    assert after_seed == alone_seed
    assert after.view(1) == alone.view(1)
    # another level, seat or deal is another decision
    assert fixed_position(record, [], 1, "easy")[1] != alone_seed
    assert fixed_position(record, [], 2, "hard")[1] != alone_seed
