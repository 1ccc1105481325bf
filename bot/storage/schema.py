"""Numbered SQL migrations, the same numbers and names in both dialects: SQLite's in
``migrations/NNNN_name.sql`` (tracked with ``PRAGMA user_version``), PostgreSQL's in
``migrations/postgresql/NNNN_name.sql`` (tracked in ``schema_version``; see ``postgres.py``).

Each migration runs in its own transaction together with the version bump, so a database is
always at a whole version. A database whose version is newer than the newest migration here was
written by a newer Kortbord and is refused rather than misread.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources

import aiosqlite

from bot.storage.errors import MigrationError, SchemaTooNewError

log = logging.getLogger(__name__)

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


DIALECTS = ("sqlite", "postgresql")


def migrations(dialect: str = "sqlite") -> list[Migration]:
    """Every migration shipped with the code for ``dialect``, in order; numbered 1, 2, ...
    without gaps."""
    folder = resources.files("bot.storage").joinpath("migrations")
    if dialect != "sqlite":
        folder = folder.joinpath(dialect)
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match is None:
            if entry.name.endswith(".sql"):
                raise MigrationError(f"migration {entry.name!r} is not named NNNN_name.sql")
            continue
        found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda migration: migration.version)
    versions = [migration.version for migration in found]
    if versions != list(range(1, len(found) + 1)):
        raise MigrationError(f"migrations must be numbered 1, 2, ... without gaps: {versions}")
    return found


async def user_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def migrate(db: aiosqlite.Connection, where: str, steps: list[Migration]) -> int:
    """Brings the database at ``where`` up to the last of ``steps``; returns its version."""
    current = await user_version(db)
    latest = steps[-1].version if steps else 0
    if current > latest:
        raise SchemaTooNewError(
            f"database {where} has schema version {current}, but this Kortbord knows only up to"
            f" {latest}: run a newer Kortbord, or point KORTBORD_DATABASE at another file"
        )
    for step in steps:
        if step.version <= current:
            continue
        log.info("migrating database %s to version %d (%s)", where, step.version, step.name)
        script = f"BEGIN IMMEDIATE;\n{step.sql}\n;PRAGMA user_version = {step.version};\nCOMMIT;"
        try:
            await db.executescript(script)
        except aiosqlite.Error as error:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise MigrationError(
                f"migration {step.version:04d}_{step.name} failed on {where}: {error}"
            ) from error
        current = step.version
    return current
