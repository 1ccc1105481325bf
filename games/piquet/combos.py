"""Piquet's combinations (rules/two-player.md §3.3): the point, sequences and sets of a hand.

Hands are bit masks of card ints (``games.cards``); the deck has the ranks 7 to ace. Each class
gives a comparable value (bigger is better; ``None``: nothing of that class), the points its
holder scores when he wins the class, and the cards he shows. Pure functions only.
"""

from __future__ import annotations

from games.cards import ACE, SUIT_MASKS, TEN, card

LOW = 7  # the 32-card deck: 7, 8, 9, 10, J, Q, K, A in each suit
PIPS = {7: 7, 8: 8, 9: 9, 10: 10, 11: 10, 12: 10, 13: 10, 14: 11}  # §3.1: for the point only
SEQUENCE_POINTS = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}
TRIO_POINTS, QUATORZE_POINTS = 3, 14

POINT, SEQUENCE, SETS = range(3)
CLASSES = (POINT, SEQUENCE, SETS)
CLASS_NAMES = ("point", "sequence", "sets")

Value = tuple[int, int]


def _ranks(hand: int, suit: int) -> list[int]:
    """The ranks of ``suit`` in ``hand``, high to low."""
    bits = (hand & SUIT_MASKS[suit]) >> (13 * suit)
    return [r for r in range(ACE, LOW - 1, -1) if bits >> (r - 2) & 1]


def point_of(hand: int) -> tuple[Value, int]:
    """``((cards, pips), suit)`` of the best suit: more cards first, then the higher pip total
    (a tie between two of one's own suits takes the higher suit; either scores the same)."""
    best: tuple[int, int, int] = (0, 0, -1)
    for suit in range(4):
        ranks = _ranks(hand, suit)
        best = max(best, (len(ranks), sum(PIPS[r] for r in ranks), suit))
    return (best[0], best[1]), best[2]


def point_cards(hand: int) -> int:
    """The cards of the point (its best suit)."""
    _, suit = point_of(hand)
    return hand & SUIT_MASKS[suit]


def sequences_of(hand: int) -> list[tuple[int, int, int]]:
    """Every maximal run of three or more (``(length, top rank, suit)``); a six-card run is one
    sixième, not two tierces."""
    runs: list[tuple[int, int, int]] = []
    for suit in range(4):
        ranks = _ranks(hand, suit)
        i = 0
        while i < len(ranks):
            j = i
            while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] - 1:
                j += 1
            if j - i + 1 >= 3:
                runs.append((j - i + 1, ranks[i], suit))
            i = j + 1
    return runs


def sets_of(hand: int) -> list[tuple[int, int]]:
    """Every trio or quatorze of ranks above nine: ``(count, rank)``."""
    found = []
    for rank in range(TEN, ACE + 1):
        count = sum(hand >> card(rank, s) & 1 for s in range(4))
        if count >= 3:
            found.append((count, rank))
    return found


def best(hand: int, kind: int) -> Value | None:
    """The hand's best combination of a class, as a comparable value, or None.

    Point: (cards, pips). Sequence: (length, top rank). Sets: (3 or 4, rank), so any quatorze
    beats any trio and the higher rank breaks the rest.
    """
    if kind == POINT:
        return point_of(hand)[0]
    if kind == SEQUENCE:
        runs = sequences_of(hand)
        return max((length, top) for length, top, _ in runs) if runs else None
    sets = sets_of(hand)
    return max(sets) if sets else None


def points(hand: int, kind: int, flat_point: bool) -> int:
    """What the holder scores when he wins the class: the point 1 (S1) or one per card; all his
    sequences; all his trios and quatorzes."""
    if kind == POINT:
        return 1 if flat_point else point_of(hand)[0][0]
    if kind == SEQUENCE:
        return sum(SEQUENCE_POINTS[min(length, 8)] for length, _, _ in sequences_of(hand))
    return sum(QUATORZE_POINTS if n == 4 else TRIO_POINTS for n, _ in sets_of(hand))


def shown(hand: int, kind: int) -> int:
    """The cards the winner of a class shows: the point's suit, every sequence, every set."""
    if kind == POINT:
        return point_cards(hand)
    mask = 0
    if kind == SEQUENCE:
        for length, top, suit in sequences_of(hand):
            for r in range(top - length + 1, top + 1):
                mask |= 1 << card(r, suit)
        return mask
    for _, rank in sets_of(hand):
        for s in range(4):
            mask |= hand & 1 << card(rank, s)
    return mask


def is_blank(hand: int) -> bool:
    """Carte blanche: no king, queen or jack (§3.3)."""
    return not any(hand >> card(r, s) & 1 for r in (11, 12, 13) for s in range(4))
