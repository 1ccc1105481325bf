"""The session manager's clock as the Discord face runs it: Discord's notion of now.

``discord.utils.utcnow`` is the wall clock on Discord and the simulated time on SimCord, so
deadlines shown as Discord timestamps and the timers behind them agree in both.

On SimCord (the demo and the end-to-end tests) :class:`SimulatedClock` keeps the session's
timers on the simulated clock alone: a turn deadline, a computer player's press or the close of a
reaction window falls due when SimCord's time is moved past it (``advance_time``), never because
the machine was slow, so SimCord's settling waits for the bot's work and for nothing else.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import discord

from bot.clock import SystemClock, Timer, TimerCallback

log = logging.getLogger(__name__)


class DiscordClock(SystemClock):
    """Event-loop timers on Discord's time."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()


class Simulation(Protocol):
    """What :class:`SimulatedClock` needs of SimCord's ``Env``."""

    async def external_wait(self, awaitable: Any, *, reason: str) -> Any: ...


class _TaskTimer:
    """A timer waiting in a task of its own: cancelled, it never fires; once fired, its callback
    runs to the end (as an event loop's timer does), even if the callback cancels it."""

    __slots__ = ("fired", "task")

    def __init__(self) -> None:
        self.task: asyncio.Task[None] | None = None
        self.fired = False

    def cancel(self) -> None:
        if self.task is not None and not self.fired:
            self.task.cancel()


class SimulatedClock(DiscordClock):
    """Timers that fall due on SimCord's simulated clock only, once :meth:`attach` names the
    simulation (before that, and for timers set outside the bot's own work, as on Discord).

    SimCord lets a timer due within its settle time fire by the wall clock too, so a settle
    would race the machine: a reaction window closes, or not, depending on how busy the CPU is.
    A timer here is a wait the bot declares external: it resumes only when the simulated time
    reaches it, and a settle joins the work without waiting for it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.simulation: Simulation | None = None

    def attach(self, simulation: Simulation) -> None:
        self.simulation = simulation

    async def sleep(self, seconds: float) -> None:
        simulation = self.simulation
        if simulation is None:
            await asyncio.sleep(seconds)
            return
        from simcord import SetupError

        try:
            await simulation.external_wait(
                asyncio.sleep(seconds), reason="a pause on the simulated clock"
            )
        except SetupError:  # outside the bot's own work: SimCord's usual timer
            await asyncio.sleep(seconds)

    def call_at(self, when: float, callback: TimerCallback) -> Timer:
        simulation = self.simulation
        if simulation is None:
            return super().call_at(when, callback)
        from simcord import SetupError

        delay = max(0.0, when - self.now())
        timer = _TaskTimer()

        async def later() -> None:
            if delay > 0:
                try:
                    await simulation.external_wait(
                        asyncio.sleep(delay), reason="a session timer on the simulated clock"
                    )
                except SetupError:  # set outside the bot's own work: SimCord's usual timer
                    await asyncio.sleep(delay)
            timer.fired = True
            try:
                await callback()
            except Exception:
                log.exception("timer callback failed")

        task = timer.task = asyncio.get_running_loop().create_task(later(), name="session timer")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return timer
