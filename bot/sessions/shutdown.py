"""The graceful stop (SIGTERM): no new change is taken, those in flight finish, and every table
in play is saved as paused, for ``restore`` to resume at the next start.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from bot.storage import StorageError

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)


async def shutdown(sessions: SessionManager) -> None:
    """Take no new change, let those in flight finish, pause.

    Each table's lock is taken in turn, so an action being applied (a member's, a computer
    player's, a deadline's) finishes and is stored first. Then its timers stop, a table in
    play is saved as ``paused`` (the version stays: the match has not changed) and the
    listener is told, so its message says it is paused. ``restore`` at the next start
    resumes it with fresh deadlines. Lobbies stay lobbies.

    A database that does not answer stops nothing: every table's timers stop all the same,
    the pause is not tried again once the database was found away, and one line says which
    tables were not saved as paused (they resume from their last saved action all the same).
    """
    sessions.closing = True
    unsaved: list[int] = []
    problem: StorageError | None = None
    for table in sessions.live_tables():
        async with table.lock:
            table.cancel_timers()
            if table.record.status != "playing" or table.damage is not None:
                continue
            table.turn_deadlines.clear()
            if problem is not None and sessions.storage.away:
                unsaved.append(table.table_id)
                continue
            try:
                await sessions.save(
                    table, dataclasses.replace(table.record, status="paused"), bump=False
                )
            except StorageError as error:
                problem = error
                unsaved.append(table.table_id)
                continue
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
