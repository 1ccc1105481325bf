"""Löjliga familjerna: ask for the rank you hold most of, whoever is known to hold it.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai.base import Decision
from games.cards import code
from games.core import Action


def lojliga_familjerna(decision: Decision, rng: random.Random) -> Action | None:
    """Ask for the rank of which the hand holds most (closest to a quartet); ask a player the
    table shows to hold it, else one not known to lack it, the one with most cards first. With
    Authors (ask for a card) the same, for a card of that rank."""
    view = decision.view
    counts: dict[str, int] = {}
    for c in view.hand:
        counts[code(c)[0]] = counts.get(code(c)[0], 0) + 1

    def known(seat: int, kind: str) -> set[str]:
        for note in view.seats[seat].notes:
            if note.key.endswith("." + kind):
                return set(str(note.arg("ranks")).split())
        return set()

    def score(text: str) -> tuple[int, int, int, float]:
        _, target, asked = text.split()
        rank = asked[0]  # a rank, or with Authors a card: its rank
        seat = int(target)
        holds = rank in known(seat, "holds")
        lacks = rank in known(seat, "lacks")
        return (
            int(holds) - 2 * int(lacks),
            counts.get(rank, 0),
            view.seats[seat].cards,
            rng.random(),
        )

    best = max(decision.notations, key=score, default=None)
    return None if best is None else decision.legal[decision.notations.index(best)]
