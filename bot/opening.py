"""Opening a table in a channel, as ``/spel ny`` does it, for every face that offers it.

The checks a member's request goes through before the session manager's own (``open_table``:
the game exists, the channel is free, the host sits nowhere else): the server's list of table
channels, the variant and the options as written, and the server's defaults (language, turn and
reaction times). What only one face can check (Discord's permissions of the bot in a channel,
a thread per table) stays in that face.

A table opened here by a face other than Discord (the web table) is marked
(:data:`OPENED_IN_PAGE`) and told to every listener at once: the Discord face then posts its
table message in the channel and attaches it, as after ``/spel ny``. This module knows no face.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot import options as choices
from bot.errors import UserError
from bot.i18n import Catalog
from bot.sessions import SEATS_OPTION, LiveTable, Member, SessionManager
from bot.settings import Settings
from bot.storage import GuildSettings
from games.core import option_infos
from games.registry import SPECS

OPENED_IN_PAGE = "_opened_in_page"
"""A table setting: the table was opened from the web table, and no face posted its message
yet; the Discord face posts it (``bot.discord.listener``)."""


@dataclass(frozen=True, slots=True)
class Request:
    """A member's request for a table, checked: where, which game, and its settings."""

    server: GuildSettings
    channel_id: int
    game_id: str
    variant: str
    options: dict[str, str]
    turn_seconds: int
    language: str


def check_request(
    defaults: Settings,
    server: GuildSettings,
    asked: Catalog,
    *,
    channel_id: int,
    game_id: str,
    variant: str | None = None,
    option_text: str | None = None,
    seats: int | None = None,
    turn_seconds: int | None = None,
) -> Request:
    """The request with the server's defaults filled in; refused (``UserError``, worded in
    ``asked``, the member's language) where ``/spel ny`` refuses it, before anything is made."""
    if server.table_channels and channel_id not in server.table_channels:
        listed = ", ".join(f"<#{c}>" for c in server.table_channels)
        raise UserError("channel_not_allowed", channels=listed)
    if game_id not in SPECS:
        raise UserError("unknown_game", game=game_id)
    chosen = choices.parse_variant(asked, game_id, variant)
    options = choices.parse_settings(asked, game_id, option_text)
    choices.check(asked, game_id, chosen, options)
    names = {info.name for info in option_infos(SPECS[game_id].options_type)}
    reaction = server.reaction_seconds or defaults.reaction_seconds
    if "reaction_ms" in names and "reaction_ms" not in options:
        options["reaction_ms"] = str(reaction * 1000)
    if seats is not None:
        options[SEATS_OPTION] = str(seats)
    return Request(
        server,
        channel_id,
        game_id,
        chosen,
        options,
        turn_seconds or server.turn_seconds or defaults.turn_seconds,
        server.language or defaults.language,
    )


async def open_requested(
    sessions: SessionManager,
    request: Request,
    host: Member,
    *,
    thread_id: int | None = None,
    from_page: bool = False,
) -> LiveTable:
    """The requested table, opened by the session manager (its own checks: the channel is
    free, the host sits nowhere else), in ``thread_id``'s thread where the face made one.
    ``from_page``: opened from the web table, so it is marked and every listener is told."""
    options = dict(request.options)
    if from_page:
        options[OPENED_IN_PAGE] = "1"
    table = await sessions.open_table(
        guild_id=request.server.guild_id,
        channel_id=thread_id if thread_id is not None else request.channel_id,
        host=host,
        game_id=request.game_id,
        variant=request.variant,
        options=options,
        turn_seconds=request.turn_seconds,
        language=request.language,
        thread_id=thread_id,
    )
    if from_page:
        await sessions.tell(table, frozenset())
    return table


def opened_in_page(options: Mapping[str, str]) -> bool:
    """Whether a table's settings say it was opened from the web table."""
    return OPENED_IN_PAGE in options
