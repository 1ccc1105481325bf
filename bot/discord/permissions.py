"""The bot's own permissions in a channel: what each feature needs, checked before it starts.

Discord refuses a request the bot has no permission for (403), and every refusal counts toward
its 10,000 invalid requests per 10 minutes; so a table (and a table of the day in its private
thread) is opened only where Discord says, in the interaction itself (``app_permissions``), that
the bot holds every permission it will use there, and the member is told which ones are missing.
``INVITE`` is every permission of every feature: the README's invite link asks for exactly that.

Permission names are discord.py's (``Permissions`` flags); a member reads them as Discord's
own settings name them, from the catalogs (``permission.<name>``).
"""

from __future__ import annotations

import discord

from bot.errors import UserError
from bot.i18n import Catalog

TABLE: tuple[str, ...] = ("view_channel", "send_messages", "embed_links", "attach_files")
"""A table in a channel: its message is posted, edited with the table's picture (an upload),
and a deal's result is an embed; a player whose DMs are closed is told there."""
THREAD_TABLE: tuple[str, ...] = (*TABLE, "create_public_threads", "send_messages_in_threads")
"""A table in a thread of its own (the server's ``thread_per_table``)."""
DAILY_TABLE: tuple[str, ...] = (*TABLE, "create_private_threads", "send_messages_in_threads")
"""The table of the day, in a private thread of its own."""
EDIT: tuple[str, ...] = ("view_channel", "attach_files")
"""Editing the table's message as play goes on (its picture is uploaded with each edit)."""

EVERY: tuple[str, ...] = tuple(dict.fromkeys((*THREAD_TABLE, *DAILY_TABLE)))
"""Every permission a feature uses."""
INVITE = discord.Permissions(**dict.fromkeys(EVERY, True))
"""The invite link's ``permissions=`` value: ``EVERY``, and nothing else."""


def in_channel(interaction: discord.Interaction, needed: tuple[str, ...]) -> tuple[str, ...]:
    """``needed`` for the interaction's channel: in a thread, posting is Send Messages in
    Threads, not Send Messages."""
    if isinstance(interaction.channel, discord.Thread):
        return tuple("send_messages_in_threads" if n == "send_messages" else n for n in needed)
    return needed


def missing(have: discord.Permissions, needed: tuple[str, ...]) -> list[str]:
    """The permissions of ``needed`` that ``have`` lacks, in ``needed``'s order."""
    return [name for name in dict.fromkeys(needed) if not getattr(have, name)]


def named(texts: Catalog, names: list[str]) -> str:
    """The permissions as a member reads them in Discord's settings, e.g. "Attach Files"."""
    return ", ".join(f"**{texts.text(f'permission.{name}')}**" for name in names)


def require(texts: Catalog, have: discord.Permissions, needed: tuple[str, ...]) -> None:
    """Refuses (``errors.missing_permissions``, naming what is missing) unless the bot holds
    every permission of ``needed`` where it is asked to work."""
    lacking = missing(have, needed)
    if lacking:
        raise UserError("missing_permissions", permissions=named(texts, lacking))
