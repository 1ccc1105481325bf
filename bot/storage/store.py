"""``Storage``: everything Kortbord keeps; the only code that speaks SQL.

``open_storage(database)`` opens the embedded SQLite file (the default, ``sqlite.py``) or, for a
``postgresql://`` address, a PostgreSQL database through a connection pool (``postgres.py``).
Both run the same statements below through a ``sql.Connection`` and give the same guarantees:
every write is one transaction, committed before the call returns and rolled back whole on any
error; reads never see half of a write. Schema changes are numbered migrations run on open.

Running as several processes (shards), a process claims the shards it serves
(``claim_shards``); from then on it changes a table only while it holds the lease of the
table's shard, checked inside the same transaction, so two processes never act on one table.

It knows nothing of Discord or of the rules: it stores what the session manager gives it and
hands it back after a restart. It has no clock: every time is given by the caller.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Literal, Self, TypeVar, cast

from bot.storage.daily import DailyStore
from bot.storage.deals import DealStore
from bot.storage.errors import (
    DuplicateActionError,
    ShardClaimError,
    ShardLostError,
    StorageError,
    StorageUnavailable,
    TableNotFoundError,
    TableNotLiveError,
    UniqueViolation,
    UnreadableTableError,
)
from bot.storage.group import ActionLine, Pending
from bot.storage.records import (
    LANGUAGES,
    LIVE_STATUSES,
    MEMBER_CHOICES,
    ActionRecord,
    GameRow,
    GuildSettings,
    Language,
    MemberChoice,
    Rated,
    SeatRecord,
    Shards,
    Skill,
    SkillChange,
    StandingRow,
    StoredTable,
    TableRecord,
    TableStatus,
)
from bot.storage.rows import (
    TABLE_COLUMNS,
    action_from_row,
    check_seats,
    int_tuple,
    opt_int,
    read_table_row,
    sound_actions,
    table_from_row,
    table_values,
)
from bot.storage.sql import Connection, Row, insert_rows, one_of, placeholders, update_rows
from bot.storage.watch import LoopWatch

log = logging.getLogger(__name__)

T = TypeVar("T")

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

TIMEOUT = 5.0
"""Seconds the database may take to answer a read or a write, from the start of its transaction
to its commit, before it counts as not done (``StorageUnavailable``): a database that hangs never
holds a table for longer. The wait for a turn (SQLite's one writer, a connection of the pool) is
not counted, nor the time the event loop was too busy to read an answer (``watch.py``): a queue
is not an outage."""

Place = Literal["disk", "server"]
"""Where a storage's data lives (``Storage.place``)."""

SAVED_AT_ONCE = 1000
"""Tables ``save_tables`` writes in one transaction."""

CLAIM_LOCK = -1
"""The lock key that shard claims take turns on (no server id is negative)."""

COPIED = (
    "guild_settings",
    "tables",
    "seats",
    "actions",
    "results",
    "standings",
    "placings",
    "unreachable_members",
    "private_copies",
    "hand_pictures_off",
    "turn_notices_off",
    "forced_cards_off",
    "deal_prints",
    "daily_settings",
    "daily_deals",
    "daily_plays",
)
"""Every table of Kortbord's data, in an order that satisfies the foreign keys."""


def _off_table(choice: MemberChoice) -> str:
    """The table of the members who turned ``choice`` off (checked: it becomes part of SQL)."""
    if choice not in MEMBER_CHOICES:
        raise ValueError(f"no such member choice: {choice!r}")
    return f"{choice}_off"


def is_postgres(database: Path | str) -> bool:
    """Whether ``database`` is a PostgreSQL address rather than a SQLite file."""
    return isinstance(database, str) and database.startswith(POSTGRES_SCHEMES)


_KEY_PASSWORD = re.compile(
    r"(?P<key>\b(?:password|passwd|pass|pwd)\s*=\s*)(?P<value>'(?:[^'\\]|\\.)*'|[^\s&;]*)",
    re.IGNORECASE,
)
"""A password given as ``key=value``: a query parameter (``?password=...``) or a field of a
``host=... password=...`` connection string, quoted or not."""

_URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)


def redact(database: Path | str) -> str:
    """The database for a log line or a message: a password is never shown, whatever the form
    of the address (``scheme://user:password@host``, ``?password=``, ``password=`` fields)."""
    text = _KEY_PASSWORD.sub(lambda m: f"{m['key']}***", str(database))
    url = _URL.match(text)
    if url is None:
        return text
    rest = url["rest"]
    # the authority ends at the first / ? or # after its last @ (a password may hold any of them)
    at = rest.rfind("@", 0, _authority_end(rest))
    credentials = rest[:at]
    if at >= 0 and ":" in credentials:
        rest = credentials.split(":", 1)[0] + ":***" + rest[at:]
    return url["scheme"] + rest


def _authority_end(rest: str) -> int:
    """Where the authority of ``rest`` (an address after ``scheme://``) ends."""
    at = rest.rfind("@")
    for end, char in enumerate(rest):
        if char in "/?#" and end > at:
            return end
    return len(rest)


