"""The few things ``Storage`` needs of a database connection, so its SQL is written once.

``Storage`` (``store.py``) speaks to a ``Connection``: SQLite's (``sqlite.py``) or PostgreSQL's
(``postgres.py``). Statements use ``?`` placeholders and the SQL that both dialects share; the
PostgreSQL connection numbers the placeholders (``$1``, ``$2``...) itself. A unique key that is
already taken raises ``UniqueViolation`` and any other broken constraint ``IntegrityViolation``,
whichever database said so. Nothing here knows about tables or records.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

from bot.storage.errors import IntegrityViolation, UniqueViolation

__all__ = [
    "Connection",
    "IntegrityViolation",
    "Row",
    "UniqueViolation",
    "insert_rows",
    "numbered",
    "one_of",
    "placeholders",
    "update_rows",
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


ROWS_AT_ONCE = (256, 64, 16, 4, 1)
"""How many rows one statement of :func:`insert_rows` or :func:`update_rows` carries: the
largest that fit, so that a few statement shapes serve every count (each prepared once) and a
thousand rows take a dozen statements."""


def _runs(rows: Sequence[Sequence[object]]) -> Iterator[Sequence[Sequence[object]]]:
    start = 0
    for size in ROWS_AT_ONCE:
        while len(rows) - start >= size:
            yield rows[start : start + size]
            start += size


def _values(rows: Sequence[Sequence[object]]) -> tuple[str, list[object]]:
    row = f"({placeholders(len(rows[0]))})"
    return ", ".join([row] * len(rows)), list(itertools.chain.from_iterable(rows))


async def insert_rows(
    db: Connection, table: str, columns: Sequence[str], rows: Sequence[Sequence[object]]
) -> None:
    """Inserts ``rows`` (values of ``columns``, in order), many in one statement: what
    ``executemany`` does, in a dozen statements for a thousand rows instead of one per row.
    On SQLite, whose connection works on a thread of its own, each row of an ``executemany``
    is a step of its own that lets go of Python's lock and waits to take it back while the
    event loop runs: a batch of a thousand rows waited for the loop a thousand times."""
    names = ", ".join(columns)
    for run in _runs(rows):
        values, args = _values(run)
        await db.execute(f"INSERT INTO {table} ({names}) VALUES {values}", *args)


async def update_rows(
    db: Connection,
    table: str,
    key: str,
    columns: Sequence[str],
    rows: Sequence[Sequence[object]],
    where: str = "TRUE",
) -> int:
    """Sets ``columns`` of the rows of ``table`` whose ``key`` is each row's first value, to
    its other values, where ``where`` holds too, many rows in one statement (as
    :func:`insert_rows`); returns how many rows were changed."""
    sets = ", ".join(f"{column} = new.column{n}" for n, column in enumerate(columns, start=2))
    changed = 0
    for run in _runs(rows):
        values, args = _values(run)
        changed += await db.execute(
            f"UPDATE {table} SET {sets} FROM (VALUES {values}) AS new"
            f" WHERE {table}.{key} = new.column1 AND ({where})",
            *args,
        )
    return changed
