"""``kortbord doctor``, against a stand-in for Discord (an aiohttp server on 127.0.0.1) that
holds a server, its roles, a channel with its overwrites, messages with their pictures,
threads and commands, refuses as Discord does, and serves the web table's config beside it.
Every request the doctor sends is also held to Discord's API specification."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from discord import Permissions
from discord_requests import Contract, Request, attachment_references, spec

from bot.__main__ import main
from bot.discord.doctor import SLASH_COMMANDS, Check, doctor

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GhIjKl.stand-in-token-for-the-doctor"
BOT, GUILD, CHANNEL, BOT_ROLE = 700, 800, 900, 801
EVERYONE = Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    create_public_threads=True,
    create_private_threads=True,
    send_messages_in_threads=True,
)
MISSING = {"message": "Missing Permissions", "code": 50013}
BODY = web.RequestKey[Any]("body", object)
FILES = web.RequestKey[dict[str, bytes]]("files", dict)


class StandIn:
    """Discord's endpoints the doctor calls, holding what it made."""

    def __init__(self) -> None:
        self.bot_role = Permissions.none()
        self.overwrites: list[dict[str, Any]] = []
        self.messages: dict[str, dict[str, Any]] = {}
        self.threads: set[str] = set()
        self.commands: list[dict[str, Any]] = [
            *({"id": str(i), "type": 1, "name": name} for i, name in enumerate(SLASH_COMMANDS)),
            {"id": "99", "type": 4, "name": "launch"},
        ]
        self.requests: list[Request] = []
        self.next_id = 1000

    def held(self) -> Permissions:
        value = EVERYONE.value | self.bot_role.value
        for overwrite in self.overwrites:
            value = (value & ~int(overwrite["deny"])) | int(overwrite["allow"])
        return Permissions(value)

    def new_id(self) -> str:
        self.next_id += 1
        return str(self.next_id)

    def app(self) -> web.Application:
        app = web.Application()
        api = "/api/v10"
        app.middlewares.append(self.authorized)
        app.router.add_get(f"{api}/users/@me", self.me)
        app.router.add_get(f"{api}/oauth2/applications/@me", self.application)
        app.router.add_get(f"{api}/channels/{{channel}}", self.channel)
        app.router.add_get(f"{api}/guilds/{GUILD}", self.guild)
        app.router.add_get(f"{api}/guilds/{GUILD}/members/{BOT}", self.member)
        app.router.add_post(f"{api}/channels/{{channel}}/messages", self.post)
        app.router.add_patch(f"{api}/channels/{CHANNEL}/messages/{{message}}", self.edit)
        app.router.add_delete(f"{api}/channels/{CHANNEL}/messages/{{message}}", self.delete)
        app.router.add_post(f"{api}/channels/{CHANNEL}/threads", self.thread)
        app.router.add_delete(f"{api}/channels/{{channel}}", self.delete_thread)
        app.router.add_get(f"{api}/applications/{BOT}/commands", self.list_commands)
        app.router.add_get("/web/", self.page)
        app.router.add_get("/web/api/config", self.config)
        return app

    @web.middleware
    async def authorized(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.path.startswith("/api/"):
            if request.headers.get("Authorization") != f"Bot {TOKEN}":
                return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
            body, files = await self.read(request)
            path = request.path.removeprefix("/api/v10")
            self.requests.append(Request(request.method, path, body, tuple(files)))
            request[BODY], request[FILES] = body, files
        response: web.StreamResponse = await handler(request)
        return response

    async def read(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        if not request.body_exists:
            return None, {}
        if request.content_type != "multipart/form-data":
            return await request.json(), {}
        body: Any = None
        files: dict[str, bytes] = {}
        form = await request.post()
        for name, value in form.items():
            if name == "payload_json":
                body = json.loads(value if isinstance(value, (str, bytes, bytearray)) else "")
            elif isinstance(value, web.FileField):
                files[value.filename] = value.file.read()
        return body, files

    async def me(self, request: web.Request) -> web.Response:
        return web.json_response({"id": str(BOT), "username": "Kortbord", "bot": True})

    async def application(self, request: web.Request) -> web.Response:
        return web.json_response({"id": str(BOT), "name": "Kortbord"})

    async def channel(self, request: web.Request) -> web.Response:
        return web.json_response(
            {
                "id": request.match_info["channel"],
                "type": 0,
                "guild_id": str(GUILD),
                "name": "kortbord",
                "permission_overwrites": self.overwrites,
            }
        )

    async def guild(self, request: web.Request) -> web.Response:
        roles = [
            {"id": str(GUILD), "name": "@everyone", "permissions": str(EVERYONE.value)},
            {"id": str(BOT_ROLE), "name": "Kortbord", "permissions": str(self.bot_role.value)},
        ]
        return web.json_response({"id": str(GUILD), "owner_id": "1", "roles": roles})

    async def member(self, request: web.Request) -> web.Response:
        return web.json_response({"user": {"id": str(BOT)}, "roles": [str(BOT_ROLE)]})

    def refusal(self, request: web.Request) -> web.Response | None:
        """Discord's 403 for what the bot may not do here, as Discord words it."""
        held = self.held()
        uploads = bool(request[FILES])
        if not held.send_messages or (uploads and not held.attach_files):
            return web.json_response(MISSING, status=403)
        return None

    def kept(self, body: dict[str, Any], files: dict[str, bytes], old: list[str]) -> list[str]:
        """The message's pictures after the request: the uploads, and the old ones named."""
        named = [a.get("filename") for a in body.get("attachments", [])]
        return [f for f in named if f in files] + [f for f in old if f in named and f not in files]

    def message(
        self, channel: str, message_id: str, body: dict[str, Any], files: list[str]
    ) -> web.Response:
        unsent = [n for n in attachment_references(body) if n not in files]
        if unsent:
            text = f"Invalid Form Body: unfurled media attachment not found: {unsent[0]}"
            return web.json_response({"message": text, "code": 50035}, status=400)
        self.messages[message_id] = {"channel": channel, "body": body, "files": files}
        attachments = [{"id": str(i), "filename": f} for i, f in enumerate(files)]
        return web.json_response({"id": message_id, "attachments": attachments, **body})

    async def post(self, request: web.Request) -> web.Response:
        channel = request.match_info["channel"]
        if channel != str(CHANNEL) and channel not in self.threads:
            return web.json_response({"message": "Unknown Channel", "code": 10003}, status=404)
        refused = self.refusal(request)
        if refused is not None:
            return refused
        body, files = request[BODY], request[FILES]
        return self.message(channel, self.new_id(), body, self.kept(body, files, []))

    async def edit(self, request: web.Request) -> web.Response:
        message_id = request.match_info["message"]
        if message_id not in self.messages:
            return web.json_response({"message": "Unknown Message", "code": 10008}, status=404)
        refused = self.refusal(request)
        if refused is not None:
            return refused
        body, files = request[BODY], request[FILES]
        old = self.messages[message_id]
        return self.message(old["channel"], message_id, body, self.kept(body, files, old["files"]))

    async def delete(self, request: web.Request) -> web.Response:
        if self.messages.pop(request.match_info["message"], None) is None:
            return web.json_response({"message": "Unknown Message", "code": 10008}, status=404)
        return web.Response(status=204)

    async def thread(self, request: web.Request) -> web.Response:
        if not self.held().create_private_threads:
            return web.json_response(MISSING, status=403)
        thread = self.new_id()
        self.threads.add(thread)
        return web.json_response({"id": thread, "type": 12, "name": request[BODY]["name"]})

    async def delete_thread(self, request: web.Request) -> web.Response:
        thread = request.match_info["channel"]
        if thread not in self.threads:
            return web.json_response({"message": "Unknown Channel", "code": 10003}, status=404)
        if not self.held().manage_threads:
            return web.json_response(MISSING, status=403)
        self.threads.discard(thread)
        self.messages = {k: m for k, m in self.messages.items() if m["channel"] != thread}
        return web.json_response({"id": thread, "type": 12})

    async def list_commands(self, request: web.Request) -> web.Response:
        return web.json_response(self.commands)

    async def page(self, request: web.Request) -> web.Response:
        return web.Response(text="<!doctype html><title>Kortbord</title>", content_type="text/html")

    async def config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(BOT), "demo": False})


