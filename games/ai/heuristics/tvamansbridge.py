"""Tvåmansbridge: bid what hand and dummy should take; double hopeless bids; play as a side.

The rule-based player's heuristic for this game; it reads only the Decision.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.ai import trickplay
from games.ai.base import Decision
from games.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    rank_of,
)
from games.core import Action, View

BRIDGE_STRAINS = ("C", "D", "H", "S", "NT")
BRIDGE_GAME_LEVEL = (5, 5, 4, 4, 3)
_HCP = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}


def _hcp(cards: Sequence[int]) -> int:
    return sum(_HCP.get(rank_of(c), 0) for c in cards)


def _dummy_cards(view: View, seat: int) -> list[int]:
    for pile in view.piles:
        if pile.key == "tvamansbridge.pile.dummy" and pile.seat == seat:
            return [int(c) for c in pile.cards]
    return []


def bridge_estimates(view: View, seat: int) -> list[float]:
    """Tricks the seat's hand and dummy should take as declarer, per strain ``C D H S NT``.

    Counts the high-card points of the hand and the dummy's face-up cards, plus the expected
    share of the seven face-down dummy cards among the 27 unseen cards; a long trump suit adds
    tricks. Tuned for a dummy half of whose cards are unseen: about 26 points make 3NT.
    """
    hand = [int(c) for c in view.hand]
    mine = hand + _dummy_cards(view, seat)
    theirs = _dummy_cards(view, 1 - seat)
    unseen = 52 - len(mine) - len(theirs)  # 27 in the bidding
    share = 7 / unseen if unseen else 0.0
    points = _hcp(mine) + share * (40 - _hcp(mine) - _hcp(theirs))
    nt = 8.5 + (points - 25.5) / 3
    out = []
    for suit in range(4):
        held = sum(1 for c in mine if c // 13 == suit)
        seen = held + sum(1 for c in theirs if c // 13 == suit)
        length = held + share * (13 - seen)
        out.append(nt + 0.6 * (length - 7.5) + 0.6 * max(0.0, length - 9))
    out.append(nt)
    return out


def _bridge_call(decision: Decision) -> Action | None:
    view = decision.view
    est = bridge_estimates(view, decision.seat)
    texts = dict(zip(decision.notations, decision.legal, strict=True))
    if view.phase.key.endswith("auction_bid"):
        contract = str(view.phase.arg("contract"))
        bidder = int(view.phase.arg("seat"))
        level = int(contract[0])
        strain = BRIDGE_STRAINS.index(contract[1:].rstrip("X"))
        need = 6 + level
        if bidder != decision.seat:
            # the opponent's side takes what ours does not, about
            theirs = 13 - max(est[4], est[strain] - 1)
            if "double" in texts and theirs < need - 1.5:
                return texts["double"]
            if theirs < need - 0.5:
                return texts["pass"]
        elif "redouble" in texts:
            return texts["redouble" if est[strain] >= need + 1 else "pass"]
    best: tuple[float, str] | None = None
    for strain, name in enumerate(BRIDGE_STRAINS):
        most = min(7, int(est[strain] - 6 + 0.25))
        cheapest = next((lv for lv in range(1, 8) if f"bid {lv}{name}" in texts), None)
        if cheapest is None or cheapest > most:
            continue
        level = max(cheapest, min(most, BRIDGE_GAME_LEVEL[strain]))
        points = (40 + 30 * (level - 1)) if strain == 4 else (20 if strain < 2 else 30) * level
        value = points + (300 if level >= BRIDGE_GAME_LEVEL[strain] else 0) + est[strain] / 10
        if best is None or value > best[0]:
            best = (value, f"bid {level}{name}")
    return texts[best[1]] if best is not None else texts["pass"]


def _bridge_owners_after(owners: Sequence[int], seat: int) -> int:
    """How many of the places still to play after this seat belong to the opponent.

    The four places of a trick are a rotation of the owners ``A A B B`` (each dummy plays
    just before its owner), so the first two cards tell the rest."""
    if not owners:
        return 1  # leading: A A B B or A B B A
    if len(owners) == 1:
        return 2 if owners[0] == seat else 1
    if len(owners) == 2:
        return 0 if owners[0] == owners[1] else 1
    return 0


def _bridge_play(decision: Decision) -> Action:
    """Lead as the generic player does; else let a card of one's own side stand, win as
    cheaply as possible when the opponent has played his last card to the trick, otherwise
    follow high or ruff low."""
    view = decision.view
    cards = list(decision.legal)
    trump = view.trump

    def cost(c: int) -> tuple[int, int]:
        return (1 if trump is not None and c // 13 == trump else 0, c % 13)

    if not view.trick:
        return trickplay.lead(cards, view, True)
    owners = [s for s, _ in view.trick]
    winner = trickplay.winning_card(view)
    winning_seat = next(s for s, c in view.trick if int(c) == winner)
    winners = [c for c in cards if trickplay.takes_trick(c, view)]
    if winning_seat == decision.seat or not winners:
        # the hand or the dummy of this side already wins, or nothing can: shed the cheapest
        return min(cards, key=cost)
    after = _bridge_owners_after(owners, decision.seat)
    if after == 0:
        return min(winners, key=cost)
    led = int(view.trick[0][1]) // 13
    in_suit = [c for c in winners if c // 13 == led]
    return max(in_suit, key=cost) if in_suit else min(winners, key=cost)


def tvamansbridge(decision: Decision, rng: random.Random) -> Action | None:
    if all(0 <= a < 52 for a in decision.legal):
        return _bridge_play(decision)
    return _bridge_call(decision)
