"""Cards as small ints, their text codes, decks and the one shuffle every game uses.

A card is an int: ``suit * 13 + (rank - 2)`` for the 52 suit cards (ranks 2..14, ace high) and
``JOKER = 52``. Suits are numbered in the order of their codes ``C D H S``. Engines work on
these ints (and bit masks of them); :class:`Card` is the same int with a readable face for the
edges.

The shuffle is our own Fisher-Yates on ``rng.getrandbits`` so that a recorded seed deals the same
cards on every Python version (``random.shuffle`` is not guaranteed to stay the same).

This module does no I/O and knows nothing of any game.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Self

SUITS = "CDHS"
RANKS = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO, TEN, JACK, QUEEN, KING, ACE = 2, 10, 11, 12, 13, 14
JOKER = 52
JOKER_CODE = "JK"
_CODE_OF = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
SUIT_SYMBOLS = {CLUBS: "♣", DIAMONDS: "♦", HEARTS: "♥", SPADES: "♠"}


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (2..14, ace = 14) in ``suit`` (0..3)."""
    return suit * 13 + rank - 2


def rank_of(c: int) -> int:
    """2..14 for a suit card; 0 for the joker."""
    return 0 if c == JOKER else c % 13 + 2


def suit_of(c: int) -> int:
    """0..3 for a suit card; -1 for the joker."""
    return -1 if c == JOKER else c // 13


def code(c: int) -> str:
    """The card's text code: ``QS``, ``TH``, ``2C``, ``JK``."""
    if 0 <= c < 52:
        return _CODE_OF[c]  # every notation and view names cards: one string for each
    if c == JOKER:
        return JOKER_CODE
    raise ValueError(f"not a card: {c}")


def parse_card(text: str) -> int:
    """The card for a code such as ``QS`` or ``10h`` (case-insensitive); ValueError if malformed."""
    t = text.strip().upper()
    if t == JOKER_CODE:
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. QS, TH, 7D, JK)")
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])


_CODES = frozenset(rank + suit for rank in RANKS for suit in SUITS) | {JOKER_CODE}
"""Every card's code as :func:`code` writes it: most texts asked about are one of these."""


def is_card_code(text: str) -> bool:
    """Whether ``text`` is a card's code as :func:`parse_card` reads it (``QS``, ``10h``, ``JK``):
    the one test every face and the bot use to tell a card from a word (``pass``, ``bid``)."""
    if text in _CODES:  # a code as written (the bot asks of every notation on every turn)
        return True
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def all_card_codes(texts: Collection[str]) -> bool:
    """Whether every one of ``texts`` is a card's code (:func:`is_card_code`): the codes as
    written are looked up all at once, and only the others one at a time (a seat's notations,
    asked of at every action)."""
    return _CODES.issuperset(texts) or all(map(is_card_code, texts))


def codes(cards: Iterable[int]) -> str:
    """Space-separated codes, in the given order."""
    return " ".join(code(c) for c in cards)


class Card(int):
    """A card int with a face: ``Card.parse("TH")``, ``str(card) == "TH"``, ``card.rank``."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Card:
        return cls(parse_card(text))

    @property
    def rank(self) -> int:
        return rank_of(self)

    @property
    def suit(self) -> int:
        return suit_of(self)

    @property
    def is_joker(self) -> bool:
        return self == JOKER

    def __str__(self) -> str:
        return code(self)

    def __repr__(self) -> str:
        return f"Card({code(self)})"


_CARDS = tuple(Card(c) for c in range(JOKER + 1))
"""Every card's one Card value (a Card never changes, so views share them)."""


def cards_tuple(cards: Iterable[int]) -> tuple[Card, ...]:
    """Immutable Card values for a view."""
    return tuple(_CARDS[c] if 0 <= c <= JOKER else Card(c) for c in cards)


def make_deck(ranks: Iterable[int] = range(2, 15), jokers: int = 0) -> list[int]:
    """Every card of the given ranks in all four suits (suit by suit), then the joker(s): a new
    list each time, for the caller to shuffle."""
    return list(_deck(tuple(ranks), jokers))


@functools.lru_cache(maxsize=64)
def _deck(ranks: tuple[int, ...], jokers: int) -> tuple[int, ...]:
    # every deal of every table starts from one of a few decks (a restart deals thousands)
    return tuple(card(r, s) for s in range(4) for r in ranks) + (JOKER,) * jokers


