"""The Discord bot: a ``commands.Bot`` that wires settings, storage, the session manager, the
listener, the cogs, the restart-safe buttons and the command translator together.

No privileged intents: slash commands and components need none. Commands are never synced at
start (``kortbord sync`` does that, deliberately, once for the whole bot however many processes
it runs as). A restart restores every live table from storage, with fresh deadlines, and
refreshes its message.

Running as several processes (``KORTBORD_SHARD_COUNT``, ``KORTBORD_SHARDS``), ``build_bot``
gives a ``ShardedKortbord``, an ``AutoShardedBot`` on this process's shards. Such a process, and
any process on PostgreSQL, first claims its shards in the database (waiting while another live
process holds them), renews the lease while it runs and gives it up when it stops; it restores
and changes only the tables of its shards' servers. Hands in DMs carry no buttons: Discord sends
every DM event to shard 0, so each action comes through the server's own shard.
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
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot.clock import Clock
from bot.discord.clock import DiscordClock
from bot.discord.cogs.admin import AdminCog
from bot.discord.cogs.daily import DailyCog
from bot.discord.cogs.info import InfoCog
from bot.discord.cogs.tables import TablesCog
from bot.discord.listener import DM_PAUSE, PANEL_GRACE, DiscordListener
from bot.discord.replays import ReplayButton
from bot.discord.replies import DEFER_AFTER
from bot.discord.translator import CatalogTranslator
from bot.discord.views.activity import ActivityButton
from bot.discord.views.dropped import DynamicType, answer_dropped
from bot.discord.views.panel import PanelAction, PanelPage, PanelSelect, PanelStep, PanelStepSelect
from bot.discord.views.table import LevelSelect, ReactionButton, TableButton
from bot.logins import LoginLedger, before_login
from bot.sessions import SessionManager
from bot.settings import Settings
from bot.storage import (
    GuildSettings,
    ShardClaimError,
    ShardLostError,
    Shards,
    Storage,
    StorageError,
    open_storage,
)
from bot.thinking import Thinker

log = logging.getLogger(__name__)

CONTROLS: tuple[DynamicType, ...] = (
    TableButton,
    LevelSelect,
    ReactionButton,
    PanelAction,
    PanelSelect,
    PanelPage,
    PanelStep,
    PanelStepSelect,
    ActivityButton,
    ReplayButton,
)
"""Every restart-safe control, registered in ``setup_hook``."""

LEASE_SECONDS = 60.0
"""How long a process's claim on its shards lasts unless renewed: after a crash, the process
that takes over waits at most this long."""
RENEW_SECONDS = 20.0
RENEW_RETRY_SECONDS = 5.0
"""While the database does not answer, the lease is tried again this often."""
CLAIM_RETRY_SECONDS = 5.0


class Face(Protocol):
    """Another face of the same tables (the web table), started on the bot's event loop once the
    session manager exists, and stopped after the live tables were paused."""

    async def start(self, sessions: SessionManager, application_id: int | None) -> None: ...

    async def stop(self) -> None: ...


class Kortbord(commands.Bot):
    storage: Storage
    sessions: SessionManager
    listener: DiscordListener

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        computer_delay: float = 1.0,
        dm_pause: float = DM_PAUSE,
        panel_grace: float = PANEL_GRACE,
        restore: bool = True,
        rng: random.Random | None = None,
        faces: Sequence[Face] = (),
        defer_after: float = DEFER_AFTER,
        sight: Callable[[], Awaitable[None]] | None = None,
        **gateway: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **gateway,
        )
        self.settings = settings
        self.clock = clock or DiscordClock()
        self.computer_delay = computer_delay
        self.dm_pause = dm_pause
        self.panel_grace = panel_grace
        self.restore_tables = restore
        self.rng = rng  # tables' seeds: the system's source unless a test seeds it
        self.faces = list(faces)
        self.defer_after = defer_after
        self.sight = sight
        """What a turned card's reaction window waits for beyond Discord's acknowledgement of
        the edit that shows it (the demo: its page showing the card)."""
        """Seconds after which an interaction not yet answered is deferred (Discord allows 3)."""
        self._guild_settings: dict[int, GuildSettings] = {}
        self._lease_task: asyncio.Task[None] | None = None
        self._lease_until = 0.0
        """When this process's lease runs out unless renewed (seconds since the epoch)."""
        self.shards_lost = False
        """Set when another process took this one's shards over; it stops."""

    async def setup_hook(self) -> None:
        self.storage = await open_storage(
            self.settings.database,
            pool_size=self.settings.pool_size,
            timeout=self.settings.database_timeout,
        )
        shards = self.settings.shard_range
        # `kortbord sync` (restore off) only talks to Discord: it claims nothing.
        if self.restore_tables and (shards is not None or self.storage.dialect == "postgresql"):
            await self._claim(shards or Shards.all())
        self.listener = DiscordListener(
            self, dm_pause=self.dm_pause, panel_grace=self.panel_grace, sight=self.sight
        )
        self.sessions = SessionManager(
            self.storage,
            self.clock,
            turn_seconds=self.settings.turn_seconds,
            idle_seconds=self.settings.idle_minutes * 60,
            computer_delay=self.computer_delay,
            listeners=[self.listener],
            windows_wait_for_sight=True,
            rng=self.rng,
            thinker=Thinker(
                workers=self.settings.ai_workers,
                seconds=self.settings.ai_seconds,
                iterations=self.settings.ai_iterations,
            ),
        )
        self.add_dynamic_items(*CONTROLS)
        await self.tree.set_translator(CatalogTranslator())
        await self.add_cog(TablesCog(self))
        await self.add_cog(InfoCog(self))
        # the deals of the day draw their seeds from the tables' source when a test seeds it
        seeds = random.Random(self.rng.getrandbits(64)) if self.rng else random.SystemRandom()
        daily = DailyCog(self, seeds)
        await self.add_cog(daily)
        await self.add_cog(AdminCog(self, daily_changed=daily.arm))
        if self.restore_tables:
            restored = await self.sessions.restore()
            log.info("restored %d live tables", restored)
            for table in self.sessions.live_tables():
                await self.listener.table_changed(table, frozenset())
        for face in self.faces:
            await face.start(self.sessions, self.application_id)

    async def login(self, token: str) -> None:
        """discord.py's login; one that fails (Discord unreachable) closes the HTTP session it
        opened, so ``bot.service`` can log in again without leaving one open per attempt."""
        try:
            await super().login(token)
        except Exception:
            await self.http.close()
            self.http.connector = discord.utils.MISSING  # closed with the session: a new one
            raise

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_dropped(interaction, CONTROLS)

    async def _claim(self, shards: Shards) -> None:
        """Claims ``shards`` in the database, waiting while another live process holds them
        (one that crashed holds them until its lease runs out), then keeps the lease fresh."""
        owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        while True:
            now = time.time()
            try:
                await self.storage.claim_shards(shards, owner, now, LEASE_SECONDS)
                break
            except ShardClaimError as error:
                log.warning("%s; trying again in %d s", error, CLAIM_RETRY_SECONDS)
            except StorageError as error:
                log.warning(
                    "cannot claim the shards: %s; trying again in %d s", error, CLAIM_RETRY_SECONDS
                )
            await self.pause(CLAIM_RETRY_SECONDS)
        self._lease_until = now + LEASE_SECONDS
        self._lease_task = asyncio.create_task(self._keep_lease(), name="shard lease")

    async def _keep_lease(self) -> None:
        """Renews the shards' lease every ``RENEW_SECONDS`` until this process stops; while the
        database does not answer, every ``RENEW_RETRY_SECONDS``, as long as the lease lasts."""
        while await self.renew_lease():
            await self.pause(RENEW_RETRY_SECONDS if self.storage.away else RENEW_SECONDS)

    async def pause(self, seconds: float) -> None:
        """A pause of the bot's own, on its clock's time where the clock keeps one."""
        if isinstance(self.clock, DiscordClock):
            await self.clock.sleep(seconds)
        else:
            await asyncio.sleep(seconds)

    async def renew_lease(self, now: float | None = None) -> bool:
        """Renews the shards' lease; False once another process has taken them over, or once
        the lease ran out during a database outage (another process may have taken them), and
        then this one stops (closing without pausing tables that may no longer be its own)."""
        now = time.time() if now is None else now
        try:
            await self.storage.renew_shards(now, LEASE_SECONDS)
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
        self._lease_until = now + LEASE_SECONDS
        return True

    async def _lose_shards(self) -> None:
        self.shards_lost = True
        await self.close()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Every login after the first (a reconnect that could not resume) goes through the
        same back-off as a restart, so a flapping connection cannot use up the daily logins.
        The first was waited for and recorded before the bot started (``bot.service``)."""
        await super().before_identify_hook(shard_id, initial=initial)  # discord.py's 5 s pause
        if not initial:
            await before_login(LoginLedger.beside(self.settings.process_file), time.time)

    async def close(self) -> None:
        """The graceful stop: in-flight actions finish, live tables are paused, saved and shown
        as paused (``SessionManager.shutdown``), their messages edited, then storage closed."""
        if self._lease_task is not None and self._lease_task is not asyncio.current_task():
            self._lease_task.cancel()
        if hasattr(self, "sessions"):
            try:
                if self.shards_lost:
                    # The tables are another process's now: stop their timers, save nothing.
                    self.sessions.closing = True
                    for table in self.sessions.live_tables():
                        table.cancel_timers()
                else:
                    await self.sessions.shutdown()
            except ShardLostError as error:
                log.error("the live tables were not paused: %s", error)
            await self.listener.settle()
        for face in self.faces:
            try:
                await face.stop()
            except Exception:
                log.exception("a face of the tables did not stop cleanly")
        if hasattr(self, "storage"):
            await self.storage.close()
        await super().close()

    # --- server settings, cached ----------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        if guild_id not in self._guild_settings:
            self._guild_settings[guild_id] = await self.storage.guild_settings(guild_id)
        return self._guild_settings[guild_id]

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        await self.storage.save_guild_settings(settings)
        self._guild_settings[settings.guild_id] = settings

    async def pictures(self, guild_id: int, user_id: int | None = None) -> bool:
        """Whether to draw pictures at a server's table (for a member's own hand, ``user_id``):
        the server can turn them off for all, a member for their own hand."""
        if not (await self.guild_settings(guild_id)).pictures:
            return False
        return user_id is None or await self.sessions.choices.get("hand_pictures", user_id)

    def guild_language(self, guild_id: int | None) -> str:
        cached = self._guild_settings.get(guild_id) if guild_id is not None else None
        if cached is not None and cached.language is not None:
            return cached.language
        return self.settings.language


class ShardedKortbord(Kortbord, commands.AutoShardedBot):
    """The bot as one of several processes: discord.py's ``AutoShardedBot`` on the shards of
    ``KORTBORD_SHARDS`` out of ``KORTBORD_SHARD_COUNT``."""

    def __init__(self, settings: Settings, **options: Any) -> None:
        shards = settings.shard_range
        assert shards is not None, "ShardedKortbord needs KORTBORD_SHARD_COUNT"
        super().__init__(settings, shard_count=shards.count, shard_ids=list(shards.ids), **options)


def build_bot(settings: Settings, **options: Any) -> Kortbord:
    """The bot for ``settings``: sharded when a shard count is set, else the one-process bot."""
    if settings.shard_range is not None:
        return ShardedKortbord(settings, **options)
    return Kortbord(settings, **options)
