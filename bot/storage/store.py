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

import json
import logging
import re
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Self, cast

from bot import ratings
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
from bot.storage.records import (
    LANGUAGES,
    LIVE_STATUSES,
    MEMBER_CHOICES,
    ActionRecord,
    GameStats,
    GuildSettings,
    Language,
    MemberChoice,
    RatingChange,
    SeatRecord,
    Shards,
    Standing,
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
from bot.storage.sql import Connection, Row, placeholders
from games.ai.levels import level_of

log = logging.getLogger(__name__)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")

TIMEOUT = 5.0
"""Seconds a read or a write may take, waiting for a connection included, before it counts as
not done (``StorageUnavailable``): a database that hangs never holds a table for longer."""

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
    "dm_closed",
    "dm_messages",
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
        """Seconds a read or a write may take before it counts as not done."""
        self._closed = False
        self._claim: tuple[Shards, str] | None = None
        self._away_since: float | None = None

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

    def _went_away(self, error: StorageUnavailable) -> None:
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

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Connection]:
        """A connection for reads that sees one committed state of the database."""

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Connection]:
        """One transaction: committed if the block ends normally, rolled back otherwise."""

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
            await _write_seats(db, table)
        return table

    async def save_table(self, table: TableRecord) -> None:
        """Saves the table row and its seats as given (not its actions)."""
        check_seats(table.seats)
        async with self._write() as db:
            await self._require_owner(db, table.guild_id)
            await _write_table(db, table)

    async def record_action(self, table: TableRecord, action: ActionRecord) -> None:
        """Appends ``action`` and saves ``table`` (version, deadline, seats, status) together.

        Raises ``DuplicateActionError`` if the log already has ``action.seq``, and
        ``TableNotLiveError`` if the stored table is finished or ended; then nothing is changed,
        the table row included.
        """
        check_seats(table.seats)
        if not 0 <= action.seat < len(table.seats):
            raise ValueError(f"table {table.table_id} has no seat {action.seat}")
        async with self._write() as db:
            await self._require_owner(db, table.guild_id)
            await _require_live(db, table.table_id)
            await _write_table(db, table)
            try:
                await db.execute(
                    "INSERT INTO actions (table_id, seq, seat, notation, at, by)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    table.table_id,
                    action.seq,
                    action.seat,
                    action.notation,
                    action.at,
                    action.by,
                )
            except UniqueViolation as error:
                raise DuplicateActionError(
                    f"table {table.table_id} already has action {action.seq}"
                ) from error

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
        teams: tuple[tuple[int, ...], ...] = (),
    ) -> list[RatingChange]:
        """Marks the table finished, stores its result and updates the leaderboard.

        One transaction. Computer seats get a result row but no rating. Only a table with two or
        more members (each in one seat) counts for the leaderboard: games, wins, places and
        OpenSkill ratings; otherwise nothing there changes and the answer is empty. Returns the
        members' rating changes in seat order. ``teams`` are the partnerships of a partnership
        game (seats), whose members are rated as teams.
        """
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
            return await _rate(db, table, places, teams)

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

    async def leaderboard(self, guild_id: int, game_id: str, limit: int = 10) -> list[Standing]:
        """The server's best members at a game, by rating (then wins, then fewer games)."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT user_id, name, games, wins, mu, sigma FROM standings"
                " WHERE guild_id = ? AND game_id = ?"
                " ORDER BY mu - ? * sigma DESC, wins DESC, games ASC, user_id ASC LIMIT ?",
                guild_id,
                game_id,
                ratings.Z,
                limit,
            )
        return [
            Standing(
                user_id=int(row["user_id"]),
                name=str(row["name"]),
                games=int(row["games"]),
                wins=int(row["wins"]),
                rating=ratings.display(ratings.Skill(float(row["mu"]), float(row["sigma"]))),
                mu=float(row["mu"]),
                sigma=float(row["sigma"]),
            )
            for row in rows
        ]

    async def member_stats(self, guild_id: int, user_id: int) -> list[GameStats]:
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
        stats = []
        for row in rows:
            game_counts = counts.get(str(row["game_id"]), {})
            last = max(game_counts, default=0)
            stats.append(
                GameStats(
                    game_id=str(row["game_id"]),
                    games=int(row["games"]),
                    wins=int(row["wins"]),
                    places=tuple(game_counts.get(place, 0) for place in range(1, last + 1)),
                    rating=ratings.display(ratings.Skill(float(row["mu"]), float(row["sigma"]))),
                )
            )
        return stats

    # --- a member's own choices -----------------------------------------------------------------

    async def member_choice(self, choice: MemberChoice, user_id: int) -> bool:
        """Whether the member keeps ``choice`` on (the default, until they turn it off)."""
        table = _off_table(choice)
        async with self._read() as db:
            row = await db.fetchrow(f"SELECT 1 FROM {table} WHERE user_id = ?", user_id)
        return row is None

    async def set_member_choice(self, choice: MemberChoice, user_id: int, on: bool) -> None:
        table = _off_table(choice)
        async with self._write() as db:
            if on:
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", user_id)
            else:
                await db.execute(
                    f"INSERT INTO {table} (user_id) VALUES (?) ON CONFLICT DO NOTHING", user_id
                )

    # --- direct messages --------------------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        """Whether the member's DMs were found closed (and not found open since)."""
        async with self._read() as db:
            return (
                await db.fetchrow("SELECT 1 FROM dm_closed WHERE user_id = ?", user_id) is not None
            )

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        async with self._write() as db:
            if closed:
                await db.execute(
                    "INSERT INTO dm_closed (user_id) VALUES (?) ON CONFLICT DO NOTHING", user_id
                )
            else:
                await db.execute("DELETE FROM dm_closed WHERE user_id = ?", user_id)

    async def dm_message(self, table_id: int, user_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of the DM carrying the member's hand at the table."""
        async with self._read() as db:
            row = await db.fetchrow(
                "SELECT channel_id, message_id FROM dm_messages WHERE table_id = ? AND user_id = ?",
                table_id,
                user_id,
            )
        return None if row is None else (int(row[0]), int(row[1]))

    async def set_dm_message(
        self, table_id: int, user_id: int, channel_id: int, message_id: int
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO dm_messages (table_id, user_id, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                table_id,
                user_id,
                channel_id,
                message_id,
            )


# --- SQL helpers (inside a transaction or a read) ------------------------------------------------


async def _write_table(db: Connection, table: TableRecord) -> None:
    assignments = ", ".join(f"{column.strip()} = ?" for column in TABLE_COLUMNS.split(","))
    changed = await db.execute(
        f"UPDATE tables SET {assignments} WHERE table_id = ?",
        *table_values(table),
        table.table_id,
    )
    if changed == 0:
        raise TableNotFoundError(f"no table {table.table_id}")
    await _write_seats(db, table)


async def _write_seats(db: Connection, table: TableRecord) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = ?", table.table_id)
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


# --- ratings -------------------------------------------------------------------------------------


async def _rate(
    db: Connection,
    table: TableRecord,
    places: tuple[int, ...],
    teams: tuple[tuple[int, ...], ...] = (),
) -> list[RatingChange]:
    """Updates the leaderboard for the table's members; see ``Storage.finish_table``."""
    side_of = {seat: len(table.seats) + i for i, team in enumerate(teams) for seat in team}
    members = [
        (seat.user_id, seat.name, place)
        for seat, place in zip(table.seats, places, strict=True)
        if seat.user_id is not None
    ]
    sides = [side_of.get(s.seat, s.seat) for s in table.seats if s.user_id is not None]
    if len(members) < 2:
        return []
    if len({user_id for user_id, _, _ in members}) != len(members):
        log.info("table %d: a member held several seats, so it is not rated", table.table_id)
        return []
    # Computer players are not rated, but the places against them count (bot/ratings.py).
    computers = [
        ratings.Computer(level_of(seat.ai), place, side_of.get(seat.seat))
        for seat, place in zip(table.seats, places, strict=True)
        if seat.user_id is None
    ]
    # Two tables of one server finishing at once read and write the same standings.
    await db.lock(table.guild_id)
    before = [await _skill(db, table, user_id) for user_id, _, _ in members]
    after = ratings.rate(before, [place for _, _, place in members], sides, computers)
    changes = []
    for (user_id, name, place), old, new in zip(members, before, after, strict=True):
        key = (table.guild_id, table.game_id, user_id)
        await db.execute(
            "INSERT INTO standings (guild_id, game_id, user_id, name, games, wins, mu, sigma)"
            " VALUES (?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, game_id, user_id) DO UPDATE"
            " SET name = excluded.name, games = standings.games + 1,"
            " wins = standings.wins + excluded.wins, mu = excluded.mu, sigma = excluded.sigma",
            *key,
            name,
            int(place == 1),
            new.mu,
            new.sigma,
        )
        await db.execute(
            "INSERT INTO placings (guild_id, game_id, user_id, place, count)"
            " VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, game_id, user_id, place) DO UPDATE"
            " SET count = placings.count + 1",
            *key,
            place,
        )
        changes.append(RatingChange(user_id, ratings.display(old), ratings.display(new)))
    return changes


async def _skill(db: Connection, table: TableRecord, user_id: int) -> ratings.Skill:
    row = await db.fetchrow(
        "SELECT mu, sigma FROM standings WHERE guild_id = ? AND game_id = ? AND user_id = ?",
        table.guild_id,
        table.game_id,
        user_id,
    )
    return ratings.Skill() if row is None else ratings.Skill(float(row[0]), float(row[1]))
