"""Skitgubbe: collect high cards in phase 1, shed many low cards in phase 2.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai.base import Decision
from games.cards import (
    KING,
    TEN,
    rank_of,
)
from games.core import Action


def skitgubbe(decision: Decision, rng: random.Random) -> Action | None:
    """Phase 1: lead a high card (it wins and comes back) or else the lowest, and answer a high
    lead with the cheapest card that takes it, a low one with the lowest card. Phase 2: always
    beat when able, with the play that sheds the most cards and then the lowest; lead the
    longest run of low plain cards."""
    shapes = [s for s in decision.shapes if s.cards]
    if not shapes:
        return None
    if decision.view.phase.key.endswith(".collect"):
        return _skitgubbe_collect(decision, [s.cards[0] for s in shapes])
    trump = decision.view.trump

    def cost(cards: Sequence[int]) -> tuple[int, int]:
        trumps = sum(1 for c in cards if c // 13 == trump)
        high = max(rank_of(c) for c in cards)
        return (30 * trumps + high - 12 * len(cards), high)

    best = min(shapes, key=lambda s: cost(s.cards))
    return best.action


def _skitgubbe_collect(decision: Decision, cards: Sequence[int]) -> Action | None:
    trick = decision.view.trick
    by_rank = sorted(cards, key=rank_of)
    if len(trick) % 2 == 0:  # leading (or playing again after a bounce)
        high = [c for c in by_rank if rank_of(c) >= KING]
        return high[-1] if high else by_rank[0]
    led = rank_of(int(trick[-1][1]))
    takers = [c for c in by_rank if rank_of(c) > led]
    if led >= TEN and takers:
        return takers[0]
    losers = [c for c in by_rank if rank_of(c) < led]
    return losers[0] if losers else by_rank[0]
