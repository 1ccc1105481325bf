"""Deals anyone can check: each deal's fingerprint, a finished match's record, and the check that
recomputes every deal from its seed.

A match's cards all come from one seed (``TableRecord.seed``): the game's generator is seeded with
it and deals every deal with the one documented shuffle (``games.cards.shuffle``). When a deal
starts the table shows its fingerprint, the first ``PRINT_DIGITS`` hex digits of the SHA-256 of
``kortbord:<table id>:<deal>:<seed>``; it pins the seed without telling it. When the match is over
the seed is revealed (on the result, and by ``/spel verifiera``, as a :class:`MatchRecord` file,
``bot.record``), and :func:`check` (``kortbord verify``) deals every deal again from it, compares
each deal's fingerprint with the one shown, plays the recorded moves on those cards, and holds
the record's seats, end and result against what the moves give: a move the cards recomputed do
not allow, a fingerprint that differs, a match said to be finished that the moves do not finish
(or the reverse), or a result, place or member the moves and seats do not give, means the record
is not what was played.

The seed of a table of the day (``bot.daily``) is kept until that day is over, as every member of
the server plays the same cards that day.

No Discord and no SQL here: ``match_record`` reads through ``Storage``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import Catalog
from bot.record import MatchRecord, RecordError, RecordResult, RecordSeat
from games.cards import codes
from games.core import Game, OptionError, Seat, apply_option_text
from games.registry import SPECS

if TYPE_CHECKING:
    from bot.storage import Storage, TableRecord

__all__ = ["MatchRecord", "RecordError", "check", "fingerprint", "match_record", "verdict_lines"]

PRINT_DIGITS = 16
"""Hex digits of a deal's fingerprint shown at the table (64 bits of the SHA-256)."""
SECRET_UNTIL = "_secret_until"
"""A table setting: the seed stays secret until this Unix time (a table of the day: the day's
end), even once the match is over."""


def fingerprint(seed: int, table_id: int, deal: int) -> str:
    """The fingerprint deal ``deal`` of table ``table_id`` shows when it starts. Anyone can
    recompute it: ``printf 'kortbord:%s:%s:%s' TABLE DEAL SEED | sha256sum``."""
    text = f"kortbord:{table_id}:{deal}:{seed}"
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:PRINT_DIGITS]


def seed_secret(record: TableRecord, now: float) -> bool:
    """Whether the table's seed may not be told yet: its match is not over, or it is a table of
    the day and the day is not over."""
    if record.status not in ("finished", "ended"):
        return True
    until = dict(record.options).get(SECRET_UNTIL)
    return until is not None and now < float(until)


async def match_record(storage: Storage, record: TableRecord) -> MatchRecord:
    """A stored table's record, as ``/spel verifiera`` hands it out and ``kortbord verify``
    checks it."""
    actions = await storage.actions(record.table_id)
    prints = await storage.deal_prints(record.table_id)
    result = await storage.table_result(record.table_id)
    return MatchRecord(
        table_id=record.table_id,
        game_id=record.game_id,
        variant=record.variant,
        options=record.options,
        seats=tuple(RecordSeat(s.seat, s.user_id, s.name, s.left) for s in record.seats),
        seed=record.seed,
        prints=tuple(sorted(prints.items())),
        actions=tuple((a.seat, a.notation) for a in actions),
        status=record.status,
        result=tuple(RecordResult(r.seat, r.user_id, r.score, r.place) for r in result),
    )


