"""Piquet: claim carte blanche, keep long suits, sets and runs, lay away the rest; lead cards
above nine; leave a trick the partner holds alone.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import trickplay
from games.ai.base import Decision
from games.cards import ACE, JOKER, TEN, codes, rank_of
from games.core import Action


def piquet_keep_value(c: int, hand: Sequence[int]) -> int:
    """How much a card is worth keeping through the exchange: its rank, the length of its suit
    (the point, and tricks in play), a pair or more of its rank above nine (sets), and a place in
    a run of three or more (sequences)."""
    rank, suit = rank_of(c), c // 13
    same_suit = {rank_of(o) for o in hand if o // 13 == suit}
    value = rank - 6 + len(same_suit)
    if rank >= TEN:
        value += 2 * sum(1 for o in hand if rank_of(o) == rank)
    run = 1
    for step in (1, -1):
        r = rank + step
        while r in same_suit:
            run += 1
            r += step
    return value + (4 if run >= 3 else 0)


PIQUET_KEEP = 14  # cards worth less than this are laid away, within the allowed counts


def piquet(decision: Decision, rng: random.Random) -> Action | None:
    legal = decision.legal
    for word in ("blanche", "hide"):
        found = decision.find(word)
        if found is not None:
            return found
    first, last = decision.notation(legal[0]), decision.notation(legal[-1])
    if first.startswith("exchange"):
        # exchanges are listed from the most cards to the fewest
        most, fewest = len(first.split()) - 1, len(last.split()) - 1
        hand = [int(c) for c in decision.view.hand]
        ranked = sorted(hand, key=lambda c: (piquet_keep_value(c, hand), rank_of(c)))
        weak = sum(1 for c in hand if piquet_keep_value(c, hand) < PIQUET_KEEP)
        count = min(most, max(fewest, weak))
        return decision.find(("exchange " + codes(ranked[:count])).strip())
    if all(0 <= a < JOKER for a in legal):
        view = decision.view
        if not view.trick and not any(rank_of(a) == ACE for a in legal):
            # no sure winner to lead: a card above nine at least scores its lead (S3)
            tens = [a for a in legal if rank_of(a) >= TEN]
            if tens:
                return max(tens, key=lambda c: (sum(1 for o in legal if o // 13 == c // 13), c))
        winning = trickplay.winning_card(view)
        if len(view.seats) == 4 and winning is not None:
            holder = next(s for s, c in view.trick if int(c) == winning)
            if holder == (decision.seat + 2) % 4 and len(view.trick) == 3:
                return min(legal, key=rank_of)  # the partner has the trick: keep the good cards
        return trickplay.play(list(legal), view, True)
    return None