@pytest.fixture
async def discord_api() -> AsyncIterator[tuple[StandIn, str]]:
    stand_in = StandIn()
    server = TestServer(stand_in.app(), host="127.0.0.1")
    await server.start_server()
    try:
        yield stand_in, str(server.make_url("")).rstrip("/")
    finally:
        await server.close()


async def run(address: str, **options: Any) -> tuple[bool, list[Check]]:
    said: list[Check] = []
    healthy = await doctor(TOKEN, CHANNEL, said.append, api=f"{address}/api/v10", **options)
    return healthy, said


def lines(said: list[Check]) -> dict[str, Check]:
    return {check.name: check for check in said}


def within_the_spec(stand_in: StandIn) -> None:
    checker = Contract(spec())
    assert [v for r in stand_in.requests for v in checker.check(r)] == []


async def test_every_check_passes_and_nothing_is_left_behind(
    discord_api: tuple[StandIn, str],
) -> None:
    stand_in, address = discord_api
    stand_in.bot_role = Permissions(manage_threads=True)
    healthy, said = await run(address, public_url=f"{address}/web")
    assert healthy, [c.line for c in said]
    checks = lines(said)
    assert list(checks) == [
        "log in with KORTBORD_TOKEN",
        "the bot's permissions in the channel",
        "post a Components V2 message with a picture",
        "edit it with a new picture",
        "edit it without a picture",
        "delete the message",
        "open a private thread and post in it",
        "delete the private thread",
        "slash commands",
        "Entry Point command",
        "the web table",
    ]
    assert "Attach Files" in checks["the bot's permissions in the channel"].detail
    assert checks["edit it with a new picture"].detail.endswith("shows doctor-2.png")
    assert stand_in.messages == {}  # the doctor cleaned up after itself
    assert stand_in.threads == set()
    edits = [r for r in stand_in.requests if r.method == "PATCH"]
    assert [r.files for r in edits] == [("doctor-2.png",), ()]
    within_the_spec(stand_in)


