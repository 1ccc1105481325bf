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
from games.braus import KING_OF_CLUBS, PASS, STRENGTH
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


# --- Svarte Petter: a card drawn at random; rearranging one's own fan gains nothing here ----------


def svarte_petter(decision: Decision, rng: random.Random) -> Action | None:
    draws = [
        a for a, t in zip(decision.legal, decision.notations, strict=True) if t.startswith("draw ")
    ]
    return pick(draws, rng) if draws else None


# --- Bräus: win with sure cards, probe with worthless ones, never waste a high card -------------


def braus(decision: Decision, rng: random.Random) -> Action | None:
    """Bräus (rules/three-to-five-player.md §3), read from the public cards of the view.

    A card is *sure* when no card still unseen by the seat ranks above it. On lead: a sure card
    (the trick and the lead stay with the seat), else a worthless card to make the others spend
    playable ones (K♣, the outcome card, last), else the lowest card. Following, where beating
    is forced: the lowest sure card when an opponent is on top or still to play, else the lowest
    card that beats.
    """
    legal = list(decision.legal)
    if legal == [PASS] or not all(0 <= a < JOKER for a in legal):
        return None
    view = decision.view
    seen = {int(c) for c in view.hand}
    seen.update(int(c) for p in view.piles for c in p.cards)
    seen.update(int(c) for _, c in view.trick)
    best_unseen = max((STRENGTH[c] for c in range(52) if c not in seen), default=0)
    later = _later_players(decision)
    sure = [c for c in legal if STRENGTH[c] > best_unseen or (view.trick and not later)]
    by_strength = sorted(legal, key=lambda c: (STRENGTH[c], c))
    if not view.trick:
        strong = [c for c in legal if STRENGTH[c] > best_unseen]
        if strong:
            return min(strong, key=lambda c: STRENGTH[c])
        worthless = [c for c in by_strength if STRENGTH[c] == 0]
        if worthless:
            probes = [c for c in worthless if c != KING_OF_CLUBS] or worthless
            return probes[0]
        return by_strength[0]
    top_seat = view.trick[-1][0]
    threatened = top_seat % 2 != decision.seat % 2 or any(s % 2 != decision.seat % 2 for s in later)
    if threatened and sure:
        return min(sure, key=lambda c: STRENGTH[c])
    return by_strength[0]


def _later_players(decision: Decision) -> list[int]:
    """The seats that still play to the trick on the table after this one (those holding cards)."""
    view = decision.view
    if not view.trick:
        return []
    leader = view.trick[0][0]
    players = len(view.seats)
    out = []
    seat = (decision.seat + 1) % players
    while seat != leader:
        if view.seats[seat].cards:
            out.append(seat)
        seat = (seat + 1) % players
    return out


FOR_GAME: dict[str, Heuristic] = {
    "braus": braus,
    "hej_knekt": hej_knekt,
    "nittionio": nittionio,
    "svarte_petter": svarte_petter,
}
