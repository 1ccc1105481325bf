"""Who is at the web table: Discord's OAuth2 code exchange, and the bot's own sessions.

The page gets a one-time code from Discord (the Embedded App SDK's ``authorize``) and posts it to
the bot, which exchanges it at Discord's token endpoint with the application's id and client
secret and asks Discord who the token belongs to. Only then does the bot issue its own session:
a random token (``secrets``), bound to that member's id, valid for ``SESSION_SECONDS``, kept in
memory. The WebSocket takes nothing else as proof of who a member is; the page's word is never
trusted. The client secret is never logged nor sent anywhere but to Discord's token endpoint.

Discord is reached through an injectable ``Fetch`` function, so tests run against a fake Discord
and never leave the machine.
"""

from __future__ import annotations

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


@dataclass(slots=True)
class _Issued:
    user: WebUser
    expires: float


class IssuedSessions:
    """The sessions the bot issued, in memory: a restart signs every page in again (the page
    does so by itself, through Discord)."""

    def __init__(self, now: Callable[[], float], lifetime: float = SESSION_SECONDS) -> None:
        self.now = now
        self.lifetime = lifetime
        self._issued: dict[str, _Issued] = {}

    def issue(self, user: WebUser) -> str:
        """A new session for ``user``."""
        self._forget_expired()
        token = secrets.token_urlsafe(32)
        self._issued[token] = _Issued(user, self.now() + self.lifetime)
        return token

    def user_of(self, token: object) -> WebUser | None:
        """The member a session was issued to; None for one the bot never issued or that
        expired."""
        if not isinstance(token, str):
            return None
        issued = self._issued.get(token)
        if issued is None:
            return None
        if issued.expires <= self.now():
            del self._issued[token]
            return None
        return issued.user

    def _forget_expired(self) -> None:
        now = self.now()
        for token in [t for t, i in self._issued.items() if i.expires <= now]:
            del self._issued[token]


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
