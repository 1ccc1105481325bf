"""Seeded random playouts of the registered games, shared by the tests that look at a match
move by move."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.core import Game, View
from games.registry import SPECS


def playout(game_id: str, players: int, seed: int = 1, steps: int = 1500) -> Iterator[View]:
    """The spectator's view before each move of a random match (fixed seed), for at most
    ``steps`` moves."""
    spec = SPECS[game_id]
    rng = random.Random(seed)
    game: Game = spec.new(players, None, random.Random(seed))
    for _ in range(steps):
        if game.is_over():
            return
        yield game.view(None)
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
