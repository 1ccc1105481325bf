"""``kortbord sync`` keeps the application's Entry Point command, against a stand-in for
Discord's command endpoints (an aiohttp server on 127.0.0.1) that, like Discord, refuses a bulk
overwrite that would drop the Entry Point."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from bot.discord.commands_sync import SyncRefused, put_commands

APP = 555
TOKEN = "stand-in-token"
LAUNCH = {
    "id": "900",
    "application_id": str(APP),
    "version": "901",
    "type": 4,
    "name": "launch",
    "description": "",
    "handler": 2,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
OLD = {
    "id": "902",
    "application_id": str(APP),
    "version": "903",
    "type": 1,
    "name": "gammal",
    "description": "an old command",
}


class StandIn:
    """Discord's global command endpoints, holding the application's commands."""

    def __init__(self) -> None:
        self.commands: list[dict[str, Any]] = [dict(LAUNCH), dict(OLD)]
        self.puts: list[list[dict[str, Any]]] = []

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get(f"/api/v10/applications/{APP}/commands", self.get)
        app.router.add_put(f"/api/v10/applications/{APP}/commands", self.put)
        return app

    def authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {TOKEN}"

    async def get(self, request: web.Request) -> web.Response:
        if not self.authorized(request):
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return web.json_response(self.commands)

    async def put(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.puts.append(body)
        entry = [c for c in self.commands if c["type"] == 4]
        if entry and not any(c.get("type") == 4 for c in body):
            return web.json_response(
                {
                    "message": "You cannot remove this app's Entry Point command in a bulk"
                    " update operation. Please include the Entry Point command in your update"
                    " request or delete it separately.",
                    "code": 50240,
                },
                status=400,
            )
        self.commands = [
            {**c, "id": c.get("id", str(1000 + i)), "application_id": str(APP), "version": "1"}
            for i, c in enumerate(body)
        ]
        return web.json_response(self.commands)


@pytest.fixture
async def discord_api() -> AsyncIterator[tuple[StandIn, str]]:
    stand_in = StandIn()
    server = TestServer(stand_in.app(), host="127.0.0.1")
    await server.start_server()
    try:
        yield stand_in, str(server.make_url("/api/v10"))
    finally:
        await server.close()


async def test_the_sync_sends_the_entry_point_back_with_the_slash_commands(
    discord_api: tuple[StandIn, str],
) -> None:
    stand_in, api = discord_api
    slash = [{"type": 1, "name": "spel", "description": "Kortspel"}]
    async with aiohttp.ClientSession() as session:
        synced = await put_commands(session, TOKEN, APP, slash, api=api)
    assert [(c["type"], c["name"]) for c in synced] == [(1, "spel"), (4, "launch")]
    assert stand_in.commands[1]["id"] == "900"  # the same Entry Point, not a new one
    (sent,) = stand_in.puts
    assert sent[1] == {k: v for k, v in LAUNCH.items() if k not in ("application_id", "version")}
    assert "gammal" not in [c["name"] for c in stand_in.commands]  # the rest is overwritten


async def test_a_refusal_says_what_discord_said(discord_api: tuple[StandIn, str]) -> None:
    stand_in, api = discord_api
    async with aiohttp.ClientSession() as session:
        with pytest.raises(SyncRefused, match="401: Unauthorized"):
            await put_commands(session, "wrong", APP, [], api=api)
    assert stand_in.puts == []
