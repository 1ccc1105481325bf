"""Femhundra: bid what the hand should take, keep trumps and aces, play for the side.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import trickplay
from games.ai.base import Decision
from games.cards import ACE, CLUBS, DIAMONDS, HEARTS, JOKER, KING, QUEEN, SPADES, codes
from games.core import Action, View
from games.tricks import PLAIN_POWER, bower_tables, tables, trick_winner

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
