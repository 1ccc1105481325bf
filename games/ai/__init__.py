"""Computer players for every registered game, through the contract alone.

A player sees one :class:`Decision` (a seat's view, its legal actions and their notations, and a
``determinize`` callable for search) and returns one of the legal actions. ``choose(game, seat,
kind, rng)`` is the one entry point; :data:`PLAYER_KINDS` maps kind names to players, so a table
stores a kind name per computer seat: the levels ``easy``, ``normal`` (rule-based; ``rules`` is its
older name) and ``hard`` (search, :mod:`games.ai.search`), and ``random`` as a baseline.
``reaction_presses`` plans human-like presses for real-time games.

Standard library only: no clock, no I/O.
"""

from __future__ import annotations

from games.ai.base import (
    PLAYER_KINDS,
    Decision,
    Player,
    Shape,
    choose,
    decision_for,
    make_player,
    register,
    shape_of,
)
from games.ai.levels import (
    DEFAULT_LEVEL,
    LEVELS,
    REACTIONS,
    TAKEOVER_LEVEL,
    EasyPlayer,
    NormalPlayer,
    Reaction,
    level_of,
    reaction_of,
)
from games.ai.random_player import RandomPlayer
from games.ai.reaction import Press, TimedAction, is_timed_window, plan_reaction, reaction_presses
from games.ai.rules import RulesPlayer
from games.ai.search import SearchPlayer

register("random", RandomPlayer)
register("rules", RulesPlayer)
register("easy", EasyPlayer)
register("normal", NormalPlayer)
register("hard", SearchPlayer)

__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "PLAYER_KINDS",
    "REACTIONS",
    "TAKEOVER_LEVEL",
    "Decision",
    "EasyPlayer",
    "NormalPlayer",
    "Player",
    "Press",
    "RandomPlayer",
    "Reaction",
    "RulesPlayer",
    "SearchPlayer",
    "Shape",
    "TimedAction",
    "choose",
    "decision_for",
    "is_timed_window",
    "level_of",
    "make_player",
    "plan_reaction",
    "reaction_of",
    "reaction_presses",
    "register",
    "shape_of",
]
