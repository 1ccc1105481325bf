"""Deadlines and idleness: every seat a member must act for has a deadline; when it passes the
computer player acts for that seat (the game's own timeout action where it names one), and after
``STRIKES_FOR_AUTOPLAY`` misses in a row it keeps the seat until the member takes it back. A
table with no member action for ``idle_seconds`` (or past its own end, a table of the day) ends by
itself, so a channel is never blocked. A timer's write that fails is tried again, later each time.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.sessions.moves import only_pass, time_for
from bot.sessions.table import ENDS_AT, LiveTable, TimedOut, shown_to_all
from bot.storage import StorageError
from games.core import Seat

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)

MAX_SAVE_RETRY = 60.0
"""Seconds: the longest wait before a computer move that could not be saved is tried again."""


class Deadlines:
    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions

    def arm(self, table: LiveTable) -> None:
        """Set the deadlines of the members to act, and let the computer players move."""
        sessions = self.sessions
        game = table.game
        if game is None or table.record.status != "playing" or table.damage is not None:
            return
        if table.in_window:
            # a reaction window runs on its own timers (reactions.py); no turn deadlines in it
            table.turn_deadlines.clear()
            if table.deadline_timer is not None:
                table.deadline_timer.cancel()
                table.deadline_timer = None
            return
        acting = game.to_act()
        now = sessions.clock.now()
        played_for = {s for s in acting if played_by_table(table, s)}
        for seat in list(table.turn_deadlines):
            if seat not in acting or seat in played_for:
                del table.turn_deadlines[seat]
        turn_seconds = table.record.turn_seconds
        for seat in acting - played_for:
            if seat not in table.turn_deadlines:
                table.turn_deadlines[seat] = now + time_for(turn_seconds, table.plays_cards(seat))
        if table.turn_deadlines:
            # a timer set for an earlier time is kept: it finds nothing due then and is set
            # again (``passed``), rather than a timer being set anew at every action
            first = min(table.turn_deadlines.values())
            if table.deadline_timer is None or table.deadline_at > first:
                self._set_deadline_timer(table, first)
        elif table.deadline_timer is not None:
            table.deadline_timer.cancel()
            table.deadline_timer = None
        if table.computer_timer is None and played_for:
            table.computer_timer = sessions.clock.call_at(
                now + sessions.computer_delay, lambda: sessions.computers.move(table)
            )

    def _set_deadline_timer(self, table: LiveTable, when: float) -> None:
        if table.deadline_timer is not None:
            table.deadline_timer.cancel()
        table.deadline_at = when
        table.deadline_timer = self.sessions.clock.call_at(when, lambda: self.passed(table))

    def deadline(self, table: LiveTable) -> float | None:
        """The earliest deadline of a member who must act now, for display."""
        return min(table.turn_deadlines.values()) if table.turn_deadlines else None

    def retry_at(self, table: LiveTable) -> float:
        """When to try again a timer's write that failed: 2, 4, 8... up to ``MAX_SAVE_RETRY``
        seconds from now, the longer the more writes failed in a row."""
        table.save_failures += 1
        return self.sessions.clock.now() + min(MAX_SAVE_RETRY, 2.0**table.save_failures)

    async def passed(self, table: LiveTable) -> None:
        """The earliest deadline passed: the computer player acts for every seat now due."""
        sessions = self.sessions
        table.deadline_timer = None
        async with table.lock:
            game = table.game
            if game is None or table.record.status != "playing":
                return
            now = sessions.clock.now()
            due = sorted(s for s, t in table.turn_deadlines.items() if t <= now)
            if not due:  # the seats acted in time: nothing changes, and the timer is set again
                self.arm(table)
                return
            hands_before = sessions.hands(table)
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
                        await sessions.play.apply(table, seat, named, by="timeout")
                    else:
                        notation = await sessions.computers.act(table, seat, by="timeout")
                except UserError:
                    # not saved (a failing disk): the seat keeps its passed deadline and the
                    # table is as it was; tried again later, waiting longer each time
                    saved = False
                    break
                public = table.game is not None and shown_to_all(before, table.view(None), notation)
                table.timeouts.append(TimedOut(seat, notation, table.seq, public))
            if not saved and table.record.status == "playing":
                self._set_deadline_timer(table, self.retry_at(table))
            elif table.record.status == "playing":
                self.arm(table)
            hands = sessions.changed_hands(table, hands_before)
        await sessions.tell(table, hands)

    # --- idleness -------------------------------------------------------------------------------

    def touch(self, table: LiveTable) -> None:
        """A member acted: idleness counts again from now. A table's idle timer only ever moves
        later, so one already set is left to fire: it finds the table not idle yet and is set
        again for the new time (``idle_check``), rather than being set anew at every action."""
        table.last_member_action = self.sessions.clock.now()
        if table.idle_timer is None:
            self.arm_idle(table)

    def arm_idle(self, table: LiveTable) -> None:
        if table.idle_timer is not None:
            table.idle_timer.cancel()
        table.idle_timer = self.sessions.clock.call_at(
            self.idle_at(table), lambda: self.idle_check(table)
        )

    def idle_at(self, table: LiveTable) -> float:
        """When the table ends unless a member acts: ``idle_seconds`` after their last action,
        or at its own end (``ENDS_AT``) for a table that keeps hours of its own."""
        ends = dict(table.record.options).get(ENDS_AT)
        return float(ends) if ends else table.last_member_action + self.sessions.idle_seconds

    async def idle_check(self, table: LiveTable) -> None:
        sessions = self.sessions
        table.idle_timer = None
        async with table.lock:
            if not table.live or sessions.closing:
                return
            if sessions.clock.now() < self.idle_at(table):
                self.arm_idle(table)
                return
            reason = "day_over" if ENDS_AT in dict(table.record.options) else "idle"
            try:
                await sessions.play.end(table, reason)
            except StorageError as error:
                log.debug("table %s: not ended for idleness yet: %s", table.table_id, error)
                retry = self.retry_at(table)
                table.idle_timer = sessions.clock.call_at(retry, lambda: self.idle_check(table))
                return
        await sessions.tell(table, frozenset())


def played_by_table(table: LiveTable, seat: Seat) -> bool:
    """Whether the table moves for ``seat`` now: a computer player, or a forced pass."""
    assert table.game is not None
    return table.by_computer(seat) or only_pass(table.single(seat)) is not None
