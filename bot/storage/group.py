"""Group commit: the actions of many tables that arrive together, written in one transaction.

``ActionLine`` is the line in which ``Storage.record_action`` waits. Whoever writes is given
everything waiting (at most ``MAX_BATCH`` actions, one per table) and commits it in one
transaction, so a burst from thousands of tables costs a few commits instead of one each. A
table's actions are written in the order they came, never two of one table in one batch nor in
two batches at once; each caller is answered only once its own action is committed (or refused:
a refusal of one action, such as a duplicate, leaves the others of its batch to commit).

Waiting in line is not waiting for the database: it has no timeout (the storage's timeout
bounds each transaction, from its start to its commit). It is bounded by back-pressure instead:
at most ``MAX_WAITING`` actions wait; a caller beyond that waits for room before joining. When a
batch finds the database away, everything waiting fails with it at once, rather than meeting
the same outage batch after batch.

It knows nothing of SQL: ``commit`` (given by the storage) writes a batch and says, for each
action, whether it was refused.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.storage.errors import StorageError, StorageUnavailable
from bot.storage.records import ActionRecord, TableRecord

log = logging.getLogger(__name__)

MAX_BATCH = 1000
"""At most this many actions (of as many tables) in one transaction."""

MAX_WAITING = 50_000
"""At most this many actions wait in line; more callers wait for room before joining."""


@dataclass(eq=False, slots=True)
class Pending:
    """One action waiting to be written, with the table row to save with it."""

    table: TableRecord
    action: ActionRecord
    done: asyncio.Future[None] = field(repr=False)
    seats: bool = True
    """Whether the table's seats are saved too (off: they are as stored)."""


Commit = Callable[[list[Pending]], Awaitable[list[StorageError | None]]]
"""Writes a batch in one transaction; for each action, None or why it alone was refused.
Raises (nothing of the batch kept) when the transaction as a whole failed."""


class ActionLine:
    """The line of actions waiting to be committed; ``writers`` batches may be written at once
    (1 for SQLite's one writer, more over a PostgreSQL pool)."""

    def __init__(self, commit: Commit, *, writers: int = 1) -> None:
        self._commit = commit
        self._writers = writers
        self._chains: dict[int, deque[Pending]] = {}
        """The actions waiting, by table, in the order they came."""
        self._ready: deque[int] = deque()
        """Tables with an action waiting and none being written, in the order they came."""
        self._writing: set[int] = set()
        self._waiting = 0
        self._blocked = 0
        """Callers waiting for room in line (``MAX_WAITING``)."""
        self._changed = asyncio.Condition()
        self._tasks: set[asyncio.Task[None]] = set()
        self._running = 0
        """Writers started and not yet ended."""
        self._closed = False

    @property
    def waiting(self) -> int:
        """How many actions wait to be committed (those being written included)."""
        return self._waiting

    async def put(self, table: TableRecord, action: ActionRecord, *, seats: bool = True) -> None:
        """Waits until ``action`` (with ``table``, and its seats unless ``seats`` is off) is
        committed; raises what refused it."""
        if self._waiting >= MAX_WAITING or self._blocked:
            self._blocked += 1  # in line for room, behind whoever waits for it already
            try:
                async with self._changed:
                    await self._changed.wait_for(
                        lambda: self._waiting < MAX_WAITING or self._closed
                    )
            finally:
                self._blocked -= 1
        if self._closed:
            raise StorageError("the storage is closing; nothing more is written")
        pending = Pending(table, action, asyncio.get_running_loop().create_future(), seats)
        chain = self._chains.get(table.table_id)
        if chain is None:
            chain = self._chains[table.table_id] = deque()
        chain.append(pending)
        if len(chain) == 1 and table.table_id not in self._writing:
            self._ready.append(table.table_id)
        self._waiting += 1
        self._start_writers()
        try:
            await pending.done
        except asyncio.CancelledError:
            # the caller gave up waiting (which cancels ``done``); an action not yet taken is
            # not written, one being written has its answer go unread
            self._withdraw(pending)
            raise

    def _withdraw(self, pending: Pending) -> None:
        table_id = pending.table.table_id
        chain = self._chains.get(table_id)
        if chain is None or pending not in chain:
            pending.done.add_done_callback(_ignore)  # being written: its answer goes unread
            return
        chain.remove(pending)
        self._waiting -= 1
        if not chain:
            del self._chains[table_id]
            if table_id not in self._writing:
                self._ready.remove(table_id)
        pending.done.cancel()

    def _start_writers(self) -> None:
        while self._running < min(self._writers, len(self._ready)):
            self._running += 1
            task = asyncio.get_running_loop().create_task(self._write(), name="group commit")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _take(self) -> list[Pending]:
        """The next batch: the first waiting action of each ready table, in order."""
        batch: list[Pending] = []
        while self._ready and len(batch) < MAX_BATCH:
            table_id = self._ready.popleft()
            batch.append(self._chains[table_id].popleft())
            self._writing.add(table_id)
        return batch

    async def _write(self) -> None:
        """A writer: takes batches while any is ready, then ends (a new one starts on demand)."""
        while True:
            await asyncio.sleep(0)  # let the actions of this same moment join the batch
            async with self._changed:
                batch = self._take()
                if not batch:
                    self._running -= 1  # at once: a writer that is ending takes nothing more
                    return
            try:
                answers = await self._commit(batch)
            except StorageUnavailable as error:
                # the database is away: what waits behind would meet the same outage
                answers = [error] * len(batch)
                async with self._changed:
                    self._fail_waiting(error)
            except StorageError as error:
                answers = [error] * len(batch)
            except Exception as error:
                log.exception("committing %d actions failed", len(batch))
                answers = [StorageError(f"the write failed: {error}")] * len(batch)
            async with self._changed:
                for pending, answer in zip(batch, answers, strict=True):
                    self._done(pending, answer)
                self._start_writers()
                self._changed.notify_all()

    def _done(self, pending: Pending, answer: StorageError | None) -> None:
        table_id = pending.table.table_id
        self._writing.discard(table_id)
        self._waiting -= 1
        if self._chains.get(table_id):
            self._ready.append(table_id)
        else:
            self._chains.pop(table_id, None)
        if pending.done.done():
            return
        if answer is None:
            pending.done.set_result(None)
        else:
            pending.done.set_exception(answer)

    def _fail_waiting(self, error: StorageUnavailable) -> None:
        for table_id in self._ready:
            for pending in self._chains.pop(table_id, ()):
                self._waiting -= 1
                if not pending.done.done():
                    pending.done.set_exception(error)
        self._ready.clear()

    async def close(self) -> None:
        """Takes no new action and waits until every action in line is answered."""
        async with self._changed:
            self._closed = True
            self._changed.notify_all()
            await self._changed.wait_for(lambda: self._waiting == 0)


def _ignore(future: asyncio.Future[None]) -> None:
    if not future.cancelled():
        future.exception()
