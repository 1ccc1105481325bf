"""The web table's HTTP server (aiohttp, in the bot's process and on its event loop).

It serves the built client (``bot/web/client/dist``; each page with its words and colours in it,
``bot.web.protocol.page_with_catalog``), the sign-in (``/api/token``: Discord's code
exchange, and the Activity instance's channel; ``/api/demo/login``: the demo's member picker,
and its channel, in the demo only), the client's
configuration, and the WebSocket (``/ws``, ``bot.web.hub``). Inside Discord every request comes
through Discord's proxy under ``/.proxy/``, so every path is served with and without that
prefix. On a cluster (the bot as several processes) a page is served by the process that holds
its table, whichever one it reached (``bot.web.cluster``). Every answer carries a strict Content
Security Policy: the page loads only its own files.
The protocol is written in ``bot.web.protocol``.
"""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

from bot.i18n import LANGS, catalog
from bot.sessions import SessionManager
from bot.settings import Settings
from bot.storage import StorageError
from bot.web.auth import (
    DiscordLogin,
    Fetch,
    IssuedSessions,
    LoginError,
    WebUser,
    http_fetch,
    key_from,
)
from bot.web.cluster import ClusterRelay
from bot.web.frames import Config
from bot.web.hub import WebHub
from bot.web.protocol import page_with_catalog

log = logging.getLogger(__name__)

DIST = Path(__file__).resolve().parent / "client" / "dist"
PREFIXES = ("", "/.proxy")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; "
    "connect-src 'self'; base-uri 'none'; object-src 'none'; form-action 'none'"
)
MAX_BODY = 4096
"""The largest request body the API takes (a code or an id)."""
MISSING_CLIENT = """<!doctype html><meta charset="utf-8"><title>Kortbord</title>
<p>The web table has not been built: run <code>./dev run</code> (Node 20 and npm build it).</p>
"""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class WebApp:
    """The web table's routes, around a hub and the ways members sign in."""

    def __init__(
        self,
        hub: WebHub,
        issued: IssuedSessions,
        *,
        client_id: str,
        login: DiscordLogin | None = None,
        demo_members: list[WebUser] | None = None,
        language: str = "sv",
        dist: Path = DIST,
    ) -> None:
        """``client_id``: the application's id. ``login``: Discord's code exchange; None when no
        client secret is set. ``demo_members``: the members the demo's picker offers; None
        outside the demo (no picker, no demo login).
        """
        self.hub = hub
        self.issued = issued
        self.client_id = client_id
        self.login = login
        self.demo_members = demo_members
        self.language = language
        self.dist = dist

    def application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_security_headers])
        for prefix in PREFIXES:
            app.router.add_get(f"{prefix}/api/config", self.config)
            app.router.add_post(f"{prefix}/api/token", self.token)
            app.router.add_post(f"{prefix}/api/demo/login", self.demo_login)
            app.router.add_get(f"{prefix}/ws", self.hub.serve)
            app.router.add_get(f"{prefix}/", self.page)
            app.router.add_get(f"{prefix}/favicon.ico", _no_icon)  # asked for by every browser
            app.router.add_get(prefix + "/{name:[A-Za-z0-9_.-]+\\.html}", self.page)
            app.router.add_get(prefix + "/assets/{name:[A-Za-z0-9_.-]+}", self.asset)
        return app

    # --- the client's files ---------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info.get("name", "index.html")
        path = self.dist / name
        if name == "index.html" and not path.is_file():
            return web.Response(text=MISSING_CLIENT, content_type="text/html", status=503)
        # Other pages (the SDK's mock, for tests outside Discord) only in the demo.
        if not path.is_file() or (name != "index.html" and self.demo_members is None):
            raise web.HTTPNotFound()
        # The page's words and colours go in the page itself: no request to wait for, no page
        # without them (protocol.page_with_catalog).
        html = page_with_catalog(path.read_text(encoding="utf-8"))
        return web.Response(
            text=html, content_type="text/html", headers={"Cache-Control": "no-cache"}
        )

    async def asset(self, request: web.Request) -> web.StreamResponse:
        path = self.dist / "assets" / request.match_info["name"]
        if not path.is_file():
            raise web.HTTPNotFound()
        # Vite names assets by their content: a new build has new names.
        return web.FileResponse(path, headers={"Cache-Control": "public, max-age=31536000"})

    # --- the API --------------------------------------------------------------------------------

    async def config(self, request: web.Request) -> web.Response:
        body: Config = {"client_id": self.client_id, "demo": self.demo_members is not None}
        if self.demo_members is not None:
            body["members"] = [m.json() for m in self.demo_members]
        return web.json_response(body)

    async def token(self, request: web.Request) -> web.Response:
        """Discord's code, exchanged for Discord's access token and the bot's own session; in
        the Activity's channel when Discord says the member is in the instance the page names
        (``instance_id``)."""
        body = await _body(request)
        code = body.get("code")
        if not isinstance(code, str) or not code or len(code) > 200:
            return self.error(request, 400, "bad_request")
        if self.login is None:
            return self.error(request, 503, "no_secret")
        try:
            access, user = await self.login.exchange(code)
        except LoginError as error:
            return self.error(request, 401 if error.code == "bad_code" else 502, error.code)
        place = await self.login.instance_channel(body.get("instance_id"), user.user_id)
        channel_id = None if place is None else place.channel_id
        log.info("web table: member %d signed in (channel %s)", user.user_id, channel_id)
        session = self.issued.issue(user, channel_id, None if place is None else place.guild_id)
        return web.json_response({"access_token": access, "session": session, "user": user.json()})

    async def demo_login(self, request: web.Request) -> web.Response:
        """The demo's member picker: a session for one of the demo's members, and nobody else."""
        if self.demo_members is None:
            return self.error(request, 404, "not_demo")
        body = await _body(request)
        user_id, channel = body.get("user_id"), body.get("channel_id")
        guild = body.get("guild_id")
        # the demo's simulated Discord has no instances: its picker names the channel
        channel_id = int(channel) if isinstance(channel, str) and channel.isdigit() else None
        guild_id = int(guild) if isinstance(guild, str) and guild.isdigit() else None
        for member in self.demo_members:
            if str(member.user_id) == user_id:
                session = self.issued.issue(member, channel_id, guild_id)
                return web.json_response({"session": session, "user": member.json()})
        return self.error(request, 404, "unknown_member")

    def error(self, request: web.Request, status: int, code: str) -> web.Response:
        """``{"error", "message"}`` in the language the page asks for (``?lang=`` or its
        ``Accept-Language``), else the bot's."""
        lang = request.query.get("lang") or _accepted(request.headers.get("Accept-Language", ""))
        texts = catalog(lang if lang in LANGS else self.language)
        body = {"error": code, "message": texts.text(f"web.error.{code}")}
        return web.json_response(body, status=status)