def parse_deck(deck_codes: Sequence[str]) -> list[int]:
    """A deck order given as codes, top card first."""
    return [parse_card(c) for c in deck_codes]


# --- bit masks ---------------------------------------------------------------------------------

SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
# The four cards of each rank, by rank index (0 for twos .. 12 for aces: ``card % 13``).
RANK_MASKS: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_IN_SUIT = tuple(tuple(i for i in range(13) if chunk >> i & 1) for chunk in range(1 << 13))
"""The bits set in each 13-bit chunk (a suit's part of a mask), lowest first."""


def cards_in(mask: int) -> Iterator[int]:
    """The cards of a mask, lowest int first."""
    cards: list[int] = []
    base = 0
    while mask:
        # a suit at a time (every view lists hands and piles of every table after each action)
        found = _IN_SUIT[mask & 0x1FFF]
        cards.extend(found if base == 0 else [base + i for i in found])
        mask >>= 13
        base += 13
    return iter(cards)


_SUIT_CARDS: tuple[list[tuple[Card, ...] | None], ...] = tuple([None] * (1 << 13) for _ in SUITS)
"""The Card values of each suit's 13-bit chunk, by suit and chunk, filled as they are met."""


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask as Card values, lowest first (``cards_tuple(cards_in(mask))``): what
    every view shows of hands and piles, a suit at a time from a table."""
    clubs, diamonds, hearts, spades = _SUIT_CARDS
    c = clubs[mask & 0x1FFF]
    d = diamonds[mask >> 13 & 0x1FFF]
    h = hearts[mask >> 26 & 0x1FFF]
    s = spades[mask >> 39 & 0x1FFF]
    if c is None or d is None or h is None or s is None:
        _learn(mask)
        return mask_cards(mask)
    found = c + d + h + s
    return (*found, _CARDS[JOKER]) if mask >> JOKER else found


def _learn(mask: int) -> None:
    """Fills in the table the suit chunks of ``mask``."""
    for suit, known in enumerate(_SUIT_CARDS):
        chunk = mask >> 13 * suit & 0x1FFF
        if known[chunk] is None:
            known[chunk] = tuple(_CARDS[13 * suit + i] for i in _IN_SUIT[chunk])


# --- randomness --------------------------------------------------------------------------------


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform int in ``[0, n)``, by rejection sampling on ``getrandbits``."""
    if n <= 0:
        raise ValueError("randbelow needs n > 0")
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def copy_rng(rng: random.Random) -> random.Random:
    """An independent generator in the state of ``rng``, its state copied now. ``random.Random()``
    would first seed itself from the operating system, which costs more than the copy."""
    other = random.Random.__new__(random.Random)
    other.setstate(rng.getstate())
    return other


def fork_rng(rng: random.Random) -> random.Random:
    """An independent generator in the state of ``rng``, for a clone: it draws exactly what a
    copy would, but copies the state (which costs more than the rest of a clone) only when it,
    or another fork of the same state, first draws. Most clones never draw: a trial move, a
    search's step, anything but a new deal. ``rng`` itself is never changed by the fork."""
    if isinstance(rng, _Forked):
        return rng.fork()
    state = rng.getstate()
    own = random.Random.__new__(random.Random)
    own.setstate(state)
    return _Forked(own, [1], state[2])


def shared_rng(rng: random.Random) -> random.Random:
    """``rng`` made a fork of its own generator, without a copy, for a match about to be cloned:
    the match and its clones then share the generator until one of them first draws, which copies
    it (:func:`fork_rng`); otherwise the first clone of a match made from a seed copied it at
    once. A fork is returned as it is. Whoever holds ``rng`` itself must not draw from it
    afterwards (a match holds its generator alone)."""
    if isinstance(rng, _Forked):
        return rng
    return _Forked(rng, [1], rng.gauss_next)  # type: ignore[attr-defined]


