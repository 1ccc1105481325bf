"""Svarte Petter: a card drawn at random; rearranging one's own fan gains nothing here.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai.base import Decision, pick
from games.core import Action


def svarte_petter(decision: Decision, rng: random.Random) -> Action | None:
    draws = [
        a for a, t in zip(decision.legal, decision.notations, strict=True) if t.startswith("draw ")
    ]
    return pick(draws, rng) if draws else None
