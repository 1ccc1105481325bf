"""Piquet's score of a deal and of a partie: the ledger of scoring items in the fixed precedence
order, repique and pique (rules/two-player.md §3.7, D-PQ-3/4), the Rubicon margin (§3.8) and the
three-player settlement (§3.10.1). Pure functions only.

A scoring item is ``(kind, order, party, points)``: a party is a seat, or a side with four
players. Items are tallied in precedence order whatever the order they were announced in, so a
carte blanche claimed late (three and four players) still comes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import TEN, rank_of

# Kinds, also the rows of a deal on the score sheet, in sheet order.
BLANCHE, POINT, SEQUENCES, SETS, REPIQUE, PLAY, PIQUE, LAST, CARDS, CAPOT = range(10)
KIND_NAMES = (
    "blanche",
    "point",
    "sequences",
    "sets",
    "repique",
    "play",
    "pique",
    "last_trick",
    "cards",
    "capot",
)
# D-PQ-3: 1 carte blanche, 2 point, 3 sequences, 4 sets, 5 play (leads, wins, the last trick),
# 6 the cards or capot, which never count toward pique (D-PQ-4).
PRECEDENCE = {BLANCHE: 1, POINT: 2, SEQUENCES: 3, SETS: 4, PLAY: 5, LAST: 5, CARDS: 6, CAPOT: 6}

Item = tuple[int, int, int, int]  # kind, order within its precedence step, party, points


@dataclass(frozen=True, slots=True)
class Bonuses:
    """Repique and pique: how much each needs and gives (2p: 30, +60, +30; 3p/4p: 20, +90, +60)."""

    needs: int
    repique: int
    pique: int


TWO_HANDED = Bonuses(30, 60, 30)
MORE_HANDED = Bonuses(20, 90, 60)


def sort_key(item: Item) -> tuple[int, int, int]:
    """An item's place in the precedence order (D-PQ-3)."""
    return PRECEDENCE[item[0]], item[1], item[2]


class Tally:
    """The running tally of a deal's items: points by kind and party, and the bonus given.

    Items that come in precedence order are added in one step; one that comes earlier (a carte
    blanche claimed at the first card) or a block (S5) recounts the whole ledger.
    """

    __slots__ = ("blocked", "bonuses", "combinations", "given", "items", "last", "rows", "total")

    def __init__(self, parties: int, bonuses: Bonuses, blocked: bool = False) -> None:
        self.bonuses = bonuses
        self.blocked = blocked
        self.items: list[Item] = []
        self.last: tuple[int, int, int] = (0, 0, 0)
        self._reset(parties)

    def _reset(self, parties: int) -> None:
        self.rows = [[0] * parties for _ in KIND_NAMES]
        self.total = [0] * parties
        self.combinations = [0] * parties
        self.given: tuple[int, int] | None = None

    def add(self, item: Item) -> None:
        self.items.append(item)
        key = sort_key(item)
        if key >= self.last:
            self.last = key
            self._step(item)
        else:
            self.recount()

    def block(self) -> None:
        """S5: no repique or pique in this deal."""
        if not self.blocked:
            self.blocked = True
            self.recount()

    def recount(self) -> None:
        self._reset(len(self.total))
        for item in sorted(self.items, key=sort_key):
            self._step(item)
        self.last = max(map(sort_key, self.items), default=(0, 0, 0))

    def _step(self, item: Item) -> None:
        """After a combination item (steps 1-4) the party with ``needs`` or more from
        combinations while every other party is at 0 gets the repique; after a play item (step
        5) one with ``needs`` or more in all gets the pique. Only one bonus per deal."""
        kind, _, party, pts = item
        total = self.total
        self.rows[kind][party] += pts
        total[party] += pts
        step = PRECEDENCE[kind]
        if step <= 4:
            self.combinations[party] += pts
        if self.given is not None or self.blocked or step == 6:
            return
        if any(total[p] for p in range(len(total)) if p != party):
            return
        bonuses = self.bonuses
        if step <= 4 and self.combinations[party] >= bonuses.needs:
            self.given = (REPIQUE, party)
            self.rows[REPIQUE][party] += bonuses.repique
            total[party] += bonuses.repique
        elif step == 5 and total[party] >= bonuses.needs:
            self.given = (PIQUE, party)
            self.rows[PIQUE][party] += bonuses.pique
            total[party] += bonuses.pique

    def copy(self) -> Tally:
        other = Tally.__new__(Tally)
        other.bonuses, other.blocked, other.last, other.given = (
            self.bonuses,
            self.blocked,
            self.last,
            self.given,
        )
        other.items = list(self.items)
        other.rows = [list(r) for r in self.rows]
        other.total = list(self.total)
        other.combinations = list(self.combinations)
        return other


def tally(
    items: Sequence[Item], parties: int, bonuses: Bonuses, blocked: bool
) -> tuple[list[list[int]], tuple[int, int] | None]:
    """The deal's points by kind and party, and the bonus given (``(kind, party)``) if any,
    for these items in any order (see :class:`Tally`); ``blocked`` (S5) gives no bonus."""
    counted = Tally(parties, bonuses, blocked)
    for item in items:
        counted.add(item)
    return counted.rows, counted.given


def trick_points(
    players: int, leader: int, winner: int, lead: int, top: int, ten_plus: bool
) -> tuple[int, int]:
    """Who scores the lead point and who the win point of a trick (-1: nobody).

    The leader scores for leading; a winner who did not lead scores for winning (§3.5). With S3
    (``ten_plus``) only a card above nine earns either. Four players (D-PQ-15): a side earns at
    most one point per trick for the lead and the win together.
    """
    lead_point = not ten_plus or rank_of(lead) >= TEN
    win_point = winner != leader and (not ten_plus or rank_of(top) >= TEN)
    if players == 4 and lead_point and win_point and winner % 2 == leader % 2:
        win_point = False
    return (leader if lead_point else -1), (winner if win_point else -1)


def rubicon_margin(winner: int, loser: int) -> int:
    """§3.8 (display only): the difference plus 100 when the loser reached 100, else the sum of
    both totals plus 100 (PQ-8)."""
    if loser >= 100:
        return winner - loser + 100
    return winner + loser + 100


def settlement(totals: Sequence[int]) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Three players (§3.10.1): the payments ``(payer, payee, amount)`` and each seat's net.

    The winner receives from each other player the difference plus 100; the second receives from
    the last the difference plus 50. Players tied for first do not pay each other and each
    receives from the last; players tied below the winner both pay him and not each other; a
    three-way tie pays nothing (PQ-9).
    """
    order = sorted(range(len(totals)), key=lambda s: -totals[s])
    top = totals[order[0]]
    firsts = [s for s in order if totals[s] == top]
    payments: list[tuple[int, int, int]] = []
    rest = [s for s in order if s not in firsts]
    for w in firsts:
        for other in rest:
            payments.append((other, w, totals[w] - totals[other] + 100))
    if len(firsts) == 1 and len(rest) == 2 and totals[rest[0]] > totals[rest[1]]:
        second, last = rest
        payments.append((last, second, totals[second] - totals[last] + 50))
    net = [0] * len(totals)
    for payer, payee, amount in payments:
        net[payer] -= amount
        net[payee] += amount
    return payments, net
