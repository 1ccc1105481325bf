"""The Discord bot: a ``commands.Bot`` that wires settings, storage, the session manager, the
listener, the cogs, the restart-safe buttons and the command translator together.

No privileged intents: slash commands and components need none. Commands are never synced at
start (``kortbord sync`` does that, deliberately). A restart restores every live table from
storage, with fresh deadlines, and refreshes its message.
"""

from __future__ import annotations

import logging
import time

import discord
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.cogs.admin import AdminCog
from bot.cogs.info import InfoCog
from bot.cogs.tables import TablesCog
from bot.listener import DM_PAUSE, DiscordListener
from bot.logins import LoginLedger, before_login
from bot.sessions import SessionManager
from bot.settings import Settings
from bot.storage import GuildSettings, Storage
from bot.translator import CatalogTranslator
from bot.views.dropped import DynamicType, answer_dropped
from bot.views.panel import PanelAction, PanelPage, PanelSelect, PanelStep, PanelStepSelect
from bot.views.table import ReactionButton, TableButton

log = logging.getLogger(__name__)

CONTROLS: tuple[DynamicType, ...] = (
    TableButton,
    ReactionButton,
    PanelAction,
    PanelSelect,
    PanelPage,
    PanelStep,
    PanelStepSelect,
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
        restore: bool = True,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self.clock = clock or SystemClock()
        self.computer_delay = computer_delay
        self.dm_pause = dm_pause
        self.restore_tables = restore
        self._guild_settings: dict[int, GuildSettings] = {}

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database)
        self.listener = DiscordListener(self, dm_pause=self.dm_pause)
        self.sessions = SessionManager(
            self.storage,
            self.clock,
            turn_seconds=self.settings.turn_seconds,
            idle_seconds=self.settings.idle_minutes * 60,
            computer_delay=self.computer_delay,
            listener=self.listener,
        )
        self.add_dynamic_items(*CONTROLS)
        await self.tree.set_translator(CatalogTranslator())
        await self.add_cog(TablesCog(self))
        await self.add_cog(InfoCog(self))
        await self.add_cog(AdminCog(self))
        if self.restore_tables:
            restored = await self.sessions.restore()
            log.info("restored %d live tables", restored)
            for table in self.sessions.live_tables():
                await self.listener.table_changed(table, frozenset())

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await answer_dropped(interaction, CONTROLS)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Every login after the first (a reconnect that could not resume) goes through the
        same back-off as a restart, so a flapping connection cannot use up the daily logins.
        The first was waited for and recorded before the bot started (``bot.service``)."""
        await super().before_identify_hook(shard_id, initial=initial)  # discord.py's 5 s pause
        if not initial:
            await before_login(LoginLedger.beside(self.settings.database), time.time)

    async def close(self) -> None:
        """The graceful stop: in-flight actions finish, live tables are paused, saved and shown
        as paused (``SessionManager.shutdown``), their messages edited, then storage closed."""
        if hasattr(self, "sessions"):
            await self.sessions.shutdown()
            await self.listener.settle()
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

    def guild_language(self, guild_id: int | None) -> str:
        cached = self._guild_settings.get(guild_id) if guild_id is not None else None
        if cached is not None and cached.language is not None:
            return cached.language
        return self.settings.language
