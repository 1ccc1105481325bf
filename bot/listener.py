"""What the session manager's changes become in Discord: the table message and the DM hands.

Table edits are coalesced: one edit in flight per table, and the latest state wins, so a burst of
computer moves costs a few edits, not one per move. At each deal every seated member gets their
hand by DM; later changes edit that DM after a short pause (several changes, one edit). A member
whose DMs are closed (Discord error 50007) is remembered in storage, told once in the channel to
use *My hand*, and not written to again; the game goes on.

A member's last hand panel is kept current too, through its interaction token (valid for 15
minutes), so a member can play a whole deal from one panel without pressing *My hand* again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.i18n import catalog
from bot.render.embeds import dm_text, table_embed
from bot.sessions import LiveTable
from bot.views.panel import build_panel
from bot.views.table import table_view
from games.core import Seat

if TYPE_CHECKING:
    from bot.client import Kortbord

log = logging.getLogger(__name__)

CANNOT_DM = 50007
DM_PAUSE = 1.5  # seconds: DM edits within this pause are merged into one
PANEL_LIFETIME = 14 * 60  # seconds: an interaction token may edit its message for 15 minutes


@dataclass
class Panel:
    """A member's open hand panel: the interaction that shows it, and what it shows."""

    interaction: discord.Interaction
    page: int
    version: int
    opened: float


@contextlib.asynccontextmanager
async def _logged(what: str, *args: object) -> AsyncIterator[None]:
    """A failed update is logged with its traceback; the next change tries again."""
    try:
        yield
    except Exception:
        log.exception("failed: " + what, *args)


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
        self._panels: dict[tuple[int, int], Panel] = {}
        self._panel_pending: dict[tuple[int, int], LiveTable] = {}
        self._panel_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}

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
        members = {s.user_id for s in table.members()}
        for key in [k for k in self._panels if k[0] == table.table_id]:
            if key[1] in members:
                self._schedule_panel(table, key[1])
            else:
                del self._panels[key]  # left or kicked: that panel is never rewritten again

    async def _edit_loop(self, table_id: int) -> None:
        try:
            while table_id in self._latest:
                table = self._latest.pop(table_id)
                async with _logged("editing the message of table %s", table_id):
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

    # --- open hand panels -------------------------------------------------------------------------

    def panel_shown(
        self, table: LiveTable, interaction: discord.Interaction, page: int = 0
    ) -> None:
        """Keep the panel this interaction shows current; call it before responding."""
        key = (table.table_id, interaction.user.id)
        self._panels[key] = Panel(interaction, page, table.version, self.bot.clock.now())

    def _schedule_panel(self, table: LiveTable, user_id: int) -> None:
        key = (table.table_id, user_id)
        self._panel_pending[key] = table
        if key not in self._panel_tasks:
            task = asyncio.get_running_loop().create_task(self._panel_loop(key))
            self._panel_tasks[key] = task

    async def _panel_loop(self, key: tuple[int, int]) -> None:
        try:
            while key in self._panel_pending:
                async with _logged("refreshing the panel of %s", key):
                    await self._refresh_panel(self._panel_pending.pop(key), key)
        finally:
            del self._panel_tasks[key]

    async def _refresh_panel(self, table: LiveTable, key: tuple[int, int]) -> None:
        panel = self._panels.get(key)
        seat = table.seat_of(key[1])
        if panel is None or panel.version == table.version:
            return
        if seat is None or table.game is None:
            del self._panels[key]  # the member left: the panel stays as it was
            return
        if not table.live:
            del self._panels[key]  # the table is over: one last edit shows the end, no controls
        elif self.bot.clock.now() - panel.opened > PANEL_LIFETIME:
            del self._panels[key]  # its token has expired; My hand opens a new one
            return
        panel.version = table.version
        content, view = build_panel(catalog(table.record.language), table, seat, page=panel.page)
        try:
            await panel.interaction.edit_original_response(content=content, view=view)
        except discord.HTTPException as error:
            log.info("panel of %s at table %s not refreshed: %s", key[1], key[0], error)
            self._panels.pop(key, None)

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
                async with _logged("updating the DM of %s", key):
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
        tasks = [*self._editing.values(), *self._dm_tasks.values(), *self._panel_tasks.values()]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
