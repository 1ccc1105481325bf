"""The search player: determinized Monte Carlo search for every registered game, by the contract.

For one decision it repeats, within its budget: deal the cards hidden from the seat anew
(``decision.determinize``, consistent with what the seat knows), pick a candidate action by UCB1
over the statistics gathered so far, then play both that candidate and the rule-based player's
choice in that same world, each followed by the same stream of random legal actions to the end of
the deal (or of the match, for a game of one deal), and score both outcomes for the seat's side.
It is PIMC whose samples are spread over the candidates as a bandit (ISMCTS with a tree of depth
one).

- **Paired comparison**: every candidate is judged by its advantage over the rule-based choice
  (the prior) in the same sampled worlds, with the same random numbers for both playouts (common
  random numbers): the luck of the deal and of the playout, which is most of an outcome's spread,
  cancels out of the difference. The search plays the candidate whose advantage is surest, when
  the lower bound of that advantage (``EVIDENCE`` standard errors below its mean, from at least
  ``MIN_PAIRS`` samples) lies above zero; else the prior. So with a tiny budget it plays as
  ``normal`` does, and it leaves that choice only on evidence, far less often because noise made a
  worse move look better. A sample is two playouts: ``iterations`` counts playouts.
- **Candidates**: when a seat has more than ``candidates`` legal actions (84 triples of bid
  cards), the rule-based choice and a seeded sample of the others are searched. Actions a game's
  heuristics list in ``SEARCH_LEAVES`` (where its samples are known to misjudge them) are searched
  only when they are the rule-based choice.
- **Outcome**: a finished match scores by places; a deal played out scores by the points each side
  gained in it, compared between sides: +1 for every side it gained more than, -1 for every side it
  gained less than, averaged. Which way a game's scores count (points for, or points against) is
  read once per game from a few seeded random matches: a better place goes with more points or
  with fewer. A partnership (``View.teams``) is one side: a partner's gain is the seat's own.
- **The others' play**: where the trick on the table holds cards the other seats played, each
  sample is weighted by how well it explains them: the likelihood of those plays under a softened
  rule-based player in the sample's hands (:func:`play_weight`), so deals in which the others
  would have played otherwise count less. Means and errors are then weighted.
- **Budget**: ``iterations`` playouts at most, and ``stop``, a callable the caller may give that
  says when time is up (this module reads no clock), asked every few samples; a playout stops after
  ``playout_actions`` actions. Playouts are random for speed: a rule-based move costs about forty
  random ones, so only the first ``guided_actions`` moves of each playout (default: two per seat,
  about two tricks) are the rule-based player's, which makes the samples far better judges of a
  move (with purely random playouts the search lost to ``normal`` at Femkort), and the rest are
  random. ``guided_actions=0`` gives the fastest search.
- **Deterministic**: everything comes from the ``rng`` it is given, so the same seed and budget in
  iterations give the same moves (a ``stop`` by the clock may cut a search at another point).
- Real-time reaction windows (Hej knekt) are not searched: the rule-based choice is kept and the
  caller's reaction model decides the timing. Nor is a position that has stood before
  (``View.repeated``): the rule-based player's varied choice breaks the circle, where a search
  would find the same move again.

Standard library only; no clock, no I/O. It sees only the Decision: the view, the legal actions
and ``determinize``.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.ai import heuristics
from games.ai.base import Decision, Player, decision_for, pick
from games.ai.reaction import is_timed_window
from games.ai.rules import RulesPlayer
from games.cards import Card, randbelow
from games.core import Action, Game, IllegalActionError, Result, Seat
from games.tricks import PLAIN_SUIT

EXPLORATION = 0.7
"""UCB1's exploration constant, for outcomes in [-1, 1] (so advantages in [-2, 2])."""
DEAL_CHECK_EVERY = 8
"""A playout asks whether the deal has ended every this many actions (a view costs ~5 actions)."""
FINE_PLAYOUTS = 1
"""Playouts per search that ask after every action, to learn when the deal ends."""
EVIDENCE = 1.0
"""How many standard errors above zero a searched move's mean advantage over the rule-based move
must lie for the search to play it."""
MIN_PAIRS = 6
"""Paired samples a searched move needs before its advantage counts as evidence."""
STOP_CHECK_EVERY = 8
"""Samples between two questions to ``stop``."""
SOFTNESS = 0.5
"""How far the others' play is taken to stray from the rule-based player's, when weighing a
sample by how well it explains their plays (:func:`play_weight`): the chance of a random card."""


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What one search did: playouts run, and per candidate its paired samples and its mean
    advantage over the prior's outcome in them (the prior's own entry: every sample, advantage
    0)."""

    iterations: int
    actions: tuple[Action, ...]
    visits: tuple[int, ...]
    means: tuple[float, ...]
    errors: tuple[float, ...] = ()
    """The standard error of each mean (``inf`` with fewer than two samples)."""

    @staticmethod
    def merge(parts: Sequence[SearchStats]) -> SearchStats:
        """One search's statistics from searches of the same candidates run apart (in worker
        processes with their own seeds): tries and outcomes pooled per candidate. Each part's
        mean counts by its tries (for weighted samples, an approximation of pooling weights)."""
        actions = parts[0].actions
        visits, totals, squares = [0] * len(actions), [0.0] * len(actions), [0.0] * len(actions)
        for part in parts:
            if part.actions != actions:
                raise ValueError("searches of different candidates cannot be merged")
            for k, (v, m) in enumerate(zip(part.visits, part.means, strict=True)):
                e = part.errors[k] if part.errors else math.inf
                visits[k] += v
                totals[k] += m * v
                # the sum of squares back from the mean and its standard error
                variance = e * e * (v - 1) if v > 1 and math.isfinite(e) else 0.0
                squares[k] += variance + m * m * v
        return _stats(sum(p.iterations for p in parts), actions, visits, totals, squares)

    def choice(self, prior: Action) -> Action:
        """The candidate whose advantage over the prior is surest, when its lower confidence
        bound (``EVIDENCE`` standard errors below its mean, from at least ``MIN_PAIRS`` paired
        samples) lies above zero; else the prior (a search leaves the rule-based move only on
        evidence)."""
        best, best_bound = prior, 0.0
        errors = self.errors or (math.inf,) * len(self.actions)
        for action, visits, mean, error in zip(
            self.actions, self.visits, self.means, errors, strict=True
        ):
            if action == prior or visits < MIN_PAIRS:
                continue
            bound = mean - EVIDENCE * error
            if bound > best_bound:
                best, best_bound = action, bound
        return best


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
        weighting: bool = True,
    ) -> None:
        self.iterations = iterations
        self.stop = stop
        self.playout_actions = playout_actions
        self.candidates = candidates
        self.guided_actions = guided_actions
        self.weighting = weighting
        self.prior = RulesPlayer()
        self.last: SearchStats | None = None
        self.deal_seen_at = playout_actions
        self.fine_playouts = FINE_PLAYOUTS

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        prior, actions = self.plan(decision, rng)
        self.last = None
        if len(actions) == 1:
            return prior
        stats = self.search(decision, actions, prior, rng)
        self.last = stats
        return stats.choice(prior)

    def plan(self, decision: Decision, rng: random.Random) -> tuple[Action, tuple[Action, ...]]:
        """The rule-based choice and the candidates to search (the choice alone when there is
        nothing to search: one legal action, or a real-time reaction window)."""
        prior = self.prior.choose(decision, random.Random(rng.getrandbits(64)))
        if (
            len(decision.legal) == 1
            or decision.view.repeated
            or is_timed_window(decision.notations)
        ):
            return prior, (prior,)
        leaves = heuristics.SEARCH_LEAVES.get(decision.game_id)
        legal = decision.legal
        if leaves is not None:
            legal = tuple(a for a in legal if a == prior or not leaves(decision, a))
        if len(legal) == 1:
            return prior, (prior,)
        return prior, candidate_actions(legal, prior, self.candidates, rng)

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
        base = actions.index(prior)
        self.deal_seen_at = self.playout_actions
        self.fine_playouts = FINE_PLAYOUTS
        visits = [0] * count
        weights = [0.0] * count
        weights2 = [0.0] * count
        totals = [0.0] * count
        squares = [0.0] * count
        observed = self.weighting and has_observed_plays(decision)
        stream = random.Random()
        done = 0
        for i in range(self.iterations // 2):
            if self.stop is not None and 2 * i % STOP_CHECK_EVERY == 0 and i and self.stop():
                break
            done += 1
            world = decision.determinize(rng)
            w = play_weight(world, decision, self.prior, rng) if observed else 1.0
            k = _select(visits, totals, weights, done, base)
            seed = rng.getrandbits(64)
            other = world.clone()
            try:
                other.apply(seat, actions[k])
            except IllegalActionError:
                # Not legal in this world (it cannot happen when the game keeps a seat's choices
                # a function of what the seat knows); the sample tells nothing.
                continue
            world.apply(seat, prior)
            stream.seed(seed)
            reference = self.playout(world, stream, root_deal, root_scores, sides, mine, direction)
            stream.seed(seed)
            outcome = self.playout(other, stream, root_deal, root_scores, sides, mine, direction)
            difference = outcome - reference
            for j, value in ((base, 0.0), (k, difference)):
                visits[j] += 1
                weights[j] += w
                weights2[j] += w * w
                totals[j] += w * value
                squares[j] += w * value * value
        return _stats(2 * done, tuple(actions), visits, totals, squares, weights, weights2)

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
            if step < guided and len(legal) > 1:
                world.apply(seat, self.prior.choose(decision_for(world, seat, legal), rng))
            else:
                world.apply(seat, legal[randbelow(rng, len(legal))])
        if world.is_over():
            return place_outcome(world.result(), sides, mine)
        now = (table if table is not None else world.view(None)).seats
        gains = [direction * (s.score - root_scores[i]) for i, s in enumerate(now)]
        return gain_outcome(gains, sides, mine)


def _stats(
    iterations: int,
    actions: tuple[Action, ...],
    visits: Sequence[int],
    totals: Sequence[float],
    squares: Sequence[float],
    weights: Sequence[float] | None = None,
    weights2: Sequence[float] | None = None,
) -> SearchStats:
    """Means and their standard errors per candidate from its tries and its sums of weights
    (``weights``; the tries when None), of squared weights (``weights2``), of weighted outcomes
    (``totals``) and of weighted squared outcomes (``squares``). With weights, the error counts
    the effective number of samples, (sum of weights)^2 / (sum of squared weights)."""
    w1 = [float(v) for v in visits] if weights is None else weights
    w2 = w1 if weights2 is None else weights2
    means = tuple(t / w if w > 0 else 0.0 for t, w in zip(totals, w1, strict=True))
    errors = []
    for q, w, ww, m in zip(squares, w1, w2, means, strict=True):
        n = w * w / ww if ww > 0 else 0.0
        errors.append(math.sqrt(max(q / w - m * m, 0.0) / (n - 1)) if n > 1 + 1e-9 else math.inf)
    return SearchStats(iterations, actions, tuple(visits), means, tuple(errors))


def _select(
    visits: Sequence[int],
    totals: Sequence[float],
    weights: Sequence[float],
    done: int,
    base: int,
) -> int:
    """The candidate to compare with the prior (``base``) in the next sample: an untried one
    first, then by UCB1 on its weighted mean advantage over the prior (exploration counting its
    tries)."""
    untried = [k for k, v in enumerate(visits) if v == 0 and k != base]
    if untried:
        return untried[0]
    log_n = math.log(done)
    best, best_value = 0, -math.inf
    for k, (v, w, t) in enumerate(zip(visits, weights, totals, strict=True)):
        if k == base:
            continue
        value = (t / w if w > 0 else 0.0) + EXPLORATION * math.sqrt(log_n / v)
        if value > best_value:
            best, best_value = k, value
    return best


def has_observed_plays(decision: Decision) -> bool:
    """Whether the trick on the table holds cards the other seats played (the plays that
    :func:`play_weight` judges), in a game whose duty now is to follow suit if able: the seat's
    own legal cards must be what that rule gives, else (a duty to beat, to trump) the weights
    would judge the others' plays by the wrong rule and the samples stay unweighted."""
    view = decision.view
    if not decision.trick_taking or not any(s != decision.seat for s, _ in view.trick):
        return False
    cards = {s.action for s in decision.shapes if s.plays_one_card}
    return cards == set(follow_suit([int(c) for c in view.hand], view.trick))


