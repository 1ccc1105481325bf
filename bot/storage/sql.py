"""The few things ``Storage`` needs of a database connection, so its SQL is written once.

``Storage`` (``store.py``) speaks to a ``Connection``: SQLite's (``sqlite.py``) or PostgreSQL's
(``postgres.py``). Statements use ``?`` placeholders and the SQL that both dialects share; the
PostgreSQL connection numbers the placeholders (``$1``, ``$2``...) itself. A unique key that is
already taken raises ``UniqueViolation`` and any other broken constraint ``IntegrityViolation``,
whichever database said so. Nothing here knows about tables or records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bot.storage.errors import IntegrityViolation, UniqueViolation

__all__ = [
    "Connection",
    "IntegrityViolation",
    "Row",
    "UniqueViolation",
    "numbered",
    "one_of",
    "placeholders",
]


class Row(Protocol):
    """One result row: by column name or by position (``sqlite3.Row`` and ``asyncpg.Record``)."""

    def __getitem__(self, key: str | int, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class Connection(Protocol):
    """A connection inside a read or a transaction of ``Storage``."""

    dialect: str
    """``sqlite`` or ``postgresql``."""

    async def execute(self, sql: str, *args: object) -> int:
        """Runs one statement; returns how many rows it changed."""

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None: ...

    async def fetch(self, sql: str, *args: object) -> list[Row]: ...

    async def fetchrow(self, sql: str, *args: object) -> Row | None: ...

    async def lock(self, key: int) -> None:
        """Serialises the rest of this transaction with every other transaction that locks
        ``key`` (PostgreSQL: an advisory lock; SQLite: its one writer already does this)."""


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``... (no statement here quotes a ``?``)."""
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)


def placeholders(count: int) -> str:
    """``?, ?, ?`` for an ``IN (...)`` list of ``count`` values."""
    return ", ".join("?" * count)


def one_of(db: Connection, column: str, values: Sequence[object]) -> tuple[str, list[object]]:
    """The condition that ``column`` is one of ``values``, and its arguments: ``IN (?, ?...)``
    on SQLite; on PostgreSQL ``= ANY (?)`` with one array, so that the statement reads the same
    whatever the count and the server's prepared statement serves again (one round trip, not a
    new statement prepared for each count)."""
    if db.dialect == "postgresql":
        return f"{column} = ANY (?)", [list(values)]
    return f"{column} IN ({placeholders(len(values))})", list(values)
