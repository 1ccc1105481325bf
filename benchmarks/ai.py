"""Computer-player benchmark: the search's time per decision, and duplicate-deal tournaments.

    ./dev bench benchmarks/ai.py                         # the default run, a few minutes
    ./dev bench benchmarks/ai.py --deals 40 --iterations 1000 --workers 2   # a longer one
    ./dev bench benchmarks/ai.py --games nittionio braus --skip-tournament
    ./dev bench benchmarks/ai.py --skip-decision-time --games femkort --pairs hard:hard-unweighted
    ./dev bench benchmarks/ai.py --skip-decision-time --games snipp_snapp_snorum --players 4
    ./dev bench benchmarks/ai.py --caps --matches 500    # safety caps reached, nothing else

1. **Decision time** in a Nittionio mid-deal position (a seat to play a card in the third trick):
   the ``hard`` player's search of 1,000 samples as it plays (the first moves of each playout by
   the rule-based player, samples weighted by the others' plays) in this process, and shared by
   two worker processes as the bot runs it (500 samples each, statistics pooled); the same search
   with purely random playouts in one and in two processes; and beside them in the same run the
   same count of bare random playouts (determinize, then random legal actions to the end of the
   deal) and of random playouts of the whole match. Goal: 1,000 samples in at most 100 ms.
2. **Tournaments** per registered game: the same deals (matches from the same seeds) are played
   with the seats rotated so each level sits in every seat (partners as one side;
   :mod:`games.ai.duplicate`). For hard vs normal and normal vs random (or the ``--pairs``
   asked for) it prints the mean advantage per deal of the first over the second, in places (a
   place better in every match of a deal is +1 in a two-player game) and in points per deal of
   cards, each with its 95% interval, and the deals played. ``hard`` here searches
   ``--iterations`` samples per decision (no clock), so a run is reproducible.

Two games leave ``hard`` nothing to be better at than ``normal``, by their rules, so its advantage
there is zero within the interval whatever the search does:

- **Svarte Petter**: a seat's only choices are which position of the next player's face-down fan
  to draw from, and whether to shuffle its own fan first. Every fan is in random order (dealt
  shuffled, each drawn card put at a random place, a shuffle a random order) and the drawer's view
  shows only how many cards the fan holds, so every position holds each of the fan's cards with
  the same chance whatever the drawer knows: the legal draws are indistinguishable to the drawer
  and no way of choosing does better than another (normal vs random is zero there too).
- **Snipp snapp snorum with two players**: nothing is hidden (each hand is the other's complement,
  less the ranks set aside) and the only choice is the rank to lead. A rank both hold passes the
  lead (the other plays the rest of it and leads next), four of a kind keeps it, and the first
  empty hand wins. So the leads of the shared ranks alternate and who leads the last one is fixed
  by the deal: that player wins, provided he has led his fours before it. The rule-based player
  leads its fours first, so it always plays a best lead. Checked on the engine: at each of the 356
  decisions met along random lines of play through 30 deals, every lead solved exhaustively, its
  lead was a winning one whenever one existed; a test does the same in positions of six ranks or
  fewer.

3. **Safety caps** (``--caps``, instead of the two above): for each game that has a safety cap
   (Skitgubbe's 2,000 phase-two actions, Hej knekt's ``max_turns``, Svarte Petter's draw cap),
   every preset and every level (``easy``, ``normal``, and ``hard`` searching ``--iterations``
   samples, a small budget), ``--matches`` matches from seeds 0, 1, 2, ... with that level in
   every seat, and how many of them the cap stopped. Goal: none; a game ends by its rules.

Timings are wall-clock medians of ``--repeat`` runs; a tournament's ``work s`` is the seconds its
deals took in the workers (wall clock, so a busy machine makes it larger). Deals are spread over
``--workers`` processes.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from games import ai
from games.ai.base import Decision, Player, decision_for
from games.ai.duplicate import Outcome, Summary, duplicate_outcome, react, summarize
from games.ai.search import FINE_PLAYOUTS, SearchPlayer, SearchStats, search_part, sides_of
from games.cards import randbelow
from games.core import Action, Game
from games.registry import SPECS

DECISION_SAMPLES = 1000


# --- decision time ----------------------------------------------------------------------------


def nittionio_mid_deal(seed: int = 5) -> tuple[Game, int]:
    """A Nittionio match in its first deal's trick play, two tricks in: (match, seat to act)."""
    game = SPECS["nittionio"].new(3, rng=random.Random(seed))
    rng = random.Random(seed)
    while True:
        seat = min(game.to_act())
        view = game.view(None)
        if (
            view.phase.key == "nittionio.phase.tricks"
            and sum(s.tricks or 0 for s in view.seats) == 2
        ):
            return game, seat
        game.apply(seat, ai.choose(game, seat, "normal", rng))


