"""Nittionio's actions as ints and their text notation (documented in the package docstring).

A card played is its card int; ``pass``, ``declare`` and ``reveal`` are 1000..1002; laying three
bid cards is one action that packs the three card ints (below). Pure functions only.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Iterable
from itertools import combinations

from games.cards import JOKER, code, codes, rank_of, suit_of
from games.core import Action, NotationError, parse_card_notation
from games.nittionio.deck import BID_VALUE, cards_list

PASS, DECLARE, REVEAL = 1000, 1001, 1002
WORDS = {PASS: "pass", DECLARE: "declare", REVEAL: "reveal"}
_ACTIONS_BY_WORD = {word: action for action, word in WORDS.items()}

BID = 1 << 24
"""A bid-card action is ``BID | c1 << 16 | c2 << 8 | c3``: its three cards, ``c1 < c2 < c3``."""


def bid_action(cards: Iterable[int]) -> Action:
    """The action that lays these three cards as bid cards."""
    c1, c2, c3 = sorted(cards)
    return BID | c1 << 16 | c2 << 8 | c3


def bid_cards(action: Action) -> int | None:
    """The mask of the three cards a bid-card action lays, or None if it is not one."""
    c1, c2, c3 = action >> 16 & 0xFF, action >> 8 & 0xFF, action & 0xFF
    if action >> 24 != 1 or not c1 < c2 < c3 <= JOKER:
        return None
    return 1 << c1 | 1 << c2 | 1 << c3


# The 220 bid-card actions of a 12-card hand are made in C: every choice of 3 of the 12 hand
# positions is written as the bytes of a 32-bit int (12, i, j, k), most significant first, in the
# machine's byte order; translating them through the table "position p -> the hand's p-th card,
# 12 -> 1" and reading them back as 32-bit ints gives BID | c1 << 16 | c2 << 8 | c3.
_POSITION_TRIPLES = bytes(
    b
    for triple in combinations(range(12), 3)
    for b in ((12, *triple) if sys.byteorder == "big" else (*reversed(triple), 12))
)
_TABLE_TAIL = bytes((BID >> 24,)) + bytes(243)  # 12 -> the flag byte; 13..255 unused
assert struct.calcsize("I") == 4


def bid_actions(hand: int) -> list[Action]:
    """Every way to lay three cards of a 12-card hand as bid cards."""
    table = bytes(cards_list(hand)) + _TABLE_TAIL
    actions: list[Action] = memoryview(_POSITION_TRIPLES.translate(table)).cast("I").tolist()
    return actions


# Bid cards are written in the order of their trick values (diamonds, spades, hearts, clubs),
# low to high within a suit, the joker last.
_BID_ORDER = tuple(
    99 if c == JOKER else BID_VALUE[suit_of(c)] * 13 + rank_of(c) for c in range(JOKER + 1)
)


def in_bid_order(cards: int) -> list[int]:
    """The cards of a mask in the order bid cards are written."""
    return sorted(cards_list(cards), key=_BID_ORDER.__getitem__)


def notation(action: Action) -> str:
    if 0 <= action <= JOKER:
        return code(action)
    if action in WORDS:
        return WORDS[action]
    cards = bid_cards(action)
    if cards is not None:
        return "bid " + codes(in_bid_order(cards))
    raise ValueError(f"not a Nittionio action: {action}")


def parse(text: str) -> Action:
    words = text.strip().lower().split()
    if len(words) == 1:
        if words[0] in _ACTIONS_BY_WORD:
            return _ACTIONS_BY_WORD[words[0]]
        return parse_card_notation(words[0])
    if words and words[0] == "bid":
        cards = {parse_card_notation(w) for w in words[1:]}
        if len(words) != 4 or len(cards) != 3:
            raise NotationError("bid takes three different cards, e.g. bid 7D KS TC")
        return bid_action(cards)
    raise NotationError(
        f"not a Nittionio action: {text!r} (a card such as QS, bid 7D KS TC, pass, declare "
        "or reveal)"
    )
