"""Rows <-> records: the pure conversions between database rows (SQLite or PostgreSQL) and
``records`` values.

No I/O. Reading a row checks it: a corrupt row (bad JSON, unknown status or kind, seats not
numbered 0..n-1) raises ``ValueError`` (or ``TypeError``/``KeyError``) for the caller to report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import cast

from bot.storage.records import (
    ACTION_BY,
    TABLE_STATUSES,
    ActionBy,
    ActionRecord,
    Damage,
    SeatRecord,
    TableRecord,
    TableStatus,
)
from bot.storage.sql import Row

TABLE_COLUMNS = (
    "guild_id, channel_id, thread_id, message_id, host_id, game_id, options, variant, seed,"
    " status, turn_seconds, language, version, created_at, updated_at, deadline_at, end_reason"
)


def options_json(options: tuple[tuple[str, str], ...]) -> str:
    """A table's options as stored: a JSON array of ``[name, text]`` pairs."""
    return json.dumps([list(pair) for pair in options], ensure_ascii=False)


def table_values(table: TableRecord) -> tuple[object, ...]:
    """The values of ``TABLE_COLUMNS``, in order."""
    return (
        table.guild_id,
        table.channel_id,
        table.thread_id,
        table.message_id,
        table.host_id,
        table.game_id,
        options_json(table.options),
        table.variant,
        table.seed,
        table.status,
        table.turn_seconds,
        table.language,
        table.version,
        table.created_at,
        table.updated_at,
        table.deadline_at,
        table.end_reason,
    )


def table_from_row(row: Row, seat_rows: Iterable[Row]) -> TableRecord:
    """The record of a table row; ValueError or TypeError if the row is corrupt."""
    status = row["status"]
    if status not in TABLE_STATUSES:
        raise ValueError(f"unknown status {status!r}")
    seats = tuple(_seat(seat) for seat in seat_rows)
    check_seats(seats)
    return _record(row, cast(TableStatus, status), parse_options(row["options"]), seats)


def _record(
    row: Row,
    status: TableStatus,
    options: tuple[tuple[str, str], ...],
    seats: tuple[SeatRecord, ...],
) -> TableRecord:
    return TableRecord(
        table_id=int(row["table_id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        thread_id=opt_int(row["thread_id"]),
        message_id=opt_int(row["message_id"]),
        host_id=int(row["host_id"]),
        game_id=str(row["game_id"]),
        options=options,
        variant=str(row["variant"]),
        seed=int(row["seed"]),
        status=status,
        turn_seconds=int(row["turn_seconds"]),
        language=str(row["language"]),
        version=int(row["version"]),
        created_at=float(row["created_at"]),
        updated_at=float(row["updated_at"]),
        deadline_at=None if row["deadline_at"] is None else float(row["deadline_at"]),
        seats=seats,
        end_reason=None if row["end_reason"] is None else str(row["end_reason"]),
    )


def read_table_row(row: Row, seat_rows: Sequence[Row]) -> tuple[TableRecord, Damage | None]:
    """The record of a live table's row for a restart, even when part of it is corrupt: then
    what can be read, and the first part that cannot (bad options JSON, an unknown status,
    seats out of order). Raises only when not even its server, channel or host can be read."""
    try:
        return table_from_row(row, seat_rows), None
    except (ValueError, TypeError, KeyError):
        pass
    damage = None
    status = row["status"]
    if status not in TABLE_STATUSES:
        damage = Damage("status", f"unknown status {status!r}")
        status = "paused"
    try:
        options = parse_options(row["options"])
    except (ValueError, TypeError) as error:
        damage = damage or Damage(
            "options", f"the options {row['options']!r} cannot be read: {error}"
        )
        options = ()
    seats = [_seat(seat) for seat in seat_rows]
    try:
        check_seats(seats)
    except ValueError as error:
        damage = damage or Damage("seats", str(error))
        ordered = sorted(seats, key=lambda s: s.seat)
        seats = [replace(s, seat=i) for i, s in enumerate(ordered)]
    record = _record(row, cast(TableStatus, status), options, tuple(seats))
    return record, damage or Damage("table", "the table row cannot be read")


def sound_actions(rows: Sequence[Row], seats: int) -> tuple[list[ActionRecord], Damage | None]:
    """The action log up to its first corrupt entry (unreadable, for a seat the table does not
    have, or after a gap in the numbering), and what is wrong with that entry."""
    sound: list[ActionRecord] = []
    for expected, row in enumerate(rows, start=1):
        try:
            action = action_from_row(row)
        except (ValueError, TypeError, KeyError) as error:
            return sound, Damage("row", f"action {expected} cannot be read: {error}", expected)
        if action.seq != expected:
            detail = f"action {expected} is missing (the log goes on at {action.seq})"
            return sound, Damage("gap", detail, expected)
        if not 0 <= action.seat < seats:
            detail = f"action {expected} is for seat {action.seat}, but the table has {seats} seats"
            return sound, Damage("seat", detail, expected)
        sound.append(action)
    return sound, None


def _seat(seat: Row) -> SeatRecord:
    return SeatRecord(
        seat=int(seat["seat"]),
        user_id=opt_int(seat["user_id"]),
        name=str(seat["name"]),
        ai=str(seat["ai"]),
        autoplay=bool(seat["autoplay"]),
        strikes=int(seat["strikes"]),
        left=bool(seat["left_table"]),
    )


def action_from_row(row: Row) -> ActionRecord:
    by = row["by"]
    if by not in ACTION_BY:
        raise ValueError(f"action {row['seq']} has unknown kind {by!r}")
    return ActionRecord(
        seq=int(row["seq"]),
        seat=int(row["seat"]),
        notation=str(row["notation"]),
        at=float(row["at"]),
        by=cast(ActionBy, by),
    )


def parse_options(text: object) -> tuple[tuple[str, str], ...]:
    pairs = json.loads(str(text))
    if not isinstance(pairs, list):
        raise ValueError(f"options are not a list: {text!r}")
    options = []
    for pair in pairs:
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(s, str) for s in pair)
        ):
            raise ValueError(f"option is not a [name, value] pair: {pair!r}")
        options.append((pair[0], pair[1]))
    return tuple(options)


def check_seats(seats: Sequence[SeatRecord]) -> None:
    """Seats must be numbered 0, 1, ... in order."""
    numbers = [seat.seat for seat in seats]
    if numbers != list(range(len(seats))):
        raise ValueError(f"seats must be numbered 0..{len(seats) - 1} in order, got {numbers}")


def opt_int(value: object) -> int | None:
    return None if value is None else int(cast(int, value))


def int_tuple(value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(isinstance(item, int) for item in value):
        raise ValueError(f"not a list of ids: {value!r}")
    return tuple(value)
