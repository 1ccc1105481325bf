"""Trick-taking mechanics shared by every trick game: following suit, trumping, who wins a trick.

Games describe their deck with two tables indexed by card int: the card's *effective suit* and its
*power* within that suit (higher wins). The plain tables below rank 2..A in each suit; a game with a
different order or a joker that copies another card (Nittionio) builds its own tables once per deal
with :func:`tables`. Hands are bit masks (see ``games.cards``), so following suit is one ``&``.
:func:`redeal` deals the cards hidden from a seat anew around what play has shown (the suits a
seat showed out of), for a search's determinized worlds.

Pure functions only: no state, no I/O; randomness only from the generator passed in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from games.cards import JACK, JOKER, SUIT_MASKS, card, mask_of, rank_of, shuffle, suit_of

NO_SUIT = -1

PLAIN_SUIT: tuple[int, ...] = tuple(suit_of(c) for c in range(53))
PLAIN_POWER: tuple[int, ...] = tuple(rank_of(c) for c in range(53))


def tables(
    joker_as: int | None = None, power: Mapping[int, int] | None = None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Effective-suit table, power table and suit masks for one deal.

    ``joker_as``: the card the joker stands for (it takes that card's suit and power).
    ``power``: rank -> power overrides, for games whose order is not 2..A.
    Returns ``(suit_table, power_table, suit_masks)``; ``suit_masks[s]`` includes the joker's bit
    when the joker belongs to suit ``s``.
    """
    suit_table = list(PLAIN_SUIT)
    power_table = [power.get(r, r) if power else r for r in PLAIN_POWER]
    masks = list(SUIT_MASKS)
    if joker_as is not None:
        suit_table[JOKER] = suit_table[joker_as]
        power_table[JOKER] = power_table[joker_as]
        if suit_table[JOKER] >= 0:
            masks[suit_table[JOKER]] |= 1 << JOKER
    return tuple(suit_table), tuple(power_table), tuple(masks)


# Powers above every rank, for the cards that bowers games lift to the top of the trump suit.
LEFT_BOWER_POWER = 20
RIGHT_BOWER_POWER = 21
JOKER_POWER = 22


def same_colour(suit: int) -> int:
    """The other suit of the same colour: clubs and spades, diamonds and hearts (``C D H S``)."""
    return 3 - suit


