"""``/inställningar``: the server's own settings, for members with Manage Server.

Discord hides the command from others (default permissions) and the handler checks again, since
a server can override the default.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.embeds import settings_embed
from bot.discord.replies import answer_errors
from bot.discord.translator import cmd
from bot.errors import UserError
from bot.i18n import catalog

if TYPE_CHECKING:
    from bot.discord.services import Services


class AdminCog(commands.Cog):
    def __init__(self, bot: Services) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("settings.name"), description=cmd("settings.description"))
    @app_commands.rename(
        language=cmd("settings.language.name"),
        thread=cmd("settings.thread.name"),
        turn_seconds=cmd("settings.turn_seconds.name"),
        reaction_seconds=cmd("settings.reaction_seconds.name"),
        channel=cmd("settings.channel.name"),
        pictures=cmd("settings.pictures.name"),
    )
    @app_commands.describe(
        language=cmd("settings.language.description"),
        thread=cmd("settings.thread.description"),
        turn_seconds=cmd("settings.turn_seconds.description"),
        reaction_seconds=cmd("settings.reaction_seconds.description"),
        channel=cmd("settings.channel.description"),
        pictures=cmd("settings.pictures.description"),
    )
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
            settings = self.bot.settings
            lang = updated.language or settings.language
            embed = settings_embed(
                catalog(lang),
                updated,
                lang,
                updated.turn_seconds or settings.turn_seconds,
                updated.reaction_seconds or settings.reaction_seconds,
            )
            await interaction.response.send_message(embed=embed, ephemeral=True)


def cast_language(value: str) -> Literal["sv", "en"]:
    return "en" if value == "en" else "sv"
