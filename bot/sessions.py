"""The session manager: it owns the live tables and is the only code that changes one.

Each table has one lock and one version, bumped on every change. A panel's controls carry the
version they were built at and stay valid for their seat until that seat acts (or a new deal
starts): other seats' moves do not make a waiting member's panel stale, so it needs no edit when
their turn comes, while a second click on a panel built before the seat's own move is refused
instead of applied twice. A member's action is checked (seat, version,
autoplay), tried on a copy of the match, written to the append-only log, and only then becomes the
table's state. Computer players move after a short pause; their thinking runs off the event loop.
Every seat a member must act for has a deadline; when it passes the computer player acts for that
seat, and after ``STRIKES_FOR_AUTOPLAY`` misses in a row it keeps the seat until the member takes it
back. A table with no member action for ``idle_seconds`` ends by itself, so a channel is never
blocked. Rendering is not done here: a :class:`Listener` is told what changed.

Real-time games (Hej knekt) open reaction windows: a phase whose message carries ``window_ms``.
The window's reveal time is when the card was turned; presses are stamped in milliseconds since
then (``press``), computer players press at human-like delays, and a timer applies ``close`` when
the window's time is up.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, TypeVar

from bot.choices import MemberChoices
from bot.clock import Clock, Timer, TimerCallback
from bot.errors import UserError
from bot.refusals import refusal
from bot.storage import DuplicateActionError, Storage, StorageError, StorageUnavailable
from bot.storage.records import ActionRecord, Damage, RatingChange, SeatRecord, TableRecord
from bot.thinking import SEARCH_KINDS, Thinker
from bot.verify import fingerprint
from games import ai
from games.ai import is_timed_window
from games.cards import code, parse_card
from games.core import (
    Action,
    Game,
    GameSpec,
    IllegalActionError,
    NotationError,
    OptionError,
    Options,
    Seat,
    View,
    apply_option_text,
)
from games.registry import SPECS

log = logging.getLogger(__name__)
T = TypeVar("T")

STRIKES_FOR_AUTOPLAY = 2
MAX_SAVE_RETRY = 60.0
"""Seconds: the longest wait before a computer move that could not be saved is tried again."""
DECISION_FACTOR = 2
"""A decision (a bid, bid cards, a declaration: anything but playing one card) gets this many
times the table's turn time: choosing takes longer than following suit."""
SEATS_OPTION = "_seats"
"""A table setting kept with the game's options: how many seats to fill at the start."""
ENDS_AT = "_ends_at"
"""A table setting: the Unix time at which the table ends, whatever its members do meanwhile,
instead of ending after ``idle_seconds`` without them (a table of the day, at the day's end)."""
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
    return all(word in named for word in notation.split() if _is_card_code(word))


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its stored record, the match (None in the lobby) and its timers."""

    record: TableRecord
    game: Game | None = None
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    turn_deadlines: dict[Seat, float] = field(default_factory=dict)
    deadline_timer: Timer | None = None
    computer_timer: Timer | None = None
    idle_timer: Timer | None = None
    last_member_action: float = 0.0
    reveal_at: float | None = None
    """When the open reaction window's card was revealed (None: no window open)."""
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

    _known: tuple[Game | None, dict[tuple[str, Seat | None], object]] = field(
        default_factory=lambda: (None, {}), repr=False, compare=False
    )
    """What was worked out from ``game`` (its views, a seat's choices), kept while it is the
    table's match: ``_apply`` replaces the match by a changed copy on every action and never
    changes it in place, so the same match always gives the same answers."""

    def worked_out(self, kind: str, seat: Seat | None, work: Callable[[Game], T]) -> T:
        """``work(game)`` for the table's match, done once per state of it: ``kind`` and
        ``seat`` name what is worked out (``"view"``, 0)."""
        assert self.game is not None, "a lobby has no match"
        game, known = self._known
        if game is not self.game:
            game, known = self._known = (self.game, {})
        key = (kind, seat)
        if key not in known:
            known[key] = work(self.game)
        return known[key]  # type: ignore[return-value]

    def view(self, seat: Seat | None) -> View:
        """``game.view(seat)`` of the table's match, worked out once per state of it."""
        return self.worked_out("view", seat, lambda game: game.view(seat))

    def choices(self, seat: Seat) -> Mapping[Action, str]:
        """:func:`member_actions` of the table's match for ``seat``, worked out once per state."""
        return self.worked_out("choices", seat, lambda game: member_actions(game, seat))

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
    def reaction_seq(self) -> int:
        """What reaction buttons carry: the open window's reveal, else the last action."""
        return self.reveal_seq if self.reveal_at is not None else self.seq

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


def game_options(settings: Mapping[str, str]) -> dict[str, str]:
    """The game's own options among a table's settings (table settings start with ``_``)."""
    return {name: value for name, value in settings.items() if not name.startswith("_")}


def options_of(record: TableRecord) -> Options:
    spec = SPECS[record.game_id]
    return apply_option_text(spec.preset(record.variant), game_options(dict(record.options)))


def seats_wanted(record: TableRecord) -> int:
    """How many seats the match starts with: the host's wish, within the game's range."""
    spec = SPECS[record.game_id]
    wish = dict(record.options).get(SEATS_OPTION, "")
    wanted = int(wish) if wish.isdigit() else spec.min_players
    return max(spec.min_players, len(record.seats), min(wanted, spec.max_players))


def _only_action(game: Game, seat: Seat) -> tuple[Action, str] | None:
    """The seat's one legal action and its notation, when it has exactly one."""
    legal = game.legal_actions(seat)
    return (legal[0], game.notation(legal[0])) if len(legal) == 1 else None


def forced_pass(game: Game, seat: Seat) -> Action | None:
    """The seat's ``pass`` when it is the only thing it may do (Jig, Bräus): the table plays it
    at once for a member, as a player at a real table says "pass" without being asked."""
    only = _only_action(game, seat)
    return only[0] if only is not None and only[1] == "pass" else None


def forced_card(game: Game, seat: Seat) -> Action | None:
    """The seat's card when it is the only thing it may do (it must follow suit with its one
    card of the suit, say): played for a member at once unless they turned that off."""
    only = _only_action(game, seat)
    return only[0] if only is not None and _is_card_code(only[1]) else None


def member_actions(game: Game, seat: Seat) -> dict[Action, str]:
    """What a member may choose for ``seat`` from a panel: its legal actions with their notations.

    Nothing else the engine would take is a member's to send. A timed window's actions
    (``is_timed_window``: ``<verb> <ms>`` and the timer's ``close <ms>``) carry a time, which
    only the server's clock may set: a press comes from a reaction button, stamped by the
    interaction's id (``press``), and ``close`` only from the window's timer.
    """
    if seat not in game.to_act():
        return {}
    legal = game.legal_actions(seat)
    notations = [game.notation(action) for action in legal]
    if is_timed_window(notations):
        return {}
    return dict(zip(legal, notations, strict=True))


