"""Who is at the web table: Discord's OAuth2 code exchange, and the bot's own sessions.

The page gets a one-time code from Discord (the Embedded App SDK's ``authorize``) and posts it to
the bot, which exchanges it at Discord's token endpoint with the application's id and client
secret and asks Discord who the token belongs to. Only then does the bot issue its own session:
a token bound to that member's id and signed by the bot (``IssuedSessions``), valid for
``SESSION_SECONDS``. The WebSocket takes nothing else as proof of who a member is; the page's
word is never trusted. The client secret is never logged nor sent anywhere but to Discord's
token endpoint (the sessions' key is derived from it, never the secret itself).

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
TOKEN_URL = "https://discord.com/api/oauth2/token"
USER_URL = "https://discord.com/api/users/@me"
FETCH_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class WebUser:
    """A member as the web table knows them: Discord's user id and the name shown at tables."""

    user_id: int
    name: str

    def json(self) -> Member:
        return {"id": str(self.user_id), "name": self.name}


class IssuedSessions:
    """The sessions the bot issued: a member's id, name and expiry, signed (HMAC-SHA256) with
    ``key``. Every process that knows the key accepts them, so a page signed in by one process
    of a cluster is taken by any (the key is derived from the application's client secret,
    which every process has: ``key_from``). Without a key a process signs with one of its own,
    and a restart signs every page in again (the page does so by itself, through Discord)."""

    def __init__(
        self, now: Callable[[], float], lifetime: float = SESSION_SECONDS, key: bytes | None = None
    ) -> None:
        self.now = now
        self.lifetime = lifetime
        self._key = key if key is not None else secrets.token_bytes(32)

    def __repr__(self) -> str:  # never the key
        return "IssuedSessions()"

    def issue(self, user: WebUser) -> str:
        """A new session for ``user``."""
        name = base64.urlsafe_b64encode(user.name.encode()).decode().rstrip("=")
        body = f"{user.user_id}.{int(self.now() + self.lifetime)}.{name}"
        return f"{body}.{self._sign(body)}"

    def user_of(self, token: object) -> WebUser | None:
        """The member a session was issued to; None for one the bot never issued (or whose
        signature does not hold) or that expired."""
        if not isinstance(token, str) or len(token) > 1024:
            return None
        body, _, signature = token.rpartition(".")
        if not hmac.compare_digest(signature.encode(), self._sign(body).encode()):
            return None
        user_id, expires, name = body.split(".")
        if int(expires) <= self.now():
            return None
        padded = name + "=" * (-len(name) % 4)
        return WebUser(int(user_id), base64.urlsafe_b64decode(padded).decode())

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
    """The OAuth2 code grant for the Activity (scope ``identify``)."""

    def __init__(self, client_id: str, client_secret: str, fetch: Fetch) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._fetch = fetch

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
        status, body = await self._call("POST", TOKEN_URL, headers, form)
        if status in (400, 401) or not isinstance(body, dict):
            raise LoginError("bad_code")
        access = body.get("access_token")
        if status != 200 or not isinstance(access, str):
            raise LoginError("discord")
        status, user = await self._call("GET", USER_URL, {"Authorization": f"Bearer {access}"})
        if status != 200 or not isinstance(user, dict):
            raise LoginError("discord")
        user_id = user.get("id")
        if not isinstance(user_id, str) or not user_id.isdigit():
            raise LoginError("discord")
        name = user.get("global_name") or user.get("username") or user_id
        return access, WebUser(int(user_id), str(name))

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
