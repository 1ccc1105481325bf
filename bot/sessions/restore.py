"""Restore at start-up: every live table brought back from storage with fresh deadlines, an open
reaction window started again, a table paused by the last shutdown resumed, and a table a corrupt
row damaged shown as it was after its last sound action, for the host or an administrator to end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from bot.sessions.rebuild import lobby_damage, replay_sound
from bot.sessions.table import LiveTable
from bot.storage.records import Damage, TableRecord
from games.core import Game

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)


class Restore:
    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions

    async def restore(self) -> int:
        """Bring back every live table from storage, with fresh deadlines. Returns how many.

        Running as several processes, only the tables of the servers on this process's shards
        (those the storage claimed): the other processes restore theirs."""
        with collector_paused():
            return await self._restore()

    async def _restore(self) -> int:
        sessions = self.sessions
        restored = 0
        resumed: list[TableRecord] = []
        for stored in await sessions.storage.live_tables(sessions.storage.shards):
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
                if await self.restore_damaged(record, game, done, damage):
                    restored += 1
                continue
            if record.message_id is None and record.status == "lobby":
                # never posted (a crash or a Discord error between opening and posting): nobody
                # can reach it, so it is ended rather than left blocking its channel and host
                log.warning("table %s has no message and is ended", record.table_id)
                await sessions.storage.end_table(record, "no_message")
                continue
            table = LiveTable(
                record, game, seq=len(actions), last_member_action=sessions.clock.now()
            )
            # the versions of past actions are not stored: panels built before the restart stay
            # valid only if built at the last version (a pause does not bump it)
            table.deal_version = record.version
            sessions.register(table)
            sessions.deadlines.arm_idle(table)  # idleness counts again from the restart
            restored += 1
            if record.status == "paused":
                # Paused by the last shutdown: the match is as it was, so panels built before
                # the restart stay valid (no version bump); arm gives fresh deadlines. Saved
                # below with every other one in one write (finish saves an ended match's own).
                table.record = dataclasses.replace(
                    record, status="playing", updated_at=sessions.clock.now()
                )
                if game is None or not game.is_over():
                    resumed.append(table.record)
            if game is not None and game.is_over():
                await sessions.play.finish(table)
                continue
            if game is not None and record.status != "lobby":
                sessions.reactions.follow(table)  # an open reaction window starts again now
            sessions.deadlines.arm(table)
        await sessions.storage.save_tables(resumed)
        return restored

    async def restore_damaged(
        self, record: TableRecord, game: Game | None, done: int, damage: Damage
    ) -> bool:
        """A table a corrupt row keeps from going on: shown as it was after its last sound
        action (``done``), marked damaged, and left for the host or an administrator to end.
        Nothing of it is written, so its rows stay as they are for someone to look at. It holds
        its channel (its message says what is wrong) but none of its members."""
        sessions = self.sessions
        log.error(
            "table %s is damaged and cannot go on: %s; restored as it was after action %d;"
            " the host or an administrator can end it",
            record.table_id,
            damage.detail,
            done,
        )
        if record.message_id is None or sessions.channel_taken(record.channel_id):
            # nowhere to show it: ended (its rows stay), rather than left holding anything
            log.error("table %s has no message of its own and is ended", record.table_id)
            await sessions.storage.end_damaged_table(record, "damaged")
            return False
        table = LiveTable(
            record, game, seq=done, last_member_action=sessions.clock.now(), damage=damage
        )
        sessions.register(table, hold_members=False)
        sessions.deadlines.arm_idle(table)
        return True


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused (if it runs), for a restore: it builds tens of thousands of
    objects that all stay, and the collector, set off by their number, would go through the
    growing heap again and again (a third of a restore's time) and find nothing to free."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
