"""Seeded random playouts of the registered games, shared by the tests that look at a match
move by move."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.core import Game, View
from games.registry import SPECS

NAMES = ["Åsa Öberg", "Bo", "Cilla 🎲", "Dag", "Eva", "Fia", "Gun", "Hans", "Ines", "Jan"]
"""Seats' names for what a playout is drawn as: long, accented, with an emoji."""

SEATINGS = [
    (game_id, players)
    for game_id, spec in sorted(SPECS.items())
    for players in sorted({spec.min_players, min(spec.max_players, 6)})
]
"""Each game at the fewest players and the most (up to six)."""


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
