"""The state of a Nittionio match and the game contract over it (rules in the package docstring).

Hands and bid cards are bit masks; ``apply`` changes the state in place and plays every automatic
step (passes after a reveal, dealing the next deal) itself.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from games.cards import (
    JOKER,
    Card,
    cards_in,
    cards_tuple,
    code,
    codes,
    deal_deck,
    mask_cards,
    randbelow,
    rank_of,
    suit_of,
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
    Seat,
    SeatView,
    View,
    competition_places,
)
from games.nittionio import actions
from games.nittionio.actions import (
    DECLARE,
    PASS,
    REVEAL,
    WORDS,
    bid_actions,
    bid_cards,
    in_bid_order,
)
from games.nittionio.deck import (
    BIT,
    FULL_DECK,
    PLAYERS,
    SHORT_DECK,
    TABLES,
    TRUMP_BY_SUCCESSES,
    bid_value,
    cards_list,
)
from games.nittionio.scoring import (
    NINE_DEALS,
    PREMIUM_BONUS,
    RUBBER_GAMES,
    deal_points,
    game_bonuses,
    game_winner,
    rubber_bonus,
)
from games.tricks import outside_voids, redeal, trick_winner

_BIDDING, _PREMIUM, _TRICKS, _OVER = range(4)
_PHASES = (
    Msg.of("nittionio.phase.bid_cards"),
    Msg.of("nittionio.phase.premium"),
    Msg.of("nittionio.phase.tricks"),
    Msg.of("table.phase.over"),
)
_SEAT_SETS = tuple(frozenset(s for s in range(PLAYERS) if m >> s & 1) for m in range(8))
_ONLY = tuple(frozenset({s}) for s in range(PLAYERS))
_ALL_WAITING = 0b111

# Events are kept as compact tuples ``(kind, *ints)`` while playing and become Msgs only in
# ``view``: building a Msg costs more than the rest of a card play. Every event is public.
EVENTS_KEPT = 16
E_DEAL, E_TURN_UP, E_JOKER_AS, E_TRUMP, E_BID_LAID, E_PREMIUM, E_HAND_SHOWN = range(7)
E_BID_SHOWN, E_PLAYED, E_TRICK_WON, E_MADE, E_MISSED, E_PREMIUM_MADE = range(7, 13)
E_PREMIUM_FAILED, E_GAME_STARTED, E_GAME_WON, E_GAME_BONUS, E_RUBBER_WON = range(13, 18)
E_MATCH_WON = 18
Event = tuple[int, ...]
NO_TRUMP = -1  # E_TRUMP's suit when there is none

# Messages sent many times per deal are built once.
_PLAYED = tuple(
    tuple(Msg.of("nittionio.event.played", seat=s, card=code(c)) for c in range(JOKER + 1))
    for s in range(PLAYERS)
)
_TRICK_WON = tuple(
    tuple(Msg.of("table.event.trick_won", seat=s, card=code(c)) for c in range(JOKER + 1))
    for s in range(PLAYERS)
)
_TRUMP = tuple(Msg.of("table.event.trump", suit=suit) for suit in "CDHS")
_BID_LAID = tuple(Msg.of("nittionio.event.bid_laid", seat=s) for s in range(PLAYERS))
_PREMIUM_EVENTS = {
    action: tuple(Msg.of(f"nittionio.event.{name}", seat=s) for s in range(PLAYERS))
    for action, name in ((PASS, "passed"), (DECLARE, "declared"), (REVEAL, "revealed"))
}


_MESSAGES: dict[int, Callable[..., Msg]] = {
    E_DEAL: lambda deal, dealer: Msg.of("table.event.deal_started", deal=deal, seat=dealer),
    E_TURN_UP: lambda card: Msg.of("nittionio.event.turn_up", card=code(card)),
    E_JOKER_AS: lambda card: Msg.of("nittionio.event.joker_as", card=code(card)),
    E_TRUMP: lambda suit: Msg.of("table.event.no_trump") if suit == NO_TRUMP else _TRUMP[suit],
    E_BID_LAID: _BID_LAID.__getitem__,
    E_PREMIUM: lambda seat, action: _PREMIUM_EVENTS[action][seat],
    E_HAND_SHOWN: lambda seat, hand: Msg.of(
        "nittionio.event.hand_shown", seat=seat, cards=codes(cards_in(hand))
    ),
    E_BID_SHOWN: lambda seat, cards, bid: Msg.of(
        "nittionio.event.bid_cards_shown", seat=seat, cards=codes(in_bid_order(cards)), bid=bid
    ),
    E_PLAYED: lambda seat, card: _PLAYED[seat][card],
    E_TRICK_WON: lambda seat, card: _TRICK_WON[seat][card],
    E_MADE: lambda seat, bid, tricks, points: Msg.of(
        "nittionio.event.made", bid=bid, seat=seat, tricks=tricks, points=points
    ),
    E_MISSED: lambda seat, tricks, points, bid: (
        Msg.of("nittionio.event.missed", seat=seat, tricks=tricks, points=points)
        if bid < 0
        else Msg.of("nittionio.event.missed_bid", seat=seat, bid=bid, tricks=tricks, points=points)
    ),
    E_PREMIUM_MADE: lambda seat, points: Msg.of(
        "nittionio.event.premium_made", seat=seat, points=points
    ),
    E_PREMIUM_FAILED: lambda seat, points: Msg.of(
        "nittionio.event.premium_failed", seat=seat, points=points
    ),
    E_GAME_STARTED: lambda game: Msg.of("nittionio.event.game_started", game=game),
    E_GAME_WON: lambda seat, game: Msg.of("nittionio.event.game_won", seat=seat, game=game),
    E_GAME_BONUS: lambda seat, points: Msg.of(
        "nittionio.event.game_bonus", seat=seat, points=points
    ),
    E_RUBBER_WON: lambda seat, games, points: Msg.of(
        "nittionio.event.rubber_won", seat=seat, games=games, points=points
    ),
    E_MATCH_WON: lambda seat, points: Msg.of("nittionio.event.match_won", seat=seat, points=points),
}
"""How each kind of event reads as a message."""

_EVENT_MSGS: dict[Event, Msg] = {}
"""Messages already built, by event: every view shows the same recent events again."""
_EVENT_MSGS_KEPT = 20_000


def _event_msg(event: Event) -> Msg:
    found = _EVENT_MSGS.get(event)
    if found is None:
        if len(_EVENT_MSGS) >= _EVENT_MSGS_KEPT:
            _EVENT_MSGS.clear()
        found = _EVENT_MSGS[event] = _MESSAGES[event[0]](*event[1:])
    return found


_HIDDEN_BID_PILES = tuple(
    Pile("nittionio.pile.bid_cards", hidden=3, seat=s) for s in range(PLAYERS)
)
_WON_TRICKS_PILES = tuple(
    tuple(Pile("table.pile.won_tricks", hidden=PLAYERS * n, seat=s) for n in range(13))
    for s in range(PLAYERS)
)


@functools.lru_cache(maxsize=4096)
def _face_up_bid_pile(bid_cards: int, seat: Seat) -> Pile:
    return Pile("nittionio.pile.bid_cards", cards_tuple(in_bid_order(bid_cards)), seat=seat)


@functools.lru_cache(maxsize=4096)
def _my_bid_note(bid_cards: int, bid: int) -> Msg:
    return Msg.of("nittionio.note.my_bid", cards=codes(in_bid_order(bid_cards)), bid=bid)


@dataclass(frozen=True)
class NittionioOptions(Options):
    """``scoring``: "main" plays the variant's own game; "rubber" plays games to 100 in a rubber
    (V1). ``variant``: "standard", "pennycook" (V2) or "trump_by_success" (V3)."""

    scoring: Literal["main", "rubber"] = "main"
    variant: Literal["standard", "pennycook", "trump_by_success"] = "standard"


# --- the match ------------------------------------------------------------------------------------


class Nittionio(Game):
    game_id = "nittionio"
    # slots: the hot path reads these attributes on every action
    __slots__ = (
        "_bid_cards",
        "_bid_values",
        "_bids",
        "_by_success",
        "_deal_no",
        "_dealer",
        "_deals_in_game",
        "_deck",
        "_decks",
        "_events",
        "_face_up_bids",
        "_first_dealer",
        "_game_no",
        "_game_scores",
        "_games_won",
        "_hands",
        "_last_trick",
        "_last_winner",
        "_leader",
        "_phase",
        "_power_table",
        "_premium",
        "_premium_seat",
        "_premiums",
        "_rubber",
        "_rubber_winner",
        "_successes",
        "_suit_masks",
        "_suit_table",
        "_target",
        "_totals",
        "_trick",
        "_tricks",
        "_trump",
        "_turn",
        "_turn_up",
        "_voids",
        "_waiting",
        "options",
        "rng",
    )
    # what apply changes in place: a clone copies these
    copied = (
        "_events",
        "_hands",
        "_bid_cards",
        "_bids",
        "_tricks",
        "_voids",
        "_trick",
        "_totals",
        "_game_scores",
        "_games_won",
    )

    def __init__(
        self, options: NittionioOptions, rng: random.Random, decks: list[list[int]] | None
    ) -> None:
        if options.variant == "pennycook" and options.scoring == "rubber":
            raise OptionError(
                "Pennycook's variant is one game to 150; it has no rubber scoring",
                Msg.of("nittionio.options_error.pennycook_rubber"),
            )
        self.options = options
        self.rng = rng
        self._decks = decks
        self._rubber = options.scoring == "rubber"
        self._premiums = options.variant != "pennycook"
        self._by_success = options.variant == "trump_by_success"
        self._deck = SHORT_DECK if self._by_success else FULL_DECK
        if options.variant == "pennycook":
            self._target = 150
        elif self._rubber or self._by_success:
            self._target = 100
        else:
            self._target = 0  # the main game: nine deals
        self._events: list[Event] = []
        self._totals = [0] * PLAYERS  # the match score (the rubber ledger in V1)
        self._game_scores = [0] * PLAYERS
        self._games_won = [0] * PLAYERS
        self._game_no = 1
        self._deal_no = 0
        self._deals_in_game = 0
        self._first_dealer = self._dealer = randbelow(rng, PLAYERS)
        self._successes = 0  # in the previous deal (V3)
        self._rubber_winner: int | None = None
        self._start_deal()

    # --- dealing -----------------------------------------------------------------------------

    def _start_deal(self) -> None:
        self._deal_no += 1
        self._deals_in_game += 1
        deck = deal_deck(self._decks, self._deal_no - 1, self._deck, self.rng)
        forehand = (self._dealer + 1) % PLAYERS
        self._hands = [0] * PLAYERS
        for i in range(PLAYERS):
            dealt = deck[i : PLAYERS * 12 : PLAYERS]  # one card at a time from forehand
            self._hands[(forehand + i) % PLAYERS] = sum(map(BIT.__getitem__, dealt))
        del self._events[:-EVENTS_KEPT]  # keep the list short; a view shows the last ones
        self._events.append((E_DEAL, self._deal_no, self._dealer))
        if self._by_success:
            self._turn_up: int | None = None
            first = self._deals_in_game == 1
            self._trump = None if first else TRUMP_BY_SUCCESSES[self._successes]
        else:
            self._turn_up = turn_up = deck[PLAYERS * 12]
            self._events.append((E_TURN_UP, turn_up))
            if turn_up != JOKER:
                self._events.append((E_JOKER_AS, turn_up))
            plain = turn_up == JOKER or rank_of(turn_up) == 9
            self._trump = None if plain else suit_of(turn_up)
        self._suit_table, self._power_table, self._suit_masks, self._bid_values = TABLES[
            self._turn_up
        ]
        self._events.append((E_TRUMP, NO_TRUMP if self._trump is None else self._trump))
        self._bid_cards = [0] * PLAYERS
        self._bids = [0] * PLAYERS
        self._waiting = _ALL_WAITING  # seats that have not laid their bid cards
        self._face_up_bids = 0  # seats whose bid cards everyone has seen
        self._premium = PASS
        self._premium_seat: int | None = None
        self._tricks = [0] * PLAYERS
        self._voids = [0] * PLAYERS  # suits each seat has shown it lacks (bit per suit)
        self._trick: list[int] = []
        self._last_trick: tuple[int, ...] = ()  # face up until the deal ends
        self._last_winner = 0
        self._leader = self._turn = forehand
        self._phase = _BIDDING

    @property
    def _forehand(self) -> int:
        return (self._dealer + 1) % PLAYERS

    # --- the contract ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return PLAYERS

    def to_act(self) -> frozenset[Seat]:
        phase = self._phase
        if phase == _BIDDING:
            return _SEAT_SETS[self._waiting]
        return _SEAT_SETS[0] if phase == _OVER else _ONLY[self._turn]

    def legal_actions(self, seat: Seat) -> list[Action]:
        phase = self._phase
        if phase == _TRICKS:
            if seat != self._turn:
                return []
            hand = self._hands[seat]
            trick = self._trick
            if trick:  # follow suit if able
                hand = hand & self._suit_masks[self._suit_table[trick[0]]] or hand
            return cards_list(hand)
        if phase == _BIDDING:
            if not (0 <= seat < PLAYERS and self._waiting >> seat & 1):
                return []
            return bid_actions(self._hands[seat])
        if phase == _PREMIUM and seat == self._turn:
            return [PASS, REVEAL] if self._premium == DECLARE else [PASS, DECLARE, REVEAL]
        return []

    def apply(self, seat: Seat, action: Action) -> None:
        if self._phase != _TRICKS:
            self._apply_before_tricks(seat, action)
            return
        # playing a card: the hot path, in one function
        if seat != self._turn:
            raise IllegalActionError("it is not your turn")
        hand = self._hands[seat]
        card = action
        if not (0 <= card <= JOKER and hand >> card & 1):
            raise IllegalActionError(f"{self.notation_or_raw(card)} is not a card in your hand")
        trick = self._trick
        if trick:
            led = self._suit_table[trick[0]]
            if self._suit_table[card] != led:
                if hand & self._suit_masks[led]:
                    raise IllegalActionError("you must follow suit")
                self._voids[seat] |= 1 << led
        self._hands[seat] = hand ^ 1 << card
        trick.append(card)
        self._events.append((E_PLAYED, seat, card))
        if len(trick) < PLAYERS:
            self._turn = (seat + 1) % PLAYERS
            return
        best = trick_winner(trick, self._trump, self._suit_table, self._power_table)
        winner = (self._leader + best) % PLAYERS
        self._tricks[winner] += 1
        self._events.append((E_TRICK_WON, winner, trick[best]))
        self._last_trick, self._last_winner = tuple(trick), winner
        self._trick = []
        self._leader = self._turn = winner
        if not self._hands[winner]:
            self._end_deal()

    def _apply_before_tricks(self, seat: Seat, action: Action) -> None:
        if self._phase == _BIDDING:
            self._lay_bid_cards(seat, action)
        elif self._phase == _PREMIUM:
            self._premium_bid(seat, action)
        else:
            raise IllegalActionError("the match is over")

    def _lay_bid_cards(self, seat: Seat, action: Action) -> None:
        if seat not in _SEAT_SETS[self._waiting]:
            raise IllegalActionError("you have already laid your bid cards")
        cards = bid_cards(action)
        if cards is None or cards & ~self._hands[seat]:
            raise IllegalActionError("lay exactly three cards of your hand as bid cards")
        self._hands[seat] ^= cards
        self._bid_cards[seat] = cards
        self._bids[seat] = sum(map(self._bid_values.__getitem__, cards_list(cards)))
        self._waiting &= ~(1 << seat)
        self._events.append((E_BID_LAID, seat))
        if self._waiting:
            return
        if self._premiums:
            self._phase = _PREMIUM
            self._turn = self._forehand
        else:
            self._phase = _TRICKS

    def _premium_bid(self, seat: Seat, action: Action) -> None:
        if seat != self._turn:
            raise IllegalActionError("it is not your turn")
        if action not in WORDS or (action == DECLARE and self._premium == DECLARE):
            raise IllegalActionError(f"{self.notation_or_raw(action)} is not allowed now")
        self._events.append((E_PREMIUM, seat, action))
        if action != PASS:
            self._premium, self._premium_seat = action, seat
        # after a reveal everyone still to speak can only pass: the round ends here
        if action == REVEAL or seat == self._dealer:
            self._end_premium_round()
        else:
            self._turn = (seat + 1) % PLAYERS

    def _end_premium_round(self) -> None:
        premium_seat = self._premium_seat
        if premium_seat is not None:
            self._show_bid_cards(premium_seat)
            if self._premium == REVEAL:
                self._events.append((E_HAND_SHOWN, premium_seat, self._hands[premium_seat]))
        self._phase = _TRICKS
        self._leader = self._turn = self._forehand

    def _show_bid_cards(self, seat: Seat) -> None:
        self._face_up_bids |= 1 << seat
        self._events.append((E_BID_SHOWN, seat, self._bid_cards[seat], self._bids[seat]))

    # --- the end of a deal, a game, the match -------------------------------------------------

    def _end_deal(self) -> None:
        bids, tricks = self._bids, self._tricks
        points = deal_points(bids, tricks, self._premium_seat, self._premium)
        # each seat's line says its tricks and bonus; the premium has its own line (§2.3)
        bid_points = deal_points(bids, tricks)
        made = [b == t for b, t in zip(bids, tricks, strict=True)]
        for s in range(PLAYERS):
            if made[s] and not self._face_up_bids >> s & 1:
                self._show_bid_cards(s)
        for s in range(PLAYERS):
            if made[s]:
                self._events.append((E_MADE, s, bids[s], tricks[s], bid_points[s]))
            else:  # a bid that went down stays face down unless it was declared (the seed)
                shown = bids[s] if self._face_up_bids >> s & 1 else -1
                self._events.append((E_MISSED, s, tricks[s], bid_points[s], shown))
            self._game_scores[s] += points[s]
            self._totals[s] += points[s]
        self._successes = sum(made)
        if self._premium_seat is not None:
            outcome = E_PREMIUM_MADE if made[self._premium_seat] else E_PREMIUM_FAILED
            self._events.append((outcome, self._premium_seat, PREMIUM_BONUS[self._premium]))
        if self._target:
            winner = game_winner(self._game_scores, self._target)
            game_over = winner is not None
        else:
            winner, game_over = None, self._deals_in_game == NINE_DEALS
        if not game_over:
            self._dealer = (self._dealer + 1) % PLAYERS
            self._start_deal()
        elif self._rubber and winner is not None:
            self._end_rubber_game(winner)
        else:
            self._end_match()

    def _end_rubber_game(self, winner: Seat) -> None:
        """V1: the game's bonuses, then the next game or, after a third win, the end."""
        self._games_won[winner] += 1
        played = self._game_no
        self._events.append((E_GAME_WON, winner, played))
        for s, bonus in enumerate(game_bonuses(self._game_scores, winner)):
            if bonus:
                self._totals[s] += bonus
                self._events.append((E_GAME_BONUS, s, bonus))
        if self._games_won[winner] == RUBBER_GAMES:
            bonus = rubber_bonus(played)
            self._totals[winner] += bonus
            self._rubber_winner = winner
            self._events.append((E_RUBBER_WON, winner, played, bonus))
            self._end_match()
            return
        # a new game from 0, whose first deal each player deals in turn
        self._game_no += 1
        self._deals_in_game = 0
        self._game_scores = [0] * PLAYERS
        self._first_dealer = self._dealer = (self._first_dealer + 1) % PLAYERS
        self._events.append((E_GAME_STARTED, self._game_no))
        self._start_deal()

    def _end_match(self) -> None:
        self._phase = _OVER
        places = self.result().places
        for s in range(PLAYERS):
            if places[s] == 1:
                self._events.append((E_MATCH_WON, s, self._totals[s]))

    def is_over(self) -> bool:
        return self._phase == _OVER

    def deal_number(self) -> int:
        return self._deal_no

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self._hands[seat])

    def result(self) -> Result:
        if self._phase != _OVER:
            raise ValueError("the match is not over")
        winner = self._rubber_winner
        if winner is None:
            return Result.by_score(self._totals)
        # the rubber winner comes first; the others are ranked by their ledger
        keys = [float("-inf") if s == winner else -t for s, t in enumerate(self._totals)]
        return Result(tuple(self._totals), competition_places(keys))

    # --- what each seat sees -------------------------------------------------------------------

    def view(self, seat: Seat | None) -> View:
        phase = self._phase
        revealed = self._premium_seat if self._premium == REVEAL else None
        # only the premium's seat has notes, but while bidding or in the rubber every seat
        every_seat_notes = self._rubber or phase == _BIDDING
        seats = tuple(
            SeatView(
                cards=self._hands[s].bit_count(),
                score=self._totals[s],
                tricks=self._tricks[s],
                shown=mask_cards(self._hands[s]) if s == revealed else (),
                notes=(
                    self._public_notes(s) if every_seat_notes or s == self._premium_seat else ()
                ),
            )
            for s in range(PLAYERS)
        )
        piles = (
            []
            if self._turn_up is None
            else [Pile("nittionio.pile.turn_up", (Card(self._turn_up),))]
        )
        for s in range(PLAYERS):
            if self._bid_cards[s]:
                if self._face_up_bids >> s & 1:
                    piles.append(_face_up_bid_pile(self._bid_cards[s], s))
                else:
                    piles.append(_HIDDEN_BID_PILES[s])
            if self._last_trick and s == self._last_winner:  # its last trick lies face up
                piles.append(_WON_TRICKS_PILES[s][self._tricks[s] - 1])
            else:
                piles.append(_WON_TRICKS_PILES[s][self._tricks[s]])
        if self._last_trick:
            piles.append(
                Pile(
                    "table.pile.last_trick",
                    tuple(map(Card, self._last_trick)),
                    seat=self._last_winner,
                )
            )
        notes: tuple[Msg, ...] = ()
        if seat is not None and self._bid_cards[seat]:
            notes = (_my_bid_note(self._bid_cards[seat], self._bids[seat]),)
        return View(
            game=self.game_id,
            seat=seat,
            phase=_PHASES[phase],
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=seats,
            trick=tuple(((self._leader + i) % PLAYERS, Card(c)) for i, c in enumerate(self._trick)),
            trump=self._trump,
            no_trump=self._trump is None,  # a nine or the joker turned up (or no trump this deal)
            # the joker is an exact copy of the turn-up, in play and as a bid card
            joker=None if self._turn_up in (None, JOKER) else Card(self._turn_up),
            piles=tuple(piles),
            events=tuple(map(_event_msg, self._events[-EVENTS_KEPT:])),
            notes=notes,
            deal=self._deal_no,
            dealer=self._dealer,
        )

    def worth(self, seat: Seat, verb: str, cards: Sequence[int]) -> Msg | None:
        """The bid that bid cards make (N1: ♦ 0, ♠ 1, ♥ 2, ♣ 3; the joker as the turn-up's
        suit), for the bid-card picker."""
        if verb != "bid":
            return None
        values = TABLES[self._turn_up][3]
        return Msg.of("nittionio.pick.bid", bid=sum(values[c] for c in cards))

    def _public_notes(self, s: Seat) -> tuple[Msg, ...]:
        notes = []
        if self._phase == _BIDDING and self._bid_cards[s]:
            notes.append(Msg.of("nittionio.note.bid_laid"))
        if s == self._premium_seat:
            name = "declared" if self._premium == DECLARE else "revealed"
            if self._face_up_bids >> s & 1:
                notes.append(Msg.of(f"nittionio.note.{name}_bid", bid=self._bids[s]))
            else:
                notes.append(Msg.of(f"nittionio.note.{name}"))
        if self._rubber:
            notes.append(Msg.of("nittionio.note.game_score", points=self._game_scores[s]))
            notes.append(Msg.of("nittionio.note.games_won", games=self._games_won[s]))
        return tuple(notes)

    # --- copies ------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Nittionio:
        other = self.clone(rng)
        other._decks = None  # explicit future decks would tell the future
        # hidden places: the other seats' hands (unless revealed) and face-down bid cards
        revealed = self._premium_seat if self._premium == REVEAL else None
        places: list[tuple[list[int], Seat, int]] = []  # (list holding it, seat, void suits)
        for s in range(PLAYERS):
            if s == seat:
                continue
            if s != revealed:
                places.append((other._hands, s, self._voids[s]))
            if self._bid_cards[s] and not self._face_up_bids >> s & 1:
                places.append((other._bid_cards, s, 0))
        pool = [c for where, s, _ in places for c in cards_in(where[s])]
        suit = self._suit_table.__getitem__
        dealt = redeal(
            [
                (where[s].bit_count(), outside_voids(pool, voids, suit))
                for where, s, voids in places
            ],
            pool,
            rng,
            order=sorted(range(len(places)), key=lambda i: -places[i][2].bit_count()),
        )
        for (where, s, _), mask in zip(places, dealt, strict=True):
            where[s] = mask
        for s in range(PLAYERS):
            other._bids[s] = bid_value(other._bid_cards[s], self._turn_up)
        return other

    # --- notation ----------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return actions.notation(action)

    def parse(self, text: str) -> Action:
        return actions.parse(text)


def new_match(
    players: int, options: NittionioOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    """The factory of the game's spec."""
    if players != PLAYERS:
        raise OptionError(f"nittionio is played by 3 players, not {players}")
    return Nittionio(options, rng, decks)
