"""Bräus: win with sure cards, probe with worthless ones, never waste a high card.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai.base import Decision
from games.braus import KING_OF_CLUBS, PASS, STRENGTH
from games.cards import (
    JOKER,
)
from games.core import Action


def braus(decision: Decision, rng: random.Random) -> Action | None:
    """Bräus (rules/three-to-five-player.md §3), read from the public cards of the view.

    A card is *sure* when no card still unseen by the seat ranks above it. On lead: a sure card
    (the trick and the lead stay with the seat), else a worthless card to make the others spend
    playable ones (K♣, the outcome card, last), else the lowest card. Following, where beating
    is forced: the lowest sure card when an opponent is on top or still to play, else the lowest
    card that beats.
    """
    legal = list(decision.legal)
    if legal == [PASS] or not all(0 <= a < JOKER for a in legal):
        return None
    view = decision.view
    seen = {int(c) for c in view.hand}
    seen.update(int(c) for p in view.piles for c in p.cards)
    seen.update(int(c) for _, c in view.trick)
    best_unseen = max((STRENGTH[c] for c in range(52) if c not in seen), default=0)
    later = _later_players(decision)
    sure = [c for c in legal if STRENGTH[c] > best_unseen or (view.trick and not later)]
    by_strength = sorted(legal, key=lambda c: (STRENGTH[c], c))
    if not view.trick:
        strong = [c for c in legal if STRENGTH[c] > best_unseen]
        if strong:
            return min(strong, key=lambda c: STRENGTH[c])
        worthless = [c for c in by_strength if STRENGTH[c] == 0]
        if worthless:
            probes = [c for c in worthless if c != KING_OF_CLUBS] or worthless
            return probes[0]
        return by_strength[0]
    top_seat = view.trick[-1][0]
    threatened = top_seat % 2 != decision.seat % 2 or any(s % 2 != decision.seat % 2 for s in later)
    if threatened and sure:
        return min(sure, key=lambda c: STRENGTH[c])
    return by_strength[0]


def _later_players(decision: Decision) -> list[int]:
    """The seats that still play to the trick on the table after this one (those holding cards)."""
    view = decision.view
    if not view.trick:
        return []
    leader = view.trick[0][0]
    players = len(view.seats)
    out = []
    seat = (decision.seat + 1) % players
    while seat != leader:
        if view.seats[seat].cards:
            out.append(seat)
        seat = (seat + 1) % players
    return out