def cards_ahead(game: Game, seat: Seat) -> list[str]:
    """The cards a waiting seat's panel offers ahead of its turn: while the seats to act play
    single cards, the seat's own hand, so that its panel already holds the controls it will need
    and is not edited when the turn comes (a click before the turn is refused and answered with
    the current panel; ``act`` checks every click). Nothing for a seat to act, or in a phase of
    other choices (bids, reactions)."""
    acting = game.to_act()
    if not acting or seat in acting:
        return []
    for other in acting:
        notations = [game.notation(action) for action in game.legal_actions(other)]
        if not notations or not all(_is_card_code(n) for n in notations):
            return []
    return [code(c) for c in game.view(seat).hand]


def press_verbs(game: Game, seat: Seat) -> frozenset[str]:
    """The reactions ``seat`` may press in the open timed window (never the timer's ``close``)."""
    if seat not in game.to_act():
        return frozenset()
    notations = [game.notation(action) for action in game.legal_actions(seat)]
    if not is_timed_window(notations):
        return frozenset()
    return frozenset(n.split()[0] for n in notations) - {"close"}


def window_ms(view: View) -> int | None:
    """The length of the open reaction window, or None when none is open."""
    return _phase_int(view, "window_ms")


def decided_ms(view: View) -> int | None:
    """When the open window's outcome becomes certain (after the reveal), if the game says so:
    all but one have reacted, and a penalty on a corrected press is still running."""
    return _phase_int(view, "decided_ms")


def _phase_int(view: View, name: str) -> int | None:
    for arg, value in view.phase.args:
        if arg == name and isinstance(value, int):
            return value
    return None


def press_floor(game: Game, seat: Seat) -> int | None:
    """The earliest press time ``seat`` may use now (the window's latest applied time)."""
    for action in game.legal_actions(seat):
        words = game.notation(action).split()
        if len(words) == 2 and words[1].isdigit():
            return int(words[1])
    return None


def correct_press(game: Game, seat: Seat) -> str | None:
    """The press verb that settles ``seat``'s reaction, found by trying each on a copy.

    A correct press takes the seat out of ``to_act``; a wrong one leaves it in. When every press
    would (a false-alarm window) there is no right thing to do and None is returned.
    """
    floor = press_floor(game, seat)
    settling = []
    for action in game.legal_actions(seat):
        verb = game.notation(action).split()[0]
        if verb == "close":
            continue
        trial = game.clone()
        trial.apply(seat, game.parse(f"{verb} {floor}"))
        if seat not in trial.to_act():
            settling.append(verb)
    presses = [a for a in game.legal_actions(seat) if not game.notation(a).startswith("close")]
    return settling[0] if len(settling) == 1 and len(presses) > 1 else None


def turn_time(turn_seconds: int, game: Game, seat: Seat) -> float:
    """The time ``seat`` gets for its choice now: the table's turn time to play a card, and
    ``DECISION_FACTOR`` times that for a decision (a bid, bid cards, a declaration)."""
    for action in game.legal_actions(seat):
        words = game.notation(action).split()
        if len(words) != 1 or not _is_card_code(words[0]):
            return turn_seconds * DECISION_FACTOR
    return turn_seconds


def _is_card_code(word: str) -> bool:
    try:
        parse_card(word)
    except ValueError:
        return False
    return True


def replay_sound(
    record: TableRecord, actions: list[ActionRecord]
) -> tuple[Game | None, int, Damage | None]:
    """The match of a stored table as far as its log is sound: the game (None if not even its
    start can be rebuilt: an unknown game, variant or option), how many actions were applied,
    and what stopped the replay, if anything."""
    spec = SPECS.get(record.game_id)
    if spec is None:
        return None, 0, Damage("game", f"unknown game {record.game_id!r}")
    damage = lobby_damage(record)
    if damage is not None:
        return None, 0, damage
    try:
        game = replay(record, [])
    except ValueError as error:
        return None, 0, Damage("seats", str(error))
    for done, entry in enumerate(actions):
        try:
            game.apply(entry.seat, game.parse(entry.notation))
        except (ValueError, KeyError, IndexError) as error:
            detail = (
                f"action {entry.seq} ({entry.notation!r} for seat {entry.seat}) cannot be"
                f" played: {error}"
            )
            # rebuilt from the start: a refused move may have left the match half-changed
            return replay(record, actions[:done]), done, Damage("notation", detail, entry.seq)
    return game, len(actions), None


def lobby_damage(record: TableRecord) -> Damage | None:
    """What keeps a stored lobby from ever starting: an unknown game, variant or option."""
    spec = SPECS.get(record.game_id)
    if spec is None:
        return Damage("game", f"unknown game {record.game_id!r}")
    try:
        options_of(record)
    except OptionError as error:
        known = record.variant == "standard" or record.variant in spec.presets
        return Damage("options" if known else "variant", str(error))
    return None


def replay(record: TableRecord, actions: list[ActionRecord]) -> Game:
    """The match of a stored table, rebuilt from its seed and its action log."""
    game = SPECS[record.game_id].new(
        len(record.seats), options_of(record), rng=random.Random(record.seed)
    )
    for a in actions:
        game.apply(a.seat, game.parse(a.notation))
    return game


