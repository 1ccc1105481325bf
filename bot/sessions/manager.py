"""The session manager: the one door to the live tables, and the only code that changes one.

It holds what every part shares (the storage, the clock, the tables by channel, member and id,
the listeners) and hands each job to the part named for it: the lobby (:mod:`.lobby`), play
(:mod:`.play`), deadlines and idleness (:mod:`.deadlines`), reaction windows (:mod:`.reactions`),
computer players (:mod:`.computers`), restore at start-up (:mod:`.restore`) and the graceful stop
(:mod:`.shutdown`). The faces call only the methods below; the parts call each other through it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import random
from collections.abc import Sequence

from bot.choices import MemberChoices
from bot.clock import Clock
from bot.errors import UserError
from bot.sessions.computers import ComputerPlayers
from bot.sessions.deadlines import Deadlines
from bot.sessions.lobby import Lobby
from bot.sessions.play import Play
from bot.sessions.reactions import ReactionWindows
from bot.sessions.restore import Restore
from bot.sessions.shutdown import shutdown
from bot.sessions.table import Listener, LiveTable
from bot.storage import Storage
from bot.storage.records import TableRecord
from bot.thinking import Thinker
from games.core import Seat

log = logging.getLogger(__name__)


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
        windows_wait_for_sight: bool = False,
    ) -> None:
        """``rng`` draws the tables' seeds and the computer players' randomness: the system's
        source by default; tests pass a seeded one so that every run deals the same cards.
        ``windows_wait_for_sight``: a face tells when a turned card is seen, and its reaction
        window opens then (``reactions.seen``), not when the card is turned."""
        self.storage = storage
        self.clock = clock
        self.turn_seconds = turn_seconds
        self.idle_seconds = idle_seconds
        self.computer_delay = computer_delay
        self.listeners: list[Listener] = list(listeners)
        self.thinker = thinker or Thinker(workers=0)
        self.choices = choices or MemberChoices(storage)
        self.rng = rng if rng is not None else random.SystemRandom()
        self.closing = False
        """Set by ``shutdown``: from then on no change is taken, only finished."""
        self._by_channel: dict[int, LiveTable] = {}
        self._by_user: dict[int, LiveTable] = {}
        self._by_id: dict[int, LiveTable] = {}

        # the parts, each one job (see the module's docstring)
        self.lobby = Lobby(self)
        self.play = Play(self)
        self.deadlines = Deadlines(self)
        self.reactions = ReactionWindows(self, waits_for_sight=windows_wait_for_sight)
        self.computers = ComputerPlayers(self)
        self.restorer = Restore(self)

        # what the faces call
        self.open_table = self.lobby.open_table
        self.discard = self.lobby.discard
        self.attach_message = self.lobby.attach_message
        self.join = self.lobby.join
        self.add_computer = self.lobby.add_computer
        self.leave = self.lobby.leave
        self.kick = self.lobby.kick
        self.start = self.lobby.start
        self.end = self.lobby.end
        self.rematch = self.lobby.rematch
        self.act = self.play.act
        self.reclaim = self.play.reclaim
        self.press = self.reactions.press
        self.deadline = self.deadlines.deadline
        self.restore = self.restorer.restore

    async def shutdown(self) -> None:
        """The graceful stop (SIGTERM): see :func:`bot.sessions.shutdown.shutdown`."""
        await shutdown(self)

    @property
    def not_saved_key(self) -> str:
        """What a member is told when their move was not saved (see ``Play.not_saved_key``)."""
        return self.play.not_saved_key

    # --- lookups (read-only; no lock needed: they do not await) ----------------------------------

    def add_listener(self, listener: Listener) -> None:
        """Tell ``listener`` too of every change from now on (a face started after the manager)."""
        self.listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Tell ``listener`` nothing more (a face that stopped); one never added is no error."""
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)

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

    # --- for the parts ----------------------------------------------------------------------------

    async def tell(self, table: LiveTable, hands: frozenset[Seat]) -> None:
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

    def require_open(self) -> None:
        if self.closing:
            raise UserError("restarting")

    def changing(self, table: LiveTable) -> _Changing:
        """The table's lock for a member's change; refused if a shutdown began while waiting,
        or if the table finished or ended meanwhile (the change it waited to make is moot)."""
        return _Changing(self, table)

    def require_table(self, channel_id: int) -> LiveTable:
        self.require_open()
        table = self._by_channel.get(channel_id)
        if table is None:
            raise UserError("no_table")
        return table

    def require_by_id(self, table_id: int) -> LiveTable:
        self.require_open()
        table = self._by_id.get(table_id)
        if table is None:
            raise UserError("table_gone")
        return table

    def check_free(self, user_id: int) -> None:
        if user_id in self._by_user:
            raise UserError("already_seated")

    def channel_taken(self, channel_id: int) -> bool:
        return channel_id in self._by_channel

    def register(self, table: LiveTable, *, hold_members: bool = True) -> None:
        """Makes ``table`` live here: found by id and channel and, unless ``hold_members`` is off
        (a damaged table holds none), by each of its members."""
        self._by_id[table.table_id] = table
        self._by_channel[table.record.channel_id] = table
        if not hold_members:
            return
        for s in table.members():
            assert s.user_id is not None
            self._by_user[s.user_id] = table

    def seat_member(self, user_id: int, table: LiveTable) -> None:
        self._by_user[user_id] = table

    def unseat_member(self, user_id: int) -> None:
        self._by_user.pop(user_id, None)

    def unregister(self, table: LiveTable) -> None:
        table.cancel_timers()
        self._by_id.pop(table.table_id, None)
        if self._by_channel.get(table.record.channel_id) is table:
            del self._by_channel[table.record.channel_id]
        for user_id, t in list(self._by_user.items()):
            if t is table:
                del self._by_user[user_id]

    async def save(self, table: LiveTable, record: TableRecord, *, bump: bool = True) -> None:
        """Store ``record`` for the table, stamped now and (unless ``bump`` is off) a version on."""
        record = dataclasses.replace(
            record, version=table.version + (1 if bump else 0), updated_at=self.clock.now()
        )
        await self.storage.save_table(record)
        table.record = record

    # --- who must be told ------------------------------------------------------------------------

    @staticmethod
    def member_seats(table: LiveTable) -> frozenset[Seat]:
        return frozenset(s.seat for s in table.members())

    def hands(self, table: LiveTable) -> dict[Seat, object]:
        """The hand of each seat a member holds."""
        if table.game is None:
            return {}
        return {s.seat: table.hand(s.seat) for s in table.members()}

    def changed_hands(self, table: LiveTable, before: dict[Seat, object]) -> frozenset[Seat]:
        """The seats a member holds whose hand is not what it was ``before``."""
        after = self.hands(table)
        return frozenset([s for s, hand in after.items() if before.get(s) != hand])


class _Changing:
    """``SessionManager.changing``: written out rather than made by ``asynccontextmanager``,
    whose generator every member's action paid for."""

    __slots__ = ("sessions", "table")

    def __init__(self, sessions: SessionManager, table: LiveTable) -> None:
        self.sessions, self.table = sessions, table

    async def __aenter__(self) -> None:
        table = self.table
        await table.lock.acquire()
        try:
            self.sessions.require_open()
            if not table.live:
                raise UserError("table_gone")
            if table.damage is not None:
                raise UserError("table_damaged")
        except BaseException:
            table.lock.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.table.lock.release()
