"""The Discord bot: a ``commands.Bot``, the Discord face of the tables. It takes the core from
``bot.root.Root`` (storage, session manager, shards' lease; built here when the caller gives
none) and adds its listener, cogs, restart-safe buttons and command translator.

One gateway intent, ``guilds`` (``INTENTS``): slash commands and components need none. Commands
are never synced at start (``kortbord sync`` does that, deliberately, once for the whole bot
however many processes it runs as). A restart restores every live table from storage, with fresh
deadlines, and refreshes its message.

Running as several processes (``KORTBORD_SHARD_COUNT``, ``KORTBORD_SHARDS``), ``build_bot``
gives a ``ShardedKortbord``, an ``AutoShardedBot`` on this process's shards. Such a process, and
any process on PostgreSQL, first claims its shards in the database (waiting while another live
process holds them), renews the lease while it runs (``Root``) and stops when it loses it; it
restores and changes only the tables of its shards' servers. Hands in DMs carry no buttons:
Discord sends every DM event to shard 0, so each action comes through the server's own shard.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

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
from bot.root import Face, Root
from bot.sessions import SessionManager
from bot.settings import Settings
from bot.storage import GuildSettings, Storage

log = logging.getLogger(__name__)

INTENTS = discord.Intents(guilds=True)
"""The gateway events the bot takes: its servers, their channels, threads and roles (what a
member's permissions are computed from). Every action comes as an interaction, which needs no
intent; messages, reactions and typing anywhere in a server (and the bot's own message edits
echoed back) are never sent to it, so a busy server costs it nothing to parse."""

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
        root: Root | None = None,
        sight: Callable[[], Awaitable[None]] | None = None,
        **gateway: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **gateway,
        )
        self.settings = settings
        self.computer_delay = computer_delay
        self.dm_pause = dm_pause
        self.panel_grace = panel_grace
        self.restore_tables = restore
        self.rng = rng  # tables' seeds: the system's source unless a test seeds it
        self.defer_after = defer_after
        """Seconds after which an interaction not yet answered is deferred (Discord allows 3)."""
        self.sight = sight
        """What a turned card's reaction window waits for beyond Discord's acknowledgement of
        the edit that shows it (the demo: its page showing the card)."""
        self._guild_settings: dict[int, GuildSettings] = {}
        self.root = root or Root(
            settings,
            clock or DiscordClock(),
            computer_delay=computer_delay,
            rng=rng,
            claim=restore,  # `kortbord sync` (restore off) only talks to Discord: it claims nothing
            faces=faces,
        )
        """The core this bot is a face of: built here unless the caller built it."""
        self.root.on_shards_lost = self.close

    @property
    def clock(self) -> Clock:
        """The session manager's clock: the core's (``Root``), which this face follows."""
        return self.root.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.root.clock = clock

    async def setup_hook(self) -> None:
        root = self.root
        self.listener = DiscordListener(
            self, dm_pause=self.dm_pause, panel_grace=self.panel_grace, sight=self.sight
        )
        if not root.opened:
            await root.open()
        self.storage, self.sessions = root.storage, root.sessions
        self.sessions.add_listener(self.listener)
        # the listener tells when Discord has shown a turned card: its window opens then
        self.sessions.reactions.waits_for_sight = True
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
            for table in await root.restore():
                await self.listener.table_changed(table, frozenset())
        await root.start_faces(self.application_id)

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

    @property
    def shards_lost(self) -> bool:
        """Whether another process took this one's shards over (then it stops)."""
        return self.root.shards_lost

    async def renew_lease(self, now: float | None = None) -> bool:
        """Renews the shards' lease (``Root.renew_lease``)."""
        return await self.root.renew_lease(now)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Every login after the first (a reconnect that could not resume) goes through the
        same back-off as a restart, so a flapping connection cannot use up the daily logins.
        The first was waited for and recorded before the bot started (``bot.service``)."""
        await super().before_identify_hook(shard_id, initial=initial)  # discord.py's 5 s pause
        if not initial:
            await before_login(LoginLedger.beside(self.settings.process_file), time.time)

    async def close(self) -> None:
        """The graceful stop: in-flight actions finish, live tables are paused, saved and shown
        as paused (``Root.pause``), their messages edited, then the other faces stop and the
        storage closes."""
        await self.root.pause()
        if hasattr(self, "listener") and self.root.opened:
            await self.listener.settle()
        await self.root.close()
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

    def refused_lines(self) -> list[str]:
        """What Discord refuses the bot as play goes on, one line each (``kortbord health``)."""
        listener = getattr(self, "listener", None)  # set in setup_hook
        return [] if listener is None else listener.refusals.lines()

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
