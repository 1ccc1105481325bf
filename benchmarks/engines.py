"""Engine benchmark: random playouts per second for every registered game, and in the same run
OpenSpiel's nearest game (``oh_hell`` with 3 players, 36 cards, 9 tricks) driven from Python.

    ./dev bench benchmarks/engines.py [--seconds 2] [--seed 1]

Our engines are driven through the game contract only (``to_act`` / ``legal_actions`` /
``apply``), with a seeded ``random.Random`` choosing uniformly among the seats to act and among
their legal actions; OpenSpiel's chance outcomes and player actions are chosen the same way.
Each game gets the same budget of CPU time (this process's, so that other work on the machine
does not count), spent in short turns taken round-robin so that a machine whose speed drifts
treats every game alike. A playout is timed from creating the match to its end.

One oh_hell playout is one deal while a Nittionio match has several, so the two are compared
per deal: deals per second counts the deals played (the final view's ``deal``).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from games.core import Game, GameSpec, Options
from games.registry import SPECS

OH_HELL = "oh_hell"
OH_HELL_PARAMS = {"players": 3, "num_suits": 4, "num_cards_per_suit": 9, "num_tricks_fixed": 9}
TURNS = 10  # each budget is spent in this many round-robin turns

# one timed playout: (actions, deals, CPU seconds)
Playout = Callable[[], tuple[int, int, float]]


@dataclass
class Tally:
    name: str
    players: int
    playouts: int = 0
    actions: int = 0
    deals: int = 0
    seconds: float = 0.0

    def per_second(self, count: int) -> float:
        return count / self.seconds if self.seconds else 0.0


def random_playout(game: Game, rng: random.Random) -> int:
    """Play uniformly random legal actions to the end; the number of actions taken."""
    actions = 0
    while seats := game.to_act():
        seat = next(iter(seats)) if len(seats) == 1 else rng.choice(sorted(seats))
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        actions += 1
    return actions


def our_playout(spec: GameSpec[Options], players: int, rng: random.Random) -> Playout:
    def play() -> tuple[int, int, float]:
        start = time.process_time()
        game = spec.new(players, rng=rng)
        actions = random_playout(game, rng)
        seconds = time.process_time() - start
        return actions, game.view(None).deal, seconds

    return play


def oh_hell_playout(rng: random.Random) -> Playout | None:
    """One OpenSpiel oh_hell deal per call, or None when pyspiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(OH_HELL, OH_HELL_PARAMS)

    def play() -> tuple[int, int, float]:
        start = time.process_time()
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        return actions, 1, time.process_time() - start

    return play


def run_round_robin(entries: list[tuple[Tally, Playout]], seconds: float) -> None:
    """Give every entry ``seconds`` of CPU time, in TURNS turns taken one after the other."""
    for turn in range(1, TURNS + 1):
        for tally, play in entries:
            while tally.seconds < seconds * turn / TURNS:
                actions, deals, spent = play()
                tally.playouts += 1
                tally.actions += actions
                tally.deals += deals
                tally.seconds += spent


def table(tallies: list[Tally]) -> str:
    width = max([len("game"), *(len(t.name) for t in tallies)]) + 2
    lines = [f"{'game':<{width}}{'players':>8}{'playouts/s':>13}{'actions/s':>13}{'deals/s':>11}"]
    for t in tallies:
        lines.append(
            f"{t.name:<{width}}{t.players:>8}{t.per_second(t.playouts):>13,.1f}"
            f"{t.per_second(t.actions):>13,.0f}{t.per_second(t.deals):>11,.1f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Random playouts per second for every game.")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per game")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random players")
    args = parser.parse_args(argv)

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}, "
        f"{sys.executable}), {os.cpu_count()} cores, {args.seconds:g} CPU s per game"
    )
    entries = []
    for spec in SPECS.values():
        play = our_playout(spec, spec.min_players, random.Random(args.seed))
        entries.append((Tally(spec.id, spec.min_players), play))
    oh_hell = oh_hell_playout(random.Random(args.seed))
    if oh_hell is not None:
        entries.append((Tally(OH_HELL, int(OH_HELL_PARAMS["players"])), oh_hell))
    run_round_robin(entries, args.seconds)
    tallies = {tally.name: tally for tally, _ in entries}
    print(table([tally for tally, _ in entries]))
    print()

    if oh_hell is None:
        print(
            "OpenSpiel is not installed (no pyspiel), so there is no comparison: "
            "./dev bench benchmarks/engines.py installs it with the bench extra."
        )
        return
    params = ", ".join(f"{k}={v}" for k, v in OH_HELL_PARAMS.items())
    print(f"{OH_HELL} is OpenSpiel's C++ game ({params}) driven from Python; a playout is a deal.")
    if "nittionio" in tallies:
        ours, theirs = tallies["nittionio"], tallies[OH_HELL]
        ours_rate, theirs_rate = ours.per_second(ours.deals), theirs.per_second(theirs.deals)
        print(
            f"nittionio / oh_hell, deals per second: {ours_rate:,.0f} / {theirs_rate:,.0f} "
            f"= {ours_rate / theirs_rate:.2f}x"
        )


if __name__ == "__main__":
    main()
