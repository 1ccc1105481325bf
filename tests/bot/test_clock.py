"""The manual clock that tests and benchmarks run the session manager on."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.clock import ManualClock


def noting(fired: list[object], what: object) -> Callable[[], Awaitable[None]]:
    async def callback() -> None:
        fired.append(what)

    return callback


async def test_timers_fire_in_time_order_and_a_cancelled_one_never() -> None:
    clock = ManualClock(0.0)
    fired: list[object] = []
    clock.call_at(3.0, noting(fired, "late"))
    cancelled = clock.call_at(1.0, noting(fired, "cancelled"))
    clock.call_at(2.0, noting(fired, "early"))
    cancelled.cancel()
    await clock.advance(5.0)
    assert fired == ["early", "late"]
    assert clock.pending() == 0


async def test_cancelled_timers_leave_the_queue_as_the_event_loops_do() -> None:
    """A deadline set again at every action cancels the one before: a run of many actions keeps
    only the timers that may still fire (and what they hold), not every one ever set."""
    clock = ManualClock(0.0)
    fired: list[object] = []
    live = clock.call_at(10.0, noting(fired, -1))
    for n in range(10_000):
        live.cancel()
        live = clock.call_at(10.0 + n, noting(fired, n))
    assert clock.pending() == 1
    assert len(clock._queue) <= 2 * ManualClock.PURGE_AT + 2
    await clock.advance(20_000.0)
    assert fired == [9_999]


async def test_a_timer_cancelled_after_it_fired_changes_nothing() -> None:
    clock = ManualClock(0.0)
    fired: list[object] = []
    callback = noting(fired, 1)
    timers = [clock.call_at(1.0, callback) for _ in range(3 * ManualClock.PURGE_AT)]
    await clock.advance(1.0)
    for timer in timers:
        timer.cancel()  # already fired: the queue is empty, nothing to purge
    later = clock.call_at(2.0, callback)
    assert clock.pending() == 1
    await clock.advance(1.0)
    assert len(fired) == 3 * ManualClock.PURGE_AT + 1
    later.cancel()
