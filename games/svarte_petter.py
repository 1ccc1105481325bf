"""Svarte Petter (Black Peter), 3–6 players: the rules engine (rules/party.md §2).

Rules implemented (the Swedish text, with the spec's decisions D1..D9):

- 51 cards: the jack of clubs is set aside (a face-up pile); the jack of spades (J♠) is Svarte
  Petter and never pairs. J♥ + J♦ are a pair (D1); every other pair is two cards of one rank.
- The dealer is drawn at random; all cards are dealt one at a time clockwise from förhand
  (dealer + 1), so the first ``51 mod n`` hands from förhand get one card more. The deal leaves
  every hand in random (dealt) order.
- Pairs are laid down automatically and face up (D8): after the deal every hand lays down its
  pairs, suits paired in the order ♣ ♦ ♥ ♠ (a third card of a rank is kept). A hand then holds
  at most one card of each pairing class.
- Förhand draws first (or the next player with cards, D3). The drawer takes one card, chosen by
  its position in the fan, from the next player to the left who still has cards (D2, D4). A card
  that pairs is laid down at once; otherwise it goes to a uniformly random place in the drawer's
  fan. The player drawn from draws next (or the next player with cards after them).
- On their turn, before drawing, the drawer may shuffle their own fan once. This is how the
  engine offers §2.5's "rearrange your hand": nobody can reorder a hand while it is drawn from.
- A player with no cards goes out. Places follow the order of going out (D7); when both go out on
  one draw, the player drawn from goes out first (D5); players out straight after the deal share
  the best places (D6). The last player holds the odd card (J♠) alone: Svarte Petter, last place.
- Safety net (§2.4): after 2,000 draws the game stops. The players still holding cards rank
  after those out, by cards held (fewer is better); the holder of the odd card, when it is
  known which card that is, ranks last.

Variants (§2.6), all off by default: ``odd_card="queen"`` (R1, Old Maid: the queen of clubs is
set aside instead, all four jacks pair, the three queens pair freely and the last one loses),
``odd_card="random"`` (R4: the deck holds all 52 cards and its last card is set aside face
down; nobody knows which card is the odd one until the end, when it is shown), ``reverse`` (R2: the
player left with the odd card wins; everyone else keeps the order of going out below them) and
``colour_pairs`` (R3: a pair must also match in colour, red with red, black with black).

Scores: 1 for a winner, 0 for everyone else. Winners are the players who went out (the reverse
game: the player left with the odd card). Places are what matter.

Notation:

- ``draw N``: take the card at position N (1 = first) of the victim's fan, 1 ≤ N ≤ its size.
- ``shuffle``: shuffle your own hand (only the drawer, before drawing, once per turn).

Standard library only; no clock, no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from games.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    QUEEN,
    SPADES,
    Card,
    card,
    cards_tuple,
    codes,
    deal_deck,
    randbelow,
    rank_of,
    shuffle,
    suit_of,
)
from games.core import (
    Action,
    EventLog,
    Game,
    GameSpec,
    IllegalActionError,
    Msg,
    NotationError,
    Options,
    Pile,
    Result,
    Seat,
    SeatView,
    View,
    competition_places,
)

GAME_ID = "svarte_petter"

DRAW = 1000  # ``draw N`` is DRAW + N
MAX_POSITION = 999
SHUFFLE = 2000
DRAW_CAP = 2000  # §2.4 safety net

NEVER_PAIRS = -1  # pairing class of a card that pairs with nothing
JACK_OF_SPADES = card(JACK, SPADES)
# How many tries the weighted re-deal in ``determinize`` gets before it keeps the real places.
REDEAL_TRIES = 64


OddCard = Literal["jack_of_clubs_removed", "queen", "random"]


@dataclass(frozen=True)
class SvartePetterOptions(Options):
    """§2.6 variants; the defaults are the Swedish game."""

    odd_card: OddCard = "jack_of_clubs_removed"
    reverse: bool = False
    colour_pairs: bool = False


def pairing_classes(options: SvartePetterOptions) -> tuple[int, ...]:
    """Per card int, its pairing class: two cards pair when their classes are equal and >= 0."""
    never = JACK_OF_SPADES if options.odd_card == "jack_of_clubs_removed" else -1
    out = []
    for c in range(52):
        if c == never:
            out.append(NEVER_PAIRS)  # D1: J♠ never pairs
        elif options.colour_pairs:
            out.append(rank_of(c) * 2 + (suit_of(c) in (DIAMONDS, HEARTS)))  # R3
        else:
            out.append(rank_of(c))
    return tuple(out)


def lay_down_pairs(hand: list[int], classes: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """§2.2: the kept cards (in hand order) and the laid cards, pair by pair, of a dealt hand.

    Cards of one class pair in suit order ♣ ♦ ♥ ♠; an odd one out (the last) is kept.
    """
    by_class: dict[int, list[int]] = {}
    for c in hand:
        if classes[c] != NEVER_PAIRS:
            by_class.setdefault(classes[c], []).append(c)
    laid: list[int] = []
    laid_set: set[int] = set()
    for cls in sorted(by_class):
        group = sorted(by_class[cls])  # card ints go suit by suit: ♣ ♦ ♥ ♠
        for i in range(0, len(group) - 1, 2):
            laid += group[i : i + 2]
            laid_set.update(group[i : i + 2])
    return [c for c in hand if c not in laid_set], laid


class SvartePetter(Game):
    """One game of Svarte Petter. Hands are ordered lists (the fans); ``apply`` mutates in place."""

    game_id = GAME_ID
    copied = ("_events", "_out_group", "_notes")
    copied_nested = ("_known", "_pairs", "_hands")

    def __init__(
        self,
        players: int,
        options: SvartePetterOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        self._n = players
        self._options = options
        self.rng = rng
        self._classes = pairing_classes(options)
        self._events = EventLog()
        self._dealer = randbelow(rng, players)
        self._draws = 0
        self._shuffled = False
        self._over = False
        self._out_group = [-1] * players  # -1: still in; else the index of the going-out group
        self._groups = 0
        self._known: list[dict[int, Seat]] = [{} for _ in range(players)]
        self._notes: list[Msg | None] = [None] * players
        self._pairs: list[list[int]] = [[] for _ in range(players)]
        self._result: Result | None = None
        self._shown: tuple[Seat, int] | None = None  # the odd card, shown at the end

        if options.odd_card == "random":
            # R4: the bottom card of the deck is set aside face down.
            order = deal_deck(decks, 0, range(52), rng)
            self._removed = order.pop()
            self._removed_hidden = True
        else:
            self._removed = card(
                JACK if options.odd_card == "jack_of_clubs_removed" else QUEEN, CLUBS
            )
            self._removed_hidden = False
            order = deal_deck(decks, 0, [c for c in range(52) if c != self._removed], rng)
        forhand = (self._dealer + 1) % players
        dealt: list[list[int]] = [[] for _ in range(players)]
        for k, c in enumerate(order):
            dealt[(forhand + k) % players].append(c)
        self._events.add(Msg.of("table.event.deal_started", deal=1, seat=self._dealer))
        self._hands: list[list[int]] = []
        for seat, hand in enumerate(dealt):
            kept, laid = lay_down_pairs(hand, self._classes)
            self._hands.append(kept)
            self._pairs[seat] = laid
            if laid:
                self._events.add(
                    Msg.of(f"{GAME_ID}.event.pairs_dealt", seat=seat, cards=codes(laid))
                )
        empty = [s for s in range(players) if not self._hands[s]]
        if empty:  # D6: everyone out after the deal shares the best place
            for seat in empty:
                self._out_group[seat] = 0
                self._events.add(Msg.of(f"{GAME_ID}.event.out", seat=seat))
            self._groups = 1
        self._drawer = forhand
        if self._active_count() <= 1:
            self._end()
        elif not self._hands[forhand]:
            self._drawer = self._next_active(forhand)  # D3

    # --- turn order -------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._n

    def _active_count(self) -> int:
        return sum(1 for h in self._hands if h)

    def _next_active(self, seat: Seat) -> Seat:
        """The first seat after ``seat`` clockwise that still holds cards (§0.2)."""
        for step in range(1, self._n + 1):
            other = (seat + step) % self._n
            if self._hands[other]:
                return other
        raise AssertionError("no player holds cards")

    def _victim(self) -> Seat:
        return self._next_active(self._drawer)  # D2, D4: the next player to the left with cards

    def to_act(self) -> frozenset[Seat]:
        return frozenset() if self._over else frozenset((self._drawer,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self._over or seat != self._drawer:
            return []
        actions = [DRAW + i for i in range(1, len(self._hands[self._victim()]) + 1)]
        if not self._shuffled and len(self._hands[seat]) > 1:
            actions.append(SHUFFLE)
        return actions

    # --- playing ----------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        if self._over:
            raise IllegalActionError("the game is over")
        if seat != self._drawer:
            raise IllegalActionError("it is not your turn to draw")
        if action == SHUFFLE:
            if self._shuffled:
                raise IllegalActionError("you have already shuffled your hand this turn")
            if len(self._hands[seat]) < 2:
                raise IllegalActionError("you hold one card: there is nothing to shuffle")
            shuffle(self._hands[seat], self.rng)
            self._shuffled = True
            self._events.add(Msg.of(f"{GAME_ID}.event.shuffled", seat=seat))
            return
        if not DRAW <= action <= DRAW + MAX_POSITION:
            raise IllegalActionError("that is not a move in Svarte Petter")
        size = len(self._hands[self._victim()])
        position = action - DRAW
        if not 1 <= position <= size:
            raise IllegalActionError(f"choose a card from 1 to {size}")
        self._draw(position)

    def _draw(self, position: int) -> None:
        drawer, victim = self._drawer, self._victim()
        taken = self._hands[victim].pop(position - 1)
        hand = self._hands[drawer]
        cls = self._classes[taken]
        partner = -1
        if cls != NEVER_PAIRS:
            partner = next((c for c in hand if self._classes[c] == cls), -1)
        # What each seat knows of where cards are (see ``determinize``): the taken card moved, and
        # only the drawer knows which of the victim's cards went.
        for seat, known in enumerate(self._known):
            known.pop(taken, None)
            if seat != drawer:
                for c in [c for c, place in known.items() if place == victim]:
                    del known[c]
        self._events.add(Msg.of(f"{GAME_ID}.event.drew", seat=drawer, from_seat=victim))
        self._events.add(
            Msg.of(f"{GAME_ID}.event.you_drew", card=codes([taken]), from_seat=victim),
            visible_to=(drawer,),
        )
        self._events.add(
            Msg.of(f"{GAME_ID}.event.took_yours", seat=drawer, card=codes([taken])),
            visible_to=(victim,),
        )
        self._notes[drawer] = Msg.of(f"{GAME_ID}.note.drew", card=codes([taken]), from_seat=victim)
        self._notes[victim] = Msg.of(f"{GAME_ID}.note.taken", seat=drawer, card=codes([taken]))
        if partner >= 0:
            hand.remove(partner)
            pair = sorted((partner, taken))
            self._pairs[drawer] += pair
            for known in self._known:
                known.pop(partner, None)
            self._events.add(Msg.of(f"{GAME_ID}.event.pair", seat=drawer, cards=codes(pair)))
        else:
            hand.insert(randbelow(self.rng, len(hand) + 1), taken)
            self._known[victim][taken] = drawer
        for seat in (victim, drawer):  # D5: the victim's hand emptied first
            if not self._hands[seat] and self._out_group[seat] < 0:
                self._out_group[seat] = self._groups
                self._groups += 1
                self._events.add(Msg.of(f"{GAME_ID}.event.out", seat=seat))
        self._draws += 1
        self._shuffled = False
        if self._active_count() <= 1:
            self._end()
            return
        self._drawer = victim if self._hands[victim] else self._next_active(victim)
        if self._draws >= DRAW_CAP:
            self._events.add(Msg.of(f"{GAME_ID}.event.draw_cap", draws=self._draws))
            self._end()

    # --- the end ----------------------------------------------------------------------------------

    def _odd_cards_in_hands(self) -> list[int]:
        """Cards in hands of the odd class: J♠, or the class of the set-aside card (R1, R4)."""
        if self._options.odd_card == "jack_of_clubs_removed":
            return [JACK_OF_SPADES]
        odd = self._classes[self._removed]
        return [c for h in self._hands for c in h if self._classes[c] == odd]

    def _odd_holder(self) -> tuple[Seat, int] | None:
        """The seat holding the odd card and that card, once it is known which card that is."""
        odd = self._odd_cards_in_hands()
        if len(odd) != 1:
            return None
        holder = next(s for s in range(self._n) if odd[0] in self._hands[s])
        return holder, odd[0]

    def _marked(self, seat: Seat) -> tuple[Card, ...]:
        """The odd card in ``seat``'s hand, once anyone could tell it is the odd one: J♠ from the
        deal; in the queen game (R1) the last queen, the others being paired face up; with the
        set-aside card face down (R4) only at the end, when it is shown."""
        if self._options.odd_card == "random" and not self._over:
            return ()
        holder = self._odd_holder()
        if holder is None or holder[0] != seat:
            return ()
        return cards_tuple([holder[1]])

    def _end(self) -> None:
        self._over = True
        holder = self._odd_holder()
        if holder is not None:
            seat, odd = holder
            key = "odd_winner" if self._options.reverse else "loser"
            self._events.add(Msg.of(f"{GAME_ID}.event.{key}", seat=seat, card=codes([odd])))
            self._shown = holder
        if self._removed_hidden:
            self._removed_hidden = False
            self._events.add(Msg.of(f"{GAME_ID}.event.removed", card=codes([self._removed])))
        odd_seat = -1 if holder is None else holder[0]
        keys: list[int] = []
        for seat in range(self._n):
            if seat == odd_seat:
                keys.append(-1 if self._options.reverse else 1000)  # R2 / D7
            elif self._out_group[seat] >= 0:
                keys.append(self._out_group[seat])
            else:
                keys.append(100 + len(self._hands[seat]))  # §2.4 cap: by cards held
        if self._options.reverse:
            scores = [int(seat == odd_seat) for seat in range(self._n)]
        else:
            scores = [int(self._out_group[seat] >= 0) for seat in range(self._n)]
        self._result = Result(tuple(scores), competition_places(keys))

    def is_over(self) -> bool:
        return self._over

    def deal_number(self) -> int:
        return 1

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return cards_tuple(self._hands[seat])

    def result(self) -> Result:
        if self._result is None:
            raise ValueError("the game is not over")
        return self._result

    # --- views ------------------------------------------------------------------------------------

    def view(self, seat: Seat | None) -> View:
        result, holder = self._result, self._shown
        seats = []
        for s in range(self._n):
            notes: list[Msg] = []
            if self._out_group[s] >= 0:
                notes.append(Msg.of(f"{GAME_ID}.note.out"))
            if result is not None:
                notes.append(Msg.of(f"{GAME_ID}.note.place", place=result.places[s]))
            shown = cards_tuple([holder[1]]) if holder is not None and holder[0] == s else ()
            seats.append(
                SeatView(
                    cards=len(self._hands[s]),
                    score=0 if result is None else result.scores[s],
                    shown=shown,
                    notes=tuple(notes),
                )
            )
        removed = Pile(
            f"{GAME_ID}.pile.removed",
            cards=() if self._removed_hidden else cards_tuple([self._removed]),
            hidden=1 if self._removed_hidden else 0,
        )
        pairs = [
            Pile(f"{GAME_ID}.pile.pairs", cards=cards_tuple(self._pairs[s]), seat=s)
            for s in range(self._n)
        ]
        if self._over:
            phase = Msg.of("table.phase.over")
        else:
            phase = Msg.of(f"{GAME_ID}.phase.draw", seat=self._drawer, from_seat=self._victim())
        note = None if seat is None else self._notes[seat]
        return View(
            game=GAME_ID,
            seat=seat,
            phase=phase,
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=tuple(seats),
            piles=(removed, *pairs),
            events=self._events.for_viewer(seat),
            notes=() if note is None else (note,),
            dealer=self._dealer,
            marked=() if seat is None else self._marked(seat),
        )

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        if action == SHUFFLE:
            return "shuffle"
        if DRAW <= action <= DRAW + MAX_POSITION:
            return f"draw {action - DRAW}"
        raise ValueError(f"not a Svarte Petter action: {action}")

    def parse(self, text: str) -> Action:
        words = text.strip().lower().split()
        if words == ["shuffle"]:
            return SHUFFLE
        if len(words) == 2 and words[0] == "draw":
            number = words[1]
            if number.isascii() and number.isdigit() and int(number) <= MAX_POSITION:
                return DRAW + int(number)
        raise NotationError(f"not a Svarte Petter move: {text!r} (write draw N or shuffle)")

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> SvartePetter:
        """A copy in which the cards hidden from ``seat`` are re-dealt among the hidden places.

        Hidden places are the other hands (each keeps its size) and, in R4, the set-aside card.
        ``seat`` keeps what it knows: its own fan, the laid pairs, and every card it gave away
        that is surely still where it went (nobody else has drawn from that hand since). The
        re-deal never gives one hand two cards that pair, since those would have been laid down.
        """
        other = self.clone(rng)
        if self._over:
            return other
        pinned = self._known[seat]
        removed_place = self._n
        places = [p for p in range(self._n) if p != seat and self._hands[p]]
        pool: list[int] = []
        capacity: dict[int, int] = {}
        blocked: dict[int, set[int]] = {}
        for p in places:
            free = [c for c in self._hands[p] if c not in pinned]
            pool += free
            capacity[p] = len(free)
            blocked[p] = {self._classes[c] for c in self._hands[p] if c in pinned} - {NEVER_PAIRS}
        if self._removed_hidden:
            pool.append(self._removed)
            capacity[removed_place] = 1
            blocked[removed_place] = set()
        dealt = self._redeal(pool, capacity, blocked, rng)
        if dealt is None:  # never seen in testing; the real places are a valid deal
            dealt = {p: [c for c in self._hands[p] if c not in pinned] for p in places}
            if self._removed_hidden:
                dealt[removed_place] = [self._removed]
        for p in places:
            hand = [c for c in self._hands[p] if c in pinned] + dealt[p]
            shuffle(hand, rng)
            other._hands[p] = hand
        if self._removed_hidden:
            other._removed = dealt[removed_place][0]
        for s in range(self._n):
            if s != seat:  # other seats' private knowledge no longer matches the re-deal
                other._known[s] = {}
                other._notes[s] = None
        return other

    def _redeal(
        self,
        pool: list[int],
        capacity: dict[int, int],
        blocked: dict[int, set[int]],
        rng: random.Random,
    ) -> dict[int, list[int]] | None:
        """Deal ``pool`` to the places so that each gets ``capacity`` cards and no place gets two
        cards of one pairing class (or one of a class ``blocked`` there). Classes are dealt
        largest first, each card to a distinct place chosen with weight = room left; a dead end
        retries. None if every try fails."""
        by_class: dict[int, list[int]] = {}
        for c in pool:
            # J♠ (which pairs with nothing) is a class of its own.
            cls = self._classes[c] if self._classes[c] != NEVER_PAIRS else -1 - c
            by_class.setdefault(cls, []).append(c)
        groups = list(by_class.items())
        for _ in range(REDEAL_TRIES):
            order = list(range(len(groups)))
            shuffle(order, rng)
            order.sort(key=lambda i: -len(groups[i][1]))
            room = dict(capacity)
            dealt: dict[int, list[int]] = {p: [] for p in capacity}
            for i in order:
                cls, cards = groups[i]
                open_places = [p for p in room if room[p] > 0 and cls not in blocked[p]]
                if len(open_places) < len(cards):
                    break
                for c in cards:
                    p = _weighted_choice(open_places, room, rng)
                    open_places.remove(p)
                    room[p] -= 1
                    dealt[p].append(c)
            else:
                return dealt
        return None


def _weighted_choice(places: list[int], weight: dict[int, int], rng: random.Random) -> int:
    """One of ``places``, each with probability proportional to its weight."""
    pick = randbelow(rng, sum(weight[p] for p in places))
    for p in places:
        pick -= weight[p]
        if pick < 0:
            return p
    raise AssertionError("weights must be positive")


def _factory(
    players: int,
    options: SvartePetterOptions,
    rng: random.Random,
    decks: list[list[int]] | None,
) -> Game:
    return SvartePetter(players, options, rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=3,
    max_players=6,
    options_type=SvartePetterOptions,
    factory=_factory,
    presets={
        "standard": SvartePetterOptions(),
        "old_maid": SvartePetterOptions(odd_card="queen"),
        "hidden_odd_card": SvartePetterOptions(odd_card="random"),
        "reverse": SvartePetterOptions(reverse=True),
        "colour_pairs": SvartePetterOptions(colour_pairs=True),
    },
    trick_taking=False,
    points=False,
)
