"""Femkort: only the fifth trick counts; keep the best card, win the lead to trick five.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai import trickplay
from games.ai.base import Decision
from games.cards import (
    card as card_of,
)
from games.cards import (
    rank_of,
)
from games.core import Action, View

FEMKORT_TRICKS = 5


def _femkort_seen(view: View) -> int:
    """The cards this seat knows are not in another hand: its own, the trick, the last trick."""
    seen = 0
    for c in view.hand:
        seen |= 1 << int(c)
    for _, c in view.trick:
        seen |= 1 << int(c)
    for pile in view.piles:
        for c in pile.cards:
            seen |= 1 << int(c)
    return seen


def _femkort_odds(card: int, seen: int, view: View) -> tuple[float, float]:
    """(higher, lower): the shares of the unseen cards that are of ``card``'s suit and above it,
    and of its suit and below it."""
    unseen = 52 - seen.bit_count()
    if unseen <= 0:
        return 0.0, 0.0
    suit, rank = card // 13, rank_of(card)
    higher = sum(1 for r in range(rank + 1, 15) if not seen >> card_of(r, suit) & 1)
    lower = sum(1 for r in range(2, rank) if not seen >> card_of(r, suit) & 1)
    return higher / unseen, lower / unseen


def femkort_last_trick_odds(card: int, view: View, opponents: int, leading: bool) -> float:
    """Rough chance that ``card`` wins the fifth trick, led by this seat or followed to."""
    higher, lower = _femkort_odds(card, _femkort_seen(view), view)
    if leading:
        return (1 - higher) ** opponents
    return lower * (1 - higher) ** max(0, opponents - 1)


def _femkort_trick(view: View) -> int:
    try:
        return int(view.phase.arg("trick"))
    except (KeyError, ValueError):
        return 0


def _femkort_weak(view: View, margin: int) -> bool:
    """Whether the best card in hand is too low to hope for the pot: the more opponents, the
    higher a card must be (with five or more, below a king or ace is weak at ``margin`` 0)."""
    opponents = sum(1 for s in view.seats if s.tricks is not None) - 1
    best = max((rank_of(int(c)) for c in view.hand), default=0)
    return best < 10 + min(opponents, 4) - margin


def femkort(decision: Decision, rng: random.Random) -> Action | None:
    """Better cards with a weak hand; shed low cards in tricks 1-3; in trick 4 the card that
    gives the best chance in trick 5 (leading it after winning trick 4, or following)."""
    view = decision.view
    texts = dict(zip(decision.notations, decision.legal, strict=True))
    if "accept" in texts:
        return texts["accept" if _femkort_weak(view, 0) else "refuse"]
    cards = [a for a in decision.legal if 0 <= a < 52]
    if not cards:
        return None
    trick = _femkort_trick(view)
    if "better" in texts and trick <= 2 and _femkort_weak(view, 1):
        return texts["better"]
    if trick != FEMKORT_TRICKS - 1 or len(view.hand) != 2:
        # tricks 1-3: keep the high cards for the end
        return min(cards, key=lambda c: (rank_of(c), c))
    opponents = sum(1 for s in view.seats if s.tricks is not None) - 1
    seen = _femkort_seen(view)
    to_play_after = opponents - len(view.trick)

    def value(card: int) -> float:
        keep = next(int(c) for c in view.hand if int(c) != card)
        if trickplay.takes_trick(card, view):
            led = card if not view.trick else int(view.trick[0][1])
            higher = _femkort_odds(card, seen, view)[0] if led // 13 == card // 13 else 1.0
            win4 = (1 - higher) ** to_play_after
        else:
            win4 = 0.0
        lead = femkort_last_trick_odds(keep, view, opponents, True)
        follow = femkort_last_trick_odds(keep, view, opponents, False)
        return win4 * lead + (1 - win4) * follow

    return max(cards, key=lambda c: (value(c), -c))


def femkort_search_leaves(decision: Decision, action: Action) -> bool:
    """Whether the search must leave ``action`` to the rule-based choice: a proposal of better
    cards. What it brings depends on the others' answers, and the search's samples misjudge them:
    they deal the others random cards, while players who shed their low cards first hold their
    best ones later, so the samples accept a redeal far more often than the others do (measured:
    searching proposals lost to ``normal``, leaving them to it does not)."""
    return dict(zip(decision.legal, decision.notations, strict=True)).get(action) == "better"
