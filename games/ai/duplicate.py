"""Duplicate matches: the same deals played with the seats rotated, so luck of the cards cancels out
and what is left is the difference between two kinds of computer player.

A deal (one match started from one seed; for a game of several deals, that whole match) is played
once for every side: side ``k`` is played by player ``a`` and every other side by ``b``. Sides are
the partnerships of the game (``View.teams``) or every seat for itself, so ``a`` sits in every
seat. The outcome of a deal is ``a``'s advantage in places: the mean place of ``b``'s sides minus
that of ``a``'s, over the rotations (positive: ``a`` did better); :func:`duplicate_outcome` also
gives it in points per deal of cards, a finer measure for matches of many deals. Used by the
benchmark (``benchmarks/ai.py``) and the tests.

Standard library only; no clock, no I/O.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai.base import Player, choose
from games.ai.levels import reaction_of
from games.ai.reaction import is_timed_window, plan_reaction
from games.cards import randbelow
from games.core import Game, GameSpec, IllegalActionError, Options, Result, Seat

MAX_ACTIONS = 100_000
"""A match that has not ended after this many actions is a broken engine, not a long game."""


def play_match(
    spec: GameSpec[Options], players: int, seed: int, seated: Sequence[Player], rng: random.Random
) -> Result:
    """One match from ``seed`` with ``seated[s]`` choosing for seat ``s``; its result."""
    return played_match(spec, players, seed, seated, rng).result()


def played_match(
    spec: GameSpec[Options], players: int, seed: int, seated: Sequence[Player], rng: random.Random
) -> Game:
    """One match from ``seed`` with ``seated[s]`` choosing for seat ``s``, played to its end."""
    game = spec.new(players, rng=random.Random(seed))
    for _ in range(MAX_ACTIONS):
        acting = sorted(game.to_act())
        if not acting:
            return game
        if spec.realtime and react(game, acting, seated, rng):
            continue
        seat = acting[randbelow(rng, len(acting))]
        game.apply(seat, choose(game, seat, seated[seat], rng))
    raise RuntimeError(f"{spec.id} did not end within {MAX_ACTIONS} actions")


def react(game: Game, acting: Sequence[Seat], seated: Sequence[Player], rng: random.Random) -> bool:
    """A real-time reaction window played as the bot plays it: every acting seat's presses are
    planned with its level's reaction model (:func:`games.ai.reaction.plan_reaction`) and applied
    in time order while the window is open. False when no acting seat is in a timed window."""
    timed = [
        s for s in acting if is_timed_window([game.notation(a) for a in game.legal_actions(s)])
    ]
    if not timed:
        return False
    presses = sorted(
        (press.at_ms, seat, press.action)
        for seat in timed
        for press in plan_reaction(
            game,
            seat,
            seated[seat],
            rng,
            reaction_of(seated[seat].kind).median_ms,
            reaction_of(seated[seat].kind).wrong_rate,
        )
    )
    applied = False
    for _, seat, action in presses:
        if seat in game.to_act():
            try:
                game.apply(seat, action)
            except IllegalActionError:
                continue
            applied = True
    # Nobody pressed (or the window is still open): the seats answer as the window closes.
    return applied


def sides_of_game(spec: GameSpec[Options], players: int) -> tuple[tuple[Seat, ...], ...]:
    """The partnerships of a game as its first view shows them, or every seat for itself."""
    teams = spec.new(players, rng=random.Random(0)).view(None).teams
    return teams if teams else tuple((s,) for s in range(players))


def duplicate_deal(
    spec: GameSpec[Options],
    players: int,
    seed: int,
    a: Callable[[], Player],
    b: Callable[[], Player],
) -> float:
    """``a``'s mean advantage in places over ``b`` on the deal of ``seed``, every side rotated."""
    return duplicate_outcome(spec, players, seed, a, b).places


@dataclass(frozen=True, slots=True)
class Outcome:
    """``a``'s advantage over ``b`` on one duplicate deal, averaged over the rotations: in
    ``places`` (a place better in every match is +1), and in ``points`` per deal of cards
    played (the mean score of ``a``'s side minus that of the others, counted the way the game
    counts, more being better; divided by the deals the match took)."""

    places: float
    points: float


def duplicate_outcome(
    spec: GameSpec[Options],
    players: int,
    seed: int,
    a: Callable[[], Player],
    b: Callable[[], Player],
) -> Outcome:
    """``a``'s advantage over ``b`` on the deal of ``seed``, every side rotated."""
    from games.ai.search import score_direction

    direction = score_direction(spec.id, players)
    sides = sides_of_game(spec, players)
    places, points = [], []
    for k, side in enumerate(sides):
        seated: list[Player] = [b() for _ in range(players)]
        for s in side:
            seated[s] = a()
        game = played_match(spec, players, seed, seated, random.Random(seed * 1009 + k))
        result = game.result()
        mine = min(result.places[s] for s in side)
        others = [min(result.places[s] for s in other) for i, other in enumerate(sides) if i != k]
        places.append(statistics.fmean(others) - mine)
        score = [statistics.fmean(result.scores[s] for s in other) for other in sides]
        gain = score[k] - statistics.fmean(x for i, x in enumerate(score) if i != k)
        points.append(direction * gain / max(game.view(None).deal, 1))
    return Outcome(statistics.fmean(places), statistics.fmean(points))


@dataclass(frozen=True, slots=True)
class Summary:
    """Mean advantage per deal with the half-width of its 95% interval, over ``deals`` deals."""

    deals: int
    mean: float
    half_width: float

    @property
    def significant(self) -> bool:
        """Whether ``a`` is ahead at 95% confidence (the interval lies above zero)."""
        return self.mean - self.half_width > 0


def summarize(advantages: Sequence[float]) -> Summary:
    """The mean and 95% interval (normal approximation) of per-deal advantages."""
    n = len(advantages)
    if n == 0:
        return Summary(0, 0.0, math.inf)
    mean = statistics.fmean(advantages)
    if n == 1:
        return Summary(1, mean, math.inf)
    return Summary(n, mean, 1.96 * statistics.stdev(advantages) / math.sqrt(n))
