"""``/dagens``: the deals of the day (``bot.daily``) in Discord.

``/dagens spela`` opens the member's table of the day in a private thread of its own (several
members play the same deal at once, one table per thread, and nobody watches another's cards):
always a private thread of a text channel (the thread's channel when typed in a thread), refused
anywhere else and where the thread cannot be made,
``/dagens topplista`` shows today's boards and ``/dagens vecka`` a game's weekly board. When a
table of the day finishes, the deal's board is posted at the table; when a server's day is over,
its boards are posted in the channel it chose with ``/inställningar`` (one timer per such server,
set again after a restart; a day whose board a stopped bot missed is posted when it starts).
"""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import daily
from bot.clock import Timer
from bot.daily import BoardLine, DailyDeals
from bot.discord import permissions
from bot.discord.embeds import MAX_FIELD, clip, markdown
from bot.discord.permissions import in_channel
from bot.discord.replies import answer, answer_errors, catalog_of, with_retries
from bot.discord.translator import cmd
from bot.discord.views.table import post_table, table_message
from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.options import game_name
from bot.sessions import LiveTable, Member
from bot.storage.daily import DailyPlay, DailySettings
from games.core import Seat

if TYPE_CHECKING:
    from bot.discord.services import Services

log = logging.getLogger(__name__)

COLOUR = discord.Colour.dark_gold()


async def daily_game_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The games that have a deal of the day, by name in the member's language."""
    texts = catalog_of(interaction)
    typed = current.strip().lower()
    return [
        app_commands.Choice(name=game_name(texts, game_id)[:100], value=game_id)
        for game_id in daily.daily_games()
        if typed in game_id or typed in game_name(texts, game_id).lower()
    ][:25]


def _number(value: float) -> str:
    return f"{value:+.1f}".replace("-", "−")


def board_lines(
    texts: Catalog, game_id: str, lines: list[BoardLine], streaks: dict[int, int]
) -> list[str]:
    """One line per member: rank, name, result, duplicate score, streak."""
    out = []
    for rank, line in enumerate(lines, start=1):
        streak = streaks.get(line.user_id, 0)
        if line.duplicate is None:
            out.append(texts.text("daily.board.unfinished", name=markdown(line.name)))
            continue
        if line.result is None:
            result = texts.counted("daily.board.days", line.days)
        elif game_id in daily.PLACE_GAMES:
            result = texts.text("daily.board.place", place=texts.ordinal(line.result))
        else:
            result = texts.text("daily.board.points", points=line.result)
        if line.abandoned:
            result = texts.text("daily.board.abandoned", result=result)
        out.append(
            texts.text(
                "daily.board.line",
                rank=rank,
                name=markdown(line.name),
                result=result,
                duplicate=_number(line.duplicate),
                streak=streak,
            )
        )
    return out


def day_embed(
    texts: Catalog,
    day: str,
    plays: list[DailyPlay],
    games: tuple[str, ...],
    streaks: dict[int, int],
    *,
    over: bool = False,
    viewer: int | None = None,
) -> discord.Embed:
    """The boards of a day, one field per game played, best duplicate score first; when the day
    is over, who played best in each. For a ``viewer`` (a member asking while the day goes on),
    the scores of a game's deal only once that member has finished it: before, who played it."""
    finished = {p.game_id for p in plays if p.user_id == viewer and p.score is not None}
    title = "daily.board.day_over" if over else "daily.board.title"
    embed = discord.Embed(title=texts.text(title, day=day), colour=COLOUR)
    for game_id in games:
        lines = daily.day_board(plays, game_id, day, over=over)
        if not lines:
            continue
        if viewer is not None and not over and game_id not in finished:
            names = ", ".join(markdown(x.name) for x in lines)
            shown = [texts.text("daily.board.played", names=names)]
            shown.append(texts.text("daily.board.hidden"))
            embed.add_field(
                name=game_name(texts, game_id),
                value=clip("\n".join(shown), MAX_FIELD),
                inline=False,
            )
            continue
        shown = board_lines(texts, game_id, lines, streaks)
        best = lines[0]
        if over and best.duplicate is not None:
            shown.append(texts.text("daily.board.best", name=markdown(best.name)))
        embed.add_field(
            name=game_name(texts, game_id), value=clip("\n".join(shown), MAX_FIELD), inline=False
        )
    if not embed.fields:
        embed.description = texts.text("daily.board.nobody")
    embed.set_footer(text=texts.text("daily.board.footer"))
    return embed


