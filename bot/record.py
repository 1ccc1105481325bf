"""A match's record as a file (``kortbord-<table>.json``, handed out by ``/spel verifiera``):
its format, written by :meth:`MatchRecord.to_json` and read back, strictly, by
:meth:`MatchRecord.from_json`.

The file is JSON, readable and documented in the README (Deals anyone can check). Format 2 says
everything the check (``bot.verify``) holds against the moves: the game and its options, who sat
in each seat, the seed, the fingerprints the deals showed, every move, whether the match finished,
and the result (each seat's member, score and place). Format 1 said neither who sat where, nor
whether the match finished, nor the places: it is refused as incomplete.

Reading trusts nothing: any file that is not such a record (any JSON shape, nesting, type or
size) is refused with a :class:`RecordError` naming where it differs, never another exception.

No Discord, no SQL and no game rules here.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

RECORD_FORMAT = 2
"""The format :meth:`MatchRecord.to_json` writes and :meth:`MatchRecord.from_json` reads."""
OLD_FORMATS = (1,)
"""Formats of earlier records, refused as incomplete."""
STATUSES = ("finished", "ended", "lobby", "playing", "paused")
"""A table's state: ``finished`` (its match was played to the end) or ``ended`` (before); a
record from the bot's own database (``kortbord verify --table``) may be of a live table."""
LARGEST = 2**63 - 1
"""The largest table id, seed, score or move count a record may hold (the database's)."""
MEMBER_LARGEST = 2**64 - 1
"""The largest Discord id (a snowflake is 64 bits)."""
MOST_SEATS = 16
KINDS = {
    "list": "a list",
    "whole": "a whole number",
    "text": "text",
    "object": "an object",
    "member": "a member's id in a string, or null",
    "pair": "a pair",
    "bool": "true or false",
    "deal": "a deal's number",
    "status": '"finished" or "ended"',
}
"""What a field must be, in English (``verify.kind.<kind>`` in the catalogs)."""

T = TypeVar("T")


class RecordError(ValueError):
    """A file that is not a complete match record: ``key`` (under ``verify.record``) and its
    arguments say why, in either language; ``str()`` says it in English."""

    def __init__(self, key: str, **details: str) -> None:
        self.key = key
        self.details = details
        where = details.get("where", "")
        english = {
            "unreadable": (
                f"not a Kortbord match record: the file is not JSON ({details.get('detail')})"
            ),
            "not_record": "not a Kortbord match record",
            "incomplete": (
                f"the record is incomplete (format {details.get('format')}): it does not say who"
                " sat where, whether the match finished, or the places"
            ),
            "format": f"not a Kortbord match record: unknown format {details.get('format')}",
            "missing": f"not a Kortbord match record: {where} is missing",
            "wrong": (
                f"not a Kortbord match record: {where} must be {KINDS.get(details.get('kind', ''))}"
            ),
            "range": f"not a Kortbord match record: {where} is out of range",
        }[key]
        super().__init__(english)


@dataclass(frozen=True)
class RecordSeat:
    """Who sat in a seat: a member (their Discord id and name) or a computer player (``member``
    None); ``left``: the member left during play, so a computer player finished for them and
    they are placed last."""

    seat: int
    member: int | None
    name: str
    left: bool = False


