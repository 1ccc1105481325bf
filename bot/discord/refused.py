"""What Discord refuses the bot as play goes on: a table's message it may no longer edit (403),
and pictures it would not take (400); shown by ``kortbord health`` through the heartbeat.

Each refused request counts toward Discord's 10,000 invalid requests per 10 minutes, after which
it blocks the bot's address; so a table whose edit was refused is not edited again until the
bot's permissions in that channel change (the gateway keeps them current) or, should they be
unknown, ``RETRY_AFTER`` seconds later. It is logged once per table and, where the bot may
still post, told in the channel once, in the table's language.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.discord.permissions import EDIT, missing, named
from bot.i18n import catalog
from bot.sessions import LiveTable

if TYPE_CHECKING:
    from bot.discord.services import Services

log = logging.getLogger(__name__)

RETRY_AFTER = 600.0
"""Seconds after which a refused table is tried again when the bot's permissions there are not
known (no cache of that channel): one request per table per ten minutes at most."""


@dataclass(frozen=True, slots=True)
class Refusal:
    permissions: int | None  # the bot's permissions in the channel when Discord refused
    at: float
    line: str  # for ``kortbord health``


class EditRefusals:
    """The tables whose message Discord refuses the bot, and the pictures it refused."""

    def __init__(self, bot: Services) -> None:
        self.bot = bot
        self.tables: dict[int, Refusal] = {}
        self.told: set[int] = set()  # tables whose refusal was logged and told, once each
        self.pictures_dropped = 0
        """Edits sent again without their picture after Discord refused them (400)."""

    def permissions(self, table: LiveTable) -> discord.Permissions | None:
        """The bot's permissions where the table's message is, as the gateway last said."""
        record = table.record
        guild = self.bot.get_guild(record.guild_id)
        if guild is None or guild.me is None:
            return None
        channel = guild.get_channel_or_thread(record.thread_id or record.channel_id)
        return None if channel is None else channel.permissions_for(guild.me)

    def may_edit(self, table: LiveTable) -> bool:
        """Whether the table's message may be edited: not refused, or refused before the bot's
        permissions there changed (or, unknown, ``RETRY_AFTER`` ago)."""
        refusal = self.tables.get(table.table_id)
        if refusal is None:
            return True
        have = self.permissions(table)
        changed = have is not None and have.value != refusal.permissions
        if not changed and self.bot.clock.now() < refusal.at + RETRY_AFTER:
            return False
        del self.tables[table.table_id]
        self.told.discard(table.table_id)
        log.info(
            "table %s: trying its message again (the bot's permissions there changed)",
            table.table_id,
        )
        return True

    async def refused(self, table: LiveTable, error: discord.Forbidden) -> None:
        """Discord refused an edit of the table's message: remembered, logged and told once."""
        record = table.record
        have = self.permissions(table)
        lacking = missing(have, EDIT) if have is not None else []
        reason = f"{error.status} {error.text or error.response.reason}".strip()
        english = named(catalog("en"), lacking).replace("**", "") if lacking else "unknown"
        where = record.thread_id or record.channel_id
        line = f"table {record.table_id} in channel {where}: Discord refuses its edits ({reason});"
        line += f" missing {english}"
        self.tables[record.table_id] = Refusal(
            have.value if have is not None else None, self.bot.clock.now(), line
        )
        if record.table_id in self.told:
            return
        self.told.add(record.table_id)
        log.warning("%s; not edited again until the bot's permissions there change", line)
        post = "send_messages_in_threads" if record.thread_id else "send_messages"
        if have is not None and not (have.view_channel and getattr(have, post)):
            return  # it may not post there either: the log and `kortbord health` tell it
        texts = catalog(record.language)
        text = texts.text(
            "permission.edit_refused",
            reason=reason,
            permissions=named(texts, lacking) if lacking else texts.text("permission.unknown"),
        )
        try:
            await self.bot.get_partial_messageable(where).send(text)
        except discord.HTTPException as failed:
            log.info("table %s: could not say so in its channel: %s", record.table_id, failed)

    def lines(self) -> list[str]:
        """What Discord refuses, one line each, for ``kortbord health``."""
        lines = [refusal.line for refusal in self.tables.values()]
        if self.pictures_dropped:
            count = self.pictures_dropped
            edits = "1 edit was" if count == 1 else f"{count} edits were"
            lines.append(f"{edits} sent without the picture Discord refused (400)")
        return lines
