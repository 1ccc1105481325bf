"""The state of a Femhundra match and the game contract over it (rules in the package docstring).

Hands are bit masks; ``apply`` changes the state in place and plays every automatic step itself
(the partner answering a call, laying out an open-misère hand, setting aside the misère partner's
hand, scoring, the next deal).
"""

from __future__ import annotations

import random

from games.bidding import FIRST_BID, Auction
from games.cards import (
    JOKER,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    Card,
    cards_in,
    cards_tuple,
    codes,
    deal_deck,
    mask_cards,
    mask_of,
    randbelow,
)
from games.core import (
    Action,
    Game,
    IllegalActionError,
    Msg,
    OptionError,
    Pile,
    Result,
    ScoreSheet,
    Seat,
    SeatView,
    SheetRow,
    View,
    competition_places,
)
from games.femhundra import rules
from games.femhundra.events import (
    E_ALL_PASS,
    E_ASIDE,
    E_BACK_DOOR,
    E_BID,
    E_CALL,
    E_CALL_WIDOW,
    E_CAPPED,
    E_CONTRACT,
    E_DEAL,
    E_DISCARDED,
    E_FAILED,
    E_JOKER_LED,
    E_MADE,
    E_PASS,
    E_PLAYED,
    E_SHOWN,
    E_SOLO,
    E_TRICK,
    E_TRICK_POINTS,
    E_WON,
    GAME_ID,
    Event,
    bid_msg,
    message,
)
from games.femhundra.rules import (
    BID_BASE,
    CALL,
    JOKER_LEAD,
    MISERE,
    MISERE_LADDER,
    OPEN_MISERE,
    PLAIN_LADDER,
    SEVEN_SPADES,
    SOLO,
    STRAIN_SUIT,
    TARGET,
    TRICKS,
    FemhundraOptions,
    cards_list,
    discard_cards,
)
from games.tricks import (
    PLAIN_POWER,
    PLAIN_SUIT,
    bower_tables,
    outside_voids,
    redeal,
    trick_winner,
)

_AUCTION, _CALL, _DISCARD, _TRICKS, _OVER = range(5)
JOKER_BIT = 1 << JOKER
NO_JOKER = 4  # void bit: a misère follower who discarded holds no joker (it would be compulsory)
CALLED_FROM_TALONG = 5  # void bit: five players, the called card nobody answered is the declarer's
EVENTS_KEPT = 14
_ONLY = tuple(frozenset((s,)) for s in range(5))
_NOBODY: frozenset[int] = frozenset()
NO_TRUMP = -1
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


