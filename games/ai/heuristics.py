"""Per-game heuristics for the rule-based player, where they are cheap and clearly stronger.

Each is ``(decision, rng) -> Action | None``; ``None`` leaves the choice to the generic rules. They
read only the Decision, like every computer player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from games import bondtolva as bondtolva_rules
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
    RANKS,
    SPADES,
    SUITS,
    TEN,
    code,
    codes,
    parse_card,
    rank_of,
    suit_of,
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


# --- Löjliga familjerna: ask for the rank you hold most of, whoever is known to hold it ----------


def lojliga_familjerna(decision: Decision, rng: random.Random) -> Action | None:
    """Ask for the rank of which the hand holds most (closest to a quartet); ask a player the
    table shows to hold it, else one not known to lack it, the one with most cards first."""
    view = decision.view
    counts: dict[str, int] = {}
    for c in view.hand:
        counts[code(c)[0]] = counts.get(code(c)[0], 0) + 1

    def known(seat: int, kind: str) -> set[str]:
        for note in view.seats[seat].notes:
            if note.key.endswith("." + kind):
                return set(str(note.arg("ranks")).split())
        return set()

    def score(text: str) -> tuple[int, int, int, float]:
        _, target, rank = text.split()
        seat = int(target)
        holds = rank in known(seat, "holds")
        lacks = rank in known(seat, "lacks")
        return (
            int(holds) - 2 * int(lacks),
            counts.get(rank, 0),
            view.seats[seat].cards,
            rng.random(),
        )

    best = max(decision.notations, key=score, default=None)
    return None if best is None else decision.legal[decision.notations.index(best)]


# --- Snipp snapp snorum: shed the most cards; Jig: keep the way up open -------------------------


def snipp_snapp_snorum(decision: Decision, rng: random.Random) -> Action | None:
    """Lead the rank held most of (four of a kind clears and leads again), ties the lowest. In
    Jig, lead the lowest card of the longest suit and follow with the lowest card that may be
    played, so that the higher ones are left for later."""
    view = decision.view
    held: dict[str, int] = {}
    for c in view.hand:
        held[code(c)[0]] = held.get(code(c)[0], 0) + 1
    leads = [
        (held.get(text.split()[1], 0), -RANKS.index(text.split()[1]), action)
        for action, text in zip(decision.legal, decision.notations, strict=True)
        if text.startswith("lead ")
    ]
    if leads:
        return max(leads)[2]
    cards = [s.cards[0] for s in decision.shapes if s.plays_one_card]
    if not cards:
        return None
    if view.trick:  # following: the lowest card that may be played
        return min(cards, key=rank_of)
    length = {suit: sum(1 for c in view.hand if c // 13 == suit) for suit in range(4)}
    return min(cards, key=lambda c: (-length[c // 13], rank_of(c)))


# --- Bondtolva: declare toward exactly 12, keep pairs and matadors, stop taking points at 12 ------

BONDTOLVA_ORDER: trickplay.Tables = (bondtolva_rules.SUIT_TABLE, bondtolva_rules.POWER_TABLE)


def bondtolva_declare(decision: Decision) -> Action | None:
    """Declare the pair that leaves the score at most 11 (the deal's last trick and vinst may still
    come); as trumf, the suit with the most cards and matadors. Otherwise skip."""
    view = decision.view
    score = view.seats[decision.seat].score
    points = 2 if view.trump is None else 1
    suits = [s.words[0] for s in decision.shapes if s.verb == "declare" and s.words]
    if not suits or score + points > bondtolva_rules.TARGET - 1:
        return decision.find("skip")
    hand = [int(c) for c in view.hand]

    def strength(letter: str) -> tuple[int, int]:
        mine = [c for c in hand if suit_of(c) == SUITS.index(letter)]
        return len(mine), sum(1 for c in mine if rank_of(c) in (ACE, TEN))

    return decision.find("declare " + max(suits, key=strength))


def bondtolva_pair_cards(hand: set[int]) -> set[int]:
    """The Kings and Queens of the pairs in ``hand``."""
    out: set[int] = set()
    for suit in range(4):
        pair = {suit * 13 + KING - 2, suit * 13 + QUEEN - 2}
        if pair <= hand:
            out |= pair
    return out


def bondtolva(decision: Decision, rng: random.Random) -> Action | None:
    """Declare with an eye on exactly 12; in the first phase keep undeclared pairs in hand; take
    tricks (and so the last trick and vinst) only while below 12."""
    view = decision.view
    if view.phase.key == "bondtolva.phase.declare":
        return bondtolva_declare(decision)
    if not all(0 <= a < JOKER for a in decision.legal):
        return None
    want = view.seats[decision.seat].score < bondtolva_rules.TARGET
    cards = list(decision.legal)
    tjog_declared = any(n.key == "bondtolva.note.tjog" for seat in view.seats for n in seat.notes)
    if view.phase.key == "bondtolva.phase.stock" and not tjog_declared:
        pairs = bondtolva_pair_cards(
            {int(c) for c in view.hand} - {int(c) for c in view.seats[decision.seat].shown}
        )
        cards = [c for c in cards if c not in pairs] or cards
    return trickplay.play(cards, view, want, BONDTOLVA_ORDER)


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
    "bondtolva": bondtolva,
    "braus": braus,
    "hej_knekt": hej_knekt,
    "lojliga_familjerna": lojliga_familjerna,
    "nittionio": nittionio,
    "snipp_snapp_snorum": snipp_snapp_snorum,
    "svarte_petter": svarte_petter,
}
