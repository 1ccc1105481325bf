"""The random computer player: any legal action, uniformly. A baseline and a test opponent."""

from __future__ import annotations

import random

from games.ai.base import Decision, pick
from games.core import Action


class RandomPlayer:
    kind = "random"

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        return pick(decision.legal, rng)
