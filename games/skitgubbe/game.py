"""The state of one match of Skitgubbe: both phases, views and determinization.

Hands, won piles and known cards are bit masks; the stock is a list (top card last); the
phase-1 trick is a list of cards (the leader's at even positions); the phase-2 trick is two
parallel lists of group actions and the seats that played them. Events are compact tuples
turned into messages only in ``view``. Rules only: no I/O, no clock, standard library only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import (
    SUIT_MASKS,
    SUITS,
    Card,
    cards_in,
    code,
    deal_deck,
    make_deck,
    mask_cards,
    randbelow,
    shuffle,
)
from games.core import (
    Action,
    Game,
    IllegalActionError,
    Msg,
    Options,
    Pile,
    Result,
    Seat,
    SeatView,
    View,
)
from games.skitgubbe.groups import (
    CHANCE,
    PICKUP,
    beat_cards,
    group_bounds,
    group_high,
    group_mask,
    groups_in,
    notation,
    parse,
    valid_group_action,
)

GAME_ID = "skitgubbe"
PLAYERS = 3
HAND = 3
# rules S13 (audit 2026-11): a safety cap on phase-2 actions, not a rule met in normal play
PHASE2_CAP = 2000
EVENTS_KEPT = 12
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

PHASE1, PHASE2, OVER = 1, 2, 3

# Compact events (kind, a, b, c), all public.
(
    E_DEAL,
    E_CHANCE,
    E_BOUNCE,
    E_TRICK,
    E_SET_ASIDE,
    E_TAKEN_BACK,
    E_TRUMP,
    E_PHASE2,
    E_PLAYED,
    E_PICKUP,
    E_TURNED_AWAY,
    E_OUT,
    E_SKITGUBBE,
    E_CAP,
    E_REPEAT,
) = range(15)
Event = tuple[int, int, int, int]

# A fact a determinized deal must respect: (seat, its hand then, led suit, top group, kind).
VOID, NO_BEAT = 0, 1
Constraint = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class SkitgubbeOptions(Options):
    """The variants of the Swedish text (§4.4): ``single_card_only`` (one card at a time in
    phase 2) and ``must_beat`` (*överstickstvång*: pick up only when no beat is possible)."""

    single_card_only: bool = False
    must_beat: bool = False


class Skitgubbe(Game):
    """One match: a single game of both phases (rules S12)."""

    game_id = GAME_ID
    __slots__ = (
        "bounced",
        "constraints",
        "dealer",
        "discarded",
        "events",
        "group_seats",
        "groups",
        "hands",
        "holder",
        "known",
        "last_card",
        "leader",
        "moves",
        "options",
        "phase",
        "picked",
        "places",
        "repeated",
        "responder",
        "rng",
        "seen",
        "stock",
        "trick",
        "tricks_won",
        "trump",
        "turn",
        "won",
    )
    copied = (
        "hands",
        "stock",
        "won",
        "tricks_won",
        "known",
        "picked",
        "trick",
        "groups",
        "group_seats",
        "places",
        "constraints",
        "events",
        "seen",
    )

    def __init__(
        self, options: SkitgubbeOptions, rng: random.Random, decks: list[list[int]] | None
    ) -> None:
        self.options = options
        self.rng = rng
        self.dealer = randbelow(rng, PLAYERS)
        deck = deal_deck(decks, 0, make_deck(), rng)
        forehand = (self.dealer + 1) % PLAYERS
        self.hands = [0, 0, 0]
        for i in range(PLAYERS * HAND):  # one at a time, clockwise from forehand
            self.hands[(forehand + i) % PLAYERS] |= 1 << deck[i]
        self.stock = deck[PLAYERS * HAND :][::-1]  # top card last
        self.won = [0, 0, 0]
        self.tricks_won = [0, 0, 0]
        self.known = [0, 0, 0]  # cards in each hand that everyone has seen
        self.picked = [0, 0, 0]  # of those, the ones shown on the table (picked up, turned up)
        self.trick: list[int] = []
        self.bounced = False
        self.leader = forehand
        self.responder = (forehand + 1) % PLAYERS
        self.last_card = -1
        self.holder = -1
        self.trump = -1
        self.phase = PHASE1
        self.groups: list[int] = []
        self.group_seats: list[int] = []
        self.discarded = 0
        self.turn = -1
        self.moves = 0
        self.places = [0, 0, 0]  # 0: still holding cards
        self.constraints: list[Constraint] = []
        self.events: list[Event] = [(E_DEAL, self.dealer, 0, 0)]
        # S15: the positions of phase 2 since cards were last turned away, and how often each
        # stood; ``repeated`` is how often the present one stood before.
        self.seen: dict[tuple[int, ...], int] = {}
        self.repeated = 0

    # --- whose turn ------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return PLAYERS

    def _actor(self) -> int:
        if self.phase == PHASE1:
            return self.responder if len(self.trick) % 2 else self.leader
        if self.phase == PHASE2:
            return self.turn
        return -1

    def to_act(self) -> frozenset[Seat]:
        actor = self._actor()
        return frozenset() if actor < 0 else frozenset((actor,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self._actor():
            return []
        hand = self.hands[seat]
        if self.phase == PHASE1:
            actions = list(cards_in(hand))
            if len(self.stock) >= 2:  # rules S3
                actions.append(CHANCE)
            return actions
        single = self.options.single_card_only
        if not self.groups:
            return list(groups_in(hand, single))
        beats = list(groups_in(self._beat_cards(hand), single))
        if beats and self._compelled():
            return beats
        beats.append(PICKUP)
        return beats

    def _compelled(self) -> bool:
        """Whether the player to move must beat when he can: under compulsory beating, unless
        the position stood before (S15)."""
        return self.options.must_beat and not self.repeated

    def _beat_cards(self, hand: int) -> int:
        led = group_bounds(self.groups[0])[0] // 13
        return beat_cards(hand, led, self.groups[-1], self.trump)

    # --- applying --------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalActionError("the match is over")
        if seat != self._actor():
            raise IllegalActionError("it is not your turn")
        if self.phase == PHASE1:
            self._check_phase1(seat, action)
            self._play1(seat, action)
        else:
            self._check_phase2(seat, action)
            self._play2(seat, action)

    def _check_phase1(self, seat: Seat, action: Action) -> None:
        if action == CHANCE:
            if len(self.stock) < 2:
                raise IllegalActionError(
                    "you may chance only while the stock holds at least two cards"
                )
            return
        if action == PICKUP:
            raise IllegalActionError("there is nothing to pick up in the first phase")
        if not 0 <= action < 52:
            raise IllegalActionError("play one card at a time in the first phase")
        if not self.hands[seat] >> action & 1:
            raise IllegalActionError(f"you do not hold {code(action)}")

    def _check_phase2(self, seat: Seat, action: Action) -> None:
        hand = self.hands[seat]
        if action == CHANCE:
            raise IllegalActionError("you may chance only in the first phase")
        if action == PICKUP:
            if not self.groups:
                raise IllegalActionError("there is nothing to pick up: lead a card or a group")
            if self._compelled() and self._beat_cards(hand):
                raise IllegalActionError("you must beat when you can (compulsory beating)")
            return
        if not valid_group_action(action):
            raise IllegalActionError("that is not a card or a group")
        cards = group_mask(action)
        if cards & ~hand:
            missing = next(cards_in(cards & ~hand))
            raise IllegalActionError(f"you do not hold {code(missing)}")
        if self.options.single_card_only and action >= 52:
            raise IllegalActionError("in this variant you play one card at a time")
        if not self.groups:
            return
        allowed = self._beat_cards(hand)
        if cards & ~allowed:
            raise IllegalActionError(self._why_not_beat(hand))

    def _why_not_beat(self, hand: int) -> str:
        led = group_bounds(self.groups[0])[0] // 13
        top = group_high(self.groups[-1])
        if hand & SUIT_MASKS[led]:
            if top // 13 != led:
                return (
                    f"a trump lies on top and you hold {SUIT_NAMES[led]}: you cannot beat it, "
                    "so pick up"
                )
            return f"beat with {SUIT_NAMES[led]} higher than {code(top)}, or pick up"
        if top // 13 == self.trump:
            return f"beat with trumps higher than {code(top)}, or pick up"
        return f"you hold no {SUIT_NAMES[led]}: trump, or pick up"

    # --- phase 1: two-player tricks (§4.2) --------------------------------------------------------

    def _play1(self, seat: Seat, action: Action) -> None:
        if action == CHANCE:
            card = self.stock.pop()
            self.events.append((E_CHANCE, seat, card, 0))
        else:
            card = action
            self.hands[seat] &= ~(1 << card)
            self._draw(seat)
        self.trick.append(card)
        if len(self.trick) % 2:
            return
        lead, answer = self.trick[-2] % 13, self.trick[-1] % 13
        if lead == answer:  # motlägg: both play again, the leader first (S2)
            self.bounced = True
            self.events.append((E_BOUNCE, self.leader, self.responder, 0))
            if not (self._can_play(self.leader) and self._can_play(self.responder)):
                self._end_phase1()
            return
        winner = self.leader if lead > answer else self.responder
        self.won[winner] |= sum(1 << c for c in self.trick)
        self.tricks_won[winner] += 1
        self.events.append((E_TRICK, winner, sum(1 << c for c in self.trick), 0))
        self.trick.clear()
        self.bounced = False
        self._next_trick(winner)
        self._trim_events()

    def _can_play(self, seat: Seat) -> bool:
        return bool(self.hands[seat]) or len(self.stock) >= 2

    def _draw(self, seat: Seat) -> None:
        if not self.stock:
            return
        if len(self.stock) == 1:  # the last stock card is set aside unseen
            self.last_card = self.stock.pop()
            self.holder = seat
            self.events.append((E_SET_ASIDE, seat, 0, 0))
            return
        self.hands[seat] |= 1 << self.stock.pop()

    def _next_trick(self, winner: Seat) -> None:
        """The winner leads against his left neighbour; players without cards are passed (S4)."""
        holding = [s for s in range(PLAYERS) if self._can_play(s)]
        if len(holding) < 2:
            self._end_phase1()
            return
        leader = winner
        while not self._can_play(leader):
            leader = (leader + 1) % PLAYERS
        responder = (leader + 1) % PLAYERS
        while not self._can_play(responder):
            responder = (responder + 1) % PLAYERS
        self.leader, self.responder = leader, responder

    def _end_phase1(self) -> None:
        """Unresolved cards go back (S5, S14), the set-aside card names trump, phase 2 starts."""
        if self.trick:
            for i, card in enumerate(self.trick):
                seat = self.leader if i % 2 == 0 else self.responder
                self.hands[seat] |= 1 << card
                self.known[seat] |= 1 << card
            self.events.append((E_TAKEN_BACK, self.leader, self.responder, 0))
            self.trick.clear()
        holder, card = self.holder, self.last_card
        self.trump = card // 13
        self.hands[holder] |= 1 << card
        self.known[holder] |= 1 << card
        self.picked[holder] |= 1 << card
        self.events.append((E_TRUMP, holder, card, 0))
        for s in range(PLAYERS):
            self.hands[s] |= self.won[s]
            self.known[s] |= self.won[s]  # every card of a trick lay face up
            self.won[s] = 0
        self.phase = PHASE2
        self.turn = holder
        for s in range(PLAYERS):
            if not self.hands[s]:
                self.places[s] = 1  # out before phase 2 starts: the best place, shared (S12)
                self.events.append((E_OUT, s, 1, 0))
        if not self._end_if_decided():
            self.events.append((E_PHASE2, holder, 0, 0))
            self._note_position()

    # --- phase 2: shedding (§4.3) ----------------------------------------------------------------

    def _play2(self, seat: Seat, action: Action) -> None:
        if action == PICKUP:
            if self._compelled():
                self._remember(seat, NO_BEAT)
            group = self.groups.pop()
            self.group_seats.pop()
            cards = group_mask(group)
            self.hands[seat] |= cards
            self.known[seat] |= cards
            self.picked[seat] |= cards
            self.events.append((E_PICKUP, seat, group, 0))
            self.turn = self._next_holding(seat)
        else:
            cards = group_mask(action)
            if self.groups and group_high(action) // 13 != group_bounds(self.groups[0])[0] // 13:
                self._remember(seat, VOID)
            self.hands[seat] &= ~cards
            self.known[seat] &= ~cards
            self.picked[seat] &= ~cards
            self.groups.append(action)
            self.group_seats.append(seat)
            self.events.append((E_PLAYED, seat, action, 0))
            if not self.hands[seat]:
                self._go_out(seat)
            if len(self.groups) == 3:  # three plays close the trick; the last player leads
                self.discarded += sum(group_bounds(g)[1] for g in self.groups)
                self.groups.clear()
                self.group_seats.clear()
                self.seen.clear()  # fewer cards in play: no earlier position can come back
                self.turn = seat if self.hands[seat] else self._next_holding(seat)
                self.events.append((E_TURNED_AWAY, self.turn, 0, 0))
            else:
                self.turn = self._next_holding(seat)
        self.moves += 1
        if not self._end_if_decided():
            if self.moves >= PHASE2_CAP:
                self._stop_at_cap()
            else:
                self._note_position()
        self._trim_events()

    def _note_position(self) -> None:
        """S15: count the position now on the table. It is what everyone has seen: the cards
        each player is known to hold, how many each holds, the groups in the trick, and whose
        turn it is (who played a group changes nothing in what follows). Unseen cards never
        move in phase 2 (a card played is seen, a card picked up is known), so the same public
        position is the same deal."""
        key = (
            self.turn,
            *self.known,
            *(h.bit_count() for h in self.hands),
            *self.groups,
        )
        self.repeated = self.seen.get(key, 0)
        self.seen[key] = self.repeated + 1
        lifted = self.repeated and self.options.must_beat and self.groups
        if lifted and self._beat_cards(self.hands[self.turn]):
            self.events.append((E_REPEAT, self.turn, 0, 0))

    def _remember(self, seat: Seat, kind: int) -> None:
        """What this play shows about the seat's unseen cards (for ``determinize``)."""
        if self.hands[seat] & ~self.known[seat]:
            led = group_bounds(self.groups[0])[0] // 13
            self.constraints.append((seat, self.hands[seat], led, self.groups[-1], kind))

    def _next_holding(self, seat: Seat) -> Seat:
        for step in range(1, PLAYERS + 1):
            other = (seat + step) % PLAYERS
            if self.hands[other]:
                return other
        return seat

    def _go_out(self, seat: Seat) -> None:
        self.places[seat] = 1 + sum(1 for p in self.places if p)
        self.events.append((E_OUT, seat, self.places[seat], 0))

    def _end_if_decided(self) -> bool:
        holding = [s for s in range(PLAYERS) if self.hands[s]]
        if len(holding) > 1:
            return False
        for s in holding:
            self.places[s] = PLAYERS
            self.events.append((E_SKITGUBBE, s, self.hands[s].bit_count(), 0))
        self.phase = OVER
        self.turn = -1
        return True

    def _stop_at_cap(self) -> None:
        """S13: the players still holding cards rank after those out, fewer cards first."""
        out = sum(1 for p in self.places if p)
        counts = [self.hands[s].bit_count() for s in range(PLAYERS)]
        for s in range(PLAYERS):
            if self.hands[s]:
                fewer = sum(1 for o in range(PLAYERS) if self.hands[o] and counts[o] < counts[s])
                self.places[s] = out + 1 + fewer
        self.events.append((E_CAP, self.moves, 0, 0))
        self.phase = OVER
        self.turn = -1

    def _trim_events(self) -> None:
        if len(self.events) > 6 * EVENTS_KEPT:
            del self.events[: -3 * EVENTS_KEPT]

    # --- reading the match ------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.phase == OVER

    def deal_number(self) -> int:
        return 1

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if self.phase != OVER:
            raise ValueError("the match is not over")
        scores = tuple(-self.hands[s].bit_count() for s in range(PLAYERS))
        return Result(scores, tuple(self.places))

    def _phase_msg(self) -> Msg:
        if self.phase == PHASE1:
            return Msg.of(f"{GAME_ID}.phase.collect", stock=len(self.stock))
        if self.phase == PHASE2:
            return Msg.of(f"{GAME_ID}.phase.shed", suit=SUITS[self.trump])
        return Msg.of("table.phase.over")

    def _seat_view(self, s: Seat) -> SeatView:
        notes: list[Msg] = []
        place = self.places[s]
        if place and (self.phase != OVER or self.hands[s] == 0):
            notes.append(Msg.of(f"{GAME_ID}.note.out", place=place))
        if self.phase == OVER and self.hands[s]:
            key = "skitgubbe" if place == PLAYERS else "place"
            notes.append(Msg.of(f"{GAME_ID}.note.{key}", place=place))
        over = self.phase == OVER
        return SeatView(
            cards=self.hands[s].bit_count(),
            score=-self.hands[s].bit_count() if over else 0,
            tricks=self.tricks_won[s] if self.phase == PHASE1 else None,
            shown=mask_cards(self.hands[s] & self.picked[s]),
            notes=tuple(notes),
        )

    def _piles(self) -> tuple[Pile, ...]:
        piles: list[Pile] = []
        if self.phase == PHASE1:
            piles.append(Pile("table.pile.stock", hidden=len(self.stock)))
            if self.holder >= 0:
                piles.append(Pile(f"{GAME_ID}.pile.last_card", hidden=1, seat=self.holder))
            for s in range(PLAYERS):
                if self.won[s]:
                    piles.append(
                        Pile("table.pile.won_tricks", hidden=self.won[s].bit_count(), seat=s)
                    )
        for i, (group, s) in enumerate(zip(self.groups, self.group_seats, strict=True)):
            cards = mask_cards(group_mask(group))
            piles.append(Pile(f"{GAME_ID}.pile.group{i + 1}", cards, seat=s))
        if self.discarded:
            piles.append(Pile(f"{GAME_ID}.pile.discarded", hidden=self.discarded))
        return tuple(piles)

    def _message(self, event: Event) -> Msg:
        kind, a, b, _ = event
        k = f"{GAME_ID}.event."
        if kind == E_DEAL:
            return Msg.of("table.event.deal_started", deal=1, seat=a)
        if kind == E_CHANCE:
            return Msg.of(k + "chance", seat=a, card=code(b))
        if kind == E_BOUNCE:
            return Msg.of(k + "bounce", seat=a, other_seat=b)
        if kind == E_TRICK:
            return Msg.of(k + "trick_won", seat=a, cards=_codes(b))
        if kind == E_SET_ASIDE:
            return Msg.of(k + "set_aside", seat=a)
        if kind == E_TAKEN_BACK:
            return Msg.of(k + "taken_back", seat=a, other_seat=b)
        if kind == E_TRUMP:
            return Msg.of(k + "trump", seat=a, card=code(b), suit=SUITS[b // 13])
        if kind == E_PHASE2:
            return Msg.of(k + "phase_two", seat=a)
        if kind == E_PLAYED:
            return Msg.of(k + "played", seat=a, cards=notation(b))
        if kind == E_PICKUP:
            return Msg.of(k + "pickup", seat=a, cards=notation(b))
        if kind == E_TURNED_AWAY:
            return Msg.of(k + "turned_away", seat=a)
        if kind == E_OUT:
            return Msg.of(k + "out", seat=a, place=b)
        if kind == E_SKITGUBBE:
            return Msg.of(k + "skitgubbe", seat=a, count=b)
        if kind == E_REPEAT:
            return Msg.of(k + "repeat", seat=a)
        return Msg.of(k + "cap", moves=a)

    def view(self, seat: Seat | None) -> View:
        trick: tuple[tuple[Seat, Card], ...] = ()
        if self.phase == PHASE1:
            trick = tuple(
                (self.leader if i % 2 == 0 else self.responder, Card(c))
                for i, c in enumerate(self.trick)
            )
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase_msg(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=tuple(self._seat_view(s) for s in range(PLAYERS)),
            trick=trick,
            trump=None if self.trump < 0 else self.trump,
            piles=self._piles(),
            events=tuple(self._message(e) for e in self.events[-EVENTS_KEPT:]),
            deal=1,
            dealer=self.dealer,
            notes=self._forced_pickup_note(seat),
            repeated=self.repeated if self.phase == PHASE2 else 0,
        )

    def _forced_pickup_note(self, seat: Seat | None) -> tuple[Msg, ...]:
        """Why ``seat``, to act, can only pick up (supa), from its own hand (§4.3, S6)."""
        if seat is None or self.phase != PHASE2 or not self.groups or seat != self._actor():
            return ()
        hand = self.hands[seat]
        if self._beat_cards(hand):
            return ()
        led = group_bounds(self.groups[0])[0] // 13
        top = group_high(self.groups[-1])
        k = f"{GAME_ID}.note.must_pick_up_"
        if hand & SUIT_MASKS[led]:
            if top // 13 != led:  # a trump lies on a plain lead: holding the led suit, no beat
                return (Msg.of(k + "trump_on_top", suit=led, card=code(top)),)
            return (Msg.of(k + "nothing_higher", suit=led, card=code(top)),)
        if top // 13 == self.trump and hand & SUIT_MASKS[self.trump]:
            return (Msg.of(k + "no_higher_trump", card=code(top)),)
        return (Msg.of(k + "no_suit_no_trump", suit=led, trump_suit=self.trump),)

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> Skitgubbe:
        """Re-deal what ``seat`` has not seen: the stock, the set-aside card and the unseen cards
        of the other hands. Cards that lay face up (tricks won in phase 1, cards taken back or
        picked up, the turned-up trump card) stay with their holders; a hand that showed out of
        the led suit (or, under compulsory beating, could not beat) keeps showing it."""
        other = self.clone(rng)
        others = [s for s in range(PLAYERS) if s != seat]
        unseen = [self.hands[s] & ~self.known[s] for s in others]
        pool = [c for mask in unseen for c in cards_in(mask)]
        stock_places = len(self.stock)
        pool += self.stock
        hidden_last = self.phase == PHASE1 and self.holder >= 0
        if hidden_last:
            pool.append(self.last_card)
        if not pool:
            return other
        counts = [mask.bit_count() for mask in unseen]
        for _ in range(64):
            shuffle(pool, rng)
            new = []
            start = 0
            for n in counts:
                new.append(sum(1 << c for c in pool[start : start + n]))
                start += n
            if self._fits(others, unseen, new):
                break
        for s, old, fresh in zip(others, unseen, new, strict=True):
            other.hands[s] = (self.hands[s] & ~old) | fresh
        start = sum(counts)
        other.stock = pool[start : start + stock_places]
        if hidden_last:
            other.last_card = pool[start + stock_places]
        return other

    def _fits(self, others: list[Seat], unseen: list[int], new: list[int]) -> bool:
        for s, old, fresh in zip(others, unseen, new, strict=True):
            for who, then, led, top, kind in self.constraints:
                if who != s:
                    continue
                hand = (then & ~old) | fresh
                if kind == VOID and hand & SUIT_MASKS[led]:
                    return False
                if kind == NO_BEAT and beat_cards(hand, led, top, self.trump):
                    return False
        return True

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        return notation(action)

    def parse(self, text: str) -> Action:
        return parse(text)


def _codes(mask: int) -> str:
    return " ".join(code(c) for c in cards_in(mask))
