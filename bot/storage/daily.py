"""What ``Storage`` keeps for the deals of the day (``bot.daily``): each server's choices, each
day's seed per game and when its deal ends, and who played which deal at which table.

A part of ``Storage`` (one of its bases), in a module of its own; the only SQL about the deals of
the day. A member's result is the table's own result row, so nothing here can disagree with it.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from bot.storage.sql import Connection

log = logging.getLogger(__name__)

DEFAULT_TIME_ZONE = "Europe/Stockholm"


@dataclass(frozen=True)
class DailySettings:
    """A server's choices for the deals of the day."""

    guild_id: int
    games: tuple[str, ...] = ()
    """The games with a deal of the day; empty: every game that has one."""
    channel_id: int | None = None
    """Where each day's board is posted when the day is over; None: nowhere."""
    time_zone: str = DEFAULT_TIME_ZONE
    posted_day: str | None = None
    """The last day (YYYY-MM-DD) whose board was posted."""


@dataclass(frozen=True)
class DailyPlay:
    """A member's play of a deal of the day, with the table's result for them (None until it
    finished; a table ended without a result keeps None)."""

    day: str
    game_id: str
    user_id: int
    name: str
    table_id: int | None
    score: int | None
    place: int | None
    status: str | None = None
    """The table's status (``finished``, ``ended`` when left unfinished, or still live); None
    while it is being opened."""


class DailyStore(ABC):
    """Settings, seeds and plays of the deals of the day."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]: ...

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]: ...

    async def daily_settings(self, guild_id: int) -> DailySettings:
        async with self._read() as db:
            row = await db.fetchrow("SELECT * FROM daily_settings WHERE guild_id = ?", guild_id)
        if row is None:
            return DailySettings(guild_id)
        try:
            games = tuple(str(g) for g in json.loads(row["games"]))
        except (ValueError, TypeError) as error:
            log.warning("guild %d: unreadable games of the day, all of them: %s", guild_id, error)
            games = ()
        channel = row["channel_id"]
        return DailySettings(
            guild_id=guild_id,
            games=games,
            channel_id=None if channel is None else int(channel),
            time_zone=str(row["time_zone"]),
            posted_day=None if row["posted_day"] is None else str(row["posted_day"]),
        )

    async def save_daily_settings(self, settings: DailySettings) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO daily_settings (guild_id, games, channel_id, time_zone, posted_day)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " games = excluded.games, channel_id = excluded.channel_id,"
                " time_zone = excluded.time_zone, posted_day = excluded.posted_day",
                settings.guild_id,
                json.dumps(list(settings.games)),
                settings.channel_id,
                settings.time_zone,
                settings.posted_day,
            )

    async def posting_guilds(self) -> list[DailySettings]:
        """Every server that has its day's board posted in a channel."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT guild_id FROM daily_settings WHERE channel_id IS NOT NULL ORDER BY guild_id"
            )
        return [await self.daily_settings(int(row["guild_id"])) for row in rows]

    async def daily_deal(
        self, guild_id: int, day: str, game_id: str, fresh: int, ends: float
    ) -> tuple[int, float | None]:
        """The seed of the day's deal of ``game_id`` on the server and when the deal ends:
        ``fresh`` and ``ends`` if it is the first asked for, else what every member before got
        (whatever the server's time zone is now). The end is None for a deal dealt before ends
        were kept."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO daily_deals (guild_id, day, game_id, seed, ends_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, game_id) DO NOTHING",
                guild_id,
                day,
                game_id,
                fresh,
                ends,
            )
            row = await db.fetchrow(
                "SELECT seed, ends_at FROM daily_deals"
                " WHERE guild_id = ? AND day = ? AND game_id = ?",
                guild_id,
                day,
                game_id,
            )
        assert row is not None
        return int(row["seed"]), None if row["ends_at"] is None else float(row["ends_at"])

    async def claim_daily(
        self, guild_id: int, day: str, game_id: str, user_id: int, name: str, at: float
    ) -> bool:
        """Notes that the member plays the day's deal of ``game_id``; False (and nothing
        changed) if they already did, at whatever table."""
        async with self._write() as db:
            added = await db.execute(
                "INSERT INTO daily_plays (guild_id, day, game_id, user_id, name, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, day, game_id, user_id)"
                " DO NOTHING",
                guild_id,
                day,
                game_id,
                user_id,
                name,
                at,
            )
        return added == 1

    async def daily_table(
        self, guild_id: int, day: str, game_id: str, user_id: int, table_id: int | None
    ) -> None:
        """The table a claimed play is at; None gives the claim up (its table never opened, or
        Discord never showed it)."""
        async with self._write() as db:
            if table_id is None:
                await db.execute(
                    "DELETE FROM daily_plays WHERE guild_id = ? AND day = ? AND game_id = ?"
                    " AND user_id = ?",
                    guild_id,
                    day,
                    game_id,
                    user_id,
                )
                return
            await db.execute(
                "UPDATE daily_plays SET table_id = ? WHERE guild_id = ? AND day = ?"
                " AND game_id = ? AND user_id = ?",
                table_id,
                guild_id,
                day,
                game_id,
                user_id,
            )

    async def daily_plays(self, guild_id: int, first: str, last: str) -> list[DailyPlay]:
        """Every play of a deal of the day on the server from day ``first`` to ``last``
        (YYYY-MM-DD, both included), with the member's result where the table finished."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT p.day, p.game_id, p.user_id, p.name, p.table_id, r.score, r.place,"
                " t.status FROM daily_plays p LEFT JOIN results r"
                " ON r.table_id = p.table_id AND r.user_id = p.user_id"
                " LEFT JOIN tables t ON t.table_id = p.table_id"
                " WHERE p.guild_id = ? AND p.day >= ? AND p.day <= ?"
                " ORDER BY p.day, p.game_id, p.started_at, p.user_id",
                guild_id,
                first,
                last,
            )
        return [
            DailyPlay(
                day=str(row["day"]),
                game_id=str(row["game_id"]),
                user_id=int(row["user_id"]),
                name=str(row["name"]),
                table_id=None if row["table_id"] is None else int(row["table_id"]),
                score=None if row["score"] is None else int(row["score"]),
                place=None if row["place"] is None else int(row["place"]),
                status=None if row["status"] is None else str(row["status"]),
            )
            for row in rows
        ]

    async def days_played(self, guild_id: int, user_id: int) -> list[str]:
        """The days (YYYY-MM-DD) on which the member finished a deal of the day, latest first
        (a deal left unfinished does not count)."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT DISTINCT p.day FROM daily_plays p JOIN results r"
                " ON r.table_id = p.table_id AND r.user_id = p.user_id"
                " WHERE p.guild_id = ? AND p.user_id = ? ORDER BY p.day DESC",
                guild_id,
                user_id,
            )
        return [str(row["day"]) for row in rows]
