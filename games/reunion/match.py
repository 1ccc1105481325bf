"""The state of a Reunion session and the game contract over it (rules in the package docstring).

Hands are bit masks; ``apply`` changes the state in place and performs every automatic step
itself (the deal, the turn-up joining the dealer's hand after trick 2, the capture payment, deal
scoring, the partie settlement, the next deal and partie).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.cards import (
    Card,
    cards_in,
    cards_tuple,
    codes,
    deal_deck,
    mask_cards,
    randbelow,
)
from games.core import (
    Action,
    Game,
    IllegalActionError,
    Msg,
    OptionError,
    Options,
    Pile,
    Result,
    ScoreSheet,
    Seat,
    SeatView,
    SheetRow,
    View,
    bounds,
)
from games.reunion import rules
from games.reunion.events import (
    E_ALL_EVEN,
    E_CAPTURE,
    E_DEAL,
    E_DEAL_SCORE,
    E_DISCARDED,
    E_DISCARDS_SHOWN,
    E_EVEN,
    E_LAST_CARD,
    E_LOSS,
    E_PARTIE,
    E_PARTIE_NET,
    E_PARTIE_TIED,
    E_PARTIE_WON,
    E_PLAYED,
    E_SESSION_WON,
    E_STANG,
    E_STANG_PAID,
    E_TAKES_TURN_UP,
    E_TRICK,
    E_TURN_UP,
    E_YOU_DISCARDED,
    EVERYONE,
    Event,
    message,
    suit_name,
)
from games.reunion.rules import (
    BIT,
    DEALS_PER_PARTIE,
    DECK,
    DECK_MASK,
    LAST_TRICK_EYES,
    PLAYERS,
    STANG,
    TABLES,
    TRICKS,
    cards_list,
    discard_actions,
    discard_cards,
    net_stakes,
    settle_partie,
)
from games.reunion.sheet import DealRecord, PartieRecord, deal_rows, partie_rows
from games.tricks import redeal, trick_winner

GAME_ID = "reunion"
_DISCARD, _TRICKS, _OVER = range(3)
EVENTS_KEPT = 20
_ONLY = tuple(frozenset((s,)) for s in range(PLAYERS))
_NOBODY: frozenset[Seat] = frozenset()
_NEXT = tuple((s + 1) % PLAYERS for s in range(PLAYERS))  # the seat on the right plays next


@dataclass(frozen=True)
class ReunionOptions(Options):
    """``parties``: how many parties of three deals the session has (§1.7, default 3).
    ``carry_last_dealer`` (§1.8, the seed's tip): the last dealer of a partie deals the first deal
    of the next; off, the deal simply goes on counter-clockwise."""

    parties: int = field(default=3, metadata=bounds(1, 20))
    carry_last_dealer: bool = True


class Reunion(Game):
    """One session of Reunion: ``parties`` parties of three deals each."""

    game_id = GAME_ID
    __slots__ = (
        "_deal_capture",
        "_deal_in_partie",
        "_deal_no",
        "_dealer",
        "_deals",
        "_decks",
        "_discards",
        "_events",
        "_hands",
        "_last_trick",
        "_leader",
        "_partie",
        "_parties",
        "_phase",
        "_shown",
        "_stakes",
        "_t",
        "_trick",
        "_trick_eyes",
        "_trick_no",
        "_tricks_won",
        "_turn",
        "_turn_up",
        "_turn_up_taken",
        "_voids",
        "options",
        "rng",
    )
    # what apply changes in place: a clone copies these
    copied = (
        "_events",
        "_hands",
        "_shown",
        "_voids",
        "_trick",
        "_trick_eyes",
        "_tricks_won",
        "_deal_capture",
        "_stakes",
        "_deals",
        "_parties",
    )

    def __init__(
        self, options: ReunionOptions, rng: random.Random, decks: list[list[int]] | None
    ) -> None:
        if options.parties < 1:
            raise OptionError("parties takes a whole number of 1 or more")
        self.options = options
        self.rng = rng
        self._decks = decks
        self._events: list[Event] = []
        self._stakes = [0] * PLAYERS
        self._deals: list[DealRecord] = []
        self._parties: list[PartieRecord] = []
        self._deal_no = 0
        self._partie = 1
        self._deal_in_partie = 0
        # R11: the first dealer is drawn (lowest card deals); the bot draws a seat at random
        self._dealer = randbelow(rng, PLAYERS)
        self._events.append((E_PARTIE, EVERYONE, 1))
        self._start_deal()

    # --- dealing -------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deck = deal_deck(self._decks, self._deal_no, DECK, self.rng)
        self._deal_no += 1
        self._deal_in_partie += 1
        dealer = self._dealer
        # §1.3: the bottom card is turned up; 3, 4 and 3 cards each from forehand (the dealer's
        # right, the next seat), the dealer last; the dealer takes the 31st card face down.
        turn_up = deck[31]
        self._t = TABLES[turn_up // 13]
        hands = [0] * PLAYERS
        pos = 0
        for packet in (3, 4, 3):
            for i in range(1, PLAYERS + 1):
                seat = (dealer + i) % PLAYERS
                for c in deck[pos : pos + packet]:
                    hands[seat] |= BIT[c]
                pos += packet
        hands[dealer] |= BIT[deck[30]]
        self._hands = hands
        self._shown = [0] * PLAYERS
        self._turn_up = turn_up
        self._turn_up_taken = False
        self._discards = 0
        self._voids = [0] * PLAYERS  # effective suits each seat has shown it lacks
        self._trick: list[int] = []
        self._trick_no = 1
        self._trick_eyes = [0] * PLAYERS
        self._tricks_won = [0] * PLAYERS
        self._deal_capture = [0] * PLAYERS
        self._last_trick: tuple[int, tuple[int, ...]] | None = None
        self._leader = self._turn = (dealer + 1) % PLAYERS
        self._phase = _DISCARD
        if len(self._events) > 4 * EVENTS_KEPT:
            del self._events[: -2 * EVENTS_KEPT]
        self._events.append((E_DEAL, EVERYONE, self._deal_no, dealer))
        self._events.append((E_TURN_UP, EVERYONE, turn_up))
        self._events.append((E_LAST_CARD, dealer, deck[30]))

    # --- the contract --------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return PLAYERS

    def to_act(self) -> frozenset[Seat]:
        phase = self._phase
        if phase == _TRICKS:
            return _ONLY[self._turn]
        return _NOBODY if phase == _OVER else _ONLY[self._dealer]

    def _playable(self, seat: Seat) -> int:
        """§1.4: follow suit (the left bower is a trump), else trump, else any card."""
        hand = self._hands[seat]
        if not self._trick:
            return hand
        masks = self._t.suit_masks
        same = hand & masks[self._t.suit[self._trick[0]]]
        if same:
            return same
        return hand & masks[self._t.trump] or hand

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self._phase == _TRICKS:
            return cards_list(self._playable(seat)) if seat == self._turn else []
        if self._phase == _DISCARD and seat == self._dealer:
            return discard_actions(cards_list(self._hands[seat] & ~self._t.no_discard))
        return []

    def apply(self, seat: Seat, action: Action) -> None:
        if self._phase != _TRICKS:
            if self._phase == _DISCARD:
                self._discard(seat, action)
                return
            raise IllegalActionError("the match is over")
        # playing a card: the hot path, in one function
        if seat != self._turn:
            raise IllegalActionError("it is not your turn")
        hands = self._hands
        hand = hands[seat]
        if not (0 <= action < 52 and hand >> action & 1):
            raise IllegalActionError(f"{self.notation_or_raw(action)} is not a card in your hand")
        trick = self._trick
        if trick:
            suit = self._t.suit
            led = suit[trick[0]]
            if suit[action] != led:
                self._showed_out(seat, hand, action, led)
        hands[seat] = hand ^ BIT[action]
        if seat == self._dealer:
            self._shown[seat] &= ~BIT[action]
        trick.append(action)
        self._events.append((E_PLAYED, EVERYONE, seat, action))
        if len(trick) < PLAYERS:
            self._turn = _NEXT[seat]
            return
        self._finish_trick(trick)

    def _showed_out(self, seat: Seat, hand: int, card: int, led: int) -> None:
        """§1.4: refuse a card that breaks the duty to follow suit or to trump; otherwise note
        what the seat has shown it lacks (the led suit, and trumps when it did not trump)."""
        t = self._t
        if hand & t.suit_masks[led]:
            raise IllegalActionError(f"you must follow suit: play one of your {suit_name(led)}")
        voids = 1 << led
        if t.suit[card] != t.trump:
            if hand & t.suit_masks[t.trump]:
                raise IllegalActionError("you cannot follow suit, so you must play a trump")
            voids |= 1 << t.trump
        self._voids[seat] |= voids

    def _discard(self, seat: Seat, action: Action) -> None:
        if seat != self._dealer:
            raise IllegalActionError("the dealer lays away two cards first: wait for your turn")
        pair = discard_cards(action)
        if pair is None:
            raise IllegalActionError("lay away two cards of your hand (discard 7C 8D)")
        mask = BIT[pair[0]] | BIT[pair[1]]
        if mask & ~self._hands[seat]:
            raise IllegalActionError("you can only lay away cards of your own hand")
        if mask & self._t.no_discard:
            raise IllegalActionError("you may not lay away an ace or either bower")
        self._hands[seat] ^= mask
        self._discards = mask
        self._phase = _TRICKS
        self._events.append((E_DISCARDED, EVERYONE, seat))
        self._events.append((E_YOU_DISCARDED, seat, *pair, rules.eyes_of(pair, self._t.trump)))

    def _finish_trick(self, trick: list[int]) -> None:
        t = self._t
        best = trick_winner(trick, t.trump, t.suit, t.power)
        leader = self._leader
        winner = (leader + best) % PLAYERS
        self._tricks_won[winner] += 1
        self._trick_eyes[winner] += t.eyes[trick[0]] + t.eyes[trick[1]] + t.eyes[trick[2]]
        self._events.append((E_TRICK, EVERYONE, winner, trick[best]))
        if t.left in trick and t.right in trick:
            # §1.4, R8: who lost the left bower to the right pays its player one stake at once
            payer = (leader + trick.index(t.left)) % PLAYERS
            payee = (leader + trick.index(t.right)) % PLAYERS
            self._stakes[payer] -= 1
            self._stakes[payee] += 1
            self._deal_capture[payer] -= 1
            self._deal_capture[payee] += 1
            self._events.append((E_CAPTURE, EVERYONE, payer, payee))
        self._last_trick = (winner, tuple(trick))
        self._trick = []
        self._leader = self._turn = winner
        self._trick_no += 1
        if self._trick_no == 3:
            # §1.3 step 5: after the second trick the dealer takes the turn-up into his hand
            dealer = self._dealer
            self._hands[dealer] |= BIT[self._turn_up]
            self._shown[dealer] |= BIT[self._turn_up]
            self._turn_up_taken = True
            self._events.append((E_TAKES_TURN_UP, EVERYONE, dealer, self._turn_up))
        elif self._trick_no > TRICKS:
            self._end_deal(winner)

    # --- scoring -------------------------------------------------------------------------------

    def _end_deal(self, last_winner: Seat) -> None:
        """§1.5: eyes in tricks, 10 for the last trick, the discards to the dealer; stångs."""
        dealer = self._dealer
        pair = tuple(cards_in(self._discards))
        record = DealRecord(
            partie=self._partie,
            deal=self._deal_in_partie,
            dealer=dealer,
            trick_eyes=tuple(self._trick_eyes),
            last_trick=last_winner,
            discards=(pair[0], pair[1]),
            discard_eyes=rules.eyes_of(pair, self._t.trump),
            stangs=tuple(n == 0 for n in self._tricks_won),
            capture=tuple(self._deal_capture),
        )
        self._deals.append(record)
        self._events.append(
            (E_DISCARDS_SHOWN, EVERYONE, dealer, pair[0], pair[1], record.discard_eyes)
        )
        for s in range(PLAYERS):
            last = LAST_TRICK_EYES if s == last_winner else 0
            own = record.discard_eyes if s == dealer else 0
            self._events.append(
                (E_DEAL_SCORE, EVERYONE, s, record.trick_eyes[s], last, own, record.eyes(s))
            )
        for s in range(PLAYERS):
            if record.stangs[s]:
                self._events.append((E_STANG, EVERYONE, s))
        if self._deal_in_partie == DEALS_PER_PARTIE:
            self._end_partie()
            if len(self._parties) == self.options.parties:
                self._end_session()
                return
            self._partie += 1
            self._deal_in_partie = 0
            if not self.options.carry_last_dealer:
                self._dealer = (dealer + 1) % PLAYERS
            self._events.append((E_PARTIE, EVERYONE, self._partie))
        else:
            self._dealer = (dealer + 1) % PLAYERS
        self._start_deal()

    def partie_eyes(self) -> list[int]:
        """Each seat's eyes in the deals of the current partie played so far."""
        return [sum(d.eyes(s) for d in self._partie_deals(self._partie)) for s in range(PLAYERS)]

    def partie_stangs(self) -> list[int]:
        return [sum(d.stangs[s] for d in self._partie_deals(self._partie)) for s in range(PLAYERS)]

    def _partie_deals(self, partie: int) -> list[DealRecord]:
        return [d for d in self._deals if d.partie == partie]

    def _end_partie(self) -> None:
        """§1.6: win and loss in stakes, then the pairwise stång payments."""
        eyes, stangs = self.partie_eyes(), self.partie_stangs()
        payments = settle_partie(eyes, stangs)
        win_loss = net_stakes(p for p in payments if p[3] != STANG)
        stang_stakes = net_stakes(p for p in payments if p[3] == STANG)
        capture = [sum(d.capture[s] for d in self._partie_deals(self._partie)) for s in range(3)]
        record = PartieRecord(
            self._partie,
            tuple(eyes),
            tuple(stangs),
            tuple(win_loss),
            tuple(stang_stakes),
            tuple(capture),
        )
        self._parties.append(record)
        winners = rules.partie_winners(eyes)
        if not winners:
            self._events.append((E_ALL_EVEN, EVERYONE))
        for w in winners:
            kind = E_PARTIE_WON if len(winners) == 1 else E_PARTIE_TIED
            self._events.append((kind, EVERYONE, w, eyes[w]))
        for s in range(PLAYERS):
            if winners and s not in winners and eyes[s] >= rules.DEAL_EYES:
                self._events.append((E_EVEN, EVERYONE, s, eyes[s]))
        for payer, payee, amount, kind in payments:
            if kind == STANG:
                self._events.append((E_STANG_PAID, EVERYONE, payer, payee, amount))
            else:
                self._events.append((E_LOSS, EVERYONE, payer, payee, amount, eyes[payer]))
        for s in range(PLAYERS):
            self._stakes[s] += win_loss[s] + stang_stakes[s]
        self._events.append((E_PARTIE_NET, EVERYONE, self._partie))

    def _end_session(self) -> None:
        self._phase = _OVER
        places = self.result().places
        if all(place == 1 for place in places):
            self._events.append((E_SESSION_WON, EVERYONE, -1, 0))
            return
        for s, place in enumerate(places):
            if place == 1:
                self._events.append((E_SESSION_WON, EVERYONE, s, self._stakes[s]))

    def is_over(self) -> bool:
        return self._phase == _OVER

    def deal_number(self) -> int:
        return self._deal_no

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self._hands[seat])

    def result(self) -> Result:
        if self._phase != _OVER:
            raise ValueError("the match is not over")
        return Result.by_score(self._stakes)

    # --- what each seat sees -------------------------------------------------------------------

    def view(self, seat: Seat | None) -> View:
        eyes, stangs = self.partie_eyes(), self.partie_stangs()
        seats = tuple(
            SeatView(
                cards=self._hands[s].bit_count(),
                score=self._stakes[s],
                tricks=self._tricks_won[s],
                shown=mask_cards(self._shown[s]),
                notes=(Msg.of("reunion.note.partie", eyes=eyes[s], stangs=stangs[s]),),
            )
            for s in range(PLAYERS)
        )
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase_msg(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=seats,
            trick=tuple(((self._leader + i) % PLAYERS, Card(c)) for i, c in enumerate(self._trick)),
            trump=self._t.trump,
            piles=self._piles(seat),
            events=self._events_for(seat),
            notes=self._notes(seat),
            deal=self._deal_no,
            dealer=self._dealer,
            sheet=self.sheet(),
        )

    def _phase_msg(self) -> Msg:
        if self._phase == _OVER:
            return Msg.of("table.phase.over")
        where = {"partie": self._partie, "deal": self._deal_in_partie}
        if self._phase == _DISCARD:
            return Msg.of("reunion.phase.discard", seat=self._dealer, **where)
        return Msg.of("reunion.phase.tricks", trick=self._trick_no, **where)

    def _piles(self, seat: Seat | None) -> tuple[Pile, ...]:
        piles: list[Pile] = []
        if not self._turn_up_taken:
            piles.append(Pile("reunion.pile.turn_up", (Card(self._turn_up),)))
        if self._discards:
            if seat == self._dealer:
                own = mask_cards(self._discards)
                piles.append(Pile("reunion.pile.discards", own, seat=self._dealer))
            else:
                piles.append(Pile("reunion.pile.discards", hidden=2, seat=self._dealer))
        last = self._last_trick
        for s in range(PLAYERS):
            hidden = PLAYERS * self._tricks_won[s]
            if last is not None and last[0] == s:
                hidden -= PLAYERS
            piles.append(Pile("table.pile.won_tricks", hidden=hidden, seat=s))
        if last is not None:
            piles.append(Pile("table.pile.last_trick", cards_tuple(last[1]), seat=last[0]))
        return tuple(piles)

    def _notes(self, seat: Seat | None) -> tuple[Msg, ...]:
        if seat is None or seat != self._dealer or not self._discards:
            return ()
        pair = list(cards_in(self._discards))
        eyes = rules.eyes_of(pair, self._t.trump)
        return (Msg.of("reunion.note.my_discards", cards=codes(pair), eyes=eyes),)

    def _events_for(self, seat: Seat | None) -> tuple[Msg, ...]:
        who = EVERYONE if seat is None else seat
        picked: list[Event] = []
        for event in reversed(self._events):
            if event[1] == EVERYONE or event[1] == who:
                picked.append(event)
                if len(picked) == EVENTS_KEPT:
                    break
        return tuple(message(e) for e in reversed(picked))

    def sheet(self) -> ScoreSheet:
        """The score sheet (protokoll): earlier parties as one line of stakes each; the current
        partie (or, before its first deal is over, the one just finished) item by item: each
        deal's eyes in tricks, the last trick, the discards, stångs, capture stakes and sum; then
        the partie's settlement and the stakes of the session so far."""
        columns = tuple(Msg.of("reunion.sheet.seat", seat=s) for s in range(PLAYERS))
        detail = self._partie
        if not self._partie_deals(detail) and detail > 1:
            detail -= 1
        rows: list[SheetRow] = []
        for p in self._parties:
            if p.partie != detail:
                rows.append(SheetRow(Msg.of("reunion.sheet.partie_stakes", partie=p.partie), p.net))
        deals = self._partie_deals(detail)
        if deals:
            rows.append(SheetRow(Msg.of("reunion.sheet.partie", partie=detail), (None,) * PLAYERS))
        for d in deals:
            rows.extend(deal_rows(d))
        for p in self._parties:
            if p.partie == detail:
                rows.extend(partie_rows(p))
        if self._parties:
            rows.append(SheetRow(Msg.of("reunion.sheet.session"), tuple(self._session_stakes())))
        return ScoreSheet(columns, tuple(rows))

    def _session_stakes(self) -> list[int]:
        """Stakes of the finished parties (capture stakes of the partie in play not included)."""
        return [sum(p.net[s] for p in self._parties) for s in range(PLAYERS)]

    # --- copies --------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Reunion:
        """Re-deal the cards hidden from ``seat``: the other hands (but the turn-up the dealer
        took, which everyone saw) and, unless ``seat`` dealt, the two discards, which hold no
        ace and no bower. A seat that showed out of a suit gets none of it (§1.11)."""
        other = self.clone(rng)
        other._decks = None
        t = self._t
        places: list[tuple[str, int, int]] = []  # (where, seat, allowed cards)
        for s in range(PLAYERS):
            if s == seat:
                continue
            void = 0
            for suit in range(4):
                if self._voids[s] >> suit & 1:
                    void |= t.suit_masks[suit]
            places.append(("hand", s, DECK_MASK & ~void))
        if seat != self._dealer and self._discards:
            places.append(("discards", self._dealer, DECK_MASK & ~t.no_discard))
        hidden = [self._hidden_part(where, s) for where, s, _ in places]
        dealt = redeal(
            [(h.bit_count(), allowed) for h, (_, _, allowed) in zip(hidden, places, strict=True)],
            [c for h in hidden for c in cards_in(h)],
            rng,
        )
        for (where, s, _), mask in zip(places, dealt, strict=True):
            if where == "hand":
                other._hands[s] = mask | self._shown[s]
            else:
                other._discards = mask
        return other

    def _hidden_part(self, where: str, s: Seat) -> int:
        if where == "hand":
            return self._hands[s] & ~self._shown[s]
        return self._discards

    # --- notation ------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return rules.notation(action)

    def parse(self, text: str) -> Action:
        return rules.parse(text)


def new_match(
    players: int, options: ReunionOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    """The factory of the game's spec."""
    if players != PLAYERS:
        raise OptionError(f"reunion is played by 3 players, not {players}")
    return Reunion(options, rng, decks)
