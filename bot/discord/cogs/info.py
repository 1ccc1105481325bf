"""``/hjälp``, ``/regler``, ``/topplista`` and ``/statistik``: read-only answers, visible to the
asker only for help and rules, public for the leaderboard and statistics (they are the server's
shared record). A game is named by a pick from the list or by its name typed out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.cogs.tables import game_choices, typed_game
from bot.discord.embeds import help_embed, leaderboard_embed, rules_embed, stats_embed
from bot.discord.replies import answer, answer_errors, catalog_of
from bot.discord.translator import cmd
from bot.errors import UserError
from bot.leaderboard import leaderboard as server_leaderboard
from bot.leaderboard import member_stats

if TYPE_CHECKING:
    from bot.discord.services import Services


class InfoCog(commands.Cog):
    def __init__(self, bot: Services) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("help.name"), description=cmd("help.description"))
    async def help(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            await answer(interaction).send_message(embed=help_embed(texts), ephemeral=True)

    @app_commands.command(name=cmd("rules.name"), description=cmd("rules.description"))
    @app_commands.rename(game=cmd("rules.game.name"))
    @app_commands.describe(game=cmd("rules.game.description"))
    @app_commands.autocomplete(game=game_choices)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            embed = rules_embed(texts, typed_game(game))
            await answer(interaction).send_message(embed=embed, ephemeral=True)

    @app_commands.command(name=cmd("leaderboard.name"), description=cmd("leaderboard.description"))
    @app_commands.rename(game=cmd("leaderboard.game.name"))
    @app_commands.describe(game=cmd("leaderboard.game.description"))
    @app_commands.autocomplete(game=game_choices)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            if interaction.guild_id is None:
                raise UserError("guild_only")
            game_id = typed_game(game)
            standings = await server_leaderboard(self.bot.storage, interaction.guild_id, game_id)
            embed = leaderboard_embed(texts, game_id, standings)
            await answer(interaction).send_message(embed=embed)

    @app_commands.command(name=cmd("stats.name"), description=cmd("stats.description"))
    @app_commands.rename(member=cmd("stats.member.name"))
    @app_commands.describe(member=cmd("stats.member.description"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            if interaction.guild_id is None:
                raise UserError("guild_only")
            who = member or interaction.user
            found = await member_stats(self.bot.storage, interaction.guild_id, who.id)
            await answer(interaction).send_message(
                embed=stats_embed(texts, who.display_name, found)
            )