class Storage(DealStore, DailyStore, ABC):
    """The database behind one bot process, on SQLite or PostgreSQL; open it with
    ``await open_storage(database)`` (``backends.py``)."""

    def __init__(self, where: str, timeout: float = TIMEOUT) -> None:
        self.where = redact(where)
        """The database, for messages (a password left out)."""
        self.timeout = timeout
        """Seconds the database may take to answer a read or a write (its turn not counted)."""
        self._closed = False
        self._claim: tuple[Shards, str] | None = None
        self._away_since: float | None = None
        self._outage: asyncio.Event | None = None
        """Set when an outage begins: whoever waits in line for a turn is let go at once."""
        self._line: ActionLine | None = None
        self._watch = LoopWatch()
        """Times each read and write (``timeout``), the event loop's stalls left out."""

    # --- the edge: every driver error becomes the storage's own -----------------------------------

    @property
    def away(self) -> bool:
        """Whether the database's last answer was none (an outage, until a read or write works)."""
        return self._away_since is not None

    @abstractmethod
    def _translate(self, error: Exception) -> StorageError | None:
        """The storage's own error for a driver's error; None for an error that is not the
        database's (a bug), which is left as it is."""

    @asynccontextmanager
    async def _edge(self) -> AsyncIterator[None]:
        """Around every read and write: a driver's error (and a timeout) leaves as the storage's
        own, and an outage is logged once when it starts and once when it ends."""
        try:
            yield
        except StorageUnavailable as error:
            self._went_away(error)
            raise
        except StorageError:
            self._answered()  # the database answered: it refused what was asked
            raise
        except Exception as error:
            mapped = self._translate(error)
            if mapped is None:
                raise
            if isinstance(mapped, StorageUnavailable):
                self._went_away(mapped)
            else:
                self._answered()
            raise mapped from error
        self._answered()

    async def _take_turn(self, turn: asyncio.Lock | asyncio.Semaphore) -> None:
        """Waits for ``turn`` (the right to use the database) however long the line: a queue is
        not an outage. But those waiting when an outage begins are let go (``StorageUnavailable``),
        and while the database is away a turn is waited for no longer than the timeout."""
        if not turn.locked():
            await turn.acquire()
            return
        if self.away:
            async with asyncio.timeout(self.timeout):
                await turn.acquire()
            return
        if self._outage is None:
            self._outage = asyncio.Event()
        outage = asyncio.ensure_future(self._outage.wait())
        taking = asyncio.ensure_future(turn.acquire())
        try:
            await asyncio.wait({outage, taking}, return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # the caller was cancelled: a turn taken meanwhile is given back
            outage.cancel()
            if taking.done() and not taking.cancelled():
                turn.release()
            taking.cancel()
            raise
        outage.cancel()
        if not taking.done():
            taking.cancel()
        try:
            await taking
        except asyncio.CancelledError:
            raise StorageUnavailable(
                "the database stopped answering while this waited for its turn"
            ) from None

    def _went_away(self, error: StorageUnavailable) -> None:
        if self._outage is not None:
            self._outage.set()
            self._outage = None
        if self._away_since is None:
            self._away_since = time.monotonic()
            log.error(
                "database %s does not answer: %s; live tables wait and try again", self.where, error
            )

    def _answered(self) -> None:
        if self._away_since is not None:
            log.warning(
                "database %s answers again after %.0f s",
                self.where,
                time.monotonic() - self._away_since,
            )
            self._away_since = None

    # --- life -------------------------------------------------------------------------------

    @property
    @abstractmethod
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""

    @property
    @abstractmethod
    def place(self) -> Place:
        """Where the data lives, for the words a member reads when it does not answer:
        ``disk`` (a file on Kortbord's own disk) or ``server`` (a database server)."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads that sees one committed state of the database."""

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """One transaction: committed if the block ends normally, rolled back otherwise."""

    async def _in_transaction(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """``work`` in one transaction (``_write``), as one piece: a database that can run it
        whole where its connection lives does so (SQLite, on its thread)."""
        async with self._write() as db:
            return await work(db)

    @abstractmethod
    async def _close(self) -> None: ...

    @abstractmethod
    async def ping(self) -> bool:
        """Whether the database answers (for health checks); never raises."""

    async def close(self) -> None:
        """Gives up this process's shards, waits for the writes in progress, then closes;
        closing twice is harmless."""
        if self._closed:
            return
        if self._line is not None:
            await self._line.close()
        if self._claim is not None:
            try:
                await self.release_shards()
            except StorageError as error:
                log.warning("could not give up the shards on %s: %s", self.where, error)
        self._closed = True
        await self._close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    def _require_open(self) -> None:
        if self._closed:
            raise StorageError(f"database {self.where} is closed")

    # --- shards -----------------------------------------------------------------------------

    @property
    def shards(self) -> Shards | None:
        """The shards this process claimed; None if it claimed none (it serves every table)."""
        return None if self._claim is None else self._claim[0]

    async def claim_shards(self, shards: Shards, owner: str, now: float, ttl: float) -> None:
        """Makes this process (``owner``) the one that serves ``shards`` until ``now + ttl``.

        All or nothing: raises ``ShardClaimError`` (and claims none) if another owner holds a
        lease on any of them that has not run out, or holds a live lease on any shard of a
        different shard count (the split must change with every process stopped).
        """
        async with self._write() as db:
            # Processes starting together claim in turn, so two never both see a shard free.
            await db.lock(CLAIM_LOCK)
            rows = await db.fetch("SELECT * FROM shard_leases ORDER BY shard_id")
            held = [
                row
                for row in rows
                if row["owner"] != owner
                and float(row["expires_at"]) > now
                and (int(row["shard_id"]) in shards.ids or int(row["shard_count"]) != shards.count)
            ]
            if held:
                who = "; ".join(
                    f"shard {row['shard_id']} of {row['shard_count']} by {row['owner']}"
                    f" for {round(float(row['expires_at']) - now)} s more"
                    for row in held
                )
                raise ShardClaimError(f"shards {shards.label} are taken: {who}")
            for shard_id in shards.ids:
                await db.execute(
                    "INSERT INTO shard_leases (shard_id, shard_count, owner, expires_at)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (shard_id) DO UPDATE SET"
                    " shard_count = excluded.shard_count, owner = excluded.owner,"
                    " expires_at = excluded.expires_at, web_address = NULL",
                    shard_id,
                    shards.count,
                    owner,
                    now + ttl,
                )
            # Leases of another count that ran out would only confuse the next claim.
            await db.execute("DELETE FROM shard_leases WHERE shard_count <> ?", shards.count)
        self._claim = (shards, owner)
        log.info("serving shards %s of %d as %s", shards.label, shards.count, owner)

    async def renew_shards(self, now: float, ttl: float) -> None:
        """Extends this process's leases to ``now + ttl``; raises ``ShardLostError`` if
        another process has taken any of them over (this one must stop serving them)."""
        if self._claim is None:
            return
        shards, owner = self._claim
        async with self._write() as db:
            renewed = await db.execute(
                "UPDATE shard_leases SET expires_at = ? WHERE owner = ?"
                f" AND shard_id IN ({placeholders(len(shards.ids))})",
                now + ttl,
                owner,
                *shards.ids,
            )
        if renewed != len(shards.ids):
            raise ShardLostError(f"shards {shards.label} are no longer all served by {owner}")

    async def release_shards(self) -> None:
        """Gives up this process's leases at once, so the next process need not wait."""
        if self._claim is None:
            return
        _, owner = self._claim
        async with self._write() as db:
            await db.execute("DELETE FROM shard_leases WHERE owner = ?", owner)
        self._claim = None

    @property
    def owner(self) -> str | None:
        """The name this process claimed its shards as; None if it claimed none."""
        return None if self._claim is None else self._claim[1]

    async def announce_web(self, address: str) -> None:
        """Writes where the other processes reach this one's web table (``address``) into the
        leases of its shards; a claim clears it, until the new owner announces its own."""
        if self._claim is None:
            return
        async with self._write() as db:
            await db.execute(
                "UPDATE shard_leases SET web_address = ? WHERE owner = ?", address, self._claim[1]
            )

    async def shard_server(self, guild_id: int, now: float) -> tuple[str, str | None] | None:
        """The process that serves ``guild_id``'s shard at ``now``: its name and announced web
        address; None while no process holds a lease on it that has not run out."""
        async with self._read() as db:
            rows = await db.fetch("SELECT shard_count FROM shard_leases LIMIT 1")
            if not rows:
                return None
            shard = (guild_id >> 22) % int(rows[0]["shard_count"])  # as Shards.of
            row = await db.fetchrow(
                "SELECT owner, web_address FROM shard_leases WHERE shard_id = ? AND expires_at > ?",
                shard,
                now,
            )
        if row is None:
            return None
        return str(row["owner"]), None if row["web_address"] is None else str(row["web_address"])

    async def guild_of(
        self,
        *,
        channel_id: int | None = None,
        table_id: int | None = None,
        user_id: int | None = None,
    ) -> int | None:
        """The server of the newest table in ``channel_id``, else of table ``table_id``, else
        of the live table ``user_id`` sits at; None if there is none."""
        async with self._read() as db:
            row = None
            if channel_id is not None:
                row = await db.fetchrow(
                    "SELECT guild_id FROM tables WHERE channel_id = ? OR thread_id = ?"
                    " ORDER BY table_id DESC LIMIT 1",
                    channel_id,
                    channel_id,
                )
            if row is None and table_id is not None:
                row = await db.fetchrow("SELECT guild_id FROM tables WHERE table_id = ?", table_id)
            if row is None and channel_id is None and user_id is not None:
                row = await db.fetchrow(
                    "SELECT t.guild_id FROM tables t JOIN seats s ON s.table_id = t.table_id"
                    " WHERE s.user_id = ? AND t.status IN ('lobby', 'playing', 'paused')"
                    " ORDER BY t.table_id DESC LIMIT 1",
                    user_id,
                )
        return None if row is None else int(row["guild_id"])

    async def _require_owner(self, db: Connection, guild_id: int) -> None:
        """Inside a write: this process holds the lease of the server's shard (if it claimed
        shards at all). On PostgreSQL the lease row stays locked until the commit, so a
        takeover waits for this write to end."""
        if self._claim is None:
            return
        shards, owner = self._claim
        shard = shards.of(guild_id)
        lock = " FOR SHARE" if db.dialect == "postgresql" else ""
        row = await db.fetchrow(f"SELECT owner FROM shard_leases WHERE shard_id = ?{lock}", shard)
        if shard not in shards.ids or row is None or row["owner"] != owner:
            raise ShardLostError(
                f"server {guild_id} is on shard {shard}, which {owner} does not serve"
            )

    # --- moving to another database ------------------------------------------------------------

    async def copy_to(self, target: Storage) -> dict[str, int]:
        """Copies everything this database holds into ``target``, which must hold nothing yet
        (``kortbord migrate-db``); returns how many rows each table had.

        One read of this database (a consistent snapshot) and one transaction on the target:
        if anything fails, the target is left empty. Table ids stay the same and are never
        handed out again. Shard leases are not copied: they belong to running processes.
        """
        async with target._read() as db:
            for name in COPIED:
                if await db.fetchrow(f"SELECT 1 FROM {name} LIMIT 1") is not None:
                    raise StorageError(
                        f"{target.where} already holds data (in {name}); move into an empty"
                        " database"
                    )
        async with self._read() as db:
            contents = {name: await db.fetch(f"SELECT * FROM {name}") for name in COPIED}
            next_id = await self._next_table_id(db)
        async with target._write() as db:
            for name, rows in contents.items():
                if not rows:
                    continue
                columns = list(rows[0].keys())
                await db.executemany(
                    f"INSERT INTO {name} ({', '.join(columns)})"
                    f" VALUES ({placeholders(len(columns))})",
                    [tuple(row[column] for column in columns) for row in rows],
                )
            await target._after_copy(db, next_id)
        return {name: len(rows) for name, rows in contents.items()}

    @abstractmethod
    async def _next_table_id(self, db: Connection) -> int:
        """The id the next new table would get (never one used before, even if deleted)."""

    @abstractmethod
    async def _after_copy(self, db: Connection, next_id: int) -> None:
        """Makes the next new table get ``next_id`` or later (inside the copy's transaction)."""

    # --- server settings --------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults if it never saved any."""
        async with self._read() as db:
            row = await db.fetchrow("SELECT * FROM guild_settings WHERE guild_id = ?", guild_id)
        if row is None:
            return GuildSettings(guild_id)
        language = row["language"]
        try:
            channels = int_tuple(json.loads(row["table_channels"]))
        except (ValueError, TypeError) as error:
            log.warning(
                "guild %d: unreadable table channels, any channel allowed: %s", guild_id, error
            )
            channels = ()
        return GuildSettings(
            guild_id=guild_id,
            language=cast(Language, language) if language in LANGUAGES else None,
            thread_per_table=bool(row["thread_per_table"]),
            turn_seconds=opt_int(row["turn_seconds"]),
            reaction_seconds=opt_int(row["reaction_seconds"]),
            table_channels=channels,
            pictures=bool(row["pictures"]),
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, language, thread_per_table, turn_seconds,"
                " reaction_seconds, table_channels, pictures) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
                " thread_per_table = excluded.thread_per_table,"
                " turn_seconds = excluded.turn_seconds,"
                " reaction_seconds = excluded.reaction_seconds,"
                " table_channels = excluded.table_channels, pictures = excluded.pictures",
                settings.guild_id,
                settings.language,
                int(settings.thread_per_table),
                settings.turn_seconds,
                settings.reaction_seconds,
                json.dumps(list(settings.table_channels)),
                int(settings.pictures),
            )

    # --- tables -----------------------------------------------------------------------------

    async def create_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        game_id: str,
        variant: str,
        seed: int,
        turn_seconds: int,
        language: str,
        created_at: float,
        options: tuple[tuple[str, str], ...] = (),
        thread_id: int | None = None,
        message_id: int | None = None,
        status: TableStatus = "lobby",
        version: int = 0,
        updated_at: float | None = None,
        deadline_at: float | None = None,
        seats: tuple[SeatRecord, ...] = (),
        end_reason: str | None = None,
    ) -> TableRecord:
        """Stores a new table with its seats; returns it with its new ``table_id``."""
        check_seats(seats)
        table = TableRecord(
            table_id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            message_id=message_id,
            host_id=host_id,
            game_id=game_id,
            options=options,
            variant=variant,
            seed=seed,
            status=status,
            turn_seconds=turn_seconds,
            language=language,
            version=version,
            created_at=created_at,
            updated_at=created_at if updated_at is None else updated_at,
            deadline_at=deadline_at,
            seats=seats,
            end_reason=end_reason,
        )
        async with self._write() as db:
            await self._require_owner(db, guild_id)
            row = await db.fetchrow(
                f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({placeholders(17)})"
                " RETURNING table_id",
                *table_values(table),
            )
            if row is None:
                raise StorageError("the new table got no id")
            table = replace(table, table_id=int(row[0]))
            await _write_seats(db, [table])
        return table

    async def save_table(self, table: TableRecord) -> None:
        """Saves the table row and its seats as given (not its actions)."""
        check_seats(table.seats)
        async with self._write() as db:
            await self._require_owner(db, table.guild_id)
            await _write_table(db, table)

    async def save_tables(self, tables: list[TableRecord]) -> None:
        """Saves each table's row and seats as given, as ``save_table`` does, with one statement
        each for many tables (a restart resumes thousands): ``SAVED_AT_ONCE`` tables per
        transaction. Raises ``TableNotFoundError`` (that transaction's tables unchanged) if
        one of them is not stored."""
        for table in tables:
            check_seats(table.seats)
        for start in range(0, len(tables), SAVED_AT_ONCE):
            part = tables[start : start + SAVED_AT_ONCE]
            async with self._write() as db:
                for guild_id in {table.guild_id for table in part}:
                    await self._require_owner(db, guild_id)
                ids = [table.table_id for table in part]
                among, args = one_of(db, "table_id", ids)
                found = await db.fetch(f"SELECT table_id FROM tables WHERE {among}", *args)
                missing = set(ids) - {int(row["table_id"]) for row in found}
                if missing:
                    raise TableNotFoundError(f"no table {min(missing)}")
                await _write_tables(db, part)

    def record_action(
        self, table: TableRecord, action: ActionRecord, *, seats: bool = True
    ) -> Awaitable[None]:
        """Appends ``action`` and saves what play changes of ``table`` (its row's
        ``PLAYED_COLUMNS``: status, version, deadline and when it changed; and its seats)
        together, committed once what it returns has been awaited. The rest of the row is as
        stored (it is saved where it changes, ``save_table``). ``seats`` off: the table's seats
        are as stored already (most actions change none), so only its row is saved with the
        action. Not a coroutine itself: it checks its arguments at once and returns the wait in
        line (``ActionLine.put``), one coroutine less for each of thousands of actions waiting.

        Raises ``DuplicateActionError`` if the log already has ``action.seq``, and
        ``TableNotLiveError`` if the stored table is finished or ended; then nothing is changed,
        the table row included.

        Group commit (``group.py``): the actions of many tables that arrive together are
        written in one transaction, each table's in the order they came. The wait for a turn is
        not bounded by the timeout, only the transaction itself.
        """
        check_seats(table.seats)
        if not 0 <= action.seat < len(table.seats):
            raise ValueError(f"table {table.table_id} has no seat {action.seat}")
        self._require_open()
        if self._line is None:
            self._line = ActionLine(self._commit_actions, writers=self._writers)
        return self._line.put(table, action, seats=seats)

    @property
    def _writers(self) -> int:
        """How many batches of actions may be written at once."""
        return 1

    async def _commit_actions(self, batch: list[Pending]) -> list[StorageError | None]:
        """Writes ``batch`` (one action each of different tables) in one transaction; for each,
        None or why it alone was refused. If the transaction fails for a reason other than an
        outage, each action is tried again in a transaction of its own, so that one bad action
        never keeps the others from being kept."""
        try:
            return await self._in_transaction(lambda db: self._record_batch(db, batch))
        except StorageUnavailable:
            raise
        except StorageError:
            if len(batch) == 1:
                raise
        answers: list[StorageError | None] = []
        for pending in batch:
            try:
                [answer] = await self._in_transaction(
                    functools.partial(self._record_batch, batch=[pending])
                )
            except StorageUnavailable:
                raise
            except UniqueViolation:
                answer = DuplicateActionError(
                    f"table {pending.table.table_id} already has action {pending.action.seq}"
                )
            except StorageError as error:
                answer = error
            answers.append(answer)
        return answers

    async def _record_batch(
        self, db: Connection, batch: list[Pending]
    ) -> list[StorageError | None]:
        """Inside a transaction: checks every action of ``batch`` with a few reads for all of
        them, then writes those not refused with one statement each for all of them.

        On SQLite a batch is first written as if every action will be kept, which it almost
        always is (``_record_unchecked``); when one is not, that write is undone and the batch
        checked as on PostgreSQL, in the same transaction."""
        if db.dialect == "sqlite" and len(batch) > 1 and self._claim is None:
            await db.execute("SAVEPOINT unchecked")
            try:
                await self._record_unchecked(db, batch)
            except (_NotAllLive, UniqueViolation):
                await db.execute("ROLLBACK TO unchecked")
            else:
                await db.execute("RELEASE unchecked")
                return [None] * len(batch)
            await db.execute("RELEASE unchecked")
        answers: list[StorageError | None] = [None] * len(batch)
        for guild_id in {p.table.guild_id for p in batch}:
            try:
                await self._require_owner(db, guild_id)
            except ShardLostError as error:
                for i, pending in enumerate(batch):
                    if pending.table.guild_id == guild_id:
                        answers[i] = error
        ids = [p.table.table_id for p in batch]
        among, args = one_of(db, "table_id", ids)
        status = {
            int(row["table_id"]): str(row["status"])
            for row in await db.fetch(f"SELECT table_id, status FROM tables WHERE {among}", *args)
        }
        seqs, seq_args = one_of(db, "seq", sorted({p.action.seq for p in batch}))
        taken = {
            (int(row["table_id"]), int(row["seq"]))
            for row in await db.fetch(
                f"SELECT table_id, seq FROM actions WHERE {among} AND {seqs}", *args, *seq_args
            )
        }
        for i, pending in enumerate(batch):
            table_id, seq = pending.table.table_id, pending.action.seq
            if answers[i] is not None:
                continue
            if table_id not in status:
                answers[i] = TableNotFoundError(f"no table {table_id}")
            elif status[table_id] not in LIVE_STATUSES:
                answers[i] = TableNotLiveError(f"table {table_id} is already {status[table_id]}")
            elif (table_id, seq) in taken:
                answers[i] = DuplicateActionError(f"table {table_id} already has action {seq}")
        kept = [p for p, answer in zip(batch, answers, strict=True) if answer is None]
        if kept:
            await _write_rows(db, [p.table for p in kept], PLAYED_COLUMNS, _played_values)
            changed = [p.table for p in kept if p.seats]
            if changed:
                await _write_seats(db, changed)
            await db.executemany(
                f"INSERT INTO actions ({', '.join(ACTION_COLUMNS)})"
                f" VALUES ({placeholders(len(ACTION_COLUMNS))})",
                [_action_values(p) for p in kept],
            )
        return answers

    async def _record_unchecked(self, db: Connection, batch: list[Pending]) -> None:
        """Writes ``batch`` without reading first: each table's row is saved only if it is live
        (``_NotAllLive`` when one is not, or missing) and an action already logged breaks the
        log's key (``UniqueViolation``). SQLite's reads and ``executemany`` go a row at a time,
        each row waiting for the event loop to let go of Python's lock, where these statements
        carry hundreds of rows each (``insert_rows``)."""
        saved = await update_rows(
            db,
            "tables",
            "table_id",
            PLAYED_COLUMNS,
            [(p.table.table_id, *_played_values(p.table)) for p in batch],
            where=f"tables.status IN ({_LIVE_LIST})",
        )
        if saved != len(batch):
            raise _NotAllLive(f"{len(batch) - saved} of {len(batch)} tables are not live")
        changed = [p.table for p in batch if p.seats]
        if changed:
            await _write_seats(db, changed)
        await insert_rows(db, "actions", ACTION_COLUMNS, [_action_values(p) for p in batch])

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """The table's action log in order."""
        async with self._read() as db:
            rows = await _action_rows(db, table_id)
        return [action_from_row(row) for row in rows]

    async def table(self, table_id: int, *, strict: bool = False) -> TableRecord | None:
        """One table as stored, whatever its status; None if there is none (or it is corrupt;
        ``strict``: ``UnreadableTableError`` saying what is wrong with it)."""
        async with self._read() as db:
            row = await db.fetchrow("SELECT * FROM tables WHERE table_id = ?", table_id)
            if row is None:
                return None
            seat_rows = await _seat_rows(db, table_id)
        try:
            return table_from_row(row, seat_rows)
        except (ValueError, TypeError, KeyError) as error:
            if strict:
                raise UnreadableTableError(f"table {table_id} cannot be read: {error}") from None
            log.warning("table %d cannot be read: %s", table_id, error)
            return None

    async def live_tables(self, shards: Shards | None = None) -> list[StoredTable]:
        """Every table in the lobby, playing or paused, with its action log, for a restart;
        only those of the servers on ``shards`` if given.

        A corrupt row never drops a table silently: a table whose row is partly unreadable (bad
        options JSON, an unknown status, seats out of order) comes back with what can be read,
        and an action log with a corrupt entry (unreadable, a seat out of range, a gap) with
        the entries before it; ``damage`` says what is wrong, and every row stays in the
        database as it is. Only a row whose server, channel or host cannot be read is left out,
        logged with its table id.
        """
        live = "status NOT IN ('finished', 'ended')"
        args: list[object] = []
        if shards is not None:
            live += f" AND (guild_id >> 22) % ? IN ({placeholders(len(shards.ids))})"
            args = [shards.count, *shards.ids]
        async with self._read() as db:
            rows = await db.fetch(f"SELECT * FROM tables WHERE {live} ORDER BY table_id", *args)
            # Three reads for all the tables, not three per table: a restart of a busy
            # process loads thousands.
            seat_rows = await db.fetch(
                f"SELECT s.* FROM seats s JOIN tables USING (table_id) WHERE {live}"
                " ORDER BY s.table_id, s.seat",
                *args,
            )
            action_rows = await db.fetch(
                f"SELECT a.* FROM actions a JOIN tables USING (table_id) WHERE {live}"
                " ORDER BY a.table_id, a.seq",
                *args,
            )
        seats_of: dict[int, list[Row]] = {}
        for seat in seat_rows:
            seats_of.setdefault(int(seat["table_id"]), []).append(seat)
        actions_of: dict[int, list[Row]] = {}
        for entry in action_rows:
            actions_of.setdefault(int(entry["table_id"]), []).append(entry)
        loaded = []
        for row in rows:
            table_id = int(row["table_id"])
            try:
                table, damage = read_table_row(row, seats_of.get(table_id, []))
            except (ValueError, TypeError, KeyError) as error:
                log.error(
                    "table %s is corrupt beyond reading and was not restored: %s", table_id, error
                )
                continue
            if damage is not None:
                loaded.append(StoredTable(table, [], damage))
                continue
            log_entries, damage = sound_actions(actions_of.get(table_id, []), len(table.seats))
            loaded.append(StoredTable(table, log_entries, damage))
        return loaded

    async def finish_table(
        self,
        table: TableRecord,
        scores: tuple[int, ...],
        places: tuple[int, ...],
        rated: Rated | None = None,
    ) -> list[SkillChange]:
        """Marks the table finished and stores its result, in one transaction; with ``rated``,
        also the standings of its members: each one's skill as ``rated.rate`` makes it, a game
        more, a win for a first place and the place counted. Returns those members' skills
        before and after, in the order of ``rated.members`` (empty without ``rated``)."""
        if not len(scores) == len(places) == len(table.seats):
            raise ValueError(
                f"table {table.table_id} has {len(table.seats)} seats,"
                f" but {len(scores)} scores and {len(places)} places"
            )
        check_seats(table.seats)
        finished = replace(table, status="finished", deadline_at=None)
        async with self._write() as db:
            await self._require_owner(db, table.guild_id)
            await _require_live(db, table.table_id)
            await _write_table(db, finished)
            await db.executemany(
                "INSERT INTO results (table_id, seat, user_id, score, place)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (table.table_id, seat.seat, seat.user_id, score, place)
                    for seat, score, place in zip(table.seats, scores, places, strict=True)
                ],
            )
            if rated is None or not rated.members:
                return []
            return await _store_standings(db, table, rated)

    async def end_damaged_table(self, table: TableRecord, reason: str) -> None:
        """Ends a damaged table (see ``live_tables``): only its status changes, so its corrupt
        rows stay as they were for someone to look at."""
        async with self._write() as db:
            await self._require_owner(db, table.guild_id)
            changed = await db.execute(
                "UPDATE tables SET status = 'ended', deadline_at = NULL, end_reason = ?"
                " WHERE table_id = ? AND status NOT IN ('finished', 'ended')",
                reason,
                table.table_id,
            )
            if changed == 0:
                raise TableNotLiveError(f"table {table.table_id} is no longer live")

    async def end_table(self, table: TableRecord, reason: str) -> None:
        """Ends a table without a result (abandoned, idle, ended by the host...)."""
        ended = replace(table, status="ended", deadline_at=None, end_reason=reason)
        async with self._write() as db:
            await self._require_owner(db, table.guild_id)
            await _require_live(db, table.table_id)
            await _write_table(db, ended)

    # --- leaderboards -----------------------------------------------------------------------

    async def standings(
        self, guild_id: int, game_id: str, limit: int, spread: float
    ) -> list[StandingRow]:
        """The server's standings at a game, best first by ``mu - spread * sigma`` (then wins,
        then fewer games), at most ``limit``."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT user_id, name, games, wins, mu, sigma FROM standings"
                " WHERE guild_id = ? AND game_id = ?"
                " ORDER BY mu - ? * sigma DESC, wins DESC, games ASC, user_id ASC LIMIT ?",
                guild_id,
                game_id,
                spread,
                limit,
            )
        return [
            StandingRow(
                user_id=int(row["user_id"]),
                name=str(row["name"]),
                games=int(row["games"]),
                wins=int(row["wins"]),
                mu=float(row["mu"]),
                sigma=float(row["sigma"]),
            )
            for row in rows
        ]

    async def member_games(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The member's record in each game they played on the server, by game id."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT game_id, games, wins, mu, sigma FROM standings"
                " WHERE guild_id = ? AND user_id = ? ORDER BY game_id",
                guild_id,
                user_id,
            )
            placing_rows = await db.fetch(
                "SELECT game_id, place, count FROM placings WHERE guild_id = ? AND user_id = ?",
                guild_id,
                user_id,
            )
        counts: dict[str, dict[int, int]] = {}
        for row in placing_rows:
            counts.setdefault(str(row["game_id"]), {})[int(row["place"])] = int(row["count"])
        games = []
        for row in rows:
            game_counts = counts.get(str(row["game_id"]), {})
            last = max(game_counts, default=0)
            games.append(
                GameRow(
                    game_id=str(row["game_id"]),
                    games=int(row["games"]),
                    wins=int(row["wins"]),
                    places=tuple(game_counts.get(place, 0) for place in range(1, last + 1)),
                    mu=float(row["mu"]),
                    sigma=float(row["sigma"]),
                )
            )
        return games

    # --- a member's own choices -----------------------------------------------------------------

    async def member_choice(self, choice: MemberChoice, user_id: int) -> bool:
        """Whether the member keeps ``choice`` on (the default, until they turn it off)."""
        table = _off_table(choice)
        async with self._read() as db:
            row = await db.fetchrow(f"SELECT 1 FROM {table} WHERE user_id = ?", user_id)
        return row is None

    async def member_choices(
        self, choice: MemberChoice, user_ids: Sequence[int]
    ) -> dict[int, bool]:
        """``member_choice`` of each of ``user_ids``, in one read."""
        table = _off_table(choice)
        async with self._read() as db:
            among, args = one_of(db, "user_id", list(user_ids))
            rows = await db.fetch(f"SELECT user_id FROM {table} WHERE {among}", *args)
        off = {int(row["user_id"]) for row in rows}
        return {user_id: user_id not in off for user_id in user_ids}

    async def set_member_choice(self, choice: MemberChoice, user_id: int, on: bool) -> None:
        table = _off_table(choice)
        async with self._write() as db:
            if on:
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", user_id)
            else:
                await db.execute(
                    f"INSERT INTO {table} (user_id) VALUES (?) ON CONFLICT DO NOTHING", user_id
                )

    # --- a member's private view -------------------------------------------------------------

    async def unreachable(self, user_id: int) -> bool:
        """Whether a face found it cannot reach the member privately (and has not since)."""
        async with self._read() as db:
            row = await db.fetchrow("SELECT 1 FROM unreachable_members WHERE user_id = ?", user_id)
            return row is not None

    async def set_unreachable(self, user_id: int, unreachable: bool) -> None:
        async with self._write() as db:
            if unreachable:
                await db.execute(
                    "INSERT INTO unreachable_members (user_id) VALUES (?) ON CONFLICT DO NOTHING",
                    user_id,
                )
            else:
                await db.execute("DELETE FROM unreachable_members WHERE user_id = ?", user_id)

    async def private_copy(self, table_id: int, user_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of the message carrying the member's private view of the
        table, as the face that posted it keeps it."""
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT channel_id, message_id FROM private_copies"
                " WHERE table_id = ? AND user_id = ?",
                table_id,
                user_id,
            )
        return None if row is None else (int(row[0]), int(row[1]))

    async def set_private_copy(
        self, table_id: int, user_id: int, channel_id: int, message_id: int
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO private_copies (table_id, user_id, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                table_id,
                user_id,
                channel_id,
                message_id,
            )


# --- SQL helpers (inside a transaction or a read) ------------------------------------------------


async def _write_table(db: Connection, table: TableRecord) -> None:
    assignments = ", ".join(f"{column} = ?" for column in TABLE_COLUMN_NAMES)
    changed = await db.execute(
        f"UPDATE tables SET {assignments} WHERE table_id = ?",
        *table_values(table),
        table.table_id,
    )
    if changed == 0:
        raise TableNotFoundError(f"no table {table.table_id}")
    await _write_seats(db, [table])


async def _write_tables(db: Connection, tables: list[TableRecord]) -> None:
    """Saves rows and seats of ``tables``, known to exist, with one statement each for all."""
    await _write_rows(db, tables)
    await _write_seats(db, tables)


ACTION_COLUMNS = ("table_id", "seq", "seat", "notation", "at", "by")
TABLE_COLUMN_NAMES = tuple(column.strip() for column in TABLE_COLUMNS.split(","))
_LIVE_LIST = ", ".join(f"'{status}'" for status in sorted(LIVE_STATUSES))
"""The live statuses as an SQL list, for a batch's unchecked write (``_record_unchecked``)."""


class _NotAllLive(StorageError):
    """A batch written unchecked met a table that is not live (``_record_unchecked``)."""


PLAYED_COLUMNS = ("status", "version", "updated_at", "deadline_at")
"""What play changes of a table's row (``TableRecord.acted``), saved with each action: the rest
of the row (its options, host, message...) is saved where it changes (``save_table``), and
writing it again with every action was most of an action's write."""


def _played_values(table: TableRecord) -> tuple[object, ...]:
    """The values of ``PLAYED_COLUMNS``, in order."""
    return (table.status, table.version, table.updated_at, table.deadline_at)


def _action_values(pending: Pending) -> tuple[object, ...]:
    """The values of ``ACTION_COLUMNS`` of a pending action."""
    action = pending.action
    return (pending.table.table_id, action.seq, action.seat, action.notation, action.at, action.by)


async def _write_rows(
    db: Connection,
    tables: list[TableRecord],
    columns: Sequence[str] = TABLE_COLUMN_NAMES,
    values: Callable[[TableRecord], tuple[object, ...]] = table_values,
) -> None:
    """Saves the rows of ``tables`` (not their seats), known to exist, in one statement: all
    their columns, or ``columns`` (with their ``values``: an action's ``PLAYED_COLUMNS``)."""
    assignments = ", ".join(f"{column} = ?" for column in columns)
    await db.executemany(
        f"UPDATE tables SET {assignments} WHERE table_id = ?",
        [(*values(table), table.table_id) for table in tables],
    )


async def _write_seats(db: Connection, tables: list[TableRecord]) -> None:
    among, args = one_of(db, "table_id", [table.table_id for table in tables])
    await db.execute(f"DELETE FROM seats WHERE {among}", *args)
    await db.executemany(
        "INSERT INTO seats (table_id, seat, user_id, name, ai, autoplay, strikes, left_table)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                table.table_id,
                s.seat,
                s.user_id,
                s.name,
                s.ai,
                int(s.autoplay),
                s.strikes,
                int(s.left),
            )
            for table in tables
            for s in table.seats
        ],
    )


