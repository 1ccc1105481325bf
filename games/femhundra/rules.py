"""Femhundra's fixed rules: decks per player count, the bid ladder and its values, the options,
action ints and their notation, and the pure scoring of a deal and of the game end.

Pure functions and constants only: no state, no I/O.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Literal

from games.bidding import FIRST_BID, Ladder
from games.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER,
    SPADES,
    SUITS,
    card,
    code,
)
from games.core import Action, Msg, NotationError, Options, parse_card_notation

TARGET = 500
BACK_DOOR = -500
CAP = 490  # rules 5.6 V5: a defending side stays on 490
TRICKS = 10
SLAM = 250

STRAINS = ("S", "C", "D", "H", "NT")
STRAIN_SUIT = {"S": SPADES, "C": CLUBS, "D": DIAMONDS, "H": HEARTS}
STRAIN_VALUE = {"S": 40, "C": 60, "D": 80, "H": 100, "NT": 120}
MISERE, OPEN_MISERE = "misere", "openmisere"

PLAIN_LADDER = Ladder((6, 7, 8, 9, 10), STRAINS)
# rules 5.6 V1 (F3, F4): misère between 7NT and 8S, open misère above 10NT
MISERE_LADDER = Ladder((6, 7, 8, 9, 10), STRAINS, specials=((MISERE, "7NT"), (OPEN_MISERE, None)))
SEVEN_SPADES = MISERE_LADDER.index("7S")

# action ints: a card played is the card (0..52)
JOKER_LEAD = 60  # + suit: lead the joker in a no-trump deal, naming that suit
BID_BASE = 100  # the auction's calls (games.bidding): 100 pass, 103 + ladder position a bid
SOLO = 200
CALL = 300  # + card: 5 players, call the holder of that card as partner
DISCARD = 1 << 32  # + the discarded cards packed, a byte each (card + 1), lowest card first


@dataclass(frozen=True)
class FemhundraOptions(Options):
    """The variants of rules/three-to-five-player.md §5.6 and its decisions.

    ``misere``: the Anglo-Saxon bids misère and open misère (V1; with four players V5a).
    ``auction``: "one" round (the main rule) or "multi" rounds until a bid is followed by passes
    from all others (V2); four players always bid in several rounds (V5). A pass is final (F13).
    ``slam_bonus``: 250 for all ten tricks on a contract worth less; "auto" uses it with one round
    of bidding only (V2, F9). ``nt_joker``: "any_time" (the seed, F6) or "void_only" (Parlett).
    ``strict_bid_out``: four players, a side never reaches 500 by trick points (F10).
    ``misere_partner``: five players with ``misere``, "misere_only" (F11, RULINGS 7: only a
    misère contract is played alone) or "never" (no partner in any contract).
    """

    misere: bool = False
    auction: Literal["one", "multi"] = "one"
    slam_bonus: Literal["auto", "yes", "no"] = "auto"
    nt_joker: Literal["any_time", "void_only"] = "any_time"
    strict_bid_out: bool = False
    misere_partner: Literal["misere_only", "never"] = "misere_only"


def deck_for(players: int) -> list[int]:
    """The deck of a player count (rules 5.1, V3, V4, V5), suit by suit, the joker last."""
    if players == 2:  # A K Q J T 9, no joker
        return [card(r, s) for s in range(4) for r in range(9, 15)]
    if players == 3:  # A..7 and the joker
        return [card(r, s) for s in range(4) for r in range(7, 15)] + [JOKER]
    if players == 4:  # no 2s, 3s or black 4s, and the joker
        return [
            card(r, s) for s in range(4) for r in range(4 if s in (DIAMONDS, HEARTS) else 5, 15)
        ] + [JOKER]
    return [card(r, s) for s in range(4) for r in range(2, 15)] + [JOKER]


def widow_size(players: int) -> int:
    return 4 if players == 2 else 3


def bid_value(ladder: Ladder, position: int, players: int) -> int:
    """The bid table (rules 5.4): 100 x (tricks - 6) + the strain's value; misère 250, open
    misère 520 (500 with four players, V5a)."""
    bid = ladder.bids[position]
    if bid == MISERE:
        return 250
    if bid == OPEN_MISERE:
        return 500 if players == 4 else 520
    level, strain = ladder.level(position), ladder.strain(position)
    assert level is not None
    assert strain is not None
    return 100 * (level - 6) + STRAIN_VALUE[strain]


def bid_words(notation: str, players: int) -> Msg | None:
    """A bid named with its value from the bid table (rules 5.4), for its button: ``bid 7H`` is
    ``femhundra.words.bid`` with contract ``7H`` and value 200; other actions: None."""
    words = notation.split()
    if len(words) != 2 or words[0].lower() != "bid":
        return None
    bid = words[1].upper() if words[1].lower() not in (MISERE, OPEN_MISERE) else words[1].lower()
    if bid not in MISERE_LADDER.bids:
        return None
    value = bid_value(MISERE_LADDER, MISERE_LADDER.index(bid), players)
    if bid in (MISERE, OPEN_MISERE):
        return Msg.of(f"femhundra.words.bid_{bid}", value=value)
    return Msg.of("femhundra.words.bid", contract=bid, value=value)


# --- listing the cards of a mask quickly ----------------------------------------------------------

_CHUNK = 7
_RUNS = tuple(
    tuple(tuple(base + i for i in range(_CHUNK) if bits >> i & 1) for bits in range(1 << _CHUNK))
    for base in range(0, 56, _CHUNK)
)


def cards_list(mask: int) -> list[int]:
    """The cards of a mask, lowest first (``games.cards.cards_in`` as a list, in chunks of 7)."""
    r0, r1, r2, r3, r4, r5, r6, r7 = _RUNS
    return [
        *r0[mask & 127],
        *r1[mask >> 7 & 127],
        *r2[mask >> 14 & 127],
        *r3[mask >> 21 & 127],
        *r4[mask >> 28 & 127],
        *r5[mask >> 35 & 127],
        *r6[mask >> 42 & 127],
        *r7[mask >> 49 & 127],
    ]


# --- notation -------------------------------------------------------------------------------------


def discard_action(cards: Sequence[int]) -> Action:
    packed = 0
    for i, c in enumerate(sorted(cards)):
        packed |= (c + 1) << (8 * i)
    return DISCARD + packed


_ZERO, _FLAG = 200, 201  # translation-table entries: a zero byte, the DISCARD flag byte


@cache
def _discard_records(hand_size: int, size: int) -> bytes:
    """Every choice of ``size`` of ``hand_size`` hand positions as an 8-byte record whose bytes,
    translated position -> card + 1, read as one 64-bit int give its discard action."""
    out = bytearray()
    for combo in combinations(range(hand_size), size):
        record = [*combo, *[_ZERO] * (4 - size), _FLAG, _ZERO, _ZERO, _ZERO]
        out += bytes(record if sys.byteorder == "little" else reversed(record))
    return bytes(out)


def discard_actions(cards: Sequence[int], size: int) -> list[Action]:
    """Every discard of ``size`` of ``cards`` (in increasing order): the 286 or 1001 actions are
    made by translating prebuilt position records, as fast as a list can be."""
    table = bytearray(256)
    for position, c in enumerate(cards):
        table[position] = c + 1
    table[_FLAG] = 1
    records = _discard_records(len(cards), size).translate(table)
    actions: list[Action] = memoryview(records).cast("Q").tolist()
    return actions


def discard_cards(action: Action) -> list[int] | None:
    """The cards of a discard action, lowest first; None if it is not one."""
    if not DISCARD < action < 2 * DISCARD:
        return None
    packed = action - DISCARD
    out = []
    while packed:
        out.append((packed & 255) - 1)
        packed >>= 8
    if any(not 0 <= c <= JOKER for c in out) or out != sorted(set(out)):
        return None
    return out


def notation(action: Action, ladder: Ladder) -> str:
    if 0 <= action <= JOKER:
        return code(action)
    if JOKER_LEAD <= action < JOKER_LEAD + 4:
        return f"JK {SUITS[action - JOKER_LEAD]}"
    if action == BID_BASE:
        return "pass"
    if BID_BASE + FIRST_BID <= action < BID_BASE + FIRST_BID + len(ladder.bids):
        return f"bid {ladder.bids[action - BID_BASE - FIRST_BID]}"
    if action == SOLO:
        return "solo"
    if CALL <= action <= CALL + JOKER:
        return f"call {code(action - CALL)}"
    cards = discard_cards(action)
    if cards is not None:
        return "discard " + " ".join(code(c) for c in cards)
    raise ValueError(f"not a Femhundra action: {action}")


def parse(text: str, ladder: Ladder) -> Action:
    words = text.strip().split()
    low = [w.lower() for w in words]
    if len(words) == 1:
        if low[0] == "pass":
            return BID_BASE
        if low[0] == "solo":
            return SOLO
        return parse_card_notation(words[0])
    if len(words) == 2 and low[0] == "jk":
        suit = words[1].upper()
        if suit not in SUITS:
            raise NotationError(f"name a suit for the joker: C, D, H or S, not {words[1]!r}")
        return JOKER_LEAD + SUITS.index(suit)
    if len(words) == 2 and low[0] == "bid":
        return BID_BASE + FIRST_BID + ladder.index(words[1])
    if len(words) == 2 and low[0] == "call":
        return CALL + parse_card_notation(words[1])
    if low and low[0] == "discard" and len(words) > 1:
        cards = {parse_card_notation(w) for w in words[1:]}
        if len(cards) != len(words) - 1:
            raise NotationError("discard takes different cards, e.g. discard 7C 8D 9H")
        return discard_action(sorted(cards))
    raise NotationError(
        f"not a Femhundra action: {text!r} (a card such as QS, JK H, pass, bid 7NT, "
        "bid misere, solo, call AC or discard 7C 8D 9H)"
    )


# --- scoring --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """What one deal scores. ``gains`` per seat (partners alike); ``credits`` per seat, per trick:
    the trick points in the order they were earned (for the first-to-500 tie-break); ``made``:
    the contract was made (None without a declarer)."""

    gains: tuple[int, ...]
    credits: tuple[tuple[int, ...], ...]
    made: bool | None


def score_deal(
    players: int,
    winners: Sequence[int],
    declarer: int,
    partner: int,
    value: int,
    need: int,
    misere: bool,
    slam: bool,
    sides: Sequence[int],
) -> DealOutcome:
    """Score a deal from the winner of each trick, in order (rules 5.4, V1, V4, V5).

    ``declarer`` -1: all passed, every side scores 10 per trick. ``partner``: the 5-player called
    partner or the 4-player partner (-1: none). ``need``: the tricks bid (0 for misère).
    ``sides``: the side of each seat (four players: 0 1 0 1; otherwise each its own).
    """
    credits = [[0] * len(winners) for _ in range(players)]
    gains = [0] * players

    def credit_side(side: int, trick: int, points: int) -> None:
        for s in range(players):
            if sides[s] == side:
                credits[s][trick] += points

    if declarer < 0:
        for i, w in enumerate(winners):
            credit_side(sides[w], i, 10)
        for s in range(players):
            gains[s] = sum(credits[s])
        return DealOutcome(tuple(gains), tuple(map(tuple, credits)), None)
    team = {declarer, partner} - {-1}
    declaring = {sides[s] for s in team}
    taken = sum(1 for w in winners if w in team)
    if misere:
        made = taken == 0
        if not made:  # each opponent (side) 10 per trick the declarer took
            for i, w in enumerate(winners):
                if w in team:
                    for side in sorted({sides[s] for s in range(players)} - declaring):
                        credit_side(side, i, 10)
    else:
        made = taken >= need
        for i, w in enumerate(winners):
            if sides[w] not in declaring:
                credit_side(sides[w], i, 10)
    score = value
    if made and slam and not misere and taken == TRICKS and value < SLAM:
        score = SLAM
    for s in range(players):
        gains[s] = (score if made else -score) if sides[s] in declaring else sum(credits[s])
    return DealOutcome(tuple(gains), tuple(map(tuple, credits)), made)


def cap_defenders(
    before: Sequence[int],
    gains: Sequence[int],
    sides: Sequence[int],
    declaring: set[int],
    made: bool | None,
    strict: bool,
) -> list[int]:
    """Four players (V5, F10): a defending side does not reach 500 by trick points on a deal whose
    contract failed; it stays on 490 (never less than it had). ``strict`` (``strict_bid_out``):
    no side reaches 500 by trick points at all, whatever the contract did."""
    out = list(gains)
    for s in range(len(gains)):
        if sides[s] in declaring or not (made is False or strict):
            continue
        if before[s] + gains[s] >= TARGET:
            out[s] = max(0, CAP - before[s])
    return out


def reached_at(before: int, credits: Sequence[int]) -> int:
    """The trick (0-based) at which trick points took a score from ``before`` to 500 or more;
    the number of tricks if they did not."""
    total = before
    for i, points in enumerate(credits):
        total += points
        if points and total >= TARGET:
            return i
    return len(credits)


def game_winners(
    scores: Sequence[int],
    reached: Sequence[int],
    declarer: int,
    partner: int,
    sides: Sequence[int],
) -> frozenset[int] | None:
    """The side(s) that win the game after a deal, or None when it goes on (rules 5.4, F8, F17).

    Someone at 500 or more: the highest score wins; on equal scores the declarer's side, else
    the called partner, else whoever reached 500 first in trick order (``reached``, per side).
    Else someone at -500 or less: the highest score wins by the back door; equal scores share.
    """
    by_side: dict[int, int] = {sides[s]: scores[s] for s in range(len(scores))}
    best = max(by_side.values())
    top = sorted(side for side, score in by_side.items() if score == best)
    if best >= TARGET:
        if len(top) == 1:
            return frozenset(top)
        for who in (declarer, partner):
            if who >= 0 and sides[who] in top:
                return frozenset((sides[who],))
        first = min(reached[side] for side in top)
        return frozenset(side for side in top if reached[side] == first)
    if min(by_side.values()) <= BACK_DOOR:
        return frozenset(top)
    return None
