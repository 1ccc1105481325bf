"""The one place that answers members: their language, and a translated ``UserError`` (ephemeral).

Commands and views call :func:`answer_errors` around their work: a ``UserError`` becomes an
ephemeral reply in the member's language and nothing else happens; any other exception is logged
with its traceback and the member is told something went wrong, so every interaction is answered.

A Discord call that fails with a server error (5xx) is tried again a few times, a little later
each time (:func:`with_retries`; discord.py itself already retries some on a real connection);
if Discord still fails, the member is told that it was Discord (``errors.discord``), and what
the session manager did stays done: the table shows it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, TypeVar, cast

import discord

from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.render.text import DISCORD, TextRenderer

if TYPE_CHECKING:
    from bot.discord.services import Services

log = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_DELAYS: tuple[float, ...] = (0.5, 2.0)
"""Seconds to wait before each new try of a Discord call that failed with a server error: three
tries in all, within the three seconds Discord gives an interaction's first answer when the
errors come quickly."""


def is_server_error(error: BaseException) -> bool:
    """A failure of Discord itself (HTTP 5xx), which may well work when tried again."""
    return isinstance(error, discord.HTTPException) and error.status >= 500


async def with_retries(call: Callable[[], Awaitable[T]], what: str) -> T:
    """``call()``, tried again after each of ``RETRY_DELAYS`` while Discord answers with a
    server error; any other error, or the last server error, is raised."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return await call()
        except discord.HTTPException as error:
            if delay is None or not is_server_error(error):
                raise
            log.warning("%s: Discord answered %s; trying again in %s s", what, error.status, delay)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


def kortbord(interaction: discord.Interaction) -> Services:
    """The bot that received ``interaction``, with its sessions, storage and settings."""
    return cast("Services", interaction.client)


def language_of(interaction: discord.Interaction) -> str:
    """The table's language in a table's channel, else the server's, else the bot's default."""
    bot = kortbord(interaction)
    if interaction.channel_id is not None:
        table = bot.sessions.table_in(interaction.channel_id)
        if table is not None:
            return table.record.language
    return bot.guild_language(interaction.guild_id)


def catalog_of(interaction: discord.Interaction) -> Catalog:
    return catalog(language_of(interaction))


def error_text(texts: Catalog, error: UserError) -> str:
    if error.msg.key.startswith("errors.refused."):  # why a move is refused: cards as on cards
        return f"⛔ {TextRenderer(texts, (), DISCORD).msg(error.msg)}"
    return texts.text(error.msg.key, **dict(error.msg.args))


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral reply, as the response or as a follow-up when already answered."""

    async def send() -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    await with_retries(send, f"answering interaction {interaction.id}")


@asynccontextmanager
async def answer_errors(
    interaction: discord.Interaction, texts: Catalog | None = None
) -> AsyncIterator[None]:
    """Turn a ``UserError`` raised inside into an ephemeral reply in the member's language.

    Any other error is a bug or a failure of Discord: it is logged with its traceback and the
    member is still answered, so no click ever ends in "interaction failed".
    """
    try:
        yield
    except UserError as error:
        await _reply(interaction, error_text(texts or catalog_of(interaction), error))
    except discord.HTTPException as error:
        if not is_server_error(error):
            log.exception("interaction %s failed", interaction.id)
            await _reply(interaction, (texts or catalog_of(interaction)).text("errors.internal"))
            return
        # Discord failed, even when tried again: said so; what was done stays done
        log.warning("interaction %s: Discord failed: %s", interaction.id, error)
        await _reply(interaction, (texts or catalog_of(interaction)).text("errors.discord"))
    except Exception:
        log.exception("interaction %s failed", interaction.id)
        await _reply(interaction, (texts or catalog_of(interaction)).text("errors.internal"))


async def _reply(interaction: discord.Interaction, text: str) -> None:
    """The answer to a refused or failed interaction; if even that fails, it is logged."""
    try:
        await send_private(interaction, text)
    except discord.HTTPException as error:
        log.warning("interaction %s could not be answered: %s", interaction.id, error)
