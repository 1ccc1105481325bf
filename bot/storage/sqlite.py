"""``SqliteStorage``: the embedded default, one SQLite file through aiosqlite.

One connection in WAL mode with foreign keys on. Every write is one explicit transaction
(``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error) taken under one asyncio lock;
reads take the same lock, so a reader never sees half of another coroutine's transaction on the
shared connection. Waiting for the lock is a turn in line, not counted by the timeout; the
actions of many tables share one transaction (group commit, ``group.py``), which is begun, run
and committed on SQLite's thread in one trip from the event loop (``_SqliteConnection.whole``),
where each other statement is a trip of its own. Also the read-only probe and the backup, which
other processes run.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import aiosqlite

from bot.storage import schema
from bot.storage.errors import (
    IntegrityViolation,
    StorageError,
    StorageUnavailable,
    UniqueViolation,
)
from bot.storage.sql import Connection, Row
from bot.storage.store import TIMEOUT, Place, Storage, redact

log = logging.getLogger(__name__)

T = TypeVar("T")


class _Statements:
    """The connection's statements as ``Connection`` says them, run at once on SQLite's own
    connection: only ever on the thread that holds it (aiosqlite's). Its methods are coroutines
    for the protocol's sake and never wait, so a coroutine that awaits nothing but them runs to
    its end in one step there (:func:`_at_once`)."""

    dialect = "sqlite"

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, *args: object) -> int:
        try:
            return self._db.execute(sql, args).rowcount
        except sqlite3.IntegrityError as error:
            raise _violation(error) from error

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        try:
            self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise _violation(error) from error

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        try:
            return list(self._db.execute(sql, args).fetchall())
        except sqlite3.IntegrityError as error:
            raise _violation(error) from error

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        try:
            row: Row | None = self._db.execute(sql, args).fetchone()
        except sqlite3.IntegrityError as error:
            raise _violation(error) from error
        return row

    async def lock(self, key: int) -> None:
        """SQLite has one writer at a time: a transaction is already alone."""


def _at_once(work: Coroutine[Any, Any, T]) -> T:
    """What ``work`` returns, run to its end in one step: it awaits nothing but
    :class:`_Statements`, which never wait."""
    try:
        work.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    work.close()
    raise RuntimeError("work on SQLite's thread waited for something other than SQLite")


def _on_thread(db: aiosqlite.Connection, work: Callable[[_Statements], Awaitable[T]]) -> T:
    """Runs on the connection's thread: ``work`` on its statements."""
    return _at_once(cast(Coroutine[Any, Any, T], work(_Statements(db._conn))))


def _whole(
    db: aiosqlite.Connection,
    work: Callable[[_Statements], Awaitable[T]],
    abandoned: threading.Event,
) -> T:
    """Runs on the connection's thread: ``work`` in one transaction, committed unless it
    raised or its caller stopped waiting meanwhile (``abandoned``, at the timeout: what the
    caller was told was not saved is not kept)."""
    connection = db._conn
    connection.execute("BEGIN IMMEDIATE")
    try:
        result = _on_thread(db, work)
        if abandoned.is_set():
            raise TimeoutError("the transaction was given up before its commit")
    except BaseException:
        if connection.in_transaction:  # SQLite ends some on its own (a full disk)
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")
    return result


class _SqliteConnection:
    """The connection from the event loop: each statement one trip to SQLite's thread (the
    trips are aiosqlite's; ``_execute`` queues a function for its thread, which is how its own
    methods run each statement), run there by :class:`_Statements`."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def _trip(self, statement: Callable[[_Statements], Awaitable[T]]) -> T:
        return await _queued(self._db, _on_thread, self._db, statement)

    async def execute(self, sql: str, *args: object) -> int:
        return await self._trip(lambda db: db.execute(sql, *args))

    async def executemany(self, sql: str, rows: Iterable[Sequence[object]]) -> None:
        await self._trip(lambda db: db.executemany(sql, rows))

    async def fetch(self, sql: str, *args: object) -> list[Row]:
        return await self._trip(lambda db: db.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: object) -> Row | None:
        return await self._trip(lambda db: db.fetchrow(sql, *args))

    async def lock(self, key: int) -> None:
        """SQLite has one writer at a time: a transaction is already alone."""

    async def whole(self, work: Callable[[_Statements], Awaitable[T]]) -> T:
        """``work`` in one transaction, in one trip: begun, run and committed on SQLite's
        thread, where a statement at a time took a trip each."""
        abandoned = threading.Event()
        try:
            return await _queued(self._db, _whole, self._db, work, abandoned)
        except BaseException:
            abandoned.set()
            raise


async def _queued(db: aiosqlite.Connection, function: Callable[..., T], *args: object) -> T:
    """``function(*args)`` on the connection's thread, in line behind what is queued there:
    aiosqlite's ``_execute``, which its own methods queue each statement with."""
    queue: Callable[..., Awaitable[T]] = db._execute
    return await queue(function, *args)


def _violation(error: sqlite3.IntegrityError) -> IntegrityViolation:
    text = str(error)
    if "UNIQUE" in text or "PRIMARY KEY" in text:
        return UniqueViolation(text)
    return IntegrityViolation(text)


class SqliteStorage(Storage):
    """Kortbord's data in one SQLite file. Open with ``await open_storage(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: Path, timeout: float = TIMEOUT) -> None:
        super().__init__(str(path), timeout)
        self._db = db
        self._connection = _SqliteConnection(db)
        self._path = path
        self._lock = asyncio.Lock()
        self._cleanups: set[asyncio.Task[None]] = set()

    @property
    def dialect(self) -> str:
        return "sqlite"

    @property
    def place(self) -> Place:
        return "disk"

    @classmethod
    async def connect(cls, path: Path, *, timeout: float = TIMEOUT) -> SqliteStorage:
        """Opens (creating it and its directory if needed) and migrates the file at ``path``.
        Raises ``StorageError`` saying in one line why it cannot."""
        try:
            return await cls._connect(path, timeout)
        except (sqlite3.Error, OSError) as error:
            raise StorageError(_why_not(path, error)) from error

    @classmethod
    async def _connect(cls, path: Path, timeout: float) -> SqliteStorage:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await _connected(str(path), isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            async with db.execute("PRAGMA journal_mode = WAL") as cursor:
                mode = await cursor.fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                log.warning("database %s: WAL is not available, journal mode %s", path, mode)
            # With WAL, NORMAL loses no committed data on a crash of the process.
            await db.execute("PRAGMA synchronous = NORMAL")
            version = await schema.migrate(db, str(path), schema.migrations("sqlite"))
        except BaseException:
            await db.close()
            raise
        log.info("opened database %s (schema version %d)", redact(path), version)
        return cls(db, path, timeout)

    async def _close(self) -> None:
        try:
            async with asyncio.timeout(self.timeout):
                await self._lock.acquire()
        except TimeoutError:
            log.error("database %s: a write still hangs; closing it anyway", self._path)
        else:
            self._lock.release()
        for task in list(self._cleanups):
            task.cancel()
        # Not cancelled at the timeout (aiosqlite would then wait for its thread all the same):
        # a close that hangs is left to finish once SQLite lets go, and the stop goes on.
        closing = asyncio.get_running_loop().create_task(self._db.close(), name="sqlite close")
        done, _ = await asyncio.wait({closing}, timeout=self.timeout)
        if not done:
            log.error(
                "database %s did not close within %g s; left closing", self.where, self.timeout
            )
            self._cleanups.add(closing)
            closing.add_done_callback(self._cleanups.discard)
        elif closing.exception() is not None:
            log.error("database %s did not close cleanly: %s", self.where, closing.exception())

    def _translate(self, error: Exception) -> StorageError | None:
        if isinstance(error, TimeoutError):
            return StorageUnavailable(f"no answer within {self.timeout:g} s")
        if isinstance(error, sqlite3.OperationalError | OSError):
            # locked, full, read-only, an I/O error: the file cannot take the write now
            return StorageUnavailable(str(error))
        if isinstance(error, sqlite3.Error):
            return StorageError(str(error))
        return None

    async def ping(self) -> bool:
        try:
            async with self._read() as db:
                row = await db.fetchrow("SELECT 1")
        except (ValueError, StorageError) as error:
            log.warning("database %s does not answer: %s", self.where, error)
            return False
        return row is not None and row[0] == 1

    async def _next_table_id(self, db: Connection) -> int:
        # AUTOINCREMENT remembers the highest id ever handed out, deleted tables included.
        row = await db.fetchrow(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'tables'), 0),"
            " coalesce((SELECT max(table_id) FROM tables), 0)) + 1"
        )
        return int(row[0]) if row is not None else 1

    async def _after_copy(self, db: Connection, next_id: int) -> None:
        await db.execute("DELETE FROM sqlite_sequence WHERE name = 'tables'")
        await db.execute(
            "INSERT INTO sqlite_sequence (name, seq) VALUES ('tables', ?)", next_id - 1
        )

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[_SqliteConnection]:
        async with self._alone(transaction=False):
            yield self._connection

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[_SqliteConnection]:
        async with self._alone(transaction=True):
            yield self._connection

    async def _in_transaction(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """``work`` in one transaction, begun, run and committed in one trip to SQLite's thread
        (``_SqliteConnection.whole``): an action's write is 1 trip where it was 6."""
        async with self._alone(transaction=False):
            return await self._connection.whole(work)

    @asynccontextmanager
    async def _alone(self, *, transaction: bool) -> AsyncIterator[None]:
        """The connection to itself (a transaction when ``transaction``), within ``timeout``
        seconds from its turn to the commit, the time the event loop was too busy to read
        SQLite's answers not counted (``watch.py``); the wait for the turn is not counted either
        (a queue is not an outage), unless the database is found away meanwhile. When the file hangs
        (another process holds it, a stalled disk), the caller is let go at the timeout while
        the connection stays taken until SQLite is done with what it was asked and the
        transaction is rolled back."""
        self._require_open()
        async with self._edge():
            await self._take_turn(self._lock)
            done = False
            try:
                self._require_open()
                async with self._watch.within(self.timeout):
                    if transaction:
                        await self._db.execute("BEGIN IMMEDIATE")
                    try:
                        yield
                    except StorageError:
                        if self._db.in_transaction:
                            await self._db.execute("ROLLBACK")
                        done = True
                        raise
                    if transaction:
                        await self._db.execute("COMMIT")
                    done = True
            finally:
                if done:
                    self._lock.release()
                else:
                    self._after_failure()

    def _after_failure(self) -> None:
        """A read or write failed or ran out of time: the connection is left in order (the
        transaction rolled back once SQLite is done) before anyone else gets it."""

        async def settle() -> None:
            try:
                # queued behind whatever SQLite is still doing on its thread
                await self._db.execute("SELECT 1")
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
            except (sqlite3.Error, ValueError) as error:
                level = logging.DEBUG if self.away else logging.WARNING  # the outage is logged
                log.log(level, "database %s: rolling back failed: %s", self.where, error)
            finally:
                self._lock.release()

        task = asyncio.get_running_loop().create_task(settle(), name="sqlite rollback")
        self._cleanups.add(task)
        task.add_done_callback(self._cleanups.discard)


async def _connected(
    database: str, *, uri: bool = False, timeout: float = 5.0, isolation_level: str | None = ""
) -> aiosqlite.Connection:
    """``aiosqlite.connect``, whose thread has ended when a connection that cannot be made is
    refused: aiosqlite stops that thread without waiting for it, and the thread then answers to
    an event loop that may be closed by then (a traceback on stderr after ``kortbord health``'s
    one line)."""
    connecting = aiosqlite.connect(
        database, uri=uri, timeout=timeout, isolation_level=isolation_level
    )
    try:
        return await connecting
    except BaseException:
        await asyncio.to_thread(connecting._thread.join, timeout)
        raise


@asynccontextmanager
async def _opened(uri: str, *, timeout: float) -> AsyncIterator[aiosqlite.Connection]:
    """A connection to the database at ``uri`` for one block, closed after it."""
    db = await _connected(uri, uri=True, timeout=timeout)
    try:
        yield db
    finally:
        await db.close()


def _why_not(path: Path, error: BaseException) -> str:
    """Why the file at ``path`` cannot be opened, in one line: a read-only file or folder is
    named as such (SQLite says only "unable to open database file")."""
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    return _read_only(path, reason) or f"database {redact(path)} cannot be opened: {reason}"


def _read_only(path: Path, reason: str) -> str | None:
    """What to say when SQLite failed (``reason``) because the file at ``path`` or its folder
    cannot be written (a read-only mount: access(2) says so even to root); else None. A WAL
    database cannot even be read there: SQLite must write its ``-shm`` file beside it."""
    if path.exists() and not os.access(path, os.W_OK):
        return f"database {redact(path)} is read-only: Kortbord must be able to write it ({reason})"
    folder = path.parent if path.parent.exists() else None
    if folder is not None and not os.access(folder, os.W_OK):
        return (
            f"database {redact(path)} is in a read-only folder: Kortbord must be able to write"
            f" {folder} (SQLite keeps its journal beside the file) ({reason})"
        )
    return None


async def probe(path: Path) -> str | None:
    """See ``backends.probe_storage``: opens the file read-only."""
    if not path.is_file():
        return f"database {redact(path)} does not exist"
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        async with _opened(uri, timeout=2.0) as db:
            version = await schema.user_version(db)
            async with db.execute("SELECT count(*) FROM sqlite_master") as cursor:
                await cursor.fetchone()
    except sqlite3.Error as error:
        return _read_only(path, str(error)) or f"database {redact(path)} does not answer: {error}"
    if version == 0:
        return f"database {redact(path)} has no schema yet"
    return None


async def backup(path: Path, target: Path) -> None:
    """See ``backends.backup_storage``: a snapshot of what is committed (``VACUUM INTO``, on a
    read-only connection), so the copy is whole and compact; never overwrites a file."""
    if not path.is_file():
        raise StorageError(f"database {redact(path)} does not exist")
    if target.exists():
        raise StorageError(f"{redact(target)} already exists; a backup never overwrites a file")
    try:
        uri = f"{path.resolve().as_uri()}?mode=ro"
        async with _opened(uri, timeout=5.0) as db:
            await db.execute("VACUUM INTO ?", (str(target),))
    except sqlite3.Error as error:
        read_only = _read_only(path, str(error))
        if read_only is not None:
            raise StorageError(read_only) from error
        raise StorageError(
            f"backup of {redact(path)} to {redact(target)} failed: {error}"
        ) from error