def bower_tables(
    trump: int, power: Mapping[int, int] | None = None, joker: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Suit, power and suit-mask tables for a deal with bowers (Reunion, Femhundra).

    The jack of trumps (right bower) is the highest trump and the jack of the same colour (left
    bower) the next; the left bower belongs to the trump suit for following suit, trumping and
    ranking. With ``joker`` the joker is a trump above both. ``power``: rank -> power overrides
    for the other cards, as in :func:`tables`.
    """
    suit_table, power_table, masks = (list(t) for t in tables(power=power))
    right, left = card(JACK, trump), card(JACK, same_colour(trump))
    power_table[right] = RIGHT_BOWER_POWER
    power_table[left] = LEFT_BOWER_POWER
    suit_table[left] = trump
    masks[same_colour(trump)] &= ~(1 << left)
    masks[trump] |= 1 << left
    if joker:
        suit_table[JOKER] = trump
        power_table[JOKER] = JOKER_POWER
        masks[trump] |= 1 << JOKER
    return tuple(suit_table), tuple(power_table), tuple(masks)


def follow_mask(hand: int, led_suit: int, suit_masks: Sequence[int] = SUIT_MASKS) -> int:
    """The cards of ``hand`` that may be played to a trick led in ``led_suit``.

    Must follow suit if able; otherwise any card (no duty to trump or to beat).
    ``led_suit = NO_SUIT`` means the player leads: any card.
    """
    if led_suit == NO_SUIT:
        return hand
    same = hand & suit_masks[led_suit]
    return same if same else hand


def beat_mask(
    hand: int,
    trick: Sequence[int],
    trump: int | None = None,
    suit_table: Sequence[int] = PLAIN_SUIT,
    power_table: Sequence[int] = PLAIN_POWER,
    suit_masks: Sequence[int] = SUIT_MASKS,
    trump_if_void: bool = False,
) -> int:
    """The cards of ``hand`` that may be played to ``trick`` where a follower must beat.

    Follow suit; holding the led suit, play a card above the highest led-suit card played so far
    when you have one (Femkort, Bondtolva's closed play). Void in the led suit: with
    ``trump_if_void`` a trump if you hold one (Bondtolva), else any card. An empty ``trick``
    means the player leads: any card.
    """
    if not trick:
        return hand
    led = suit_table[trick[0]]
    same = hand & suit_masks[led]
    if same:
        top = max(power_table[c] for c in trick if suit_table[c] == led)
        higher = 0
        rest = same
        while rest:
            low = rest & -rest
            c = low.bit_length() - 1
            if power_table[c] > top:
                higher |= low
            rest ^= low
        return higher or same
    if trump_if_void and trump is not None:
        trumps = hand & suit_masks[trump]
        if trumps:
            return trumps
    return hand


def trick_winner(
    trick: Sequence[int],
    trump: int | None,
    suit_table: Sequence[int] = PLAIN_SUIT,
    power_table: Sequence[int] = PLAIN_POWER,
) -> int:
    """Position (0 = the lead) of the card that wins ``trick``.

    The highest trump wins if any trump was played; otherwise the highest card of the led suit.
    ``trump = None`` plays without trumps.
    """
    best = 0
    best_card = trick[0]
    for i in range(1, len(trick)):
        c = trick[i]
        s = suit_table[c]
        if s == suit_table[best_card]:
            if power_table[c] > power_table[best_card]:
                best, best_card = i, c
        elif s == trump:
            # the card winning so far is not a trump, so the first trump takes over;
            # a discard of a third suit never wins
            best, best_card = i, c
    return best


# --- re-dealing hidden cards (a search's determinized worlds) ------------------------------------

REDEAL_TRIES = 50
"""Random tries at a re-deal before the cards stay where they are."""
ANY_CARD = (1 << (JOKER + 1)) - 1
"""The mask of every card, the joker included."""


def outside_voids(pool: Sequence[int], voids: int, class_of: Callable[[int], int]) -> int:
    """The cards (a mask) that a place void in the classes ``voids`` (a bit per class: the suits
    it showed out of, numbered as ``class_of`` numbers them) may hold, of those in ``pool``: any
    card where it is void in none."""
    if not voids:
        return ANY_CARD
    allowed = 0
    for c in pool:
        if not voids >> class_of(c) & 1:
            allowed |= 1 << c
    return allowed


def redeal(
    places: Sequence[tuple[int, int]],
    pool: Sequence[int],
    rng: random.Random,
    order: Sequence[int] | None = None,
) -> list[int]:
    """Masks for ``places`` (how many cards each holds, and the mask of cards it may hold) dealt
    at random from ``pool``, the cards as they lie now, place after place.

    The places are dealt in ``order`` (by default those that may hold the fewest of the cards
    first) from one shuffled pool; a dead end shuffles again, and after :data:`REDEAL_TRIES` the
    cards stay where they are, which always fits.
    """
    everything = mask_of(pool)
    if order is None:
        order = sorted(range(len(places)), key=lambda i: (places[i][1] & everything).bit_count())
    cards = list(pool)
    for _ in range(REDEAL_TRIES):
        shuffle(cards, rng)
        left = cards
        masks = [0] * len(places)
        for i in order:
            count, allowed = places[i]
            if allowed & everything == everything:  # nothing ruled out: the next cards
                masks[i] = mask_of(left[:count])
                left = left[count:]
                continue
            fits = [c for c in left if allowed >> c & 1][:count]
            if len(fits) < count:
                break
            masks[i] = mask_of(fits)
            left = [c for c in left if not masks[i] >> c & 1]
        else:
            return masks
    masks, start = [], 0
    for count, _ in places:
        masks.append(mask_of(pool[start : start + count]))
        start += count
    return masks
