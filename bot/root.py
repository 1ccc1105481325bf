"""The composition root: Kortbord's core put together once, for whichever faces run on it.

:class:`Root` opens the storage, claims this process's shards when it runs as one of several
processes (or on PostgreSQL) and keeps their lease fresh, builds the session manager, restores the
live tables, starts the faces it is given, and stops it all in reverse order: the tables paused
and shown as paused, the faces stopped, the storage closed. It is no face itself: the Discord bot
(``bot.discord.client``) and the web table (``bot.web.server.WebFace``) are each handed the
session manager it built, and either can run without the other (``kortbord run``, ``kortbord
web``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.clock import Clock, SystemClock
from bot.sessions import Listener, LiveTable, SessionManager
from bot.settings import Settings
from bot.storage import (
    ShardClaimError,
    ShardLostError,
    Shards,
    Storage,
    StorageError,
    open_storage,
)
from bot.thinking import Thinker

log = logging.getLogger(__name__)

LEASE_SECONDS = 60.0
"""How long a process's claim on its shards lasts unless renewed: after a crash, the process
that takes over waits at most this long."""
RENEW_SECONDS = 20.0
RENEW_RETRY_SECONDS = 5.0
"""While the database does not answer, the lease is tried again this often."""
CLAIM_RETRY_SECONDS = 5.0


class Face(Protocol):
    """A face of the tables (the web table): started once the session manager exists, and stopped
    after the live tables were paused (so that it shows them paused)."""

    async def start(self, sessions: SessionManager, application_id: int | None) -> None: ...

    async def stop(self) -> None: ...


class Root:
    storage: Storage
    sessions: SessionManager

    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        *,
        computer_delay: float = 1.0,
        rng: random.Random | None = None,
        claim: bool = True,
        faces: Sequence[Face] = (),
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        """``claim``: whether this process claims shards (``kortbord sync`` only talks to
        Discord and claims nothing). ``faces``: started by :meth:`start_faces`, stopped by
        :meth:`close`. ``rng``: the tables' seeds, the system's source unless a test seeds it.
        ``lease_seconds``: how long the shards' lease lasts unless renewed (renewed every
        third of it)."""
        self.settings = settings
        self.clock = clock
        self.computer_delay = computer_delay
        self.rng = rng
        self.claim = claim
        self.faces = list(faces)
        self.lease_seconds = lease_seconds
        self.shards_lost = False
        """Set when another process took this one's shards over; it stops."""
        self.on_shards_lost: Callable[[], Awaitable[None]] | None = None
        """What stops the process when its shards were taken over (the runner sets it)."""
        self._lease_task: asyncio.Task[None] | None = None
        self._lease_until = 0.0
        """When this process's lease runs out unless renewed (seconds since the epoch)."""

    @property
    def opened(self) -> bool:
        return hasattr(self, "sessions")

    async def open(self, listeners: Sequence[Listener] = ()) -> SessionManager:
        """Opens the storage, claims the shards where that is needed, and builds the session
        manager with ``listeners`` (more may be added later: ``add_listener``)."""
        settings = self.settings
        self.storage = await open_storage(
            settings.database, pool_size=settings.pool_size, timeout=settings.database_timeout
        )
        shards = settings.shard_range
        if self.claim and (shards is not None or self.storage.dialect == "postgresql"):
            await self._claim(shards or Shards.all())
        self.sessions = SessionManager(
            self.storage,
            self.clock,
            turn_seconds=settings.turn_seconds,
            idle_seconds=settings.idle_minutes * 60,
            computer_delay=self.computer_delay,
            listeners=listeners,
            rng=self.rng,
            thinker=Thinker(
                workers=settings.ai_workers,
                seconds=settings.ai_seconds,
                iterations=settings.ai_iterations,
                counted_playouts=settings.daily_playouts,
            ),
        )
        return self.sessions

    async def restore(self) -> list[LiveTable]:
        """Brings back every live table of this process's shards; returns them, for the faces
        to show."""
        restored = await self.sessions.restore()
        log.info("restored %d live tables", restored)
        return self.sessions.live_tables()

    async def start_faces(self, application_id: int | None) -> None:
        for face in self.faces:
            await face.start(self.sessions, application_id)

    async def pause(self) -> None:
        """The first half of the graceful stop: in-flight actions finish and the live tables are
        paused and saved (``SessionManager.shutdown``); after a takeover, their timers only stop
        (the tables are another process's now, so nothing is saved)."""
        if self._lease_task is not None and self._lease_task is not asyncio.current_task():
            self._lease_task.cancel()
        if not self.opened:
            return
        try:
            if self.shards_lost:
                self.sessions.closing = True
                for table in self.sessions.live_tables():
                    table.cancel_timers()
            else:
                await self.sessions.shutdown()
        except ShardLostError as error:
            log.error("the live tables were not paused: %s", error)

    async def close(self) -> None:
        """The second half: the faces stop (after showing the pause), then the storage closes."""
        for face in self.faces:
            try:
                await face.stop()
            except Exception:
                log.exception("a face of the tables did not stop cleanly")
        if hasattr(self, "storage"):
            await self.storage.close()

    # --- the shards' lease ------------------------------------------------------------------------

    async def _claim(self, shards: Shards) -> None:
        """Claims ``shards`` in the database, waiting while another live process holds them
        (one that crashed holds them until its lease runs out), then keeps the lease fresh."""
        owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        retry = min(CLAIM_RETRY_SECONDS, self.lease_seconds / 4)
        while True:
            now = time.time()
            try:
                await self.storage.claim_shards(shards, owner, now, self.lease_seconds)
                break
            except ShardClaimError as error:
                log.warning("%s; trying again in %g s", error, retry)
            except StorageError as error:
                log.warning("cannot claim the shards: %s; trying again in %g s", error, retry)
            await self._wait(retry)
        self._lease_until = now + self.lease_seconds
        self._lease_task = asyncio.create_task(self._keep_lease(), name="shard lease")

    async def _keep_lease(self) -> None:
        """Renews the shards' lease every ``RENEW_SECONDS`` until this process stops; while the
        database does not answer, every ``RENEW_RETRY_SECONDS``, as long as the lease lasts."""
        while await self.renew_lease():
            every = RENEW_RETRY_SECONDS if self.storage.away else RENEW_SECONDS
            await self._wait(every * self.lease_seconds / LEASE_SECONDS)

    async def renew_lease(self, now: float | None = None) -> bool:
        """Renews the shards' lease; False once another process has taken them over, or once
        the lease ran out during a database outage (another process may have taken them), and
        then this one stops (closing without pausing tables that may no longer be its own)."""
        now = time.time() if now is None else now
        try:
            await self.storage.renew_shards(now, self.lease_seconds)
        except ShardLostError as error:
            log.critical("stopping: %s", error)
            await self._lose_shards()
            return False
        except StorageError as error:
            if now < self._lease_until:
                # The database is away for a moment: the lease lasts, and is tried again soon.
                log.debug("could not renew the shards' lease: %s", error)
                return True
            log.critical(
                "stopping: the shards' lease ran out %.0f s ago while the database did not"
                " answer (%s); another process may serve them now",
                now - self._lease_until,
                error,
            )
            await self._lose_shards()
            return False
        self._lease_until = now + self.lease_seconds
        return True

    async def _wait(self, seconds: float) -> None:
        """A pause of the lease's own, on the clock's time where the clock keeps one (SimCord's
        simulated clock in the demo and the tests)."""
        if isinstance(self.clock, SystemClock):
            await self.clock.sleep(seconds)
        else:
            await asyncio.sleep(seconds)

    async def _lose_shards(self) -> None:
        self.shards_lost = True
        if self.on_shards_lost is not None:
            await self.on_shards_lost()
