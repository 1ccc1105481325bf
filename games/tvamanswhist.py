"""Tvåmanswhist (German whist) for two players: rules engine (rules/two-player.md §4).

Rules implemented (the Swedish text is the authority; decisions D-GW-1..9 of the spec):

* 52 cards, ace high. The first dealer is drawn at random and the deal alternates. Thirteen cards
  each, dealt one at a time, the non-dealer first (D-GW-1); the other 26 cards are the stock, face
  down. The top stock card is turned face up: its suit is trumps for the whole deal.
* The non-dealer leads trick 1 (D-GW-2); the winner of a trick leads the next. A player must follow
  suit if able, otherwise plays any card; there is no duty to beat or to trump (D-GW-3). The highest
  trump wins, otherwise the highest card of the led suit.
* Tricks 1-13 (drawing phase): after each trick the winner takes the face-up top card of the stock
  (everyone sees which: it stays in that seat's ``shown`` cards until played) and the loser the next
  card unseen (private to the loser, D-GW-4); then the new top card is turned face up.
* Tricks 14-26 (counting phase): the same play, no drawing; the winner of trick 13 leads trick 14.
* Scoring (option ``scoring``): ``last13`` (default): whoever takes 7 or more of tricks 14-26
  wins the deal. ``all26`` (V1): all 26 tricks count; at 13-13 the winner of trick 26 wins (D-GW-8).
  ``points`` (V2): tricks 1-13 score 1 point each, tricks 14-26 2 points each (39 in all).
* ``first_half="no_trump_free"`` (V3): the first stock card is turned up and put face up under the
  stock, showing trumps all the time; it is the last stock card, taken by the loser of trick 13 (in
  full view). Tricks 1-13 have no trumps and no duty to follow suit: the higher card of the led suit
  wins, otherwise the leader (D-GW-7). Tricks 14-26 are played normally. The two options combine
  freely (D-GW-9).
* Only the last completed trick may be reviewed (D-GW-5): it is the face-up ``last trick`` pile;
  all earlier tricks lie face down in each seat's won pile, and the events of a trick (its winner,
  the draws) leave the event list when the next trick is completed.
* Match (D-GW-6, option ``match``): ``single`` (default): one deal is the whole match.
  ``best_of``: the first to win ``target`` deals wins (0 means 2: best of three). ``cumulative``:
  the deal winner scores the difference in counted tricks (or points), at least 1 (a 13-13 deal
  of ``all26`` scores 1), and the first to reach ``target`` points wins (0 means 10).

Notation: the only action is playing a card, written as its code (``QS``, ``TH``, ``2C``); there
are no other actions. Parsing accepts any case and surrounding spaces.

This module is a pure rules engine: standard library only, no I/O, no clock.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from typing import Literal

from games.cards import (
    SUITS,
    Card,
    cards_in,
    cards_tuple,
    code,
    deal_deck,
    make_deck,
    mask_cards,
    randbelow,
    shuffled,
    suit_of,
)
from games.core import (
    Action,
    Game,
    GameSpec,
    IllegalActionError,
    Msg,
    OptionError,
    Options,
    Pile,
    Result,
    Seat,
    SeatView,
    View,
    bounds,
    parse_card_notation,
)
from games.tricks import follow_mask, trick_winner

GAME_ID = "tvamanswhist"
HALF = 13  # tricks per phase
HAND = 13
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
EVENTS_KEPT = 12

# Compact events (kind, visible_to (-1: everyone), a, b, c); turned into Msgs only in ``view``.
E_DEAL, E_TRUMP, E_TRICK, E_TOOK, E_UNSEEN, E_YOU_DREW, E_COUNTING = range(7)
E_DEAL_TRICKS, E_DEAL_POINTS, E_DEAL_LAST_TRICK, E_SCORED, E_DEALS, E_MATCH = range(7, 13)
Event = tuple[int, int, int, int, int]
TRICK_EVENTS = frozenset((E_TRICK, E_TOOK, E_UNSEEN, E_YOU_DREW))


@functools.lru_cache(maxsize=4096)
def _message(event: Event) -> Msg:
    """An event's message, made once: an event always reads the same, and every view shows the
    match's last ``EVENTS_KEPT`` events (a table's views are made anew after each action)."""
    kind, _, a, b, c = event
    k = GAME_ID + ".event."
    if kind == E_DEAL:
        return Msg.of("table.event.deal_started", deal=a, seat=b)
    if kind == E_TRUMP:
        return Msg.of("table.event.trump", suit=SUITS[a])
    if kind == E_TRICK:
        return Msg.of("table.event.trick_won", seat=a, card=code(b))
    if kind == E_TOOK:
        return Msg.of(k + "took", seat=a, card=code(b))
    if kind == E_UNSEEN:
        return Msg.of(k + "drew_unseen", seat=a)
    if kind == E_YOU_DREW:  # says what the seat's note says, so a panel showing both says it once
        return Msg.of(GAME_ID + ".note.you_drew", card=code(b))
    if kind == E_COUNTING:
        return Msg.of(k + "counting_started", seat=a)
    if kind in (E_DEAL_TRICKS, E_DEAL_POINTS, E_DEAL_LAST_TRICK):
        name = {E_DEAL_TRICKS: "deal_won", E_DEAL_POINTS: "deal_won_points"}.get(
            kind, "deal_won_last_trick"
        )
        return Msg.of(k + name, seat=a, won=b, lost=c)
    if kind == E_SCORED:
        return Msg.of(k + "scored", seat=a, points=b, total=c)
    if kind == E_DEALS:
        return Msg.of(k + "deals_won", seat=a, deals=c)
    return Msg.of(k + "match_won", seat=a)


@dataclass(frozen=True)
class TvamanswhistOptions(Options):
    """``scoring`` and ``first_half``: the seed's variants (D-GW-9); ``match``/``target``: D-GW-6.

    ``target`` is the deals to win (``best_of``) or the points to reach (``cumulative``); 0 means
    the usual 2 deals or 10 points. It is ignored for a single deal.
    """

    scoring: Literal["last13", "all26", "points"] = "last13"
    first_half: Literal["normal", "no_trump_free"] = "normal"
    match: Literal["single", "best_of", "cumulative"] = "single"
    target: int = field(default=0, metadata=bounds(0, 1000))


USUAL_TARGET = {"single": 1, "best_of": 2, "cumulative": 10}


class Tvamanswhist(Game):
    """One match of Tvåmanswhist. Hands are bit masks; the stock is a list, bottom card first."""

    game_id = GAME_ID
    __slots__ = (
        "acquired",
        "dealer",
        "dealt",
        "decks",
        "events",
        "free_first",
        "hands",
        "last_trick",
        "leader",
        "match_score",
        "match_winner",
        "options",
        "rng",
        "shown",
        "stock",
        "target",
        "trick",
        "trick_no",
        "trump",
        "unseen_draw",
        "void_since",
        "won",
    )
    copied = (
        "events",
        "hands",
        "shown",
        "stock",
        "acquired",
        "void_since",
        "unseen_draw",
        "won",
        "trick",
        "match_score",
    )

    def __init__(
        self, options: TvamanswhistOptions, rng: random.Random, decks: list[list[int]] | None
    ) -> None:
        if options.target < 0:
            raise OptionError("target takes a whole number of 0 or more")
        self.options = options
        self.rng = rng
        self.decks = decks
        self.free_first = options.first_half == "no_trump_free"
        self.target = options.target or USUAL_TARGET[options.match]
        self.events: list[Event] = []
        self.match_score = [0, 0]
        self.match_winner = -1
        self.dealt = 0  # deals started so far
        self.dealer = randbelow(rng, 2)
        self._start_deal()

    # --- dealing and play -------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deck = deal_deck(self.decks, self.dealt, make_deck(), self.rng)
        self.dealt += 1
        forehand = 1 - self.dealer
        self.hands = [0, 0]
        for i in range(2 * HAND):  # D-GW-1: one at a time, the non-dealer first
            self.hands[forehand if i % 2 == 0 else self.dealer] |= 1 << deck[i]
        rest = deck[2 * HAND :]
        # the stock, bottom card first: the turned-up first card goes under it in V3
        self.stock = [rest[0], *reversed(rest[1:])] if self.free_first else rest[::-1]
        self.trump = suit_of(rest[0])
        self.shown = [0, 0]  # cards of each hand that everyone has seen
        self.acquired = [0] * 52  # after which trick a card came to its hand (0: dealt)
        self.void_since = [0] * 8  # seat*4+suit: last trick where the seat showed out of the suit
        self.unseen_draw = [-1, -1]
        self.won = [0, 0, 0, 0]  # [seat0 tricks 1-13, seat1 tricks 1-13, seat0 14-26, seat1 14-26]
        self.trick: list[int] = []
        self.last_trick: tuple[int, int, int, int] | None = None  # leader, lead, follow, winner
        self.trick_no = 1
        self.leader = forehand  # D-GW-2
        self.events.append((E_DEAL, -1, self.dealt, self.dealer, 0))
        self.events.append((E_TRUMP, -1, self.trump, rest[0], 0))

    def _free_play(self) -> bool:
        """V3 drawing phase: no trumps and no duty to follow suit."""
        return self.free_first and self.trick_no <= HALF

    def _turn(self) -> int:
        return -1 if self.match_winner >= 0 else self.leader ^ len(self.trick)

    def _playable(self, seat: Seat) -> int:
        hand = self.hands[seat]
        if not self.trick or self._free_play():
            return hand
        return follow_mask(hand, suit_of(self.trick[0]))

    def to_act(self) -> frozenset[Seat]:
        turn = self._turn()
        return frozenset() if turn < 0 else frozenset((turn,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self._turn():
            return []
        return list(cards_in(self._playable(seat)))

    def apply(self, seat: Seat, action: Action) -> None:
        if self.match_winner >= 0:
            raise IllegalActionError("the match is over")
        if seat != self._turn():
            raise IllegalActionError("it is not your turn")
        if not 0 <= action < 52 or not self.hands[seat] >> action & 1:
            raise IllegalActionError(f"you do not hold {self.notation_or_raw(action)}")
        if not self._playable(seat) >> action & 1:
            led = suit_of(self.trick[0])
            raise IllegalActionError(f"you must follow suit: play one of your {SUIT_NAMES[led]}")
        bit = ~(1 << action)
        self.hands[seat] &= bit
        self.shown[seat] &= bit
        if not self.trick:
            self.trick.append(action)
            return
        lead = self.trick[0]
        if not self._free_play() and suit_of(action) != suit_of(lead):
            self.void_since[seat * 4 + suit_of(lead)] = self.trick_no
        self._finish_trick(lead, action)

    def _finish_trick(self, lead: int, follow: int) -> None:
        trump = None if self._free_play() else self.trump
        first = trick_winner((lead, follow), trump) == 0
        winner = self.leader if first else 1 - self.leader
        self.won[winner + (0 if self.trick_no <= HALF else 2)] += 1
        self.last_trick = (self.leader, lead, follow, winner)
        # D-GW-5: only the last completed trick may be reviewed, so older trick news goes
        self.events = [e for e in self.events if e[0] not in TRICK_EVENTS]
        self.events.append((E_TRICK, -1, winner, lead if first else follow, 0))
        self.unseen_draw = [-1, -1]
        if self.trick_no <= HALF:
            self._draw(winner)
        self.trick.clear()
        self.trick_no += 1
        self.leader = winner
        if self.trick_no == HALF + 1:
            self.events.append((E_COUNTING, -1, winner, 0, 0))
        elif self.trick_no > 2 * HALF:
            self._end_deal(winner)
        if len(self.events) > 6 * EVENTS_KEPT:
            del self.events[: -3 * EVENTS_KEPT]

    def _draw(self, winner: Seat) -> None:
        """The winner takes the face-up top card in view of all, the loser the next one unseen."""
        loser = 1 - winner
        top = self.stock.pop()
        self.hands[winner] |= 1 << top
        self.shown[winner] |= 1 << top
        self.acquired[top] = self.trick_no
        self.events.append((E_TOOK, -1, winner, top, 0))
        nxt = self.stock.pop()
        self.hands[loser] |= 1 << nxt
        self.acquired[nxt] = self.trick_no
        if self.free_first and not self.stock:
            # V3: the last stock card is the face-up trump indicator, taken in full view
            self.shown[loser] |= 1 << nxt
            self.events.append((E_TOOK, -1, loser, nxt, 0))
        else:
            self.unseen_draw[loser] = nxt
            self.events.append((E_UNSEEN, -1, loser, 0, 0))
            self.events.append((E_YOU_DREW, loser, loser, nxt, 0))  # D-GW-4: private

    def deal_values(self) -> tuple[int, int]:
        """What each seat has counted so far this deal under the ``scoring`` option."""
        w = self.won
        if self.options.scoring == "last13":
            return w[2], w[3]
        if self.options.scoring == "all26":
            return w[0] + w[2], w[1] + w[3]
        return w[0] + 2 * w[2], w[1] + 2 * w[3]

    def _end_deal(self, last_winner: Seat) -> None:
        values = self.deal_values()
        if values[0] == values[1]:  # only all26 can tie: D-GW-8, the winner of trick 26
            winner = last_winner
            self.events.append((E_DEAL_LAST_TRICK, -1, winner, values[0], values[1]))
        else:
            winner = 0 if values[0] > values[1] else 1
            kind = E_DEAL_POINTS if self.options.scoring == "points" else E_DEAL_TRICKS
            self.events.append((kind, -1, winner, values[winner], values[1 - winner]))
        match = self.options.match
        if match == "single":
            self.match_score = list(values)
            self.match_winner = winner
        else:
            gain = 1 if match == "best_of" else max(1, abs(values[0] - values[1]))
            self.match_score[winner] += gain
            total = self.match_score[winner]
            self.events.append(
                (E_DEALS if match == "best_of" else E_SCORED, -1, winner, gain, total)
            )
            if total >= self.target:
                self.match_winner = winner
        if self.match_winner >= 0:
            self.events.append((E_MATCH, -1, winner, 0, 0))
        else:
            self.dealer = 1 - self.dealer
            self._start_deal()

    # --- reading the match ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return 2

    def is_over(self) -> bool:
        return self.match_winner >= 0

    def deal_number(self) -> int:
        return self.dealt

    def result(self) -> Result:
        if self.match_winner < 0:
            raise ValueError("the match is not over")
        places = (1, 2) if self.match_winner == 0 else (2, 1)
        return Result(tuple(self.match_score), places)

    def _phase(self) -> Msg:
        if self.match_winner >= 0:
            return Msg.of("table.phase.over")
        if self.trick_no <= HALF:
            name = "drawing_free" if self.free_first else "drawing"
            return Msg.of(f"{GAME_ID}.phase.{name}", trick=self.trick_no)
        return Msg.of(f"{GAME_ID}.phase.counting", trick=self.trick_no)

    def _tricks_counted(self, s: Seat) -> int:
        """A seat's tricks as its score counts them: with ``last13`` (D-GW-6) only tricks 14-26
        once they are being played, so the seats agree with the deal's score; else all."""
        if self.options.scoring == "last13" and self.trick_no > HALF:
            return self.won[s + 2]
        return self.won[s] + self.won[s + 2]

    def _seat_view(self, s: Seat, values: tuple[int, int]) -> SeatView:
        single = self.options.match == "single"
        notes = () if single else (Msg.of(f"{GAME_ID}.note.deal_count", count=values[s]),)
        return SeatView(
            cards=self.hands[s].bit_count(),
            score=values[s] if single else self.match_score[s],
            tricks=self._tricks_counted(s),
            shown=mask_cards(self.shown[s]),
            notes=notes,
        )

    def _piles(self) -> tuple[Pile, ...]:
        piles: list[Pile] = []
        if self.stock:
            indicator = 1 if self.free_first else 0
            top = Pile("table.pile.stock", (Card(self.stock[-1]),), len(self.stock) - 1 - indicator)
            piles.append(top)
            if indicator:
                piles.append(Pile(f"{GAME_ID}.pile.trump_card", (Card(self.stock[0]),)))
        last = self.last_trick
        for s in (0, 1):
            hidden = 2 * (self.won[s] + self.won[s + 2])
            if last is not None and last[3] == s:
                hidden -= 2  # the last trick lies face up (D-GW-5)
            piles.append(Pile("table.pile.won_tricks", hidden=hidden, seat=s))
        if last is not None:
            piles.append(Pile("table.pile.last_trick", cards_tuple(last[1:3]), seat=last[3]))
        return tuple(piles)

    def _events_for(self, seat: Seat | None) -> tuple[Msg, ...]:
        who = -1 if seat is None else seat
        picked: list[Event] = []
        for event in reversed(self.events):
            if event[1] < 0 or event[1] == who:
                picked.append(event)
                if len(picked) == EVENTS_KEPT:
                    break
        return tuple(_message(e) for e in reversed(picked))

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def view(self, seat: Seat | None) -> View:
        values = self.deal_values()
        over = self.match_winner >= 0
        notes: tuple[Msg, ...] = ()
        if seat is not None and self.unseen_draw[seat] >= 0:
            notes = (Msg.of(f"{GAME_ID}.note.you_drew", card=code(self.unseen_draw[seat])),)
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=(self._seat_view(0, values), self._seat_view(1, values)),
            trick=tuple((self.leader ^ i, Card(c)) for i, c in enumerate(self.trick)),
            trump=None if self._free_play() and not over else self.trump,
            no_trump=self._free_play() and not over,
            piles=self._piles(),
            events=self._events_for(seat),
            notes=notes,
            deal=self.dealt,
            dealer=self.dealer,
        )

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Tvamanswhist:
        """Re-deal the opponent's unseen cards and the face-down stock cards among those places.

        The opponent keeps every card seen drawn face up; a card it held when it showed out of a
        suit is not of that suit (a card drawn later may be). Future deals come from ``rng``.
        """
        other = self.clone(rng)
        other.decks = None
        opp = 1 - seat
        slots = list(cards_in(self.hands[opp] & ~self.shown[opp]))
        first = 1 if self.free_first else 0
        stock_places = range(first, len(self.stock) - 1)  # face-down stock cards only
        unknown = slots + [self.stock[i] for i in stock_places]
        new = self._redeal(opp, slots, unknown, rng)
        mapping = dict(zip(unknown, new, strict=True))
        hand = self.shown[opp]
        for old, card in zip(slots, new[: len(slots)], strict=True):
            hand |= 1 << card
            other.acquired[card] = self.acquired[old]
        other.hands[opp] = hand
        for i, card in zip(stock_places, new[len(slots) :], strict=True):
            other.stock[i] = card
        if self.unseen_draw[opp] >= 0:
            other.unseen_draw[opp] = mapping.get(self.unseen_draw[opp], self.unseen_draw[opp])
        other.events = [
            (k, v, a, mapping.get(b, b), c) if k == E_YOU_DREW and v == opp else (k, v, a, b, c)
            for k, v, a, b, c in self.events
        ]
        return other

    def _redeal(
        self, opp: Seat, slots: list[int], unknown: list[int], rng: random.Random
    ) -> list[int]:
        """``unknown`` shuffled so that the first ``len(slots)`` cards fit the opponent's voids."""
        forbidden = [
            sum(1 << s for s in range(4) if self.void_since[opp * 4 + s] > self.acquired[old])
            for old in slots
        ]
        if any(forbidden):
            order = sorted(range(len(slots)), key=lambda i: -forbidden[i].bit_count())
            for _ in range(8):
                rest = shuffled(unknown, rng)
                picked = [-1] * len(slots)
                for i in order:
                    fits = [p for p, c in enumerate(rest) if not forbidden[i] >> suit_of(c) & 1]
                    if not fits:
                        break
                    picked[i] = rest.pop(fits[0])
                else:
                    return picked + rest
        return shuffled(unknown, rng)  # no void, or voids that random tries cannot meet

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return code(action)

    def parse(self, text: str) -> Action:
        return parse_card_notation(text)


def _factory(
    players: int, options: TvamanswhistOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Tvamanswhist(options, rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=2,
    max_players=2,
    options_type=TvamanswhistOptions,
    factory=_factory,
    presets={
        "all26": TvamanswhistOptions(scoring="all26"),  # V1
        "points": TvamanswhistOptions(scoring="points"),  # V2
        "no_trump_free": TvamanswhistOptions(first_half="no_trump_free"),  # V3
    },
)
