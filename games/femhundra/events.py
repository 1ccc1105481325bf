"""Femhundra's events: compact tuples ``(kind, *ints)`` kept while playing, turned into
language-neutral messages only when a view is built (building a Msg costs more than a card play).
Every event is public. Pure functions and constants only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from games.bidding import Ladder
from games.cards import SUITS, cards_in, code, codes
from games.core import Msg
from games.femhundra.rules import CAP, MISERE, OPEN_MISERE

GAME_ID = "femhundra"
_K = GAME_ID + ".event."


class Table(NamedTuple):
    """What a message needs to know of the match: its ladder and its number of players."""

    ladder: Ladder
    n: int


E_DEAL, E_PASS, E_BID, E_ALL_PASS, E_CONTRACT, E_SOLO, E_CALL, E_CALL_WIDOW = range(8)
E_DISCARDED, E_SHOWN, E_ASIDE, E_PLAYED, E_JOKER_LED, E_TRICK, E_MADE, E_FAILED = range(8, 16)
E_TRICK_POINTS, E_CAPPED, E_WON, E_BACK_DOOR = range(16, 20)
Event = tuple[int, ...]


def bid_msg(ladder: Ladder, position: int) -> tuple[str, dict[str, int | str]]:
    """A bid as a message key suffix and its arguments: ``8H`` -> ("trump", level 8, suit H)."""
    bid = ladder.bids[position]
    if bid in (MISERE, OPEN_MISERE):
        return bid, {}
    strain = ladder.strain(position)
    level = ladder.level(position)
    assert strain is not None
    assert level is not None
    if strain == "NT":
        return "nt", {"level": level}
    return "trump", {"level": level, "suit": strain}


def _bid_event(ladder: Ladder, prefix: str, seat: int, position: int) -> Msg:
    kind, args = bid_msg(ladder, position)
    return Msg.of(prefix + kind, seat=seat, **args)


_MESSAGES: dict[int, Callable[..., Msg]] = {
    E_DEAL: lambda g, k, deal, dealer: Msg.of("table.event.deal_started", deal=deal, seat=dealer),
    E_PASS: lambda g, k, seat: Msg.of(k + "passed", seat=seat),
    E_BID: lambda g, k, seat, pos: _bid_event(g.ladder, k + "bid_", seat, pos),
    E_ALL_PASS: lambda g, k: Msg.of(k + "all_passed"),
    E_CONTRACT: lambda g, k, seat, pos: _bid_event(g.ladder, k + "contract_", seat, pos),
    E_SOLO: lambda g, k, seat: Msg.of(k + "solo", seat=seat),
    E_CALL: lambda g, k, seat, c, holder: Msg.of(
        k + "called", seat=seat, card=code(c), partner_seat=holder
    ),
    E_CALL_WIDOW: lambda g, k, seat, c: Msg.of(k + "called_talong", seat=seat, card=code(c)),
    E_DISCARDED: lambda g, k, seat, count: Msg.of(k + "discarded", seat=seat, count=count),
    E_SHOWN: lambda g, k, seat, hand: Msg.of(
        k + "hand_shown", seat=seat, cards=codes(cards_in(hand))
    ),
    E_ASIDE: lambda g, k, seat: Msg.of(k + "aside", seat=seat),
    E_PLAYED: lambda g, k, seat, c: Msg.of(k + "played", seat=seat, card=code(c)),
    E_JOKER_LED: lambda g, k, seat, suit: Msg.of(k + "joker_led", seat=seat, suit=SUITS[suit]),
    E_TRICK: lambda g, k, seat, c: Msg.of("table.event.trick_won", seat=seat, card=code(c)),
    E_MADE: lambda g, k, seat, pos, tricks, points: _result_event(
        g.ladder, k, "made", seat, pos, tricks, points
    ),
    E_FAILED: lambda g, k, seat, pos, tricks, points: _result_event(
        g.ladder, k, "failed", seat, pos, tricks, points
    ),
    E_TRICK_POINTS: lambda g, k, seat, points: (
        Msg.of(k + "side_trick_points", seat=seat, partner_seat=seat + 2, points=points)
        if g.n == 4
        else Msg.of(k + "trick_points", seat=seat, points=points)
    ),
    E_CAPPED: lambda g, k, seat: Msg.of(k + "capped", seat=seat, points=CAP),
    E_WON: lambda g, k, seat, score: Msg.of(k + "won", seat=seat, points=score),
    E_BACK_DOOR: lambda g, k, seat, score: Msg.of(k + "back_door", seat=seat, points=score),
}


def _result_event(
    ladder: Ladder, k: str, outcome: str, seat: int, pos: int, tricks: int, points: int
) -> Msg:
    kind, args = bid_msg(ladder, pos)
    return Msg.of(f"{k}{outcome}_{kind}", seat=seat, tricks=tricks, points=points, **args)


def message(event: Event, ladder: Ladder, players: int) -> Msg:
    """The message of one event."""
    return _MESSAGES[event[0]](Table(ladder, players), _K, *event[1:])
