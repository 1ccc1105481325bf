"""Löjliga familjerna (Happy Families), 3–5 players: the rules engine (rules/party.md §4).

Rules implemented (the Swedish text, with the spec's decisions D1..D7):

- 52 cards; the families are the 13 ranks, a quartet (kvartett) is all four cards of a rank.
  The dealer is drawn at random and every card is dealt one at a time from förhand (the
  dealer's left), so with 3 or 5 players the first hands from förhand get one card more.
- A quartet dealt complete is laid out at once and counts for its holder (D1).
- Förhand asks first (or the next player clockwise with cards). On your turn you name another
  player who has cards and a rank you hold yourself: "Måns, har du några nior?". The asked
  player must hand over every card of that rank. A completed quartet is laid out at once.
- You ask again, of the same or another player, for as long as the answer is yes (D4). When the
  answer is no, the turn passes to the asked player (not clockwise). A player whose hand is
  empty neither asks nor is asked; when the asker empties their own hand, the turn goes to the
  next player clockwise with cards (D2).
- The game ends when all 13 quartets are out; the most quartets wins, ties share a place (D5).
  Safety net (§4.4): after 1,000 asks the game stops and is ranked by quartets at that point.

Information: every question and its answer (how many cards changed hands) is public, as at a
real table, and so are the quartets and the hand sizes; the suits handed over are seen only by
the two players. The view gives each seat what the questions have shown about the others: the
ranks a player is known to hold (they asked for them, or received them) and the ranks a player is
known to lack (they answered no, or gave them all away). ``determinize`` keeps those facts.

Variants (§4.6, reference rules, all off by default):

- ``go_fish`` (R1, Go Fish): each player is dealt 7 cards (3 players) or 5 (4–5 players), one at
  a time from förhand; the rest is a face-down stock. After a "no" the asker draws the top card of
  the stock (a quartet it completes is laid out), then the turn passes as usual. A player whose
  hand runs empty draws a card while the stock lasts, so they stay in the game.
- ``authors`` (R2, Authors): ask for one card, rank and suit, of a rank you hold and not the card
  itself (asking for your own card could never be answered yes). Only that card is handed over.
  ``ask_own_card`` (the versions of R2 without that ban): you may ask for a card you hold; the
  answer is always no, so the turn passes on.
- ``turn_after_no="clockwise"`` (the version of R2 that some rules give, for either game): after a
  "no" the turn goes to the asker's left instead of to the asked player.

Timeout (D6, ``timeout_action``): a random legal ask, drawn from the game's generator.

Notation: ``ask <seat> <rank>``, e.g. ``ask 2 9`` (ask seat 2 for nines; ranks ``2-9 T J Q K A``);
with ``authors``, ``ask <seat> <card>``, e.g. ``ask 2 9H``. There is no other action (no pass: D6).

Standard library only; no clock, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from games.cards import (
    RANK_MASKS,
    RANKS,
    Card,
    cards_in,
    cards_tuple,
    code,
    codes,
    copy_rng,
    deal_deck,
    make_deck,
    mask_cards,
    parse_card,
    randbelow,
    shuffled,
)
from games.core import (
    Action,
    ArgValue,
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

GAME_ID = "lojliga_familjerna"
MAX_ASKS = 1000  # §4.4: the safety net


def rank_index(card: int) -> int:
    """0 for twos .. 12 for aces."""
    return card % 13


AUTHORS = 1000  # with ``authors``, ``ask <seat> <card>`` is AUTHORS + seat * 52 + card
TurnAfterNo = Literal["asked", "clockwise"]


@dataclass(frozen=True)
class LojligaFamiljernaOptions(Options):
    """§4.6: the Swedish text names no variant; the reference variants, all off by default."""

    go_fish: bool = False
    authors: bool = False
    turn_after_no: TurnAfterNo = "asked"
    ask_own_card: bool = False


def go_fish_hand(players: int) -> int:
    """R1: cards dealt to each player in Go Fish ("5–7 cards each")."""
    return 7 if players <= 3 else 5


class LojligaFamiljerna(Game):
    """One game. Hands are bit masks of the 52 cards; an action is ``target * 13 + rank``."""

    game_id = GAME_ID
    __slots__ = (
        "asks",
        "current",
        "dealer",
        "events",
        "hands",
        "known",
        "lacks",
        "n",
        "opts",
        "quartets",
        "rng",
        "shown",
        "stock",
    )
    copied = ("hands", "shown", "lacks", "stock", "events")
    copied_nested = ("quartets", "known")

    def __init__(
        self,
        players: int,
        options: LojligaFamiljernaOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        self.n = players
        self.opts = options
        self.rng = rng
        self.dealer = randbelow(rng, players)
        deck = deal_deck(decks, 0, make_deck(), rng)
        forhand = (self.dealer + 1) % players
        dealt = go_fish_hand(players) * players if options.go_fish else len(deck)
        self.stock = deck[dealt:][::-1]  # R1: face down, the top card last
        self.hands = [0] * players
        for k, c in enumerate(deck[:dealt]):
            self.hands[(forhand + k) % players] |= 1 << c
        self.quartets: list[list[int]] = [[] for _ in range(players)]  # ranks, in order laid
        # known[viewer][holder]: the cards ``viewer`` has seen go into ``holder``'s hand
        self.known = [[0] * players for _ in range(players)]
        # ranks (a bit each) the questions prove ``holder`` holds now, and does not hold: a
        # player who lacks a rank never gets it again (only asking for it brings a rank, and
        # only a player who holds it may ask)
        self.shown = [0] * players
        self.lacks = [0] * players
        self.asks = 0
        self.events = EventLog(keep=12)
        self.events.add(Msg.of("table.event.deal_started", deal=1, seat=self.dealer))
        for seat in range(players):  # D1: dealt quartets count for their holder
            for r in range(13):
                if self.hands[seat] & RANK_MASKS[r] == RANK_MASKS[r]:
                    self._lay_out(seat, r)
        self.current = forhand if self.hands[forhand] else self._next_with_cards(forhand)

    # --- the rules --------------------------------------------------------------------------------

    def _next_with_cards(self, seat: Seat) -> Seat:
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self.hands[other]:
                return other
        return -1

    def _over(self) -> bool:
        return self.current < 0 or self.asks >= MAX_ASKS

    def to_act(self) -> frozenset[Seat]:
        return frozenset() if self._over() else frozenset((self.current,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self._over() or seat != self.current:
            return []
        hand = self.hands[seat]
        targets = [t for t in range(self.n) if t != seat and self.hands[t]]
        ranks = [r for r in range(13) if hand & RANK_MASKS[r]]
        if self.opts.authors:  # R2: a card of a rank you hold, not one you hold (unless allowed)
            own = 0 if self.opts.ask_own_card else hand
            wanted = [c for r in ranks for c in cards_in(RANK_MASKS[r] & ~own)]
            return [AUTHORS + t * 52 + c for t in targets for c in wanted]
        return [t * 13 + r for t in targets for r in ranks]

    def timeout_action(self, seat: Seat) -> Action | None:
        """D6: a random legal ask for the absent player, drawn from the game's generator (a copy:
        asking changes nothing), a different draw for every ask of the game."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        draw = copy_rng(self.rng)
        pick = random.Random(draw.getrandbits(64) + self.asks)
        return legal[randbelow(pick, len(legal))]

    def _decode(self, action: Action) -> tuple[Seat, int, int]:
        """(target, rank index, the cards asked for) of an ask in this game's form."""
        if self.opts.authors:
            if action < AUTHORS:
                raise IllegalActionError("ask for one card, e.g. ask 2 9H")
            target, c = divmod(action - AUTHORS, 52)
            return target, c % 13, 1 << c
        if action >= AUTHORS:
            raise IllegalActionError("ask for a rank, e.g. ask 2 9")
        target, r = divmod(action, 13)
        return target, r, RANK_MASKS[r]

    def apply(self, seat: Seat, action: Action) -> None:
        if self._over():
            raise IllegalActionError("the game is over")
        if seat != self.current:
            raise IllegalActionError("it is not your turn to ask")
        target, r, wanted = self._decode(action)
        if not 0 <= target < self.n:
            raise IllegalActionError(f"there is no seat {target}")
        if target == seat:
            raise IllegalActionError("ask another player, not yourself")
        if not self.hands[target]:
            raise IllegalActionError("that player has no cards left and cannot be asked")
        if not self.hands[seat] & RANK_MASKS[r]:
            raise IllegalActionError(f"you may only ask for a rank you hold ({RANKS[r]})")
        if self.opts.authors and self.hands[seat] & wanted and not self.opts.ask_own_card:
            raise IllegalActionError("you hold that card yourself")
        self.asks += 1
        given = self.hands[target] & wanted
        kind, asked = _asked(self.opts, r, wanted)
        self.shown[seat] |= 1 << r
        if not given:
            if not self.opts.authors:
                self.lacks[target] |= 1 << r
            # R2: the asked player asks next, or the asker's left (drawing changes no other hand)
            after = target if self.opts.turn_after_no == "asked" else self._next_with_cards(seat)
            self.events.add(
                Msg.of(
                    f"{GAME_ID}.event.{kind}_none",
                    seat=seat,
                    target_seat=target,
                    next_seat=after,
                    **asked,
                )
            )
            if self.stock:  # R1: go fish
                self._draw(seat)
            if not self._over():
                self.current = after
            return
        count = given.bit_count()
        self.hands[target] &= ~given
        self.hands[seat] |= given
        if not self.opts.authors:
            self.lacks[target] |= 1 << r  # all of that rank is gone from the asked hand
        self.shown[target] &= ~(1 << r)
        for viewer in range(self.n):  # what anyone knew was in the asked hand moves with it
            self.known[viewer][seat] |= self.known[viewer][target] & given
            self.known[viewer][target] &= ~given
        self.known[seat][seat] |= given
        self.known[target][seat] |= given
        self.events.add(self._yes_msg(seat, target, r, count, kind, asked))
        cards = codes(cards_in(given))
        self.events.add(
            Msg.of(f"{GAME_ID}.event.you_got", target_seat=target, cards=cards), (seat,)
        )
        self.events.add(Msg.of(f"{GAME_ID}.event.you_gave", seat=seat, cards=cards), (target,))
        if self.hands[seat] & RANK_MASKS[r] == RANK_MASKS[r]:
            self._lay_out(seat, r)
        for holder in (seat, target):  # R1: an empty hand draws while the stock lasts
            if not self.hands[holder] and self.stock:
                self._draw(holder)
        if self._all_out():
            return
        if not self.hands[seat]:  # D2: the asker's hand is empty
            self.current = self._next_with_cards(seat)

    def _yes_msg(
        self, seat: Seat, target: Seat, r: int, count: int, kind: str, asked: dict[str, str]
    ) -> Msg:
        """The answer "yes", saying who asks next: the asker again, unless the cards he got
        lay out his last quartet with no stock to draw from (D2), when the next player
        clockwise with cards asks (none: the game is over)."""
        hand = self.hands[seat]
        if hand & RANK_MASKS[r] == RANK_MASKS[r]:
            hand &= ~RANK_MASKS[r]
        key = f"{GAME_ID}.event.{kind}_yes"
        args: dict[str, ArgValue] = {"seat": seat, "target_seat": target, "count": count, **asked}
        if hand or self.stock:
            return Msg.of(key, **args)
        after = self._next_with_cards(seat)
        if after < 0 or after == seat:
            return Msg.of(key + "_last", **args)
        return Msg.of(key + "_next", next_seat=after, **args)

    def _draw(self, seat: Seat) -> None:
        """R1: ``seat`` takes the top card of the stock; a quartet it completes is laid out."""
        while self.stock:
            c = self.stock.pop()
            self.hands[seat] |= 1 << c
            self.known[seat][seat] |= 1 << c
            self.lacks[seat] = 0  # an unseen card may be of any rank
            self.events.add(Msg.of(f"{GAME_ID}.event.drew", seat=seat, left=len(self.stock)))
            self.events.add(Msg.of(f"{GAME_ID}.event.you_drew", card=code(c)), (seat,))
            r = c % 13
            if self.hands[seat] & RANK_MASKS[r] == RANK_MASKS[r]:
                self._lay_out(seat, r)
            if self.hands[seat]:  # a hand emptied by that quartet draws again
                break
        self._all_out()

    def _all_out(self) -> bool:
        """Whether all thirteen quartets are out (and then the game is over)."""
        if sum(len(q) for q in self.quartets) < 13:
            return False
        if self.current >= 0:
            self.current = -1
            self.events.add(Msg.of(f"{GAME_ID}.event.all_out"))
        return True

    def _lay_out(self, seat: Seat, r: int) -> None:
        self.hands[seat] &= ~RANK_MASKS[r]
        for row in self.known:
            for holder in range(self.n):
                row[holder] &= ~RANK_MASKS[r]
        self.quartets[seat].append(r)
        for holder in range(self.n):  # the family is out: nothing more to remember of it
            self.shown[holder] &= ~(1 << r)
            self.lacks[holder] &= ~(1 << r)
        self.events.add(Msg.of(f"{GAME_ID}.event.quartet", seat=seat, rank=RANKS[r]))

    # --- reading the game -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def is_over(self) -> bool:
        return self._over()

    def deal_number(self) -> int:
        return 1

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def result(self) -> Result:
        if not self._over():
            raise ValueError("the game is not over")
        scores = tuple(len(q) for q in self.quartets)
        return Result(scores, competition_places([-s for s in scores]))

    def _seat_view(self, seat: Seat) -> SeatView:
        notes: list[Msg] = []
        if self.quartets[seat]:
            ranks = " ".join(RANKS[r] for r in self.quartets[seat])
            notes.append(Msg.of(f"{GAME_ID}.note.quartets", ranks=ranks))
        if self.shown[seat]:
            notes.append(Msg.of(f"{GAME_ID}.note.holds", ranks=_ranks(self.shown[seat])))
        if self.lacks[seat] and self.hands[seat]:
            notes.append(Msg.of(f"{GAME_ID}.note.lacks", ranks=_ranks(self.lacks[seat])))
        return SeatView(
            cards=self.hands[seat].bit_count(), score=len(self.quartets[seat]), notes=tuple(notes)
        )

    def view(self, seat: Seat | None) -> View:
        piles = tuple(
            Pile(
                f"{GAME_ID}.pile.quartets",
                cards_tuple(c for r in q for c in _rank_cards(r)),
                seat=s,
            )
            for s, q in enumerate(self.quartets)
            if q
        )
        if self.opts.go_fish:
            piles += (Pile(f"{GAME_ID}.pile.stock", hidden=len(self.stock)),)
        phase = (
            Msg.of("table.phase.over")
            if self._over()
            else Msg.of(f"{GAME_ID}.phase.asking", seat=self.current)
        )
        return View(
            game=GAME_ID,
            seat=seat,
            phase=phase,
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=tuple(self._seat_view(s) for s in range(self.n)),
            piles=piles,
            events=self.events.for_viewer(seat),
            dealer=self.dealer,
        )

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> LojligaFamiljerna:
        """Re-deal the cards ``seat`` has not seen among the other hands (and the stock in Go
        Fish), keeping their sizes, the cards it saw change hands, and what the questions proved:
        each other player keeps a card of every rank it is known to hold and gets none of a rank
        it is known to lack."""
        other = self.clone(rng)
        other.events = self.events.copy_for(seat)
        others = [p for p in range(self.n) if p != seat]
        fixed = [self.known[seat][p] for p in range(self.n)]
        unseen = [c for p in others for c in cards_in(self.hands[p] & ~fixed[p])] + self.stock
        other.hands, other.stock = self._world(others, fixed, unseen, rng)
        for viewer in others:  # what the others saw is re-dealt too; only ``seat``'s eyes count
            other.known[viewer] = [h if viewer == p else 0 for p, h in enumerate(other.hands)]
        return other

    def _world(
        self, others: list[Seat], fixed: list[int], unseen: list[int], rng: random.Random
    ) -> tuple[list[int], list[int]]:
        """Hands and stock from ``unseen`` under the known facts; where random tries find none
        (constraints too tight), keeping the sizes and the cards seen, with no whole family where
        the tries find such a deal."""
        for _ in range(TRIES):
            dealt = self._redeal(others, fixed, unseen, rng)
            if dealt is not None:
                return dealt
        for _ in range(TRIES - 1):
            dealt = self._deal_sizes(others, fixed, unseen, rng)
            if not _holds_a_family(dealt[0], others):
                return dealt
        return self._deal_sizes(others, fixed, unseen, rng)

    def _deal_sizes(
        self, others: list[Seat], fixed: list[int], unseen: list[int], rng: random.Random
    ) -> tuple[list[int], list[int]]:
        """Hands and stock from ``unseen`` keeping only the sizes and the cards seen."""
        hands = list(self.hands)
        pool = shuffled(unseen, rng)
        for p in others:
            hands[p] = fixed[p]
            for _ in range((self.hands[p] & ~fixed[p]).bit_count()):
                hands[p] |= 1 << pool.pop()
        return hands, pool

    def _redeal(
        self,
        others: list[Seat],
        fixed: list[int],
        unseen: list[int],
        rng: random.Random,
    ) -> tuple[list[int], list[int]] | None:
        """Hands and stock from ``unseen`` under the known facts, or None if a try fails."""
        hands = list(self.hands)
        stock_room = len(self.stock)
        stock: list[int] = []
        room = {p: (self.hands[p] & ~fixed[p]).bit_count() for p in others}
        for p in others:
            hands[p] = fixed[p]
        pool = shuffled(unseen, rng)
        # first a card of every rank a player is known to hold and has no seen card of
        for p in others:
            for r in range(13):
                if self.shown[p] >> r & 1 and not hands[p] & RANK_MASKS[r]:
                    pick = next((c for c in pool if c % 13 == r), None)
                    if pick is None or room[p] == 0:
                        return None
                    pool.remove(pick)
                    hands[p] |= 1 << pick
                    room[p] -= 1
        for c in pool:
            fits = [p for p in others if room[p] and not self.lacks[p] >> (c % 13) & 1]
            if stock_room > len(stock):
                fits.append(-1)  # the stock takes any card
            if not fits:
                return None
            p = fits[randbelow(rng, len(fits))]
            if p < 0:
                stock.append(c)
            else:
                hands[p] |= 1 << c
                room[p] -= 1
        if _holds_a_family(hands, others):  # a whole family is laid down the moment it is held
            return None
        return hands, stock

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        if action >= AUTHORS:
            target, c = divmod(action - AUTHORS, 52)
            if 0 <= target < self.n:
                return f"ask {target} {code(c)}"
        elif action >= 0:
            target, r = divmod(action, 13)
            if 0 <= target < self.n:
                return f"ask {target} {RANKS[r]}"
        raise ValueError(f"not an ask: {action}")

    def parse(self, text: str) -> Action:
        words = text.strip().upper().split()
        if len(words) == 3 and words[0] == "ASK" and words[1].isdigit():
            target = int(words[1])
            what = "T" if words[2] == "10" else words[2]
            if 0 <= target < self.n and len(what) == 1 and what in RANKS:
                return target * 13 + RANKS.index(what)
            if 0 <= target < self.n and len(what) > 1:
                try:
                    return AUTHORS + target * 52 + parse_card(what)
                except ValueError:
                    pass
        raise NotationError(
            f"not an ask: {text!r} (write ask, the seat number and the rank, e.g. ask 2 9,"
            " or with Authors the card, e.g. ask 2 9H)"
        )