async def _require_live(db: Connection, table_id: int) -> None:
    row = await db.fetchrow("SELECT status FROM tables WHERE table_id = ?", table_id)
    if row is None:
        raise TableNotFoundError(f"no table {table_id}")
    if row["status"] not in LIVE_STATUSES:
        raise TableNotLiveError(f"table {table_id} is already {row['status']}")


async def _seat_rows(db: Connection, table_id: int) -> list[Row]:
    return await db.fetch("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", table_id)


async def _action_rows(db: Connection, table_id: int) -> list[Row]:
    return await db.fetch("SELECT * FROM actions WHERE table_id = ? ORDER BY seq", table_id)


# --- standings ----------------------------------------------------------------------------------


async def _store_standings(db: Connection, table: TableRecord, rated: Rated) -> list[SkillChange]:
    """Updates the standings of ``rated.members``; see ``Storage.finish_table``."""
    # Two tables of one server finishing at once read and write the same standings.
    await db.lock(table.guild_id)
    before = [await _skill(db, table, member.user_id) for member in rated.members]
    after = rated.rate(before)
    if len(after) != len(before):
        raise ValueError(f"{len(before)} members rated, but {len(after)} skills given back")
    changes = []
    for member, old, new in zip(rated.members, before, after, strict=True):
        key = (table.guild_id, table.game_id, member.user_id)
        await db.execute(
            "INSERT INTO standings (guild_id, game_id, user_id, name, games, wins, mu, sigma)"
            " VALUES (?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, game_id, user_id) DO UPDATE"
            " SET name = excluded.name, games = standings.games + 1,"
            " wins = standings.wins + excluded.wins, mu = excluded.mu, sigma = excluded.sigma",
            *key,
            member.name,
            int(member.place == 1),
            new.mu,
            new.sigma,
        )
        await db.execute(
            "INSERT INTO placings (guild_id, game_id, user_id, place, count)"
            " VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, game_id, user_id, place) DO UPDATE"
            " SET count = placings.count + 1",
            *key,
            member.place,
        )
        changes.append(SkillChange(member.user_id, old, new))
    return changes


async def _skill(db: Connection, table: TableRecord, user_id: int) -> Skill | None:
    row = await db.fetchrow(
        "SELECT mu, sigma FROM standings WHERE guild_id = ? AND game_id = ? AND user_id = ?",
        table.guild_id,
        table.game_id,
        user_id,
    )
    return None if row is None else Skill(float(row[0]), float(row[1]))