def follow_suit(hand: Sequence[int], trick: Sequence[tuple[Seat, int]]) -> list[int]:
    """The cards of ``hand`` that "follow the led suit if able" allows, with plain suits."""
    if not trick:
        return list(hand)
    led = PLAIN_SUIT[int(trick[0][1])]
    return [c for c in hand if PLAIN_SUIT[c] == led] or list(hand)


def play_weight(world: Game, decision: Decision, policy: Player, rng: random.Random) -> float:
    """How well a determinized ``world`` explains the cards the other seats played to the trick
    on the table: the likelihood of those plays under a softened ``policy`` (the rule-based
    player), relative to random play.

    For each card another seat played to this trick, that seat's position then is rebuilt from
    the world: its hand there plus the card, the trick as it was, its own view of the rest (so a
    bid it holds in this world counts). The policy plays the observed card with probability
    ``1 - SOFTNESS`` plus ``SOFTNESS`` spread over the cards it could play, so a world where the
    policy would have played that card weighs ``(1 - SOFTNESS) * n + SOFTNESS`` and any other
    ``SOFTNESS`` (``n`` legal cards). Which cards were legal is read as "follow the led suit if
    able" with plain suits (:func:`has_observed_plays` checks that rule against the seat's own
    legal cards); a play that rule does not explain (a joker) tells nothing and weighs 1. Search
    uses the weights as importance weights of its samples.
    """
    trick = decision.view.trick
    weight = 1.0
    for i, (s, played) in enumerate(trick):
        if s == decision.seat:
            continue
        card = int(played)
        seen = world.view(s)
        hand = sorted({int(c) for c in seen.hand} | {card})
        legal = follow_suit(hand, trick[:i])
        if card not in legal or len(legal) < 2:
            continue
        past = dataclasses.replace(
            seen, hand=tuple(Card(c) for c in hand), trick=trick[:i], to_act=frozenset({s})
        )
        then = Decision(
            decision.game_id,
            s,
            past,
            legal,
            world.notation,
            world.parse,
            functools.partial(world.determinize, s),
            decision.trick_taking,
        )
        if policy.choose(then, rng) == card:
            weight *= (1 - SOFTNESS) * len(legal) + SOFTNESS
        else:
            weight *= SOFTNESS
    return weight


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


def search_part(
    game: Game,
    seat: Seat,
    actions: tuple[Action, ...],
    prior: Action,
    iterations: int,
    seed: int,
    stop: Callable[[], bool] | None = None,
) -> SearchStats:
    """One share of a search split over processes (a module function, so a pool can run it):
    ``iterations`` playouts of the given candidates from ``seed``. The shares' statistics are
    pooled with :meth:`SearchStats.merge` and the move is ``merged.choice(prior)``."""
    player = SearchPlayer(iterations=iterations, stop=stop)
    return player.search(decision_for(game, seat), actions, prior, random.Random(seed))
