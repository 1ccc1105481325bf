"""``/spel``: open a table, see your hand, and the host's end and kick.

The commands only check who may ask and where, then call the session manager; the table message
is posted here once and edited afterwards by the listener.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import opening
from bot import options as choices
from bot.discord import permissions
from bot.discord.embeds import markdown
from bot.discord.permissions import in_channel
from bot.discord.replays import show_replay
from bot.discord.replies import answer, answer_errors, catalog_of
from bot.discord.translator import cmd
from bot.discord.verifying import reveal
from bot.discord.views.table import (
    answer_with_table,
    post_table,
    send_table,
    show_hand,
    table_message,
)
from bot.errors import UserError
from bot.i18n import catalog
from bot.options import game_name
from bot.sessions import Member
from bot.storage import MemberChoice
from games.registry import SPECS

if TYPE_CHECKING:
    from bot.discord.services import Services

GAME_PARAMETER = catalog("sv").text("commands.game.new.game.name")


async def game_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Registered games whose id or name (in the member's language) holds what was typed."""
    texts = catalog_of(interaction)
    typed = current.strip().lower()
    found = [
        app_commands.Choice(name=game_name(texts, game_id)[:100], value=game_id)
        for game_id in sorted(SPECS)
        if typed in game_id or typed in game_name(texts, game_id).lower()
    ]
    return found[:25]


def typed_game(typed: str) -> str:
    """The game a member named: its id, as a pick from the list sends it, or its name typed
    out in either language, in any case ("Bräus", "bräus"); else ``unknown_game``."""
    text = " ".join(typed.split()).casefold()
    if text in SPECS:
        return text
    for game_id in sorted(SPECS):
        if any(game_name(catalog(lang), game_id).casefold() == text for lang in ("sv", "en")):
            return game_id
    raise UserError("unknown_game", game=typed.strip())


def _chosen_game(interaction: discord.Interaction) -> str:
    """The game already filled in ``/spel ny`` (its option is named in Swedish on Discord)."""
    return str(getattr(interaction.namespace, GAME_PARAMETER, "") or "")


async def variant_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The chosen game's variants, by their names in the member's language."""
    texts = catalog_of(interaction)
    return [
        app_commands.Choice(name=name, value=value)
        for name, value in choices.variant_choices(texts, _chosen_game(interaction), current)
    ]


async def option_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The chosen game's options and their values, by their names in the member's language."""
    texts = catalog_of(interaction)
    return [
        app_commands.Choice(name=name, value=value)
        for name, value in choices.option_choices(texts, _chosen_game(interaction), current)
    ]


