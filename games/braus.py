"""Bräus, Gotland's partnership game: rules engine (rules/three-to-five-player.md §3).

Rules implemented (the Swedish text is the authority; decisions B1-B16 of the spec, with the
corrections of audit 2026-11):

* Four players in two fixed partnerships, partners opposite: seats 0 and 2 against 1 and 3. 36
  cards (A K Q J T 9 8 7 6). The first dealer is drawn at random; he deals nine cards each, one at
  a time, clockwise from forehand (his left). Play goes clockwise.
* The ranking (B1), highest first: the three *makdorar* J♣ (Spit), 8♠ (Dull), K♥ (Bräus); the
  nines, the aces, the jacks J♠ J♥ J♦ and the sixes, each group ♣ ♠ ♥ ♦. These 18 cards are the
  playable cards. The four sevens are laid down as tricks (below); all other cards (8♣ 8♥ 8♦, the
  tens, the queens, K♠ K♦ K♣) are worthless: they never win a trick and any playable card beats
  them. K♣ is also the outcome card (*utslagskortet*) that decides a 5-5 deal.
* Sevens (B6): forehand lays down all his sevens before his first lead, and a player who has just
  won a trick lays down his at once; each counts as one trick for his side. That is all: a player
  to whom the lead passes lays none, and a seven still in hand is a worthless card (option
  ``sevens_on_passed_lead``: the player who gets the lead passed on lays his sevens too).
* A trick: the leader plays any card. Each other player in turn, clockwise, exactly once, must
  play a card higher than the card on top if he holds one (also over his partner, B9), else his
  only action is ``pass`` (B14). A player without cards is skipped. The top card wins; when only
  the worthless lead lies there, the trick goes to the dead pile and the same player leads again.
  A player who must lead with no cards passes the lead clockwise to the next player holding cards.
* The deal stops as soon as a side has six tricks: one *rita* (point), or two when its last six
  counted tricks (sevens count, dead tricks do not) were all its own (*jan*, B5/B12). When the
  cards run out at 5-5, the side with K♣ among its won tricks scores one rita (B11). A deal without
  a rita is dealt again by the same dealer; after a rita the deal passes to the left (B13).
* The match: the first side to reach six ritor wins (B16); a jan may take it to seven. Partners
  share their place (1 for the winners, 2 for the losers); each seat's score is its side's ritor.
  A side beaten six to nil are *pissmunkar*: shown, no extra points.

Decisions beyond the spec: the deal also ends as soon as no hand holds a playable card (with
``sevens_on_passed_lead``: no playable card and no seven), as 3.4 allows: nothing can change any
more, so nobody is asked to lead out worthless cards to dead tricks. It tells nobody anything
hidden, since every card played lies face up. Sevens are counted one by one, so a side stops at
six tricks and keeps the sevens it did not need. Each seat shows its side's tricks and ritor.

Notation: a card played (led or over the top card) is its code (``JC``, ``8S``, ``QH``); the
forced pass is ``pass``. Laying sevens, dead tricks, passing the lead on, ending the deal, ritor
and redeals are automatic. Parsing accepts any case and surrounding spaces.

This module is a pure rules engine: standard library only, no I/O, no clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    SPADES,
    Card,
    card,
    cards_in,
    code,
    codes,
    deal_deck,
    make_deck,
    mask_cards,
    mask_of,
    parse_card,
    randbelow,
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

GAME_ID = "braus"
PLAYERS = 4
HAND = 9
TRICKS_TO_WIN = 6  # tricks that end a deal
RITOR_TO_WIN = 6  # ritor that end the match
TEAMS = ((0, 2), (1, 3))
PASS = 100  # the forced pass; card actions are card ints
EVENTS_KEPT = 12

DECK: tuple[int, ...] = tuple(make_deck(range(6, ACE + 1)))
KING_OF_CLUBS = card(KING, CLUBS)
SUIT_ORDER = (CLUBS, SPADES, HEARTS, DIAMONDS)
# rules 3.2 (B1): the playable cards, highest first
RANKING: tuple[int, ...] = (
    card(JACK, CLUBS),  # Spit
    card(8, SPADES),  # Dull
    card(KING, HEARTS),  # Bräus
    *(card(9, s) for s in SUIT_ORDER),
    *(card(ACE, s) for s in SUIT_ORDER),
    *(card(JACK, s) for s in (SPADES, HEARTS, DIAMONDS)),
    *(card(6, s) for s in SUIT_ORDER),
)
MAKDORAR = RANKING[:3]
# strength 18 (J♣) down to 1 (6♦) for playable cards, 0 for sevens and worthless cards
STRENGTH: tuple[int, ...] = tuple(
    len(RANKING) - RANKING.index(c) if c in RANKING else 0 for c in range(53)
)
PLAYABLE = mask_of(RANKING)
SEVENS = mask_of(card(7, s) for s in range(4))
DECK_MASK = mask_of(DECK)
WORTHLESS = DECK_MASK & ~PLAYABLE & ~SEVENS
# the cards that beat each card: the stronger playable cards; any playable one over a worthless card
BEATERS: tuple[int, ...] = tuple(
    mask_of(r for r in RANKING if STRENGTH[r] > STRENGTH[c]) if STRENGTH[c] else PLAYABLE
    for c in range(53)
)
# the playable cards of at most a given strength (a seat that passed on that strength)
AT_MOST: tuple[int, ...] = tuple(mask_of(r for r in RANKING if STRENGTH[r] <= s) for s in range(19))

# how a player obtains the lead (rules 3.4 OBTAIN_LEAD)
START, WON, PASSED, DEAD = range(4)

# Compact public events (kind, a, b, c); turned into Msgs only in ``view``.
E_DEAL, E_SEVENS, E_PASS, E_TRICK, E_DEAD, E_LEAD_PASSED, E_NO_MORE = range(7)
E_RITA, E_JAN, E_KING, E_NO_RITA, E_MATCH, E_PISSMUNKAR = range(7, 13)
Event = tuple[int, int, int, int]

# One line of the score sheet: deal, tricks of side 0 and 1, side scoring (-1: none), ritor, kind
SheetLine = tuple[int, int, int, int, int, int]


def side_of(seat: Seat) -> int:
    return seat & 1


@dataclass(frozen=True)
class BrausOptions(Options):
    """``sevens_on_passed_lead`` (pagat, the old B6): a player to whom the lead passes because the
    leader has no cards lays down his sevens as tricks too. Off by default (the seed)."""

    sevens_on_passed_lead: bool = False


class Braus(Game):
    """One match of Bräus. Hands are bit masks; the trick is two small lists."""

    game_id = GAME_ID
    __slots__ = (
        "cap",
        "dead",
        "dealer",
        "dealt",
        "decks",
        "events",
        "hands",
        "laid",
        "leader",
        "match_winner",
        "no_sevens",
        "options",
        "ritor",
        "rng",
        "sheet",
        "streak",
        "trick_cards",
        "trick_seats",
        "tricks",
        "turn",
        "won",
    )
    copied = (
        "cap",
        "events",
        "hands",
        "laid",
        "ritor",
        "sheet",
        "streak",
        "tricks",
        "won",
        "trick_cards",
        "trick_seats",
    )

    def __init__(
        self,
        options: BrausOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
        first_dealer: Seat | None = None,
    ) -> None:
        self.options = options
        self.rng = rng
        self.decks = decks
        self.events: list[Event] = []
        self.ritor = [0, 0]
        self.sheet: list[SheetLine] = []
        self.match_winner = -1
        self.dealt = 0
        self.dealer = randbelow(rng, PLAYERS) if first_dealer is None else first_dealer
        self._start_deal()

    # --- dealing ----------------------------------------------------------------------------------

    def _start_deal(self) -> None:
        deck = deal_deck(self.decks, self.dealt, DECK, self.rng)
        self.dealt += 1
        forehand = (self.dealer + 1) % PLAYERS
        self.hands = [0, 0, 0, 0]
        for i, c in enumerate(deck):  # one at a time, clockwise from forehand
            self.hands[(forehand + i) % PLAYERS] |= 1 << c
        self.tricks = [0, 0]
        self.streak = [-1, 0]  # side and length of the latest run of counted tricks (jan, B5)
        self.won = [0, 0]  # cards of each side's won tricks
        self.laid = [0, 0]  # sevens each side laid down
        self.dead = 0
        self.trick_cards: list[int] = []
        self.trick_seats: list[int] = []
        # Public facts for determinize: a seat that passed on strength s holds no playable card
        # stronger than s; a seat that had its chance to lay sevens holds none.
        self.cap = [len(RANKING)] * PLAYERS
        self.no_sevens = 0
        self.leader = forehand
        self.turn = forehand
        self.events.append((E_DEAL, self.dealt, self.dealer, 0))
        self._obtain_lead(forehand, START)

    def _count(self, side: int) -> None:
        """One counted trick (won, or a seven laid) for ``side``."""
        self.tricks[side] += 1
        if self.streak[0] == side:
            self.streak[1] += 1
        else:
            self.streak = [side, 1]

    def _obtain_lead(self, seat: Seat, how: int) -> None:
        """Rules 3.4 OBTAIN_LEAD: lay sevens where allowed, end the deal, or pass the lead on."""
        lays = how in (START, WON) or (how == PASSED and self.options.sevens_on_passed_lead)
        if lays:
            self.no_sevens |= 1 << seat
            side = side_of(seat)
            sevens = 0
            for seven in cards_in(self.hands[seat] & SEVENS):
                sevens |= 1 << seven
                self._count(side)
                if self.tricks[side] >= TRICKS_TO_WIN:
                    break  # the sixth trick stops the deal: the other sevens are not needed
            if sevens:
                self.hands[seat] &= ~sevens
                self.laid[side] |= sevens
                self.events.append((E_SEVENS, seat, sevens, 0))
                if self.tricks[side] >= TRICKS_TO_WIN:
                    self._end_deal()
                    return
        left = PLAYABLE | SEVENS if self.options.sevens_on_passed_lead else PLAYABLE
        if not any(h & left for h in self.hands):
            if any(self.hands):
                self.events.append((E_NO_MORE, 0, 0, 0))
            self._end_deal()  # nothing can be won any more (3.4, result-neutral)
            return
        if not self.hands[seat]:
            nxt = (seat + 1) % PLAYERS
            while not self.hands[nxt]:
                nxt = (nxt + 1) % PLAYERS
            self.events.append((E_LEAD_PASSED, seat, nxt, 0))
            self._obtain_lead(nxt, PASSED)
            return
        self.leader = seat
        self.turn = seat
        self.trick_cards.clear()
        self.trick_seats.clear()

    # --- play -------------------------------------------------------------------------------------

    def _legal_mask(self, seat: Seat) -> int:
        hand = self.hands[seat]
        if not self.trick_cards:
            return hand
        return hand & BEATERS[self.trick_cards[-1]]

    def to_act(self) -> frozenset[Seat]:
        return frozenset() if self.match_winner >= 0 else frozenset((self.turn,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self.match_winner >= 0 or seat != self.turn:
            return []
        if not self.trick_cards:
            return list(cards_in(self.hands[seat]))
        higher = self._legal_mask(seat)
        return list(cards_in(higher)) if higher else [PASS]

    def apply(self, seat: Seat, action: Action) -> None:
        if self.match_winner >= 0:
            raise IllegalActionError("the match is over")
        if seat != self.turn:
            raise IllegalActionError("it is not your turn")
        leading = not self.trick_cards
        if action == PASS:
            if leading:
                raise IllegalActionError("you are on lead: play a card")
            if self._legal_mask(seat):
                top = code(self.trick_cards[-1])
                raise IllegalActionError(f"you hold a card higher than {top}: you must play it")
            self.cap[seat] = min(self.cap[seat], STRENGTH[self.trick_cards[-1]])
            self.events.append((E_PASS, seat, self.trick_cards[-1], 0))
        else:
            if not 0 <= action < 52 or not self.hands[seat] >> action & 1:
                raise IllegalActionError(f"you do not hold {self.notation_or_raw(action)}")
            if not leading and not BEATERS[self.trick_cards[-1]] >> action & 1:
                top = code(self.trick_cards[-1])
                raise IllegalActionError(f"{code(action)} is not higher than {top}")
            self.hands[seat] &= ~(1 << action)
            self.trick_cards.append(action)
            self.trick_seats.append(seat)
        nxt = (seat + 1) % PLAYERS
        while nxt != self.leader:
            if self.hands[nxt]:
                self.turn = nxt
                return
            nxt = (nxt + 1) % PLAYERS
        self._finish_trick()

    def _finish_trick(self) -> None:
        top = self.trick_cards[-1]
        if not STRENGTH[top]:
            # only the worthless lead was played: a dead trick, the same player leads again
            self.dead |= 1 << top
            self.events.append((E_DEAD, self.leader, top, 0))
            self.trick_cards.clear()
            self.trick_seats.clear()
            self._obtain_lead(self.leader, DEAD)
            return
        winner = self.trick_seats[-1]
        side = side_of(winner)
        self.won[side] |= mask_of(self.trick_cards)
        self._count(side)
        self.events.append((E_TRICK, winner, top, 0))
        self.trick_cards.clear()
        self.trick_seats.clear()
        if len(self.events) > 6 * EVENTS_KEPT:
            del self.events[: -3 * EVENTS_KEPT]
        if self.tricks[side] >= TRICKS_TO_WIN:
            self._end_deal()
        else:
            self._obtain_lead(winner, WON)

    # --- the end of a deal and of the match -------------------------------------------------------

    def _end_deal(self) -> None:
        self.trick_cards.clear()
        self.trick_seats.clear()
        a, b = self.tricks
        scorer, gained = -1, 0
        if max(a, b) >= TRICKS_TO_WIN:
            scorer = 0 if a > b else 1
            jan = self.streak[0] == scorer and self.streak[1] >= TRICKS_TO_WIN
            gained = 2 if jan else 1
            self.events.append((E_JAN if jan else E_RITA, scorer, self.tricks[scorer], 0))
        elif a == b == TRICKS_TO_WIN - 1 and (self.won[0] | self.won[1]) >> KING_OF_CLUBS & 1:
            scorer, gained = (0 if self.won[0] >> KING_OF_CLUBS & 1 else 1), 1
            self.events.append((E_KING, scorer, a, b))
        else:
            self.events.append((E_NO_RITA, self.dealer, a, b))
        kind = E_NO_RITA if scorer < 0 else self.events[-1][0]
        self.sheet.append((self.dealt, a, b, scorer, gained, kind))
        if scorer >= 0:
            self.ritor[scorer] += gained
            if self.ritor[scorer] >= RITOR_TO_WIN:
                self.match_winner = scorer
                self.events.append((E_MATCH, scorer, self.ritor[scorer], self.ritor[1 - scorer]))
                if self.ritor[1 - scorer] == 0:
                    self.events.append((E_PISSMUNKAR, 1 - scorer, 0, 0))
                return
            self.dealer = (self.dealer + 1) % PLAYERS  # B13: the deal passes on after a rita
        self._start_deal()  # without a rita the same dealer deals again

    # --- reading the match ------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return PLAYERS

    def is_over(self) -> bool:
        return self.match_winner >= 0

    def deal_number(self) -> int:
        return self.dealt

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.match_winner < 0:
            raise ValueError("the match is not over")
        scores = tuple(self.ritor[side_of(s)] for s in range(PLAYERS))
        places = tuple(1 if side_of(s) == self.match_winner else 2 for s in range(PLAYERS))
        return Result(scores, places)

    def whitewash(self) -> bool:
        """Whether the losers are *pissmunkar*: beaten with no rita at all."""
        return self.match_winner >= 0 and self.ritor[1 - self.match_winner] == 0

    def _phase(self) -> Msg:
        if self.match_winner >= 0:
            return Msg.of("table.phase.over")
        if not self.trick_cards:
            return Msg.of(f"{GAME_ID}.phase.lead", seat=self.turn)
        return Msg.of(f"{GAME_ID}.phase.beat", seat=self.turn, card=code(self.trick_cards[-1]))

    def _seat_view(self, seat: Seat) -> SeatView:
        side = side_of(seat)
        notes: tuple[Msg, ...] = ()
        if self.whitewash() and side != self.match_winner:
            notes = (Msg.of(f"{GAME_ID}.note.pissmunk"),)
        return SeatView(
            cards=self.hands[seat].bit_count(),
            score=self.ritor[side],
            tricks=self.tricks[side],
            notes=notes,
        )

    def _piles(self) -> tuple[Pile, ...]:
        piles = []
        for side in (0, 1):
            # every card played is public (3.9): a side's tricks and sevens lie face up
            shown = self.laid[side] | self.won[side]
            piles.append(Pile(f"{GAME_ID}.pile.side_tricks", mask_cards(shown), 0, side))
        if self.dead:
            piles.append(Pile(f"{GAME_ID}.pile.dead", mask_cards(self.dead)))
        return tuple(piles)

    def _message(self, event: Event) -> Msg:
        kind, a, b, c = event
        k = GAME_ID + ".event."
        if kind == E_DEAL:
            return Msg.of("table.event.deal_started", deal=a, seat=b)
        if kind == E_SEVENS:
            return Msg.of(k + "sevens", seat=a, cards=codes(cards_in(b)), count=b.bit_count())
        if kind == E_PASS:
            return Msg.of(k + "passed", seat=a, card=code(b))
        if kind == E_TRICK:
            return Msg.of("table.event.trick_won", seat=a, card=code(b))
        if kind == E_DEAD:
            return Msg.of(k + "dead_trick", seat=a, card=code(b))
        if kind == E_LEAD_PASSED:
            return Msg.of(k + "lead_passed", seat=a, next_seat=b)
        if kind == E_NO_MORE:
            return Msg.of(k + "no_more_tricks")
        team = {"seat": a, "partner_seat": a + 2}
        if kind in (E_RITA, E_JAN):
            return Msg.of(k + ("jan" if kind == E_JAN else "rita"), **team)
        if kind == E_KING:
            return Msg.of(k + "king_of_clubs", **team)
        if kind == E_NO_RITA:
            return Msg.of(k + "no_rita", seat=a, won=b, lost=c)
        if kind == E_MATCH:
            return Msg.of(k + "match_won", **team, won=b, lost=c)
        return Msg.of(k + "pissmunkar", **team)

    def _sheet(self) -> ScoreSheet:
        columns = tuple(Msg.of(f"{GAME_ID}.sheet.side", seat=s, partner_seat=s + 2) for s in (0, 1))
        rows = []
        for deal, a, b, scorer, gained, kind in self.sheet:
            how = {E_JAN: "jan", E_KING: "king_of_clubs", E_RITA: "rita"}.get(kind, "no_rita")
            if scorer < 0:  # nobody won the deal: the sides' tricks in the columns' order
                label = Msg.of(f"{GAME_ID}.sheet.{how}", deal=deal, won=a, lost=b)
            else:  # the side that won the deal first, its tricks first
                won, lost = (a, b) if scorer == 0 else (b, a)
                side = {"seat": scorer, "partner_seat": scorer + 2}
                label = Msg.of(f"{GAME_ID}.sheet.{how}", deal=deal, won=won, lost=lost, **side)
            cells = tuple(gained if side == scorer else None for side in (0, 1))
            rows.append(SheetRow(label, cells, rule_below=False))
        if rows:
            rows[-1] = SheetRow(rows[-1].label, rows[-1].cells, rule_below=True)
        rows.append(SheetRow(Msg.of(f"{GAME_ID}.sheet.ritor"), (self.ritor[0], self.ritor[1])))
        return ScoreSheet(columns, tuple(rows))

    def view(self, seat: Seat | None) -> View:
        events = [self._message(e) for e in self.events[-EVENTS_KEPT:]]
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=tuple(self._seat_view(s) for s in range(PLAYERS)),
            trick=tuple(
                (s, Card(c)) for s, c in zip(self.trick_seats, self.trick_cards, strict=True)
            ),
            piles=self._piles(),
            events=tuple(events),
            deal=self.dealt,
            dealer=self.dealer,
            teams=TEAMS,
            sheet=self._sheet(),
        )

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Braus:
        """Re-deal the other three hands' cards among them, keeping every fact shown in play: a
        seat that passed on a card holds nothing higher, and a seat that had its chance to lay
        sevens holds none (3.9). Future deals come from ``rng``."""
        other = self.clone(rng)
        other.decks = None
        seats = [s for s in range(PLAYERS) if s != seat]
        allowed = [
            WORTHLESS | AT_MOST[self.cap[s]] | (0 if self.no_sevens >> s & 1 else SEVENS)
            for s in seats
        ]
        unknown = list(cards_in(self.hands[seats[0]] | self.hands[seats[1]] | self.hands[seats[2]]))
        room = [self.hands[s].bit_count() for s in seats]
        new = [0, 0, 0]
        # the most constrained cards first: the strongest playable cards, then sevens
        unknown.sort(key=lambda c: (-STRENGTH[c], not SEVENS >> c & 1))
        kinds = [sum(1 << i for i in range(3) if allowed[i] >> c & 1) for c in unknown]
        counts = [0] * 8  # cards still to place, by the set of places they may go to
        for k in kinds:
            counts[k] += 1
        for c, k in zip(unknown, kinds, strict=True):
            counts[k] -= 1
            options = [i for i in range(3) if k >> i & 1 and room[i] and _fits(counts, room, i)]
            weights = [room[i] for i in options]
            pick = randbelow(rng, sum(weights))
            for i, w in zip(options, weights, strict=True):
                if pick < w:
                    new[i] |= 1 << c
                    room[i] -= 1
                    break
                pick -= w
        for i, s in enumerate(seats):
            other.hands[s] = new[i]
        return other

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return "pass" if action == PASS else code(action)

    def parse(self, text: str) -> Action:
        if text.strip().lower() == "pass":
            return PASS
        try:
            return parse_card(text)
        except ValueError as err:
            raise NotationError(f"{err}, or pass") from None


def _fits(counts: list[int], room: list[int], take: int) -> bool:
    """Whether the cards still to place (``counts`` by the set of places each may go to) fit once
    place ``take`` has one card less room: Hall's condition over every set of places."""
    for places in range(1, 8):
        need = sum(counts[k] for k in range(1, 8) if k & ~places == 0)
        free = sum(room[i] - (i == take) for i in range(3) if places >> i & 1)
        if need > free:
            return False
    return True


def _factory(
    players: int, options: BrausOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Braus(options, rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=PLAYERS,
    max_players=PLAYERS,
    options_type=BrausOptions,
    factory=_factory,
    presets={"sevens_on_passed_lead": BrausOptions(sevens_on_passed_lead=True)},
    points=False,
)
