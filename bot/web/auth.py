"""Who is at the web table: Discord's OAuth2 code exchange, and the bot's own sessions.

The page gets a one-time code from Discord (the Embedded App SDK's ``authorize``) and posts it to
the bot, which exchanges it at Discord's token endpoint with the application's id and client
secret and asks Discord who the token belongs to. Only then does the bot issue its own session:
a token bound to that member's id and signed by the bot (``IssuedSessions``), valid for
``SESSION_SECONDS``. The WebSocket takes nothing else as proof of who a member is; the page's
word is never trusted. The client secret is never logged nor sent anywhere but to Discord's
token endpoint (the sessions' key is derived from it, never the secret itself).

The channel is the member's Discord context too, never an id the page names: inside Discord the
page sends the Activity's instance id with the code, and the bot asks Discord, with its own bot
token, for that instance (``GET /applications/{id}/activity-instances/{instance_id}``: its
location's channel and the users in it). The session is bound to the instance's channel only when
the member is among those users; otherwise it has no channel (the member sees their own tables).

Discord is reached through an injectable ``Fetch`` function, so tests run against a fake Discord
and never leave the machine.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.web.frames import Member

log = logging.getLogger(__name__)

SESSION_SECONDS = 12 * 3600
"""How long a session the bot issued stays valid (a long evening of cards)."""
API = "https://discord.com/api"
TOKEN_URL = f"{API}/oauth2/token"
USER_URL = f"{API}/users/@me"
FETCH_SECONDS = 10.0
MAX_INSTANCE_ID = 100
INSTANCE_ID_CHARACTERS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
)
"""An Activity instance id goes into a URL's path: only these characters, so it names nothing
else."""


@dataclass(frozen=True, slots=True)
class WebUser:
    """A member as the web table knows them: Discord's user id and the name shown at tables."""

    user_id: int
    name: str

    def json(self) -> Member:
        return {"id": str(self.user_id), "name": self.name}


@dataclass(frozen=True, slots=True)
class Place:
    """Where a session was issued: a channel and its server (None where it is not known)."""

    channel_id: int
    guild_id: int | None


class IssuedSessions:
    """The sessions the bot issued: a member's id, name, channel and expiry, signed
    (HMAC-SHA256) with ``key``. Every process that knows the key accepts them, so a page signed
    in by one process of a cluster is taken by any (the key is derived from the application's
    client secret, which every process has: ``key_from``). Without a key a process signs with
    one of its own, and a restart signs every page in again (the page does so by itself,
    through Discord)."""

    def __init__(
        self, now: Callable[[], float], lifetime: float = SESSION_SECONDS, key: bytes | None = None
    ) -> None:
        self.now = now
        self.lifetime = lifetime
        self._key = key if key is not None else secrets.token_bytes(32)

    def __repr__(self) -> str:  # never the key
        return "IssuedSessions()"

    def issue(
        self, user: WebUser, channel_id: int | None = None, guild_id: int | None = None
    ) -> str:
        """A new session for ``user``, in ``channel_id`` (of server ``guild_id``) when Discord
        said the member is there (the Activity's instance), or the demo's picker did."""
        name = base64.urlsafe_b64encode(user.name.encode()).decode().rstrip("=")
        channel = "" if channel_id is None else str(channel_id)
        guild = "" if channel_id is None or guild_id is None else str(guild_id)
        body = f"{user.user_id}.{int(self.now() + self.lifetime)}.{channel}.{guild}.{name}"
        return f"{body}.{self._sign(body)}"

    def user_of(self, token: object) -> WebUser | None:
        """The member a session was issued to; None for one the bot never issued (or whose
        signature does not hold) or that expired."""
        issued = self._valid(token)
        return None if issued is None else issued[0]

    def channel_of(self, token: object) -> int | None:
        """The channel a session was issued in; None for none (or no valid session)."""
        place = self.place_of(token)
        return None if place is None else place.channel_id

    def place_of(self, token: object) -> Place | None:
        """The channel and server a session was issued in; None for none."""
        issued = self._valid(token)
        return None if issued is None else issued[1]

    def _valid(self, token: object) -> tuple[WebUser, Place | None] | None:
        if not isinstance(token, str) or len(token) > 1024:
            return None
        body, _, signature = token.rpartition(".")
        if not hmac.compare_digest(signature.encode(), self._sign(body).encode()):
            return None
        user_id, expires, channel, guild, name = body.split(".")
        if int(expires) <= self.now():
            return None
        padded = name + "=" * (-len(name) % 4)
        user = WebUser(int(user_id), base64.urlsafe_b64decode(padded).decode())
        place = Place(int(channel), int(guild) if guild else None) if channel else None
        return user, place

    def _sign(self, body: str) -> str:
        digest = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def key_from(client_secret: str) -> bytes:
    """The sessions' signing key, derived from the client secret (never the secret itself)."""
    return hmac.new(client_secret.encode(), b"kortbord web sessions", hashlib.sha256).digest()


