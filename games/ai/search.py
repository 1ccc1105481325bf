"""The search player: determinized Monte Carlo search for every registered game, by the contract.

For one decision it repeats, within its budget: deal the cards hidden from the seat anew
(``decision.determinize``, consistent with what the seat knows), pick a candidate action by UCB1
over the statistics gathered so far, play it in that world, then play random legal actions to the
end of the deal (or of the match, for a game of one deal) and score the outcome for the seat's
side. It is PIMC whose samples are spread over the candidates as a bandit (ISMCTS with a tree of
depth one), and it plays the candidate tried most.

- **Prior**: the rule-based player's choice gets a bonus that fades as the candidates are tried, so
  with a tiny budget the search plays as ``normal`` does, and it leaves that choice only on
  evidence. When a seat has more than ``candidates`` legal actions (84 triples of bid cards), the
  rule-based choice and a seeded sample of the others are searched.
- **Outcome**: a finished match scores by places; a deal played out scores by the points each side
  gained in it, compared between sides: +1 for every side it gained more than, -1 for every side it
  gained less than, averaged. Which way a game's scores count (points for, or points against) is
  read once per game from a few seeded random matches: a better place goes with more points or
  with fewer. A partnership (``View.teams``) is one side: a partner's gain is the seat's own.
- **Budget**: ``iterations`` samples at most, and ``stop``, a callable the caller may give that
  says when time is up (this module reads no clock), asked every few samples; a playout stops after
  ``playout_actions`` actions. Playouts are random for speed: a rule-based move costs about forty
  random ones, so only the first ``guided_actions`` moves of each playout (default: two per seat,
  about two tricks) are the rule-based player's, which makes the samples far better judges of a
  move (with purely random playouts the search lost to ``normal`` at Femkort), and the rest are
  random. ``guided_actions=0`` gives the fastest search.
- **Deterministic**: everything comes from the ``rng`` it is given, so the same seed and budget in
  iterations give the same moves (a ``stop`` by the clock may cut a search at another point).
- Real-time reaction windows (Hej knekt) are not searched: the rule-based choice is kept and the
  caller's reaction model decides the timing.

Standard library only; no clock, no I/O. It sees only the Decision: the view, the legal actions
and ``determinize``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai.base import Decision, decision_for, pick
from games.ai.reaction import is_timed_window
from games.ai.rules import RulesPlayer
from games.cards import randbelow
from games.core import Action, Game, IllegalActionError, Result, Seat

EXPLORATION = 0.7
"""UCB1's exploration constant for outcomes in [-1, 1]."""
PRIOR_BONUS = 0.35
"""The rule-based choice's head start: this much mean outcome, fading as 1 / (1 + tries)."""
DEAL_CHECK_EVERY = 8
"""A playout asks whether the deal has ended every this many actions (a view costs ~5 actions)."""
FINE_PLAYOUTS = 1
"""Playouts per search that ask after every action, to learn when the deal ends."""
EVIDENCE = 1.0
"""How many standard errors better than the rule-based move a searched move must look."""
STOP_CHECK_EVERY = 8
"""Samples between two questions to ``stop``."""


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search did: samples taken, and per candidate its tries and mean outcome."""

    iterations: int
    actions: tuple[Action, ...]
    visits: tuple[int, ...]
    means: tuple[float, ...]
    errors: tuple[float, ...] = ()
    """The standard error of each mean (``inf`` with fewer than two tries)."""

    def choice(self, prior: Action) -> Action:
        """The candidate tried most, unless its mean is not clearly above the prior's: then the
        prior (a search leaves the rule-based move only on evidence, ``EVIDENCE`` errors)."""
        count = len(self.actions)
        best = max(range(count), key=lambda i: (self.visits[i], self.means[i], -i))
        if self.actions[best] == prior or prior not in self.actions:
            return self.actions[best]
        p = self.actions.index(prior)
        spread = math.hypot(self.errors[best], self.errors[p]) if self.errors else math.inf
        if self.means[best] - self.means[p] > EVIDENCE * spread:
            return self.actions[best]
        return prior


class SearchPlayer:
    """The ``hard`` computer player (see the module docstring)."""

    kind = "hard"

    def __init__(
        self,
        iterations: int = 1000,
        stop: Callable[[], bool] | None = None,
        playout_actions: int = 600,
        candidates: int = 24,
        guided_actions: int | None = None,
    ) -> None:
        self.iterations = iterations
        self.stop = stop
        self.playout_actions = playout_actions
        self.candidates = candidates
        self.guided_actions = guided_actions
        self.prior = RulesPlayer()
        self.last: SearchStats | None = None
        self.deal_seen_at = playout_actions
        self.fine_playouts = FINE_PLAYOUTS

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        prior = self.prior.choose(decision, random.Random(rng.getrandbits(64)))
        self.last = None
        if len(decision.legal) == 1 or is_timed_window(decision.notations):
            return prior
        actions = candidate_actions(decision.legal, prior, self.candidates, rng)
        stats = self.search(decision, actions, prior, rng)
        self.last = stats
        return stats.choice(prior)

    def search(
        self, decision: Decision, actions: Sequence[Action], prior: Action, rng: random.Random
    ) -> SearchStats:
        seat = decision.seat
        sides = sides_of(decision)
        mine = next(i for i, side in enumerate(sides) if seat in side)
        direction = score_direction(decision.game_id, decision.players)
        root_scores = tuple(s.score for s in decision.view.seats)
        root_deal = decision.view.deal
        count = len(actions)
        self.deal_seen_at = self.playout_actions
        self.fine_playouts = FINE_PLAYOUTS
        visits = [0] * count
        totals = [0.0] * count
        squares = [0.0] * count
        done = 0
        for i in range(self.iterations):
            if self.stop is not None and i % STOP_CHECK_EVERY == 0 and i and self.stop():
                break
            done += 1
            world = decision.determinize(rng)
            k = _select(visits, totals, done, actions, prior)
            try:
                world.apply(seat, actions[k])
            except IllegalActionError:
                # Not legal in this world (it cannot happen when the game keeps a seat's choices
                # a function of what the seat knows); the sample tells nothing.
                continue
            outcome = self.playout(world, rng, root_deal, root_scores, sides, mine, direction)
            visits[k] += 1
            totals[k] += outcome
            squares[k] += outcome * outcome
        means = tuple(t / v if v else 0.0 for t, v in zip(totals, visits, strict=True))
        errors = tuple(
            math.sqrt(max(q / v - m * m, 0.0) / (v - 1)) if v > 1 else math.inf
            for q, v, m in zip(squares, visits, means, strict=True)
        )
        return SearchStats(done, tuple(actions), tuple(visits), means, errors)

    def playout(
        self,
        world: Game,
        rng: random.Random,
        root_deal: int,
        root_scores: Sequence[int],
        sides: Sequence[Sequence[Seat]],
        mine: int,
        direction: int,
    ) -> float:
        """Random legal actions to the end of the deal or match; the outcome for side ``mine``.

        A view costs several actions, so whether the deal has ended is asked after every action
        only in the first ``FINE_PLAYOUTS`` playouts of a search; later ones ask first at the
        step where the deal was seen to end soonest (``deal_seen_at``), and then every
        ``DEAL_CHECK_EVERY`` actions.
        """
        table = None
        fine = self.fine_playouts > 0
        self.fine_playouts -= 1
        seen = self.deal_seen_at
        guided = (
            self.guided_actions if self.guided_actions is not None else 2 * len(sides_seats(sides))
        )
        for step in range(self.playout_actions):
            acting = world.to_act()
            if not acting:
                return place_outcome(world.result(), sides, mine)
            if step and (fine or step == seen or (step > seen and step % DEAL_CHECK_EVERY == 0)):
                table = world.view(None)
                if table.deal != root_deal:
                    self.deal_seen_at = min(self.deal_seen_at, step)
                    break
                table = None
            if len(acting) == 1:
                (seat,) = acting
            else:
                ordered = sorted(acting)
                seat = ordered[randbelow(rng, len(ordered))]
            legal = world.legal_actions(seat)
            if not legal:
                # A seat to act with nothing it may do: a world the game cannot go on from.
                break
            if step < guided:
                world.apply(seat, self.prior.choose(decision_for(world, seat), rng))
            else:
                world.apply(seat, legal[randbelow(rng, len(legal))])
        if world.is_over():
            return place_outcome(world.result(), sides, mine)
        now = (table if table is not None else world.view(None)).seats
        gains = [direction * (s.score - root_scores[i]) for i, s in enumerate(now)]
        return gain_outcome(gains, sides, mine)


def _select(
    visits: Sequence[int],
    totals: Sequence[float],
    done: int,
    actions: Sequence[Action],
    prior: Action,
) -> int:
    """UCB1 with the prior's fading bonus; an untried candidate first (the prior before others)."""
    untried = [k for k, v in enumerate(visits) if v == 0]
    if untried:
        return next((k for k in untried if actions[k] == prior), untried[0])
    log_n = math.log(done)
    best, best_value = 0, -math.inf
    for k, (v, t) in enumerate(zip(visits, totals, strict=True)):
        value = t / v + EXPLORATION * math.sqrt(log_n / v)
        if actions[k] == prior:
            value += PRIOR_BONUS / (1 + v)
        if value > best_value:
            best, best_value = k, value
    return best


