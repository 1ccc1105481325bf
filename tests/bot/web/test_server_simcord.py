"""One match, two ways to sit at it: the bot on SimCord's simulated Discord with the web table
beside it, on one event loop and one session manager. A move made in the web table shows on the
channel's table message, and a move made with the channel's buttons shows in the web table. The
table message's *Webbord* button answers with Discord's launch-activity response.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from simcord import Env

from bot.discord.embeds import renderer
from bot.discord.views.activity import ActivityButton
from bot.i18n import catalog
from bot.settings import Settings
from bot.web.auth import WebUser
from bot.web.server import WebFace
from games.cards import parse_card

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "discord" / "e2e"))
from members import (
    bot_of,
    components,
    labels,
    message_text,
    open_hand,
    play_first_legal,
    sync_commands,
    table_for_two,
    table_in,
)

Json = dict[str, Any]
RECEIVE_SECONDS = 10.0  # a bound on a frame that must come, never a pause


@pytest.fixture
async def web_face(simcord_env: Env, tmp_path: Path) -> AsyncIterator[WebFace]:
    """The web table beside the bot, started from outside the bot's own work (SimCord waits for
    the bot's work to settle; a page's socket waits for the page, which is no work of the bot)."""
    settings = Settings(database=tmp_path / "unused.sqlite3", _env_file=None)  # type: ignore[call-arg]
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Kortbord</title>", encoding="utf-8")
    face = WebFace(settings, port=0, host="127.0.0.1", demo_members=[], dist=dist)
    bot = bot_of(simcord_env)
    with simcord_env.time_context():  # as the demo starts it: on the channel's clock
        await face.start(bot.sessions, bot.application_id)
    yield face
    await face.stop()


class Page:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.unread: list[Json] = []

    async def next(self, *kinds: str, version: int = 0) -> Json:
        while True:
            for i, frame in enumerate(self.unread):
                if frame["type"] in kinds and int(frame.get("version", version)) >= version:
                    del self.unread[i]
                    return frame
            self.unread.append(await self.socket.receive_json(timeout=RECEIVE_SECONDS))


async def open_page(
    client: aiohttp.ClientSession,
    face: WebFace,
    user_id: int,
    name: str,
    channel_id: int,
    guild_id: int | None = None,
) -> Page:
    assert face.hub is not None
    session = face.hub.issued.issue(WebUser(user_id, name), channel_id, guild_id)
    socket = await client.ws_connect(f"http://127.0.0.1:{face.port}/.proxy/ws")
    page = Page(socket)
    await socket.send_json({"type": "hello", "session": session, "lang": "sv"})
    await page.next("tables")
    return page


def table_text(message: Any) -> str:
    return message_text(message)


def latest(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


async def test_a_move_in_the_web_table_shows_in_the_channel_and_the_other_way(
    simcord_env: Env, web_face: WebFace
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    seat = min(table.game.to_act())
    members = {anna.id: anna, bo.id: bo}
    mover_id = table.record.seats[seat].user_id
    assert mover_id is not None
    # with the pictures off the table message's text shows the trick (else the picture does)
    bot = bot_of(env)
    shown_settings = await bot.guild_settings(table.record.guild_id)
    await bot.save_guild_settings(dataclasses.replace(shown_settings, pictures=False))
    async with aiohttp.ClientSession() as client:
        page = await open_page(client, web_face, mover_id, "mover", channel.id)
        await page.socket.send_json({"type": "watch", "table_id": table.table_id})
        shown = await page.next("state")
        notation = shown["actions"][0]["notation"]
        face = renderer(catalog("sv"), table).face(parse_card(notation))
        assert face not in table_text(latest(channel, message.id))

        await page.socket.send_json(
            {
                "type": "act",
                "table_id": table.table_id,
                "version": shown["version"],
                "notation": notation,
            }
        )
        assert (await page.next("ack", "refused"))["type"] == "ack"
        await bot_of(env).listener.settle()  # the table message's edit, made for the web's move
        await env.settle()

        assert table.seq == 1
        assert face in table_text(latest(channel, message.id))  # the channel shows the web's move

        # now a move with the channel's buttons, seen in the web table
        assert table.game is not None
        other = min(table.game.to_act())
        member = members[table.record.seats[other].user_id or 0]
        panel = await open_hand(member, latest(channel, message.id))
        await play_first_legal(member, panel)
        await env.settle()
        assert table.seq == 2
        frame = await page.next("state", version=table.version)
        face_up = [card for _, card in frame["view"]["trick"]]
        face_up += [card for pile in frame["view"]["piles"] for card in pile["cards"]]
        last = (await bot_of(env).storage.actions(table.table_id))[-1]
        assert last.notation in face_up  # the channel's move, on the web table
        assert frame["version"] == table.version
        await page.socket.close()


async def test_the_table_message_has_the_open_button_and_it_launches_the_activity(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, _ = await table_for_two(env)
    table = table_in(env, channel.id)
    ids = [str(c.get("custom_id")) for c in components(latest(channel, message.id))]
    assert f"kb:w:{table.table_id}" in ids
    labels = [str(c.get("label")) for c in components(latest(channel, message.id))]
    assert "Webbord" in labels

    # SimCord has no launch-activity response (callback type 12): it refuses it as Discord does
    # for an application without Activities, and the member is told so in words
    result = await anna.click(latest(channel, message.id), custom_id=f"kb:w:{table.table_id}")
    assert result.ephemeral
    assert result.response is not None
    assert result.response.content == catalog("sv").text("web.error.no_activity")

    # the callback itself answers with the launch-activity response, and with nothing else
    launched: list[str] = []

    class Response:
        async def launch_activity(self) -> None:
            launched.append("launch_activity")

    class Interaction:
        response = Response()
        id = 1

    button = ActivityButton(table.table_id)
    await button.callback(Interaction())  # type: ignore[arg-type]
    assert launched == ["launch_activity"]
    assert discord.InteractionResponseType.launch_activity.value == 12


async def test_a_table_opened_in_the_page_gets_its_table_message_in_the_channel(
    simcord_env: Env, web_face: WebFace
) -> None:
    """Opened from the page, the table is posted in the channel as after ``/spel ny`` (once),
    and its buttons work there: Bo sits down in the channel and the page shows him."""
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    async with aiohttp.ClientSession() as client:
        page = await open_page(client, web_face, int(anna.id), "anna", channel.id, guild.id)
        await page.socket.send_json({"type": "open", "game": "tvamanswhist"})
        opened = await page.next("state")
        await bot_of(env).listener.settle()
        await env.settle()
        table = table_in(env, channel.id)
        assert opened["table_id"] == table.table_id
        posted = channel.history()
        assert len(posted) == 1  # one table message, not one per change
        assert table.record.message_id == posted[0].id
        assert "Sätt dig" in labels(posted[0])
        await bo.click(posted[0], label="Sätt dig")
        await env.settle()
        joined = await page.next("state", version=table.version)
        assert [seat["name"] for seat in joined["view"]["seats"]][1] == "bo"
        await page.socket.close()


async def test_a_stopped_web_table_is_told_of_no_more_changes(web_face: WebFace) -> None:
    assert web_face.hub is not None
    sessions = web_face.hub.sessions
    assert web_face.hub in sessions.listeners
    await web_face.stop()
    assert web_face.hub not in sessions.listeners
    await web_face.stop()  # stopping twice is no error
