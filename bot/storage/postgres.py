"""``PostgresStorage``: the same storage on PostgreSQL, for a bot that runs as several processes.

``KORTBORD_DATABASE=postgresql://user:password@host:5432/kortbord`` selects it. asyncpg with a
connection pool: every write is one transaction on a connection of its own (committed before the
call returns, rolled back on any error), every read one read-only snapshot. Waiting for a
connection is a turn in line, not counted by the timeout; the actions of many tables share one
transaction (group commit, ``group.py``), up to half the pool writing such batches at once.
Migrations are the numbered files in ``migrations/postgresql/``, tracked in the one-row table
``schema_version``; processes that start together take turns (an advisory lock), so each
migration runs once.
Query parameters of the address other than asyncpg's own are server settings, e.g.
``?search_path=kortbord`` for a schema of its own.

The server itself ends what a frozen process leaves open (``server_settings``): a write holds its
shard's lease row until it commits, so a process stopped mid-write (a hung host, SIGSTOP) would
otherwise keep its shards from being taken over until it woke. A transaction left idle, or a
statement, is ended after four times the storage's timeout (10 s at least: far inside the shards'
lease), and a wait for a lock after half the timeout, so a process taking shards over is refused
in words ("canceling statement due to lock timeout") rather than waiting until its own timeout
calls the database away.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager

import asyncpg

from bot.storage import schema
from bot.storage.errors import (
    IntegrityViolation,
    MigrationError,
    SchemaTooNewError,
    StorageError,
    StorageUnavailable,
    UniqueViolation,
)
from bot.storage.sql import Connection, Row, numbered
from bot.storage.store import TIMEOUT, Place, Storage, redact

log = logging.getLogger(__name__)

MIGRATION_LOCK = (0x4B6F7274, 1)
"""The advisory lock (two int keys) that start-ups take turns on while migrating."""

DRIVER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)
"""What asyncpg raises when the server cannot be reached or refuses."""

AWAY_ERRORS = (
    OSError,  # refused, reset, unreachable; TimeoutError too
    asyncpg.InterfaceError,  # the connection is closed or broken
    asyncpg.exceptions.PostgresConnectionError,  # dropped, or refused by the server
    asyncpg.exceptions.OperatorInterventionError,  # shutting down, cannot connect now
    asyncpg.exceptions.InsufficientResourcesError,  # too many connections, disk full
)
"""What asyncpg raises when the server is away (rather than refusing a statement)."""


class _PostgresConnection:
    dialect = "postgresql"

    def __init__(self, db: asyncpg.pool.PoolConnectionProxy[asyncpg.Record]) -> None:
        self._db = db

    async def execute(self, sql: str, *args: object) -> int:
        try:
            status = await self._db.execute(numbered(sql), *args)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error
        # "UPDATE 2", "DELETE 0", "INSERT 0 1": the last word counts the rows.
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            await self._db.executemany(numbered(sql), rows)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        return list(await self._db.fetch(numbered(sql), *args))

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        try:
            row: Row | None = await self._db.fetchrow(numbered(sql), *args)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise _violation(error) from error
        return row

    async def lock(self, key: int) -> None:
        await self._db.execute("SELECT pg_advisory_xact_lock($1)", key)


def _violation(error: asyncpg.IntegrityConstraintViolationError) -> IntegrityViolation:
    if isinstance(error, asyncpg.UniqueViolationError):
        return UniqueViolation(str(error))
    return IntegrityViolation(str(error))


class PostgresStorage(Storage):
    """Kortbord's data in a PostgreSQL database. Open with ``await open_storage(address)``."""

    def __init__(
        self, pool: asyncpg.Pool[asyncpg.Record], where: str, timeout: float = TIMEOUT
    ) -> None:
        super().__init__(where, timeout)
        self._pool = pool
        self._turns = asyncio.Semaphore(pool.get_max_size())
        """One turn for each connection the pool may hold."""

    @property
    def _writers(self) -> int:
        # half the pool writes actions; the rest stays for reads and other writes
        return max(1, self._pool.get_max_size() // 2)

    @property
    def dialect(self) -> str:
        return "postgresql"

    @property
    def place(self) -> Place:
        return "server"

    @classmethod
    async def connect(
        cls, dsn: str, *, pool_size: int = 10, timeout: float = TIMEOUT
    ) -> PostgresStorage:
        """Opens a pool of up to ``pool_size`` connections and migrates the database."""
        where = redact(dsn)
        try:
            # no floor of idle connections: asyncpg would log a traceback each time an outage kept
            # it from restoring one
            pool = await asyncpg.create_pool(
                dsn,
                min_size=0,
                max_size=pool_size,
                timeout=10,
                server_settings=server_settings(timeout),
                reset=_keep_session,
            )
        except (*DRIVER_ERRORS, ValueError) as error:
            raise StorageError(f"cannot connect to {where}: {redact(str(error))}") from error
        try:
            version = await migrate(pool, where, schema.migrations("postgresql"))
        except DRIVER_ERRORS as error:
            # the pool opens its first connection here: a missing database, an unknown role, a
            # wrong password are said in one line, as a server that does not answer is
            await pool.close()
            raise StorageError(f"cannot connect to {where}: {redact(str(error))}") from error
        except BaseException:
            await pool.close()
            raise
        log.info("opened database %s (schema version %d)", where, version)
        return cls(pool, where, timeout)

    async def _close(self) -> None:
        try:
            async with asyncio.timeout(self.timeout):
                await self._pool.close()
        except TimeoutError:
            log.warning("database %s did not answer the goodbye; connections dropped", self.where)
            self._pool.terminate()

    def _translate(self, error: Exception) -> StorageError | None:
        if isinstance(error, TimeoutError):
            return StorageUnavailable(f"no answer within {self.timeout:g} s")
        if isinstance(error, AWAY_ERRORS):
            return StorageUnavailable(str(error) or type(error).__name__)
        if isinstance(error, asyncpg.PostgresError):
            return StorageError(str(error))
        return None

    async def ping(self) -> bool:
        try:
            async with self._read() as db:
                row = await db.fetchrow("SELECT 1")
        except StorageError as error:
            log.warning("database %s does not answer: %s", self.where, error)
            return False
        return row is not None and row[0] == 1

    async def _next_table_id(self, db: Connection) -> int:
        row = await db.fetchrow(
            "SELECT greatest(coalesce(max(table_id), 0) + 1, (SELECT CASE WHEN is_called"
            " THEN last_value + 1 ELSE last_value END FROM tables_table_id_seq)) FROM tables"
        )
        return int(row[0]) if row is not None else 1

    async def _after_copy(self, db: Connection, next_id: int) -> None:
        await db.fetchrow(
            "SELECT setval(pg_get_serial_sequence('tables', 'table_id'), ?, false)", next_id
        )

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_PostgresConnection]:
        async with self._transaction(readonly=True) as db:
            yield db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_PostgresConnection]:
        async with self._transaction(readonly=False) as db:
            yield db

    @asynccontextmanager
    async def _transaction(self, *, readonly: bool) -> AsyncIterator[_PostgresConnection]:
        """One transaction on a connection of the pool, within ``timeout`` seconds from its turn
        (a connection free, or one to open) to the commit, the time the event loop was too busy
        to read the server's answers not counted (``watch.py``): waiting for a connection that
        others use is a turn in line, not counted either (a queue is not an outage). A
        connection that failed, was cut or ran out of time is dropped at once (the server rolls
        back what it had not committed), never waited on: a database that hangs holds nobody."""
        self._require_open()
        async with self._edge():
            await self._take_turn(self._turns)
            try:
                async with self._watch.within(self.timeout), self._connection(readonly) as db:
                    yield db
            finally:
                self._turns.release()

    @asynccontextmanager
    async def _connection(self, readonly: bool) -> AsyncIterator[_PostgresConnection]:
        # the pool has a connection free for this turn: acquiring waits only for the server
        db = await self._pool.acquire()
        clean = False
        try:
            if readonly:
                xact = db.transaction(isolation="repeatable_read", readonly=True)
            else:
                xact = db.transaction()
            await xact.start()
            try:
                yield _PostgresConnection(db)
            except StorageError:
                await xact.rollback()  # the database answered: refused, not away
                clean = True
                raise
            await xact.commit()
            clean = True
        finally:
            if not clean:
                db.terminate()
            await self._pool.release(db)


