"""Tvåmansbridge scoring (rules/two-player.md §2.4, the seed's tables): pure functions.

``strain`` is an index into ``STRAINS`` (``C D H S NT``, the bidding order); ``doubled`` is 0, 1
or 2 (undoubled, doubled, redoubled); ``vulnerable`` is the declarer's zone (D-BR-12: it sets both
the declarer's bonuses and the penalties paid to the defender).

No state, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

STRAINS = ("C", "D", "H", "S", "NT")
NT = 4
BOOK = 6  # tricks before the odd tricks a bid counts
GAME = 100  # below-the-line points in one game segment that win a game
RUBBER_GAMES = 2

# Kinds of entry above the line (each a row of the score sheet).
OVERTRICKS, DOUBLED_BONUS, SMALL_SLAM, GRAND_SLAM, UNDERTRICKS, RUBBER = range(6)
ABOVE_KINDS = ("overtricks", "doubled_bonus", "small_slam", "grand_slam", "undertricks", "rubber")

SlamBonus = Literal["taken", "bid"]


def trick_value(strain: int) -> int:
    """Undoubled value of an odd trick after the first: 20 in ♣ ♦, 30 in ♥ ♠ and NT."""
    return 20 if strain < 2 else 30


def contract_points(level: int, strain: int, doubled: int) -> int:
    """Points below the line for a made contract of ``level`` (its odd tricks bid, not taken)."""
    base = 40 + 30 * (level - 1) if strain == NT else trick_value(strain) * level
    return base << doubled


def overtrick_points(strain: int, doubled: int, vulnerable: bool, overtricks: int) -> int:
    """Above the line: trick value undoubled (D-BR-9: 30 in NT), else 100/200 (x2 vulnerable)."""
    if doubled == 0:
        return trick_value(strain) * overtricks
    each = 100 * doubled  # doubled 100, redoubled 200
    return each * (2 if vulnerable else 1) * overtricks


def undertrick_points(doubled: int, vulnerable: bool, down: int) -> int:
    """The defender's points for ``down`` undertricks, on the seed's (pre-1987) scale (D-BR-8)."""
    if down <= 0:
        return 0
    if doubled == 0:
        return (100 if vulnerable else 50) * down
    first, later = (200, 300) if vulnerable else (100, 200)
    if doubled == 2:
        first, later = 2 * first, 2 * later
    return first + later * (down - 1)


def slam(level: int, taken: int, mode: SlamBonus) -> int:
    """The slam of a made contract: 0 none, SMALL_SLAM or GRAND_SLAM (RULINGS 2, D-BR-6).

    ``taken`` (the default): 12 tricks taken is a small slam and 13 a grand slam, whatever the
    contract. ``bid``: only a bid slam counts (level 6 small, level 7 grand).
    """
    odd = level if mode == "bid" else taken - BOOK
    return GRAND_SLAM if odd == 7 else SMALL_SLAM if odd == 6 else 0


SLAM_POINTS = {SMALL_SLAM: (500, 750), GRAND_SLAM: (1000, 1500)}


@dataclass(frozen=True, slots=True)
class DealScore:
    """What one played deal writes on the sheet.

    ``below`` goes below the line for the declarer (0 when the contract failed); ``above`` are the
    entries above the line as ``(kind, to_declarer, points)``.
    """

    below: int
    above: tuple[tuple[int, bool, int], ...]

    @property
    def made(self) -> bool:
        return self.below > 0


def score_deal(
    level: int,
    strain: int,
    doubled: int,
    taken: int,
    vulnerable: bool,
    slam_bonus: SlamBonus = "taken",
) -> DealScore:
    """Score a deal whose declarer took ``taken`` of the 13 tricks with his hand and dummy."""
    need = BOOK + level
    if taken < need:
        penalty = undertrick_points(doubled, vulnerable, need - taken)
        return DealScore(0, ((UNDERTRICKS, False, penalty),))
    above: list[tuple[int, bool, int]] = []
    over = taken - need
    if over:
        above.append((OVERTRICKS, True, overtrick_points(strain, doubled, vulnerable, over)))
    if doubled:
        above.append((DOUBLED_BONUS, True, 50))  # D-BR-7: 50 doubled or redoubled
    kind = slam(level, taken, slam_bonus)
    if kind:
        above.append((kind, True, SLAM_POINTS[kind][1 if vulnerable else 0]))
    return DealScore(contract_points(level, strain, doubled), tuple(above))


def rubber_bonus(opponent_games: int) -> int:
    """The second game's bonus: 700 when the opponent has no game, 500 when he has one."""
    return 500 if opponent_games else 700