def _asked(options: LojligaFamiljernaOptions, r: int, wanted: int) -> tuple[str, dict[str, str]]:
    """The event kind of a question and what was asked for: a rank, or with ``authors`` a card."""
    if options.authors:
        return "asked_card", {"card": code(wanted.bit_length() - 1)}
    return "asked", {"rank": RANKS[r]}


TRIES = 20
"""Random deals a re-dealt world tries under each of its constraints before it gives one up."""


def _holds_a_family(hands: Sequence[int], seats: Iterable[Seat]) -> bool:
    """Whether one of ``seats`` holds all four cards of a rank, which no player ever does: a
    family is laid down as soon as it is whole."""
    return any(hands[p] & family == family for p in seats for family in RANK_MASKS)


def _ranks(mask: int) -> str:
    return " ".join(RANKS[r] for r in range(13) if mask >> r & 1)


def _rank_cards(r: int) -> list[int]:
    return list(cards_in(RANK_MASKS[r]))


SPEC = GameSpec(
    id=GAME_ID,
    min_players=3,
    max_players=5,
    options_type=LojligaFamiljernaOptions,
    factory=LojligaFamiljerna,
    presets={
        "standard": LojligaFamiljernaOptions(),
        "go_fish": LojligaFamiljernaOptions(go_fish=True),
        "authors": LojligaFamiljernaOptions(authors=True),
        "authors_clockwise": LojligaFamiljernaOptions(authors=True, turn_after_no="clockwise"),
    },
    trick_taking=False,
    points=False,
    hand_order="rank",  # the families are ranks: a family's cards lie together in the hand
)
