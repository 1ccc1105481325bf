"""The storage's timeout, counted in the time the event loop could have read the database's
answer.

A database's answer reaches a coroutine only when the event loop gets round to it. Under a burst
(thousands of tables whose actions were just committed, each one's follow-up work run before the
next answer is read) the loop may not look for seconds while the database has long answered: a
timeout counted in plain time would take a queue in the loop for a database away. ``LoopWatch``
counts the time the loop was stalled (a heartbeat every ``TICK`` that came ``STALL`` late), and
``within`` leaves that time out: a read or write runs out of time only after ``seconds`` during
which the loop looked and found no answer. With the loop free, that is plain time, so a database
that hangs is found as soon as before; a burst that meets an outage soon stops (everything waits
on the database), and the loop's time counts again.

It knows nothing of databases: it times a block of code, on the machine's own time. Its timers
are set outside the context of the work they time (``_machine_timer``), so a simulation that
moves the bot's own timers on a clock of its own (SimCord, in the tests and the demo) neither
moves them nor is moved by them: a heartbeat that fired while a write took its time on a busy
machine moved SimCord's clock on by a tick, and a member's press counted 50 ms late.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

TICK = 0.05
"""Seconds between heartbeats while anything is timed."""

STALL = 0.25
"""A heartbeat that comes this many seconds or more after the last one ends a stall: the loop
did not look meanwhile, and none of that time counts. A loop that looks more often than that
(however busy) counts all of its time."""


class LoopWatch:
    """How long the event loop was too busy to look, while any block is timed by ``within``."""

    def __init__(self) -> None:
        self._timed = 0
        self._heartbeat: asyncio.TimerHandle | None = None
        self._last = 0.0
        self._stalled = 0.0

    def stalled(self, now: float) -> float:
        """Seconds the loop was stalled so far (while watched), the stall going on included."""
        gap = now - self._last
        return self._stalled + (gap if gap >= STALL else 0.0)

    def _beat(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._stalled = self.stalled(now)
        self._last = now
        self._heartbeat = _machine_timer(loop, TICK, self._beat)

    @asynccontextmanager
    async def within(self, seconds: float) -> AsyncIterator[None]:
        """Raises ``TimeoutError`` out of the block (cancelled) once it ran for ``seconds``, the
        time the loop was stalled meanwhile not counted."""
        loop = asyncio.get_running_loop()
        if self._timed == 0:
            self._last = loop.time()
            self._heartbeat = _machine_timer(loop, TICK, self._beat)
        self._timed += 1
        start = loop.time()
        before = self.stalled(start)
        waiting: list[asyncio.TimerHandle] = []
        try:
            async with asyncio.timeout(None) as timeout:

                def check() -> None:
                    now = loop.time()
                    counted = now - start - (self.stalled(now) - before)
                    if counted >= seconds:
                        timeout.reschedule(now)
                    else:
                        waiting[0] = _machine_timer(loop, seconds - counted, check)

                waiting.append(_machine_timer(loop, seconds, check))
                try:
                    yield
                finally:
                    waiting[0].cancel()
        finally:
            self._timed -= 1
            if self._timed == 0 and self._heartbeat is not None:
                self._heartbeat.cancel()
                self._heartbeat = None


def _machine_timer(
    loop: asyncio.AbstractEventLoop, delay: float, callback: Callable[[], None]
) -> asyncio.TimerHandle:
    """``callback`` after ``delay`` seconds of the loop's own time, set from an empty context:
    none of the context of the work being timed (such as a simulation's mark of the bot's own
    work) goes with it."""
    return contextvars.Context().run(loop.call_later, delay, callback)
