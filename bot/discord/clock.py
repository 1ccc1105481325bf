"""The session manager's clock as the Discord face runs it: Discord's notion of now.

``discord.utils.utcnow`` is the wall clock on Discord and the simulated time on SimCord, so
deadlines shown as Discord timestamps and the timers behind them agree in both.
"""

from __future__ import annotations

import discord

from bot.clock import SystemClock


class DiscordClock(SystemClock):
    """Event-loop timers on Discord's time."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()
