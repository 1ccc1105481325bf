"""Moving Kortbord's data from its SQLite file into PostgreSQL (``kortbord migrate-db``).

The bot is stopped first (its live tables are then paused, with their whole action logs); the
copy is one snapshot of the file and one transaction on the target, so a failed move leaves the
target empty and the file as it was. Started on the new database, the bot restores every table.
"""

from __future__ import annotations

import logging
from pathlib import Path

from bot.storage.backends import open_storage
from bot.storage.errors import StorageError

log = logging.getLogger(__name__)


async def move_database(source: Path, target: str) -> dict[str, int]:
    """Copies the SQLite database at ``source`` into the empty PostgreSQL database ``target``;
    returns how many rows each table had. ``source`` is migrated to the current schema first
    (as the bot would on start); nothing else in it changes."""
    if not source.is_file():
        raise StorageError(f"database {source} does not exist")
    async with await open_storage(source) as old, await open_storage(target) as new:
        counts = await old.copy_to(new)
        live = len(await new.live_tables())
    log.info("moved %s into %s: %s", source, new.where, counts)
    return {"live tables": live, **counts}
