"""Generic trick play read from a seat's view: win cheaply when it pays, otherwise shed low.

Works on the public trick (``view.trick``), the trump suit (``view.trump``) and the seat's legal
cards. Card order comes from effective-suit and power tables (``games.tricks``); a game whose joker
or ranking differs passes its own tables. ``want`` says whether the seat wants this trick.

Pure functions; no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core import View
from games.tricks import NO_SUIT, PLAIN_POWER, PLAIN_SUIT, trick_winner

Tables = tuple[Sequence[int], Sequence[int]]
PLAIN: Tables = (PLAIN_SUIT, PLAIN_POWER)


def _cost(card: int, trump: int | None, tables: Tables) -> tuple[int, int]:
    """How dear a card is to give up: trumps above plain cards, then by power."""
    suit_table, power_table = tables
    return (1 if trump is not None and suit_table[card] == trump else 0, power_table[card])


def winning_card(view: View, tables: Tables = PLAIN) -> int | None:
    """The card winning the trick on the table so far (None when the trick is empty)."""
    cards = [int(c) for _, c in view.trick]
    if not cards:
        return None
    return cards[trick_winner(cards, view.trump, tables[0], tables[1])]


def takes_trick(card: int, view: View, tables: Tables = PLAIN) -> bool:
    """Whether ``card``, played now, would be winning the trick."""
    best = winning_card(view, tables)
    return best is None or beats(card, best, view.trump, tables)


def beats(card: int, best: int, trump: int | None, tables: Tables = PLAIN) -> bool:
    """Whether ``card`` played after ``best``, the card winning a trick so far, wins it: a higher
    card of the same suit, or a trump on a card that is no trump (as ``trick_winner`` rules)."""
    suit_table, power_table = tables
    suit = suit_table[card]
    if suit == suit_table[best]:
        return power_table[card] > power_table[best]
    return suit == trump


def lead(cards: Sequence[int], view: View, want: bool, tables: Tables = PLAIN) -> int:
    """The card to lead: an ace or a low card of the longest side suit (``want``), else lowest."""
    suit_table, power_table = tables
    trump = view.trump
    side = [c for c in cards if suit_table[c] != trump] or list(cards)
    if not want:
        return min(side, key=lambda c: _cost(c, trump, tables))
    # An ace (or the top card of a suit held) of a side suit is a likely trick.
    top = [c for c in side if power_table[c] >= 14]
    if top:
        return max(top, key=lambda c: power_table[c])
    counts: dict[int, int] = {}
    for c in side:
        counts[suit_table[c]] = counts.get(suit_table[c], 0) + 1
    longest = max(counts, key=lambda s: (counts[s], -s))
    return min((c for c in side if suit_table[c] == longest), key=lambda c: power_table[c])


def follow(cards: Sequence[int], view: View, want: bool, tables: Tables = PLAIN) -> int:
    """The card to play to a trick already led, among the legal ``cards``."""
    trump = view.trump
    players = len(view.seats)
    last = len(view.trick) >= players - 1
    best = winning_card(view, tables)
    winners = [c for c in cards if best is None or beats(c, best, trump, tables)]
    losers = [c for c in cards if c not in winners]

    def cost(c: int) -> tuple[int, int]:
        return _cost(c, trump, tables)

    if want:
        if not winners:
            return min(cards, key=cost)
        if last:
            return min(winners, key=cost)
        led = tables[0][int(view.trick[0][1])]
        in_suit = [c for c in winners if tables[0][c] == led]
        # Not last: follow with the strongest card of the led suit, or ruff as cheaply as possible.
        return max(in_suit, key=cost) if in_suit else min(winners, key=cost)
    if losers:
        return max(losers, key=cost)
    return max(cards, key=cost) if last else min(cards, key=cost)


def play(cards: Sequence[int], view: View, want: bool = True, tables: Tables = PLAIN) -> int:
    """The card to play now: lead when the trick is empty, otherwise follow."""
    if not view.trick:
        return lead(cards, view, want, tables)
    return follow(cards, view, want, tables)


def led_suit(view: View, tables: Tables = PLAIN) -> int:
    return tables[0][int(view.trick[0][1])] if view.trick else NO_SUIT
