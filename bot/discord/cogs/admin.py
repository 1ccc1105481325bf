"""``/inställningar``: the server's own settings, for members with Manage Server.

Discord hides the command from others (default permissions) and the handler checks again, since
a server can override the default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import daily
from bot.discord.cogs.daily import daily_game_choices
from bot.discord.embeds import settings_embed
from bot.discord.replies import answer, answer_errors
from bot.discord.translator import cmd
from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.options import game_name
from bot.storage.daily import DailySettings

if TYPE_CHECKING:
    from bot.discord.services import Services


class AdminCog(commands.Cog):
    def __init__(
        self,
        bot: Services,
        daily_changed: Callable[[DailySettings], Awaitable[None]] | None = None,
    ) -> None:
        self.bot = bot
        self.daily_changed = daily_changed
        """Told when a server's choices for the deal of the day change (its day's end timer)."""

    @app_commands.command(name=cmd("settings.name"), description=cmd("settings.description"))
    @app_commands.rename(
        language=cmd("settings.language.name"),
        thread=cmd("settings.thread.name"),
        turn_seconds=cmd("settings.turn_seconds.name"),
        reaction_seconds=cmd("settings.reaction_seconds.name"),
        channel=cmd("settings.channel.name"),
        pictures=cmd("settings.pictures.name"),
        daily_channel=cmd("settings.daily_channel.name"),
        daily_game=cmd("settings.daily_game.name"),
        time_zone=cmd("settings.time_zone.name"),
    )
    @app_commands.describe(
        language=cmd("settings.language.description"),
        thread=cmd("settings.thread.description"),
        turn_seconds=cmd("settings.turn_seconds.description"),
        reaction_seconds=cmd("settings.reaction_seconds.description"),
        channel=cmd("settings.channel.description"),
        pictures=cmd("settings.pictures.description"),
        daily_channel=cmd("settings.daily_channel.description"),
        daily_game=cmd("settings.daily_game.description"),
        time_zone=cmd("settings.time_zone.description"),
    )
    @app_commands.autocomplete(daily_game=daily_game_choices)
    @app_commands.choices(
        language=[
            app_commands.Choice(name=cmd("choice.sv"), value="sv"),
            app_commands.Choice(name=cmd("choice.en"), value="en"),
        ]
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(
        self,
        interaction: discord.Interaction,
        language: app_commands.Choice[str] | None = None,
        thread: bool | None = None,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
        reaction_seconds: app_commands.Range[int, 3, 15] | None = None,
        channel: discord.TextChannel | None = None,
        pictures: bool | None = None,
        daily_channel: discord.TextChannel | None = None,
        daily_game: str | None = None,
        time_zone: str | None = None,
    ) -> None:
        async with answer_errors(interaction):
            member = interaction.user
            if interaction.guild_id is None or not isinstance(member, discord.Member):
                raise UserError("guild_only")
            if not member.guild_permissions.manage_guild:
                raise UserError("manage_server_only")
            current = await self.bot.guild_settings(interaction.guild_id)
            updated = current
            if language is not None:
                updated = dataclasses.replace(updated, language=cast_language(language.value))
            if thread is not None:
                updated = dataclasses.replace(updated, thread_per_table=thread)
            if turn_seconds is not None:
                updated = dataclasses.replace(updated, turn_seconds=turn_seconds)
            if reaction_seconds is not None:
                updated = dataclasses.replace(updated, reaction_seconds=reaction_seconds)
            if channel is not None:
                allowed = set(current.table_channels) ^ {channel.id}  # toggles the channel
                updated = dataclasses.replace(updated, table_channels=tuple(sorted(allowed)))
            if pictures is not None:
                updated = dataclasses.replace(updated, pictures=pictures)
            if updated != current:
                await self.bot.save_guild_settings(updated)
            day = await self._daily(interaction.guild_id, daily_channel, daily_game, time_zone)
            settings = self.bot.settings
            lang = updated.language or settings.language
            embed = settings_embed(
                catalog(lang),
                updated,
                lang,
                updated.turn_seconds or settings.turn_seconds,
                updated.reaction_seconds or settings.reaction_seconds,
            )
            embed.add_field(name="\u200b", value=daily_line(catalog(lang), day), inline=False)
            await answer(interaction).send_message(embed=embed, ephemeral=True)

    async def _daily(
        self,
        guild_id: int,
        channel: discord.TextChannel | None,
        game_id: str | None,
        time_zone: str | None,
    ) -> DailySettings:
        """The server's choices for the deal of the day, changed as asked; the day's end is
        timed again when the channel or the time zone changed."""
        current = await self.bot.storage.daily_settings(guild_id)
        updated = current
        if channel is not None:
            toggled = None if current.channel_id == channel.id else channel.id
            updated = dataclasses.replace(updated, channel_id=toggled)
        if game_id is not None:
            if game_id not in daily.daily_games():
                raise UserError("not_daily", game=game_id)
            games = set(current.games) ^ {game_id}
            updated = dataclasses.replace(updated, games=tuple(sorted(games)))
        if time_zone is not None:
            daily.zone(time_zone)  # refused with a message if there is no such zone
            updated = dataclasses.replace(updated, time_zone=time_zone)
        if updated != current:
            await self.bot.storage.save_daily_settings(updated)
            if self.daily_changed is not None:
                await self.daily_changed(updated)
        return updated


def daily_line(texts: Catalog, settings: DailySettings) -> str:
    """The server's choices for the deal of the day, in a line."""
    games = (
        ", ".join(game_name(texts, g) for g in daily.offered(settings))
        if settings.games
        else texts.text("daily.all_games")
    )
    channel = (
        f"<#{settings.channel_id}>"
        if settings.channel_id is not None
        else texts.text("daily.no_channel")
    )
    return texts.text("daily.settings", games=games, zone=settings.time_zone, channel=channel)


def cast_language(value: str) -> Literal["sv", "en"]:
    return "en" if value == "en" else "sv"
