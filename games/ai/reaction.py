"""Human-like reaction times for real-time games (Hej knekt), shared by the terminal and the bot.

:func:`reaction_presses` plans one computer player's presses after a reveal: usually one correct
press after a log-normal delay (median about 750 ms), now and then a wrong press first and the
correction a little later. A slip costs what it costs a member: the game counts the correction from
the wrong press plus its penalty (Hej knekt's ``wrong_press_penalty_ms``), so a computer that slips
is usually, but not always, the last. Times are milliseconds since the reveal; the caller turns
each press into the game's action and applies it when that time comes. Only the caller knows the
clock.

Standard library only; the randomness is the injected ``rng``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from games.ai.base import Player, decision_for, make_player, shape_of
from games.cards import randbelow
from games.core import Game, Seat


@dataclass(frozen=True, slots=True)
class Press:
    """One planned press: ``at_ms`` after the reveal; ``correct`` or a wrong button."""

    at_ms: int
    correct: bool


def lognormal_ms(rng: random.Random, median_ms: float, sigma: float) -> float:
    """A log-normal delay with the given median, by Box-Muller on ``rng.random`` (stable)."""
    u1 = 1.0 - rng.random()  # in (0, 1], so the log is finite
    u2 = rng.random()
    z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
    return median_ms * math.exp(sigma * z)


def reaction_presses(
    rng: random.Random,
    median_ms: float = 750.0,
    sigma: float = 0.28,
    wrong_rate: float = 0.06,
    min_ms: int = 280,
    max_ms: int = 2500,
) -> tuple[Press, ...]:
    """The presses one computer player makes after a reveal, in time order."""
    first = int(min(max(lognormal_ms(rng, median_ms, sigma), min_ms), max_ms))
    if rng.random() >= wrong_rate:
        return (Press(first, True),)
    # A slip: the wrong button first, noticed and corrected a moment later.
    correction = first + int(min(max(lognormal_ms(rng, 380.0, 0.3), 150), 1500))
    return (Press(first, False), Press(correction, True))


@dataclass(frozen=True, slots=True)
class TimedAction:
    """A press turned into the game's action, to apply ``at_ms`` after the reveal."""

    at_ms: int
    action: int


def is_timed_window(notations: Sequence[str]) -> bool:
    """Whether a seat's legal actions form a reaction window: ``<verb> <ms>`` actions, among them
    ``close <ms>`` (the caller's timer). The convention of real-time games (Hej knekt)."""
    if not any(map(str.startswith, notations, repeat("close"))):
        # most turns, asked at every action: no notation needs splitting (nor a step of Python
        # for each one)
        return False
    shapes = [t.split() for t in notations]
    return any(s[0] == "close" for s in shapes if s) and all(
        len(s) == 2 and s[1].isdigit() for s in shapes
    )


def plan_reaction(
    game: Game,
    seat: Seat,
    player: Player | str,
    rng: random.Random,
    median_ms: float = 750.0,
    wrong_rate: float = 0.06,
) -> tuple[TimedAction, ...]:
    """The presses a computer player makes in the open window, as actions stamped with their time.

    The player chooses which press is right (``close`` means: do not press at all); the delay
    sampler decides when, and now and then a wrong press comes first.
    """
    if isinstance(player, str):
        player = make_player(player)
    decision = decision_for(game, seat)
    choice = player.choose(decision, rng)
    right = shape_of(choice, decision.notation(choice))
    if right.verb in (None, "close"):
        return ()
    wrong = sorted({s.verb for s in decision.shapes if s.verb not in (None, "close", right.verb)})
    out = []
    for press in reaction_presses(rng, median_ms=median_ms, wrong_rate=wrong_rate):
        verb = right.verb if press.correct or not wrong else wrong[randbelow(rng, len(wrong))]
        out.append(TimedAction(press.at_ms, game.parse(f"{verb} {press.at_ms}")))
    return tuple(out)