def candidate_actions(
    legal: Sequence[Action], prior: Action, limit: int, rng: random.Random
) -> tuple[Action, ...]:
    """Every legal action, or the prior and a seeded sample of ``limit - 1`` others."""
    if len(legal) <= limit:
        return tuple(legal)
    others = [a for a in legal if a != prior]
    chosen = [prior]
    for _ in range(limit - 1):
        chosen.append(others.pop(randbelow(rng, len(others))))
    return tuple(chosen)


def sides_of(decision: Decision) -> tuple[tuple[Seat, ...], ...]:
    """The partnerships of the view, or every seat for itself."""
    if decision.view.teams:
        return decision.view.teams
    return tuple((s,) for s in range(decision.players))


def sides_seats(sides: Sequence[Sequence[Seat]]) -> list[Seat]:
    return [s for side in sides for s in side]


def _compare(mine: float, other: float) -> int:
    return (mine > other) - (mine < other)


def gain_outcome(gains: Sequence[int], sides: Sequence[Sequence[Seat]], mine: int) -> float:
    """+1 for each other side that gained less than ``mine``, -1 for each that gained more."""
    means = [sum(gains[s] for s in side) / len(side) for side in sides]
    others = [m for i, m in enumerate(means) if i != mine]
    return sum(_compare(means[mine], m) for m in others) / len(others) if others else 0.0


