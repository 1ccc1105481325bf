"""Piquet's actions as ints and their text notation (documented in the package docstring).

A card played is its card int; ``blanche``, ``expose`` and ``hide`` are 1000..1002; an exchange
is ``EXCHANGE | mask`` where ``mask`` holds the discarded cards (0: take none). Pure functions.
"""

from __future__ import annotations

from games.cards import cards_in, code, codes
from games.core import Action, NotationError, parse_card_notation

BLANCHE, EXPOSE, HIDE = 1000, 1001, 1002
WORDS = {BLANCHE: "blanche", EXPOSE: "expose", HIDE: "hide"}
_BY_WORD = {word: action for action, word in WORDS.items()}
EXCHANGE = 1 << 52
"""An exchange action is ``EXCHANGE | mask``: the mask of the cards laid away."""


def exchange_action(discards: int) -> Action:
    return EXCHANGE | discards


def exchange_mask(action: Action) -> int | None:
    """The discarded cards of an exchange action, or None if it is not one."""
    return action ^ EXCHANGE if action >> 52 == 1 else None


def exchange_actions(hand: int, fewest: int, most: int) -> list[Action]:
    """Every exchange of ``fewest`` to ``most`` cards of ``hand``, the most cards first.

    The hand is split in two halves whose subsets are listed by size once, so each exchange is
    one ``|`` of a subset of each half (fast: this runs at every exchange of every playout).
    """
    bits = [1 << c for c in cards_in(hand)]
    half = len(bits) // 2
    low, high = _subsets_by_size(bits[:half]), _subsets_by_size(bits[half:])
    out: list[Action] = []
    for k in range(most, fewest - 1, -1):
        for i in range(max(0, k - len(high) + 1), min(k, len(low) - 1) + 1):
            out.extend([EXCHANGE | a | b for a in low[i] for b in high[k - i]])
    return out


def _subsets_by_size(bits: list[int]) -> list[list[int]]:
    """Every subset (as a mask) of these card bits, listed by its number of cards."""
    by_size: list[list[int]] = [[0]] + [[] for _ in bits]
    for bit in bits:
        for size in range(len(bits), 0, -1):
            by_size[size].extend([m | bit for m in by_size[size - 1]])
    return by_size


def notation(action: Action) -> str:
    if 0 <= action < 52:
        return code(action)
    if action in WORDS:
        return WORDS[action]
    mask = exchange_mask(action)
    if mask is not None and mask < 1 << 52:
        return ("exchange " + codes(cards_in(mask))).strip()
    raise ValueError(f"not a Piquet action: {action}")


def parse(text: str) -> Action:
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in _BY_WORD:
        return _BY_WORD[words[0]]
    if words and words[0] == "exchange":
        mask = 0
        for word in words[1:]:
            bit = 1 << _card(word)
            if mask & bit:
                raise NotationError("exchange takes different cards, e.g. exchange 7C 8D 9H")
            mask |= bit
        return EXCHANGE | mask
    if len(words) == 1:
        return _card(words[0])
    raise NotationError(
        f"not a Piquet action: {text!r} (a card such as QS, exchange 7C 8D 9H, blanche, expose "
        "or hide)"
    )


def _card(text: str) -> int:
    c = parse_card_notation(text)
    if c >= 52:
        raise NotationError("Piquet is played without the joker")
    return c