class TablesCog(commands.Cog):
    game = app_commands.Group(
        name=cmd("game.name"), description=cmd("game.description"), guild_only=True
    )

    def __init__(self, bot: Services) -> None:
        self.bot = bot

    @game.command(name=cmd("game.new.name"), description=cmd("game.new.description"))
    @app_commands.rename(
        game=cmd("game.new.game.name"),
        variant=cmd("game.new.variant.name"),
        options=cmd("game.new.options.name"),
        seats=cmd("game.new.seats.name"),
        turn_seconds=cmd("game.new.turn_seconds.name"),
    )
    @app_commands.describe(
        game=cmd("game.new.game.description"),
        variant=cmd("game.new.variant.description"),
        options=cmd("game.new.options.description"),
        seats=cmd("game.new.seats.description"),
        turn_seconds=cmd("game.new.turn_seconds.description"),
    )
    @app_commands.autocomplete(game=game_choices, variant=variant_choices, options=option_choices)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        variant: str | None = None,
        options: str | None = None,
        seats: app_commands.Range[int, 1, 10] | None = None,
        turn_seconds: app_commands.Range[int, 10, 3600] | None = None,
    ) -> None:
        async with answer_errors(interaction):
            await self._open(interaction, game, variant, options, seats, turn_seconds)

    async def _open(
        self,
        interaction: discord.Interaction,
        game_id: str,
        variant: str | None,
        option_text: str | None,
        seats: int | None,
        turn_seconds: int | None,
    ) -> None:
        if interaction.guild is None or interaction.channel is None:
            raise UserError("guild_only")
        bot = self.bot
        server = await bot.guild_settings(interaction.guild.id)
        asked = catalog_of(interaction)  # the member's language, for anything refused
        request = opening.check_request(
            bot.settings,
            server,
            asked,
            channel_id=interaction.channel.id,
            game_id=typed_game(game_id),
            variant=variant,
            option_text=option_text,
            seats=seats,
            turn_seconds=turn_seconds,
        )
        threaded = server.thread_per_table and isinstance(interaction.channel, discord.TextChannel)
        permissions.require(
            asked,
            interaction.app_permissions,
            in_channel(interaction, permissions.THREAD_TABLE if threaded else permissions.TABLE),
        )
        texts = catalog(request.language)
        host = Member(interaction.user.id, interaction.user.display_name)
        thread: discord.Thread | None = None
        if threaded and isinstance(interaction.channel, discord.TextChannel):
            name = game_name(texts, game_id)
            thread = await interaction.channel.create_thread(
                name=name[:100], type=discord.ChannelType.public_thread
            )
        table = await opening.open_requested(
            bot.sessions, request, host, thread_id=thread.id if thread is not None else None
        )
        shown = table_message(texts, table)
        if thread is not None:
            posted = thread
            message = await post_table(interaction, table, lambda: send_table(posted, table, shown))
            await answer(interaction).send_message(
                texts.text("ui.reply.opened", link=message.jump_url), ephemeral=True
            )
        else:
            await post_table(
                interaction, table, lambda: answer_with_table(interaction, table, shown)
            )

    @game.command(name=cmd("game.hand.name"), description=cmd("game.hand.description"))
    async def hand(self, interaction: discord.Interaction) -> None:
        async with answer_errors(interaction):
            table = self.bot.sessions.table_of(interaction.user.id)
            if table is None:
                raise UserError("no_hand")
            await show_hand(interaction, catalog(table.record.language), table)

    @game.command(name=cmd("game.pictures.name"), description=cmd("game.pictures.description"))
    @app_commands.rename(show=cmd("game.pictures.show.name"))
    @app_commands.describe(show=cmd("game.pictures.show.description"))
    async def pictures(self, interaction: discord.Interaction, show: bool) -> None:
        """A member's own choice: the hand panel with or without the picture of the hand."""
        await self._set_choice(interaction, "hand_pictures", show)

    @game.command(name=cmd("game.notices.name"), description=cmd("game.notices.description"))
    @app_commands.rename(on=cmd("game.notices.on.name"))
    @app_commands.describe(on=cmd("game.notices.on.description"))
    async def notices(self, interaction: discord.Interaction, on: bool) -> None:
        """A member's own choice: to be told (by a DM line) when it is their turn, or not."""
        await self._set_choice(interaction, "turn_notices", on)

    @game.command(name=cmd("game.forced.name"), description=cmd("game.forced.description"))
    @app_commands.rename(on=cmd("game.forced.on.name"))
    @app_commands.describe(on=cmd("game.forced.on.description"))
    async def forced(self, interaction: discord.Interaction, on: bool) -> None:
        """A member's own choice: their only legal card played for them at once, or not."""
        await self._set_choice(interaction, "forced_cards", on)

    async def _set_choice(
        self, interaction: discord.Interaction, choice: MemberChoice, on: bool
    ) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            await self.bot.sessions.choices.set(choice, interaction.user.id, on)
            key = f"ui.reply.{choice}_on" if on else f"ui.reply.{choice}_off"
            await answer(interaction).send_message(texts.text(key), ephemeral=True)

    @game.command(name=cmd("game.verify.name"), description=cmd("game.verify.description"))
    @app_commands.rename(table=cmd("game.verify.table.name"))
    @app_commands.describe(table=cmd("game.verify.table.description"))
    async def verify(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """The seed and record of a match that is over, for anyone to check."""
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            await reveal(self.bot, interaction, texts, table)

    @game.command(name=cmd("game.replay.name"), description=cmd("game.replay.description"))
    @app_commands.rename(table=cmd("game.replay.table.name"))
    @app_commands.describe(table=cmd("game.replay.table.description"))
    async def replay(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """A match that is over, step by step with every hand face up."""
        async with answer_errors(interaction):
            await show_replay(interaction, table)

    @game.command(name=cmd("game.end.name"), description=cmd("game.end.description"))
    async def end(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            if interaction.channel_id is None:
                raise UserError("no_table")
            admin = isinstance(interaction.user, discord.Member) and (
                interaction.user.guild_permissions.manage_guild
            )
            await self.bot.sessions.end(interaction.channel_id, interaction.user.id, admin=admin)
            await answer(interaction).send_message(texts.text("ui.reply.ended"), ephemeral=True)

    @game.command(name=cmd("game.kick.name"), description=cmd("game.kick.description"))
    @app_commands.rename(member=cmd("game.kick.member.name"))
    @app_commands.describe(member=cmd("game.kick.member.description"))
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            if interaction.channel_id is None:
                raise UserError("no_table")
            await self.bot.sessions.kick(interaction.channel_id, interaction.user.id, member.id)
            await answer(interaction).send_message(
                texts.text("ui.reply.kicked", name=markdown(member.display_name)), ephemeral=True
            )
