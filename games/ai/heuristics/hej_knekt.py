"""Hej knekt: always the right press (rules/party.md §1.2).

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random

from games.ai.base import Decision
from games.cards import (
    parse_card,
    rank_of,
)
from games.core import Action

HEJ_KNEKT_PRESS = {10: "whistle", 11: "hej", 12: "goddag", 13: "salute", 14: "slap"}


def hej_knekt(decision: Decision, rng: random.Random) -> Action | None:
    """In a reaction window: the press the revealed card asks for; ``close`` (no press at all)
    when it asks for none (a false-alarm window)."""
    try:
        revealed = parse_card(str(decision.view.phase.arg("card")))
    except (KeyError, ValueError):
        return None
    verb = HEJ_KNEKT_PRESS.get(rank_of(revealed), "close")
    for action, text in zip(decision.legal, decision.notations, strict=True):
        if text.split()[0] == verb:
            return action
    return None
