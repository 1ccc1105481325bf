"""The state of a Tvåmansbridge rubber and the game contract over it (rules in the package
docstring).

Hands and dummies are bit masks; the auction is the shared :class:`games.bidding.Auction`.
``apply`` changes the state in place and plays every automatic step itself (turning up uncovered
dummy cards, scoring, the next deal).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from games.bidding import FIRST_BID, Auction, Ladder
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
    shown_order,
    shuffle,
    suit_of,
)
from games.core import (
    Action,
    Game,
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
from games.tricks import follow_mask, trick_winner
from games.tvamansbridge.scoring import (
    ABOVE_KINDS,
    BOOK,
    GAME,
    NT,
    RUBBER,
    RUBBER_GAMES,
    STRAINS,
    SlamBonus,
    rubber_bonus,
    score_deal,
)

GAME_ID = "tvamansbridge"
TRICKS = 13
STACKS = 6  # covered stacks of a dummy; slot 6 holds the lone card
LADDER = Ladder(levels=tuple(range(1, 8)), strains=STRAINS)
CALL_BASE = 52  # calls come after the 52 card ints
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
# the four places at the table, clockwise (D-BR-1)
ELDER_DUMMY, ELDER_HAND, DEALER_DUMMY, DEALER_HAND = range(4)
ABOVE_ROWS = 8  # above-the-line rows shown; older ones are summed into one row
EVENTS_KEPT = 12

# Compact events ``(kind, a, b, c)``, all public; they become Msgs only in ``view``.
E_DEAL, E_CALL, E_CONTRACT, E_PASSED_OUT, E_PLAYED, E_TURNED, E_TRICK = range(7)
E_MADE, E_DOWN, E_ABOVE, E_GAME, E_RUBBER, E_MATCH, E_DRAW = range(7, 14)
Event = tuple[int, int, int, int]

_PLAY_FROM_DUMMY = Msg.of(GAME_ID + ".note.play_from_dummy")
_PLAY_FROM_HAND = Msg.of(GAME_ID + ".note.play_from_hand")
_NOTATION = Auction(LADDER, (0, 1), base=CALL_BASE, doubles=True)  # only reads notations


@dataclass(frozen=True)
class TvamansbridgeOptions(Options):
    """``slam_bonus``: ``taken`` (RULINGS 2, the seed): the slam bonus follows the tricks taken in
    a made contract; ``bid`` (contract bridge): only a bid and made slam scores."""

    slam_bonus: SlamBonus = "taken"


def contract_text(bid: int, doubled: int) -> str:
    """``4S``, ``3NTX``, ``7HXX``: a contract as the renderers read it (``contract`` args)."""
    return LADDER.bids[bid] + "X" * doubled


class Tvamansbridge(Game):
    """One rubber of Tvåmansbridge. Seats 0 and 1 are the players; each deal seats them at the
    four places ED, Elder, DD, Dealer (``place`` 0..3) with their dummies."""

    game_id = GAME_ID
    __slots__ = (
        "above",
        "auction",
        "below",
        "cover",
        "deal_no",
        "dealer",
        "decks",
        "declarer",
        "doubled",
        "down",
        "events",
        "game_index",
        "games_won",
        "hands",
        "last_trick",
        "leader",
        "level",
        "lone",
        "options",
        "owner",
        "public_view",
        "rng",
        "segment",
        "sheet_above",
        "sheet_below",
        "sheet_cache",
        "strain",
        "taken",
        "trick",
        "trick_no",
        "trump",
        "up",
        "voids",
        "winner",
    )
    # what apply changes in place: a clone copies these
    copied = (
        "above",
        "below",
        "cover",
        "down",
        "events",
        "games_won",
        "hands",
        "lone",
        "segment",
        "sheet_above",
        "sheet_below",
        "taken",
        "trick",
        "up",
        "voids",
    )

    def __init__(
        self, options: TvamansbridgeOptions, rng: random.Random, decks: list[list[int]] | None
    ) -> None:
        self.options = options
        self.rng = rng
        self.decks = decks
        self.events: list[Event] = []
        self.games_won = [0, 0]
        self.segment = [0, 0]  # below-the-line points in the current game
        self.above = [0, 0]
        self.below = [0, 0]
        self.game_index = 0  # games finished so far (a new line is drawn after each)
        # (deal, kind, seat, points) above; (deal, seat, points, bid, doubled, game) below
        self.sheet_above: list[tuple[int, int, int, int]] = []
        self.sheet_below: list[tuple[int, int, int, int, int, int]] = []
        self.sheet_cache: ScoreSheet | None = None
        self.public_view: View | None = None
        self.winner = -1  # -1 playing, 0/1 the rubber's winner, 2 a draw
        self.deal_no = 0
        self.dealer = randbelow(rng, 2)  # §0: the first dealer at random
        self._start_deal()

    # --- dealing ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deck = deal_deck(self.decks, self.deal_no, make_deck(), self.rng)
        self.deal_no += 1
        elder = 1 - self.dealer
        self.owner = (elder, elder, self.dealer, self.dealer)
        self.hands = [0, 0]
        self.up = [0, 0]
        self.down = [0, 0]
        self.lone = [-1, -1]
        self.cover = [-1] * 52
        under: list[list[int]] = [[], []]
        # §2.1: one card at a time to ED, Elder, DD, Dealer; a dummy's rounds 0-5 face down,
        # 6-11 face up on them, 12 the lone card
        for i, c in enumerate(deck):
            place, rnd = i % 4, i // 4
            seat = self.owner[place]
            if place % 2:
                self.hands[seat] |= 1 << c
            elif rnd < STACKS:
                self.down[seat] |= 1 << c
                under[seat].append(c)
            elif rnd < 2 * STACKS:
                self.up[seat] |= 1 << c
                self.cover[c] = under[seat][rnd - STACKS]
            else:
                self.down[seat] |= 1 << c
                self.lone[seat] = c
        self.voids = [0, 0]  # suits each hand has shown out of this deal
        self.auction: Auction | None = Auction(
            LADDER, (self.dealer, elder), base=CALL_BASE, doubles=True
        )
        self.declarer = -1
        self.level = self.strain = self.doubled = 0
        self.trump: int | None = None
        self.taken = [0, 0]
        self.trick: list[int] = []
        self.trick_no = 0
        self.leader = 0  # place that leads the current trick
        self.last_trick: tuple[int, tuple[int, ...], int] | None = None  # leader, cards, winner
        self.events.append((E_DEAL, self.deal_no, self.dealer, 0))

    # --- turns and legality -----------------------------------------------------------------------

    def _place(self) -> int:
        """The place (0..3) due to play in the current trick."""
        return (self.leader + len(self.trick)) % 4

    def _turn(self) -> int:
        if self.winner >= 0:
            return -1
        if self.auction is not None:
            caller = self.auction.to_call()
            return -1 if caller is None else caller
        return self.owner[self._place()]

    def _cards_at(self, place: int) -> int:
        seat = self.owner[place]
        return self.up[seat] if place % 2 == 0 else self.hands[seat]

    def _playable(self, place: int) -> int:
        held = self._cards_at(place)  # D-BR-2: a dummy's face-down cards do not count
        return follow_mask(held, suit_of(self.trick[0])) if self.trick else held

    def to_act(self) -> frozenset[Seat]:
        turn = self._turn()
        return frozenset() if turn < 0 else frozenset((turn,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self._turn():
            return []
        if self.auction is not None:
            return self.auction.legal(seat)
        return list(cards_in(self._playable(self._place())))

    def apply(self, seat: Seat, action: Action) -> None:
        if self.winner >= 0:
            raise IllegalActionError("the match is over")
        if seat != self._turn():
            raise IllegalActionError("it is not your turn")
        self.public_view = None
        if self.auction is not None:
            self._call(seat, action)
        else:
            self._play(seat, action)

    # --- the auction ------------------------------------------------------------------------------

    def _call(self, seat: Seat, action: Action) -> None:
        auction = self.auction
        assert auction is not None
        if not auction.owns(action):
            raise IllegalActionError("the bidding is on: bid, pass, double or redouble")
        auction.call(seat, action)
        self.events.append((E_CALL, seat, action - CALL_BASE, 0))
        if not auction.is_over():
            return
        contract = auction.contract()
        self.auction = None
        if contract is None:  # D-BR-4: two passes without a bid; the other player deals
            self.events.append((E_PASSED_OUT, 1 - self.dealer, 0, 0))
            self.dealer = 1 - self.dealer
            self._start_deal()
            return
        self.declarer = contract.declarer
        self.doubled = contract.doubled
        # the ladder is every level in every strain, so a position is level-major
        self.level, self.strain = divmod(contract.bid, len(STRAINS))
        self.level += 1
        self.trump = None if self.strain == NT else self.strain
        self.events.append((E_CONTRACT, self.declarer, contract.bid, self.doubled))
        # §2.3: the defender's dummy leads to trick 1
        defender = 1 - self.declarer
        self.leader = ELDER_DUMMY if self.owner[ELDER_DUMMY] == defender else DEALER_DUMMY
        self.trick_no = 1

    # --- the play ---------------------------------------------------------------------------------

    def _play(self, seat: Seat, action: Action) -> None:
        place = self._place()
        if not 0 <= action < 52:
            raise IllegalActionError("play a card now")
        bit = 1 << action
        from_dummy = place % 2 == 0
        if not self._cards_at(place) & bit:
            if from_dummy:
                raise IllegalActionError(
                    f"{code(action)} is not a face-up card of your dummy: play from the dummy now"
                )
            raise IllegalActionError(f"you do not hold {code(action)}: play from your hand now")
        if not self._playable(place) & bit:
            led = SUIT_NAMES[suit_of(self.trick[0])]
            raise IllegalActionError(f"you must follow suit: play one of the {led}")
        if from_dummy:
            self.up[seat] &= ~bit
        else:
            self.hands[seat] &= ~bit
            if self.trick and suit_of(action) != suit_of(self.trick[0]):
                self.voids[seat] |= 1 << suit_of(self.trick[0])
        self.trick.append(action)
        self.events.append((E_PLAYED, seat, action, 1 if from_dummy else 0))
        if len(self.trick) == 4:
            self._finish_trick()

    def _finish_trick(self) -> None:
        trick = self.trick
        place = (self.leader + trick_winner(trick, self.trump)) % 4
        winner = self.owner[place]
        self.taken[winner] += 1
        self.events.append((E_TRICK, winner, trick[(place - self.leader) % 4], place % 2))
        # D-BR-3: the cards under the dummy cards just played turn up only now
        for i in (0, 2) if self.leader % 2 == 0 else (1, 3):
            under = self.cover[trick[i]]
            if under >= 0:
                self._turn_up(self.owner[(self.leader + i) % 4], under)
        for seat in (0, 1):
            if not self.up[seat] and self.down[seat]:  # only the lone card is left: trick 13
                self._turn_up(seat, self.lone[seat])
        self.last_trick = (self.leader, tuple(trick), winner)
        self.trick = []
        self.leader = place
        self.trick_no += 1
        if self.trick_no > TRICKS:
            self._score_deal()
        if len(self.events) > 6 * EVENTS_KEPT:
            del self.events[: -3 * EVENTS_KEPT]

    def _turn_up(self, seat: Seat, card: int) -> None:
        self.down[seat] &= ~(1 << card)
        self.up[seat] |= 1 << card
        self.events.append((E_TURNED, seat, card, 0))

    # --- scoring ----------------------------------------------------------------------------------

    def _score_deal(self) -> None:
        self.public_view = None
        declarer = self.declarer
        taken = self.taken[declarer]
        vulnerable = self.games_won[declarer] > 0
        score = score_deal(
            self.level, self.strain, self.doubled, taken, vulnerable, self.options.slam_bonus
        )
        bid = self._bid()
        if score.made:
            self.below[declarer] += score.below
            self.segment[declarer] += score.below
            self.sheet_below.append(
                (self.deal_no, declarer, score.below, bid, self.doubled, self.game_index)
            )
            self.events.append((E_MADE, declarer, taken, score.below))
        else:
            self.events.append((E_DOWN, declarer, BOOK + self.level - taken, 0))
        for kind, to_declarer, points in score.above:
            seat = declarer if to_declarer else 1 - declarer
            self.above[seat] += points
            self.sheet_above.append((self.deal_no, kind, seat, points))
            self.events.append((E_ABOVE, seat, kind, points))
        if self.segment[declarer] >= GAME:
            self._game_won(declarer)
        self.sheet_cache = None
        if self.winner < 0:
            self.dealer = 1 - self.dealer
            self._start_deal()

    def _game_won(self, seat: Seat) -> None:
        """A game: a new line is drawn and both start again from 0 below it (§2.4)."""
        self.games_won[seat] += 1
        self.segment = [0, 0]
        self.game_index += 1
        self.events.append((E_GAME, seat, self.games_won[seat], 0))
        if self.games_won[seat] < RUBBER_GAMES:
            return
        bonus = rubber_bonus(self.games_won[1 - seat])
        self.above[seat] += bonus
        self.sheet_above.append((self.deal_no, RUBBER, seat, bonus))
        self.events.append((E_RUBBER, seat, bonus, 0))
        totals = self.totals()
        if totals[0] == totals[1]:  # D-BR-10
            self.winner = 2
            self.events.append((E_DRAW, totals[0], 0, 0))
        else:
            self.winner = 0 if totals[0] > totals[1] else 1
            margin = abs(totals[0] - totals[1])
            self.events.append((E_MATCH, self.winner, margin, 0))

    def totals(self) -> tuple[int, int]:
        """Each player's points above and below the line together."""
        return (self.above[0] + self.below[0], self.above[1] + self.below[1])

    # --- reading the match ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return 2

    def is_over(self) -> bool:
        return self.winner >= 0

    def deal_number(self) -> int:
        return self.deal_no

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.winner < 0:
            raise ValueError("the match is not over")
        return Result.by_score(self.totals())  # equal totals share place 1 (D-BR-10)

    def vulnerable(self, seat: Seat) -> bool:
        return self.games_won[seat] > 0

    def _phase(self) -> Msg:
        k = GAME_ID + ".phase."
        if self.winner >= 0:
            return Msg.of("table.phase.over")
        auction = self.auction
        if auction is not None:
            if auction.high < 0:
                return Msg.of(k + "auction")
            text = contract_text(auction.high, auction.doubled)
            return Msg.of(k + "auction_bid", contract=text, seat=auction.high_seat)
        place = self._place()
        return Msg.of(
            k + ("play_dummy" if place % 2 == 0 else "play_hand"),
            trick=self.trick_no,
            contract=contract_text(self._bid(), self.doubled),
            seat=self.declarer,
            turn_seat=self.owner[place],
        )

    def _bid(self) -> int:
        return (self.level - 1) * len(STRAINS) + self.strain

    def _seat_view(self, seat: Seat) -> SeatView:
        k = GAME_ID + ".note."
        notes = [
            Msg.of(k + "vulnerable", games=self.games_won[seat])
            if self.vulnerable(seat)
            else Msg.of(k + "not_vulnerable")
        ]
        if self.segment[seat]:
            notes.append(Msg.of(k + "part_score", points=self.segment[seat]))
        if self.auction is None and self.winner < 0:
            if seat == self.declarer:
                notes.append(
                    Msg.of(
                        k + "declarer",
                        contract=contract_text(self._bid(), self.doubled),
                        need=BOOK + self.level,
                    )
                )
            else:
                notes.append(Msg.of(k + "defender", beat=TRICKS - BOOK - self.level + 1))
        playing = self.auction is None
        return SeatView(
            cards=self.hands[seat].bit_count(),
            score=self.totals()[seat],
            tricks=self.taken[seat] if playing else None,
            notes=tuple(notes),
        )

    def _piles(self) -> tuple[Pile, ...]:
        piles = [
            Pile(
                GAME_ID + ".pile.dummy",
                cards_tuple(sorted(cards_in(self.up[s]), key=shown_order)),
                self.down[s].bit_count(),
                s,
            )
            for s in (0, 1)
        ]
        if self.auction is None:  # the play, or the last deal of a finished rubber
            last = self.last_trick
            for s in (0, 1):
                hidden = 4 * self.taken[s] - (4 if last is not None and last[2] == s else 0)
                piles.append(Pile("table.pile.won_tricks", hidden=hidden, seat=s))
            if last is not None:
                piles.append(Pile("table.pile.last_trick", cards_tuple(last[1]), seat=last[2]))
        return tuple(piles)

    def _sheet(self) -> ScoreSheet:
        """The score sheet, built again only after a deal has been scored."""
        if self.sheet_cache is None:
            self.sheet_cache = self._build_sheet()
        return self.sheet_cache

    def _build_sheet(self) -> ScoreSheet:
        """The protokoll: above the line the newest entry on top, the line, below it the made
        contracts of each game with a new line after every game, then the totals."""
        k = GAME_ID + ".sheet."
        rows: list[SheetRow] = []
        above = self.sheet_above[::-1]
        for deal, kind, seat, points in above[
            : ABOVE_ROWS - 1 if len(above) > ABOVE_ROWS else None
        ]:
            label = Msg.of(k + ABOVE_KINDS[kind], deal=deal)
            rows.append(SheetRow(label, _cells(seat, points)))
        if len(above) > ABOVE_ROWS:
            older = above[ABOVE_ROWS - 1 :]
            cells = tuple(sum(p for _, _, s, p in older if s == seat) or None for seat in (0, 1))
            rows.append(SheetRow(Msg.of(k + "earlier", deals=older[0][0]), cells))
        if not rows:
            rows.append(SheetRow(Msg.of(k + "above"), (None, None)))
        rows[-1] = SheetRow(rows[-1].label, rows[-1].cells, rule_below=True)  # the line
        for i, (deal, seat, points, bid, doubled, game) in enumerate(self.sheet_below):
            later = self.sheet_below[i + 1][5] if i + 1 < len(self.sheet_below) else self.game_index
            label = Msg.of(k + "contract", deal=deal, contract=contract_text(bid, doubled))
            rows.append(
                SheetRow(label, _cells(seat, points), rule_below=later > game)
            )  # a game was won
        totals = self.totals()  # no rule above the totals: every rule is the line or a game
        rows.append(SheetRow(Msg.of(k + "total"), (totals[0], totals[1])))
        return ScoreSheet((Msg.of(k + "player", seat=0), Msg.of(k + "player", seat=1)), tuple(rows))

    def view(self, seat: Seat | None) -> View:
        public = self.public_view
        if public is None:  # what every viewer sees, built once per state
            public = self.public_view = View(
                game=GAME_ID,
                seat=None,
                phase=self._phase(),
                to_act=self.to_act(),
                hand=(),
                seats=(self._seat_view(0), self._seat_view(1)),
                trick=tuple(
                    (self.owner[(self.leader + i) % 4], Card(c)) for i, c in enumerate(self.trick)
                ),
                trick_notes=tuple(
                    _FROM_DUMMY if (self.leader + i) % 2 == ELDER_DUMMY else None
                    for i in range(len(self.trick))
                ),
                trump=self.trump if self.auction is None and self.winner < 0 else None,
                no_trump=self.trump is None and self.auction is None and self.winner < 0,
                piles=self._piles(),
                events=tuple(map(_message, self.events[-EVENTS_KEPT:])),
                deal=self.deal_no,
                dealer=self.dealer,
                sheet=self._sheet(),
            )
        if seat is None:
            return public
        notes: tuple[Msg, ...] = ()
        if seat == self._turn() and self.auction is None:
            notes = (_PLAY_FROM_DUMMY if self._place() % 2 == 0 else _PLAY_FROM_HAND,)
        return replace(public, seat=seat, hand=self.hand(seat), notes=notes)

    # --- copies -----------------------------------------------------------------------------------

    def clone(self, rng: random.Random | None = None) -> Tvamansbridge:
        other = super().clone(rng)
        if self.auction is not None:  # None once the contract is made
            other.auction = self.auction.copy()
        return other

    def determinize(self, seat: Seat, rng: random.Random) -> Tvamansbridge:
        """Re-deal the opponent's hand and the 14 face-down dummy cards (both dummies' covered
        and lone cards, hidden from both players) among those places; the opponent's hand gets
        no card of a suit it has shown out of. Future deals come from ``rng``."""
        other = self.clone(rng)
        other.decks = None
        opp = 1 - seat
        hand = list(cards_in(self.hands[opp]))
        hidden = [c for s in (0, 1) for c in cards_in(self.down[s])]
        pool = hand + hidden
        shuffle(pool, rng)
        void = self.voids[opp]
        fits = [c for c in pool if not void >> suit_of(c) & 1]
        new_hand = fits[: len(hand)]
        taken = set(new_hand)
        rest = [c for c in pool if c not in taken]
        other.hands[opp] = sum(1 << c for c in new_hand)
        mapping = dict(zip(hidden, rest, strict=True))
        for s in (0, 1):
            other.down[s] = sum(1 << mapping[c] for c in cards_in(self.down[s]))
            if self.lone[s] >= 0 and self.down[s] >> self.lone[s] & 1:
                other.lone[s] = mapping[self.lone[s]]
        other.cover = [mapping.get(c, c) if c >= 0 else c for c in self.cover]
        return other

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        if 0 <= action < 52:
            return code(action)
        return _NOTATION.notation(action)

    def parse(self, text: str) -> Action:
        try:
            card = parse_card(text)
        except ValueError:
            return _NOTATION.parse(text)
        if card >= 52:
            raise NotationError(f"not a card of this game: {text!r}")
        return card


