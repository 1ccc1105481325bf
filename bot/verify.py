"""Deals anyone can check: each deal's fingerprint, a finished match's record, and the check that
recomputes every deal from its seed.

A match's cards all come from one seed (``TableRecord.seed``): the game's generator is seeded with
it and deals every deal with the one documented shuffle (``games.cards.shuffle``). When a deal
starts the table shows its fingerprint, the first ``PRINT_DIGITS`` hex digits of the SHA-256 of
``kortbord:<table id>:<deal>:<seed>``; it pins the seed without telling it. When the match is over
the seed is revealed (on the result, and by ``/spel verifiera``, as a :class:`MatchRecord` file),
and :func:`check` (``kortbord verify``) deals every deal again from it, compares each deal's
fingerprint with the one shown, and plays the recorded moves on those cards: a move the cards
recomputed do not allow, or a fingerprint that differs, means the record is not what was played.

The seed of a table of the day (``bot.daily``) is kept until that day is over, as every member of
the server plays the same cards that day.

No Discord and no SQL here: ``match_record`` reads through ``Storage``.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import Catalog
from games.cards import codes
from games.core import Game, OptionError, apply_option_text
from games.registry import SPECS

if TYPE_CHECKING:
    from bot.storage import Storage, TableRecord

PRINT_DIGITS = 16
"""Hex digits of a deal's fingerprint shown at the table (64 bits of the SHA-256)."""
RECORD_FORMAT = 1
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


@dataclass(frozen=True)
class MatchRecord:
    """Everything needed to check a match: the game, its options, the seats, the seed, the
    fingerprints the deals showed, every move in order, and the stored result (score, place per
    seat; empty if the match did not finish)."""

    table_id: int
    game_id: str
    variant: str
    options: tuple[tuple[str, str], ...]
    names: tuple[str, ...]
    seed: int
    prints: tuple[tuple[int, str], ...]
    actions: tuple[tuple[int, str], ...]
    result: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": RECORD_FORMAT,
                "table": self.table_id,
                "game": self.game_id,
                "variant": self.variant,
                "options": [list(pair) for pair in self.options],
                "seats": list(self.names),
                "seed": self.seed,
                "fingerprints": {str(deal): shown for deal, shown in self.prints},
                "actions": [[seat, notation] for seat, notation in self.actions],
                "result": [list(pair) for pair in self.result],
            },
            ensure_ascii=False,
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        """The record in a file written by ``to_json``; ValueError if it is not one."""
        try:
            data = json.loads(text)
            if data.get("format") != RECORD_FORMAT:
                raise ValueError(f"not a Kortbord match record (format {data.get('format')!r})")
            return cls(
                table_id=int(data["table"]),
                game_id=str(data["game"]),
                variant=str(data["variant"]),
                options=tuple((str(k), str(v)) for k, v in data["options"]),
                names=tuple(str(name) for name in data["seats"]),
                seed=int(data["seed"]),
                prints=tuple(sorted((int(d), str(p)) for d, p in data["fingerprints"].items())),
                actions=tuple((int(seat), str(notation)) for seat, notation in data["actions"]),
                result=tuple((int(score), int(place)) for score, place in data["result"]),
            )
        except (KeyError, TypeError, AttributeError, json.JSONDecodeError) as error:
            raise ValueError(f"not a Kortbord match record: {error}") from None


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
        names=tuple(s.name for s in record.seats),
        seed=record.seed,
        prints=tuple(sorted(prints.items())),
        actions=tuple((a.seat, a.notation) for a in actions),
        result=tuple((r.score, r.place) for r in result),
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
    return spec.new(len(record.names), options, rng=random.Random(record.seed))


def check(record: MatchRecord) -> Verdict:
    """Deals every deal of ``record`` again from its seed and plays its moves on those cards."""
    problems: list[tuple[str, dict[str, str | int]]] = []
    try:
        game = _new_game(record)
    except ValueError as error:
        return Verdict((), (("unplayable", {"detail": str(error)}),))
    shown = dict(record.prints)
    deals: list[DealCheck] = []
    started: list[tuple[int, tuple[str, ...]]] = []
    moves: list[int] = []

    def deal_starts() -> None:
        seats = range(len(record.names))
        started.append((game.view(None).deal, tuple(codes(game.view(s).hand) for s in seats)))
        moves.append(0)

    deal_starts()
    for number, (seat, notation) in enumerate(record.actions, start=1):
        before = game.view(None).deal
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
        if game.view(None).deal != before and not game.is_over():
            deal_starts()
    for (deal, hands), count in zip(started, moves, strict=True):
        computed = fingerprint(record.seed, record.table_id, deal)
        deals.append(DealCheck(deal, hands, shown.get(deal), computed, count))
        if deal not in shown:
            problems.append(("not_kept", {"deal": deal}))
        elif shown[deal] != computed:
            problems.append(("print", {"deal": deal, "shown": shown[deal], "computed": computed}))
    dealt = {deal for deal, _ in started}
    for deal in sorted(set(shown) - dealt):
        problems.append(("never_dealt", {"deal": deal}))
    if record.result and not problems:
        if not game.is_over():
            problems.append(("not_over", {"deal": game.view(None).deal}))
        else:
            scores = tuple(score for score, _ in record.result)
            if game.result().scores != scores:
                computed_scores = " ".join(map(str, game.result().scores))
                stored = " ".join(map(str, scores))
                problems.append(("result", {"stored": stored, "computed": computed_scores}))
    return Verdict(tuple(deals), tuple(problems))


def verdict_lines(texts: Catalog, record: MatchRecord, verdict: Verdict) -> list[str]:
    """The check as a player reads it: the match, then each deal, then the verdict."""
    lines = [
        texts.text(
            "verify.match",
            table=record.table_id,
            game=record.game_id,
            seed=record.seed,
            moves=len(record.actions),
        )
    ]
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
        for seat, (name, hand) in enumerate(zip(record.names, deal.hands, strict=True)):
            who = name or texts.text("verify.computer", seat=seat)
            lines.append(f"  {who}: {hand or '–'}")
    for key, args in verdict.problems:
        lines.append(texts.text(f"verify.problem.{key}", **args))
    lines.append(texts.text("verify.sound" if verdict.sound else "verify.unsound"))
    return lines
