"""A live table in memory (:class:`LiveTable`), who sits at it (:class:`Member`), what the
faces are told (:class:`Listener`) and what the computer did for a member whose time ran out
(:class:`TimedOut`). Plain state and questions about it: nothing here changes a table.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from bot.clock import Timer
from bot.errors import UserError
from bot.leaderboard import RatingChange
from bot.sessions.moves import (
    NONE_LEGAL,
    Legal,
    card_turn_legal,
    choices_of,
    legal_of,
    only_cards,
    single_of,
)
from bot.storage.records import Damage, SeatRecord, TableRecord
from games.cards import Card, code, is_card_code
from games.core import Action, Game, GameSpec, Options, Seat, View
from games.registry import SPECS

T = TypeVar("T")

ENDS_AT = "_ends_at"
"""A table setting: the Unix time at which the table ends, whatever its members do meanwhile,
instead of ending after ``idle_seconds`` without them (a table of the day, at the day's end)."""
DAY_OPTION = "_day"
"""A table setting: the day (YYYY-MM-DD) whose deal of the day the table plays (``bot.daily``).
Its computer players decide as a function of the deal and the position (``.computers``)."""
LIVE_STATUSES = ("lobby", "playing", "paused")
ActedBy = Literal["member", "computer", "timeout"]


@dataclass(frozen=True, slots=True)
class Member:
    user_id: int
    name: str


class Listener(Protocol):
    """What a face of the table (the Discord listener, the web table's hub) is told: the table
    changed, and whose private hand changed. Each shows it its own way."""

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None: ...


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The computer player acted for a member's seat when the deadline passed: ``notation`` at
    action ``seq``. Shown on the table and in that member's panel, so nothing is done silently."""

    seat: Seat
    notation: str
    seq: int
    public: bool = True
    """Whether everyone saw the cards the action names (a card played to the trick); when not
    (bid cards laid face down, a discard), only its verb is shown to anyone but the seat."""


def shown_to_all(before: View, after: View, notation: str) -> bool:
    """Whether every card ``notation`` names was shown to everyone by the action that turned the
    public view ``before`` into ``after``: named in the events it added, or lying face up now (in
    the trick, a pile, a seat's shown cards). A card laid face down (a bid card, a discard) is
    not, nor is any card of an action whose events name no cards."""
    added = Counter(after.events) - Counter(before.events)
    named = {
        word
        for msg in added
        for _, value in msg.args
        if isinstance(value, str)
        for word in value.split()
    }
    face_up = [c for _, c in after.trick]
    face_up += [c for pile in after.piles for c in pile.cards]
    face_up += [c for info in after.seats for c in info.shown]
    named |= {code(c) for c in face_up}
    return all(word in named for word in notation.split() if is_card_code(word))


_MISSING = object()
"""Nothing worked out yet (:func:`_once`)."""


def _once(
    known: dict[tuple[str, Seat | None], object],
    kind: str,
    seat: Seat | None,
    work: Callable[..., T],
    *args: object,
) -> T:
    """``work(*args)``, done once per state of a table's match and kept in ``known`` as ``kind``
    of ``seat``. The arguments are passed rather than closed over: what every action asks (whose
    hand changed, a new deal, what a seat may do) made a closure each time."""
    found = known.get((kind, seat), _MISSING)
    if found is _MISSING:
        found = known[kind, seat] = work(*args)
    return found  # type: ignore[return-value]


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its stored record, the match (None in the lobby) and its timers."""

    record: TableRecord
    game: Game | None = None
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_deadlines: dict[Seat, float] = field(default_factory=dict)
    deadline_timer: Timer | None = None
    deadline_at: float = 0.0
    """When ``deadline_timer`` fires: at or before the earliest turn deadline."""
    computer_timer: Timer | None = None
    idle_timer: Timer | None = None
    last_member_action: float = 0.0
    reveal_at: float | None = None
    """When the open reaction window opened: when its turned card could be seen (None: no window
    open, or one waiting to be seen, ``window_unseen``)."""
    window_unseen: bool = False
    """A card that calls for a reaction is turned but not yet shown to the members: its window
    opens when a face has shown it (``ReactionWindows.seen``)."""
    reveal_seq: int = 0
    """The action count at that reveal: reaction buttons carry it, so old ones are refused."""
    window_timers: list[Timer] = field(default_factory=list)
    window_closed_seq: int = -1
    """The action count when the last reaction window closed: buttons drawn then were late."""
    save_failures: int = 0
    """Computer moves not saved in a row (a failing disk): the next try waits longer."""
    unsure: bool = False
    """An action's write got no answer (the database went away during it): it may have been
    kept all the same, so the stored log is read before the next action."""
    ratings: list[RatingChange] = field(default_factory=list)
    """The members' rating changes, once the match is finished."""
    timeouts: list[TimedOut] = field(default_factory=list)
    """What the computer player did for members whose time ran out (see ``recent_timeouts``)."""
    thinking: bool = False
    """A computer player of this table is thinking (outside the lock); it moves when done."""
    acted_version: dict[Seat, int] = field(default_factory=dict)
    """The table's version right after each seat's last action (a member's, a computer's for it,
    a deadline's): panels built before it are stale for that seat."""
    deal_version: int = 0
    """The table's version when the current deal began: panels built before it are stale."""
    damage: Damage | None = None
    """Set when a corrupt row stopped its restore: the table shows the match as it was after
    its last sound action, takes no move, holds none of its members, and waits for the host or
    an administrator to end it (or for its idleness)."""

    _known: dict[tuple[str, Seat | None], object] = field(
        default_factory=dict, repr=False, compare=False
    )
    """What was worked out from ``_known_game`` (its views, a seat's choices), kept while it is
    the table's match: ``Play.apply`` replaces the match by a changed copy on every action and
    never changes it in place, so the same match always gives the same answers. The one dict is
    emptied for each new match rather than made anew: thousands of tables acting at once each
    left a new dict behind at every action for the collector to go through."""
    _known_game: Game | None = field(default=None, repr=False, compare=False)

    def _game_known(self) -> tuple[Game, dict[tuple[str, Seat | None], object]]:
        """The table's match and what was worked out from it so far (emptied when it changes)."""
        game, known = self.game, self._known
        assert game is not None, "a lobby has no match"
        if game is not self._known_game:
            known.clear()
            self._known_game = game
        return game, known

    def worked_out(self, kind: str, seat: Seat | None, work: Callable[[Game], T]) -> T:
        """``work(game)`` for the table's match, done once per state of it: ``kind`` and
        ``seat`` name what is worked out (``"view"``, 0)."""
        game, known = self._game_known()
        return _once(known, kind, seat, work, game)

    def view(self, seat: Seat | None) -> View:
        """``game.view(seat)`` of the table's match, worked out once per state of it."""
        game, known = self._game_known()
        return _once(known, "view", seat, game.view, seat)

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The seat's hand in the table's match: its view's when that is worked out already,
        else the game's (without the rest of the view), once per state."""
        game, known = self._game_known()
        view = known.get(("view", seat))
        if isinstance(view, View):
            return view.hand
        return _once(known, "hand", seat, game.hand, seat)

    def deal_number(self) -> int:
        """The number of the deal being played (``View.deal``): the public view's when that is
        worked out already, else the game's (without the view), once per state."""
        game, known = self._game_known()
        view = known.get(("view", None))
        if isinstance(view, View):
            return view.deal
        return _once(known, "deal", None, game.deal_number)

    def legal(self, seat: Seat) -> Legal:
        """The seat's legal actions with their notations (:func:`legal_of`), worked out once per
        state: a seat's choices are read from them, and its forced card or pass and its turn time
        too where they are worked out (:meth:`single` and :meth:`plays_cards` do not spell out
        a decision's moves themselves)."""
        game, known = self._game_known()
        return _once(known, "legal", seat, legal_of, game, seat)

    def single(self, seat: Seat) -> Legal:
        """The seat's one legal action with its notation when it has exactly one, else none
        (:func:`single_of`): a forced card or pass is read from it. Without spelling out a
        decision's moves (:meth:`_card_turn_legal`), once per state."""
        legal = self._card_turn_legal(seat)
        if legal is not None:
            return legal if len(legal[0]) == 1 else NONE_LEGAL
        game, known = self._game_known()
        return _once(known, "single", seat, single_of, game, seat)

    def plays_cards(self, seat: Seat) -> bool:
        """Whether each of the seat's legal actions is a single card (its turn time,
        :func:`time_for`), without spelling out a decision's moves, once per state."""
        return only_cards(self._card_turn_legal(seat))

    def _card_turn_legal(self, seat: Seat) -> Legal | None:
        """:meth:`legal` where it is worked out, or where the seat's first legal action is a
        card (:func:`card_turn_legal`, kept as :meth:`legal` then); None where it has a decision
        to make, whose moves are spelled out only where a panel asks for them."""
        game, known = self._game_known()
        legal = known.get(("legal", seat))
        if isinstance(legal, tuple):
            return legal
        found = _once(known, "card turn", seat, card_turn_legal, game, seat)
        if found is not None:
            known["legal", seat] = found
        return found

    def choices(self, seat: Seat) -> Mapping[Action, str]:
        """:func:`member_actions` of the table's match for ``seat``, worked out once per state."""
        game, known = self._game_known()
        return _once(known, "choices", seat, self._choices_now, game, seat)

    def _choices_now(self, game: Game, seat: Seat) -> Mapping[Action, str]:
        return choices_of(self.legal(seat)) if seat in game.to_act() else {}

    @property
    def table_id(self) -> int:
        return self.record.table_id

    @property
    def version(self) -> int:
        return self.record.version

    @property
    def spec(self) -> GameSpec[Options]:
        return SPECS[self.record.game_id]

    @property
    def live(self) -> bool:
        return self.record.status in LIVE_STATUSES

    @property
    def in_window(self) -> bool:
        """Whether a reaction window is open, or waiting for its card to be seen: the members'
        reactions are awaited, no turn."""
        return self.reveal_at is not None or self.window_unseen

    @property
    def reaction_seq(self) -> int:
        """What reaction buttons carry: the window's reveal, else the last action."""
        return self.reveal_seq if self.in_window else self.seq

    def panel_valid(self, seat: Seat, version: int) -> bool:
        """Whether a panel built at ``version`` may still act for ``seat``: the seat has not acted
        since, no new deal has started, and the version is not from the future (forged)."""
        return max(self.acted_version.get(seat, 0), self.deal_version) <= version <= self.version

    def recent_timeouts(self) -> list[TimedOut]:
        """The deadlines passed within the last round of actions, oldest first."""
        since = self.seq - len(self.record.seats)
        return [t for t in self.timeouts if t.seq > since]

    def seat_of(self, user_id: int) -> Seat | None:
        """The member's seat; None once they left or were kicked (the computer plays it now,
        and its hand is nobody's to see)."""
        for s in self.record.seats:
            if s.user_id == user_id and not s.left:
                return s.seat
        return None

    def taken_over(self, seat: Seat) -> bool:
        """Whether the computer plays a member's seat after missed turns and the member may
        still take it back (the match goes on)."""
        return self.record.seats[seat].autoplay and self.live

    def by_computer(self, seat: Seat) -> bool:
        """Whether a computer player makes this seat's choices now."""
        record = self.record.seats[seat]
        return record.user_id is None or record.autoplay

    def has_left(self, user_id: int) -> bool:
        """Whether the member left this table (or was kicked) during play."""
        return any(s.user_id == user_id and s.left for s in self.record.seats)

    def members(self) -> list[SeatRecord]:
        """The seats members hold now (not those they left)."""
        return [s for s in self.record.seats if s.user_id is not None and not s.left]

    def cancel_timers(self) -> None:
        for timer in (self.deadline_timer, self.computer_timer, self.idle_timer):
            if timer is not None:
                timer.cancel()
        self.deadline_timer = self.computer_timer = self.idle_timer = None
        self.cancel_window()

    def cancel_window(self) -> None:
        for timer in self.window_timers:
            timer.cancel()
        self.window_timers.clear()


def require_seat(table: LiveTable, user_id: int) -> Seat:
    """The member's seat at ``table``; refused to spectators and to those who left, and at a
    damaged table."""
    if table.damage is not None:
        raise UserError("table_damaged")
    seat = table.seat_of(user_id)
    if seat is None:
        raise UserError("left_table" if table.has_left(user_id) else "not_seated")
    return seat