class _Forked(random.Random):
    """A generator that draws from a plain one shared with other forks of the same state
    (``holders`` counts them, a list shared by them all) until one of them draws: that one
    first takes a copy of its own. ``gauss_next``, the only state of ``random.Random`` kept
    outside its generator, is each fork's own. Its three fields are slots: a fork is made at
    every clone, and an instance dictionary was one more object each time for the collector to
    go through."""

    __slots__ = ("_generator", "_holders", "gauss_next")
    _generator: random.Random
    _holders: list[int]
    gauss_next: float | None

    def __new__(
        cls, generator: random.Random, holders: list[int], gauss_next: float | None
    ) -> Self:
        # not ``random.Random()``: no seeding from the operating system, and the generator of
        # this object itself is never used (every draw goes to ``_generator``)
        self = super().__new__(cls)
        self._generator, self._holders, self.gauss_next = generator, holders, gauss_next
        return self

    def __init__(self, *args: object) -> None:
        """Made by ``__new__`` alone (``random.Random.__init__`` would seed it)."""

    def fork(self) -> _Forked:
        self._holders[0] += 1
        return _Forked(self._generator, self._holders, self.gauss_next)

    def _own(self) -> random.Random:
        """The generator, first copied if other forks hold it."""
        if self._holders[0] > 1:
            self._holders[0] -= 1
            self._generator, self._holders = copy_rng(self._generator), [1]
        return self._generator

    def random(self) -> float:
        return self._own().random()

    def getrandbits(self, k: int, /) -> int:
        if self._holders[0] > 1:
            self._own()
        return self._generator.getrandbits(k)

    def randbytes(self, n: int, /) -> bytes:
        return self._own().randbytes(n)

    # the signatures of random.Random's own overrides, which typeshed marks as such too
    def seed(  # type: ignore[override]
        self, a: int | float | str | bytes | bytearray | None = None, version: int = 2
    ) -> None:
        self._own().seed(a, version)
        self.gauss_next = None

    def getstate(self) -> tuple[object, ...]:  # type: ignore[override]
        version, state, _ = self._generator.getstate()
        return version, state, self.gauss_next

    def setstate(self, state: tuple[object, ...]) -> None:
        self._own().setstate(state)
        self.gauss_next = self._generator.getstate()[2]

    def __reduce__(self) -> tuple[object, ...]:
        # pickled and copied as the plain generator it draws like
        return random.Random, (), self.getstate()


_BITS = tuple((i + 1).bit_length() for i in range(128))
"""``(i + 1).bit_length()`` by ``i``: the bits of a draw below ``i + 1``."""


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates in place, from the last position down, each draw by :func:`randbelow`
    (written out here, as every deal of every game shuffles)."""
    getrandbits = rng.getrandbits
    bits = _BITS if len(items) <= len(_BITS) else [(i + 1).bit_length() for i in range(len(items))]
    for i in range(len(items) - 1, 0, -1):
        k = bits[i]  # j = randbelow(rng, i + 1)
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def shuffled(items: Iterable[int], rng: random.Random) -> list[int]:
    out = list(items)
    shuffle(out, rng)
    return out


def deal_deck(
    decks: Sequence[Sequence[int]] | None, deal_index: int, cards: Sequence[int], rng: random.Random
) -> list[int]:
    """The deck order for deal number ``deal_index`` (0-based), top card first.

    An explicit order from ``decks`` when one was given for this deal (it must hold exactly
    ``cards``), otherwise ``cards`` shuffled with ``rng``.
    """
    if decks is not None and deal_index < len(decks):
        order = list(decks[deal_index])
        if sorted(order) != sorted(cards):
            raise ValueError(
                f"deck for deal {deal_index + 1} must hold exactly this game's {len(cards)} cards"
            )
        return order
    return shuffled(cards, rng)


SHOWN_SUIT_ORDER = (SPADES, HEARTS, CLUBS, DIAMONDS)
"""The order of the suits wherever a hand lies open (a hand, a träkarl): colours alternate."""


def shown_order(c: int) -> tuple[int, int]:
    """A card's place in a hand laid out: the joker first, then suit by suit
    (:data:`SHOWN_SUIT_ORDER`), high cards first. Every face sorts hands by it."""
    if c == JOKER:
        return (-1, 0)
    return (SHOWN_SUIT_ORDER.index(c // 13), -(c % 13))


def shown_rank_order(c: int) -> tuple[int, int]:
    """A card's place in a hand laid out rank by rank: the joker first, then high ranks first,
    each rank's cards in :data:`SHOWN_SUIT_ORDER`."""
    if c == JOKER:
        return (-14, 0)
    return (-(c % 13), SHOWN_SUIT_ORDER.index(c // 13))
