"""What the session manager's changes become in Discord: the table message and the DM hands.

Table edits are coalesced: one edit in flight per table, and the latest state wins, so a burst of
computer moves costs a few edits, not one per move. At each deal every seated member gets their
hand by DM; later changes edit that DM after a short pause (several changes, one edit). A member
whose DMs are closed (Discord error 50007) is remembered in storage, told once in the channel to
use *My hand*, and not written to again; the game goes on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.i18n import catalog
from bot.render.embeds import dm_text, table_embed
from bot.sessions import LiveTable
from bot.views.table import table_view
from games.core import Seat

if TYPE_CHECKING:
    from bot.client import Kortbord

log = logging.getLogger(__name__)

CANNOT_DM = 50007
DM_PAUSE = 1.5  # seconds: DM edits within this pause are merged into one


class DiscordListener:
    def __init__(self, bot: Kortbord, *, dm_pause: float = DM_PAUSE) -> None:
        self.bot = bot
        self.dm_pause = dm_pause
        self._latest: dict[int, LiveTable] = {}
        self._editing: dict[int, asyncio.Task[None]] = {}
        self._dm_pending: dict[tuple[int, int], LiveTable] = {}
        self._dm_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._dm_deal: dict[tuple[int, int], int] = {}
        self._dm_closed: dict[int, bool] = {}

    # --- the table message ----------------------------------------------------------------------

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        self._latest[table.table_id] = table
        if table.table_id not in self._editing:
            task = asyncio.get_running_loop().create_task(self._edit_loop(table.table_id))
            self._editing[table.table_id] = task
        for seat in sorted(hands):
            user_id = table.record.seats[seat].user_id
            if user_id is not None:
                self._schedule_dm(table, user_id)

    async def _edit_loop(self, table_id: int) -> None:
        try:
            while table_id in self._latest:
                table = self._latest.pop(table_id)
                await self.edit_table_message(table)
        finally:
            del self._editing[table_id]

    async def edit_table_message(self, table: LiveTable) -> None:
        record = table.record
        if record.message_id is None:
            return
        texts = catalog(record.language)
        embed = table_embed(texts, table, self.bot.sessions.deadline(table), table.ratings)
        channel = self.bot.get_partial_messageable(record.thread_id or record.channel_id)
        message = channel.get_partial_message(record.message_id)
        try:
            await message.edit(embed=embed, view=table_view(texts, table))
        except discord.NotFound:
            log.warning("the message of table %s is gone", record.table_id)

    # --- hands by direct message ----------------------------------------------------------------

    def _schedule_dm(self, table: LiveTable, user_id: int) -> None:
        key = (table.table_id, user_id)
        self._dm_pending[key] = table
        if key not in self._dm_tasks:
            task = asyncio.get_running_loop().create_task(self._dm_loop(key))
            self._dm_tasks[key] = task

    async def _dm_loop(self, key: tuple[int, int]) -> None:
        try:
            while key in self._dm_pending:
                table = self._dm_pending[key]
                new_deal = self._deal_of(table, key[1]) != self._dm_deal.get(key)
                if not new_deal and self.dm_pause > 0:
                    await asyncio.sleep(self.dm_pause)
                table = self._dm_pending.pop(key)
                await self._update_dm(table, key[1])
        finally:
            del self._dm_tasks[key]

    def _deal_of(self, table: LiveTable, user_id: int) -> int | None:
        seat = table.seat_of(user_id)
        if seat is None or table.game is None:
            return None
        return table.game.view(seat).deal

    async def _update_dm(self, table: LiveTable, user_id: int) -> None:
        seat = table.seat_of(user_id)
        if seat is None or table.game is None or await self.dm_closed(user_id):
            return
        key = (table.table_id, user_id)
        texts = catalog(table.record.language)
        guild = self.bot.get_guild(table.record.guild_id)
        content = dm_text(texts, table, seat, guild.name if guild is not None else "")
        deal = table.game.view(seat).deal
        stored = await self.bot.storage.dm_message(table.table_id, user_id)
        try:
            if stored is not None and self._dm_deal.get(key, deal) == deal:
                channel_id, message_id = stored
                partial = self.bot.get_partial_messageable(channel_id)
                await partial.get_partial_message(message_id).edit(content=content)
            else:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                sent = await user.send(content)
                await self.bot.storage.set_dm_message(
                    table.table_id, user_id, sent.channel.id, sent.id
                )
            self._dm_deal[key] = deal
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                raise
            await self._dms_are_closed(table, user_id)

    async def dm_closed(self, user_id: int) -> bool:
        if user_id not in self._dm_closed:
            self._dm_closed[user_id] = await self.bot.storage.dm_closed(user_id)
        return self._dm_closed[user_id]

    async def _dms_are_closed(self, table: LiveTable, user_id: int) -> None:
        """Remember it, and tell the member once (in the table's channel) to use My hand."""
        self._dm_closed[user_id] = True
        await self.bot.storage.set_dm_closed(user_id, True)
        texts = catalog(table.record.language)
        channel = self.bot.get_partial_messageable(
            table.record.thread_id or table.record.channel_id
        )
        await channel.send(
            texts.text("ui.dm.closed_notice", mention=f"<@{user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )

    async def settle(self) -> None:
        """Wait for every edit and DM in flight (used at shutdown)."""
        tasks = [*self._editing.values(), *self._dm_tasks.values()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
