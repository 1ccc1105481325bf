"""What the storage raises; every error is a ``StorageError``."""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot do what was asked; the message says why."""


class StorageUnavailable(StorageError):
    """The database did not answer: it refused the connection, dropped it, or took longer than
    the storage's timeout. Nothing of the write is known to be kept (a write cut during its
    commit may still have been kept: read before trusting either)."""


class SchemaTooNewError(StorageError):
    """The database was written by a newer Kortbord; this code refuses to touch it."""


class MigrationError(StorageError):
    """A migration is missing, misnamed or failed; the database is left at its last version."""


class TableNotFoundError(StorageError):
    """No table with that id."""


class UnreadableTableError(StorageError):
    """The table is stored, but its row cannot be read (its options, its status...); the message
    says what."""


class TableNotLiveError(StorageError):
    """The table is already finished or ended; it cannot be finished or ended again."""


class DuplicateActionError(StorageError):
    """The table's action log already has an action with that ``seq``; nothing was changed."""


class ShardClaimError(StorageError):
    """Another live process holds some of the shards asked for; nothing was claimed."""


class ShardLostError(StorageError):
    """A table's shard is not (or no longer) this process's: another process owns the table, so
    nothing was changed."""


class IntegrityViolation(StorageError):
    """A write broke a constraint of the schema (a foreign key, a check); nothing was kept."""


class UniqueViolation(IntegrityViolation):
    """A write inserted a key that is already taken; nothing was kept."""
