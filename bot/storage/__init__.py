"""Kortbord's storage: server settings, tables and their action logs, results and standings.

The only package that speaks SQL. Open it once with ``await open_storage(settings.database)``
(a SQLite file, or a ``postgresql://`` address) and pass it to the session manager; see
``store.py`` for how it writes.
"""

from bot.storage.backends import backup_storage, open_storage, probe_storage
from bot.storage.errors import (
    DuplicateActionError,
    IntegrityViolation,
    MigrationError,
    SchemaTooNewError,
    ShardClaimError,
    ShardLostError,
    StorageError,
    StorageUnavailable,
    TableNotFoundError,
    TableNotLiveError,
    UnreadableTableError,
)
from bot.storage.records import (
    ActionRecord,
    Damage,
    GameRow,
    GuildSettings,
    MemberChoice,
    Rated,
    RatedMember,
    SeatRecord,
    Shards,
    Skill,
    SkillChange,
    StandingRow,
    StoredTable,
    TableRecord,
)
from bot.storage.store import SAVED_AT_ONCE, Storage, is_postgres, redact

__all__ = [
    "SAVED_AT_ONCE",
    "ActionRecord",
    "Damage",
    "DuplicateActionError",
    "GameRow",
    "GuildSettings",
    "IntegrityViolation",
    "MemberChoice",
    "MigrationError",
    "Rated",
    "RatedMember",
    "SchemaTooNewError",
    "SeatRecord",
    "ShardClaimError",
    "ShardLostError",
    "Shards",
    "Skill",
    "SkillChange",
    "StandingRow",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "StoredTable",
    "TableNotFoundError",
    "TableNotLiveError",
    "TableRecord",
    "UnreadableTableError",
    "backup_storage",
    "is_postgres",
    "open_storage",
    "probe_storage",
    "redact",
]
