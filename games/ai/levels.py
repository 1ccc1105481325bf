"""The three levels a host picks for a computer player: ``easy`` (lätt), ``normal`` and ``hard``
(svår), and what each means in a real-time game.

- ``easy`` makes human mistakes: it plays as ``normal`` does, but one move in four is any legal
  move at random; in a real-time window its mistakes are its reaction model's (below), not a
  random press.
- ``normal`` is the rule-based player (``rules`` is its older name, kept for stored tables).
- ``hard`` searches (:class:`games.ai.search.SearchPlayer`).

In a real-time game (Hej knekt) nothing is searched: the levels differ in how fast a computer
player reacts and how often it presses the wrong button first (:data:`REACTIONS`).

Standard library only; no clock, no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.ai.base import Decision, pick
from games.ai.reaction import is_timed_window
from games.ai.rules import RulesPlayer
from games.core import Action

LEVELS = ("easy", "normal", "hard")
"""The levels in the order a host is offered them; ``normal`` is the default."""
DEFAULT_LEVEL = "normal"
TAKEOVER_LEVEL = "normal"
"""The level of a computer player that plays a member's seat after missed turns."""
EASY_MISTAKE_RATE = 0.25


class EasyPlayer:
    """Mostly the rule-based choice, now and then a random legal move."""

    kind = "easy"

    def __init__(self) -> None:
        self.rules = RulesPlayer()

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        # In a reaction window a random move would be a press at random (on a false alarm, a
        # press that picks up the centre); the level's slips there are its reaction model's.
        if not is_timed_window(decision.notations) and rng.random() < EASY_MISTAKE_RATE:
            return pick(decision.legal, rng)
        return self.rules.choose(decision, rng)


class NormalPlayer(RulesPlayer):
    """The rule-based player under its level's name."""

    kind = "normal"


@dataclass(frozen=True, slots=True)
class Reaction:
    """How a level reacts in a real-time window: median delay and chance of a wrong press first."""

    median_ms: float
    wrong_rate: float


REACTIONS: dict[str, Reaction] = {
    "easy": Reaction(median_ms=950.0, wrong_rate=0.12),
    "normal": Reaction(median_ms=750.0, wrong_rate=0.06),
    "hard": Reaction(median_ms=560.0, wrong_rate=0.025),
}


def level_of(kind: str) -> str:
    """The level a stored kind of computer player plays at (``rules`` is ``normal``); a kind that
    is no level (``random``) is returned as it is."""
    return "normal" if kind == "rules" else kind


def reaction_of(kind: str) -> Reaction:
    """The reaction model of a kind of computer player; ``normal``'s for any other kind."""
    return REACTIONS.get(level_of(kind), REACTIONS["normal"])
