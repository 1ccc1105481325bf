"""Time for the session manager: a clock and a scheduler of timers, real or simulated.

The real one reads the system's time and uses the event loop's timers (the Discord face reads
Discord's notion of now instead, ``bot.discord.clock``); the manual ones let tests move time by
hand, with no sleeps.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

TimerCallback = Callable[[], Awaitable[None]]


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the Unix epoch."""
        ...

    def call_at(self, when: float, callback: TimerCallback) -> Timer:
        """Run ``callback`` (a coroutine function) once ``now() >= when``."""
        ...


class SystemClock:
    """Wall-clock time and event-loop timers."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: TimerCallback) -> Timer:
        loop = asyncio.get_running_loop()

        def fire() -> None:
            task = loop.create_task(_logged(callback))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return loop.call_later(max(0.0, when - self.now()), fire)

    async def sleep(self, seconds: float) -> None:
        """A pause of the process's own (a lease kept fresh, a claim tried again), on this
        clock's time."""
        await asyncio.sleep(seconds)


def machine_timer(seconds: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
    """A timer of the machine's own time, for a watchdog of the process's own speed (an answer
    due to Discord within seconds): set from an empty context, so a simulation that runs the
    bot's timers on a clock of its own (SimCord) neither moves it nor is moved by it."""
    loop = asyncio.get_running_loop()
    return contextvars.Context().run(loop.call_later, seconds, callback)


async def _logged(callback: TimerCallback) -> None:
    try:
        await callback()
    except Exception:
        log.exception("timer callback failed")


class _ManualTimer:
    __slots__ = ("_cancels", "cancelled")

    def __init__(self, cancels: list[int]) -> None:
        self.cancelled = False
        self._cancels = cancels
        """The clock's count of cancelled timers still in its queue (shared by its timers)."""

    def cancel(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self._cancels[0] += 1

    def fired(self) -> None:
        """Out of the queue: cancelling it now counts for nothing."""
        self._cancels = [0]


class ManualClock:
    """Simulated time for tests: nothing happens until ``advance`` is awaited.

    A cancelled timer leaves the queue as the event loop's do: once they are more than half of
    it (and more than ``PURGE_AT``), the queue is rebuilt without them. A long run that sets a
    deadline at every action (a benchmark of thousands of tables) holds only the timers that
    may still fire, as the bot does on the real clock."""

    PURGE_AT = 100

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _ManualTimer, TimerCallback]] = []
        self._order = itertools.count()
        self._cancels = [0]

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: TimerCallback) -> Timer:
        queue = self._queue
        if self._cancels[0] > self.PURGE_AT and 2 * self._cancels[0] > len(queue):
            queue[:] = [entry for entry in queue if not entry[2].cancelled]
            heapq.heapify(queue)
            self._cancels[0] = 0
        timer = _ManualTimer(self._cancels)
        heapq.heappush(queue, (when, next(self._order), timer, callback))
        return timer

    async def advance(self, seconds: float = 0.0) -> None:
        """Move time forward, running every timer that falls due, in time order."""
        target = self._now + seconds
        while self._queue and self._queue[0][0] <= target:
            when, _, timer, callback = heapq.heappop(self._queue)
            self._now = max(self._now, when)
            if timer.cancelled:
                self._cancels[0] -= 1
            else:
                timer.fired()
                await callback()
        self._now = target

    def pending(self) -> int:
        return sum(1 for _, _, t, _ in self._queue if not t.cancelled)
