"""A tiny trick game on the contract, for testing the computer players and the terminal table
before (and besides) the real games. Not registered.

2-3 players, 28 cards (8 to ace), two deals. Each deal: 8 cards each, the next card turned up for
trump (``toy.pile.turnup``), the rest set aside face down. Every seat at once lays aside three
cards face down (``discard C1 C2 C3``), then one round from forehand: ``pass`` or ``declare``
(bet on at least 3 tricks). Then 5 tricks, follow suit. Score: 1 per trick, +3 / -3 for a
declaration made / failed.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from games.cards import (
    cards_tuple,
    code,
    codes,
    deal_deck,
    parse_card,
    rank_of,
    shuffle,
    suit_of,
)
from games.core import (
    Action,
    EventLog,
    Game,
    GameSpec,
    Msg,
    NotationError,
    Options,
    Pile,
    Result,
    Seat,
    SeatView,
    View,
)
from games.tricks import follow_mask, trick_winner

DECK = [c for c in range(52) if rank_of(c) >= 8]
PASS, DECLARE = 1000, 1001
DISCARD_BASE = 1 << 20  # + (c1 * 64 + c2) * 64 + c3, the three cards in increasing order
DEALS = 2

TOY_TEXTS_EN = {
    "toy.phase.discard": "Lay aside three cards",
    "toy.phase.premium": "Declare or pass",
    "toy.phase.play": "Trick play",
    "toy.pile.turnup": "Turn-up",
    "toy.pile.aside": "Laid aside",
    "toy.note.declared": "declared",
    "toy.event.declared": "{seat} declares",
    "toy.event.deal_scored": "Deal scored: {seat} now has {score}",
    "toy.action.discard": "lay aside",
    "toy.action.declare": "declare",
}


@dataclass(frozen=True)
class ToyOptions(Options):
    deals: int = DEALS


class Toy(Game):
    game_id = "toy"
    copied = ("rest", "trick", "tricks", "scores", "events")
    copied_nested = ("hands", "aside")

    def __init__(
        self, players: int, options: ToyOptions, rng: random.Random, decks: list[list[int]] | None
    ):
        self._n = players
        self._opts = options
        self.rng = rng
        self._decks = decks
        self.deal_no = 0
        self.dealer = 0
        self.scores = [0] * players
        self.events = EventLog()
        self._start_deal()

    # --- state ---
    def _start_deal(self) -> None:
        deck = deal_deck(self._decks, self.deal_no, DECK, self.rng)
        self.deal_no += 1
        n = self._n
        self.hands = [sorted(deck[i * 8 : i * 8 + 8]) for i in range(n)]
        self.turnup = deck[n * 8]
        self.rest = deck[n * 8 + 1 :]
        self.trump = suit_of(self.turnup)
        self.aside: list[list[int]] = [[] for _ in range(n)]
        self.declared: Seat | None = None
        self.premium_turn: Seat | None = None
        self.passed = 0
        self.trick: list[tuple[Seat, int]] = []
        self.leader = (self.dealer + 1) % n
        self.tricks = [0] * n
        self.won_cards = 0
        self.events.add(Msg.of("table.event.deal_started", deal=self.deal_no, seat=self.dealer))

    @property
    def players(self) -> int:
        return self._n

    def _phase(self) -> str:
        if self.deal_no > self._opts.deals:
            return "over"
        if any(not a for a in self.aside):
            return "discard"
        if self.premium_turn is not None:
            return "premium"
        return "play"

    def to_act(self) -> frozenset[Seat]:
        phase = self._phase()
        if phase == "discard":
            return frozenset(s for s in range(self._n) if not self.aside[s])
        if phase == "premium":
            assert self.premium_turn is not None
            return frozenset({self.premium_turn})
        if phase == "play":
            return frozenset({(self.leader + len(self.trick)) % self._n})
        return frozenset()

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_act():
            return []
        phase = self._phase()
        if phase == "discard":
            return [_discard(combo) for combo in itertools.combinations(self.hands[seat], 3)]
        if phase == "premium":
            return [PASS, DECLARE] if self.declared is None else [PASS]
        hand = 0
        for c in self.hands[seat]:
            hand |= 1 << c
        led = suit_of(self.trick[0][1]) if self.trick else -1
        m = follow_mask(hand, led)
        return [c for c in self.hands[seat] if m >> c & 1]

    def apply(self, seat: Seat, action: Action) -> None:
        if self._phase() == "discard":
            self.check_turn(seat, action)
            chosen = _discard_cards(action)
            self.aside[seat] = chosen
            self.hands[seat] = [c for c in self.hands[seat] if c not in chosen]
            if all(self.aside):
                self.premium_turn = (self.dealer + 1) % self._n
            return
        self.check_turn(seat, action)
        if self._phase() == "premium":
            if action == DECLARE:
                self.declared = seat
                self.events.add(Msg.of("toy.event.declared", seat=seat))
            self.passed += 1
            self.premium_turn = None if self.passed == self._n else (seat + 1) % self._n
            return
        self.hands[seat].remove(action)
        self.trick.append((seat, action))
        if len(self.trick) == self._n:
            cards = [c for _, c in self.trick]
            win, win_card = self.trick[trick_winner(cards, self.trump)]
            self.tricks[win] += 1
            self.won_cards += len(cards)
            self.events.add(Msg.of("table.event.trick_won", seat=win, card=code(win_card)))
            self.trick = []
            self.leader = win
            if not self.hands[win]:
                self._score()

    def _score(self) -> None:
        for s in range(self._n):
            self.scores[s] += self.tricks[s]
            if self.declared == s:
                self.scores[s] += 3 if self.tricks[s] >= 3 else -3
            self.events.add(Msg.of("toy.event.deal_scored", seat=s, score=self.scores[s]))
        self.dealer = (self.dealer + 1) % self._n
        if self.deal_no >= self._opts.deals:
            self.deal_no += 1
            self.events.add(Msg.of("table.phase.over"))
            return
        self._start_deal()

    # --- views ---
    def view(self, seat: Seat | None) -> View:
        phase = self._phase()
        over = phase == "over"
        seats = tuple(
            SeatView(
                cards=0 if over else len(self.hands[s]),
                score=self.scores[s],
                tricks=self.tricks[s],
                notes=(Msg.of("toy.note.declared"),) if self.declared == s else (),
            )
            for s in range(self._n)
        )
        piles = (
            ()
            if over
            else (
                Pile("toy.pile.turnup", cards_tuple([self.turnup])),
                Pile("table.pile.stock", hidden=len(self.rest)),
                Pile("toy.pile.aside", hidden=sum(len(a) for a in self.aside)),
                Pile("table.pile.won_tricks", hidden=self.won_cards),
            )
        )
        return View(
            game=self.game_id,
            seat=seat,
            phase=Msg.of("table.phase.over" if over else f"toy.phase.{phase}"),
            to_act=self.to_act(),
            hand=() if seat is None or over else cards_tuple(self.hands[seat]),
            seats=seats,
            trick=tuple((s, cards_tuple([c])[0]) for s, c in self.trick),
            trump=None if over else self.trump,
            piles=piles,
            events=self.events.for_viewer(seat),
            deal=min(self.deal_no, self._opts.deals),
            dealer=self.dealer,
        )

    def is_over(self) -> bool:
        return self._phase() == "over"

    def result(self) -> Result:
        if not self.is_over():
            raise ValueError("the match is not over")
        return Result.by_score(self.scores)

    def notation(self, action: Action) -> str:
        if action == PASS:
            return "pass"
        if action == DECLARE:
            return "declare"
        if action >= DISCARD_BASE:
            return "discard " + codes(_discard_cards(action))
        return code(action)

    def parse(self, text: str) -> Action:
        words = text.strip().lower().split()
        if words == ["pass"]:
            return PASS
        if words == ["declare"]:
            return DECLARE
        if words and words[0] == "discard":
            try:
                cards = sorted({parse_card(w) for w in words[1:]})
            except ValueError as exc:
                raise NotationError(str(exc)) from None
            if len(cards) != 3 or len(words) != 4:
                raise NotationError("discard takes three different cards")
            return _discard(tuple(cards))
        if len(words) == 1:
            try:
                return parse_card(words[0])
            except ValueError as exc:
                raise NotationError(str(exc)) from None
        raise NotationError(f"not a move: {text!r}")

    def determinize(self, seat: Seat, rng: random.Random) -> Game:
        other = self.clone(rng)
        hidden = [c for s in range(self._n) if s != seat for c in other.hands[s]] + other.rest
        hidden += [c for s in range(self._n) if s != seat for c in other.aside[s]]
        random_order = list(hidden)
        shuffle(random_order, rng)
        it = iter(random_order)
        for s in range(self._n):
            if s != seat:
                other.hands[s] = sorted(next(it) for _ in other.hands[s])
        other.rest = [next(it) for _ in other.rest]
        for s in range(self._n):
            if s != seat:
                other.aside[s] = [next(it) for _ in other.aside[s]]
        return other


def _discard(cards: tuple[int, ...]) -> Action:
    c1, c2, c3 = sorted(cards)
    return DISCARD_BASE + (c1 * 64 + c2) * 64 + c3


def _discard_cards(action: Action) -> list[int]:
    n = action - DISCARD_BASE
    return [n >> 12, n >> 6 & 63, n & 63]


def _factory(
    players: int, options: ToyOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Toy(players, options, rng, decks)


SPEC: GameSpec[ToyOptions] = GameSpec(
    id="toy", min_players=2, max_players=3, options_type=ToyOptions, factory=_factory
)
