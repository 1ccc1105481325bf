"""Nittionio's cards: the decks, the tables that make the joker a copy of the turn-up card, the
bid value of each card, and listing the cards of a hand mask quickly. Constants and pure
functions only."""

from __future__ import annotations

from games.cards import CLUBS, DIAMONDS, HEARTS, JOKER, SPADES, make_deck
from games.tricks import tables

PLAYERS = 3
FULL_DECK = tuple(make_deck(range(6, 15), jokers=1))
SHORT_DECK = tuple(make_deck(range(6, 15)))  # V3: no joker
BIT = tuple(1 << c for c in range(JOKER + 1))

BID_VALUE = {DIAMONDS: 0, SPADES: 1, HEARTS: 2, CLUBS: 3}
"""Tricks meant by one bid card of each suit."""
TRUMP_BY_SUCCESSES = (DIAMONDS, SPADES, HEARTS, CLUBS)
"""V3: the trump suit after 0, 1, 2 or 3 players succeeded in the previous deal."""

DealTables = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _deal_tables(turn_up: int | None) -> DealTables:
    """Effective suit, power, suit masks (``games.tricks.tables``) and bid value of every card."""
    joker_as = None if turn_up in (None, JOKER) else turn_up
    suit_table, power_table, suit_masks = tables(joker_as=joker_as)
    bid_values = tuple(BID_VALUE.get(s, 0) for s in suit_table)
    return suit_table, power_table, suit_masks, bid_values


TABLES: dict[int | None, DealTables] = {t: _deal_tables(t) for t in [None, *FULL_DECK]}
"""The tables of each possible turn-up (None: no turn-up, so no joker in play), made once."""

# The cards of each 9-bit pattern of ranks 6..A in each suit: a Nittionio hand holds no other
# ranks, so listing a hand is four lookups instead of a loop over its bits.
_SUIT_RUNS = tuple(
    tuple(tuple(13 * s + 4 + i for i in range(9) if p >> i & 1) for p in range(512))
    for s in range(4)
)
_JOKER_RUN = ((), (JOKER,))


def cards_list(mask: int) -> list[int]:
    """The cards of a mask of Nittionio cards, lowest first."""
    c, d, h, s = _SUIT_RUNS
    return [
        *c[mask >> 4 & 511],
        *d[mask >> 17 & 511],
        *h[mask >> 30 & 511],
        *s[mask >> 43 & 511],
        *_JOKER_RUN[mask >> JOKER],
    ]


def bid_value(bid_cards: int, turn_up: int | None = None) -> int:
    """The bid that a mask of bid cards stands for; the joker counts as the turn-up's suit (N1)."""
    return sum(map(TABLES[turn_up][3].__getitem__, cards_list(bid_cards)))
