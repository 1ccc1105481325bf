"""The web table's channel is the member's own Discord context: the Activity's instance, which
the bot looks up at Discord with its bot token, and accepts only when the member is among the
instance's users; an id the page names is never trusted. Discord is a stand-in HTTP server on
127.0.0.1, reached through the real HTTP client."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, web
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import ManualClock
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import Storage, open_storage
from bot.web.auth import DiscordLogin, IssuedSessions, http_fetch
from bot.web.hub import WebHub
from bot.web.server import WebApp

GUILD, CHANNEL, BOS_THREAD = 1, 100, 700
ANNA, BO, CILLA = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla")
APPLICATION, SECRET, BOT_TOKEN = "4242", "the-client-secret", "the-bot-token"
INSTANCES = {  # instance id -> (channel, the users in it)
    "i-1-gc-1-100": (CHANNEL, [CILLA]),
    "i-2-gc-1-700": (BOS_THREAD, [BO]),
}
RECEIVE_SECONDS = 5.0  # a bound on a frame that must come, never a pause


@dataclass
class StandIn:
    """Discord's token endpoint, ``/users/@me`` (Cilla) and its Activity instances."""

    asked: list[tuple[str, str | None]]

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/oauth2/token", self.token)
        app.router.add_get("/api/users/@me", self.me)
        app.router.add_get(
            "/api/applications/{application}/activity-instances/{instance}", self.instance
        )
        return app

    async def token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("code") != "cilla-code" or form.get("client_secret") != SECRET:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": "cilla-access", "token_type": "Bearer"})

    async def me(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != "Bearer cilla-access":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        return web.json_response({"id": str(CILLA.user_id), "username": "cilla"})

    async def instance(self, request: web.Request) -> web.Response:
        instance_id = request.match_info["instance"]
        self.asked.append((instance_id, request.headers.get("Authorization")))
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        found = INSTANCES.get(instance_id)
        if request.match_info["application"] != APPLICATION or found is None:
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        channel, users = found
        return web.json_response(
            {
                "application_id": APPLICATION,
                "instance_id": instance_id,
                "launch_id": "1",
                "location": {
                    "id": f"gc-{GUILD}-{channel}",
                    "kind": "gc",
                    "channel_id": str(channel),
                    "guild_id": str(GUILD),
                },
                "users": [str(member.user_id) for member in users],
            }
        )


@dataclass
class Stack:
    sessions: SessionManager
    client: TestClient[Any, Any]
    discord: StandIn
    ours: LiveTable
    bos: LiveTable


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await open_storage(tmp_path / "kortbord.sqlite3")
    yield store
    await store.close()


@pytest.fixture
async def stack(storage: Storage, tmp_path: Path) -> AsyncIterator[Stack]:
    discord = StandIn([])
    server = TestServer(discord.app(), host="127.0.0.1")
    await server.start_server()
    clock = ManualClock()
    sessions = SessionManager(
        storage, clock, turn_seconds=60, idle_seconds=600, rng=random.Random(1)
    )
    issued = IssuedSessions(clock.now)
    hub = WebHub(sessions, issued, language="en", budget_clock=clock.now)
    sessions.add_listener(hub)
    login = DiscordLogin(
        APPLICATION,
        SECRET,
        http_fetch,
        bot_token=BOT_TOKEN,
        api=f"http://127.0.0.1:{server.port}/api",
    )
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text("<!doctype html><title>Kortbord</title>", encoding="utf-8")
    app = WebApp(hub, issued, client_id=APPLICATION, login=login, dist=dist)
    ours = await sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist"
    )
    bos = await sessions.open_table(
        guild_id=GUILD, channel_id=BOS_THREAD, host=BO, game_id="bondtolva"
    )
    client = TestClient(TestServer(app.application()))
    await client.start_server()
    yield Stack(sessions, client, discord, ours, bos)
    await client.close()
    await server.close()


async def _page(stack: Stack, instance_id: str | None, **hello: object) -> tuple[Any, Any]:
    """Cilla signs in inside the Activity's instance ``instance_id``; her socket and the
    tables it is first sent."""
    body = {"code": "cilla-code", "instance_id": instance_id}
    answer = await stack.client.post("/.proxy/api/token", json=body)
    assert answer.status == 200
    session = (await answer.json())["session"]
    socket: ClientWebSocketResponse = await stack.client.ws_connect("/.proxy/ws")
    await socket.send_json({"type": "hello", "session": session, **hello})
    tables = await socket.receive_json(timeout=RECEIVE_SECONDS)
    assert tables["type"] == "tables"
    return socket, tables


async def test_a_member_in_the_instance_gets_its_channels_table(stack: Stack) -> None:
    socket, tables = await _page(stack, "i-1-gc-1-100")

    assert [t["table_id"] for t in tables["tables"]] == [stack.ours.table_id]
    assert stack.discord.asked == [("i-1-gc-1-100", f"Bot {BOT_TOKEN}")]
    await socket.send_json({"type": "watch", "table_id": stack.ours.table_id})
    assert (await socket.receive_json(timeout=RECEIVE_SECONDS))["type"] == "state"
    await socket.close()


@pytest.mark.parametrize("instance_id", ["i-2-gc-1-700", "i-9-unknown", "../../users/@me", None])
async def test_a_page_naming_another_members_channel_lists_and_watches_nothing_there(
    stack: Stack, instance_id: str | None
) -> None:
    """Bo's private thread, named by the page as an instance Cilla is not in, as an unknown
    instance, as a path, or as a bare channel id in the hello: none of it is Cilla's context."""
    socket, tables = await _page(stack, instance_id, channel_id=str(BOS_THREAD))

    assert tables["tables"] == []
    await socket.send_json({"type": "watch", "table_id": stack.bos.table_id})
    refused = await socket.receive_json(timeout=RECEIVE_SECONDS)
    assert (refused["type"], refused["code"]) == ("refused", "not_here")
    assert all(asked == instance_id for asked, _ in stack.discord.asked)
    if instance_id == "../../users/@me":
        assert stack.discord.asked == []  # never put into Discord's path
    await socket.close()
