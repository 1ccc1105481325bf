"""Computer players for every registered game, through the contract alone.

A player sees one :class:`Decision` (a seat's view, its legal actions and their notations, and a
``determinize`` callable for search) and returns one of the legal actions. ``choose(game, seat,
kind, rng)`` is the one entry point; :data:`PLAYER_KINDS` maps kind names ("random", "rules") to
players, so a table stores a kind name per computer seat. ``reaction_presses`` plans human-like
presses for real-time games.

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
from games.ai.random_player import RandomPlayer
from games.ai.reaction import Press, TimedAction, is_timed_window, plan_reaction, reaction_presses
from games.ai.rules import RulesPlayer

register("random", RandomPlayer)
register("rules", RulesPlayer)

__all__ = [
    "PLAYER_KINDS",
    "Decision",
    "Player",
    "Press",
    "RandomPlayer",
    "RulesPlayer",
    "Shape",
    "TimedAction",
    "choose",
    "decision_for",
    "is_timed_window",
    "make_player",
    "plan_reaction",
    "reaction_presses",
    "register",
    "shape_of",
]