@dataclass(frozen=True)
class DealCheck:
    """One deal dealt again from the seed: each seat's hand as dealt, the fingerprint shown
    (None: none was kept) and the one recomputed, and how many moves were played in it."""

    deal: int
    hands: tuple[str, ...]
    shown: str | None
    computed: str
    moves: int

    @property
    def matches(self) -> bool:
        return self.shown == self.computed


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` found: every deal, and the problems (none: the record is sound)."""

    deals: tuple[DealCheck, ...]
    problems: tuple[tuple[str, dict[str, str | int]], ...]
    """Catalog keys under ``verify.problem`` with their arguments."""

    @property
    def sound(self) -> bool:
        return not self.problems


def _new_game(record: MatchRecord) -> Game:
    spec = SPECS.get(record.game_id)
    if spec is None:
        raise ValueError(f"unknown game {record.game_id!r}")
    settings = {name: value for name, value in record.options if not name.startswith("_")}
    try:
        options = apply_option_text(spec.preset(record.variant), settings)
    except OptionError as error:
        raise ValueError(str(error)) from None
    return spec.new(len(record.seats), options, rng=random.Random(record.seed))


def check(record: MatchRecord) -> Verdict:
    """Deals every deal of ``record`` again from its seed, plays its moves on those cards, and
    holds who sat where, whether the match finished and its result against what they give."""
    problems: list[tuple[str, dict[str, str | int]]] = _seat_problems(record)
    try:
        game = _new_game(record)
    except ValueError as error:
        return Verdict((), (*problems, ("unplayable", {"detail": str(error)})))
    shown = dict(record.prints)
    deals: list[DealCheck] = []
    started: list[tuple[int, tuple[str, ...]]] = []
    moves: list[int] = []

    def deal_starts() -> None:
        seats = range(len(record.seats))
        started.append((game.deal_number(), tuple(codes(game.hand(s)) for s in seats)))
        moves.append(0)

    deal_starts()
    for number, (seat, notation) in enumerate(record.actions, start=1):
        before = game.deal_number()
        try:
            game.apply(seat, game.parse(notation))
        except (ValueError, KeyError, IndexError) as error:
            detail: dict[str, str | int] = {
                "seq": number,
                "seat": seat,
                "action": notation,
                "detail": str(error),
            }
            problems.append(("illegal", detail))
            break
        moves[-1] += 1
        if game.deal_number() != before and not game.is_over():
            deal_starts()
    for (deal, hands), count in zip(started, moves, strict=True):
        computed = fingerprint(record.seed, record.table_id, deal)
        deals.append(DealCheck(deal, hands, shown.get(deal), computed, count))
        if deal not in shown:
            problems.append(("not_kept", {"deal": deal}))
        elif shown[deal] != computed:
            problems.append(("print", {"deal": deal, "shown": shown[deal], "computed": computed}))
    dealt = {deal for deal, _ in started}
    never = sorted(set(shown) - dealt)
    if never:
        problems.append(("never_dealt", {"deals": ", ".join(map(str, never))}))
    if not problems:
        problems += _end_problems(record, game)
    return Verdict(tuple(deals), tuple(problems))


def _seat_problems(record: MatchRecord) -> list[tuple[str, dict[str, str | int]]]:
    """Who sat where, as the record says it: seats numbered 0, 1, ... in order, each member in
    one seat only."""
    numbers = [s.seat for s in record.seats]
    if numbers != list(range(len(numbers))):
        listed = " ".join(map(str, numbers))
        return [("seat_numbers", {"numbers": listed, "last": max(len(numbers) - 1, 0)})]
    members = [s.member for s in record.seats if s.member is not None]
    twice = sorted({m for m in members if members.count(m) > 1})
    if twice:
        return [("member_twice", {"member": twice[0]})]
    return []


def final_places(game: Game, left: Collection[Seat]) -> tuple[int, ...]:
    """The places stored when a match is over (``bot.sessions.play`` stores them, and a record
    is checked against them): the game's, except that a seat whose member left is placed last,
    and partners share their side's worst."""
    places = list(game.result().places)
    last = len(places)
    for seat in left:  # rules/party.md 0.4
        places[seat] = last
    for team in game.view(None).teams:
        worst = max(places[seat] for seat in team)
        for seat in team:
            places[seat] = worst
    return tuple(places)


def _end_problems(record: MatchRecord, game: Game) -> list[tuple[str, dict[str, str | int]]]:
    """The end as the record says it (finished or not, the result) against the moves' end."""
    over = game.is_over()
    finished = record.status == "finished"
    if finished and not over:
        return [("not_over", {"deal": game.view(None).deal})]
    if over and not finished:
        return [("over_not_finished", {"status": record.status})]
    if not finished:
        return [("result_unfinished", {"status": record.status})] if record.result else []
    by_seat = [r.seat for r in record.result]
    if by_seat != list(range(len(record.seats))):
        missing = sorted(set(range(len(record.seats))) - set(by_seat))
        if not record.result or missing:
            return [("no_result", {"seats": " ".join(map(str, missing))})]
        return [("result_seats", {"seats": " ".join(map(str, by_seat))})]

    def listed(values: tuple[object, ...]) -> str:
        return " ".join("–" if v is None else str(v) for v in values)

    credited = tuple(r.member for r in record.result)
    seated = tuple(s.member for s in record.seats)
    if credited != seated:
        return [("result_members", {"stored": listed(credited), "seated": listed(seated)})]
    scores = tuple(r.score for r in record.result)
    if game.result().scores != scores:
        computed = listed(game.result().scores)
        return [("result", {"stored": listed(scores), "computed": computed})]
    places = tuple(r.place for r in record.result)
    computed_places = final_places(game, [s.seat for s in record.seats if s.left])
    if places != computed_places:
        return [("places", {"stored": listed(places), "computed": listed(computed_places)})]
    return []


def verdict_lines(texts: Catalog, record: MatchRecord, verdict: Verdict) -> list[str]:
    """The check as a player reads it: the match and who sat where, each deal, how it ended,
    then the verdict."""
    lines = [
        texts.text(
            "verify.match",
            table=record.table_id,
            game=record.game_id,
            seed=record.seed,
            moves=len(record.actions),
        )
    ]
    names = [s.name or texts.text("verify.computer", seat=s.seat) for s in record.seats]
    for s, name in zip(record.seats, names, strict=True):
        if s.member is None:
            lines.append(texts.text("verify.seat.computer", seat=s.seat, name=name))
        else:
            key = "verify.seat.left" if s.left else "verify.seat.member"
            lines.append(texts.text(key, seat=s.seat, name=name, member=s.member))
    for deal in verdict.deals:
        mark = "verify.deal.matches" if deal.matches else "verify.deal.differs"
        lines.append(
            texts.text(
                mark,
                deal=deal.deal,
                computed=deal.computed,
                shown=deal.shown or "–",
                moves=deal.moves,
            )
        )
        for name, hand in zip(names, deal.hands, strict=True):
            lines.append(f"  {name}: {hand or '–'}")
    lines.append(_end_line(texts, record, names))
    for key, args in verdict.problems:
        lines.append(texts.text(f"verify.problem.{key}", **args))
    lines.append(texts.text("verify.sound" if verdict.sound else "verify.unsound"))
    return lines


def _end_line(texts: Catalog, record: MatchRecord, names: list[str]) -> str:
    """How the record says the match ended: finished, with each seat's place and score."""
    if record.status != "finished":
        return texts.text("verify.end.ended" if record.status == "ended" else "verify.end.live")
    by_place = sorted(record.result, key=lambda r: (r.place, r.seat))
    places = " · ".join(
        texts.text(
            "verify.end.place",
            place=texts.ordinal(r.place),
            name=names[r.seat] if r.seat < len(names) else str(r.seat),
            score=r.score,
        )
        for r in by_place
    )
    return texts.text("verify.end.finished", places=places or "–")