async def test_a_missing_permission_fails_with_discords_own_words(
    discord_api: tuple[StandIn, str],
) -> None:
    stand_in, address = discord_api
    deny = Permissions(attach_files=True).value
    stand_in.overwrites = [{"id": str(BOT_ROLE), "type": 0, "allow": "0", "deny": str(deny)}]
    healthy, said = await run(address)
    assert not healthy
    checks = lines(said)
    permissions = checks["the bot's permissions in the channel"]
    assert not permissions.ok
    assert permissions.detail == "missing Attach Files in #kortbord"
    posted = checks["post a Components V2 message with a picture"]
    assert posted.line == (
        "FAIL  post a Components V2 message with a picture:"
        " 403 Forbidden (error code: 50013): Missing Permissions"
    )
    assert checks["edit it with a new picture"].detail == "not tried: no message was posted"
    assert checks["open a private thread and post in it"].ok
    left = checks["delete the private thread"]
    assert left.skipped
    assert "needs Manage Threads" in left.detail
    assert checks["the web table"].skipped
    # the message in the channel is gone; the thread, left, keeps its own
    assert [m["channel"] for m in stand_in.messages.values()] == list(stand_in.threads)
    within_the_spec(stand_in)


async def test_commands_not_synced_and_a_bad_token_are_said(
    discord_api: tuple[StandIn, str],
) -> None:
    stand_in, address = discord_api
    stand_in.commands = [c for c in stand_in.commands if c["name"] != "dagens" and c["type"] != 4]
    healthy, said = await run(address, public_url=f"{address}/web")
    assert not healthy
    checks = lines(said)
    assert checks["slash commands"].detail == "not registered: /dagens (run kortbord sync)"
    assert not checks["Entry Point command"].ok
    said.clear()
    healthy = await doctor("wrong", CHANNEL, said.append, api=f"{address}/api/v10")
    assert not healthy
    assert [c.line for c in said] == [
        "FAIL  log in with KORTBORD_TOKEN: 401 Unauthorized (error code: 0): 401: Unauthorized"
    ]


@pytest.fixture
def threaded_api() -> Iterator[tuple[StandIn, str]]:
    """The stand-in on a loop of its own, for the command line (which runs its own loop)."""
    stand_in = StandIn()
    loop = asyncio.new_event_loop()
    started = threading.Event()
    server = TestServer(stand_in.app(), host="127.0.0.1")

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.start_server())
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    started.wait()
    try:
        yield stand_in, str(server.make_url("")).rstrip("/")
    finally:
        asyncio.run_coroutine_threadsafe(server.close(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def test_kortbord_doctor_prints_a_line_per_check_and_exits_1_on_a_failure(
    threaded_api: tuple[StandIn, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stand_in, address = threaded_api
    monkeypatch.setenv("KORTBORD_TOKEN", TOKEN)
    monkeypatch.setenv("KORTBORD_PUBLIC_URL", f"{address}/web")
    monkeypatch.chdir(Path(__file__).parent)  # no .env here
    deny = Permissions(attach_files=True).value
    stand_in.overwrites = [{"id": str(BOT_ROLE), "type": 0, "allow": "0", "deny": str(deny)}]
    code = main(["doctor", str(CHANNEL), "--api", f"{address}/api/v10"])
    out = capsys.readouterr().out
    assert code == 1
    assert "FAIL  the bot's permissions in the channel: missing Attach Files in #kortbord" in out
    assert "403 Forbidden (error code: 50013): Missing Permissions" in out
    assert out.splitlines()[-1] == "some checks failed (FAIL above)"
    stand_in.overwrites = []
    stand_in.bot_role = Permissions(manage_threads=True)
    assert main(["doctor", str(CHANNEL), "--api", f"{address}/api/v10"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "every check passed"