def random_playouts(decision: Decision, count: int, whole_match: bool, seed: int) -> None:
    """``count`` bare playouts: a re-deal, then random legal actions to the end of the deal (the
    search's own playout, without choosing among candidates) or of the whole match."""
    rng = random.Random(seed)
    player = SearchPlayer(iterations=count, guided_actions=0)
    player.deal_seen_at, player.fine_playouts = player.playout_actions, FINE_PLAYOUTS
    scores = tuple(s.score for s in decision.view.seats)
    sides = sides_of(decision)
    for _ in range(count):
        world = decision.determinize(rng)
        if not whole_match:
            player.playout(world, rng, decision.view.deal, scores, sides, 0, 1)
            continue
        while acting := world.to_act():
            ordered = sorted(acting)
            seat = ordered[randbelow(rng, len(ordered))]
            legal = world.legal_actions(seat)
            world.apply(seat, legal[randbelow(rng, len(legal))])


def split_search(
    pool: concurrent.futures.ProcessPoolExecutor,
    game: Game,
    seat: int,
    samples: int,
    seed: int,
    guided: bool,
) -> Action:
    """The search as ``hard`` plays it (``guided``) or with random playouts, shared by the
    pool's two workers: the candidates are chosen here, each worker searches half the samples,
    and the pooled statistics choose (:meth:`SearchStats.merge`)."""
    player = SearchPlayer(iterations=samples, guided_actions=None if guided else 0)
    decision = decision_for(game, seat)
    prior, actions = player.plan(decision, random.Random(seed))
    if len(actions) == 1:
        return prior
    parts = [
        pool.submit(_part, game, seat, actions, prior, samples // 2, seed + k, guided)
        for k in range(2)
    ]
    return SearchStats.merge([part.result() for part in parts]).choice(prior)


def _part(
    game: Game,
    seat: int,
    actions: tuple[Action, ...],
    prior: Action,
    samples: int,
    seed: int,
    guided: bool,
) -> SearchStats:
    if guided:
        return search_part(game, seat, actions, prior, samples, seed)
    player = SearchPlayer(iterations=samples, guided_actions=0)
    return player.search(decision_for(game, seat), actions, prior, random.Random(seed))


def timed(run: Callable[[], object], repeat: int) -> float:
    """The median wall-clock seconds of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def decision_times(repeat: int) -> None:
    game, seat = nittionio_mid_deal()
    decision = decision_for(game, seat)
    n = DECISION_SAMPLES
    print(f"Nittionio, first deal, seat {seat} to play in the third trick; {n} samples per row.")
    rows: list[tuple[str, float]] = []
    player = SearchPlayer(iterations=n)
    ai.choose(game, seat, player, random.Random(0))  # warm: the game's score direction is read once
    rows.append(
        (
            "hard as played: search, guided playouts",
            timed(lambda: ai.choose(game, seat, player, random.Random(1)), repeat),
        )
    )
    fast = SearchPlayer(iterations=n, guided_actions=0)
    rows.append(
        (
            "search, random playouts, 1 process",
            timed(lambda: ai.choose(game, seat, fast, random.Random(1)), repeat),
        )
    )
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        split_search(pool, game, seat, 16, 0, True)  # start and warm both workers
        split_search(pool, game, seat, 16, 0, True)
        rows.insert(
            1,
            (
                "hard as played, 2 processes",
                timed(lambda: split_search(pool, game, seat, n, 1, True), repeat),
            ),
        )
        rows.append(
            (
                "search, random playouts, 2 processes",
                timed(lambda: split_search(pool, game, seat, n, 1, False), repeat),
            )
        )
    rows.append(
        (
            "bare random playouts to the deal's end",
            timed(lambda: random_playouts(decision, n, False, 1), repeat),
        )
    )
    rows.append(
        (
            "bare random playouts of the whole match",
            timed(lambda: random_playouts(decision, n, True, 1), repeat),
        )
    )
    width = max(len(name) for name, _ in rows)
    print(f"{'':{width}}  {'ms/decision':>11}  {'µs/sample':>9}")
    for name, seconds in rows:
        print(f"{name:{width}}  {seconds * 1000:11.1f}  {seconds * 1e6 / n:9.0f}")
    assert player.last is not None
    cards = len(player.last.actions)
    print(f"(goal: {n} samples in at most 100 ms; the search chose among {cards} cards)")


# --- tournaments --------------------------------------------------------------------------------


def _make(kind: str, iterations: int) -> Callable[[], Player]:
    if kind == "hard":
        return lambda: SearchPlayer(iterations=iterations)
    if kind == "hard-unweighted":
        return lambda: SearchPlayer(iterations=iterations, weighting=False)
    if kind == "hard-guided":
        return lambda: SearchPlayer(iterations=iterations, guided_actions=GUIDED_THROUGHOUT)
    return lambda: ai.make_player(kind)


GUIDED_THROUGHOUT = 10_000
KINDS = (*ai.PLAYER_KINDS, "hard-unweighted", "hard-guided")
"""The kinds a tournament pairs: the registered ones; ``hard-unweighted``, the search with every
sample weighing the same (to measure the weighting by the others' play); ``hard-guided``, the
search whose playouts are the rule-based player's from start to end (slower, to measure what the
random part of the playouts costs)."""


def _deal(
    game_id: str, players: int, seed: int, a: str, b: str, iterations: int
) -> tuple[Outcome, float]:
    """One duplicate deal in a worker: (advantage of ``a`` over ``b``, seconds)."""
    start = time.perf_counter()
    outcome = duplicate_outcome(
        SPECS[game_id], players, seed, _make(a, iterations), _make(b, iterations)
    )
    return outcome, time.perf_counter() - start


PAIRS = (("hard", "normal"), ("normal", "random"))


def tournaments(
    games: Sequence[str],
    deals: int,
    iterations: int,
    workers: int,
    seed: int,
    pairs: Sequence[tuple[str, str]] = PAIRS,
    players: int | None = None,
) -> None:
    """``players`` at every table (each game's fewest when None)."""
    counts = {g: players or SPECS[g].min_players for g in games}
    print()
    print(
        f"Duplicate deals: {deals} per game and pair, seats rotated; hard searches {iterations} "
        "samples per decision."
    )
    print(
        "Advantage of the first over the second, mean per duplicate deal with its 95% interval"
        " (* = ahead at 95%):\n  places: places better in the match (+1: a place better in"
        " every rotation);\n  pts/deal: points gained beyond the others' per deal of cards"
        " (points against count negative)."
    )
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=max(workers, 1), mp_context=context
    ) as pool:
        futures = {
            (game_id, pair): [
                pool.submit(_deal, game_id, counts[game_id], seed + d, *pair, iterations)
                for d in range(deals)
            ]
            for game_id in games
            for pair in pairs
        }
        width = 2 * CELL + 2
        print(
            f"{'':20} {'':>7}  "
            + "  ".join(f"{a + ' vs ' + b:^{width}}" for a, b in pairs)
            + f"  {'':>5}  {'':>6}"
        )
        print(
            f"{'game':20} {'players':>7}  "
            + "  ".join(f"{'places':>{CELL}}  {'pts/deal':>{CELL}}" for _ in pairs)
            + f"  {'deals':>5}  {'work s':>6}"
        )
        for game_id in games:
            cells = []
            cpu = 0.0
            for pair in pairs:
                results = [f.result() for f in futures[(game_id, pair)]]
                cpu += sum(s for _, s in results)
                cells.append(_cell(summarize([o.places for o, _ in results])))
                cells.append(_cell(summarize([o.points for o, _ in results])))
            print(
                f"{game_id:20} {counts[game_id]:7}  "
                + "  ".join(f"{c:>{CELL}}" for c in cells)
                + f"  {deals:5}  {cpu:6.0f}",
                flush=True,
            )


CELL = 16


def _cell(summary: Summary) -> str:
    mark = "*" if summary.significant else " "
    digits = 2 if abs(summary.mean) < 10 else 1 if abs(summary.mean) < 100 else 0
    return f"{summary.mean:+.{digits}f} ± {summary.half_width:.{digits}f} {mark}"


# --- safety caps --------------------------------------------------------------------------------

CAP_EVENTS = {
    "skitgubbe": "skitgubbe.event.cap",
    "hej_knekt": "hej_knekt.event.cap",
    "svarte_petter": "svarte_petter.event.draw_cap",
}
"""The games that stop at a safety cap, and the event that says a match was stopped by it."""
CAP_LEVELS = ("easy", "normal", "hard")
CAP_ITERATIONS = 8
"""hard's samples per decision in ``--caps`` unless ``--iterations`` says otherwise."""


def capped_match(
    game_id: str, preset: str, players: int, level: str, seed: int, iterations: int
) -> bool:
    """One match from ``seed`` with ``level`` in every seat (in a worker): whether the safety cap
    stopped it."""
    spec = SPECS[game_id]
    game = spec.new(players, spec.preset(preset), rng=random.Random(seed))
    seated = [_make(level, iterations)() for _ in range(players)]
    rng = random.Random(seed * 1009 + 7)
    while acting := sorted(game.to_act()):
        if spec.realtime and react(game, acting, seated, rng):
            continue
        seat = acting[randbelow(rng, len(acting))]
        game.apply(seat, ai.choose(game, seat, seated[seat], rng))
    return any(e.key == CAP_EVENTS[game_id] for e in game.view(None).events)


def caps(
    games: Sequence[str], matches: int, iterations: int, workers: int, players: int | None
) -> None:
    """The table of safety caps reached (see the module docstring, 3)."""
    chosen = [g for g in games if g in CAP_EVENTS]
    print()
    print(
        f"Safety caps reached: {matches} matches per game, preset and level (seeds 0-"
        f"{matches - 1}), the level in every seat; hard searches {iterations} samples."
    )
    print(f"{'game':14} {'players':>7}  {'preset':16}" + "".join(f"{x:>8}" for x in CAP_LEVELS))
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=max(workers, 1), mp_context=context
    ) as pool:
        for game_id in chosen:
            count = players or SPECS[game_id].min_players
            for preset in ("standard", *[p for p in SPECS[game_id].presets if p != "standard"]):
                futures = {
                    level: [
                        pool.submit(capped_match, game_id, preset, count, level, seed, iterations)
                        for seed in range(matches)
                    ]
                    for level in CAP_LEVELS
                }
                cells = [sum(f.result() for f in futures[level]) for level in CAP_LEVELS]
                print(
                    f"{game_id:14} {count:7}  {preset:16}" + "".join(f"{c:8}" for c in cells),
                    flush=True,
                )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Search time per decision and duplicate-deal tournaments."
    )
    parser.add_argument(
        "--games", nargs="*", default=list(SPECS), help="game ids (default: every registered game)"
    )
    parser.add_argument(
        "--deals", type=int, default=4, help="duplicate deals per game and pair (default 4)"
    )
    parser.add_argument(
        "--iterations",
        type=int,
        help=f"hard's samples per decision (default 100 in the tournaments, {CAP_ITERATIONS} in"
        " --caps)",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="processes playing the deals (default 2)"
    )
    parser.add_argument(
        "--repeat", type=int, default=5, help="timed runs per decision-time row (default 5)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument(
        "--players", type=int, help="players at every table (default: each game's fewest)"
    )
    parser.add_argument("--skip-tournament", action="store_true", help="only the decision time")
    parser.add_argument(
        "--caps",
        action="store_true",
        help="only the safety caps reached, per game with a cap, preset and level",
    )
    parser.add_argument(
        "--matches", type=int, default=100, help="matches per row of --caps (default 100)"
    )
    parser.add_argument("--skip-decision-time", action="store_true", help="only the tournaments")
    parser.add_argument(
        "--pairs",
        nargs="*",
        default=[f"{a}:{b}" for a, b in PAIRS],
        help="pairs a:b to play (default hard:normal normal:random; kinds: "
        + ", ".join(KINDS)
        + ")",
    )
    args = parser.parse_args(argv)
    pairs = [tuple(p.split(":", 1)) for p in args.pairs]
    bad = [p for p in args.pairs if p.count(":") != 1 or not set(p.split(":")) <= set(KINDS)]
    if bad:
        parser.error(f"bad pairs {', '.join(bad)} (a:b with kinds {', '.join(KINDS)})")
    unknown = [g for g in args.games if g not in SPECS]
    if unknown:
        parser.error(f"unknown games {', '.join(unknown)} (games: {', '.join(SPECS)})")
    if args.players is not None:
        outside = [
            g
            for g in args.games
            if not SPECS[g].min_players <= args.players <= SPECS[g].max_players
        ]
        if outside:
            parser.error(f"{', '.join(outside)} cannot be played by {args.players}")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    if args.caps:
        iterations = CAP_ITERATIONS if args.iterations is None else args.iterations
        caps(args.games, args.matches, iterations, args.workers, args.players)
        return
    if not args.skip_decision_time:
        decision_times(args.repeat)
    if not args.skip_tournament:
        tournaments(
            args.games,
            args.deals,
            100 if args.iterations is None else args.iterations,
            args.workers,
            args.seed,
            [(a, b) for a, b in pairs],
            args.players,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
