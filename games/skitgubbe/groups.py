"""Skitgubbe's actions as ints, their notation, and the phase-2 rules for groups and beating.

Action ints:

* ``0..51``: one card (phase 1: play it; phase 2: lead or beat with it as a group of one);
* ``CHANCE`` (phase 1, *våga*) and ``PICKUP`` (phase 2, *supa*);
* ``GROUP_BASE + low * 16 + length``: a group of ``length`` (2..13) cards of one suit in
  sequence, from the card ``low`` up. A group is also a bit mask of cards (``group_mask``).

A group is one or more cards of the same suit and consecutive ranks, 2 lowest and ace highest,
no wrap-around (rules/three-to-five-player.md §4.3, S-Ex6). Beating (§4.3, S6, S7): holding the
led suit, beat with led-suit cards whose lowest is above the top group's highest, and never
over a trump on top; void in the led suit, any trump group beats a plain top and a higher trump
group beats a trump top.

Pure functions: no state, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.cards import JOKER, SUIT_MASKS, code
from games.core import Action, NotationError, parse_card_notation

CHANCE = 60
PICKUP = 61
GROUP_BASE = 64
SUIT_BITS = 0x1FFF

CHANCE_WORDS = frozenset(("chance", "våga", "vaga", "chansa"))
PICKUP_WORDS = frozenset(("pickup", "supa"))


def group_action(low: int, length: int) -> Action:
    """The action of the group of ``length`` cards from card ``low`` up (one card: the card)."""
    return low if length == 1 else GROUP_BASE + low * 16 + length


def is_group(action: Action) -> bool:
    """Whether ``action`` plays cards (one card or a longer group)."""
    return 0 <= action < 52 or action >= GROUP_BASE


def group_bounds(action: Action) -> tuple[int, int]:
    """``(low card, length)`` of a group action."""
    if action < 52:
        return action, 1
    rest = action - GROUP_BASE
    return rest >> 4, rest & 15


def group_mask(action: Action) -> int:
    low, length = group_bounds(action)
    return ((1 << length) - 1) << low


def group_high(action: Action) -> int:
    """The highest card of a group."""
    low, length = group_bounds(action)
    return low + length - 1


def valid_group_action(action: Action) -> bool:
    """Whether ``action`` is a well-formed group: 1..13 cards inside one suit."""
    if 0 <= action < 52:
        return True
    if action < GROUP_BASE:
        return False
    low, length = group_bounds(action)
    return 2 <= length <= 13 and low < 52 and low % 13 + length <= 13


def above(card: int) -> int:
    """Every card int above ``card`` (within its suit once masked with that suit)."""
    return ~((1 << (card + 1)) - 1)


def beat_cards(hand: int, led: int, top: Action, trump: int) -> int:
    """The cards of ``hand`` a group beating ``top`` may consist of (0: no beat is possible).

    ``led`` is the suit of the trick's first group, ``top`` its last group (§4.3, S6): holding the
    led suit, led-suit cards above a led-suit top and nothing over a trump top; void in it, any
    trump over a plain top and higher trumps over a trump top.
    """
    top_high = group_high(top)
    top_suit = top_high // 13
    led_cards = hand & SUIT_MASKS[led]
    if led_cards:
        if top_suit != led:
            return 0  # a trump lies on a plain lead: a player holding the led suit picks up
        return led_cards & above(top_high)
    trumps = hand & SUIT_MASKS[trump]
    if top_suit != trump:
        return trumps
    return trumps & above(top_high)


def groups_in(cards: int, single_only: bool) -> Iterator[Action]:
    """Every group made of ``cards`` (runs of a suit and every part of them), low card first."""
    for suit in range(4):
        bits = (cards >> (13 * suit)) & SUIT_BITS
        base = 13 * suit
        rank = 0
        while bits:
            if not bits & 1:
                skip = (bits & -bits).bit_length() - 1
                bits >>= skip
                rank += skip
                continue
            run = 0
            while bits >> run & 1:
                run += 1
            for start in range(run):
                low = base + rank + start
                yield low
                if not single_only:
                    for length in range(2, run - start + 1):
                        yield GROUP_BASE + low * 16 + length
            bits >>= run
            rank += run


def notation(action: Action) -> str:
    if action == CHANCE:
        return "chance"
    if action == PICKUP:
        return "pickup"
    if not valid_group_action(action):
        raise ValueError(f"not a skitgubbe action: {action}")
    low, length = group_bounds(action)
    return " ".join(code(c) for c in range(low, low + length))


def parse(text: str) -> Action:
    """The action a text names: ``chance``, ``pickup`` or cards (any order) forming one group."""
    words = text.replace(",", " ").split()
    if len(words) == 1 and words[0].lower() in CHANCE_WORDS:
        return CHANCE
    if len(words) == 1 and words[0].lower() in PICKUP_WORDS:
        return PICKUP
    if not words:
        raise NotationError("write a card (7C), a group (QC KC AC), chance or pickup")
    cards = []
    for word in words:
        c = parse_card_notation(word)
        if c == JOKER:
            raise NotationError("Skitgubbe is played without a joker")
        cards.append(c)
    cards.sort()
    low, high = cards[0], cards[-1]
    if len(set(cards)) != len(cards) or high - low != len(cards) - 1 or low // 13 != high // 13:
        raise NotationError(
            f"{' '.join(words)} is not a group: several cards must be of one suit and follow "
            "each other in rank (7H 8H 9H)"
        )
    return group_action(low, len(cards))
