"""Reunion: lay eyes away safely, draw the left bower with the right, give no eyes away.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai import trickplay
from games.ai.base import Decision
from games.cards import (
    ACE,
)
from games.core import Action
from games.reunion import rules as reunion_rules


def reunion_discard(decision: Decision) -> Action | None:
    """Lay away the two plain cards whose eyes are safest in the discards (they count for the
    dealer): tens and kings of short side suits first; never a trump."""
    trump = decision.view.trump
    if trump is None:
        return None
    t = reunion_rules.TABLES[trump]
    hand = [int(c) for c in decision.view.hand]
    length: dict[int, int] = {}
    for c in hand:
        length[t.suit[c]] = length.get(t.suit[c], 0) + 1

    def keep_value(c: int) -> tuple[int, int, int]:
        trumps = 1 if t.suit[c] == trump else 0
        return (trumps, -t.eyes[c], length[t.suit[c]])

    best: tuple[tuple[int, int, int], Action] | None = None
    for action, shape in zip(decision.legal, decision.shapes, strict=True):
        if len(shape.cards) != 2:
            return None
        a, b = (keep_value(c) for c in shape.cards)
        key = (a[0] + b[0], a[1] + b[1], a[2] + b[2])
        if best is None or key < best[0]:
            best = (key, action)
    return None if best is None else best[1]


def reunion_play(decision: Decision) -> Action | None:
    view = decision.view
    trump = view.trump
    if trump is None:
        return None
    t = reunion_rules.TABLES[trump]
    order: trickplay.Tables = (t.suit, t.power)
    cards = list(decision.legal)
    eyes = t.eyes

    def cheap(c: int) -> tuple[int, int, int]:
        return (eyes[c], 1 if t.suit[c] == trump else 0, t.power[c])

    if not view.trick:
        if t.right in cards:
            return t.right  # draws trumps, and takes the left bower with a stake when it falls
        side_aces = [c for c in cards if t.power[c] == ACE and t.suit[c] != trump]
        if side_aces:
            return side_aces[0]
        side = [c for c in cards if t.suit[c] != trump] or cards
        return min(side, key=cheap)
    winners = [c for c in cards if trickplay.takes_trick(c, view, order)]
    last = len(view.trick) == decision.players - 1
    if winners:
        if last:
            return min(winners, key=lambda c: (t.suit[c] == trump, t.power[c]))
        # second to play: win only with a card the last player is unlikely to beat
        safe = [c for c in winners if t.power[c] >= ACE or c == t.right]
        if safe:
            return min(safe, key=lambda c: (t.suit[c] == trump, t.power[c]))
        trick_eyes = sum(eyes[int(c)] for _, c in view.trick)
        if trick_eyes >= 10:
            return max(winners, key=lambda c: (t.suit[c] == trump, t.power[c]))
    return min(cards, key=cheap)


def reunion(decision: Decision, rng: random.Random) -> Action | None:
    if decision.shapes and decision.shapes[0].verb == "discard":
        return reunion_discard(decision)
    if all(0 <= a < 52 for a in decision.legal):
        return reunion_play(decision)
    return None
