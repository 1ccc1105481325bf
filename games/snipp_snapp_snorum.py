"""Snipp snapp snorum, 2–8 players, and its variant Jig: the rules engine (rules/party.md §3).

Rules implemented (the Swedish text, with the spec's decisions D1..D7 and J1..J6):

- 52 cards dealt one at a time from förhand (the dealer's left), so the first ``52 mod n`` hands
  from förhand get one card more. The dealer is drawn at random. Förhand leads.
- The leader chooses a rank they hold and plays **every** card of it (D1, D2: a leader holding
  two nines cannot keep one back). The turn goes clockwise: a player holding the rank must play
  all of it, a player holding none stands over (D3: both forced, so the engine does them inside
  the lead). The second, third and fourth cards of the rank are "Snipp", "Snapp" and "Snorum";
  the calls belong to the cards, so one player may make several. Whoever plays the fourth card
  sets the four aside and leads again. A rank always completes within one round of the table.
- The first player with an empty hand wins at once, even in the middle of a rank (D5). The
  others are placed by the cards they still hold, fewer first, ties sharing (D4).

Jig (``jig=True``, §3.8): cards follow by suit, one card a turn (J6), each higher than the one
before (J1, ace high, J2); after an ace any number card 2–10 of the suit (J3). The leader plays any
card. Holding a legal card you must play one (your choice, J4); otherwise you pass, and the pass
is an explicit action (§3.8.1, corrected 2026-11). The fourth card completes the sequence: set
aside, its player leads. When every other player has passed in turn, the sequence is dead (J5):
set aside, and the player of its last card leads.

Variants (all off by default): ``stakes`` (V1: every forced pass puts a stake in the pot, the
first player out wins it; scores are then the net stakes, places stay as above), ``jig`` (V2)
and ``play_to_end`` (V3: play on after the first player is out; places in the order of going
out, the last player holding cards last; a Snorum or Jig lead whose player has just gone out
passes to the next player clockwise with cards, and the table names him as the leader). With
``stakes`` and ``play_to_end`` the first player out wins every stake of the game.

Information: hands are hidden; every card played, every call and every pass is public, as are
hand sizes and the cards set aside. ``determinize`` re-deals the unseen cards among the other
hands with their sizes (a rank once led is complete, so nothing else is known for sure).

Scores: minus the cards left in hand (with ``stakes``: the net stakes).

Timeouts (``timeout_action``): the main game leads the rank held most, the lowest of equals
(§3.3); Jig plays the lowest legal card, or leads the lowest card in hand (§3.8.1).

Notation:

- ``lead 9``: lead every card of a rank (ranks ``2-9 T J Q K A``); the main game's only action.
- Jig: a card code (``9S``) leads or plays that card; ``pass`` stands over when no card may be
  played (then the only legal action).

Standard library only; no clock, no I/O.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.cards import (
    RANK_MASKS,
    RANKS,
    SUIT_MASKS,
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

GAME_ID = "snipp_snapp_snorum"

LEAD = 100  # ``lead <rank>`` is LEAD + rank index (0 for twos .. 12 for aces)
PASS = 200
CALLS = ("", "snipp", "snapp", "snorum")  # the call of the 1st..4th card of a rank or sequence
ACE_INDEX = 12
TEN_INDEX = 8


@dataclass(frozen=True)
class SnippSnappSnorumOptions(Options):
    """§3.5 variants; the defaults are the Swedish main game."""

    jig: bool = False
    stakes: bool = False
    play_to_end: bool = False


def jig_follows(previous: int, c: int) -> bool:
    """§3.8.1: the same suit, and higher; after an ace, any number card 2–10 (J1..J3)."""
    if c // 13 != previous // 13:
        return False
    if previous % 13 == ACE_INDEX:
        return c % 13 <= TEN_INDEX
    return c % 13 > previous % 13


class SnippSnappSnorum(Game):
    """One game. Hands are bit masks of the 52 cards."""

    game_id = GAME_ID
    __slots__ = (
        "current",
        "dealer",
        "events",
        "finished",
        "hands",
        "last_player",
        "n",
        "opts",
        "paid",
        "passes",
        "place",
        "rng",
        "set_aside",
        "table",
    )
    copied = ("hands", "place", "table", "set_aside", "paid", "events")

    def __init__(
        self,
        players: int,
        options: SnippSnappSnorumOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        self.n = players
        self.opts = options
        self.rng = rng
        self.dealer = randbelow(rng, players)
        deck = deal_deck(decks, 0, make_deck(), rng)
        forhand = (self.dealer + 1) % players
        self.hands = [0] * players
        for k, c in enumerate(deck):
            self.hands[(forhand + k) % players] |= 1 << c
        self.place = [0] * players  # the place of a player who is out, 0 while playing
        self.finished = 0
        self.table: list[tuple[Seat, int]] = []  # the rank (Jig: sequence) being played
        self.set_aside: list[int] = []
        self.last_player: Seat = forhand  # who played the last card on the table
        self.passes = 0  # Jig: passes in a row since that card
        self.paid = [0] * players  # V1: stakes put in the pot
        self.current: Seat = forhand  # -1 once the game is over
        self.events = EventLog(keep=16)
        self.events.add(Msg.of("table.event.deal_started", deal=1, seat=self.dealer))

    # --- whose turn -------------------------------------------------------------------------------

    def _active(self, seat: Seat) -> bool:
        return not self.place[seat]

    def _next_active(self, seat: Seat) -> Seat:
        for step in range(1, self.n + 1):
            other = (seat + step) % self.n
            if self._active(other):
                return other
        return -1

    def to_act(self) -> frozenset[Seat]:
        return frozenset() if self.current < 0 else frozenset((self.current,))

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat != self.current or self.current < 0:
            return []
        hand = self.hands[seat]
        if not self.opts.jig:
            return [LEAD + r for r in range(13) if hand & RANK_MASKS[r]]
        if not self.table:
            return list(cards_in(hand))
        top = self.table[-1][1]
        playable = [c for c in cards_in(hand & SUIT_MASKS[top // 13]) if jig_follows(top, c)]
        return playable or [PASS]

    def timeout_action(self, seat: Seat) -> Action | None:
        """§3.3: lead the rank held most, the lowest of equals. Jig (§3.8.1): the lowest legal
        card, a lead the lowest card in hand (the lowest suit ♣ ♦ ♥ ♠ of equal ranks), or pass."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        if not self.opts.jig:
            hand = self.hands[seat]
            return max(legal, key=lambda a: ((hand & RANK_MASKS[a - LEAD]).bit_count(), -a))
        return min(legal, key=lambda a: (a % 13, a // 13))

    # --- playing ----------------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> None:
        if self.current < 0:
            raise IllegalActionError("the game is over")
        if seat != self.current:
            raise IllegalActionError("it is not your turn")
        if self.opts.jig:
            self._apply_jig(seat, action)
        else:
            self._apply_lead(seat, action)

    def _apply_lead(self, seat: Seat, action: Action) -> None:
        if not LEAD <= action < LEAD + 13:
            raise IllegalActionError(f"{self.notation_or_raw(action)}: lead a rank (lead 9)")
        r = action - LEAD
        if not self.hands[seat] & RANK_MASKS[r]:
            raise IllegalActionError(f"you hold no {RANKS[r]} to lead")  # SSS-5
        self.table = []
        player = seat
        while True:
            held = self.hands[player] & RANK_MASKS[r]
            if held:
                self._put_down(player, list(cards_in(held)))
                if self._went_out(player) and self.current < 0:
                    return
                if len(self.table) == 4:  # Snorum: set aside, the same player leads
                    self._clear(player, "snorum_cleared")
                    return
            elif player != seat:
                self._stand_over(player)
            player = self._next_active(player)
            # §3.3: the four cards of a rank are all in hands, so the round completes
            assert player != seat, "a led rank must complete within one round"

    def _apply_jig(self, seat: Seat, action: Action) -> None:
        legal = self.legal_actions(seat)
        if action not in legal:
            if action == PASS:
                raise IllegalActionError("you hold a card you may play, so you must play it")
            if not 0 <= action < 52 or not self.hands[seat] >> action & 1:
                raise IllegalActionError(f"{self.notation_or_raw(action)} is not in your hand")
            top = code(self.table[-1][1])
            raise IllegalActionError(
                f"{code(action)} does not follow {top}: the same suit and higher, "
                "after an ace a number card"
            )
        if action == PASS:
            self._stand_over(seat)
            self.passes += 1
            waiting = sum(
                1 for s in range(self.n) if self._active(s) and s != self.last_player
            )  # every other player still in has passed in turn: the sequence is dead (J5)
            if self.passes >= waiting:
                self._clear(self.last_player, "dead")
            else:
                self.current = self._next_active(seat)
            return
        self._put_down(seat, [action])
        self.last_player, self.passes = seat, 0
        if self._went_out(seat) and self.current < 0:
            return
        if len(self.table) == 4:
            self._clear(seat, "sequence_done")
        else:
            self.current = self._next_active(seat)

    def _put_down(self, seat: Seat, cards: list[int]) -> None:
        for c in cards:
            self.hands[seat] &= ~(1 << c)
            self.table.append((seat, c))
            call = CALLS[len(self.table) - 1]
            key = f"{GAME_ID}.event.{call}" if call else f"{GAME_ID}.event.led"
            self.events.add(Msg.of(key, seat=seat, card=code(c)))

    def _stand_over(self, seat: Seat) -> None:
        if self.opts.stakes:  # V1: a forced pass pays a stake into the pot
            self.paid[seat] += 1
            self.events.add(Msg.of(f"{GAME_ID}.event.passed_stake", seat=seat))
        else:
            self.events.add(Msg.of(f"{GAME_ID}.event.passed", seat=seat))

    def _clear(self, player: Seat, reason: str) -> None:
        """Set the table aside; ``player`` leads next, or, if he has just gone out (V3), the
        next player clockwise with cards, whom the event names."""
        self.set_aside.extend(c for _, c in self.table)
        self.table = []
        self.passes = 0
        if self._active(player):
            self.current = player
            self.events.add(Msg.of(f"{GAME_ID}.event.{reason}", seat=player))
        else:
            self.current = self._next_active(player)
            self.events.add(Msg.of(f"{GAME_ID}.event.{reason}_next", seat=self.current))

    def _went_out(self, seat: Seat) -> bool:
        """A player whose hand is empty goes out; the game ends as the options say."""
        if self.hands[seat]:
            return False
        self.finished += 1
        self.place[seat] = self.finished
        self.events.add(Msg.of(f"{GAME_ID}.event.out", seat=seat, place=self.finished))
        playing = [s for s in range(self.n) if self._active(s)]
        if not self.opts.play_to_end or len(playing) <= 1:
            self.current = -1
            self.events.add(Msg.of(f"{GAME_ID}.event.over"))
        return True

    # --- reading the game -------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.n

    def is_over(self) -> bool:
        return self.current < 0

    def deal_number(self) -> int:
        return 1

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return mask_cards(self.hands[seat])

    def _pot(self) -> int:
        return sum(self.paid)

    def result(self) -> Result:
        if self.current >= 0:
            raise ValueError("the game is not over")
        # D4 / V3: those out in the order they went out, then the rest by cards held
        keys = [
            self.place[s] - 1 if self.place[s] else self.finished + self.hands[s].bit_count()
            for s in range(self.n)
        ]
        if self.opts.stakes:
            winner = self.place.index(1)
            scores = tuple(
                (self._pot() if s == winner else 0) - self.paid[s] for s in range(self.n)
            )
        else:
            scores = tuple(-self.hands[s].bit_count() for s in range(self.n))
        return Result(scores, competition_places(keys))

    def _phase(self) -> Msg:
        if self.current < 0:
            return Msg.of("table.phase.over")
        if self.opts.jig and self.table:
            return Msg.of(
                f"{GAME_ID}.phase.follow", seat=self.current, card=code(self.table[-1][1])
            )
        return Msg.of(f"{GAME_ID}.phase.lead", seat=self.current)

    def _seat_view(self, seat: Seat) -> SeatView:
        notes: list[Msg] = []
        if self.place[seat]:
            notes.append(Msg.of(f"{GAME_ID}.note.out", place=self.place[seat]))
        score = -self.paid[seat]
        if self.opts.stakes and self.paid[seat]:
            notes.append(Msg.of(f"{GAME_ID}.note.paid", count=self.paid[seat]))
        if self.opts.stakes and self.current < 0 and self.place[seat] == 1:
            # V1: the first out takes the pot; the end shows the scores of ``result``
            notes.append(Msg.of(f"{GAME_ID}.note.won_pot", count=self._pot()))
            score += self._pot()
        return SeatView(cards=self.hands[seat].bit_count(), score=score, notes=tuple(notes))

    def view(self, seat: Seat | None) -> View:
        notes = (Msg.of(f"{GAME_ID}.note.pot", count=self._pot()),) if self.opts.stakes else ()
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase(),
            to_act=self.to_act(),
            hand=() if seat is None else self.hand(seat),
            seats=tuple(self._seat_view(s) for s in range(self.n)),
            trick=tuple((s, Card(c)) for s, c in self.table),
            piles=(Pile(f"{GAME_ID}.pile.set_aside", cards_tuple(self.set_aside)),),
            events=self.events.for_viewer(seat),
            notes=notes,
            dealer=self.dealer,
        )

    # --- copies -----------------------------------------------------------------------------------

    def determinize(self, seat: Seat, rng: random.Random) -> SnippSnappSnorum:
        """The cards hidden from ``seat`` (the other hands) dealt anew with the same sizes."""
        other = self.clone(rng)
        other.events = self.events.copy_for(seat)
        others = [p for p in range(self.n) if p != seat]
        pool = shuffled([c for p in others for c in cards_in(self.hands[p])], rng)
        for p in others:
            size = self.hands[p].bit_count()
            other.hands[p] = sum(1 << c for c in pool[:size])
            del pool[:size]
        return other

    # --- notation ---------------------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        if 0 <= action < 52:
            return code(action)
        if LEAD <= action < LEAD + 13:
            return f"lead {RANKS[action - LEAD]}"
        if action == PASS:
            return "pass"
        raise ValueError(f"not an action of {GAME_ID}: {action}")

    def parse(self, text: str) -> Action:
        words = text.strip().upper().split()
        if words == ["PASS"]:
            return PASS
        if len(words) == 2 and words[0] == "LEAD":
            rank = "T" if words[1] == "10" else words[1]
            if len(rank) == 1 and rank in RANKS:
                return LEAD + RANKS.index(rank)
        if len(words) == 1:
            try:
                return parse_card(words[0])
            except ValueError:
                pass
        raise NotationError(
            f"not an action of Snipp snapp snorum: {text!r} (lead 9, a card such as 9S, or pass)"
        )


SPEC = GameSpec(
    id=GAME_ID,
    min_players=2,
    max_players=8,
    options_type=SnippSnappSnorumOptions,
    factory=SnippSnappSnorum,
    presets={
        "standard": SnippSnappSnorumOptions(),
        "jig": SnippSnappSnorumOptions(jig=True),
        "stakes": SnippSnappSnorumOptions(stakes=True),
        "play_to_end": SnippSnappSnorumOptions(play_to_end=True),
    },
    trick_taking=False,
    points=False,  # places; the stakes (V1) are said in the seats' notes
)
