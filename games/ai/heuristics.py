"""Per-game heuristics for the rule-based player, where they are cheap and clearly stronger.

Each is ``(decision, rng) -> Action | None``; ``None`` leaves the choice to the generic rules. They
read only the Decision, like every computer player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from games.ai import trickplay
from games.ai.base import Decision, pick
from games.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    JOKER,
    KING,
    QUEEN,
    SPADES,
    TEN,
    codes,
    parse_card,
    rank_of,
)
from games.core import Action, View
from games.reunion import rules as reunion_rules
from games.tricks import tables

Heuristic = Callable[[Decision, random.Random], Action | None]

# --- Hej knekt: always the right press (rules/party.md §1.2) -------------------------------------

HEJ_KNEKT_PRESS = {10: "whistle", 11: "hej", 12: "goddag", 13: "salute", 14: "slap"}


def hej_knekt(decision: Decision, rng: random.Random) -> Action | None:
    """In a reaction window: the press the revealed card asks for; ``close`` (no press at all)
    when it asks for none (a false-alarm window)."""
    try:
        revealed = parse_card(str(decision.view.phase.arg("card")))
    except (KeyError, ValueError):
        return None
    verb = HEJ_KNEKT_PRESS.get(rank_of(revealed), "close")
    for action, text in zip(decision.legal, decision.notations, strict=True):
        if text.split()[0] == verb:
            return action
    return None


# --- Nittionio: bid what the nine played cards should take; play to the bid exactly -------------

NITTIONIO_BID_VALUE = {DIAMONDS: 0, SPADES: 1, HEARTS: 2, CLUBS: 3}
_TRUMP_VALUE = {ACE: 0.95, KING: 0.8, QUEEN: 0.6, JACK: 0.45, TEN: 0.35}


def _turn_up(view: View) -> int | None:
    for pile in view.piles:
        if pile.key.endswith(".turn_up") and len(pile.cards) == 1:
            return int(pile.cards[0])
    return None


def nittionio_tables(view: View) -> trickplay.Tables:
    """Card order of this deal: the joker is an exact copy of the turn-up (rules N1, N2)."""
    turn_up = _turn_up(view)
    if turn_up is None or turn_up == JOKER:
        return trickplay.PLAIN
    suit_table, power_table, _ = tables(joker_as=turn_up)
    return suit_table, power_table


def estimate_tricks(cards: Sequence[int], trump: int | None, order: trickplay.Tables) -> float:
    """Expected tricks of a nine-card hand among three players (36 cards, 6 to ace)."""
    suit_table, power_table = order
    length: dict[int, int] = {}
    for c in cards:
        length[suit_table[c]] = length.get(suit_table[c], 0) + 1
    total = 0.0
    for c in cards:
        suit, power = suit_table[c], power_table[c]
        if suit == trump:
            total += _TRUMP_VALUE.get(power, 0.25)
        elif power == ACE:
            total += 0.8
        elif power == KING:
            total += 0.45 if length[suit] >= 2 else 0.2
        elif power == QUEEN and length[suit] >= 3:
            total += 0.2
    if trump is not None:
        trumps = length.get(trump, 0)
        total += 0.35 * max(0, trumps - 3)
        if trumps >= 2:
            total += 0.3 * sum(1 for s in range(4) if s != trump and s not in length)
    return total


def nittionio_bid(decision: Decision) -> Action | None:
    """The three bid cards whose value best matches what the other nine should take."""
    view = decision.view
    order = nittionio_tables(view)
    hand = [int(c) for c in view.hand]
    best: tuple[float, str] | None = None
    for bid_cards in combinations(hand, 3):
        played = [c for c in hand if c not in bid_cards]
        bid = sum(NITTIONIO_BID_VALUE[order[0][c]] for c in bid_cards)
        miss = abs(bid - estimate_tricks(played, view.trump, order))
        text = "bid " + codes(bid_cards)
        if best is None or miss < best[0]:
            best = (miss, text)
    return None if best is None else decision.find(best[1])


def _my_bid(view: View) -> int | None:
    for note in view.notes:
        if note.key == "nittionio.note.my_bid":
            return int(note.arg("bid"))
    return None


def nittionio_premium(decision: Decision, bid: int) -> Action | None:
    """Declare only a sure thing: the bid equals the sure tricks and nothing else may win."""
    view = decision.view
    suit_table, power_table = nittionio_tables(view)
    sure = loose = 0
    for c in (int(c) for c in view.hand):
        suit, power = suit_table[c], power_table[c]
        if power == ACE or (suit == view.trump and power == KING):
            sure += 1
        elif power >= QUEEN or (suit == view.trump and power >= TEN):
            loose += 1
    confident = (bid == sure and loose == 0) or (bid == 0 and sure + loose == 0)
    return decision.find("declare" if confident else "pass")


def nittionio(decision: Decision, rng: random.Random) -> Action | None:
    first = decision.notation(decision.legal[0])
    if first.startswith("bid ") and len(decision.legal) > 1:
        return nittionio_bid(decision)
    bid = _my_bid(decision.view)
    if bid is None:
        return None
    if first in ("pass", "declare", "reveal"):
        return nittionio_premium(decision, bid)
    if all(0 <= a <= JOKER for a in decision.legal):
        taken = decision.view.seats[decision.seat].tricks or 0
        order = nittionio_tables(decision.view)
        return trickplay.play(list(decision.legal), decision.view, taken < bid, order)
    return None


# --- Reunion: lay eyes away safely, draw the left bower with the right, give no eyes away ---------


def reunion_discard(decision: Decision) -> Action | None:
    """Lay away the two plain cards whose eyes are safest in the discards (they count for the
    dealer): tens and kings of short side suits first; never a trump."""
    trump = decision.view.trump
    if trump is None:
        return None
    t = reunion_rules.TABLES[trump]
    hand = [int(c) for c in decision.view.hand]
    length: dict[int, int] = {}
    for c in hand:
        length[t.suit[c]] = length.get(t.suit[c], 0) + 1

    def keep_value(c: int) -> tuple[int, int, int]:
        trumps = 1 if t.suit[c] == trump else 0
        return (trumps, -t.eyes[c], length[t.suit[c]])

    best: tuple[tuple[int, int, int], Action] | None = None
    for action, shape in zip(decision.legal, decision.shapes, strict=True):
        if len(shape.cards) != 2:
            return None
        a, b = (keep_value(c) for c in shape.cards)
        key = (a[0] + b[0], a[1] + b[1], a[2] + b[2])
        if best is None or key < best[0]:
            best = (key, action)
    return None if best is None else best[1]


def reunion_play(decision: Decision) -> Action | None:
    view = decision.view
    trump = view.trump
    if trump is None:
        return None
    t = reunion_rules.TABLES[trump]
    order: trickplay.Tables = (t.suit, t.power)
    cards = list(decision.legal)
    eyes = t.eyes

    def cheap(c: int) -> tuple[int, int, int]:
        return (eyes[c], 1 if t.suit[c] == trump else 0, t.power[c])

    if not view.trick:
        if t.right in cards:
            return t.right  # draws trumps, and takes the left bower with a stake when it falls
        side_aces = [c for c in cards if t.power[c] == ACE and t.suit[c] != trump]
        if side_aces:
            return side_aces[0]
        side = [c for c in cards if t.suit[c] != trump] or cards
        return min(side, key=cheap)
    winners = [c for c in cards if trickplay.takes_trick(c, view, order)]
    last = len(view.trick) == decision.players - 1
    if winners:
        if last:
            return min(winners, key=lambda c: (t.suit[c] == trump, t.power[c]))
        # second to play: win only with a card the last player is unlikely to beat
        safe = [c for c in winners if t.power[c] >= ACE or c == t.right]
        if safe:
            return min(safe, key=lambda c: (t.suit[c] == trump, t.power[c]))
        trick_eyes = sum(eyes[int(c)] for _, c in view.trick)
        if trick_eyes >= 10:
            return max(winners, key=lambda c: (t.suit[c] == trump, t.power[c]))
    return min(cards, key=cheap)


def reunion(decision: Decision, rng: random.Random) -> Action | None:
    if decision.shapes and decision.shapes[0].verb == "discard":
        return reunion_discard(decision)
    if all(0 <= a < 52 for a in decision.legal):
        return reunion_play(decision)
    return None


# --- Svarte Petter: a card drawn at random; rearranging one's own fan gains nothing here ----------


def svarte_petter(decision: Decision, rng: random.Random) -> Action | None:
    draws = [
        a for a, t in zip(decision.legal, decision.notations, strict=True) if t.startswith("draw ")
    ]
    return pick(draws, rng) if draws else None


FOR_GAME: dict[str, Heuristic] = {
    "hej_knekt": hej_knekt,
    "nittionio": nittionio,
    "reunion": reunion,
    "svarte_petter": svarte_petter,
}
