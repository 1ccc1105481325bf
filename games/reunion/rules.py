"""Reunion's cards, card points, action notation and partie settlement as pure values and
functions (rules/three-to-five-player.md §1.2, §1.5, §1.6, §1.11).

No state, no I/O: the match (``games.reunion.match``) calls these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from games.cards import ACE, JACK, KING, QUEEN, TEN, card, code, make_deck, rank_of
from games.core import Action, NotationError, parse_card_notation
from games.tricks import bower_tables, same_colour

PLAYERS = 3
DEALS_PER_PARTIE = 3
TRICKS = 10
DEAL_EYES = 150  # card points of one deal, the last trick included (§1.2)
LAST_TRICK_EYES = 10

DECK: tuple[int, ...] = tuple(make_deck(range(7, 15)))  # A K Q J T 9 8 7 of each suit
DECK_MASK = sum(1 << c for c in DECK)
BIT = tuple(1 << c for c in range(53))

_RUNS = tuple(
    tuple(tuple(13 * suit + 5 + i for i in range(8) if bits >> i & 1) for bits in range(256))
    for suit in range(4)
)


def cards_list(mask: int) -> list[int]:
    """The cards of a mask of Reunion cards (7 to ace), lowest int first."""
    c, d, h, s = _RUNS
    return [*c[mask >> 5 & 255], *d[mask >> 18 & 255], *h[mask >> 31 & 255], *s[mask >> 44 & 255]]


# §1.2: A T K Q (J) 9 8 7 in the plain suits; the ten sits just below the ace (R1).
POWER = {TEN: 13, KING: 12, QUEEN: 11, JACK: 10}
EYES_BY_RANK = {ACE: 11, TEN: 10, KING: 4, QUEEN: 3, JACK: 2}
BOWER_EYES = 12


def bowers(trump: int) -> tuple[int, int]:
    """The right bower (jack of trumps) and the left bower (jack of the same colour)."""
    return card(JACK, trump), card(JACK, same_colour(trump))


def _eyes_table(trump: int) -> tuple[int, ...]:
    eyes = [EYES_BY_RANK.get(rank_of(c), 0) if c < 52 else 0 for c in range(53)]
    for bower in bowers(trump):
        eyes[bower] = BOWER_EYES
    return tuple(eyes)


class TrumpTables:
    """Everything that depends on the trump suit, built once per suit."""

    __slots__ = ("eyes", "left", "no_discard", "power", "right", "suit", "suit_masks", "trump")

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.suit, self.power, self.suit_masks = bower_tables(trump, power=POWER)
        self.eyes = _eyes_table(trump)
        self.right, self.left = bowers(trump)
        aces = sum(BIT[card(ACE, s)] for s in range(4))
        # §1.3 step 4: never an ace nor a bower among the discards
        self.no_discard = aces | BIT[self.right] | BIT[self.left]


TABLES = tuple(TrumpTables(t) for t in range(4))


def eyes_of(cards: Iterable[int], trump: int) -> int:
    """The card points of these cards when ``trump`` is trumps."""
    table = TABLES[trump].eyes
    return sum(table[c] for c in cards)


# --- actions ----------------------------------------------------------------------------------

DISCARD = 1 << 16
"""Laying away two cards is ``DISCARD | c1 << 8 | c2`` (``c1 < c2``); playing a card is the card."""


def discard_action(cards: Iterable[int]) -> Action:
    c1, c2 = sorted(cards)
    return DISCARD | c1 << 8 | c2


def discard_cards(action: Action) -> tuple[int, int] | None:
    """The two cards a discard action lays away, or None when it is not one."""
    c1, c2 = action >> 8 & 0xFF, action & 0xFF
    if action >> 16 != 1 or not c1 < c2 < 52:
        return None
    return c1, c2


def discard_actions(allowed: Sequence[int]) -> list[Action]:
    """Every pair of the ``allowed`` cards (given in increasing order)."""
    return [DISCARD | a << 8 | b for a, b in combinations(allowed, 2)]


def notation(action: Action) -> str:
    if 0 <= action <= 52:
        return code(action)
    pair = discard_cards(action)
    if pair is None:
        raise ValueError(f"not a Reunion action: {action}")
    return f"discard {code(pair[0])} {code(pair[1])}"


def parse(text: str) -> Action:
    words = text.strip().split()
    if len(words) == 1:
        return parse_card_notation(words[0])
    if words and words[0].lower() == "discard":
        cards = {parse_card_notation(w) for w in words[1:]}
        if len(words) != 3 or len(cards) != 2 or max(cards) >= 52:
            raise NotationError("discard takes two different cards, e.g. discard 7C 8D")
        return discard_action(cards)
    raise NotationError(f"not a Reunion action: {text!r} (a card such as JH, or discard 7C 8D)")


# --- partie settlement (§1.6) -----------------------------------------------------------------

SIMPLE, MATCH, TRIPLE, QUADRUPLE = 1, 2, 3, 4
"""The loss kinds, named by the stakes the loser pays each winner."""
STANG = 0
"""The kind of a stång payment in :func:`settle_partie`'s list."""


def loss_kind(totals: Sequence[int], stangs: Sequence[int], loser: int) -> int:
    """The stakes a loser (a non-winner below 150) pays each winner: the first row of §1.6 (a)
    that fits, top down. A loser who won no trick in the partie pays 4 whatever his eyes (R10)."""
    points = totals[loser]
    if stangs[loser] == DEALS_PER_PARTIE:
        return QUADRUPLE
    if points < 50:
        return TRIPLE
    if points < 100:
        return MATCH
    others_low = any(totals[q] < 150 for q in range(len(totals)) if q != loser)
    return SIMPLE if others_low else MATCH


def partie_winners(totals: Sequence[int]) -> list[int]:
    """The seats with the most eyes; none when all three have exactly 150 (no win, no loss)."""
    top = max(totals)
    winners = [p for p, t in enumerate(totals) if t == top]
    return [] if len(winners) == len(totals) else winners


def settle_partie(totals: Sequence[int], stangs: Sequence[int]) -> list[tuple[int, int, int, int]]:
    """The payments at the end of a partie: ``(payer, payee, stakes, kind)``, kind one of
    SIMPLE..QUADRUPLE for a loss or STANG for the pairwise stång settlement (§1.6 a, b; R7, R9).

    Every loser pays each winner (a tie for first has two winners, R7); a non-winner with 150 or
    more neither pays nor receives. Then each pair settles the difference of their stångs.
    """
    pay: list[tuple[int, int, int, int]] = []
    winners = partie_winners(totals)
    for loser in range(len(totals)):
        if loser in winners or totals[loser] >= DEAL_EYES or not winners:
            continue
        kind = loss_kind(totals, stangs, loser)
        pay.extend((loser, w, kind, kind) for w in winners)
    for a, b in combinations(range(len(totals)), 2):
        d = stangs[a] - stangs[b]
        if d > 0:
            pay.append((a, b, d, STANG))
        elif d < 0:
            pay.append((b, a, -d, STANG))
    return pay


def net_stakes(payments: Iterable[tuple[int, int, int, int]], players: int = PLAYERS) -> list[int]:
    """Each seat's balance from a list of payments."""
    net = [0] * players
    for payer, payee, stakes, _ in payments:
        net[payer] -= stakes
        net[payee] += stakes
    return net