def private_parent(channel: object) -> discord.TextChannel:
    """The text channel in which a table of the day gets its private thread: the channel the
    command was typed in, or the parent of the thread it was typed in. Refused anywhere else
    (a forum post, a voice or stage channel's chat): a table of the day is never played where
    a member who has not played it yet could watch."""
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if not isinstance(channel, discord.TextChannel):
        raise UserError("daily_text_channel")
    return channel


class DailyCog(commands.Cog):
    dagens = app_commands.Group(
        name=cmd("daily.name"), description=cmd("daily.description"), guild_only=True
    )

    def __init__(self, bot: Services, rng: random.Random) -> None:
        self.bot = bot
        self.deals = DailyDeals(bot.storage, bot.sessions, rng)
        self._timers: dict[int, Timer] = {}
        self._posted: set[int] = set()
        """Tables of the day whose board was posted when they finished."""

    async def cog_load(self) -> None:
        self.bot.sessions.add_listener(self)
        for settings in await self.bot.storage.posting_guilds():
            await self.arm(settings)

    async def cog_unload(self) -> None:
        self.bot.sessions.remove_listener(self)
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    # --- commands -------------------------------------------------------------------------------

    @dagens.command(name=cmd("daily.play.name"), description=cmd("daily.play.description"))
    @app_commands.rename(game=cmd("daily.play.game.name"))
    @app_commands.describe(game=cmd("daily.play.game.description"))
    @app_commands.autocomplete(game=daily_game_choices)
    async def play(self, interaction: discord.Interaction, game: str) -> None:
        async with answer_errors(interaction):
            await self._play(interaction, game)

    async def _play(self, interaction: discord.Interaction, game_id: str) -> None:
        if interaction.guild is None or interaction.channel is None:
            raise UserError("guild_only")
        bot = self.bot
        server = await bot.guild_settings(interaction.guild.id)
        language = server.language or bot.settings.language
        texts = catalog(language)
        member = Member(interaction.user.id, interaction.user.display_name)
        parent = private_parent(interaction.channel)
        permissions.require(
            catalog_of(interaction),
            interaction.app_permissions,
            in_channel(interaction, permissions.DAILY_TABLE),
        )
        claim = await self.deals.claim(interaction.guild.id, game_id, member)
        try:
            name = texts.text("daily.thread", game=game_name(texts, game_id), name=member.name)
            try:
                # private: the others play the same cards today, so they must not watch
                thread = await parent.create_thread(
                    name=name[:100], type=discord.ChannelType.private_thread, invitable=False
                )
                await thread.add_user(interaction.user)
            except discord.HTTPException as error:
                log.info("no private thread in channel %s: %s", parent.id, error)
                raise UserError("daily_no_thread") from None
            table = await self.deals.open(claim, thread.id, thread.id, language)
        except BaseException:
            await self.deals.release(claim)
            raise
        shown = table_message(texts, table, bot.sessions.deadline(table))
        try:
            message = await post_table(
                interaction,
                table,
                lambda: with_retries(
                    lambda: thread.send(view=shown), f"posting table {table.table_id}"
                ),
            )
            await answer(interaction).send_message(
                texts.text("daily.opened", link=message.jump_url), ephemeral=True
            )
        except UserError:
            await self.deals.release(claim)  # Discord never showed it: the deal is still theirs
            raise

    @dagens.command(name=cmd("daily.board.name"), description=cmd("daily.board.description"))
    async def board(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            if interaction.guild_id is None:
                raise UserError("guild_only")
            settings = await self.bot.storage.daily_settings(interaction.guild_id)
            day = daily.day_of(self.bot.clock.now(), settings.time_zone)
            # only to the member, with the scores of the deals they finished: the others still
            # play the same cards today
            embed = await self._day_embed(texts, settings, day, viewer=interaction.user.id)
            await answer(interaction).send_message(embed=embed, ephemeral=True)

    @dagens.command(name=cmd("daily.week.name"), description=cmd("daily.week.description"))
    @app_commands.rename(game=cmd("daily.week.game.name"))
    @app_commands.describe(game=cmd("daily.week.game.description"))
    @app_commands.autocomplete(game=daily_game_choices)
    async def week(self, interaction: discord.Interaction, game: str) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            if interaction.guild_id is None:
                raise UserError("guild_only")
            if game not in daily.daily_games():
                raise UserError("not_daily", game=game)
            settings = await self.bot.storage.daily_settings(interaction.guild_id)
            today = daily.day_of(self.bot.clock.now(), settings.time_zone)
            first, last = daily.week_of(today)
            plays = await self.bot.storage.daily_plays(interaction.guild_id, first, last)
            lines = daily.week_board(plays, game, today)
            streaks = await self._streaks(interaction.guild_id, lines, today)
            embed = discord.Embed(
                title=texts.text(
                    "daily.board.week", game=game_name(texts, game), first=first, last=last
                ),
                description=clip(
                    "\n".join(board_lines(texts, game, lines, streaks))
                    or texts.text("daily.board.nobody"),
                    4096,
                ),
                colour=COLOUR,
            )
            embed.set_footer(text=texts.text("daily.board.footer"))
            await answer(interaction).send_message(embed=embed)

    # --- boards ---------------------------------------------------------------------------------

    async def _streaks(self, guild_id: int, lines: list[BoardLine], today: str) -> dict[int, int]:
        return {
            line.user_id: daily.streak(
                await self.bot.storage.days_played(guild_id, line.user_id), today
            )
            for line in lines
        }

    async def _day_embed(
        self,
        texts: Catalog,
        settings: DailySettings,
        day: str,
        *,
        over: bool = False,
        viewer: int | None = None,
    ) -> discord.Embed:
        plays = await self.bot.storage.daily_plays(settings.guild_id, day, day)
        users = {p.user_id: BoardLine(p.user_id, p.name, None, None) for p in plays}
        streaks = await self._streaks(settings.guild_id, list(users.values()), day)
        games = tuple(dict.fromkeys((*daily.offered(settings), *(p.game_id for p in plays))))
        return day_embed(texts, day, plays, games, streaks, over=over, viewer=viewer)

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        """A table of the day that just finished gets its deal's board posted beside it."""
        day = daily.day_of_table(table)
        if day is None or table.record.status != "finished" or table.table_id in self._posted:
            return
        self._posted.add(table.table_id)
        record = table.record
        try:
            texts = catalog(record.language)
            settings = await self.bot.storage.daily_settings(record.guild_id)
            plays = await self.bot.storage.daily_plays(record.guild_id, day, day)
            lines = daily.day_board(plays, record.game_id, day)
            streaks = await self._streaks(record.guild_id, lines, day)
            embed = day_embed(texts, day, plays, (record.game_id,), streaks)
            embed.description = texts.text("daily.board.after", zone=settings.time_zone)
            channel = self.bot.get_partial_messageable(record.thread_id or record.channel_id)
            await with_retries(
                lambda: channel.send(embed=embed), f"posting the board of table {table.table_id}"
            )
        except Exception:  # the table itself is shown by the other listeners all the same
            log.exception("the day's board after table %s was not posted", table.table_id)

    # --- the day's end --------------------------------------------------------------------------

    async def arm(self, settings: DailySettings, after: str | None = None) -> None:
        """Sets the server's timer for the end of today (a day later than ``after``, the day
        just posted), and posts the last day's boards now if a stopped bot missed them."""
        old = self._timers.pop(settings.guild_id, None)
        if old is not None:
            old.cancel()
        if settings.channel_id is None:
            return
        today = daily.day_of(self.bot.clock.now(), settings.time_zone)
        if after is not None and today <= after:
            today = daily.next_day(after)
        yesterday = daily.previous_day(today)
        if settings.posted_day is not None and settings.posted_day < yesterday:
            await self._day_over(settings.guild_id, yesterday, rearm=False)
        ends = daily.day_end(today, settings.time_zone)
        guild_id = settings.guild_id

        async def over() -> None:
            await self._day_over(guild_id, today)

        self._timers[guild_id] = self.bot.clock.call_at(ends, over)

    async def _day_over(self, guild_id: int, day: str, *, rearm: bool = True) -> None:
        """Posts the boards of ``day`` in the server's channel (once), then waits for the next."""
        settings = await self.bot.storage.daily_settings(guild_id)
        try:
            if settings.channel_id is not None and (settings.posted_day or "") < day:
                language = self.bot.guild_language(guild_id)
                embed = await self._day_embed(catalog(language), settings, day, over=True)
                channel = self.bot.get_partial_messageable(settings.channel_id, guild_id=guild_id)
                await with_retries(lambda: channel.send(embed=embed), f"the boards of {day}")
                settings = DailySettings(
                    settings.guild_id,
                    settings.games,
                    settings.channel_id,
                    settings.time_zone,
                    day,
                )
                await self.bot.storage.save_daily_settings(settings)
        except Exception:
            log.exception("the boards of %s were not posted on server %s", day, guild_id)
        if rearm:
            await self.arm(settings, after=day)
