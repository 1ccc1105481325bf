"""The graceful stop (SIGTERM): no new change is taken, those in flight finish, and every table
in play is saved as paused, for ``restore`` to resume at the next start.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import TYPE_CHECKING

from bot.sessions.table import LiveTable
from bot.storage import SAVED_AT_ONCE, StorageError
from bot.storage.records import TableRecord

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)


async def shutdown(sessions: SessionManager) -> None:
    """Take no new change, let those in flight finish, pause.

    Each table's lock is taken in turn, so an action being applied (a member's, a computer
    player's, a deadline's) finishes and is stored first; the locks are held until the pauses
    are saved. Then its timers stop, a table in play is saved as ``paused`` (the version stays:
    the match has not changed) and the listener is told, so its message says it is paused.
    ``restore`` at the next start resumes it with fresh deadlines. Lobbies stay lobbies. The
    pauses are saved ``SAVED_AT_ONCE`` tables to a transaction, so that a process with thousands
    of tables stops within its grace period.

    A database that does not answer stops nothing: every table's timers stop all the same,
    the pause is not tried again once the database was found away, and one line says which
    tables were not saved as paused (they resume from their last saved action all the same).
    """
    sessions.closing = True
    async with contextlib.AsyncExitStack() as held:
        playing: list[LiveTable] = []
        for table in sessions.live_tables():
            await held.enter_async_context(table.lock)
            table.cancel_timers()
            if table.record.status != "playing" or table.damage is not None:
                continue
            table.turn_deadlines.clear()
            playing.append(table)
        paused, unsaved, problem = await _pause(sessions, playing)
    for table in paused:
        log.info("table %d paused for the restart", table.table_id)
        await sessions.tell(table, frozenset())
    sessions.thinker.close()  # a computer player still thinking finds its table paused
    if unsaved:
        log.error(
            "%d live tables were not saved as paused (%s): %s; each resumes from its last"
            " saved action at the next start",
            len(unsaved),
            ", ".join(str(table_id) for table_id in unsaved),
            problem,
        )


async def _pause(
    sessions: SessionManager, tables: list[LiveTable]
) -> tuple[list[LiveTable], list[int], StorageError | None]:
    """Saves ``tables`` (their locks held) as paused, many to a transaction; a transaction
    refused for another reason than the database being away is tried again table by table, so
    that one table (ended meanwhile, its server's shard lost) keeps no other from its pause.
    Returns the tables paused, the ids of those not, and the first error met."""
    paused: list[LiveTable] = []
    unsaved: list[int] = []
    problem: StorageError | None = None
    now = sessions.clock.now()
    for start in range(0, len(tables), SAVED_AT_ONCE):
        part = tables[start : start + SAVED_AT_ONCE]
        if problem is not None and sessions.storage.away:
            unsaved += [table.table_id for table in part]
            continue
        records = [
            dataclasses.replace(table.record, status="paused", updated_at=now) for table in part
        ]
        try:
            await sessions.storage.save_tables(records)
        except StorageError as error:
            problem = problem or error
            if sessions.storage.away or len(part) == 1:
                unsaved += [table.table_id for table in part]
                continue
            for table, record in zip(part, records, strict=True):
                if await _pause_one(sessions, table, record, unsaved):
                    paused.append(table)
            continue
        for table, record in zip(part, records, strict=True):
            table.record = record
        paused += part
    return paused, unsaved, problem


async def _pause_one(
    sessions: SessionManager, table: LiveTable, record: TableRecord, unsaved: list[int]
) -> bool:
    """One table saved as paused on its own, unless the database was found away."""
    if sessions.storage.away:
        unsaved.append(table.table_id)
        return False
    try:
        await sessions.storage.save_table(record)
    except StorageError as error:
        log.debug("table %d not saved as paused: %s", table.table_id, error)
        unsaved.append(table.table_id)
        return False
    table.record = record
    return True
