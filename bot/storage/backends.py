"""Which back-end serves a database: the embedded SQLite file (the default, ``sqlite.py``) or, for
a ``postgresql://`` address, a PostgreSQL database through a connection pool (``postgres.py``).

The back-ends build on ``store.py``; this module chooses between them, so that ``store.py`` never
imports a back-end.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.errors import StorageError
from bot.storage.postgres import PostgresStorage
from bot.storage.postgres import probe as probe_server
from bot.storage.sqlite import SqliteStorage
from bot.storage.sqlite import backup as backup_file
from bot.storage.sqlite import probe as probe_file
from bot.storage.store import TIMEOUT, Storage, is_postgres, redact


async def open_storage(
    database: Path | str, *, pool_size: int = 10, timeout: float = TIMEOUT
) -> Storage:
    """Opens (creating it if needed) and migrates the database: a SQLite file path, or a
    ``postgresql://`` address (a pool of at most ``pool_size`` connections). Every read and
    write after that takes at most ``timeout`` seconds.

    Raises ``SchemaTooNewError`` for a database written by a newer Kortbord, and
    ``StorageError`` (saying why in one line) for one that cannot be opened.
    """
    if is_postgres(database):
        return await PostgresStorage.connect(str(database), pool_size=pool_size, timeout=timeout)
    return await SqliteStorage.connect(Path(database), timeout=timeout)


async def probe_storage(database: Path | str) -> str | None:
    """Whether the database answers a read; for a health check run as another process while the
    bot holds the database open. Creates and migrates nothing. Returns None when it answers,
    else what is wrong in one line."""
    if is_postgres(database):
        return await probe_server(str(database))
    return await probe_file(Path(database))


async def backup_storage(database: Path | str, target: Path | str) -> None:
    """Writes a consistent copy of the SQLite database to the new file ``target``; safe while the
    bot runs. Raises ``StorageError`` if it cannot, and for PostgreSQL, whose own ``pg_dump`` is
    the tool for that."""
    if is_postgres(database):
        raise StorageError(
            f"{redact(database)} is PostgreSQL: back it up with its own tool, e.g."
            " pg_dump --format=custom --file=kortbord.dump DATABASE (restore with pg_restore)"
        )
    await backup_file(Path(database), Path(target))
