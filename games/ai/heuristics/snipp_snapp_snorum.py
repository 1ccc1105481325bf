"""Snipp snapp snorum: shed the most cards; Jig: keep the way up open.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai.base import Decision
from games.cards import (
    RANKS,
    code,
    rank_of,
)
from games.core import Action


def snipp_snapp_snorum(decision: Decision, rng: random.Random) -> Action | None:
    """Lead the rank held most of (four of a kind clears and leads again), ties the lowest. In
    Jig, lead the lowest card of the longest suit and follow with the lowest card that may be
    played, so that the higher ones are left for later."""
    view = decision.view
    held: dict[str, int] = {}
    for c in view.hand:
        held[code(c)[0]] = held.get(code(c)[0], 0) + 1
    leads = [
        (held.get(text.split()[1], 0), -RANKS.index(text.split()[1]), action)
        for action, text in zip(decision.legal, decision.notations, strict=True)
        if text.startswith("lead ")
    ]
    if leads:
        return max(leads)[2]
    cards = [s.cards[0] for s in decision.shapes if s.plays_one_card]
    if not cards:
        return None
    if view.trick:  # following: the lowest card that may be played
        return min(cards, key=rank_of)
    length = {suit: sum(1 for c in view.hand if c // 13 == suit) for suit in range(4)}
    return min(cards, key=lambda c: (-length[c // 13], rank_of(c)))
