"""Reunion's score sheet (protokoll): records of deals and parties, and their rows. Pure."""

from __future__ import annotations

from typing import NamedTuple

from games.cards import codes
from games.core import Msg, SheetRow
from games.reunion.rules import LAST_TRICK_EYES, PLAYERS


class DealRecord(NamedTuple):
    """One deal as written on the score sheet."""

    partie: int
    deal: int  # 1..3 within the partie
    dealer: int
    trick_eyes: tuple[int, ...]  # card points in tricks, the last-trick bonus not included
    last_trick: int  # the seat that won trick 10
    discards: tuple[int, int]
    discard_eyes: int
    stangs: tuple[bool, ...]
    capture: tuple[int, ...]  # stakes won (+) and paid (-) by the left-bower capture

    def eyes(self, seat: int) -> int:
        bonus = LAST_TRICK_EYES if seat == self.last_trick else 0
        own = self.discard_eyes if seat == self.dealer else 0
        return self.trick_eyes[seat] + bonus + own


class PartieRecord(NamedTuple):
    """The settlement of one partie."""

    partie: int
    eyes: tuple[int, ...]
    stangs: tuple[int, ...]
    win_loss: tuple[int, ...]  # stakes
    stang_stakes: tuple[int, ...]
    capture: tuple[int, ...]

    @property
    def net(self) -> tuple[int, ...]:
        return tuple(
            a + b + c
            for a, b, c in zip(self.win_loss, self.stang_stakes, self.capture, strict=True)
        )


def _only(seat: int, value: int) -> tuple[int | None, ...]:
    return tuple(value if s == seat else None for s in range(PLAYERS))


def deal_rows(d: DealRecord) -> list[SheetRow]:
    where = {"partie": d.partie, "deal": d.deal}
    rows = [
        SheetRow(Msg.of("reunion.sheet.tricks", **where), d.trick_eyes),
        SheetRow(Msg.of("reunion.sheet.last_trick", **where), _only(d.last_trick, LAST_TRICK_EYES)),
        SheetRow(
            Msg.of("reunion.sheet.discards", cards=codes(d.discards), **where),
            _only(d.dealer, d.discard_eyes),
        ),
    ]
    if any(d.stangs):
        rows.append(
            SheetRow(
                Msg.of("reunion.sheet.stang", **where),
                tuple(1 if bar else None for bar in d.stangs),
            )
        )
    rows.append(
        SheetRow(
            Msg.of("reunion.sheet.deal", **where),
            tuple(d.eyes(s) for s in range(PLAYERS)),
            rule_below=True,
        )
    )
    if any(d.capture):
        rows.append(
            SheetRow(
                Msg.of("reunion.sheet.capture", **where),
                tuple(v or None for v in d.capture),
            )
        )
    return rows


def partie_rows(p: PartieRecord) -> list[SheetRow]:
    n = {"partie": p.partie}
    return [
        SheetRow(Msg.of("reunion.sheet.partie_eyes", **n), p.eyes),
        SheetRow(Msg.of("reunion.sheet.partie_stangs", **n), p.stangs, rule_below=True),
        SheetRow(Msg.of("reunion.sheet.win_loss", **n), p.win_loss),
        SheetRow(Msg.of("reunion.sheet.stang_stakes", **n), p.stang_stakes),
        SheetRow(Msg.of("reunion.sheet.capture_stakes", **n), p.capture),
        SheetRow(Msg.of("reunion.sheet.partie_stakes", **n), p.net, rule_below=True),
    ]
