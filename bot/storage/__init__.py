"""Kortbord's storage: server settings, tables and their action logs, results and ratings.

The only package that speaks SQL. Open it once with ``await Storage.open(settings.database)``
and pass it to the session manager; see ``store.py`` for how it writes.
"""

from bot.storage.errors import (
    DuplicateActionError,
    MigrationError,
    SchemaTooNewError,
    StorageError,
    TableNotFoundError,
    TableNotLiveError,
)
from bot.storage.records import (
    ActionRecord,
    GameStats,
    GuildSettings,
    RatingChange,
    SeatRecord,
    Standing,
    TableRecord,
)
from bot.storage.store import Storage

__all__ = [
    "ActionRecord",
    "DuplicateActionError",
    "GameStats",
    "GuildSettings",
    "MigrationError",
    "RatingChange",
    "SchemaTooNewError",
    "SeatRecord",
    "Standing",
    "Storage",
    "StorageError",
    "TableNotFoundError",
    "TableNotLiveError",
    "TableRecord",
]
