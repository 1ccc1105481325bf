"""Who may see a stored table: what Discord lets a member see, so that a replay or a record by
table number (``/spel repris``, ``/spel verifiera``) shows a member only a match they could have
watched.

A member sees a table they were seated at. Otherwise they see it when they can see its channel and
read its history, as discord.py reports their permissions there (the guild's cached channel and
``permissions_for``; a channel not in the cache is fetched); a table in a thread needs that of the
thread's channel, and in a private thread also that the member is in the thread (asked of
Discord) or may manage its threads.
Anything that cannot be told (a channel or thread gone, Discord refusing to say) counts as not
seen: a table number is then answered as if there were no such table, so numbers do not list a
server's matches.
"""

from __future__ import annotations

import logging

import discord

from bot.storage import TableRecord

log = logging.getLogger(__name__)


def seated(record: TableRecord, user_id: int) -> bool:
    """Whether the member sat at the table."""
    return any(seat.user_id == user_id for seat in record.seats)


async def can_see(interaction: discord.Interaction, record: TableRecord) -> bool:
    """Whether the member behind ``interaction`` may see the stored table ``record``."""
    member = interaction.user
    if seated(record, member.id):
        return True
    guild = interaction.guild
    if guild is None or guild.id != record.guild_id or not isinstance(member, discord.Member):
        return False
    place = record.thread_id or record.channel_id
    try:
        where = guild.get_channel_or_thread(place) or await guild.fetch_channel(place)
        if not isinstance(where, discord.Thread):
            return _reads(where.permissions_for(member))
        parent = guild.get_channel(where.parent_id)
        if parent is None:
            return False
        allowed = parent.permissions_for(member)
        if not _reads(allowed):
            return False
        if where.is_private() and not allowed.manage_threads:
            await where.fetch_member(member.id)  # NotFound: not in the thread
    except discord.NotFound:
        return False
    except discord.HTTPException as error:
        log.info("table %s: cannot tell who may see it (%s)", record.table_id, error)
        return False
    return True


def _reads(allowed: discord.Permissions) -> bool:
    """Whether these permissions in a channel let a member read its past messages."""
    return allowed.view_channel and allowed.read_message_history
