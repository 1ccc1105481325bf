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
import contextvars
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar, cast

import discord

from bot.clock import machine_timer
from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.options import game_name
from bot.render.text import DISCORD, TextRenderer
from bot.storage import StorageError, StorageUnavailable
from games.registry import SPECS

if TYPE_CHECKING:
    from bot.discord.services import Services

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFER_AFTER = 2.0
"""Seconds after which an interaction not yet answered is deferred (Discord allows 3): a slow
database never leaves a member with "the interaction failed"; the outcome follows."""

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
    """The error in the member's language; a ``game`` given by its id is named (the core,
    which raised it, knows no language); why a move is refused shows its cards as cards do."""
    if error.msg.key.startswith("errors.refused."):
        return f"⛔ {TextRenderer(texts, (), DISCORD).msg(error.msg)}"
    args = dict(error.msg.args)
    game = args.get("game")
    if isinstance(game, str) and game in SPECS:
        args["game"] = game_name(texts, game)
    return texts.text(error.msg.key, **args)


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral reply, as the response or as a follow-up when already answered."""

    async def send() -> None:
        reply = answer(interaction)
        if reply.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await reply.send_message(text, ephemeral=True)

    await with_retries(send, f"answering interaction {interaction.id}")


class Answer:
    """The answer to one interaction, given in time: ``defer_in_time`` defers it unless it was
    answered already, and an answer that comes after that goes where Discord expects it (a
    message becomes a follow-up, an edit of the message an edit of the original response).
    One at a time, so a deferral never crosses an answer on its way. Public discord.py only:
    the interaction's own ``response``, ``followup`` and ``edit_original_response``."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        self.turn = asyncio.Lock()
        self.deferred_in_time = False

    def is_done(self) -> bool:
        return self.interaction.response.is_done()

    async def defer_in_time(self, *, thinking: bool) -> None:
        async with self.turn:
            if self.is_done():
                return
            await self.interaction.response.defer(thinking=thinking)
            self.deferred_in_time = True

    async def defer(self, **kwargs: Any) -> Any:
        async with self.turn:
            if self.deferred_in_time:
                return None
            return await self.interaction.response.defer(**kwargs)

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        async with self.turn:
            if not self.deferred_in_time:
                return await self.interaction.response.send_message(*args, **kwargs)
            kwargs.pop("delete_after", None)
            given = {k: v for k, v in kwargs.items() if v is not None}
            return await self.interaction.followup.send(*args, **given)

    async def edit_message(self, **kwargs: Any) -> Any:
        async with self.turn:
            if not self.deferred_in_time:
                return await self.interaction.response.edit_message(**kwargs)
            kwargs.pop("delete_after", None)
            return await self.interaction.edit_original_response(**kwargs)


_ANSWERS: dict[int, Answer] = {}
"""The interactions being answered now (inside ``answered_in_time``), by interaction id."""


def answer(interaction: discord.Interaction[Any]) -> Answer:
    """How to answer ``interaction``: through its deferral watch while one runs, so an answer
    after a deferral still reaches the member; else directly."""
    return _ANSWERS.get(interaction.id) or Answer(interaction)


@asynccontextmanager
async def answered_in_time(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Inside, the interaction is deferred if it is not answered within ``DEFER_AFTER``
    seconds (the bot's ``defer_after``), so Discord never gives up on it. Answers go through
    :func:`answer`."""
    if interaction.id in _ANSWERS:  # already watched, by an enclosing block
        yield
        return
    response = _ANSWERS[interaction.id] = Answer(interaction)
    after = getattr(interaction.client, "defer_after", DEFER_AFTER)
    # a command's answer is a new message: deferring shows "thinking"; a click's edits in place
    thinking = interaction.type == discord.InteractionType.application_command

    loop, context = asyncio.get_running_loop(), contextvars.copy_context()
    deferring: list[asyncio.Task[None]] = []

    async def defer() -> None:
        try:
            await response.defer_in_time(thinking=thinking)
        except discord.HTTPException as error:
            log.warning("interaction %s could not be deferred: %s", interaction.id, error)

    def due() -> None:
        deferring.append(loop.create_task(defer(), name="defer in time", context=context))

    # Discord's three seconds are the machine's: a simulated clock that moved on by this pause
    # whenever a busy machine made a click slow would shift every time after it; a timer, not a
    # task that sleeps, as most clicks are answered long before it
    timer = machine_timer(after, due)
    try:
        yield
    finally:
        timer.cancel()
        for task in deferring:
            task.cancel()
        del _ANSWERS[interaction.id]


@asynccontextmanager
async def answer_errors(
    interaction: discord.Interaction, texts: Catalog | None = None
) -> AsyncIterator[None]:
    """Turn a ``UserError`` raised inside into an ephemeral reply in the member's language.

    Any other error is a bug or a failure of Discord: it is logged with its traceback and the
    member is still answered, so no click ever ends in "interaction failed". An interaction
    not answered within ``DEFER_AFTER`` seconds is deferred meanwhile (``answered_in_time``).
    """
    try:
        async with answered_in_time(interaction):
            yield
    except UserError as error:
        await _reply(interaction, error_text(texts or catalog_of(interaction), error))
    except StorageError as error:
        # the database is away or refused: the member is told so in words that fit it; an
        # outage is logged by the storage, once, not for every member it turned away
        storage = kortbord(interaction).storage
        if not isinstance(error, StorageUnavailable):
            log.error("interaction %s: the database refused: %s", interaction.id, error)
        key = f"errors.storage_{storage.place}"
        await _reply(interaction, (texts or catalog_of(interaction)).text(key))
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