@web.middleware
async def _security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as error:
        error.headers["Content-Security-Policy"] = CSP
        raise
    if not response.prepared:  # a WebSocket's headers are sent by the time it ends
        response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


async def _body(request: web.Request) -> dict[str, object]:
    try:
        value = json.loads(await request.text())
    except (ValueError, UnicodeDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def _accepted(header: str) -> str:
    """The first language of an ``Accept-Language`` header (``sv-SE,sv;q=0.9`` -> ``sv``)."""
    first = header.split(",", 1)[0].strip()
    return first.split("-", 1)[0].split(";", 1)[0].lower()


class WebServer:
    """The web table listening on a port of the bot's event loop; ``stop`` closes it."""

    def __init__(self, app: WebApp, host: str, port: int) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> int:
        """Starts listening; returns the port (the one the system chose, for port 0)."""
        self._runner = web.AppRunner(self.app.application(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        addresses = self._runner.addresses
        if addresses:
            self.port = int(addresses[0][1])
        log.info("the web table listens on %s:%d", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        """Closes every page's socket (the pages come back by themselves), then the port."""
        await self.app.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class WebFace:
    """The web table as a face of the bot: started on the bot's event loop once its session
    manager exists (``Kortbord``'s ``faces``), and stopped when the bot stops, after the live
    tables were paused (so the pages show them paused)."""

    def __init__(
        self,
        settings: Settings,
        *,
        port: int | None = None,
        host: str | None = None,
        demo_members: list[WebUser] | None = None,
        fetch: Fetch = http_fetch,
        dist: Path = DIST,
    ) -> None:
        """``port``/``host``: where to listen (default: the settings'). ``demo_members``: the
        demo's member picker (a list the demo may fill once its members exist)."""
        self.settings = settings
        self.port = port if port is not None else (settings.web_port or 0)
        self.host = host or settings.web_host
        self.demo_members = demo_members
        self.fetch = fetch
        self.dist = dist
        self.hub: WebHub | None = None
        self.relay: ClusterRelay | None = None
        self._server: WebServer | None = None
        self._sessions: SessionManager | None = None

    async def start(self, sessions: SessionManager, application_id: int | None) -> None:
        settings = self.settings
        client_id = settings.client_id or (str(application_id) if application_id else "")
        secret = settings.client_secret
        login = None
        if secret is not None and client_id:
            token = settings.token.get_secret_value() if settings.token is not None else None
            login = DiscordLogin(client_id, secret.get_secret_value(), self.fetch, bot_token=token)
        elif self.demo_members is None:
            log.warning("KORTBORD_CLIENT_SECRET is not set: the web table cannot sign members in")
        # A sign-in lasts twelve hours of the wall clock, signed with a key every process of a
        # cluster derives alike.
        key = key_from(secret.get_secret_value()) if secret is not None else None
        issued = IssuedSessions(time.time, key=key)
        storage = sessions.storage
        if storage.owner is not None:  # one process of several: pages go where their table is
            self.relay = ClusterRelay(storage)
        self.hub = WebHub(
            sessions,
            issued,
            language=settings.language,
            every_table=self.demo_members is not None,
            defaults=settings,
            owners=self.relay,
        )
        sessions.add_listener(self.hub)
        self._sessions = sessions
        app = WebApp(
            self.hub,
            issued,
            client_id=client_id,
            login=login,
            demo_members=self.demo_members,
            language=settings.language,
            dist=self.dist,
        )
        self._server = WebServer(app, self.host, self.port)
        self.port = await self._server.start()
        if self.relay is not None:
            address = settings.web_address or f"http://{socket.gethostname()}:{self.port}"
            try:
                await storage.announce_web(address)
            except StorageError as error:  # the pages of this process's tables wait for it
                log.error("the web table's address %s was not announced: %s", address, error)
            else:
                log.info("the other processes reach this web table at %s", address)

    async def stop(self) -> None:
        if self._sessions is not None and self.hub is not None:  # no more frames for closed pages
            self._sessions.remove_listener(self.hub)
            self._sessions = None
        if self._server is not None:
            await self._server.stop()
            self._server = None
        if self.relay is not None:
            await self.relay.close()
