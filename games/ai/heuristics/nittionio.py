"""Nittionio: bid what the nine played cards should take; play to the bid exactly.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from itertools import combinations

from games.ai import trickplay
from games.ai.base import Decision
from games.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    JOKER,
    KING,
    QUEEN,
    SPADES,
    TEN,
    codes,
)
from games.core import Action, View
from games.tricks import tables

NITTIONIO_BID_VALUE = {DIAMONDS: 0, SPADES: 1, HEARTS: 2, CLUBS: 3}
_TRUMP_VALUE = {ACE: 0.95, KING: 0.8, QUEEN: 0.6, JACK: 0.45, TEN: 0.35}


def _turn_up(view: View) -> int | None:
    for pile in view.piles:
        if pile.key.endswith(".turn_up") and len(pile.cards) == 1:
            return int(pile.cards[0])
    return None


def nittionio_tables(view: View) -> trickplay.Tables:
    """Card order of this deal: the joker is an exact copy of the turn-up (rules N1, N2)."""
    turn_up = _turn_up(view)
    if turn_up is None or turn_up == JOKER:
        return trickplay.PLAIN
    return _joker_tables(turn_up)


@functools.lru_cache(maxsize=64)
def _joker_tables(turn_up: int) -> trickplay.Tables:
    suit_table, power_table, _ = tables(joker_as=turn_up)
    return suit_table, power_table


def estimate_tricks(cards: Sequence[int], trump: int | None, order: trickplay.Tables) -> float:
    """Expected tricks of a nine-card hand among three players (36 cards, 6 to ace)."""
    suit_table, power_table = order
    length: dict[int, int] = {}
    for c in cards:
        length[suit_table[c]] = length.get(suit_table[c], 0) + 1
    total = 0.0
    for c in cards:
        suit, power = suit_table[c], power_table[c]
        if suit == trump:
            total += _TRUMP_VALUE.get(power, 0.25)
        elif power == ACE:
            total += 0.8
        elif power == KING:
            total += 0.45 if length[suit] >= 2 else 0.2
        elif power == QUEEN and length[suit] >= 3:
            total += 0.2
    if trump is not None:
        trumps = length.get(trump, 0)
        total += 0.35 * max(0, trumps - 3)
        if trumps >= 2:
            total += 0.3 * sum(1 for s in range(4) if s != trump and s not in length)
    return total


def nittionio_bid(decision: Decision) -> Action | None:
    """The three bid cards whose value best matches what the other nine should take."""
    view = decision.view
    order = nittionio_tables(view)
    hand = [int(c) for c in view.hand]
    best: tuple[float, str] | None = None
    for bid_cards in combinations(hand, 3):
        played = [c for c in hand if c not in bid_cards]
        bid = sum(NITTIONIO_BID_VALUE[order[0][c]] for c in bid_cards)
        miss = abs(bid - estimate_tricks(played, view.trump, order))
        text = "bid " + codes(bid_cards)
        if best is None or miss < best[0]:
            best = (miss, text)
    return None if best is None else decision.find(best[1])


def _my_bid(view: View) -> int | None:
    for note in view.notes:
        if note.key == "nittionio.note.my_bid":
            return int(note.arg("bid"))
    return None


def nittionio_premium(decision: Decision, bid: int) -> Action | None:
    """Declare only a sure thing: the bid equals the sure tricks and nothing else may win."""
    view = decision.view
    suit_table, power_table = nittionio_tables(view)
    sure = loose = 0
    for c in (int(c) for c in view.hand):
        suit, power = suit_table[c], power_table[c]
        if power == ACE or (suit == view.trump and power == KING):
            sure += 1
        elif power >= QUEEN or (suit == view.trump and power >= TEN):
            loose += 1
    confident = (bid == sure and loose == 0) or (bid == 0 and sure + loose == 0)
    return decision.find("declare" if confident else "pass")


def nittionio(decision: Decision, rng: random.Random) -> Action | None:
    first = decision.notation(decision.legal[0])
    if first.startswith("bid ") and len(decision.legal) > 1:
        return nittionio_bid(decision)
    bid = _my_bid(decision.view)
    if bid is None:
        return None
    if first in ("pass", "declare", "reveal"):
        return nittionio_premium(decision, bid)
    if all(0 <= a <= JOKER for a in decision.legal):
        taken = decision.view.seats[decision.seat].tricks or 0
        order = nittionio_tables(decision.view)
        return trickplay.play(list(decision.legal), decision.view, taken < bid, order)
    return None
