"""What ``Storage`` keeps so that anyone can check a deal: the fingerprint each deal showed when
it started, and the reads ``/spel verifiera`` and ``kortbord verify`` make (a finished table's
result, the latest match of a channel).

A part of ``Storage`` (it is one of its bases), kept in a module of its own; the only SQL about
deals' fingerprints.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from bot.storage.sql import Connection


@dataclass(frozen=True)
class SeatResult:
    """One seat's line of a finished table's result as stored."""

    seat: int
    user_id: int | None
    score: int
    place: int


class DealStore(ABC):
    """The deals' fingerprints and the reads that check a match."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]: ...

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]: ...

    async def record_deal_print(
        self, table_id: int, deal: int, fingerprint: str, at: float
    ) -> None:
        """Keeps the fingerprint deal ``deal`` of the table showed; the first one kept stays
        (a restart that shows the deal again changes nothing)."""
        async with self._write() as db:
            await db.execute(
                "INSERT INTO deal_prints (table_id, deal, fingerprint, shown_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, deal) DO NOTHING",
                table_id,
                deal,
                fingerprint,
                at,
            )

    async def deal_prints(self, table_id: int) -> dict[int, str]:
        """The fingerprint each deal of the table showed, by deal number."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT deal, fingerprint FROM deal_prints WHERE table_id = ? ORDER BY deal",
                table_id,
            )
        return {int(row["deal"]): str(row["fingerprint"]) for row in rows}

    async def table_result(self, table_id: int) -> list[SeatResult]:
        """A finished table's result, seat by seat; empty if it has none."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT seat, user_id, score, place FROM results WHERE table_id = ? ORDER BY seat",
                table_id,
            )
        return [
            SeatResult(
                int(row["seat"]),
                None if row["user_id"] is None else int(row["user_id"]),
                int(row["score"]),
                int(row["place"]),
            )
            for row in rows
        ]

    async def latest_over(self, channel_id: int) -> int | None:
        """The id of the latest table played in a channel (or in a thread of it) that is over:
        finished or ended."""
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT table_id FROM tables WHERE (channel_id = ? OR thread_id = ?)"
                " AND status IN ('finished', 'ended') ORDER BY table_id DESC LIMIT 1",
                channel_id,
                channel_id,
            )
        return None if row is None else int(row["table_id"])