Fetch = Callable[
    [str, str, Mapping[str, str], Mapping[str, str] | None], Awaitable[tuple[int, object]]
]
"""``fetch(method, url, headers, form)`` -> ``(status, JSON body)``: an HTTP request to Discord."""


class LoginError(Exception):
    """The code exchange failed: ``code`` names why (``bad_code``: Discord refused the code;
    ``discord``: Discord did not answer sensibly)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class DiscordLogin:
    """The OAuth2 code grant for the Activity (scope ``identify``), and the Activity instance's
    channel (with the bot's token; without one, no channel is ever told)."""

    def __init__(
        self,
        client_id: str,
        client_secret: str,
        fetch: Fetch,
        *,
        bot_token: str | None = None,
        api: str = API,
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._fetch = fetch
        self.api = api

    def __repr__(self) -> str:  # never the secret, even in a traceback's locals
        return f"DiscordLogin(client_id={self.client_id!r})"

    async def exchange(self, code: str) -> tuple[str, WebUser]:
        """Discord's access token for ``code`` and the member it belongs to."""
        form = {
            "client_id": self.client_id,
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        status, body = await self._call("POST", f"{self.api}/oauth2/token", headers, form)
        if status in (400, 401) or not isinstance(body, dict):
            raise LoginError("bad_code")
        access = body.get("access_token")
        if status != 200 or not isinstance(access, str):
            raise LoginError("discord")
        authorization = {"Authorization": f"Bearer {access}"}
        status, user = await self._call("GET", f"{self.api}/users/@me", authorization)
        if status != 200 or not isinstance(user, dict):
            raise LoginError("discord")
        user_id = user.get("id")
        if not isinstance(user_id, str) or not user_id.isdigit():
            raise LoginError("discord")
        name = user.get("global_name") or user.get("username") or user_id
        return access, WebUser(int(user_id), str(name))

    async def instance_channel(self, instance_id: object, user_id: int) -> Place | None:
        """The channel (and its server) of the Activity's instance ``instance_id``, when Discord
        says the member ``user_id`` is in it; None otherwise (no such instance, not there, no
        bot token, or Discord not answering sensibly)."""
        if (
            self._bot_token is None
            or not isinstance(instance_id, str)
            or not 0 < len(instance_id) <= MAX_INSTANCE_ID
            or not all(c in INSTANCE_ID_CHARACTERS for c in instance_id)
        ):
            return None
        url = f"{self.api}/applications/{self.client_id}/activity-instances/{instance_id}"
        try:
            status, body = await self._call("GET", url, {"Authorization": f"Bot {self._bot_token}"})
        except LoginError:
            return None
        if status != 200 or not isinstance(body, dict):
            log.info("activity instance %s: Discord answered %d", instance_id, status)
            return None
        users, location = body.get("users"), body.get("location")
        if not isinstance(users, list) or str(user_id) not in users:
            return None
        channel = location.get("channel_id") if isinstance(location, dict) else None
        if not isinstance(channel, str) or not channel.isascii() or not channel.isdigit():
            return None
        guild = location.get("guild_id") if isinstance(location, dict) else None
        if not isinstance(guild, str) or not guild.isascii() or not guild.isdigit():
            return Place(int(channel), None)
        return Place(int(channel), int(guild))

    async def _call(
        self,
        method: str,
        url: str,
        headers: Mapping[str, str],
        form: Mapping[str, str] | None = None,
    ) -> tuple[int, object]:
        try:
            return await self._fetch(method, url, headers, form)
        except (OSError, TimeoutError, ValueError) as error:
            log.warning("Discord did not answer the sign-in (%s %s): %s", method, url, error)
            raise LoginError("discord") from None


async def http_fetch(
    method: str, url: str, headers: Mapping[str, str], form: Mapping[str, str] | None
) -> tuple[int, object]:
    """The real ``Fetch``: one request with aiohttp, its JSON body (None if it has none)."""
    import aiohttp

    timeout = aiohttp.ClientTimeout(total=FETCH_SECONDS)
    try:
        async with (
            aiohttp.ClientSession(timeout=timeout) as client,
            client.request(method, url, headers=dict(headers), data=form) as response,
        ):
            try:
                body: object = await response.json(content_type=None)
            except ValueError:
                body = None
            return response.status, body
    except aiohttp.ClientError as error:
        raise OSError(str(error)) from None
