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
from games.tricks import PLAIN_POWER, bower_tables, tables, trick_winner

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


# --- Femhundra: bid what the hand should take, keep trumps and aces, play for the side ----------

FEMHUNDRA_STRAINS = {"S": SPADES, "C": CLUBS, "D": DIAMONDS, "H": HEARTS}
FEMHUNDRA_PARTNER_TRICKS = {4: 2.0, 5: 1.5}  # what a partner adds (a called ace, the opposite hand)


def femhundra_tables(trump: int | None, led: int | None = None) -> trickplay.Tables:
    """Card order of a deal: bowers and the joker as the top trumps; without trumps the joker is
    the highest card of the led suit (rules/three-to-five-player.md 5.2, 5.4)."""
    if trump is not None:
        suit_table, power_table, _ = bower_tables(trump, joker=True)
        return suit_table, power_table
    suit_table_l, power_table_l, _ = (list(t) for t in tables())
    if led is not None:
        suit_table_l[JOKER], power_table_l[JOKER] = led, 30
    return suit_table_l, power_table_l


def femhundra_estimate(hand: Sequence[int], trump: int | None) -> float:
    """Expected tricks of a ten-card hand with this trump suit (None: no trumps)."""
    suit_table, power_table = femhundra_tables(trump)
    length: dict[int, int] = {}
    for c in hand:
        length[suit_table[c]] = length.get(suit_table[c], 0) + 1
    total = 0.0
    for c in hand:
        suit, power = suit_table[c], power_table[c]
        if c == JOKER:
            total += 1.0
        elif suit == trump:
            total += {22: 1.0, 21: 1.0, 20: 0.9, ACE: 0.8, KING: 0.6, QUEEN: 0.45}.get(power, 0.3)
        elif power == ACE:
            total += 0.85
        elif power == KING:
            total += 0.5 if length[suit] >= 2 else 0.15
        elif power == QUEEN and length[suit] >= 3:
            total += 0.25
    if trump is not None:
        trumps = length.get(trump, 0)
        total += 0.4 * max(0, trumps - 3)
        if trumps >= 3:
            total += 0.5 * sum(1 for s in range(4) if s != trump and s not in length)
    else:
        total += 0.3 * sum(max(0, n - 4) for s, n in length.items() if s >= 0)
    return total


def femhundra_bid(decision: Decision) -> Action | None:
    """The highest legal bid the hand should make (a trick for the talong, more with a
    partner), else pass."""
    hand = [int(c) for c in decision.view.hand]
    extra = 0.5 + FEMHUNDRA_PARTNER_TRICKS.get(decision.players, 0.0)
    best: tuple[int, int, str] | None = None
    order = {"S": 0, "C": 1, "D": 2, "H": 3, "NT": 4}
    for strain, value in order.items():
        trump = FEMHUNDRA_STRAINS.get(strain)
        tricks = min(10, int(femhundra_estimate(hand, trump) + extra))
        for level in range(tricks, 5, -1):
            action = decision.find(f"bid {level}{strain}")
            if action is not None:
                key = (level, value, f"bid {level}{strain}")
                if best is None or key > best:
                    best = key
                break
    return decision.find(best[2] if best else "pass")


def femhundra_call(decision: Decision) -> Action | None:
    """Call the highest card not held (an ace first), else solo."""
    calls = [s for s in decision.shapes if s.verb == "call" and s.cards]
    if not calls:
        return decision.find("solo")
    return max(calls, key=lambda s: (PLAIN_POWER[s.cards[0]], -s.cards[0])).action


def femhundra_discard(decision: Decision) -> Action | None:
    """Keep the joker, trumps and high cards; shed short suits' low cards (misère: the highest)."""
    view = decision.view
    misere = any(
        n.key.endswith("declarer_misere") or n.key.endswith("declarer_openmisere")
        for n in view.seats[decision.seat].notes
    )
    suit_table, power_table = femhundra_tables(view.trump)
    hand = [int(c) for c in view.hand]
    length: dict[int, int] = {}
    for c in hand:
        length[suit_table[c]] = length.get(suit_table[c], 0) + 1

    def keep(c: int) -> float:
        if misere:
            return -30.0 if c == JOKER else -float(power_table[c])
        if c == JOKER or suit_table[c] == view.trump:
            return 100.0 + power_table[c]
        return power_table[c] + 2.0 * length[suit_table[c]]

    size = len(decision.shapes[0].cards)
    shed = sorted(hand, key=keep)[:size]
    return decision.find("discard " + codes(sorted(shed)))


def _femhundra_side(view: View, seat: int) -> tuple[int, ...]:
    for team in view.teams:
        if seat in team:
            return team
    return (seat,)


def femhundra_play(decision: Decision) -> Action | None:
    view = decision.view
    trump = view.trump
    misere = view.phase.key.endswith(("misere", "openmisere"))
    side = _femhundra_side(view, decision.seat)
    want = not misere  # in misère nobody takes a trick willingly: the defenders duck to let
    # the declarer win one
    led = None
    if view.trick:
        led = suit_of_led(view)
    order = femhundra_tables(trump, led)
    cards = [s.action for s in decision.shapes if s.plays_one_card]
    if view.trick and want:
        current = [int(c) for _, c in view.trick]
        best = trick_winner(current, trump, order[0], order[1])
        if view.trick[best][0] in side:
            want = False  # the partner holds the trick
    if not view.trick and trump is None:
        jokers = [s for s in decision.shapes if s.verb == "jk"]
        if jokers and want and not any(PLAIN_POWER[c] == ACE for c in cards):
            return max(
                jokers, key=lambda s: sum(1 for c in cards if c // 13 == "CDHS".index(s.words[0]))
            ).action
        if not cards:
            return jokers[0].action if jokers else None
    if not cards:
        return None
    return trickplay.play(cards, view, want, order)


def suit_of_led(view: View) -> int | None:
    """The suit led to the trick on the table (a no-trump joker lead names its suit)."""
    first = int(view.trick[0][1])
    if first != JOKER or view.trump is not None:
        return femhundra_tables(view.trump)[0][first]
    for event in reversed(view.events):
        if event.key.endswith("joker_led"):
            return "CDHS".index(str(event.arg("suit")))
    return None


def femhundra(decision: Decision, rng: random.Random) -> Action | None:
    verbs = {s.verb for s in decision.shapes}
    if "bid" in verbs or verbs == {"pass"}:
        return femhundra_bid(decision)
    if "solo" in verbs:
        return femhundra_call(decision)
    if "discard" in verbs:
        return femhundra_discard(decision)
    return femhundra_play(decision)


FOR_GAME: dict[str, Heuristic] = {
    "femhundra": femhundra,
    "hej_knekt": hej_knekt,
    "nittionio": nittionio,
    "svarte_petter": svarte_petter,
}
