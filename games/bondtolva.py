"""Bondtolva for two players: rules engine (rules/two-player.md §1, decisions D-BT-1..14).

Rules implemented (the Swedish text is the authority):

* 24 cards: A, 10, K, Q, J, 9 in each suit, ranked **A > 10 > K > Q > J > 9** (D-BT-1). The
  first dealer is drawn at random and the deal alternates (D-BT-12). The dealer gives three cards
  to the non-dealer (elder hand), three to himself, three more each; the other 12 cards are the
  talong, face down. No trump at the start of a deal. Elder leads to the first trick.
* Phase 1 (tricks 1-6, while the talong lasts): the follower may play any card. With no trump the
  higher card of the led suit wins, otherwise the leader; once a trump suit exists, a trump wins
  in both phases (D-BT-2). The winner takes the top talong card, the loser the next.
* Declaring (D-BT-3/4/5/13): after **every** Phase-1 trick, while trumf or tjog is still
  undeclared in the deal, the trick's winner is asked to ``declare`` a King-Queen pair held in hand
  or ``skip``, before drawing. The step comes whether or not he holds a pair, so the table never
  learns that he has one; without a pair only ``skip`` is legal. The first pair of the deal is
  **trumf** (2 points, its suit is trumps from the next trick on), the second **tjog** (1 point,
  another suit). One pair per won trick; at most one trumf and one tjog per deal; never in Phase 2.
  The declared King and Queen are shown to both players until played (D-BT-10).
* Phase 2 (tricks 7-12, the talong gone): the winner of trick 6 leads; the follower must follow
  suit and beat the led card if able (any higher card of the suit), else trump if void (any trump),
  else play anything (D-BT-7, ``games.tricks.beat_mask``). Without a declared trump there are no
  trumps (D-BT-11).
* Scoring: trumf 2 and tjog 1 when declared; 1 for the last trick; then 1 for "vinsten": more
  matadors (aces and tens) among the won cards, or on a 4-4 tie more eyes (A 4, K 3, Q 2, J 1,
  10 and 9 nothing, D-BT-6); equal eyes (20-20) score nothing.
* End of a deal (D-BT-8/9/14), checked only then: a score above 12 falls to 7; a player on exactly
  12 wins the match; if both are on 12, the one who reached 12 first in the deal (declarations in
  order, then the last trick, then vinsten) wins. Otherwise the other player deals the next deal.
  The result's scores are the final game points; the winner is placed first.
* Only the last completed trick lies face up, and only its winner stays in the events; earlier
  won tricks are face down (1.1). Each player is told the card he drew; declared pairs are public.

Notation: a card played is its code (``TH``, ``9S``, ``AC``); ``declare H`` declares the King-Queen
pair of that suit (``C D H S``; trumf or tjog follows from the state); ``skip`` declares nothing.
Parsing accepts any case and surrounding spaces.

The options dataclass is empty: the seed names no variants (1.7). This module is a pure rules
engine: standard library only, no I/O, no clock.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    SUITS,
    TEN,
    Card,
    cards_in,
    cards_tuple,
    code,
    deal_deck,
    make_deck,
    mask_cards,
    parse_card,
    randbelow,
    rank_of,
    shuffled,
    suit_of,
)
from games.core import (
    Action,
    Game,
    GameSpec,
    IllegalActionError,
    Msg,
    NotationError,
    Options,
    Pile,
    Result,
    ScoreSheet,
    Seat,
    SeatView,
    SheetRow,
    View,
)
from games.tricks import beat_mask, tables, trick_winner

GAME_ID = "bondtolva"
TARGET = 12  # exactly this many game points wins
FALL_TO = 7  # a score above the target falls to this at the end of a deal
HAND = 6
TRICKS = 12
STOCK_TRICKS = 6  # Phase 1: the talong's 12 cards last six tricks
RANKS = (9, TEN, JACK, QUEEN, KING, ACE)
DECK: tuple[int, ...] = tuple(make_deck(RANKS))
# D-BT-1: A > 10 > K > Q > J > 9 (rank -> power)
SUIT_TABLE, POWER_TABLE, SUIT_MASKS = tables(power={TEN: 13, KING: 12, QUEEN: 11, JACK: 10})
EYES = {ACE: 4, KING: 3, QUEEN: 2, JACK: 1}  # D-BT-6: tens and nines have none
MATADORS = {ACE, TEN}
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

DECLARE = 100  # DECLARE + suit
SKIP = 104
PAIR_MASKS: tuple[int, ...] = tuple(
    (1 << (13 * s + KING - 2)) | (1 << (13 * s + QUEEN - 2)) for s in range(4)
)

PLAY, DECLARING, OVER = range(3)
EVENTS_KEPT = 12

# Compact events (kind, a, b, c); turned into Msgs only in ``view``. All are public.
E_DEAL, E_TRICK, E_TRUMF, E_TJOG, E_CLOSED, E_LAST_TRICK = range(6)
E_VINST, E_VINST_EYES, E_NO_VINST, E_FALL, E_MATCH, E_BOTH_12 = range(6, 12)
Event = tuple[int, int, int, int]


@dataclass(frozen=True)
class BondtolvaOptions(Options):
    """The seed describes one rule set only (1.7): there are no variants to choose."""


def eyes(won: int) -> int:
    """Eyes in a mask of cards: A 4, K 3, Q 2, J 1 (D-BT-6)."""
    return sum(EYES.get(rank_of(c), 0) for c in cards_in(won))


def matadors(won: int) -> int:
    """Aces and tens in a mask of cards."""
    return sum(1 for c in cards_in(won) if rank_of(c) in MATADORS)


def vinst(won: Sequence[int]) -> tuple[int, int]:
    """Who takes the vinst point from the two won piles: (seat or -1, 0 by matadors / 1 by eyes)."""
    m0, m1 = matadors(won[0]), matadors(won[1])
    if m0 != m1:
        return (0 if m0 > m1 else 1), 0
    e0, e1 = eyes(won[0]), eyes(won[1])
    if e0 != e1:
        return (0 if e0 > e1 else 1), 1
    return -1, 1


def settle(scores: Sequence[int], reached: Sequence[int]) -> tuple[list[int], int]:
    """The end-of-deal check (1.6): scores after the fall to 7, and the match winner (or -1).

    ``reached[s]`` is the order of the scoring event of this deal at which seat ``s`` reached 12
    (-1 if it did not); it breaks a 12-12 tie (D-BT-9).
    """
    after = [FALL_TO if s > TARGET else s for s in scores]
    on_target = [s for s in (0, 1) if after[s] == TARGET]
    if len(on_target) == 1:
        return after, on_target[0]
    if len(on_target) == 2:
        return after, 0 if reached[0] < reached[1] else 1
    return after, -1


class Bondtolva(Game):
    """One match of Bondtolva. Hands and won cards are bit masks; the talong a list, top last."""

    game_id = GAME_ID
    __slots__ = (
        "dealer",
        "dealt",
        "decks",
        "declared",
        "drawn",
        "events",
        "hands",
        "last_trick",
        "leader",
        "match_winner",
        "reached",
        "rng",
        "scored",
        "scores",
        "sheet_rows",
        "shown",
        "state",
        "stock",
        "tjog_by",
        "trick",
        "trick_no",
        "trumf_by",
        "trump",
        "won",
    )
    copied = (
        "events",
        "scores",
        "sheet_rows",
        "hands",
        "shown",
        "won",
        "drawn",
        "stock",
        "trick",
        "reached",
    )

    def __init__(self, rng: random.Random, decks: list[list[int]] | None) -> None:
        self.rng = rng
        self.decks = decks
        self.events: list[Event] = []
        self.scores = [0, 0]
        self.sheet_rows: list[tuple[int, int, int]] = []  # deal, score 0, score 1 after the deal
        self.match_winner = -1
        self.dealt = 0
        self.dealer = randbelow(rng, 2)
        self._start_deal()

    # --- dealing ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deck = deal_deck(self.decks, self.dealt, DECK, self.rng)
        self.dealt += 1
        elder = 1 - self.dealer
        self.hands = [0, 0]
        for i in range(2 * HAND):  # three to elder, three to the dealer, three and three again
            self.hands[elder if i // 3 % 2 == 0 else self.dealer] |= 1 << deck[i]
        self.stock = deck[2 * HAND :][::-1]  # top card last
        self.trump = -1
        self.trumf_by = self.tjog_by = -1
        self.declared = 0  # suits declared this deal, as bits
        self.shown = [0, 0]  # declared Kings and Queens still in hand (D-BT-10)
        self.won = [0, 0]
        self.drawn = [-1, -1]  # the card each seat drew after the last trick (private)
        self.trick: list[int] = []
        self.last_trick: tuple[int, int, int, int] | None = None  # leader, lead, follow, winner
        self.trick_no = 1
        self.leader = elder
        self.state = PLAY
        self.scored = 0  # scoring events so far this deal, for the 12-12 tie (D-BT-9)
        self.reached = [-1, -1]
        self._event(E_DEAL, self.dealt, self.dealer)

    def _event(self, kind: int, a: int = 0, b: int = 0, c: int = 0) -> None:
        self.events.append((kind, a, b, c))
        if len(self.events) > 6 * EVENTS_KEPT:
            del self.events[: -3 * EVENTS_KEPT]

    def _score(self, seat: Seat, points: int) -> None:
        before = self.scores[seat]
        self.scores[seat] += points
        self.scored += 1
        if before < TARGET <= self.scores[seat]:
            self.reached[seat] = self.scored

    # --- legality ---------------------------------------------------------------------------------

    def _turn(self) -> int:
        if self.state == OVER:
            return -1
        if self.state == DECLARING:
            return self.leader
        return self.leader ^ len(self.trick)

    def _playable(self, seat: Seat) -> int:
        hand = self.hands[seat]
        if not self.trick or self.trick_no <= STOCK_TRICKS:
            return hand  # a lead, or Phase 1: any card
        trump = None if self.trump < 0 else self.trump
        return beat_mask(
            hand, self.trick, trump, SUIT_TABLE, POWER_TABLE, SUIT_MASKS, trump_if_void=True
        )

    def _pairs(self, seat: Seat) -> list[int]:
        """Suits whose King and Queen ``seat`` holds and that were not declared this deal."""
        hand = self.hands[seat]
        return [
            s
            for s in range(4)
            if hand & PAIR_MASKS[s] == PAIR_MASKS[s] and not self.declared >> s & 1
        ]

    def to_act(self) -> frozenset[Seat]:
        turn = self._turn()
        return frozenset() if turn < 0 else frozenset((turn,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self._turn():
            return []
        if self.state == DECLARING:
            return [DECLARE + s for s in self._pairs(seat)] + [SKIP]
        return list(cards_in(self._playable(seat)))

    # --- play -------------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        if self.state == OVER:
            raise IllegalActionError("the match is over")
        if seat != self._turn():
            raise IllegalActionError("it is not your turn")
        if self.state == DECLARING:
            self._declare_or_skip(seat, action)
            return
        if action in (SKIP, *range(DECLARE, DECLARE + 4)):
            raise IllegalActionError(
                "a pair is declared only by the winner of a trick while the talong lasts,"
                " before drawing"
            )
        if not 0 <= action < 52 or not self.hands[seat] >> action & 1:
            raise IllegalActionError(f"you do not hold {self.notation_or_raw(action)}")
        if not self._playable(seat) >> action & 1:
            raise IllegalActionError(self._why_not(seat))
        self.hands[seat] &= ~(1 << action)
        self.shown[seat] &= ~(1 << action)
        self.trick.append(action)
        if len(self.trick) == 2:
            self._finish_trick()

    def _why_not(self, seat: Seat) -> str:
        """Why a card may not follow in Phase 2 (D-BT-7)."""
        led = suit_of(self.trick[0])
        if self.hands[seat] & SUIT_MASKS[led]:
            if self._playable(seat) & SUIT_MASKS[led] != self.hands[seat] & SUIT_MASKS[led]:
                return f"you must follow suit and beat {code(self.trick[0])}: play a higher one"
            return f"you must follow suit: play one of your {SUIT_NAMES[led]}"
        return f"you have no {SUIT_NAMES[led]}, so you must play a trump"

    def _declare_or_skip(self, seat: Seat, action: Action) -> None:
        if action == SKIP:
            self._draw()
            return
        suit = action - DECLARE
        if not 0 <= suit < 4:
            raise IllegalActionError("you have won the trick: declare a pair or skip")
        if self.declared >> suit & 1:
            raise IllegalActionError(f"the pair in {SUIT_NAMES[suit]} is already declared")
        if self.hands[seat] & PAIR_MASKS[suit] != PAIR_MASKS[suit]:
            raise IllegalActionError(
                f"you need the king and the queen of {SUIT_NAMES[suit]} in your hand"
            )
        self.declared |= 1 << suit
        self.shown[seat] |= PAIR_MASKS[suit]
        if self.trumf_by < 0:
            self.trumf_by, self.trump = seat, suit
            self._score(seat, 2)
            self._event(E_TRUMF, seat, suit, self.scores[seat])
        else:
            self.tjog_by = seat
            self._score(seat, 1)
            self._event(E_TJOG, seat, suit, self.scores[seat])
        self._draw()

    def _finish_trick(self) -> None:
        lead, follow = self.trick
        trump = None if self.trump < 0 else self.trump
        first = trick_winner(self.trick, trump, SUIT_TABLE, POWER_TABLE) == 0
        winner = self.leader if first else 1 - self.leader
        self.won[winner] |= (1 << lead) | (1 << follow)
        self.last_trick = (self.leader, lead, follow, winner)
        # 1.1: won tricks lie face down, only the last one may be looked at, so older news goes
        self.events = [e for e in self.events if e[0] != E_TRICK]
        self._event(E_TRICK, winner, lead if first else follow)
        self.trick.clear()
        self.leader = winner
        self.drawn = [-1, -1]
        if self.trick_no <= STOCK_TRICKS:
            if self.tjog_by < 0:  # D-BT-13: offered whenever a pair may still be declared
                self.state = DECLARING
            else:
                self._draw()
            return
        self.trick_no += 1
        if self.trick_no > TRICKS:
            self._end_deal(winner)

    def _draw(self) -> None:
        """The trick's winner takes the top talong card, the loser the next; the next trick."""
        winner = self.leader
        for seat in (winner, 1 - winner):
            card = self.stock.pop()
            self.hands[seat] |= 1 << card
            self.drawn[seat] = card
        self.state = PLAY
        self.trick_no += 1
        if not self.stock:
            self._event(E_CLOSED, winner)

    def _end_deal(self, last: Seat) -> None:
        self._score(last, 1)
        self._event(E_LAST_TRICK, last, self.scores[last])
        taker, by_eyes = vinst(self.won)
        if taker >= 0:
            self._score(taker, 1)
            if by_eyes:
                self._event(E_VINST_EYES, taker, eyes(self.won[taker]), eyes(self.won[1 - taker]))
            else:
                ms = matadors(self.won[taker]), matadors(self.won[1 - taker])
                self._event(E_VINST, taker, *ms)
        else:
            self._event(E_NO_VINST, matadors(self.won[0]), eyes(self.won[0]))
        after, winner = settle(self.scores, self.reached)
        for seat in (0, 1):
            if after[seat] != self.scores[seat]:
                self._event(E_FALL, seat, self.scores[seat])
        self.scores = after
        self.sheet_rows.append((self.dealt, after[0], after[1]))
        if winner >= 0:
            if after[1 - winner] == TARGET:
                self._event(E_BOTH_12, winner)
            self._event(E_MATCH, winner)
            self.match_winner = winner
            self.state = OVER
        else:
            self.dealer = 1 - self.dealer
            self._start_deal()

    # --- reading the match ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return 2

    def is_over(self) -> bool:
        return self.state == OVER

    def deal_number(self) -> int:
        return self.dealt

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.state != OVER:
            raise ValueError("the match is not over")
        places = (1, 2) if self.match_winner == 0 else (2, 1)
        return Result(tuple(self.scores), places)

    def _phase(self) -> Msg:
        k = GAME_ID + ".phase."
        if self.state == OVER:
            return Msg.of("table.phase.over")
        if self.state == DECLARING:
            return Msg.of(k + "declare", seat=self.leader)
        if self.trick_no <= STOCK_TRICKS:
            return Msg.of(k + "stock", trick=self.trick_no, stock=len(self.stock))
        return Msg.of(k + "closed", trick=self.trick_no)

    def _seat_view(self, s: Seat) -> SeatView:
        notes: list[Msg] = []
        for by, name in ((self.trumf_by, "trumf"), (self.tjog_by, "tjog")):
            if by == s:
                suit = self.trump if name == "trumf" else self._tjog_suit()
                notes.append(Msg.of(f"{GAME_ID}.note.{name}", suit=SUITS[suit]))
        return SeatView(
            cards=self.hands[s].bit_count(),
            score=self.scores[s],
            tricks=self.won[s].bit_count() // 2,
            shown=mask_cards(self.shown[s]),
            notes=tuple(notes),
        )

    def _tjog_suit(self) -> int:
        return (self.declared & ~(1 << self.trump)).bit_length() - 1

    def _piles(self) -> tuple[Pile, ...]:
        piles: list[Pile] = []
        if self.stock:
            piles.append(Pile("table.pile.stock", hidden=len(self.stock)))
        last = self.last_trick
        for s in (0, 1):
            hidden = self.won[s].bit_count()
            if last is not None and last[3] == s:
                hidden -= 2  # the last trick lies face up
            piles.append(Pile("table.pile.won_tricks", hidden=hidden, seat=s))
        if last is not None:
            piles.append(Pile("table.pile.last_trick", cards_tuple(last[1:3]), seat=last[3]))
        return tuple(piles)

    def _message(self, event: Event) -> Msg:
        kind, a, b, c = event
        k = GAME_ID + ".event."
        if kind == E_DEAL:
            return Msg.of("table.event.deal_started", deal=a, seat=b)
        if kind == E_TRICK:
            return Msg.of("table.event.trick_won", seat=a, card=code(b))
        if kind in (E_TRUMF, E_TJOG):
            pair = f"{code(13 * b + KING - 2)} {code(13 * b + QUEEN - 2)}"
            name = "trumf" if kind == E_TRUMF else "tjog"
            return Msg.of(k + name, seat=a, suit=SUITS[b], cards=pair, total=c)
        if kind == E_CLOSED:
            return Msg.of(k + "closed", seat=a)
        if kind == E_LAST_TRICK:
            return Msg.of(k + "last_trick", seat=a, total=b)
        if kind == E_VINST:
            return Msg.of(k + "vinst", seat=a, won=b, lost=c)
        if kind == E_VINST_EYES:
            return Msg.of(k + "vinst_eyes", seat=a, won=b, lost=c)
        if kind == E_NO_VINST:
            return Msg.of(k + "no_vinst", matadors=a, eyes=b)
        if kind == E_FALL:
            return Msg.of(k + "fall", seat=a, points=b)
        if kind == E_BOTH_12:
            return Msg.of(k + "both_12", seat=a)
        return Msg.of(k + "match_won", seat=a)

    def _sheet(self) -> ScoreSheet:
        return ScoreSheet(
            columns=(
                Msg.of(f"{GAME_ID}.sheet.seat", seat=0),
                Msg.of(f"{GAME_ID}.sheet.seat", seat=1),
            ),
            rows=tuple(
                SheetRow(Msg.of(f"{GAME_ID}.sheet.deal", deal=d), (s0, s1))
                for d, s0, s1 in self.sheet_rows
            ),
        )

    def view(self, seat: Seat | None) -> View:
        notes: tuple[Msg, ...] = ()
        if seat is not None and self.drawn[seat] >= 0:
            notes = (Msg.of(f"{GAME_ID}.note.you_drew", card=code(self.drawn[seat])),)
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=(self._seat_view(0), self._seat_view(1)),
            trick=tuple((self.leader ^ i, Card(c)) for i, c in enumerate(self.trick)),
            trump=None if self.trump < 0 else self.trump,
            no_trump=self.trump < 0,  # rules/two-player.md §1: no trump until a marriage makes one
            piles=self._piles(),
            events=tuple(self._message(e) for e in self.events[-EVENTS_KEPT:]),
            notes=notes,
            deal=self.dealt,
            dealer=self.dealer,
            sheet=self._sheet(),
        )

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Bondtolva:
        """Re-deal the opponent's unseen cards and the talong among those places.

        The opponent keeps his declared (shown) King and Queen. Every played card was seen, so in
        Phase 2 (talong gone) the opponent's hand is known by elimination and nothing changes;
        Phase-1 play reveals nothing (any card may be played), nor does a ``skip``. Future deals
        come from ``rng``.
        """
        other = self.clone(rng)
        other.decks = None
        opp = 1 - seat
        slots = list(cards_in(self.hands[opp] & ~self.shown[opp]))
        unknown = slots + self.stock
        new = shuffled(unknown, rng)
        hand = self.shown[opp]
        for c in new[: len(slots)]:
            hand |= 1 << c
        other.hands[opp] = hand
        other.stock = new[len(slots) :]
        if self.drawn[opp] >= 0:
            mapping = dict(zip(unknown, new, strict=True))
            other.drawn[opp] = mapping.get(self.drawn[opp], self.drawn[opp])
        return other

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        if action == SKIP:
            return "skip"
        if DECLARE <= action < DECLARE + 4:
            return f"declare {SUITS[action - DECLARE]}"
        return code(action)

    def parse(self, text: str) -> Action:
        words = text.strip().lower().split()
        if words == ["skip"]:
            return SKIP
        if len(words) == 2 and words[0] == "declare":
            suit = SUITS.find(words[1].upper())
            if len(words[1]) == 1 and suit >= 0:
                return DECLARE + suit
            raise NotationError(f"declare takes a suit: C, D, H or S, not {words[1]!r}")
        try:
            return parse_card(text)
        except ValueError as err:
            raise NotationError(f"{err}; or declare <suit>, or skip") from None


def _factory(
    players: int, options: BondtolvaOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Bondtolva(rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=2,
    max_players=2,
    options_type=BondtolvaOptions,
    factory=_factory,
)