_FROM_DUMMY = Msg.of(f"{GAME_ID}.trick_note.dummy")
"""Beside a trick's card played from a träkarl (places 0 and 2 are the träkarlar)."""


def _cells(seat: Seat, points: int) -> tuple[int | None, ...]:
    """A sheet row's cells: ``points`` in ``seat``'s column."""
    return (points, None) if seat == 0 else (None, points)


def _call_msg(seat: int, call: int, _: int) -> Msg:
    k = GAME_ID + ".event."
    if call >= FIRST_BID:
        return Msg.of(k + "bid", seat=seat, contract=LADDER.bids[call - FIRST_BID])
    return Msg.of(k + ("passed", "doubled", "redoubled")[call], seat=seat)


def _above_msg(seat: int, kind: int, points: int) -> Msg:
    return Msg.of(f"{GAME_ID}.event.{ABOVE_KINDS[kind]}", seat=seat, points=points)


_K = GAME_ID + ".event."
_MESSAGES: dict[int, Callable[[int, int, int], Msg]] = {
    E_DEAL: lambda deal, dealer, _: Msg.of("table.event.deal_started", deal=deal, seat=dealer),
    E_CALL: _call_msg,
    E_CONTRACT: lambda seat, bid, doubled: Msg.of(
        _K + "contract", seat=seat, contract=contract_text(bid, doubled)
    ),
    E_PASSED_OUT: lambda seat, _, __: Msg.of(_K + "passed_out", seat=seat),
    E_PLAYED: lambda seat, card, dummy: Msg.of(
        _K + ("played_dummy" if dummy else "played_hand"), seat=seat, card=code(card)
    ),
    E_TURNED: lambda seat, card, _: Msg.of(_K + "turned_up", seat=seat, card=code(card)),
    E_TRICK: lambda seat, card, hand: Msg.of(
        _K + ("trick_hand" if hand else "trick_dummy"), seat=seat, card=code(card)
    ),
    E_MADE: lambda seat, taken, points: Msg.of(_K + "made", seat=seat, tricks=taken, points=points),
    E_DOWN: lambda seat, down, _: Msg.of(_K + "down", seat=seat, down=down),
    E_ABOVE: _above_msg,
    E_GAME: lambda seat, games, _: Msg.of(
        _K + ("first_game" if games == 1 else "second_game"), seat=seat
    ),
    E_RUBBER: lambda seat, points, _: Msg.of(_K + "rubber", seat=seat, points=points),
    E_MATCH: lambda seat, margin, _: Msg.of(_K + "match_won", seat=seat, points=margin),
    E_DRAW: lambda points, _, __: Msg.of(_K + "draw", points=points),
}
"""How each kind of event reads as a message."""


@lru_cache(maxsize=4096)
def _message(event: Event) -> Msg:
    """An event as a message; the same few hundred card plays recur, so they are kept."""
    kind, a, b, c = event
    return _MESSAGES[kind](a, b, c)


def new_match(
    players: int, options: TvamansbridgeOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Tvamansbridge(options, rng, decks)
