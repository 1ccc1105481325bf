"""What the Discord face's commands, views and listener need of the bot, as a small interface.

``client.py`` builds the bot and imports the cogs, views and listener; they know the bot only
through :class:`Services` (the core's session manager, storage, settings and clock, the server
settings, the open panels, and the few Discord look-ups they make), so none of them imports the
bot class and no import runs in a circle.
"""

from __future__ import annotations

from typing import Protocol

import discord

from bot.clock import Clock
from bot.discord.views.layout import Draft
from bot.sessions import LiveTable, SessionManager
from bot.settings import Settings
from bot.storage import GuildSettings, Storage


class ShownPanel(Protocol):
    """A member's open hand panel as last shown: its page and the choice begun on it."""

    @property
    def page(self) -> int: ...

    @property
    def draft(self) -> Draft | None: ...


class OpenPanels(Protocol):
    """The members' open hand panels, kept current as their tables change."""

    def panel_shown(
        self,
        table: LiveTable,
        interaction: discord.Interaction,
        page: int = 0,
        draft: Draft | None = None,
        picture: str | None = None,
    ) -> None: ...

    def panel_of(self, table_id: int, user_id: int) -> ShownPanel | None: ...


class Services(Protocol):
    """The bot as its commands, views and listener see it."""

    settings: Settings
    clock: Clock
    storage: Storage
    sessions: SessionManager

    @property
    def listener(self) -> OpenPanels: ...

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def save_guild_settings(self, settings: GuildSettings) -> None: ...

    async def pictures(self, guild_id: int, user_id: int | None = None) -> bool: ...

    def guild_language(self, guild_id: int | None) -> str: ...

    def get_partial_messageable(
        self,
        id: int,
        *,
        guild_id: int | None = None,
        type: discord.ChannelType | None = None,
    ) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def fetch_user(self, user_id: int, /) -> discord.User: ...