async def _keep_session(db: asyncpg.Connection[asyncpg.Record]) -> None:
    """A connection given back to the pool keeps its session as it is (the pool rolls back a
    transaction left open first): Kortbord changes nothing of a session beyond its transaction,
    so the pool's own reset would only cost a round trip after every transaction."""


def server_settings(timeout: float) -> dict[str, str]:
    """What the server ends on its own for each of the pool's sessions (milliseconds): no live
    process leaves a transaction idle for longer than its own ``timeout``, nor waits that long."""
    ms = max(1, round(timeout * 1000))
    ended = max(4 * ms, 10_000)
    return {
        "idle_in_transaction_session_timeout": str(ended),
        "statement_timeout": str(ended),
        "lock_timeout": str(max(1, ms // 2)),
    }


async def _version(db: asyncpg.pool.PoolConnectionProxy[asyncpg.Record]) -> int:
    await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    version = await db.fetchval("SELECT max(version) FROM schema_version")
    return int(version) if version is not None else 0


async def migrate(
    pool: asyncpg.Pool[asyncpg.Record], where: str, steps: list[schema.Migration]
) -> int:
    """Brings the database up to the last of ``steps``, each step in its own transaction with
    the version bump; returns its version. See ``schema.migrate`` for SQLite."""
    latest = steps[-1].version if steps else 0
    async with pool.acquire() as db:
        while True:
            async with db.transaction():
                # A migration may take its time, and so may the turn of the process migrating.
                await db.execute("SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0")
                await db.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
                current = await _version(db)
                if current > latest:
                    raise SchemaTooNewError(
                        f"database {where} has schema version {current}, but this Kortbord knows"
                        f" only up to {latest}: run a newer Kortbord, or point KORTBORD_DATABASE"
                        " at another database"
                    )
                step = next((s for s in steps if s.version > current), None)
                if step is None:
                    return current
                log.info("migrating database %s to version %d (%s)", where, step.version, step.name)
                try:
                    async with db.transaction():  # a savepoint: the error message stays clear
                        await db.execute(step.sql)
                except asyncpg.PostgresError as error:
                    raise MigrationError(
                        f"migration {step.version:04d}_{step.name} failed on {where}: {error}"
                    ) from error
                await db.execute("DELETE FROM schema_version")
                await db.execute("INSERT INTO schema_version (version) VALUES ($1)", step.version)


async def probe(dsn: str) -> str | None:
    """See ``backends.probe_storage``: one connection, one read, nothing created."""
    where = redact(dsn)
    try:
        db = await asyncpg.connect(dsn, timeout=2.0)
    except DRIVER_ERRORS as error:
        return f"database {where} does not answer: {error}"
    try:
        found = await db.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        version = await db.fetchval("SELECT max(version) FROM schema_version") if found else 0
    except DRIVER_ERRORS as error:
        return f"database {where} does not answer: {error}"
    finally:
        await db.close()
    if not version:
        return f"database {where} has no schema yet"
    return None
