"""``Storage``: everything Kortbord keeps, in one SQLite file; the only code that speaks SQL.

One aiosqlite connection in WAL mode with foreign keys on. Every write is one explicit
transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error) taken under one
asyncio lock; reads take the same lock, so a reader never sees half of another coroutine's
transaction on the shared connection. Schema changes are numbered migrations run on open.

It knows nothing of Discord or of the rules: it stores what the session manager gives it and
hands it back after a restart. It has no clock: every time is given by the caller.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Self, cast

import aiosqlite

from bot import ratings
from bot.storage import schema
from bot.storage.errors import (
    DuplicateActionError,
    StorageError,
    TableNotFoundError,
    TableNotLiveError,
)
from bot.storage.records import (
    LANGUAGES,
    LIVE_STATUSES,
    ActionRecord,
    GameStats,
    GuildSettings,
    Language,
    RatingChange,
    SeatRecord,
    Standing,
    TableRecord,
    TableStatus,
)
from bot.storage.rows import (
    TABLE_COLUMNS,
    action_from_row,
    check_seats,
    int_tuple,
    opt_int,
    table_from_row,
    table_values,
)

log = logging.getLogger(__name__)


class Storage:
    """The database behind one bot process. Open with ``await Storage.open(path)``."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self._path = path
        self._lock = asyncio.Lock()
        self._closed = False

    # --- life -------------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: Path | str) -> Storage:
        """Opens (creating it and its directory if needed) and migrates the database at ``path``.

        Raises ``SchemaTooNewError`` for a database written by a newer Kortbord.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(path, isolation_level=None)
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
            version = await schema.migrate(db, str(path), schema.migrations())
        except BaseException:
            await db.close()
            raise
        log.info("opened database %s (schema version %d)", path, version)
        return cls(db, path)

    async def close(self) -> None:
        """Waits for the write in progress, then closes; closing twice is harmless."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def ping(self) -> bool:
        """Whether the database answers (for health checks); never raises."""
        try:
            async with self._read() as db, db.execute("SELECT 1") as cursor:
                row = await cursor.fetchone()
        except (sqlite3.Error, ValueError, StorageError) as error:
            log.warning("database %s does not answer: %s", self._path, error)
            return False
        return row is not None and row[0] == 1

    @staticmethod
    async def probe(path: Path | str) -> str | None:
        """Whether the database file at ``path`` answers a read; for a health check run as
        another process while the bot holds the database open.

        Opens it read-only, creates and migrates nothing. Returns None when it answers, else
        what is wrong in one line.
        """
        path = Path(path)
        if not path.is_file():
            return f"database {path} does not exist"
        try:
            uri = f"{path.resolve().as_uri()}?mode=ro"
            async with aiosqlite.connect(uri, uri=True, timeout=2.0) as db:
                version = await schema.user_version(db)
                async with db.execute("SELECT count(*) FROM sqlite_master") as cursor:
                    await cursor.fetchone()
        except sqlite3.Error as error:
            return f"database {path} does not answer: {error}"
        if version == 0:
            return f"database {path} has no schema yet"
        return None

    @staticmethod
    async def backup(path: Path | str, target: Path | str) -> None:
        """Writes a consistent copy of the database at ``path`` to the new file ``target``.

        Safe while the bot runs: it reads a snapshot of what is committed (``VACUUM INTO``, on
        a read-only connection), so the copy is whole and compact. Raises ``StorageError`` if
        the database does not answer or ``target`` already exists.
        """
        path, target = Path(path), Path(target)
        if not path.is_file():
            raise StorageError(f"database {path} does not exist")
        if target.exists():
            raise StorageError(f"{target} already exists; a backup never overwrites a file")
        try:
            uri = f"{path.resolve().as_uri()}?mode=ro"
            async with aiosqlite.connect(uri, uri=True, timeout=5.0) as db:
                await db.execute("VACUUM INTO ?", (str(target),))
        except sqlite3.Error as error:
            raise StorageError(f"backup of {path} to {target} failed: {error}") from error

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            if self._closed:
                raise StorageError(f"database {self._path} is closed")
            yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One transaction: committed if the block ends normally, rolled back otherwise."""
        async with self._lock:
            if self._closed:
                raise StorageError(f"database {self._path} is closed")
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                # Some errors (a full disk) end the transaction inside SQLite already.
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    # --- server settings --------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings; the defaults if it never saved any."""
        async with (
            self._read() as db,
            db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cursor,
        ):
            row = await cursor.fetchone()
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
                (
                    settings.guild_id,
                    settings.language,
                    int(settings.thread_per_table),
                    settings.turn_seconds,
                    settings.reaction_seconds,
                    json.dumps(list(settings.table_channels)),
                    int(settings.pictures),
                ),
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
            cursor = await db.execute(
                f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES ({', '.join('?' * 17)})",
                table_values(table),
            )
            table_id = cursor.lastrowid
            await cursor.close()
            if table_id is None:
                raise StorageError("the new table got no id")
            table = replace(table, table_id=table_id)
            await _write_seats(db, table)
        return table

    async def save_table(self, table: TableRecord) -> None:
        """Saves the table row and its seats (not its actions)."""
        check_seats(table.seats)
        async with self._write() as db:
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
            await _require_live(db, table.table_id)
            await _write_table(db, table)
            try:
                await db.execute(
                    "INSERT INTO actions (table_id, seq, seat, notation, at, by)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        table.table_id,
                        action.seq,
                        action.seat,
                        action.notation,
                        action.at,
                        action.by,
                    ),
                )
            except sqlite3.IntegrityError as error:
                if "UNIQUE" not in str(error) and "PRIMARY KEY" not in str(error):
                    raise
                raise DuplicateActionError(
                    f"table {table.table_id} already has action {action.seq}"
                ) from error

    async def actions(self, table_id: int) -> list[ActionRecord]:
        """The table's action log in order."""
        async with self._read() as db:
            rows = await _action_rows(db, table_id)
        return [action_from_row(row) for row in rows]

    async def table(self, table_id: int) -> TableRecord | None:
        """One table as stored, whatever its status; None if there is none (or it is corrupt)."""
        async with (
            self._read() as db,
            db.execute("SELECT * FROM tables WHERE table_id = ?", (table_id,)) as cursor,
        ):
            row = await cursor.fetchone()
            if row is None:
                return None
            seat_rows = await _seat_rows(db, table_id)
        try:
            return table_from_row(row, seat_rows)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("table %d cannot be read: %s", table_id, error)
            return None

    async def live_tables(self) -> list[tuple[TableRecord, list[ActionRecord]]]:
        """Every table in the lobby, playing or paused, with its action log, for a restart.

        A row that cannot be read (bad JSON, unknown status, inconsistent seats...) is logged
        with its table id and skipped; it stays in the database for someone to look at.
        """
        loaded = []
        async with self._read() as db:
            async with db.execute(
                "SELECT * FROM tables WHERE status NOT IN ('finished', 'ended') ORDER BY table_id"
            ) as cursor:
                rows = list(await cursor.fetchall())
            for row in rows:
                table_id = row["table_id"]
                seat_rows = await _seat_rows(db, table_id)
                action_rows = await _action_rows(db, table_id)
                try:
                    table = table_from_row(row, seat_rows)
                    loaded.append((table, [action_from_row(action) for action in action_rows]))
                except (ValueError, TypeError, KeyError) as error:
                    log.error("table %s is corrupt and was not restored: %s", table_id, error)
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

    async def end_table(self, table: TableRecord, reason: str) -> None:
        """Ends a table without a result (abandoned, idle, ended by the host...)."""
        ended = replace(table, status="ended", deadline_at=None, end_reason=reason)
        async with self._write() as db:
            await _require_live(db, table.table_id)
            await _write_table(db, ended)

    # --- leaderboards -----------------------------------------------------------------------

    async def leaderboard(self, guild_id: int, game_id: str, limit: int = 10) -> list[Standing]:
        """The server's best members at a game, by rating (then wins, then fewer games)."""
        async with (
            self._read() as db,
            db.execute(
                "SELECT user_id, name, games, wins, mu, sigma FROM standings"
                " WHERE guild_id = ? AND game_id = ?"
                " ORDER BY mu - ? * sigma DESC, wins DESC, games ASC, user_id ASC LIMIT ?",
                (guild_id, game_id, ratings.Z, limit),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
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
            async with db.execute(
                "SELECT game_id, games, wins, mu, sigma FROM standings"
                " WHERE guild_id = ? AND user_id = ? ORDER BY game_id",
                (guild_id, user_id),
            ) as cursor:
                rows = list(await cursor.fetchall())
            async with db.execute(
                "SELECT game_id, place, count FROM placings WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ) as cursor:
                placing_rows = list(await cursor.fetchall())
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

    async def hand_pictures(self, user_id: int) -> bool:
        """Whether the member wants the picture of their hand in the hand panel (the default)."""
        async with (
            self._read() as db,
            db.execute("SELECT 1 FROM hand_pictures_off WHERE user_id = ?", (user_id,)) as cursor,
        ):
            return await cursor.fetchone() is None

    async def set_hand_pictures(self, user_id: int, shown: bool) -> None:
        async with self._write() as db:
            if shown:
                await db.execute("DELETE FROM hand_pictures_off WHERE user_id = ?", (user_id,))
            else:
                await db.execute(
                    "INSERT INTO hand_pictures_off (user_id) VALUES (?) ON CONFLICT DO NOTHING",
                    (user_id,),
                )

    # --- direct messages --------------------------------------------------------------------

    async def dm_closed(self, user_id: int) -> bool:
        """Whether the member's DMs were found closed (and not found open since)."""
        async with (
            self._read() as db,
            db.execute("SELECT 1 FROM dm_closed WHERE user_id = ?", (user_id,)) as cursor,
        ):
            return await cursor.fetchone() is not None

    async def set_dm_closed(self, user_id: int, closed: bool) -> None:
        async with self._write() as db:
            if closed:
                await db.execute(
                    "INSERT INTO dm_closed (user_id) VALUES (?) ON CONFLICT DO NOTHING", (user_id,)
                )
            else:
                await db.execute("DELETE FROM dm_closed WHERE user_id = ?", (user_id,))

    async def dm_message(self, table_id: int, user_id: int) -> tuple[int, int] | None:
        """(channel id, message id) of the DM carrying the member's hand at the table."""
        async with (
            self._read() as db,
            db.execute(
                "SELECT channel_id, message_id FROM dm_messages WHERE table_id = ? AND user_id = ?",
                (table_id, user_id),
            ) as cursor,
        ):
            row = await cursor.fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    async def set_dm_message(
        self, table_id: int, user_id: int, channel_id: int, message_id: int
    ) -> None:
        async with self._write() as db:
            await db.execute(
                "INSERT INTO dm_messages (table_id, user_id, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET"
                " channel_id = excluded.channel_id, message_id = excluded.message_id",
                (table_id, user_id, channel_id, message_id),
            )


# --- SQL helpers (inside a transaction or a read) ------------------------------------------------


async def _write_table(db: aiosqlite.Connection, table: TableRecord) -> None:
    assignments = ", ".join(f"{column.strip()} = ?" for column in TABLE_COLUMNS.split(","))
    cursor = await db.execute(
        f"UPDATE tables SET {assignments} WHERE table_id = ?",
        (*table_values(table), table.table_id),
    )
    changed = cursor.rowcount
    await cursor.close()
    if changed == 0:
        raise TableNotFoundError(f"no table {table.table_id}")
    await _write_seats(db, table)


async def _write_seats(db: aiosqlite.Connection, table: TableRecord) -> None:
    await db.execute("DELETE FROM seats WHERE table_id = ?", (table.table_id,))
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


async def _require_live(db: aiosqlite.Connection, table_id: int) -> None:
    async with db.execute("SELECT status FROM tables WHERE table_id = ?", (table_id,)) as cursor:
        row = await cursor.fetchone()
    if row is None:
        raise TableNotFoundError(f"no table {table_id}")
    if row["status"] not in LIVE_STATUSES:
        raise TableNotLiveError(f"table {table_id} is already {row['status']}")


async def _seat_rows(db: aiosqlite.Connection, table_id: int) -> list[sqlite3.Row]:
    async with db.execute(
        "SELECT * FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)
    ) as cursor:
        return list(await cursor.fetchall())


async def _action_rows(db: aiosqlite.Connection, table_id: int) -> list[sqlite3.Row]:
    async with db.execute(
        "SELECT * FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
    ) as cursor:
        return list(await cursor.fetchall())


# --- ratings -------------------------------------------------------------------------------------


async def _rate(
    db: aiosqlite.Connection,
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
    before = [await _skill(db, table, user_id) for user_id, _, _ in members]
    after = ratings.rate(before, [place for _, _, place in members], sides)
    changes = []
    for (user_id, name, place), old, new in zip(members, before, after, strict=True):
        key = (table.guild_id, table.game_id, user_id)
        await db.execute(
            "INSERT INTO standings (guild_id, game_id, user_id, name, games, wins, mu, sigma)"
            " VALUES (?, ?, ?, ?, 1, ?, ?, ?) ON CONFLICT (guild_id, game_id, user_id) DO UPDATE"
            " SET name = excluded.name, games = games + 1, wins = wins + excluded.wins,"
            " mu = excluded.mu, sigma = excluded.sigma",
            (*key, name, int(place == 1), new.mu, new.sigma),
        )
        await db.execute(
            "INSERT INTO placings (guild_id, game_id, user_id, place, count)"
            " VALUES (?, ?, ?, ?, 1) ON CONFLICT (guild_id, game_id, user_id, place) DO UPDATE"
            " SET count = count + 1",
            (*key, place),
        )
        changes.append(RatingChange(user_id, ratings.display(old), ratings.display(new)))
    return changes


async def _skill(db: aiosqlite.Connection, table: TableRecord, user_id: int) -> ratings.Skill:
    async with db.execute(
        "SELECT mu, sigma FROM standings WHERE guild_id = ? AND game_id = ? AND user_id = ?",
        (table.guild_id, table.game_id, user_id),
    ) as cursor:
        row = await cursor.fetchone()
    return ratings.Skill() if row is None else ratings.Skill(float(row[0]), float(row[1]))
