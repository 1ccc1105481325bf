"""The rule-based computer player: generic heuristics for every game, sharpened per game.

It reads only the Decision (view + legal actions). Order of thought:

1. a per-game heuristic (``games.ai.heuristics``), when the game has one and it has an opinion;
2. cards: trick play in a trick game (win cheaply when possible, otherwise shed low), else the
   lowest card;
3. other verbs: ``pass`` when offered beside other verbs; a position (``draw 3``) at random; a
   multi-card action (``verb C1 C2 C3``) giving up the cheapest cards; else the smallest number.

Where the position has stood before, the choice is varied (:func:`games.ai.base.vary_on_repeat`),
so that play that goes round in circles (Skitgubbe's pickups) is broken.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import heuristics, trickplay
from games.ai.base import Decision, Shape, pick, vary_on_repeat
from games.cards import randbelow
from games.core import Action, View
from games.tricks import PLAIN_POWER


def card_cost(card: int, trump: int | None) -> tuple[int, int]:
    """Plain value of a card to its holder: trumps first, then rank (the joker counts high)."""
    suit = card // 13 if card < 52 else -2
    return (1 if trump is not None and suit == trump else 0, PLAIN_POWER[card] if card < 52 else 15)


def stock_prize(view: View) -> int | None:
    """The face-up top card of the stock that the trick's winner takes (Tvåmanswhist), if any."""
    for pile in view.piles:
        if pile.key == "table.pile.stock" and pile.cards:
            return int(pile.cards[-1])
    return None


def worth_winning(card: int, trump: int | None) -> bool:
    trumps, rank = card_cost(card, trump)
    return bool(trumps) or rank >= 11


def cheapest_cards_action(group: Sequence[Shape], trump: int | None) -> Action:
    """The multi-card action that gives up the least valuable cards."""

    def total(shape: Shape) -> tuple[int, int, str]:
        costs = [card_cost(c, trump) for c in shape.cards]
        return (sum(t for t, _ in costs), sum(p for _, p in costs), shape.text)

    return min(group, key=total).action


def choose_in_group(group: Sequence[Shape], decision: Decision, rng: random.Random) -> Action:
    """One action among those sharing a verb."""
    if len(group) == 1:
        return group[0].action
    if all(s.cards and not s.numbers for s in group):
        return cheapest_cards_action(group, decision.view.trump)
    if all(len(s.numbers) == 1 and not s.cards and not s.words for s in group):
        # A position among hidden cards (``draw 3``): nothing to prefer, so at random.
        return pick([s.action for s in group], rng)
    return min(group, key=lambda s: (s.numbers, s.text)).action


def generic(decision: Decision, rng: random.Random) -> Action:
    """The game-independent choice (see the module docstring)."""
    shapes = decision.shapes
    cards = [s.action for s in shapes if s.plays_one_card]
    view = decision.view
    if cards:
        if decision.trick_taking:
            prize = stock_prize(view)
            if prize is not None and not worth_winning(prize, view.trump):
                # The trick only wins a poor card from the stock: keep the good cards.
                return min(cards, key=lambda c: card_cost(c, view.trump))
            return trickplay.play(cards, view)
        return min(cards, key=lambda c: card_cost(c, view.trump))
    by_verb: dict[str, list[Shape]] = {}
    for s in shapes:
        by_verb.setdefault(s.verb or "", []).append(s)
    if "pass" in by_verb and len(by_verb) > 1:
        return by_verb["pass"][0].action
    verbs = sorted(by_verb)
    verb = verbs[randbelow(rng, len(verbs))]
    return choose_in_group(by_verb[verb], decision, rng)


class RulesPlayer:
    kind = "rules"

    def choose(self, decision: Decision, rng: random.Random) -> Action:
        return vary_on_repeat(decision, self.usual(decision, rng), rng)

    def usual(self, decision: Decision, rng: random.Random) -> Action:
        """The choice by the rules above, before any varying of a repeated position."""
        special = heuristics.FOR_GAME.get(decision.game_id)
        if special is not None:
            action = special(decision, rng)
            if action is not None and action in decision.legal:
                return action
        return generic(decision, rng)
