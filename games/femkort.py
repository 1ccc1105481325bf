"""Femkort (five cards) for 2 to 10 players: rules engine (rules/two-player.md §5).

Rules implemented (the Swedish text is the authority; decisions D-FK-1..11 of the spec):

* 52 cards, ace high, no trumps. Seats 0..n-1 clockwise. The first dealer is drawn at random; the
  deal passes to the left after every pot won (D-FK-7), not after a "better cards" redeal.
* Before each deal every player puts the same ante (option ``ante``, default 1 point) into the pot
  (D-FK-6). The pot is points, never money.
* Five cards each, dealt clockwise from the dealer's left: one at a time (default) or the older
  way, three each and then two each (option ``deal="three_two"``). It changes nothing in play.
  The undealt cards lie aside face down, unseen by everyone.
* The elder hand (the dealer's left) leads trick 1; the winner of a trick leads the next. A
  follower must follow suit and, holding the led suit, must beat the highest card of the led suit
  played so far when able (överstickstvång, D-FK-1, D-FK-11; ``games.tricks.beat_mask``); among
  several beating cards he chooses freely; unable to beat he plays any card of the suit; void,
  any card (a discard never wins). The highest card of the led suit wins the trick.
* Tricks 1-4 are worth nothing; the winner of trick 5 takes the whole pot.
* "Better cards" (bättre kort, D-FK-2, D-FK-3, D-FK-4, D-FK-10): the seat whose turn it is to
  play, in tricks 1-4 or as the leader of trick 5 before leading, may propose a redeal, at most
  once per deal. The others answer in turn clockwise from the proposer; the first refusal ends the
  proposal (play goes on where it stopped, the proposer still to play); a player whose turn time
  runs out while answering refuses (``timeout_action``). When all the others
  accept, the deal is void (a partial trick too): the same dealer deals five new cards each from a
  fresh shuffle, the pot stays and no ante is paid. A redeal is a new deal, so everyone may
  propose again in it, and it is announced to every seat as a new deal (``View.deal`` counts the
  deals of the cards, redeals included).
* The match (D-FK-5, option ``match``): ``pots`` (default): the first player to win ``target``
  pots (default 3) wins; the score is pots won and the others are placed by pots won.
  ``last_standing``: everyone starts with ``start_points`` points (default 3: the game's own
  choice, since the last two players trade single pots until one is ruined, and ten players
  starting with 10 points each played for well over a thousand deals in random playouts); the
  pot's winner gains its points; a player who cannot pay the ante before a deal is out (he is
  dealt no more cards, and several going out together share a place); the last player left wins.
  The score is the points held; places follow the order of going out, the last one left first.

Visibility (§5.7: hidden are the hands and the undealt cards): hands are private and the undealt
cards are hidden from everyone. Everything else is public: the trick on the table, the last trick
(with its winner) and the cards of the earlier tricks of the deal, which stay face up until the
next deal; the pot, the points and the pots won.

Notation: playing a card is its code (``JC``, ``TH``). ``better`` proposes a redeal ("bättre
kort"); ``accept`` and ``refuse`` answer a proposal. Parsing accepts any case and surrounding
spaces.

This module is a pure rules engine: standard library only, no I/O, no clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from games.cards import (
    Card,
    cards_in,
    cards_tuple,
    code,
    deal_deck,
    make_deck,
    mask_cards,
    parse_card,
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
    NotationError,
    OptionError,
    Options,
    Pile,
    Result,
    Seat,
    SeatView,
    View,
    bounds,
    competition_places,
)
from games.tricks import beat_mask, trick_winner

GAME_ID = "femkort"
HAND = 5  # cards per player, and tricks per deal
BETTER, ACCEPT, REFUSE = 60, 61, 62
WORDS = {BETTER: "better", ACCEPT: "accept", REFUSE: "refuse"}
BY_WORD = {w: a for a, w in WORDS.items()}
EVENTS_KEPT = 12

# Compact events (kind, a, b, c), all public; turned into Msgs only in ``view``.
E_DEAL, E_ANTE, E_TRICK, E_POT, E_PROPOSED, E_ACCEPTED, E_REFUSED = range(7)
E_REDEAL, E_OUT, E_MATCH = range(7, 10)
Event = tuple[int, int, int, int]


@dataclass(frozen=True)
class FemkortOptions(Options):
    """``deal``: one card at a time or three then two (§5.4). ``ante``: each player's stake in
    every pot (D-FK-6). ``match``, ``target`` and ``start_points``: the match (D-FK-5)."""

    deal: Literal["one_by_one", "three_two"] = "one_by_one"
    ante: int = field(default=1, metadata=bounds(1, 100))
    match: Literal["pots", "last_standing"] = "pots"
    target: int = field(default=3, metadata=bounds(1, 100))
    start_points: int = field(default=3, metadata=bounds(1, 1000))


class Femkort(Game):
    """One match of Femkort. Hands are bit masks; the trick is a list of cards in playing order."""

    game_id = GAME_ID
    __slots__ = (
        "accepted",
        "answerer",
        "barred",
        "dealer",
        "deals",
        "dealt",
        "decks",
        "events",
        "hands",
        "in_play",
        "last_trick",
        "leader",
        "n",
        "options",
        "out_at",
        "played",
        "points",
        "pot",
        "pots_won",
        "proposed",
        "proposer",
        "rng",
        "seating",
        "trick",
        "trick_no",
        "undealt",
        "winner",
        "won",
    )
    copied = (
        "barred",
        "events",
        "hands",
        "in_play",
        "last_trick",
        "out_at",
        "played",
        "points",
        "pots_won",
        "seating",
        "trick",
        "won",
    )

    def __init__(
        self,
        players: int,
        options: FemkortOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        if options.ante < 1:
            raise OptionError("ante takes a whole number of 1 or more")
        if options.target < 1:
            raise OptionError("target takes a whole number of 1 or more")
        if options.match == "last_standing" and options.start_points < options.ante:
            raise OptionError(
                "start_points must be at least the ante",
                Msg.of("femkort.options_error.start_points", ante=options.ante),
            )
        self.n = players
        self.options = options
        self.rng = rng
        self.decks = decks
        self.events: list[Event] = []
        self.pots_won = [0] * players
        start = options.start_points if options.match == "last_standing" else 0
        self.points = [start] * players  # points held: the pots' points won minus the antes paid
        self.out_at = [0] * players  # last_standing: the last deal the seat played before going out
        self.in_play = [True] * players
        self.seating = list(range(players))  # the seats still in the match, clockwise
        self.winner = -1
        self.pot = 0
        self.deals = 0  # pots played for (a redeal is the same pot)
        self.dealt = 0  # deals dealt, redeals included (the index into ``decks``)
        self.dealer = randbelow(rng, players)
        self._new_pot()

    # --- dealing ----------------------------------------------------------------------------------

    def _next_in(self, seat: Seat) -> Seat:
        """The next seat clockwise after ``seat`` that is still in the match."""
        for step in range(1, self.n + 1):
            s = (seat + step) % self.n
            if self.in_play[s]:
                return s
        return seat

    def _new_pot(self) -> None:
        """Everyone antes (D-FK-6), then the deal."""
        ante = self.options.ante
        self.deals += 1
        for s in self.seating:
            self.points[s] -= ante
        self.pot += ante * len(self.seating)
        self.events.append((E_DEAL, self.dealt + 1, self.dealer, 0))
        self.events.append((E_ANTE, ante, self.pot, 0))
        self._deal()

    def _deal(self) -> None:
        deck = deal_deck(self.decks, self.dealt, make_deck(), self.rng)
        self.dealt += 1
        elder = self._next_in(self.dealer)
        start = self.seating.index(elder)
        order = self.seating[start:] + self.seating[:start]
        self.hands = [0] * self.n
        i = 0
        rounds = (3, 2) if self.options.deal == "three_two" else (1,) * HAND
        for count in rounds:
            for s in order:
                for c in deck[i : i + count]:
                    self.hands[s] |= 1 << c
                i += count
        self.undealt = 0
        for c in deck[i:]:
            self.undealt |= 1 << c
        self.won = [0] * self.n
        self.barred = [0] * self.n  # cards a seat's play has shown it does not hold (public)
        self.trick: list[int] = []
        self.last_trick: list[int] = []  # the winner, then the cards in playing order
        self.played: list[int] = []  # the cards of the tricks before the last, face up
        self.trick_no = 1
        self.leader = elder
        self.proposed = 0  # seats (bits) that proposed "better cards" in this deal
        self.proposer = -1
        self.answerer = -1
        self.accepted = 0  # seats (bits) that accepted the open proposal

    # --- turns ------------------------------------------------------------------------------------

    def _turn(self) -> Seat:
        """The seat to act: the answerer of an open proposal, else the player; -1 at the end."""
        if self.winner >= 0:
            return -1
        if self.proposer >= 0:
            return self.answerer
        seating = self.seating
        return seating[(seating.index(self.leader) + len(self.trick)) % len(seating)]

    def _may_propose(self, seat: Seat) -> bool:
        """D-FK-4, D-FK-10: in tricks 1-4, or as the leader of trick 5 before he leads; once."""
        if self.proposed >> seat & 1:
            return False
        return self.trick_no < HAND or not self.trick

    def _playable(self, seat: Seat) -> int:
        return beat_mask(self.hands[seat], self.trick)

    def to_act(self) -> frozenset[Seat]:
        turn = self._turn()
        return frozenset() if turn < 0 else frozenset((turn,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self._turn():
            return []
        if self.proposer >= 0:
            return [ACCEPT, REFUSE]
        actions = list(cards_in(self._playable(seat)))
        if self._may_propose(seat):
            actions.append(BETTER)
        return actions

    def apply(self, seat: Seat, action: Action) -> None:
        if self.winner >= 0:
            raise IllegalActionError("the match is over")
        if seat != self._turn():
            raise IllegalActionError("it is not your turn")
        if self.proposer >= 0:
            if action not in (ACCEPT, REFUSE):
                raise IllegalActionError("answer the proposal of better cards: accept or refuse")
            self._answer(seat, action == ACCEPT)
            return
        if action == BETTER:
            if not self._may_propose(seat):
                raise IllegalActionError(
                    "you have already proposed better cards in this deal"
                    if self.proposed >> seat & 1
                    else "better cards may not be proposed once the last trick is led"
                )
            self._propose(seat)
            return
        if not 0 <= action < 52 or not self.hands[seat] >> action & 1:
            raise IllegalActionError(f"you do not hold {self.notation_or_raw(action)}")
        if not self._playable(seat) >> action & 1:
            raise IllegalActionError(self._why_not(seat))
        self.hands[seat] &= ~(1 << action)
        if self.trick:
            self.barred[seat] |= _shown_missing(self.trick, action)
        self.trick.append(action)
        if len(self.trick) == len(self.seating):
            self._finish_trick()

    def _why_not(self, seat: Seat) -> str:
        led = suit_of(self.trick[0])
        top = max(c for c in self.trick if suit_of(c) == led)
        return (
            f"you must follow suit and beat {code(top)} when you can: "
            f"play one of {' '.join(code(c) for c in cards_in(self._playable(seat)))}"
        )

    def timeout_action(self, seat: Seat) -> Action | None:
        """§5.2: a player whose time runs out while answering a proposal refuses it."""
        return REFUSE if self.proposer >= 0 and seat == self.answerer else None

    # --- better cards -----------------------------------------------------------------------------

    def _propose(self, seat: Seat) -> None:
        self.proposed |= 1 << seat
        self.proposer = seat
        self.accepted = 0
        self.answerer = self._next_in(seat)
        self.events.append((E_PROPOSED, seat, 0, 0))

    def _answer(self, seat: Seat, accept: bool) -> None:
        if not accept:
            self.events.append((E_REFUSED, seat, 0, 0))
            self.proposer = -1
            self.answerer = -1
            self.accepted = 0
            return
        self.events.append((E_ACCEPTED, seat, 0, 0))
        self.accepted |= 1 << seat
        nxt = self._next_in(seat)
        if nxt != self.proposer:
            self.answerer = nxt
            return
        # D-FK-3: everyone accepted: the deal is void, the same dealer deals again, the pot stays
        # a redeal is a new deal of the cards, announced as one to every seat (View.deal counts
        # deals dealt, so whatever waits for new cards sees them)
        self.events.append((E_REDEAL, self.dealer, self.pot, 0))
        self.events.append((E_DEAL, self.dealt + 1, self.dealer, 0))
        self._deal()

    # --- tricks and the pot -----------------------------------------------------------------------

    def _finish_trick(self) -> None:
        seating = self.seating
        first = seating.index(self.leader)
        at = trick_winner(self.trick, None)
        winner = seating[(first + at) % len(seating)]
        self.won[winner] += 1
        self.played += self.last_trick[1:]
        self.last_trick = [winner, *self.trick]
        self.events.append((E_TRICK, winner, self.trick[at], self.trick_no))
        if len(self.events) > 6 * EVENTS_KEPT:
            del self.events[: -3 * EVENTS_KEPT]
        self.trick = []
        self.leader = winner
        if self.trick_no < HAND:
            self.trick_no += 1
            return
        self._award(winner)

    def _award(self, winner: Seat) -> None:
        """The winner of trick 5 takes the whole pot; then the match ends or the next pot."""
        self.points[winner] += self.pot
        self.pots_won[winner] += 1
        self.events.append((E_POT, winner, self.pot, self.pots_won[winner]))
        self.pot = 0
        if self.options.match == "pots":
            if self.pots_won[winner] >= self.options.target:
                self._end(winner)
                return
        else:
            ante = self.options.ante
            for s in list(self.seating):
                if self.points[s] < ante:
                    self.in_play[s] = False
                    self.out_at[s] = self.deals
                    self.events.append((E_OUT, s, self.points[s], 0))
            self.seating = [s for s in self.seating if self.in_play[s]]
            if len(self.seating) == 1:
                self._end(self.seating[0])
                return
        self.dealer = self._next_in(self.dealer)
        self._new_pot()

    def _end(self, winner: Seat) -> None:
        self.winner = winner
        self.events.append((E_MATCH, winner, 0, 0))

    # --- reading the match ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def is_over(self) -> bool:
        return self.winner >= 0

    def deal_number(self) -> int:
        return self.dealt

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.winner < 0:
            raise ValueError("the match is not over")
        if self.options.match == "pots":
            return Result.by_score(self.pots_won)
        # the last one left first, then by the order of going out (later is better, D-FK-5)
        keys = [-(self.deals + 1) if s == self.winner else -self.out_at[s] for s in range(self.n)]
        return Result(tuple(self.points), competition_places(keys))

    def _phase(self) -> Msg:
        if self.winner >= 0:
            return Msg.of("table.phase.over")
        if self.proposer >= 0:
            return Msg.of(f"{GAME_ID}.phase.better", seat=self.proposer, pot=self.pot)
        if self.options.match == "last_standing":
            return Msg.of(f"{GAME_ID}.phase.trick_standing", trick=self.trick_no, pot=self.pot)
        return Msg.of(
            f"{GAME_ID}.phase.trick", trick=self.trick_no, pot=self.pot, target=self.options.target
        )

    def _seat_view(self, s: Seat) -> SeatView:
        notes: tuple[Msg, ...] = ()
        if not self.in_play[s]:
            notes = (Msg.of(f"{GAME_ID}.note.out"),)
        elif self.accepted >> s & 1:
            notes = (Msg.of(f"{GAME_ID}.note.accepted"),)
        elif s == self.proposer:
            notes = (Msg.of(f"{GAME_ID}.note.proposed"),)
        last_standing = self.options.match == "last_standing"
        return SeatView(
            cards=self.hands[s].bit_count(),
            score=self.points[s] if last_standing else self.pots_won[s],
            tricks=self.won[s] if self.in_play[s] else None,
            notes=notes,
        )

    def _piles(self) -> tuple[Pile, ...]:
        piles = [Pile(f"{GAME_ID}.pile.undealt", hidden=self.undealt.bit_count())]
        if self.played:
            piles.append(Pile(f"{GAME_ID}.pile.played", cards_tuple(self.played)))
        if self.last_trick:
            winner, *cards = self.last_trick
            piles.append(Pile("table.pile.last_trick", cards_tuple(cards), seat=winner))
        return tuple(piles)

    def _message(self, event: Event) -> Msg:
        kind, a, b, c = event
        k = GAME_ID + ".event."
        if kind == E_DEAL:
            return Msg.of("table.event.deal_started", deal=a, seat=b)
        if kind == E_ANTE:
            return Msg.of(k + "ante", ante=a, pot=b)
        if kind == E_TRICK:
            return Msg.of(k + "trick_won", seat=a, card=code(b), trick=c)
        if kind == E_POT:
            return Msg.of(k + "pot_won", seat=a, pot=b, pots=c)
        if kind == E_PROPOSED:
            return Msg.of(k + "proposed", seat=a)
        if kind == E_ACCEPTED:
            return Msg.of(k + "accepted", seat=a)
        if kind == E_REFUSED:
            return Msg.of(k + "refused", seat=a)
        if kind == E_REDEAL:
            return Msg.of(k + "redeal", seat=a, pot=b)
        if kind == E_OUT:
            return Msg.of(k + "out", seat=a, points=b)
        return Msg.of(k + "match_won", seat=a)

    def view(self, seat: Seat | None) -> View:
        seating = self.seating
        first = seating.index(self.leader) if self.leader in seating else 0
        trick = tuple(
            (seating[(first + i) % len(seating)], Card(c)) for i, c in enumerate(self.trick)
        )
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=tuple(self._seat_view(s) for s in range(self.n)),
            trick=trick,
            piles=self._piles(),
            events=tuple(self._message(e) for e in self.events[-EVENTS_KEPT:]),
            deal=self.dealt,
            dealer=self.dealer,
        )

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Femkort:
        """Re-deal the other hands and the undealt cards among those places (§5.7), keeping what
        play has shown: a seat that did not follow the led suit holds none of it, and one that
        followed without beating holds nothing of the suit above the card it did not beat
        (``barred``). Future deals come from ``rng``."""
        other = self.clone(rng)
        other.decks = None
        others = [s for s in range(self.n) if s != seat and self.hands[s]]
        unknown = self.undealt
        for s in others:
            unknown |= self.hands[s]
        hands = _deal_hidden(
            unknown, [(self.hands[s].bit_count(), self.barred[s]) for s in others], rng
        )
        for s, hand in zip(others, hands, strict=True):
            other.hands[s] = hand
            unknown &= ~hand
        other.undealt = unknown
        return other

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        word = WORDS.get(action)
        return word if word is not None else code(action)

    def parse(self, text: str) -> Action:
        word = text.strip().lower()
        if word in BY_WORD:
            return BY_WORD[word]
        try:
            found = parse_card(text)
        except ValueError as err:
            raise NotationError(f"{err}; or better, accept, refuse") from None
        if found >= 52:
            raise NotationError("Femkort is played without the joker")
        return found


def _shown_missing(trick: list[int], card: int) -> int:
    """The cards a follower who played ``card`` to ``trick`` has shown not to hold: none of the
    led suit when it did not follow, and none of the led suit above the highest card of the led
    suit when it followed without beating it (it must beat when able, D-FK-1)."""
    led = suit_of(trick[0])
    suit = ((1 << 13) - 1) << (13 * led)
    if suit_of(card) != led:
        return suit
    top = max(c for c in trick if suit_of(c) == led)
    if card > top:
        return 0
    return suit & ~((1 << (top + 1)) - 1)


DEAL_TRIES = 20


def _deal_hidden(unknown: int, seats: list[tuple[int, int]], rng: random.Random) -> list[int]:
    """Hands for ``seats`` (each: how many cards, the cards it cannot hold) from the ``unknown``
    cards, the rest left undealt. The most constrained seat draws first, each uniformly from the
    cards it may hold; should that dead-end (several seats short of the same suit), it tries again,
    and after ``DEAL_TRIES`` the constraints are dropped (the counts are always kept)."""
    order = sorted(range(len(seats)), key=lambda i: (unknown & ~seats[i][1]).bit_count())
    for attempt in range(DEAL_TRIES + 1):
        left = unknown
        hands = [0] * len(seats)
        for i in order:
            count, barred = seats[i]
            allowed = list(cards_in(left & ~barred if attempt < DEAL_TRIES else left))
            if len(allowed) < count:
                break
            hand = 0
            for c in shuffled(allowed, rng)[:count]:
                hand |= 1 << c
            hands[i] = hand
            left &= ~hand
        else:
            return hands
    raise AssertionError("the hidden cards cannot fill the hands")  # pragma: no cover


def _factory(
    players: int, options: FemkortOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Femkort(players, options, rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=2,
    max_players=10,
    options_type=FemkortOptions,
    factory=_factory,
    presets={
        "three_two": FemkortOptions(deal="three_two"),  # §5.4: the older way of dealing
        "last_standing": FemkortOptions(match="last_standing"),  # D-FK-5: the optional mode
    },
)
