"""Hej knekt: the real-time reaction game for 3–6 players (rules/party.md §1).

Rules implemented
-----------------
- Deck (V0): 52 cards less some 2s so that the deal comes out even, removed in the fixed order
  2♣ 2♦ 2♥ 2♠ (D10): 3 players 51 cards (17 each), 4 players 52 (13), 5 players 50 (10), 6 players
  48 (8). The dealer is drawn at random (§0.2); förhand is the dealer's left: deck card ``k``
  goes to seat ``(förhand + k) % n``, and förhand turns first (D1); play goes clockwise, seat
  ``i`` to seat ``i + 1``.
- Every pile is face down and hidden from everyone, its owner included: nobody has a hand, a seat's
  ``cards`` is its pile size. The centre is a public face-up pile.
- The turner turns the top card of their pile onto the centre. A 2–9 does nothing: the next active
  player clockwise turns. A 10, J, Q, K or A opens a reaction window in which every active player,
  the turner included (D2), must make the matching press: 10 ``whistle``, J ``hej`` ("Hej knekt!"),
  Q ``goddag`` ("Goddag dam!"), K ``salute``, A ``slap``.
- "Den som sist gör det rätta" picks up (§1.5 as corrected 2026-11, RULINGS 5): the one who did
  the right thing last takes the centre and puts it under their pile in play order (D6), then turns
  next (D3). A wrong press before the correct one costs time: the correct press counts at its
  *effective time* ``max(t_correct, t_last_wrong + wrong_press_penalty_ms)`` (default 1000 ms).
  The loser is the participant with the largest key: a correct press ``(0, t_eff, order)``, only
  wrong presses ``(2, 0, t_last_wrong, order)``, no press at all ``(2, 1)``; equal keys (only "no
  press") go to the first of them clockwise starting with the turner. ``order`` is the order in
  which this engine applied the presses, which is the bot's receive order. Variant
  ``corrected_last`` (the earlier rule): a correct press after wrong ones is ``(1, t, order)``,
  slower than every clean press whatever the times.
- The window closes by itself as soon as the loser is certain: when every participant has pressed
  correctly, or when all but exactly one have pressed correctly and the last one can no longer
  count before any of those effective times (the latest time applied in the window has reached
  them, or the last one's own wrong press plus the penalty has: a pending penalty is not final;
  with ``corrected_last``, when all but one have made a clean correct press, or all but one have
  pressed correctly and that one has already pressed wrong);
  otherwise when the caller's timer applies ``close``. While all but one have pressed correctly and
  a penalty is still pending, the phase message carries ``decided_ms``, the time after the reveal
  at which the loser becomes certain, so the caller may apply ``close`` then. The result is
  published as public events: each participant's reaction (time, the wrong buttons pressed, in
  order, as ``buttons``, the effective time) fastest first, then who picks up.
- A player whose pile is empty finishes: at once after a 2–9, after the window if their last card
  was a trigger and someone else picked up (D4). Default (D5): the match ends at the first finisher;
  place 1 to them, the others ranked by pile size, ties sharing. V1 ``play_to_end``: finishers
  leave, play goes on until one player has cards; places in finishing order, that player last.
  Scores are minus the cards left.
- Why a match ends, and the safety cap (D9). A match ends with probability 1 as long as each
  window's last presser may be any participant: from any position some run of windows ends it. Let
  one player who holds a 2–9 (or picks one up with the centre) be last every time: their 2–9s come
  back to them with each pick-up, so they keep turning 2–9s, and each hands the turn to the next
  player clockwise, who never picks up, until that player's pile runs out. So a long match is a
  tail, not a loop. V1's last two players make the tail: with each window's last presser drawn at
  random (as the computer players' reaction times make it), of 200,000 three-player matches to the
  end 4.7% turned more than 2,000 cards, 0.7% more than 3,000, 0.1% more than 4,000, the longest
  5,850, each further 1,000 cards six times rarer or more (four to six players: the same tail). The
  rules do go round for ever when one player is last in every window and holds only 10s to aces:
  they turn, are last, pick up their own card and turn again, and nobody else turns (an absent
  player; the bot hands a seat to a computer player after missed turns). The cap ``max_turns``
  (default 10,000 turned cards: by those figures fewer than one match in ten million would reach it,
  and at a table it is hours of play; the 2,000 that D9 first named stopped one match to the end in
  twenty) ends such a match after that card's window, ranked as above (finishers first, then pile
  size, ties sharing), with the public event ``hej_knekt.event.cap``.
- V2 ``reaction_ms`` (3000–15000, default 5000): the reaction timeout. The engine reads no clock; it
  stores the value for the caller, shown as ``window_ms`` in the window's phase and as the
  ``hej_knekt.note.reaction_ms`` note of every view.
- V3 ``false_alarm`` (default off, not in the Swedish text): a 2–9 card opens a *false-alarm
  window* of ``reaction_ms // 2`` (its phase has the same key as a reaction window, so the prompt
  gives nothing away). The first press of any kind in it makes the presser pick up the centre, and
  the presser turns next; if the timer's ``close`` comes first, the next player clockwise turns.
  Without V3 a 2–9 opens no window and presses then are not actions (the bot answers "no reaction
  needed").

Notation
--------
- ``turn``: the turner turns their top card.
- ``whistle <ms>``, ``hej <ms>``, ``goddag <ms>``, ``salute <ms>``, ``slap <ms>``: a press, ``<ms>``
  being the press time in whole milliseconds since the reveal (the caller computes it from the
  interaction's snowflake time minus the reveal time).
- ``close <ms>``: the window's timer ran out, ``<ms>`` after the reveal. Any seat still to act may
  apply it.

Legality of timed actions: presses and ``close`` must come in time order. The window keeps a
*floor*, the latest time applied in it (0 at the reveal). ``legal_actions`` of a seat still to act
lists the five presses and ``close`` stamped with the floor; ``apply`` accepts the same kind with
**any** time at or after the floor (an earlier time is refused: the caller clamps late arrivals to
the floor, and the receive order then ranks them after what came before). A seat that has pressed
correctly is no longer to act, and its further presses are refused; so is every press or ``close``
when no window is open.

Encoding: ``turn`` is 1000; a press or close is ``2000 + 8 * ms + kind`` with kind 0..4 for the
presses in the order above and 5 for ``close``.

``position(piles, center, turner)`` builds a match at a given position, for worked examples and
tests. This module only implements the rules: no clock, no I/O, standard library only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.cards import (
    TEN,
    Card,
    card,
    cards_tuple,
    code,
    deal_deck,
    make_deck,
    randbelow,
    rank_of,
    shuffle,
)
from games.core import (
    Action,
    EventLog,
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

GAME_ID = "hej_knekt"

TURN = 1000
TIMED_BASE = 2000
PRESS_VERBS = ("whistle", "hej", "goddag", "salute", "slap")
CLOSE = 5
VERBS = (*PRESS_VERBS, "close")

# rules/party.md §1.1, D10: 2s removed per player count, in this order.
REMOVED_TWOS = {3: 1, 4: 0, 5: 2, 6: 4}
TWOS_ORDER = tuple(card(2, s) for s in range(4))

_TURNING, _WINDOW, _OVER = range(3)
_FALSE_ALARM = -1  # the window's required kind when a 2–9 opened it (V3)
_NO_PRESS_KEY = (2, 1, 0, 0)
# Views are built after every action: share the immutable parts that repeat.
_PLAIN_SEATS = tuple(SeatView(cards=k) for k in range(53))
_FINISHED_SEATS = tuple(
    SeatView(cards=0, notes=(Msg.of("hej_knekt.note.finished", place=p),) if p else ())
    for p in range(7)
)


@dataclass(frozen=True)
class HejKnektOptions(Options):
    """V1 ``play_to_end``, V2 ``reaction_ms``, V3 ``false_alarm``, D9 ``max_turns``; the cost of
    a wrong press (§1.5, ``wrong_press_penalty_ms``) and the earlier rule ``corrected_last``."""

    play_to_end: bool = False
    reaction_ms: int = field(default=5000, metadata=bounds(3000, 15000))
    false_alarm: bool = False
    max_turns: int = field(default=10_000, metadata=bounds(1, 100_000))
    wrong_press_penalty_ms: int = field(default=1000, metadata=bounds(0, 15000))
    corrected_last: bool = False


def timed(kind: int, ms: int) -> Action:
    """The action for press ``kind`` (0..4) or ``CLOSE`` (5) at ``ms`` after the reveal."""
    return TIMED_BASE + 8 * ms + kind


def deck_for(players: int) -> list[int]:
    """The cards used by ``players`` players (rules/party.md §1.1)."""
    removed = set(TWOS_ORDER[: REMOVED_TWOS[players]])
    return [c for c in make_deck() if c not in removed]


class HejKnekt(Game):
    game_id = GAME_ID
    copied = (
        "_center",
        "_place",
        "_events",
        "_w_part",
        "_w_t",
        "_w_o",
        "_w_wrong",
        "_w_wt",
        "_w_wo",
        "_w_buttons",
        "_w_seat",
    )
    copied_nested = ("_piles",)

    def __init__(
        self,
        players: int,
        options: HejKnektOptions,
        rng: random.Random,
        decks: list[list[int]] | None,
    ) -> None:
        self._n = players
        self._opts = options
        self.rng = rng
        self._dealer = randbelow(rng, players)  # §0.2: the dealer is drawn at random
        forhand = (self._dealer + 1) % players
        order = deal_deck(decks, 0, deck_for(players), rng)
        # Card k goes to seat (förhand + k) mod n. Piles are stored bottom first, so the top
        # card is the last element.
        self._piles: list[list[int]] = [
            order[(s - forhand) % players :: players][::-1] for s in range(players)
        ]
        self._center: list[int] = []
        self._place = [0] * players  # finishing place, 0 while active
        self._finished = 0
        self._turner: Seat = forhand  # D1: förhand turns first
        self._phase = _TURNING
        self._turned = 0
        self._events = EventLog(keep=16)
        self._notes = (Msg.of("hej_knekt.note.reaction_ms", ms=options.reaction_ms),)
        self._center_cache: tuple[Pile, ...] | None = None
        self._acting: frozenset[Seat] | None = None
        self._phase_cache: tuple[tuple[int, int, int, int], Msg] | None = None
        # The reaction window (meaningful while ``_phase == _WINDOW``).
        self._w_card = -1
        self._w_kind = 0
        self._w_part = [False] * players
        self._w_t = [-1] * players  # time of the correct press, -1 if none
        self._w_o = [0] * players  # its receive order
        self._w_wrong = [0] * players  # wrong presses
        self._w_wt = [0] * players  # time and order of the last wrong press
        self._w_wo = [0] * players
        self._w_buttons = [""] * players  # the wrong presses, in order (``whistle slap``)
        self._w_seat: list[SeatView | None] = [None] * players  # cached for views
        self._w_floor = 0
        self._w_order = 0
        self._w_pending = 0
        self._w_clean = 0
        self._w_size = 0
        self._w_settled = 0  # the latest effective time of the correct presses so far

    # --- the contract -----------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self._n

    def to_act(self) -> frozenset[Seat]:
        if self._acting is None:
            if self._phase == _TURNING:
                self._acting = frozenset((self._turner,))
            elif self._phase == _WINDOW:
                self._acting = frozenset(self._pending_seats())
            else:
                self._acting = frozenset()
        return self._acting

    def legal_actions(self, seat: Seat) -> list[Action]:
        if self._phase == _TURNING:
            return [TURN] if seat == self._turner else []
        if self._phase == _WINDOW and self._is_pending(seat):
            return [timed(kind, self._w_floor) for kind in range(CLOSE + 1)]
        return []

    def apply(self, seat: Seat, action: Action) -> None:
        self._apply(seat, action)
        self._acting = None  # every accepted action may change who is to act

    def _apply(self, seat: Seat, action: Action) -> None:
        if self._phase == _OVER:
            raise IllegalActionError("the match is over")
        if not 0 <= seat < self._n:
            raise IllegalActionError(f"there is no seat {seat}")
        if action == TURN:
            if self._phase != _TURNING:
                raise IllegalActionError("wait: the reaction window is still open")
            if seat != self._turner:
                raise IllegalActionError(f"it is seat {self._turner}'s turn to turn a card")
            self._turn()
            return
        if action < TIMED_BASE or (action - TIMED_BASE) % 8 > CLOSE:
            raise IllegalActionError(f"{self.notation_or_raw(action)} is not an action here")
        ms, kind = divmod(action - TIMED_BASE, 8)
        if self._phase != _WINDOW:
            raise IllegalActionError("no reaction is needed now")
        if not self._w_part[seat]:
            raise IllegalActionError(f"seat {seat} takes no part in this reaction")
        if self._w_t[seat] >= 0:
            raise IllegalActionError(f"seat {seat} has already reacted")
        if ms < self._w_floor:
            raise IllegalActionError(
                f"{ms} ms is earlier than {self._w_floor} ms, already applied in this window"
            )
        if kind == CLOSE:
            self._w_floor = ms
            self._close_window()
        elif self._w_kind == _FALSE_ALARM:
            self._false_alarm(seat, ms)
        else:
            self._press(seat, kind, ms)

    def view(self, seat: Seat | None) -> View:
        seats = []
        window = self._phase == _WINDOW
        for s in range(self._n):
            if self._place[s]:
                seats.append(_FINISHED_SEATS[self._place[s]])
            elif window and (self._w_t[s] >= 0 or self._w_wrong[s]):
                seats.append(self._reacting_seat(s))
            else:
                seats.append(_PLAIN_SEATS[len(self._piles[s])])
        return View(
            game=GAME_ID,
            seat=seat,
            phase=self._phase_msg(),
            to_act=self.to_act(),
            hand=(),
            seats=tuple(seats),
            piles=self._center_piles(),
            events=self._events.for_viewer(seat),
            notes=self._notes,
            dealer=self._dealer,
        )

    def is_over(self) -> bool:
        return self._phase == _OVER

    def deal_number(self) -> int:
        return 1

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        return ()  # a seat's cards lie face down in its pile: nobody holds a hand

    def result(self) -> Result:
        if self._phase != _OVER:
            raise ValueError("the match is not over")
        # D5 / V1 / D9: finishers in finishing order, then the rest by cards left (ties share).
        keys = [
            self._place[s] - 1 if self._place[s] else self._finished + len(self._piles[s])
            for s in range(self._n)
        ]
        scores = tuple(-len(p) for p in self._piles)
        return Result(scores, competition_places(keys))

    def notation(self, action: Action) -> str:
        if action == TURN:
            return "turn"
        if action >= TIMED_BASE:
            ms, kind = divmod(action - TIMED_BASE, 8)
            if kind <= CLOSE:
                return f"{VERBS[kind]} {ms}"
        raise ValueError(f"not a {GAME_ID} action: {action}")

    def parse(self, text: str) -> Action:
        words = text.strip().lower().split()
        if words == ["turn"]:
            return TURN
        if len(words) == 2 and words[0] in VERBS:
            ms = words[1]
            if ms.isascii() and ms.isdigit():
                return timed(VERBS.index(words[0]), int(ms))
            raise NotationError(f"{text.strip()!r}: the time is whole milliseconds, e.g. hej 610")
        raise NotationError(
            f"not a {GAME_ID} action: {text.strip()!r} (turn, or whistle/hej/goddag/salute/slap/"
            "close followed by milliseconds since the reveal, e.g. hej 610)"
        )

    def determinize(self, seat: Seat, rng: random.Random) -> HejKnekt:
        # Every pile is hidden from everyone: re-deal all pile contents, keeping the sizes.
        other = self.clone(rng)
        pool = [c for p in other._piles for c in p]
        shuffle(pool, rng)
        start = 0
        for p in other._piles:
            p[:] = pool[start : start + len(p)]
            start += len(p)
        return other

    # --- play -------------------------------------------------------------------------------------

    def _turn(self) -> None:
        t = self._turner
        c = self._piles[t].pop()
        self._center.append(c)
        self._center_cache = None
        self._turned += 1
        self._events.add(Msg.of("hej_knekt.event.turned", seat=t, card=code(c)))
        rank = rank_of(c)
        if rank >= TEN:
            self._open_window(c, rank - TEN)
            return
        if not self._piles[t]:
            self._finish(t)  # D4: a 2–9 as the last card finishes at once
            if self._game_decided():
                self._phase = _OVER
                return
        if self._opts.false_alarm:
            self._open_window(c, _FALSE_ALARM)
            return
        self._next_turn(self._next_active(t))

    def _open_window(self, c: int, kind: int) -> None:
        self._phase = _WINDOW
        self._w_card = c
        self._w_kind = kind
        n = self._n
        self._w_part = [not self._place[s] for s in range(n)]
        self._w_t = [-1] * n
        self._w_o = [0] * n
        self._w_wrong = [0] * n
        self._w_wt = [0] * n
        self._w_wo = [0] * n
        self._w_buttons = [""] * n
        self._w_seat = [None] * n
        self._w_floor = 0
        self._w_order = 0
        self._w_size = self._w_pending = sum(self._w_part)
        self._w_clean = 0
        self._w_settled = 0

    def _press(self, seat: Seat, kind: int, ms: int) -> None:
        self._w_floor = ms
        self._w_order += 1
        self._w_seat[seat] = None
        if kind == self._w_kind:
            self._w_t[seat] = ms
            self._w_o[seat] = self._w_order
            self._w_pending -= 1
            if not self._w_wrong[seat]:
                self._w_clean += 1
            self._w_settled = max(self._w_settled, self._effective_ms(seat))
        else:
            self._w_wrong[seat] += 1
            self._w_buttons[seat] = f"{self._w_buttons[seat]} {PRESS_VERBS[kind]}".lstrip()
            self._w_wt[seat] = ms
            self._w_wo[seat] = self._w_order
        if self._loser_certain():
            self._close_window()

    def _effective_ms(self, s: Seat) -> int:
        """When seat ``s``'s correct press counts: a wrong press before it costs the penalty."""
        if self._w_wrong[s] and not self._opts.corrected_last:
            return max(self._w_t[s], self._w_wt[s] + self._opts.wrong_press_penalty_ms)
        return self._w_t[s]

    def _loser_certain(self) -> bool:
        """§1.5 "The window": close as soon as the loser is certain."""
        if self._w_pending == 0:
            return True
        if self._opts.corrected_last:
            # the others all clean, or the last one has slipped: a corrected press of theirs
            # comes after every press already in, and never correcting is slower still
            return self._w_clean >= self._w_size - 1 or (
                self._w_pending == 1 and self._w_wrong[self._pending_seats()[0]] > 0
            )
        # all but one did it, and the last one can no longer count before any of them: no press
        # comes before the floor, and their own slip delays them by the penalty
        return self._w_pending == 1 and self._w_settled <= self._earliest_left()

    def _earliest_left(self) -> int:
        """The earliest effective time the one participant still to press correctly can get."""
        (s,) = self._pending_seats()
        if self._w_wrong[s]:
            return max(self._w_floor, self._w_wt[s] + self._opts.wrong_press_penalty_ms)
        return self._w_floor

    def _false_alarm(self, seat: Seat, ms: int) -> None:
        # V3: a press on a 2–9 card picks up the centre; the presser turns next.
        self._events.add(
            Msg.of("hej_knekt.event.false_alarm", seat=seat, ms=ms, count=len(self._center))
        )
        self._pick_up(seat)
        self._next_turn(seat)

    def _key(self, s: Seat) -> tuple[int, int, int, int]:
        if self._w_t[s] >= 0:
            if self._opts.corrected_last:
                return (1 if self._w_wrong[s] else 0, self._w_t[s], self._w_o[s], 0)
            return (0, self._effective_ms(s), self._w_o[s], 0)
        if self._w_wrong[s]:
            return (2, 0, self._w_wt[s], self._w_wo[s])
        return _NO_PRESS_KEY

    def _close_window(self) -> None:
        t = self._turner
        if self._w_kind == _FALSE_ALARM:
            self._next_turn(self._next_active(t))
            return
        clockwise = [(t + i) % self._n for i in range(self._n) if self._w_part[(t + i) % self._n]]
        keyed = sorted(((self._key(s), s) for s in clockwise), key=lambda ks: ks[0])
        loser = clockwise[0]
        worst = self._key(loser)
        for s in clockwise[1:]:
            k = self._key(s)
            if k > worst:  # strict: equal keys go to the first clockwise from the turner
                loser, worst = s, k
        for key, s in keyed:
            self._events.add(self._reaction_msg(key, s))
        self._events.add(Msg.of("hej_knekt.event.pickup", seat=loser, count=len(self._center)))
        self._pick_up(loser)
        if loser != t and not self._piles[t]:
            self._finish(t)  # D4: the last card was a trigger and someone else was slower
        if self._game_decided():
            self._phase = _OVER
            return
        self._next_turn(loser)

    def _reaction_msg(self, key: tuple[int, int, int, int], s: Seat) -> Msg:
        if key[0] < 2 and self._w_wrong[s]:
            return Msg.of(
                "hej_knekt.event.reaction_corrected",
                seat=s,
                ms=self._w_t[s],
                wrong=self._w_wrong[s],
                buttons=self._w_buttons[s],
                counted_ms=self._effective_ms(s),
            )
        if key[0] < 2:
            return Msg.of("hej_knekt.event.reaction", seat=s, ms=key[1])
        if self._w_wrong[s]:
            return Msg.of(
                "hej_knekt.event.reaction_wrong",
                seat=s,
                wrong=self._w_wrong[s],
                buttons=self._w_buttons[s],
            )
        return Msg.of("hej_knekt.event.reaction_none", seat=s)

    def _pick_up(self, seat: Seat) -> None:
        # D6: the centre goes under the pile in play order (the first card played is turned first).
        self._piles[seat][:0] = self._center[::-1]
        self._center.clear()
        self._center_cache = None

    def _finish(self, seat: Seat) -> None:
        self._finished += 1
        self._place[seat] = self._finished
        self._events.add(Msg.of("hej_knekt.event.finished", seat=seat, place=self._finished))

    def _game_decided(self) -> bool:
        if self._opts.play_to_end:
            return self._n - self._finished <= 1
        return self._finished > 0

    def _next_turn(self, seat: Seat) -> None:
        if self._turned >= self._opts.max_turns:
            # D9: the safety cap ends the match.
            self._events.add(Msg.of("hej_knekt.event.cap", count=self._turned))
            self._phase = _OVER
            return
        self._phase = _TURNING
        self._turner = seat

    def _next_active(self, seat: Seat) -> Seat:
        for i in range(1, self._n + 1):
            s = (seat + i) % self._n
            if not self._place[s]:
                return s
        return seat

    def _is_pending(self, seat: Seat) -> bool:
        return 0 <= seat < self._n and self._w_part[seat] and self._w_t[seat] < 0

    def _pending_seats(self) -> list[Seat]:
        return [s for s in range(self._n) if self._w_part[s] and self._w_t[s] < 0]

    def _reacting_seat(self, s: Seat) -> SeatView:
        """Seat ``s`` with the public marks of its presses in the open window."""
        cached = self._w_seat[s]
        if cached is None:
            notes = []
            if self._w_t[s] >= 0:
                notes.append(Msg.of("hej_knekt.note.reacted", ms=self._w_t[s]))
            if self._w_wrong[s]:
                notes.append(Msg.of("hej_knekt.note.wrong", count=self._w_wrong[s]))
            cached = self._w_seat[s] = SeatView(cards=len(self._piles[s]), notes=tuple(notes))
        return cached

    def _center_piles(self) -> tuple[Pile, ...]:
        if self._center_cache is None:
            self._center_cache = (Pile("hej_knekt.pile.center", cards=cards_tuple(self._center)),)
        return self._center_cache

    def _phase_msg(self) -> Msg:
        # The phase changes only with a turned card, a closed window, the end, or a window whose
        # loser becomes certain at a known time.
        key = (self._phase, self._turner, self._turned, self._decided_ms())
        if self._phase_cache is None or self._phase_cache[0] != key:
            self._phase_cache = (key, self._make_phase_msg())
        return self._phase_cache[1]

    def _make_phase_msg(self) -> Msg:
        if self._phase == _TURNING:
            return Msg.of("hej_knekt.phase.turn", seat=self._turner)
        if self._phase == _WINDOW:
            ms = self._opts.reaction_ms
            if self._w_kind == _FALSE_ALARM:
                ms //= 2
            decided = self._decided_ms()
            if decided:
                return Msg.of(
                    "hej_knekt.phase.reveal",
                    seat=self._turner,
                    card=code(self._w_card),
                    window_ms=ms,
                    decided_ms=decided,
                )
            return Msg.of(
                "hej_knekt.phase.reveal", seat=self._turner, card=code(self._w_card), window_ms=ms
            )
        return Msg.of("table.phase.over")

    def _decided_ms(self) -> int:
        """While all but one have pressed correctly and a penalty is pending: when the loser
        becomes certain (the caller applies ``close`` then); 0 otherwise."""
        if (
            self._phase == _WINDOW
            and self._w_pending == 1
            and not self._opts.corrected_last
            and self._w_settled > self._earliest_left()
        ):
            return self._w_settled
        return 0


