"""``kortbord sync``'s request to Discord: the slash commands, with the application's Entry Point.

Discord creates an Entry Point command ("Launch", type 4) when Activities are enabled; a bulk
overwrite of the global commands that leaves it out is refused (or deletes it, and with it the
Activity's place in the App Launcher). discord.py's ``CommandTree.sync`` knows no Entry Point,
so the sync reads the application's commands first and sends its Entry Point back with the slash
commands, through Discord's documented endpoints (``GET``/``PUT
/applications/{id}[/guilds/{id}]/commands``).
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
from discord import app_commands

DISCORD_API = "https://discord.com/api/v10"
ENTRY_POINT = 4
"""Discord's application command type of an Entry Point (``PRIMARY_ENTRY_POINT``)."""
KEPT_FIELDS = (
    "id",
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "handler",
    "default_member_permissions",
    "integration_types",
    "contexts",
    "nsfw",
)
"""What of an Entry Point read from Discord goes back in the overwrite (its id keeps it as is)."""


class SyncRefused(Exception):
    """Discord refused a request of the sync: its status and its own words."""

    def __init__(self, what: str, status: int, text: str) -> None:
        super().__init__(f"{what}: {status} {text}")
        self.status = status
        self.text = text


async def command_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[dict[str, Any]]:
    """The tree's commands as Discord's JSON, translated by the tree's translator."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def _answer(response: aiohttp.ClientResponse, what: str) -> Any:
    if response.status >= 300:
        raise SyncRefused(what, response.status, await response.text())
    return await response.json()


async def put_commands(
    session: aiohttp.ClientSession,
    token: str,
    application_id: int,
    payload: list[dict[str, Any]],
    *,
    guild_id: int | None = None,
    api: str = DISCORD_API,
) -> list[dict[str, Any]]:
    """Overwrites the application's commands (a guild's with ``guild_id``) with ``payload``
    and the Entry Point it already has; returns what Discord answered it now holds."""
    where = f"/guilds/{guild_id}" if guild_id is not None else ""
    url = f"{api}/applications/{application_id}{where}/commands"
    headers = {"Authorization": f"Bot {token}", "User-Agent": "DiscordBot (kortbord, 0.1)"}
    async with session.get(url, headers=headers) as response:
        existing = await _answer(response, f"GET {url}")
    kept = [
        {field: command[field] for field in KEPT_FIELDS if field in command}
        for command in existing
        if command.get("type") == ENTRY_POINT
    ]
    async with session.put(url, json=[*payload, *kept], headers=headers) as response:
        synced: list[dict[str, Any]] = await _answer(response, f"PUT {url}")
    return synced
