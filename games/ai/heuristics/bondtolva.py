"""Bondtolva: declare toward exactly 12, keep pairs and matadors, stop taking points at 12.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games import bondtolva as bondtolva_rules
from games.ai import trickplay
from games.ai.base import Decision
from games.cards import (
    ACE,
    JOKER,
    KING,
    QUEEN,
    SUITS,
    TEN,
    rank_of,
    suit_of,
)
from games.core import Action

BONDTOLVA_ORDER: trickplay.Tables = (bondtolva_rules.SUIT_TABLE, bondtolva_rules.POWER_TABLE)


def bondtolva_declare(decision: Decision) -> Action | None:
    """Declare the pair that leaves the score at most 11 (the deal's last trick and vinst may still
    come); as trumf, the suit with the most cards and matadors. Otherwise skip."""
    view = decision.view
    score = view.seats[decision.seat].score
    points = 2 if view.trump is None else 1
    suits = [s.words[0] for s in decision.shapes if s.verb == "declare" and s.words]
    if not suits or score + points > bondtolva_rules.TARGET - 1:
        return decision.find("skip")
    hand = [int(c) for c in view.hand]

    def strength(letter: str) -> tuple[int, int]:
        mine = [c for c in hand if suit_of(c) == SUITS.index(letter)]
        return len(mine), sum(1 for c in mine if rank_of(c) in (ACE, TEN))

    return decision.find("declare " + max(suits, key=strength))


def bondtolva_pair_cards(hand: set[int]) -> set[int]:
    """The Kings and Queens of the pairs in ``hand``."""
    out: set[int] = set()
    for suit in range(4):
        pair = {suit * 13 + KING - 2, suit * 13 + QUEEN - 2}
        if pair <= hand:
            out |= pair
    return out


def bondtolva(decision: Decision, rng: random.Random) -> Action | None:
    """Declare with an eye on exactly 12; in the first phase keep undeclared pairs in hand; take
    tricks (and so the last trick and vinst) only while below 12."""
    view = decision.view
    if view.phase.key == "bondtolva.phase.declare":
        return bondtolva_declare(decision)
    if not all(0 <= a < JOKER for a in decision.legal):
        return None
    want = view.seats[decision.seat].score < bondtolva_rules.TARGET
    cards = list(decision.legal)
    tjog_declared = any(n.key == "bondtolva.note.tjog" for seat in view.seats for n in seat.notes)
    if view.phase.key == "bondtolva.phase.stock" and not tjog_declared:
        pairs = bondtolva_pair_cards(
            {int(c) for c in view.hand} - {int(c) for c in view.seats[decision.seat].shown}
        )
        cards = [c for c in cards if c not in pairs] or cards
    return trickplay.play(cards, view, want, BONDTOLVA_ORDER)
