"""Where computer players think: off the event loop, searches in worker processes.

``Thinker.choose`` is what the session manager awaits for a computer player's move. The ``hard``
level searches (:class:`games.ai.search.SearchPlayer`), which is CPU work that threads cannot take
off the event loop under the GIL, so it runs in a pool of worker processes (``workers``, started
when the first search is asked for) with a wall-clock budget per decision (``seconds``) and a cap
in samples (``iterations``). One decision's samples are shared by all the workers (each searches
its share of the same candidates with its own seed, and their statistics are pooled), so on two
workers a decision takes half the time. The budget is a deadline on the machine's monotonic
clock, fixed when the decision is asked for, so time spent waiting for a free worker counts
against it and no decision takes much longer than its budget however many tables are thinking.

Nothing is lost when a search fails: a worker that dies (killed, out of memory) is replaced by a
fresh pool, a search that overruns its budget by ``GRACE_SECONDS`` is abandoned, and in both cases
the decision is made by the rule-based player, in a thread. The other levels are cheap and run in
a thread. With ``workers`` 0 searches run in a thread too (the tests, and machines that cannot
start processes).

A table whose members compare results (a table of the day) asks instead for a decision bounded by
a count of playouts (``playouts``), never by the clock: the search is split into ``SHARES`` shares
whatever the number of workers (run on the workers, or one after the other in a thread), each
seeded from the decision's seed, and pooled in a fixed order; no deadline abandons it and a
worker that dies has its search made again in a thread. So the move is a function of the
position, the seed and the count alone, the same on a loaded machine as on an idle one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import random
import time
from concurrent.futures.process import BrokenProcessPool

from games import ai
from games.ai.search import SearchStats, search_part
from games.core import Action, Game, Seat

log = logging.getLogger(__name__)

GRACE_SECONDS = 5.0
"""How long past its budget a search may take before it is abandoned (a worker that is
starting, or a playout stuck in a slow engine)."""
SEARCH_KINDS = frozenset({"hard"})
SHARES = 2
COUNTED_PLAYOUTS = 1000
"""The playouts of a decision bounded by count alone, unless the settings say otherwise."""
"""How many shares a search bounded by a count of playouts is split into, whatever the workers."""
"""The kinds of computer player that search, and so think in a worker process."""


def search_player(seconds: float, iterations: int, deadline: float | None = None) -> ai.Player:
    """A ``hard`` player that stops at ``iterations`` samples or at ``deadline`` (monotonic
    seconds; default ``seconds`` from now), whichever comes first."""
    until = time.monotonic() + seconds if deadline is None else deadline
    return ai.SearchPlayer(iterations=iterations, stop=lambda: time.monotonic() >= until)


def _search(game: Game, seat: Seat, seed: int, deadline: float, iterations: int) -> Action:
    """The move of a search in one thread or process (a module function, so it can be pickled)."""
    player = search_player(0.0, iterations, deadline)
    return ai.choose(game, seat, player, random.Random(seed))


def _plan(game: Game, seat: Seat, seed: int) -> tuple[Action, tuple[Action, ...]]:
    """The rule-based move and the candidates a search shared by the workers weighs."""
    return ai.SearchPlayer().plan(ai.decision_for(game, seat), random.Random(seed))


def _share(
    game: Game,
    seat: Seat,
    plan: tuple[Action, tuple[Action, ...]],
    seed: int,
    deadline: float | None,
    iterations: int,
) -> SearchStats:
    """One worker's share of a search: its samples of the planned candidates, until the deadline
    (None: all ``iterations`` of them, whatever the time)."""
    prior, actions = plan
    if deadline is None:
        return search_part(game, seat, actions, prior, iterations, seed)
    return search_part(
        game, seat, actions, prior, iterations, seed, lambda: time.monotonic() >= deadline
    )


def _counted_search(game: Game, seat: Seat, seed: int, playouts: int) -> Action:
    """A search bounded by ``playouts`` alone, its ``SHARES`` shares one after the other (in a
    thread): the same move as the shares run on workers and pooled."""
    plan = _plan(game, seat, seed)
    prior, actions = plan
    if len(actions) == 1:
        return prior
    share = _share_size(playouts)
    parts = [_share(game, seat, plan, seed + k, None, share) for k in range(SHARES)]
    return SearchStats.merge(parts).choice(prior)


def _share_size(playouts: int) -> int:
    return max(2, playouts // SHARES)


def _warm() -> int:
    """Load the games in a fresh worker, so its first search spends its budget searching."""
    from games.registry import SPECS

    return len(SPECS)


def _choose(game: Game, seat: Seat, kind: str, seed: int) -> Action:
    return ai.choose(game, seat, kind, random.Random(seed))


class Thinker:
    """Makes computer players' decisions without blocking the event loop (see the module)."""

    def __init__(
        self,
        *,
        workers: int = 2,
        seconds: float = 1.0,
        iterations: int = 5000,
        counted_playouts: int = COUNTED_PLAYOUTS,
    ) -> None:
        self.workers = workers
        self.seconds = seconds
        self.iterations = iterations
        self.counted_playouts = counted_playouts
        """The count of playouts a decision bounded by count alone is given (a table of the
        day's, ``SessionManager`` passes it as ``playouts``)."""
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.replaced = 0
        """How many times a broken pool was replaced (for logs and tests)."""
        self.fallbacks = 0
        """How many decisions fell back to the rule-based player."""

    async def choose(
        self, game: Game, seat: Seat, kind: str, seed: int, *, playouts: int | None = None
    ) -> Action:
        """``seat``'s move in ``game`` (a copy the caller does not change meanwhile); with
        ``playouts``, a search bounded by that count alone, never by the clock (see the module)."""
        if playouts is not None:
            return await self._counted(game, seat, kind, seed, playouts)
        if kind not in SEARCH_KINDS:
            return await asyncio.to_thread(_choose, game, seat, kind, seed)
        deadline = time.monotonic() + self.seconds
        if self.workers <= 0:
            return await asyncio.to_thread(_search, game, seat, seed, deadline, self.iterations)
        try:
            return await asyncio.wait_for(
                self._shared_search(game, seat, seed, deadline), self.seconds + GRACE_SECONDS
            )
        except BrokenProcessPool:
            log.warning(
                "a search worker died; the pool is replaced and the rule-based player moves"
            )
            self._replace()
        except TimeoutError:
            log.warning(
                "a search overran its budget of %.1f s; the rule-based player moves", self.seconds
            )
        except Exception:
            log.exception("a search failed; the rule-based player moves")
        self.fallbacks += 1
        return await asyncio.to_thread(_choose, game, seat, ai.DEFAULT_LEVEL, seed)

    async def _counted(self, game: Game, seat: Seat, kind: str, seed: int, playouts: int) -> Action:
        """A decision that is a function of the position, ``seed`` and ``playouts`` alone."""
        if kind not in SEARCH_KINDS:
            return await asyncio.to_thread(_choose, game, seat, kind, seed)
        if self.workers <= 0:
            return await asyncio.to_thread(_counted_search, game, seat, seed, playouts)
        plan = await asyncio.to_thread(_plan, game, seat, seed)
        prior, actions = plan
        if len(actions) == 1:
            return prior
        share = _share_size(playouts)
        try:
            pool = self._executor()
            futures = [
                asyncio.wrap_future(pool.submit(_share, game, seat, plan, seed + k, None, share))
                for k in range(SHARES)
            ]
            parts = await asyncio.gather(*futures)
        except BrokenProcessPool:
            log.warning("a search worker died; the pool is replaced and the search made here")
            self._replace()
            return await asyncio.to_thread(_counted_search, game, seat, seed, playouts)
        return SearchStats.merge(parts).choice(prior)

    async def _shared_search(self, game: Game, seat: Seat, seed: int, deadline: float) -> Action:
        """The search split over every worker: each searches its share of the samples of the
        same candidates with its own seed, and the pooled statistics choose the move."""
        plan = await asyncio.to_thread(_plan, game, seat, seed)
        prior, actions = plan
        if len(actions) == 1:
            return prior
        share = max(1, self.iterations // self.workers)
        pool = self._executor()
        futures = [
            asyncio.wrap_future(pool.submit(_share, game, seat, plan, seed + k, deadline, share))
            for k in range(self.workers)
        ]
        parts = await asyncio.gather(*futures)
        return SearchStats.merge(parts).choice(prior)

    def warm(self) -> None:
        """Start the workers now (a host added a ``hard`` player), not at its first decision."""
        if self.workers > 0 and self._pool is None:
            pool = self._executor()
            for _ in range(self.workers):
                pool.submit(_warm)

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": a worker starts from a clean interpreter, never a fork of a process that
            # runs an event loop and threads.
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    def _replace(self) -> None:
        pool, self._pool = self._pool, None
        self.replaced += 1
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers (for tests and health checks)."""
        processes: dict[int, multiprocessing.process.BaseProcess] = (
            getattr(self._pool, "_processes", None) or {}
        )
        return sorted(p.pid for p in processes.values() if p.pid is not None)

    def close(self) -> None:
        """Stop the workers; a search in flight is abandoned."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