@dataclass(frozen=True)
class RecordResult:
    """A seat's stored result: the member credited with it, the score and the place (1 best)."""

    seat: int
    member: int | None
    score: int
    place: int


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to check a match: the game, its options, who sat where, the seed, the
    fingerprints the deals showed, every move in order, the table's state (``finished`` when the
    match was played to its end) and the stored result (empty unless it finished)."""

    table_id: int
    game_id: str
    variant: str
    options: tuple[tuple[str, str], ...]
    seats: tuple[RecordSeat, ...]
    seed: int
    prints: tuple[tuple[int, str], ...]
    actions: tuple[tuple[int, str], ...]
    status: str
    result: tuple[RecordResult, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": RECORD_FORMAT,
                "table": self.table_id,
                "game": self.game_id,
                "variant": self.variant,
                "options": [list(pair) for pair in self.options],
                "seats": [
                    {
                        "seat": s.seat,
                        "member": _member_text(s.member),
                        "name": s.name,
                        "left": s.left,
                    }
                    for s in self.seats
                ],
                "seed": self.seed,
                "fingerprints": {str(deal): shown for deal, shown in self.prints},
                "actions": [[seat, notation] for seat, notation in self.actions],
                "status": self.status,
                "result": [
                    {
                        "seat": r.seat,
                        "member": _member_text(r.member),
                        "score": r.score,
                        "place": r.place,
                    }
                    for r in self.result
                ],
            },
            ensure_ascii=False,
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """The record in a file written by ``to_json``; :class:`RecordError` if it is not one."""
        try:
            data = json.loads(text)
        except RecursionError:
            raise RecordError("unreadable", detail="nested too deeply") from None
        except ValueError as error:  # JSONDecodeError, and a number of more than 4,300 digits
            raise RecordError("unreadable", detail=str(error).splitlines()[0]) from None
        return _read(data)


def _member_text(member: int | None) -> str | None:
    # a Discord id as Discord writes it, in a string: JavaScript's numbers would round it
    return None if member is None else str(member)


# --- reading --------------------------------------------------------------------------------


def _read(data: object) -> MatchRecord:
    if not isinstance(data, dict) or "format" not in data:
        raise RecordError("not_record")
    fmt = data["format"]
    if type(fmt) is int and fmt in OLD_FORMATS:
        raise RecordError("incomplete", format=str(fmt))
    if type(fmt) is not int or fmt != RECORD_FORMAT:
        scalar = fmt is None or isinstance(fmt, (bool, int, float, str))
        raise RecordError("format", format=json.dumps(fmt)[:20] if scalar else "?")
    seats = _list(data, "seats", _seat, most=MOST_SEATS)
    count = len(seats)
    return MatchRecord(
        table_id=_whole(_get(data, "table", "table"), "table", 0, LARGEST),
        game_id=_text(_get(data, "game", "game"), "game"),
        variant=_text(_get(data, "variant", "variant"), "variant"),
        options=tuple(_list(data, "options", _option)),
        seats=tuple(seats),
        seed=_whole(_get(data, "seed", "seed"), "seed", 0, LARGEST),
        prints=_prints(_get(data, "fingerprints", "fingerprints")),
        actions=tuple(_list(data, "actions", lambda v, w: _action(v, w, count))),
        status=_status(_get(data, "status", "status")),
        result=tuple(_list(data, "result", lambda v, w: _result(v, w, count), most=MOST_SEATS)),
    )


def _get(data: dict[str, object], name: str, where: str) -> object:
    if name not in data:
        raise RecordError("missing", where=where)
    return data[name]


def _list(
    data: dict[str, object], name: str, item: Callable[[object, str], T], most: int = LARGEST
) -> list[T]:
    value = _get(data, name, name)
    if not isinstance(value, list):
        raise RecordError("wrong", where=name, kind="list")
    if len(value) > most:
        raise RecordError("range", where=name)
    return [item(entry, f"{name}[{i}]") for i, entry in enumerate(value)]


def _whole(value: object, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError("wrong", where=where, kind="whole")
    if not low <= value <= high:
        raise RecordError("range", where=where)
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError("wrong", where=where, kind="text")
    return value


def _object(value: object, where: str) -> dict[str, object]:
    if not isinstance(value, dict):
        raise RecordError("wrong", where=where, kind="object")
    return value


def _member(value: object, where: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.isascii() or not value.isdigit() or len(value) > 20:
        raise RecordError("wrong", where=where, kind="member")
    member = int(value)
    if not 0 < member <= MEMBER_LARGEST:
        raise RecordError("range", where=where)
    return member


def _option(value: object, where: str) -> tuple[str, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError("wrong", where=where, kind="pair")
    return _text(value[0], f"{where}[0]"), _text(value[1], f"{where}[1]")


def _seat(value: object, where: str) -> RecordSeat:
    entry = _object(value, where)
    left = _get(entry, "left", f"{where}.left")
    if not isinstance(left, bool):
        raise RecordError("wrong", where=f"{where}.left", kind="bool")
    return RecordSeat(
        seat=_whole(_get(entry, "seat", f"{where}.seat"), f"{where}.seat", 0, MOST_SEATS - 1),
        member=_member(_get(entry, "member", f"{where}.member"), f"{where}.member"),
        name=_text(_get(entry, "name", f"{where}.name"), f"{where}.name"),
        left=left,
    )


def _action(value: object, where: str, seats: int) -> tuple[int, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError("wrong", where=where, kind="pair")
    seat = _whole(value[0], f"{where}[0]", 0, max(seats - 1, 0))
    return seat, _text(value[1], f"{where}[1]")


def _result(value: object, where: str, seats: int) -> RecordResult:
    entry = _object(value, where)
    return RecordResult(
        seat=_whole(_get(entry, "seat", f"{where}.seat"), f"{where}.seat", 0, MOST_SEATS - 1),
        member=_member(_get(entry, "member", f"{where}.member"), f"{where}.member"),
        score=_whole(_get(entry, "score", f"{where}.score"), f"{where}.score", -LARGEST, LARGEST),
        place=_whole(_get(entry, "place", f"{where}.place"), f"{where}.place", 1, max(seats, 1)),
    )


def _prints(value: object) -> tuple[tuple[int, str], ...]:
    shown = _object(value, "fingerprints")
    prints = []
    for deal, text in shown.items():
        where = f"fingerprints.{deal[:20]}"
        if not deal.isascii() or not deal.isdigit() or len(deal) > 18:
            raise RecordError("wrong", where=where, kind="deal")
        prints.append((int(deal), _text(text, where)))
    return tuple(sorted(prints))


def _status(value: object) -> str:
    if value not in STATUSES:
        raise RecordError("wrong", where="status", kind="status")
    assert isinstance(value, str)
    return value
