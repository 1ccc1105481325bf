"""Running the bot on Discord: ``kortbord run`` and ``kortbord sync``, and their logging.

``run`` starts the bot with the token from the settings and never syncs commands; ``sync`` logs in,
publishes the slash commands (instantly to one guild, or globally) and stops. Without a token both
say how to get one, and point at ``kortbord demo``, which needs none.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys

import discord

from bot.client import Kortbord
from bot.settings import Settings

log = logging.getLogger(__name__)

NO_TOKEN = """\
Kortbord needs a Discord bot token to run on Discord, and KORTBORD_TOKEN is not set.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under Bot, press Reset Token and copy the token.
  3. Put it in .env as KORTBORD_TOKEN=... (copy .env.example to .env first), or in the environment.
  4. Invite the bot under OAuth2 > URL Generator with the scopes bot and applications.commands.
  5. Run `kortbord sync` once (and after each update) to publish the slash commands, then
     `kortbord run`.

To try Kortbord without a token, run `./dev demo`: the same bot on a simulated Discord in your
browser, with simulated members you can switch between."""


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log collectors."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    logging.basicConfig(level=settings.log_level, handlers=[handler], force=True)


def run(settings: Settings) -> int:
    """The bot on Discord until it is stopped. Returns the exit status."""
    if settings.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    configure_logging(settings)
    bot = Kortbord(settings)
    try:
        bot.run(settings.token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        print(
            "Discord refused the token in KORTBORD_TOKEN. " + NO_TOKEN.splitlines()[2],
            file=sys.stderr,
        )
        return 2
    return 0


def sync(settings: Settings, guild_id: int | None) -> int:
    """Publish the slash commands: to ``guild_id`` at once, else globally. Returns exit status."""
    if settings.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    configure_logging(settings)
    return asyncio.run(_sync(settings, settings.token.get_secret_value(), guild_id))


async def _sync(settings: Settings, token: str, guild_id: int | None) -> int:
    async with Kortbord(settings, restore=False) as bot:
        await bot.login(token)
        if guild_id is not None:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            print(f"Synced {len(synced)} commands to guild {guild_id}.")
        else:
            synced = await bot.tree.sync()
            print(
                f"Synced {len(synced)} commands globally (Discord may take a while to show them)."
            )
    return 0