class SessionManager:
    def __init__(
        self,
        storage: Storage,
        clock: Clock,
        *,
        turn_seconds: int = 60,
        idle_seconds: float = 30 * 60,
        computer_delay: float = 1.0,
        listeners: Sequence[Listener] = (),
        rng: random.Random | None = None,
        thinker: Thinker | None = None,
        choices: MemberChoices | None = None,
    ) -> None:
        """``rng`` draws the tables' seeds and the computer players' randomness: the system's
        source by default; tests pass a seeded one so that every run deals the same cards."""
        self.storage = storage
        self.clock = clock
        self.turn_seconds = turn_seconds
        self.idle_seconds = idle_seconds
        self.computer_delay = computer_delay
        self.listeners: list[Listener] = list(listeners)
        self.thinker = thinker or Thinker(workers=0)
        self.choices = choices or MemberChoices(storage)
        self._by_channel: dict[int, LiveTable] = {}
        self._by_user: dict[int, LiveTable] = {}
        self._by_id: dict[int, LiveTable] = {}
        self._rng = rng if rng is not None else random.SystemRandom()
        self.closing = False
        """Set by ``shutdown``: from then on no change is taken, only finished."""

    # --- lookups (read-only; no lock needed: they do not await) ----------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Tell ``listener`` too of every change from now on (a face started after the manager)."""
        self.listeners.append(listener)

    async def _tell(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        """Tells every listener that ``table`` changed. One face's failure does not keep the
        others from showing the change; the first failure is raised once all were told."""
        failure: BaseException | None = None
        for listener in self.listeners:
            try:
                await listener.table_changed(table, hands)
            except Exception as error:
                if failure is not None:
                    log.exception("another listener failed to show table %d", table.table_id)
                failure = failure or error
        if failure is not None:
            raise failure

    def table_in(self, channel_id: int) -> LiveTable | None:
        return self._by_channel.get(channel_id)

    def table_by_id(self, table_id: int) -> LiveTable | None:
        return self._by_id.get(table_id)

    def table_of(self, user_id: int) -> LiveTable | None:
        return self._by_user.get(user_id)

    def live_tables(self) -> list[LiveTable]:
        return list(self._by_id.values())

    def damaged_lines(self) -> list[str]:
        """One line per damaged live table (see ``LiveTable.damage``), for ``kortbord health``."""
        return [
            f"table {t.table_id} in channel {t.record.channel_id}: {t.damage.detail}"
            for t in self._by_id.values()
            if t.damage is not None
        ]

    def _require_open(self) -> None:
        if self.closing:
            raise UserError("restarting")

    @contextlib.asynccontextmanager
    async def _changing(self, table: LiveTable) -> AsyncIterator[None]:
        """The table's lock for a member's change; refused if a shutdown began while waiting."""
        async with table.lock:
            self._require_open()
            if table.damage is not None:
                raise UserError("table_damaged")
            yield

    def _require_table(self, channel_id: int) -> LiveTable:
        self._require_open()
        table = self._by_channel.get(channel_id)
        if table is None:
            raise UserError("no_table")
        return table

    # --- restore --------------------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back every live table from storage, with fresh deadlines. Returns how many.

        Running as several processes, only the tables of the servers on this process's shards
        (those the storage claimed): the other processes restore theirs."""
        restored = 0
        for stored in await self.storage.live_tables(self.storage.shards):
            record, actions, damage = stored.record, stored.actions, stored.damage
            game, done = None, len(actions)
            if damage is not None and damage.seq is None:
                pass  # the table row itself is corrupt: nothing of the match can be trusted
            elif record.status == "lobby":
                damage = lobby_damage(record)
            else:
                game, done, found = replay_sound(record, actions)
                damage = found or damage
            if damage is not None:
                if await self._restore_damaged(record, game, done, damage):
                    restored += 1
                continue
            if record.message_id is None and record.status == "lobby":
                # never posted (a crash or a Discord error between opening and posting): nobody
                # can reach it, so it is ended rather than left blocking its channel and host
                log.warning("table %s has no message and is ended", record.table_id)
                await self.storage.end_table(record, "no_message")
                continue
            table = LiveTable(record, game, seq=len(actions), last_member_action=self.clock.now())
            # the versions of past actions are not stored: panels built before the restart stay
            # valid only if built at the last version (a pause does not bump it)
            table.deal_version = record.version
            self._register(table)
            self._arm_idle(table)  # idleness counts again from the restart
            restored += 1
            if record.status == "paused":
                # Paused by the last shutdown: the match is as it was, so panels built before
                # the restart stay valid (no version bump); _arm gives fresh deadlines.
                await self._save(
                    table, dataclasses.replace(table.record, status="playing"), bump=False
                )
            if game is not None and game.is_over():
                await self._finish(table)
                continue
            if game is not None and record.status != "lobby":
                self._follow_window(table)  # an open reaction window starts again from now
            self._arm(table)
        return restored

    async def _restore_damaged(
        self, record: TableRecord, game: Game | None, done: int, damage: Damage
    ) -> bool:
        """A table a corrupt row keeps from going on: shown as it was after its last sound
        action (``done``), marked damaged, and left for the host or an administrator to end.
        Nothing of it is written, so its rows stay as they are for someone to look at. It holds
        its channel (its message says what is wrong) but none of its members."""
        log.error(
            "table %s is damaged and cannot go on: %s; restored as it was after action %d;"
            " the host or an administrator can end it",
            record.table_id,
            damage.detail,
            done,
        )
        if record.message_id is None or record.channel_id in self._by_channel:
            # nowhere to show it: ended (its rows stay), rather than left holding anything
            log.error("table %s has no message of its own and is ended", record.table_id)
            await self.storage.end_damaged_table(record, "damaged")
            return False
        table = LiveTable(
            record, game, seq=done, last_member_action=self.clock.now(), damage=damage
        )
        self._by_id[table.table_id] = table
        self._by_channel[record.channel_id] = table
        self._arm_idle(table)
        return True

    def _register(self, table: LiveTable) -> None:
        self._by_id[table.table_id] = table
        self._by_channel[table.record.channel_id] = table
        for s in table.members():
            assert s.user_id is not None
            self._by_user[s.user_id] = table

    def _unregister(self, table: LiveTable) -> None:
        table.cancel_timers()
        self._by_id.pop(table.table_id, None)
        if self._by_channel.get(table.record.channel_id) is table:
            del self._by_channel[table.record.channel_id]
        for user_id, t in list(self._by_user.items()):
            if t is table:
                del self._by_user[user_id]

    # --- the lobby ------------------------------------------------------------------------------

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Member,
        game_id: str,
        variant: str = "standard",
        options: Mapping[str, str] | None = None,
        turn_seconds: int | None = None,
        language: str = "sv",
        thread_id: int | None = None,
        seed: int | None = None,
    ) -> LiveTable:
        """A new table in its lobby, hosted by ``host``. ``seed`` deals its cards (a table of the
        day's, the same for every member); a fresh one is drawn when None."""
        self._require_open()
        if game_id not in SPECS:
            raise UserError("unknown_game", game=game_id)
        if channel_id in self._by_channel:
            raise UserError("channel_busy")
        self._check_free(host.user_id)
        spec = SPECS[game_id]
        option_text = dict(options or {})
        try:
            apply_option_text(spec.preset(variant), game_options(option_text))
        except OptionError as error:
            if error.msg is not None and error.msg.key == "options.error.out_of_range":
                raise UserError("option_range", **dict(error.msg.args)) from None
            raise UserError("bad_option", detail=str(error)) from None
        now = self.clock.now()
        record = await self.storage.create_table(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            message_id=None,
            host_id=host.user_id,
            game_id=game_id,
            options=tuple(sorted(option_text.items())),
            variant=variant,
            seed=self._rng.getrandbits(62) if seed is None else seed,
            status="lobby",
            turn_seconds=turn_seconds or self.turn_seconds,
            language=language,
            version=1,
            created_at=now,
            updated_at=now,
            deadline_at=None,
            seats=(SeatRecord(seat=0, user_id=host.user_id, name=host.name),),
            end_reason=None,
        )
        table = LiveTable(record, last_member_action=now)
        self._register(table)
        self._arm_idle(table)
        return table

    async def discard(self, table: LiveTable, reason: str) -> None:
        """Ends a new table whose message could not be posted: nobody can reach it, and it must
        not hold its channel and host."""
        async with table.lock:
            if table.live:
                await self._end(table, reason)

    def _check_free(self, user_id: int) -> None:
        if user_id in self._by_user:
            raise UserError("already_seated")

    async def attach_message(self, table: LiveTable, message_id: int) -> None:
        """Remember the public table message, so it can be edited after a restart."""
        async with table.lock:
            await self._save(
                table, dataclasses.replace(table.record, message_id=message_id), bump=False
            )

    async def join(self, channel_id: int, member: Member) -> LiveTable:
        table = self._require_table(channel_id)
        async with self._changing(table):
            self._require_lobby(table)
            if table.seat_of(member.user_id) is not None:
                raise UserError("already_at_this_table")
            self._check_free(member.user_id)
            if len(table.record.seats) >= table.spec.max_players:
                raise UserError("table_full", players=table.spec.max_players)
            seats = (
                *table.record.seats,
                SeatRecord(len(table.record.seats), member.user_id, member.name),
            )
            await self._save(table, dataclasses.replace(table.record, seats=seats))
            self._by_user[member.user_id] = table
            self._touch(table)
        await self._tell(table, frozenset())
        return table

    async def add_computer(
        self, channel_id: int, user_id: int, level: str = ai.DEFAULT_LEVEL
    ) -> LiveTable:
        """A computer player of ``level`` (``easy``, ``normal`` or ``hard``) takes the next seat."""
        table = self._require_table(channel_id)
        if level not in ai.LEVELS:
            raise UserError("bad_level")
        async with self._changing(table):
            self._require_lobby(table)
            self._require_seated(table, user_id)
            if len(table.record.seats) >= table.spec.max_players:
                raise UserError("table_full", players=table.spec.max_players)
            seat = SeatRecord(len(table.record.seats), None, "", ai=level)
            seats = (*table.record.seats, seat)
            await self._save(table, dataclasses.replace(table.record, seats=seats))
            self._touch(table)
        if level in SEARCH_KINDS:
            self.thinker.warm()
        await self._tell(table, frozenset())
        return table

    async def leave(self, channel_id: int, user_id: int) -> LiveTable:
        """In the lobby the seat is freed; during play a computer player takes it over for good."""
        table = self._require_table(channel_id)
        async with self._changing(table):
            seat = self._require_seated(table, user_id)
            if table.record.status == "lobby":
                remaining = [s for s in table.record.seats if s.seat != seat]
                if not any(s.user_id is not None for s in remaining):
                    await self._end(table, "empty")
                    return table
                seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(remaining))
                host = table.record.host_id
                if host == user_id:
                    host = next(s.user_id for s in seats if s.user_id is not None)
                await self._save(
                    table, dataclasses.replace(table.record, seats=seats, host_id=host)
                )
            else:
                await self._hand_over(table, seat, left=True)
            self._by_user.pop(user_id, None)
        await self._tell(table, frozenset())
        return table

    async def kick(self, channel_id: int, host_id: int, target_id: int) -> LiveTable:
        table = self._require_table(channel_id)
        if table.record.host_id != host_id:
            raise UserError("host_only")
        if target_id == host_id:
            raise UserError("cannot_kick_self")
        if table.seat_of(target_id) is None:
            raise UserError("not_at_table")
        return await self.leave(channel_id, target_id)

    async def start(self, channel_id: int, user_id: int) -> LiveTable:
        table = self._require_table(channel_id)
        async with self._changing(table):
            self._require_lobby(table)
            if table.record.host_id != user_id:
                raise UserError("host_only")
            seats = list(table.record.seats)
            while len(seats) < seats_wanted(table.record):
                seats.append(SeatRecord(len(seats), None, ""))
            record = dataclasses.replace(table.record, seats=tuple(seats), status="playing")
            try:
                game = replay(record, [])
            except ValueError as error:
                raise UserError("cannot_start", detail=str(error)) from None
            table.game = game
            table.seq = 0
            await self._save(table, record)
            await self._deal_shown(table)
            self._touch(table)
            self._arm(table)
        await self._tell(table, self._member_seats(table))
        return table

    async def end(self, channel_id: int, user_id: int, *, admin: bool = False) -> LiveTable:
        table = self._require_table(channel_id)
        if not admin and table.record.host_id != user_id:
            raise UserError("host_only")
        async with table.lock:  # a damaged table too: ending it is what is left to do
            self._require_open()
            if not table.live:
                raise UserError("table_gone")
            await self._end(table, "ended_by_host" if not admin else "ended_by_admin")
        await self._tell(table, frozenset())
        return table

    async def rematch(self, table_id: int, member: Member, *, admin: bool = False) -> LiveTable:
        """A new match of a finished table, in the same channel: the same members and computer
        players in the same seats, the same game, variant, options and turn time. It opens as a
        lobby so that anyone may still leave. Only a member seated at the end of the finished
        match (not one who left or was kicked) or an administrator starts it, and its host is
        seated: ``member``, or for an administrator not seated, the first member seated."""
        self._require_open()
        old = await self.storage.table(table_id)
        if old is None or old.status != "finished":
            raise UserError("table_gone")
        if ENDS_AT in dict(old.options):
            raise UserError("no_rematch")  # a table of the day: its deal is played once
        members = [s for s in old.seats if s.user_id is not None and not s.left]
        if not admin and not any(s.user_id == member.user_id for s in members):
            raise UserError("not_seated")
        if not members:
            raise UserError("table_gone")  # only computer players are left to play again
        host_id = next(
            (s.user_id for s in members if s.user_id == member.user_id), members[0].user_id
        )
        assert host_id is not None
        if old.channel_id in self._by_channel:
            raise UserError("channel_busy")
        for s in members:
            assert s.user_id is not None
            self._check_free(s.user_id)
        now = self.clock.now()
        seats = tuple(
            SeatRecord(
                seat=s.seat,
                user_id=None if s.left else s.user_id,
                name="" if s.left else s.name,
                ai=s.ai,
            )
            for s in old.seats
        )
        record = await self.storage.create_table(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            thread_id=old.thread_id,
            message_id=None,
            host_id=host_id,
            game_id=old.game_id,
            options=old.options,
            variant=old.variant,
            seed=self._rng.getrandbits(62),
            status="lobby",
            turn_seconds=old.turn_seconds,
            language=old.language,
            version=1,
            created_at=now,
            updated_at=now,
            deadline_at=None,
            seats=seats,
            end_reason=None,
        )
        table = LiveTable(record, last_member_action=now)
        self._register(table)
        self._arm_idle(table)
        return table

    def _require_lobby(self, table: LiveTable) -> None:
        if table.record.status != "lobby":
            raise UserError("already_started")

    def _require_seated(self, table: LiveTable, user_id: int) -> Seat:
        return require_seat(table, user_id)

    # --- play -----------------------------------------------------------------------------------

    async def act(self, table_id: int, user_id: int, version: int, notation: str) -> LiveTable:
        """A member's action from a panel built at ``version``; refused unless still current."""
        self._require_open()
        table = self._by_id.get(table_id)
        if table is None:
            raise UserError("table_gone")
        async with self._changing(table):
            seat = self._require_seated(table, user_id)
            if not table.panel_valid(seat, version):
                raise UserError("stale_panel")
            game = table.game
            if game is None or table.record.status != "playing":
                raise UserError("not_playing")
            if table.record.seats[seat].autoplay:
                raise UserError("autoplay_on")
            try:
                action = game.parse(notation)
            except NotationError as error:
                raise UserError("bad_action", detail=str(error)) from None
            if seat not in game.to_act() or action not in table.choices(seat):
                # not the seat's turn, a card it may not play, or a forged control (a timed
                # action, the timer's close): refused with the reason, in the game's words
                allowed = table.choices(seat).values()
                raise refusal(game, seat, notation, list(allowed))
            hands_before = self._hands(table)
            try:
                await self._apply(table, seat, action, by="member")
            except IllegalActionError as error:
                raise UserError("illegal_action", detail=str(error)) from None
            self._touch(table)
            hands = self._changed_hands(table, hands_before)
        await self._tell(table, hands)
        return table

    async def reclaim(self, channel_id: int, user_id: int) -> LiveTable:
        """The member takes their seat back from the computer player."""
        table = self._require_table(channel_id)
        async with self._changing(table):
            seat = self._require_seated(table, user_id)
            if not table.record.seats[seat].autoplay:
                raise UserError("not_autoplay")
            seats = list(table.record.seats)
            seats[seat] = dataclasses.replace(seats[seat], autoplay=False, strikes=0)
            await self._save(table, dataclasses.replace(table.record, seats=tuple(seats)))
            self._touch(table)
            self._arm(table)
        await self._tell(table, frozenset({seat}))
        return table

    async def press(
        self, table_id: int, user_id: int, reveal_seq: int, verb: str, pressed_at: float
    ) -> LiveTable:
        """A member's reaction press on the card revealed at ``reveal_seq``.

        ``pressed_at`` is Discord's time of the click (from the interaction's id), so the bot's
        own delays do not count against the member; a press is stamped no earlier than what the
        window has already seen (rules/party.md 1.5: receive order breaks the tie).
        """
        self._require_open()
        table = self._by_id.get(table_id)
        if table is None:
            raise UserError("table_gone")
        async with self._changing(table):
            seat = self._require_seated(table, user_id)
            game = table.game
            if game is None or table.record.status != "playing":
                raise UserError("not_playing")
            length = window_ms(table.view(None))
            now_ms = (
                round((self.clock.now() - table.reveal_at) * 1000)
                if table.reveal_at is not None
                else 0
            )
            if (
                table.reveal_at is None
                or table.reveal_seq != reveal_seq
                or length is None
                or now_ms >= length
            ):
                # the window of that card has closed (or its time is up by the server's clock,
                # its timer about to run): "För sent", also on buttons drawn after the close
                # while no card was turned since; a press when no card called for one is told so
                late = reveal_seq < table.seq or reveal_seq == table.window_closed_seq
                raise UserError("too_late" if late or table.reveal_at else "no_reaction_needed")
            if seat not in game.to_act():
                raise UserError("already_pressed")
            if verb not in press_verbs(game, seat):
                raise UserError("illegal_action")  # a forged button: no such press, or close
            floor = press_floor(game, seat) or 0
            # rules/party.md 1.5: the press's time is Discord's time of the click; it counts
            # while the window is open by the server's clock, within the window's length
            ms = min(max(floor, round((pressed_at - table.reveal_at) * 1000)), length - 1)
            ms = max(ms, floor)
            try:
                action = game.parse(f"{verb} {ms}")
                hands_before = self._hands(table)
                await self._apply(table, seat, action, by="member")
            except (NotationError, IllegalActionError) as error:
                raise UserError("illegal_action", detail=str(error)) from None
            self._touch(table)
            hands = self._changed_hands(table, hands_before)
        await self._tell(table, hands)
        return table

    async def _apply(
        self, table: LiveTable, seat: Seat, action: int, *, by: ActedBy, chosen: bool = True
    ) -> None:
        """Try ``action`` on a copy, log it, then make the copy the table's match. ``chosen``:
        the seat chose it (False for a forced card), so panels built before it are stale."""
        assert table.game is not None
        if table.unsure:
            await self._catch_up(table)
        assert table.game is not None
        trial = table.game.clone()
        trial.apply(seat, action)  # raises IllegalActionError, leaving the table as it was
        seats = list(table.record.seats)
        if seats[seat].user_id is not None:
            if by == "member":
                seats[seat] = dataclasses.replace(seats[seat], strikes=0)
            elif by == "timeout":
                strikes = seats[seat].strikes + 1
                seats[seat] = dataclasses.replace(
                    seats[seat], strikes=strikes, autoplay=strikes >= STRIKES_FOR_AUTOPLAY
                )
        now = self.clock.now()
        record = dataclasses.replace(
            table.record, version=table.version + 1, updated_at=now, seats=tuple(seats)
        )
        entry = ActionRecord(table.seq + 1, seat, trial.notation(action), now, by)
        try:
            await self.storage.record_action(record, entry)
        except StorageError as error:
            # a full or failing disk, a database away or too slow: the table stays as it was
            # (nothing half-applied), and a member is told their move was not saved, so they
            # can try again. An outage is logged by the storage, once.
            if isinstance(error, StorageUnavailable | DuplicateActionError):
                table.unsure = True  # it may have been kept: read the log before the next one
            level = logging.DEBUG if isinstance(error, StorageUnavailable) else logging.ERROR
            log.log(level, "table %s: action %s not saved: %s", table.table_id, entry.seq, error)
            raise UserError(self.not_saved_key) from None
        new_deal = trial.view(None).deal != table.view(None).deal
        table.record, table.game, table.seq = record, trial, table.seq + 1
        if chosen:
            table.acted_version[seat] = record.version
        if new_deal:
            table.deal_version = record.version
            await self._deal_shown(table)
        table.save_failures = 0
        table.turn_deadlines.pop(seat, None)  # a seat that acts again gets a fresh deadline
        if by == "member":  # the member is back: their timeout notice has been seen
            table.timeouts = [t for t in table.timeouts if t.seat != seat]
        table.timeouts = table.recent_timeouts()
        if trial.is_over():
            try:
                await self._finish(table)
            except StorageError as error:
                # the last move is saved, the result not: the match stays over but live, and
                # the result is tried again later (a restart would finish it too)
                log.warning("table %s: the result was not saved: %s", table.table_id, error)
                table.computer_timer = self.clock.call_at(
                    self._retry_at(table), lambda: self._finish_later(table)
                )
            return
        self._follow_window(table)
        if not await self._play_forced_card(table):
            self._arm(table)

    async def _deal_shown(self, table: LiveTable) -> None:
        """Keeps the fingerprint the deal starting now shows (``bot.verify``), so that a seed
        changed later no longer matches it. A failing disk loses this line, never the move."""
        game = table.game
        if game is None or game.is_over():
            return
        deal = table.view(None).deal
        shown = fingerprint(table.record.seed, table.table_id, deal)
        try:
            await self.storage.record_deal_print(table.table_id, deal, shown, self.clock.now())
        except StorageError as error:
            log.error("table %s: deal %d's fingerprint not kept: %s", table.table_id, deal, error)

    @property
    def not_saved_key(self) -> str:
        """What a member is told when their move was not saved, in words that fit where the
        storage says its data lives: Kortbord's own disk, or a database server."""
        return f"not_saved_{self.storage.place}"

    async def _catch_up(self, table: LiveTable) -> None:
        """The table after a write that got no answer: if the database kept it after all, the
        table becomes what is stored (its action applied), and the action being tried now was
        chosen on the state before it, so it is refused as stale (a computer player or a
        deadline tries again from the new state). Raises ``UserError`` (not saved) while the
        database is still away."""
        assert table.game is not None
        try:
            stored = await self.storage.actions(table.table_id)
            record = await self.storage.table(table.table_id)
        except StorageError as error:
            log.debug("table %s: the log cannot be read yet: %s", table.table_id, error)
            raise UserError(self.not_saved_key) from None
        table.unsure = False
        if len(stored) <= table.seq or record is None:
            return
        log.warning(
            "table %s: action %d was kept although its write got no answer; the table goes on"
            " from it",
            table.table_id,
            len(stored),
        )
        game = replay(record, stored)
        table.record, table.game, table.seq = record, game, len(stored)
        table.deal_version = record.version
        table.turn_deadlines.clear()
        if game.is_over():
            table.computer_timer = self.clock.call_at(
                self.clock.now(), lambda: self._finish_later(table)
            )
        else:
            self._follow_window(table)
            self._arm(table)
        raise UserError("stale_panel")

    async def _play_forced_card(self, table: LiveTable) -> bool:
        """Play a member's only legal card for them, in the same change as the move that led to
        it (one table edit shows both). Their panel stays valid: it made no choice of theirs. A
        card that cannot be saved is left for the member to play; False when none was played."""
        game = table.game
        if game is None or table.reveal_at is not None or game.is_over() or self.closing:
            return False
        for seat in sorted(game.to_act()):
            record = table.record.seats[seat]
            if record.user_id is None or table.by_computer(seat):
                continue
            card = forced_card(game, seat)
            if card is None or not await self.choices.get("forced_cards", record.user_id):
                continue
            try:
                await self._apply(table, seat, card, by="computer", chosen=False)
            except UserError:
                return False
            return True
        return False

    # --- computer players, deadlines, idleness ---------------------------------------------------

    def _arm(self, table: LiveTable) -> None:
        """Set the deadlines of the members to act, and let the computer players move."""
        game = table.game
        if game is None or table.record.status != "playing" or table.damage is not None:
            return
        if table.reveal_at is not None:
            # a reaction window runs on its own timers (_open_window); no turn deadlines in it
            table.turn_deadlines.clear()
            if table.deadline_timer is not None:
                table.deadline_timer.cancel()
                table.deadline_timer = None
            return
        acting = game.to_act()
        now = self.clock.now()
        played_for = {s for s in acting if self._played_for(table, s)}
        for seat in list(table.turn_deadlines):
            if seat not in acting or seat in played_for:
                del table.turn_deadlines[seat]
        for seat in acting - played_for:
            if seat not in table.turn_deadlines:
                table.turn_deadlines[seat] = now + turn_time(table.record.turn_seconds, game, seat)
        if table.deadline_timer is not None:
            table.deadline_timer.cancel()
            table.deadline_timer = None
        if table.turn_deadlines:
            first = min(table.turn_deadlines.values())
            table.deadline_timer = self.clock.call_at(first, lambda: self._deadline_passed(table))
        if table.computer_timer is None and played_for:
            table.computer_timer = self.clock.call_at(
                now + self.computer_delay, lambda: self._computer_moves(table)
            )

    @staticmethod
    def _played_for(table: LiveTable, seat: Seat) -> bool:
        """Whether the table moves for ``seat`` now: a computer player, or a forced pass."""
        assert table.game is not None
        return table.by_computer(seat) or forced_pass(table.game, seat) is not None

    # --- reaction windows (real-time games) -------------------------------------------------------

    def _follow_window(self, table: LiveTable) -> None:
        """Open or close the table's reaction window to match the match's phase."""
        assert table.game is not None
        length = window_ms(table.view(None))
        if length is None and table.reveal_at is not None:
            table.reveal_at = None
            table.window_closed_seq = table.seq
            table.cancel_window()
        elif length is not None and table.reveal_at is None:
            self._open_window(table, self.clock.now(), length)
        elif length is not None and table.reveal_at is not None:
            decided = decided_ms(table.view(None))
            if decided is not None and decided < length:
                # the loser is certain from then on: close then rather than at the timeout
                seq = table.reveal_seq
                table.window_timers.append(
                    self.clock.call_at(
                        table.reveal_at + decided / 1000,
                        lambda: self._close_window(table, seq, decided),
                    )
                )

    def _open_window(self, table: LiveTable, revealed: float, length_ms: int) -> None:
        game = table.game
        assert game is not None
        table.reveal_at, table.reveal_seq = revealed, table.seq
        seq = table.seq
        close_at = revealed + length_ms / 1000
        table.window_timers.append(
            self.clock.call_at(close_at, lambda: self._close_window(table, seq, length_ms))
        )
        for seat in sorted(game.to_act()):
            if not table.by_computer(seat):
                continue
            right = correct_press(game, seat)
            if right is None:
                continue
            wrong = [
                verb
                for verb in (game.notation(a).split()[0] for a in game.legal_actions(seat))
                if verb not in (right, "close")
            ]
            rng = random.Random(self._rng.getrandbits(64))
            reaction = ai.reaction_of(self._kind_of(table, seat))
            presses = ai.reaction_presses(
                rng, median_ms=reaction.median_ms, wrong_rate=reaction.wrong_rate
            )
            for planned in presses:
                verb = right if planned.correct or not wrong else wrong[0]
                table.window_timers.append(
                    self.clock.call_at(
                        revealed + planned.at_ms / 1000,
                        self._computer_press_callback(table, seq, seat, verb, planned.at_ms),
                    )
                )

    def _computer_press_callback(
        self, table: LiveTable, seq: int, seat: Seat, verb: str, at_ms: int
    ) -> TimerCallback:
        async def press() -> None:
            await self._timed_action(table, seq, seat, verb, at_ms)

        return press

    async def _close_window(self, table: LiveTable, seq: int, length_ms: int) -> None:
        game = table.game
        if game is None or not game.to_act():
            return
        await self._timed_action(table, seq, min(game.to_act()), "close", length_ms)

    async def _timed_action(
        self, table: LiveTable, seq: int, seat: Seat, verb: str, at_ms: int
    ) -> None:
        """A press or the close of the window revealed at ``seq``, if it is still open."""
        async with table.lock:
            game = table.game
            if (
                game is None
                or table.record.status != "playing"
                or table.reveal_at is None
                or table.reveal_seq != seq
                or seat not in game.to_act()
            ):
                return
            ms = max(at_ms, press_floor(game, seat) or 0)
            hands_before = self._hands(table)
            try:
                await self._apply(table, seat, game.parse(f"{verb} {ms}"), by="computer")
            except UserError:  # not saved (a failing disk): the window stays open until it is
                retry = self._timed_action_callback(table, seq, seat, verb, at_ms)
                table.window_timers.append(self.clock.call_at(self._retry_at(table), retry))
                return
            hands = self._changed_hands(table, hands_before)
        await self._tell(table, hands)

    def _timed_action_callback(
        self, table: LiveTable, seq: int, seat: Seat, verb: str, at_ms: int
    ) -> TimerCallback:
        async def again() -> None:
            await self._timed_action(table, seq, seat, verb, at_ms)

        return again

    def _retry_at(self, table: LiveTable) -> float:
        """When to try again a timer's write that failed: 2, 4, 8... up to ``MAX_SAVE_RETRY``
        seconds from now, the longer the more writes failed in a row."""
        table.save_failures += 1
        return self.clock.now() + min(MAX_SAVE_RETRY, 2.0**table.save_failures)

    def deadline(self, table: LiveTable) -> float | None:
        """The earliest deadline of a member who must act now, for display."""
        return min(table.turn_deadlines.values()) if table.turn_deadlines else None

    async def _computer_moves(self, table: LiveTable) -> None:
        """A computer player's move. It thinks outside the table's lock, on a copy of the match,
        so members' clicks are taken meanwhile; if the table moved on, it thinks again."""
        table.computer_timer = None
        if table.thinking:
            return  # the computer player thinking now moves, or asks again, when it is done
        async with table.lock:
            game = table.game
            if game is None or table.record.status != "playing" or table.reveal_at is not None:
                return
            seats = sorted(s for s in game.to_act() if self._played_for(table, s))
            if not seats:
                return
            seat = seats[0]
            forced = None if table.by_computer(seat) else forced_pass(game, seat)
            if forced is not None:
                hands_before = self._hands(table)
                if not await self._computer_applies(table, seat, forced):
                    return
                hands = self._changed_hands(table, hands_before)
            else:
                seq, snapshot, kind = table.seq, game.clone(), self._kind_of(table, seat)
                table.thinking = True
        if forced is None:
            try:
                action = await self.thinker.choose(snapshot, seat, kind, self._rng.getrandbits(64))
            finally:
                table.thinking = False
            async with table.lock:
                if (
                    table.game is None
                    or table.record.status != "playing"
                    or table.seq != seq
                    or not table.by_computer(seat)
                ):
                    self._arm(table)  # the table moved on meanwhile: think again from there
                    return
                hands_before = self._hands(table)
                if not await self._computer_applies(table, seat, action):
                    return
                hands = self._changed_hands(table, hands_before)
        await self._tell(table, hands)

    async def _computer_applies(self, table: LiveTable, seat: Seat, action: Action) -> bool:
        """A computer player's move applied; when it cannot be saved (a failing disk), it is tried
        again later, waiting longer each time, and False says so."""
        try:
            await self._apply(table, seat, action, by="computer")
        except UserError:
            table.computer_timer = self.clock.call_at(
                self._retry_at(table), lambda: self._computer_moves(table)
            )
            return False
        return True

    @staticmethod
    def _kind_of(table: LiveTable, seat: Seat) -> str:
        """The kind of computer player that moves for ``seat``: the level the host chose for a
        computer seat; ``normal`` for a member's seat taken over after missed turns."""
        record = table.record.seats[seat]
        return record.ai if record.user_id is None else ai.TAKEOVER_LEVEL

    async def _computer_acts(self, table: LiveTable, seat: Seat, *, by: ActedBy) -> str:
        """A computer player's move for ``seat`` (under the table's lock); returns its notation."""
        assert table.game is not None
        snapshot = table.game.clone()
        kind = self._kind_of(table, seat)
        action = await self.thinker.choose(snapshot, seat, kind, self._rng.getrandbits(64))
        notation = table.game.notation(action)
        await self._apply(table, seat, action, by=by)
        return notation

    async def _deadline_passed(self, table: LiveTable) -> None:
        table.deadline_timer = None
        async with table.lock:
            game = table.game
            if game is None or table.record.status != "playing":
                return
            now = self.clock.now()
            due = sorted(s for s, t in table.turn_deadlines.items() if t <= now)
            hands_before = self._hands(table)
            saved = True
            for seat in due:
                if table.game is None or table.game.is_over() or seat not in table.game.to_act():
                    table.turn_deadlines.pop(seat, None)
                    continue
                named = table.game.timeout_action(seat)
                before = table.view(None)
                try:
                    if named is not None and named in table.game.legal_actions(seat):
                        notation = table.game.notation(named)
                        await self._apply(table, seat, named, by="timeout")
                    else:
                        notation = await self._computer_acts(table, seat, by="timeout")
                except UserError:
                    # not saved (a failing disk): the seat keeps its passed deadline and the
                    # table is as it was; tried again later, waiting longer each time
                    saved = False
                    break
                public = table.game is not None and shown_to_all(before, table.view(None), notation)
                table.timeouts.append(TimedOut(seat, notation, table.seq, public))
            if not saved and table.record.status == "playing":
                if table.deadline_timer is not None:
                    table.deadline_timer.cancel()
                table.deadline_timer = self.clock.call_at(
                    self._retry_at(table), lambda: self._deadline_passed(table)
                )
            elif table.record.status == "playing":
                self._arm(table)
            hands = self._changed_hands(table, hands_before)
        await self._tell(table, hands)

    def _touch(self, table: LiveTable) -> None:
        table.last_member_action = self.clock.now()
        self._arm_idle(table)

    def _arm_idle(self, table: LiveTable) -> None:
        if table.idle_timer is not None:
            table.idle_timer.cancel()
        table.idle_timer = self.clock.call_at(self._idle_at(table), lambda: self._idle_check(table))

    def _idle_at(self, table: LiveTable) -> float:
        """When the table ends unless a member acts: ``idle_seconds`` after their last action,
        or at its own end (``ENDS_AT``) for a table that keeps hours of its own."""
        ends = dict(table.record.options).get(ENDS_AT)
        return float(ends) if ends else table.last_member_action + self.idle_seconds

    async def _idle_check(self, table: LiveTable) -> None:
        table.idle_timer = None
        async with table.lock:
            if not table.live or self.closing:
                return
            if self.clock.now() < self._idle_at(table):
                self._arm_idle(table)
                return
            reason = "day_over" if ENDS_AT in dict(table.record.options) else "idle"
            try:
                await self._end(table, reason)
            except StorageError as error:
                log.debug("table %s: not ended for idleness yet: %s", table.table_id, error)
                retry = self._retry_at(table)
                table.idle_timer = self.clock.call_at(retry, lambda: self._idle_check(table))
                return
        await self._tell(table, frozenset())

    async def _hand_over(self, table: LiveTable, seat: Seat, *, left: bool) -> None:
        seats = list(table.record.seats)
        seats[seat] = dataclasses.replace(seats[seat], autoplay=True, left=left)
        await self._save(table, dataclasses.replace(table.record, seats=tuple(seats)))
        if not any(not s.autoplay for s in table.members()):
            await self._end(table, "abandoned")
        else:
            self._arm(table)

    # --- the end --------------------------------------------------------------------------------

    async def _finish(self, table: LiveTable) -> None:
        assert table.game is not None
        result = table.game.result()
        places = list(result.places)
        last = len(places)
        for s in table.record.seats:
            if s.left:  # a member who left is placed last (rules/party.md 0.4)
                places[s.seat] = last
        teams = table.view(None).teams
        for team in teams:  # a member who left drags the side down: partners share a place
            worst = max(places[seat] for seat in team)
            for seat in team:
                places[seat] = worst
        table.ratings = await self.storage.finish_table(
            table.record, result.scores, tuple(places), teams
        )
        table.record = dataclasses.replace(
            table.record, status="finished", version=table.version + 1
        )
        self._unregister(table)

    async def _finish_later(self, table: LiveTable) -> None:
        """The result of a match that is over, stored now: its first write failed."""
        table.computer_timer = None
        async with table.lock:
            game = table.game
            if game is None or not game.is_over() or table.record.status != "playing":
                return
            try:
                await self._finish(table)
            except StorageError as error:
                log.debug("table %s: the result was not saved: %s", table.table_id, error)
                table.computer_timer = self.clock.call_at(
                    self._retry_at(table), lambda: self._finish_later(table)
                )
                return
        await self._tell(table, frozenset())

    async def _end(self, table: LiveTable, reason: str) -> None:
        if table.damage is not None:
            await self.storage.end_damaged_table(table.record, reason)
        else:
            await self.storage.end_table(table.record, reason)
        table.record = dataclasses.replace(
            table.record, status="ended", end_reason=reason, version=table.version + 1
        )
        self._unregister(table)

    async def _save(self, table: LiveTable, record: TableRecord, *, bump: bool = True) -> None:
        """Store ``record`` for the table, stamped now and (unless ``bump`` is off) a version on."""
        record = dataclasses.replace(
            record, version=table.version + (1 if bump else 0), updated_at=self.clock.now()
        )
        await self.storage.save_table(record)
        table.record = record

    # --- who must be told ------------------------------------------------------------------------

    def _member_seats(self, table: LiveTable) -> frozenset[Seat]:
        return frozenset(s.seat for s in table.members())

    def _hands(self, table: LiveTable) -> dict[Seat, object]:
        if table.game is None:
            return {}
        return {s: table.view(s).hand for s in self._member_seats(table)}

    def _changed_hands(self, table: LiveTable, before: dict[Seat, object]) -> frozenset[Seat]:
        after = self._hands(table)
        return frozenset(s for s, hand in after.items() if before.get(s) != hand)

    async def shutdown(self) -> None:
        """The graceful stop (SIGTERM): take no new change, let those in flight finish, pause.

        Each table's lock is taken in turn, so an action being applied (a member's, a computer
        player's, a deadline's) finishes and is stored first. Then its timers stop, a table in
        play is saved as ``paused`` (the version stays: the match has not changed) and the
        listener is told, so its message says it is paused. ``restore`` at the next start
        resumes it with fresh deadlines. Lobbies stay lobbies.

        A database that does not answer stops nothing: every table's timers stop all the same,
        the pause is not tried again once the database was found away, and one line says which
        tables were not saved as paused (they resume from their last saved action all the same).
        """
        self.closing = True
        unsaved: list[int] = []
        problem: StorageError | None = None
        for table in self.live_tables():
            async with table.lock:
                table.cancel_timers()
                if table.record.status != "playing" or table.damage is not None:
                    continue
                table.turn_deadlines.clear()
                if problem is not None and self.storage.away:
                    unsaved.append(table.table_id)
                    continue
                try:
                    await self._save(
                        table, dataclasses.replace(table.record, status="paused"), bump=False
                    )
                except StorageError as error:
                    problem = error
                    unsaved.append(table.table_id)
                    continue
            log.info("table %d paused for the restart", table.table_id)
            await self._tell(table, frozenset())
        self.thinker.close()  # a computer player still thinking finds its table paused
        if unsaved:
            log.error(
                "%d live tables were not saved as paused (%s): %s; each resumes from its last"
                " saved action at the next start",
                len(unsaved),
                ", ".join(str(table_id) for table_id in unsaved),
                problem,
            )