class Femhundra(Game):
    game_id = GAME_ID
    __slots__ = (
        "aside",
        "auction",
        "bid",
        "called",
        "dealer",
        "dealt",
        "decks",
        "declarer",
        "discards",
        "events",
        "hands",
        "history",
        "idle",
        "ladder",
        "last_trick",
        "leader",
        "led",
        "misere",
        "n",
        "next_seat",
        "options",
        "partner",
        "phase",
        "power_table",
        "reached",
        "rng",
        "scores",
        "shown",
        "sides",
        "slam",
        "suit_masks",
        "suit_table",
        "taken",
        "trick",
        "trick_seats",
        "tricks",
        "trump",
        "turn",
        "voids",
        "widow",
        "winners",
        "winning",
        "won_cards",
    )
    copied = (
        "events",
        "hands",
        "history",
        "reached",
        "scores",
        "shown",
        "voids",
        "tricks",
        "won_cards",
        "winners",
        "trick",
        "trick_seats",
        "next_seat",
        "auction",
    )

    def __init__(
        self,
        players: int,
        options: FemhundraOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        if not 2 <= players <= 5:
            raise OptionError(f"femhundra is played by 2–5 players, not {players}")
        self.n = players
        self.options = options
        self.rng = rng
        self.decks = decks
        self.ladder = MISERE_LADDER if options.misere else PLAIN_LADDER
        multi = options.auction == "multi" or players == 4
        self.slam = options.slam_bonus == "yes" or (options.slam_bonus == "auto" and not multi)
        self.sides = tuple(s % 2 for s in range(4)) if players == 4 else tuple(range(players))
        self.scores = [0] * players
        self.events: list[Event] = []
        self.history: list[tuple[int, int, int, bool | None, tuple[int, ...]]] = []
        self.reached = [TRICKS] * players
        self.dealt = 0
        self.dealer = randbelow(rng, players)
        self.phase = _AUCTION
        self.winners: list[int] = []
        self.last_trick: tuple[tuple[tuple[int, int], ...], int] | None = None
        self.winning: frozenset[int] = frozenset()
        self._start_deal()

    # --- dealing ------------------------------------------------------------------------------

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.n

    def _start_deal(self) -> None:
        n = self.n
        deck = deal_deck(self.decks, self.dealt, rules.deck_for(n), self.rng)
        self.dealt += 1
        hands = [0] * n
        pos = 0
        order = [(self.forehand + i) % n for i in range(n)]
        widow = 0
        for step in (3, -1, 4, 3):  # rules 5.3, F14: 3 each, the talong, 4 each, 3 each
            if step < 0:
                size = rules.widow_size(n)
                widow = mask_of(deck[pos : pos + size])
                pos += size
                continue
            for s in order:
                hands[s] |= mask_of(deck[pos : pos + step])
                pos += step
        self.hands = hands
        self.widow = widow
        self.taken = 0  # the talong's cards in the declarer's hand, until he discards
        self.discards = 0
        self.aside = 0
        self.shown = [0] * n
        self.voids = [0] * n
        self.tricks = [0] * n
        self.won_cards = [0] * n
        self.winners = []
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.next_seat = [(s + 1) % n for s in range(n)]
        self.led = -1
        self.last_trick = None
        self.bid = -1
        self.declarer = self.partner = self.idle = -1
        self.called = -1
        self.misere = 0  # 1 misère, 2 open misère
        self.trump = NO_TRUMP
        self.suit_table, self.power_table, self.suit_masks = PLAIN_SUIT, PLAIN_POWER, SUIT_MASKS
        multi = self.options.auction == "multi" or n == 4
        self.auction = Auction(
            self.ladder,
            order,
            base=BID_BASE,
            rounds="until_passes" if multi else "one",
            pass_final=True,  # F13: no re-entry after a pass
        )
        self.phase = _AUCTION
        self.turn = self.forehand
        self.leader = self.forehand
        self.events.append((E_DEAL, self.dealt, self.dealer))

    # --- the contract -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def to_act(self) -> frozenset[Seat]:
        phase = self.phase
        if phase == _TRICKS:
            return _ONLY[self.turn]
        if phase == _OVER:
            return _NOBODY
        if phase == _AUCTION:
            seat = self.auction.to_call()
            return _NOBODY if seat is None else _ONLY[seat]
        return _ONLY[self.declarer]

    def legal_actions(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase == _TRICKS:
            if seat != self.turn:
                return []
            return self._playable(seat)
        if phase == _AUCTION:
            legal = self.auction.legal(seat)
            if self.n == 4 and self.options.misere and self.auction.high < SEVEN_SPADES:
                # V5a: no misère bid until someone has bid at least seven
                legal = [a for a in legal if self._bid_word(a) not in (MISERE, OPEN_MISERE)]
            return legal
        if seat != self.declarer:
            return []
        if phase == _CALL:
            hand = self.hands[seat]
            return [SOLO] + [
                CALL + c for c in rules.deck_for(self.n) if not hand >> c & 1 and self._callable(c)
            ]
        if phase == _DISCARD:
            return self._discards(seat)
        return []

    def _callable(self, c: int) -> bool:
        """A card the declarer may call: no trump in the contract (F12); in sang the joker is
        no trump, so it may be called (RULINGS 7)."""
        if c == JOKER:
            return self.trump == NO_TRUMP
        return bool(self.suit_table[c] != self.trump)

    def _bid_word(self, action: Action) -> str:
        pos = action - BID_BASE - FIRST_BID
        return self.ladder.bids[pos] if 0 <= pos < len(self.ladder.bids) else ""

    def _discards(self, seat: Seat) -> list[Action]:
        return rules.discard_actions(list(cards_in(self.hands[seat])), rules.widow_size(self.n))

    def _playable(self, seat: Seat) -> list[Action]:
        hand = self.hands[seat]
        if not self.trick:
            if self.trump == NO_TRUMP and hand & JOKER_BIT:
                # rules 5.4: leading the joker names a suit the leader has not shown void in
                allowed = [s for s in range(4) if not self.voids[seat] >> s & 1] or list(range(4))
                return [*cards_list(hand & ~JOKER_BIT), *(JOKER_LEAD + s for s in allowed)]
            return cards_list(hand)
        return cards_list(self._follow_mask(seat))

    def _follow_mask(self, seat: Seat) -> int:
        hand = self.hands[seat]
        same = hand & self.suit_masks[self.led]
        if self.trump != NO_TRUMP:
            return same or hand
        joker = hand & JOKER_BIT
        if same:  # the joker counts as a card of the led suit, unless void_only (F6)
            return same | joker if self.options.nt_joker == "any_time" else same
        if joker and self.misere:  # compulsory in misère when void (V1)
            return joker
        return hand

    def apply(self, seat: Seat, action: Action) -> None:
        phase = self.phase
        if phase == _TRICKS:
            self._play(seat, action)
        elif phase == _AUCTION:
            self._call_bid(seat, action)
        elif phase == _OVER:
            raise IllegalActionError("the match is over")
        elif seat != self.declarer:
            raise IllegalActionError("the declarer is to act now")
        elif phase == _CALL:
            self._call_partner(action)
        else:
            self._discard(action)

    # --- the auction --------------------------------------------------------------------------

    def _call_bid(self, seat: Seat, action: Action) -> None:
        if seat != self.auction.to_call():
            raise IllegalActionError("it is not your turn to bid")
        if action not in self.legal_actions(seat):
            if self._bid_word(action) in (MISERE, OPEN_MISERE) and self.n == 4:
                raise IllegalActionError("no misère bid until someone has bid at least seven")
            self.auction.call(seat, action)  # raises with the auction's own message
            raise IllegalActionError(f"{self.notation_or_raw(action)} is not allowed now")
        self.auction.call(seat, action)
        if action == BID_BASE:
            self.events.append((E_PASS, seat))
        else:
            self.events.append((E_BID, seat, action - BID_BASE - FIRST_BID))
        if self.auction.is_over():
            self._end_auction()

    def _end_auction(self) -> None:
        contract = self.auction.contract()
        if contract is None:  # all passed: no trumps, no declarer, the talong set aside
            self.events.append((E_ALL_PASS,))
            self._start_tricks(self.forehand)
            return
        self.bid, self.declarer = contract.bid, contract.declarer
        word = self.ladder.bids[self.bid]
        self.misere = 1 if word == MISERE else 2 if word == OPEN_MISERE else 0
        strain = self.ladder.strain(self.bid)
        if strain is not None and strain != "NT":
            self.trump = STRAIN_SUIT[strain]
            self.suit_table, self.power_table, self.suit_masks = bower_tables(
                self.trump, joker=self.n != 2
            )
        self.events.append((E_CONTRACT, self.declarer, self.bid))
        if self.n == 4 and not self.misere:
            self.partner = (self.declarer + 2) % 4
        alone = self.options.misere and self.options.misere_partner == "never"
        if self.n == 5 and not self.misere and not alone:
            self.phase = _CALL  # V4, F12: the call comes before the talong is taken
        else:
            self._take_widow()

    def _call_partner(self, action: Action) -> None:
        if action not in self.legal_actions(self.declarer):
            if CALL <= action <= CALL + JOKER:
                raise IllegalActionError(
                    "call a card you do not hold that is not a trump in the contract"
                )
            raise IllegalActionError(f"{self.notation_or_raw(action)} is not allowed now")
        if action == SOLO:
            self.events.append((E_SOLO, self.declarer))
        else:
            c = action - CALL
            self.called = c
            holder = next((s for s in range(self.n) if self.hands[s] >> c & 1), -1)
            if holder < 0:  # in the talong: nobody answers and the declarer plays alone
                self.events.append((E_CALL_WIDOW, self.declarer, c))
            else:
                self.partner = holder
                self.shown[holder] |= 1 << c
                self.events.append((E_CALL, self.declarer, c, holder))
        self._take_widow()

    def _take_widow(self) -> None:
        self.hands[self.declarer] |= self.widow
        self.taken, self.widow = self.widow, 0
        self.phase = _DISCARD

    def _discard(self, action: Action) -> None:
        seat = self.declarer
        cards = discard_cards(action)
        size = rules.widow_size(self.n)
        if cards is None or len(cards) != size or mask_of(cards) & ~self.hands[seat]:
            raise IllegalActionError(f"discard exactly {size} cards of your hand")
        self.discards = mask_of(cards)
        self.taken = 0
        self.hands[seat] &= ~self.discards
        self.shown[seat] &= ~self.discards
        self.events.append((E_DISCARDED, seat, size))
        if self.misere == 2:  # V1, F16: the open-misère hand is spread before the first lead
            self.shown[seat] = self.hands[seat]
            self.events.append((E_SHOWN, seat, self.hands[seat]))
        if self.misere and self.n == 4:  # V5a: the partner lays his cards aside
            self.idle = (seat + 2) % 4
            self.aside = self.hands[self.idle]
            self.hands[self.idle] = 0
            self.shown[self.idle] = 0
            self.events.append((E_ASIDE, self.idle))
            before_idle = (self.idle - 1) % 4
            self.next_seat[before_idle] = (self.idle + 1) % 4
        self._start_tricks(seat)

    def _start_tricks(self, leader: Seat) -> None:
        self.phase = _TRICKS
        self.leader = self.turn = leader

    # --- trick play ---------------------------------------------------------------------------

    def _play(self, seat: Seat, action: Action) -> None:
        if seat != self.turn:
            raise IllegalActionError("it is not your turn")
        hand = self.hands[seat]
        trick = self.trick
        if JOKER_LEAD <= action < JOKER_LEAD + 4:
            if trick or self.trump != NO_TRUMP:
                raise IllegalActionError(
                    "a suit is named only when leading the joker without trumps"
                )
            card = JOKER
        else:
            card = action
        if not (0 <= card <= JOKER and hand >> card & 1):
            raise IllegalActionError(f"{self.notation_or_raw(card)} is not a card in your hand")
        if not trick:
            if card == JOKER and self.trump == NO_TRUMP:
                if action == JOKER:
                    raise IllegalActionError(
                        "name the suit the joker leads: JK C, JK D, JK H or JK S"
                    )
                if action not in self._playable(seat):
                    raise IllegalActionError("you may not name a suit you have shown void in")
                self.led = action - JOKER_LEAD
                self.events.append((E_JOKER_LED, seat, self.led))
            else:
                self.led = self.suit_table[card]
        else:
            if not self._follow_mask(seat) >> card & 1:
                if card == JOKER or hand & self.suit_masks[self.led]:
                    raise IllegalActionError(
                        f"you must follow suit: play one of your {SUIT_NAMES[self.led]}"
                    )
                raise IllegalActionError("you must play the joker when you cannot follow suit")
            if card == JOKER and self.trump == NO_TRUMP:
                # it counts as the led suit; only under void_only does it show a void (F6)
                shows_void = self.options.nt_joker == "void_only"
            else:
                shows_void = self.suit_table[card] != self.led
            if shows_void:
                self.voids[seat] |= 1 << self.led
                if self.misere:
                    self.voids[seat] |= 1 << NO_JOKER
        self.hands[seat] = hand & ~(1 << card)
        self.shown[seat] &= ~(1 << card)
        trick.append(card)
        self.trick_seats.append(seat)
        self.events.append((E_PLAYED, seat, card))
        size = self.n - (1 if self.idle >= 0 else 0)
        if len(trick) < size:
            self.turn = self.next_seat[seat]
            return
        self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self.trick
        if self.trump == NO_TRUMP and JOKER in trick:
            best = trick.index(JOKER)  # the joker is the highest card of the led suit
        elif self.trump == NO_TRUMP:
            led, best, top = self.led, 0, -1
            for i, c in enumerate(trick):
                if c // 13 == led and c % 13 > top:
                    best, top = i, c % 13
        else:
            best = trick_winner(trick, self.trump, self.suit_table, self.power_table)
        seats = self.trick_seats
        winner = seats[best]
        self.tricks[winner] += 1
        self.won_cards[winner] += len(trick)
        self.winners.append(winner)
        self.last_trick = (tuple(zip(seats, trick, strict=True)), winner)
        self.events.append((E_TRICK, winner, trick[best]))
        self.trick = []
        self.trick_seats = []
        self.leader = self.turn = winner
        if len(self.winners) == TRICKS:
            self._end_deal()
        elif len(self.events) > 8 * EVENTS_KEPT:
            del self.events[: -2 * EVENTS_KEPT]

    # --- scoring ------------------------------------------------------------------------------

    def _value(self) -> int:
        return rules.bid_value(self.ladder, self.bid, self.n) if self.bid >= 0 else 0

    def _end_deal(self) -> None:
        n = self.n
        partner = self.partner if self.idle < 0 else -1
        need = 0
        if self.bid >= 0 and not self.misere:
            level = self.ladder.level(self.bid)
            assert level is not None
            need = level
        outcome = rules.score_deal(
            n,
            self.winners,
            self.declarer,
            partner,
            self._value(),
            need,
            self.misere > 0,
            self.slam,
            self.sides,
        )
        before = list(self.scores)
        gains = list(outcome.gains)
        declaring = {self.sides[s] for s in (self.declarer, self.partner) if s >= 0}
        if n == 4:
            capped = rules.cap_defenders(
                before, gains, self.sides, declaring, outcome.made, self.options.strict_bid_out
            )
            for s in range(2):
                if gains[s] != capped[s]:
                    self.events.append((E_CAPPED, s))
            gains = capped
        for s in range(n):
            self.scores[s] += gains[s]
        if self.declarer >= 0:
            kind = E_MADE if outcome.made else E_FAILED
            self.events.append(
                (kind, self.declarer, self.bid, self._side_tricks(), gains[self.declarer])
            )
        for s in range(n):
            if self.sides[s] not in declaring and gains[s] and (n != 4 or s < 2):
                self.events.append((E_TRICK_POINTS, s, gains[s]))
        self.history.append((self.dealt, self.bid, self.declarer, outcome.made, tuple(self.scores)))
        reached = [TRICKS] * n
        for s in range(n):
            reached[self.sides[s]] = min(
                reached[self.sides[s]], rules.reached_at(before[s], outcome.credits[s])
            )
        winners = rules.game_winners(self.scores, reached, self.declarer, self.partner, self.sides)
        if winners is None:
            self.dealer = (self.dealer + 1) % n
            self._start_deal()
            return
        self.reached = reached
        self.phase = _OVER
        self.winning = winners
        back_door = max(self.scores) < TARGET
        for s in range(n):
            if self.sides[s] in winners:
                self.events.append((E_BACK_DOOR if back_door else E_WON, s, self.scores[s]))

    def _side_tricks(self) -> int:
        return sum(self.tricks[s] for s in {self.declarer, self.partner} if s >= 0)

    # --- the end ------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == _OVER

    def deal_number(self) -> int:
        return self.dealt

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.phase != _OVER:
            raise ValueError("the match is not over")
        winners = self.winning
        keys = [
            float("-inf") if self.sides[s] in winners else -self.scores[s] for s in range(self.n)
        ]
        return Result(tuple(self.scores), competition_places(keys))

    # --- what each seat sees ------------------------------------------------------------------

    def _phase_msg(self) -> Msg:
        phase = self.phase
        if phase == _OVER:
            return Msg.of("table.phase.over")
        if phase == _AUCTION:
            return Msg.of(f"{GAME_ID}.phase.auction")
        if phase == _CALL:
            return Msg.of(f"{GAME_ID}.phase.call", seat=self.declarer)
        if phase == _DISCARD:
            return Msg.of(f"{GAME_ID}.phase.discard", seat=self.declarer)
        trick = len(self.winners) + 1
        if self.bid < 0:
            return Msg.of(f"{GAME_ID}.phase.all_pass", trick=trick)
        kind, args = bid_msg(self.ladder, self.bid)
        return Msg.of(f"{GAME_ID}.phase.{kind}", seat=self.declarer, trick=trick, **args)

    def _seat_notes(self, s: Seat) -> tuple[Msg, ...]:
        notes: list[Msg] = []
        k = GAME_ID + ".note."
        if self.phase == _AUCTION:
            last = next((call for seat, call in reversed(self.auction.calls) if seat == s), None)
            if last is not None:
                if last == 0:
                    notes.append(Msg.of(k + "passed"))
                else:
                    kind, args = bid_msg(self.ladder, last - FIRST_BID)
                    notes.append(Msg.of(k + "bid_" + kind, **args))
        elif self.phase != _OVER:
            if s == self.declarer:
                kind, args = bid_msg(self.ladder, self.bid)
                notes.append(Msg.of(k + "declarer_" + kind, **args))
            elif s == self.partner and self.idle < 0:
                notes.append(Msg.of(k + "partner"))
            elif s == self.idle:
                notes.append(Msg.of(k + "idle"))
            if self.phase == _TRICKS:
                team = next((t for t in self._teams() if s in t), None)
                if team is not None:  # the sides' tricks: four players, a called partner
                    notes.append(Msg.of(k + "side_tricks", count=sum(self.tricks[x] for x in team)))
                elif s == self.declarer and self.bid >= 0 and not self.misere:
                    need = self.ladder.level(self.bid) or 0
                    notes.append(Msg.of(k + "contract_tricks", count=self.tricks[s], need=need))
            voids = "".join(SUIT_SYMBOLS[x] for x in range(4) if self.voids[s] >> x & 1)
            if voids:
                notes.append(Msg.of(k + "void", suits=voids))
        return tuple(notes)

    def _piles(self, seat: Seat | None) -> tuple[Pile, ...]:
        piles: list[Pile] = []
        if self.widow:
            piles.append(Pile(f"{GAME_ID}.pile.talong", hidden=self.widow.bit_count()))
        if self.discards:
            if seat is not None and seat == self.declarer:
                piles.append(Pile(f"{GAME_ID}.pile.discards", mask_cards(self.discards)))
            else:
                piles.append(Pile(f"{GAME_ID}.pile.discards", hidden=self.discards.bit_count()))
        if self.aside:
            if seat is not None and seat == self.idle:
                piles.append(Pile(f"{GAME_ID}.pile.aside", mask_cards(self.aside), seat=self.idle))
            else:
                piles.append(
                    Pile(f"{GAME_ID}.pile.aside", hidden=self.aside.bit_count(), seat=self.idle)
                )
        last = self.last_trick
        for s in range(self.n):
            hidden = self.won_cards[s]
            if last is not None and last[1] == s:
                hidden -= len(last[0])
            if hidden:
                piles.append(Pile("table.pile.won_tricks", hidden=hidden, seat=s))
        if last is not None:
            piles.append(
                Pile("table.pile.last_trick", cards_tuple(c for _, c in last[0]), seat=last[1])
            )
        return tuple(piles)

    def _teams(self) -> tuple[tuple[Seat, ...], ...]:
        if self.n == 4:
            return ((0, 2), (1, 3))
        if self.n == 5 and self.partner >= 0 and self.phase != _OVER:
            team = (self.declarer, self.partner)
            return (tuple(sorted(team)), tuple(s for s in range(5) if s not in team))
        return ()

    def _sheet(self) -> ScoreSheet:
        if self.n == 4:
            columns = tuple(
                Msg.of(f"{GAME_ID}.sheet.side", seat=a, partner_seat=a + 2) for a in (0, 1)
            )
        else:
            columns = tuple(Msg.of(f"{GAME_ID}.sheet.seat", seat=s) for s in range(self.n))
        rows = []
        for deal, bid, declarer, made, totals in self.history:
            cells = totals[:2] if self.n == 4 else totals
            if bid < 0:
                label = Msg.of(f"{GAME_ID}.sheet.all_pass", deal=deal)
            else:
                kind, args = bid_msg(self.ladder, bid)
                outcome = "made" if made else "failed"
                label = Msg.of(
                    f"{GAME_ID}.sheet.{kind}_{outcome}", deal=deal, seat=declarer, **args
                )
            rows.append(SheetRow(label, tuple(cells)))
        return ScoreSheet(columns, tuple(rows))

    def _message(self, event: Event) -> Msg:
        return message(event, self.ladder, self.n)

    def view(self, seat: Seat | None) -> View:
        seats = tuple(
            SeatView(
                cards=self.hands[s].bit_count(),
                score=self.scores[s],
                tricks=self.tricks[s] if self.phase in (_TRICKS, _OVER) else None,
                shown=mask_cards(self.shown[s]),
                notes=self._seat_notes(s),
            )
            for s in range(self.n)
        )
        notes: tuple[Msg, ...] = ()
        if seat is not None and seat == self.declarer and self.discards:
            notes = (Msg.of(f"{GAME_ID}.note.discarded", cards=codes(cards_in(self.discards))),)
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase_msg(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=seats,
            trick=tuple((p, Card(c)) for p, c in zip(self.trick_seats, self.trick, strict=True)),
            trump=None if self.trump == NO_TRUMP else self.trump,
            # sang, misère or all passed; nothing is said of trumps during the auction
            no_trump=self.trump == NO_TRUMP and self.phase not in (_AUCTION, _OVER),
            piles=self._piles(seat),
            events=tuple(self._message(e) for e in self.events[-EVENTS_KEPT:]),
            notes=notes,
            deal=self.dealt,
            dealer=self.dealer,
            teams=self._teams(),
            sheet=self._sheet(),
            # the cards the declarer took from the talong, marked in his hand while he discards
            marked=mask_cards(self.taken & self.hands[seat])
            if seat is not None and seat == self.declarer
            else (),
        )

    # --- copies -------------------------------------------------------------------------------

    def _card_class(self, c: int) -> int:
        if c == self.called and self.partner < 0:
            return CALLED_FROM_TALONG
        if c == JOKER and self.trump == NO_TRUMP:
            return NO_JOKER
        return self.suit_table[c]

    def determinize(self, seat: Seat, rng: random.Random) -> Femhundra:
        """Re-deal the cards hidden from ``seat`` among the other hands, the talong, the
        discards and a hand set aside, keeping shown cards and shown voids (rules 5.9)."""
        other = self.clone(rng)
        other.decks = None
        places: list[tuple[str, int, int, int]] = []  # (where, seat, count, void classes)
        for s in range(self.n):
            if s != seat:
                hidden = self.hands[s] & ~self.shown[s]
                if hidden:
                    # a card called from the talong went to the declarer (nobody answered)
                    voids = self.voids[s] | (0 if s == self.declarer else 1 << CALLED_FROM_TALONG)
                    places.append(("hand", s, hidden.bit_count(), voids))
        if self.widow:
            places.append(("widow", -1, self.widow.bit_count(), 0))
        if self.discards and seat != self.declarer:
            places.append(("discards", -1, self.discards.bit_count(), 0))
        if self.aside and seat != self.idle:
            places.append(("aside", -1, self.aside.bit_count(), 1 << CALLED_FROM_TALONG))
        pool: list[int] = []
        for where, s, _, _ in places:
            if where == "hand":
                pool.extend(cards_in(self.hands[s] & ~self.shown[s]))
            else:
                pool.extend(cards_in(getattr(self, where)))
        # the places void in most classes first
        masks = redeal(
            [
                (count, outside_voids(pool, voids, self._card_class))
                for _, _, count, voids in places
            ],
            pool,
            rng,
            order=sorted(range(len(places)), key=lambda i: -places[i][3].bit_count()),
        )
        for (where, s, _, _), mask in zip(places, masks, strict=True):
            if where == "hand":
                other.hands[s] = mask | self.shown[s]
            else:
                setattr(other, where, mask)
        return other

    # --- notation -----------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return rules.notation(action, self.ladder)

    def parse(self, text: str) -> Action:
        return rules.parse(text, self.ladder)


def new_match(
    players: int, options: FemhundraOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    """The factory of the game's spec."""
    return Femhundra(players, options, rng, decks)