def position(
    piles: list[list[int]],
    center: list[int],
    turner: Seat,
    options: HejKnektOptions | None = None,
) -> HejKnekt:
    """A match at a given position (for worked examples and tests): each pile top first, the
    centre in play order, ``turner`` about to turn. The cards need not make up a whole deck."""
    opts = HejKnektOptions() if options is None else options
    game = _factory(len(piles), opts, random.Random(0), None)
    game._piles = [[*p][::-1] for p in piles]
    game._center = [*center]
    game._turner = turner
    return game


def _factory(
    players: int,
    options: HejKnektOptions,
    rng: random.Random,
    decks: list[list[int]] | None,
) -> HejKnekt:
    if not 3000 <= options.reaction_ms <= 15000:
        raise OptionError(f"reaction_ms is 3000–15000, not {options.reaction_ms}")
    if options.max_turns < 1:
        raise OptionError(f"max_turns is at least 1, not {options.max_turns}")
    return HejKnekt(players, options, rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=3,
    max_players=6,
    options_type=HejKnektOptions,
    factory=_factory,
    presets={
        "standard": HejKnektOptions(),
        "play_to_end": HejKnektOptions(play_to_end=True),
        "false_alarm": HejKnektOptions(false_alarm=True),
        "corrected_last": HejKnektOptions(corrected_last=True),
    },
    trick_taking=False,
    realtime=True,
    points=False,  # places; the seats show their cards
)
