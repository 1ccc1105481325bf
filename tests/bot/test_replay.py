"""A replay cuts a stored match into deals and tricks, with every hand face up."""

from __future__ import annotations

import random

import pytest

from bot.replay import deal_starts, frames
from bot.storage import ActionRecord, SeatRecord, TableRecord
from games.core import Game, Seat, View
from games.registry import SPECS

SEED = 99


def _stored(game_id: str, players: int) -> tuple[TableRecord, list[ActionRecord]]:
    game = SPECS[game_id].new(players, rng=random.Random(SEED))
    moves = random.Random(3)
    log: list[ActionRecord] = []
    while not game.is_over():
        seat = min(game.to_act())
        action = moves.choice(game.legal_actions(seat))
        log.append(ActionRecord(len(log) + 1, seat, game.notation(action), 0.0, "member"))
        game.apply(seat, action)
    record = TableRecord(
        table_id=1,
        guild_id=1,
        channel_id=1,
        thread_id=None,
        message_id=1,
        host_id=1,
        game_id=game_id,
        options=(),
        variant="standard",
        seed=SEED,
        status="finished",
        turn_seconds=60,
        language="sv",
        version=1,
        created_at=0.0,
        updated_at=0.0,
        deadline_at=None,
        seats=tuple(SeatRecord(s, s + 1 if s == 0 else None, "x") for s in range(players)),
    )
    return record, log


def test_a_whist_match_steps_deal_by_deal_and_trick_by_trick_with_hands_face_up() -> None:
    record, log = _stored("tvamanswhist", 2)
    steps = frames(record, log)
    first = SPECS["tvamanswhist"].new(2, rng=random.Random(SEED))
    assert (steps[0].deal, steps[0].trick) == (1, 0)
    assert [list(info.shown) for info in steps[0].view.seats] == [
        list(first.view(s).hand) for s in (0, 1)
    ]
    starts = deal_starts(steps)
    deals = [steps[i].deal for i in starts]
    assert deals == list(range(1, len(deals) + 1))
    for begin, end in zip(starts, [*starts[1:], len(steps)], strict=True):
        tricks = steps[begin + 1 : end]
        assert [f.trick for f in tricks] == list(range(1, 27))  # 26 tricks a deal
        assert all(len(f.view.trick) == 2 for f in tricks)  # the trick just completed
        assert sum(info.cards for info in steps[begin].view.seats) >= 26
        assert all(not info.shown for info in tricks[-1].view.seats)  # every card played
    assert sum(len(f.moves) for f in steps) == len(log)


def test_a_game_without_tricks_steps_move_by_move() -> None:
    record, log = _stored("lojliga_familjerna", 3)
    steps = frames(record, log)
    assert len(steps) == len(log) + 1
    assert all(len(f.moves) == 1 for f in steps[1:])


def test_the_hands_face_up_are_read_without_a_seat_s_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each step shows every hand face up: read from the match (``Game.hand``), not from a
    whole view of each seat at every move (which took a replay of Bräus 27 ms, now 10)."""
    record, log = _stored("braus", 4)
    expected = frames(record, log)
    game_class = type(SPECS["braus"].new(4, rng=random.Random(SEED)))
    public_only = game_class.view

    def view(self: Game, seat: Seat | None) -> View:
        assert seat is None, "a seat's whole view was worked out"
        return public_only(self, seat)

    monkeypatch.setattr(game_class, "view", view)
    assert frames(record, log) == expected