def place_outcome(result: Result, sides: Sequence[Sequence[Seat]], mine: int) -> float:
    """+1 for each other side placed below ``mine``, -1 for each placed above."""
    best = [min(result.places[s] for s in side) for side in sides]
    others = [p for i, p in enumerate(best) if i != mine]
    return sum(_compare(p, best[mine]) for p in others) / len(others) if others else 0.0


_DIRECTIONS: dict[tuple[str, int], int] = {}
CALIBRATION_MATCHES = 6


def score_direction(game_id: str, players: int) -> int:
    """+1 when a better place goes with more points in this game, -1 when with fewer.

    Read from a few random matches with fixed seeds, once per game and player count, so it is
    the same in every process. A game not in the registry (a test's toy game) counts points for.
    """
    key = (game_id, players)
    found = _DIRECTIONS.get(key)
    if found is not None:
        return found
    from games.registry import SPECS

    spec = SPECS.get(game_id)
    agreement = 0
    if spec is not None:
        rng = random.Random(20_240_601)
        for seed in range(CALIBRATION_MATCHES):
            game = spec.new(players, rng=random.Random(seed))
            for _ in range(100_000):
                acting = sorted(game.to_act())
                if not acting:
                    break
                seat = pick(acting, rng)
                game.apply(seat, pick(game.legal_actions(seat), rng))
            if not game.is_over():
                continue
            result = game.result()
            for a in range(players):
                for b in range(a + 1, players):
                    agreement += _compare(result.scores[a], result.scores[b]) * _compare(
                        result.places[b], result.places[a]
                    )
    direction = -1 if agreement < 0 else 1
    _DIRECTIONS[key] = direction
    return direction
