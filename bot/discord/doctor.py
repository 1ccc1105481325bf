"""``kortbord doctor CHANNEL``: after a deploy, checks on real Discord what the bot will do there.

With the bot's token it logs in over HTTP only (no gateway: it costs none of the daily logins and
runs beside a running bot) and, in the channel named, checks in turn:

- the bot's own permissions there, computed as Discord does (the server's roles, then the
  channel's overwrites) against every permission a feature uses (``permissions.EVERY``);
- a Components V2 message with a picture (uploaded with the request that names it), the message
  edited with a new picture, then edited without one, as a table's message is;
- a private thread opened (as a table of the day's), a message posted in it, and the thread
  deleted;
- the slash commands (globally, and on ``KORTBORD_DEV_GUILD`` when set) and the Entry Point
  command (the Activity's Launch) registered by ``kortbord sync``;
- when ``KORTBORD_PUBLIC_URL`` is set, the web table fetched through it, answering with the
  application's client id.

Each check prints one line, ``ok`` or ``FAIL`` with Discord's own words for a refusal (``403
Forbidden (error code: 50013): Missing Permissions``). What it posted is deleted at the end
whatever failed; a thread is deleted only when the bot holds Manage Threads, which Discord asks
for that and no feature uses (otherwise the line says the thread is left: private, it archives
itself after an hour). Exit 0 only when every check passed.
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from PIL import Image, ImageDraw

from bot.discord import permissions
from bot.discord.cogs.admin import AdminCog
from bot.discord.cogs.daily import DailyCog
from bot.discord.cogs.info import InfoCog
from bot.discord.cogs.tables import TablesCog
from bot.discord.commands_sync import DISCORD_API, ENTRY_POINT
from bot.i18n import catalog

COMPONENTS_V2 = 1 << 15
"""The message flag IS_COMPONENTS_V2."""
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({10, 11, 12})
SLASH = 1
SLASH_COMMANDS: tuple[str, ...] = tuple(
    command.name
    for cog in (TablesCog, InfoCog, DailyCog, AdminCog)
    for command in cog.__cog_app_commands__
)
"""The slash commands ``kortbord sync`` registers, by their (Swedish) names."""
RETRIES = 3
LONGEST_WAIT = 10.0
"""Seconds the doctor waits at most on a rate limit before it asks again."""


class Refused(Exception):
    """Discord refused a request; ``str`` is Discord's own words, as discord.py writes them."""

    def __init__(self, status: int, reason: str, body: Any) -> None:
        self.status = status
        self.code = body.get("code", 0) if isinstance(body, dict) else 0
        message = body.get("message", "") if isinstance(body, dict) else str(body or "")
        super().__init__(f"{status} {reason} (error code: {self.code}): {message}")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    skipped: bool = False

    @property
    def line(self) -> str:
        mark = "skip" if self.skipped else "ok" if self.ok else "FAIL"
        return f"{mark:<4}  {self.name}: {self.detail}"


@dataclass
class Discord:
    """Discord's HTTP API with the bot's token: JSON in and out, pictures as multipart."""

    session: aiohttp.ClientSession
    token: str
    api: str = DISCORD_API

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        pictures: Mapping[str, bytes] | None = None,
    ) -> Any:
        headers = {"Authorization": f"Bot {self.token}", "User-Agent": "DiscordBot (kortbord, 0.1)"}
        for _ in range(RETRIES):
            data: aiohttp.FormData | None = None
            if pictures is not None:
                data = aiohttp.FormData()
                data.add_field("payload_json", json.dumps(body), content_type="application/json")
                for index, (name, png) in enumerate(pictures.items()):
                    data.add_field(f"files[{index}]", png, filename=name, content_type="image/png")
            async with self.session.request(
                method,
                f"{self.api}{path}",
                headers=headers,
                json=body if data is None and body is not None else None,
                data=data,
            ) as response:
                text = await response.text()
                answer = json.loads(text) if text.strip() else None
                if response.status == 429 and isinstance(answer, dict):
                    await asyncio.sleep(min(float(answer.get("retry_after", 1.0)), LONGEST_WAIT))
                    continue
                if response.status >= 300:
                    raise Refused(response.status, response.reason or "", answer)
                return answer
        raise Refused(429, "Too Many Requests", {"message": "rate limited, try again later"})


def channel_permissions(
    guild: Mapping[str, Any], member: Mapping[str, Any], channel: Mapping[str, Any]
) -> discord.Permissions:
    """The member's permissions in the channel, as Discord computes them: the @everyone role
    and the member's roles (all of them with Administrator, or as the server's owner), then
    the channel's overwrites for @everyone, for the member's roles, and for the member."""
    guild_id = str(guild["id"])
    user_id = str(member["user"]["id"])
    if str(guild.get("owner_id")) == user_id:
        return discord.Permissions.all()
    roles = {str(role["id"]): int(role["permissions"]) for role in guild.get("roles", [])}
    held = {str(role) for role in member.get("roles", [])}
    value = roles.get(guild_id, 0)
    for role in held:
        value |= roles.get(role, 0)
    if value & discord.Permissions(administrator=True).value:
        return discord.Permissions.all()
    overwrites = {str(o["id"]): o for o in channel.get("permission_overwrites") or []}

    def apply(value: int, allow: int, deny: int) -> int:
        return (value & ~deny) | allow

    everyone = overwrites.get(guild_id)
    if everyone is not None:
        value = apply(value, int(everyone.get("allow") or 0), int(everyone.get("deny") or 0))
    allow = deny = 0
    for role in held:
        overwrite = overwrites.get(role)
        if overwrite is not None:
            allow |= int(overwrite.get("allow") or 0)
            deny |= int(overwrite.get("deny") or 0)
    value = apply(value, allow, deny)
    own = overwrites.get(user_id)
    if own is not None:
        value = apply(value, int(own.get("allow") or 0), int(own.get("deny") or 0))
    return discord.Permissions(value)


def picture(label: str) -> bytes:
    """A small PNG saying ``label``: what the doctor uploads."""
    image = Image.new("RGB", (320, 96), (21, 101, 52))
    ImageDraw.Draw(image).text((16, 36), label, fill=(255, 255, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def message(text: str, picture_name: str | None) -> dict[str, Any]:
    """A Components V2 message as a table's: a container with text, and the picture named."""
    items: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(text)]
    if picture_name is not None:
        gallery = discord.MediaGalleryItem(f"attachment://{picture_name}")
        items.append(discord.ui.MediaGallery(gallery))
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.Container(*items))
    components = view.to_components()  # type: ignore[no-untyped-call]
    body: dict[str, Any] = {"flags": COMPONENTS_V2, "components": components}
    body["attachments"] = [] if picture_name is None else [{"id": 0, "filename": picture_name}]
    return body


def _names(names: list[str]) -> str:
    texts = catalog("en")
    return ", ".join(texts.text(f"permission.{name}") for name in names)


def _files(answer: Any) -> list[str]:
    if not isinstance(answer, dict):
        return []
    return [str(a.get("filename")) for a in answer.get("attachments") or []]


@dataclass
class Doctor:
    http: Discord
    channel_id: int
    say: Callable[[Check], None]
    public_url: str | None = None
    dev_guild: int | None = None
    checks: list[Check] = field(default_factory=list)

    def tell(self, name: str, ok: bool, detail: str, *, skipped: bool = False) -> bool:
        check = Check(name, ok, detail, skipped)
        self.checks.append(check)
        self.say(check)
        return ok

    @property
    def healthy(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    async def run(self) -> bool:
        """Every check, in order; True when all passed."""
        try:
            me = await self.http.request("GET", "/users/@me")
            app = await self.http.request("GET", "/oauth2/applications/@me")
        except (Refused, aiohttp.ClientError) as error:
            self.tell("log in with KORTBORD_TOKEN", False, str(error))
            return False
        self.tell("log in with KORTBORD_TOKEN", True, f"the bot is {me.get('username')}")
        held = await self.check_permissions(me)
        await self.check_messages()
        await self.check_thread(held)
        await self.check_commands(str(app["id"]))
        await self.check_web(str(app["id"]))
        return self.healthy

    async def check_permissions(self, me: Mapping[str, Any]) -> discord.Permissions | None:
        name = "the bot's permissions in the channel"
        try:
            channel = await self.http.request("GET", f"/channels/{self.channel_id}")
            if channel.get("type") in THREAD_TYPES or channel.get("guild_id") is None:
                self.tell(name, False, "name a server's text channel (not a thread or a DM)")
                return None
            guild_id = channel["guild_id"]
            guild = await self.http.request("GET", f"/guilds/{guild_id}")
            member = await self.http.request("GET", f"/guilds/{guild_id}/members/{me['id']}")
        except (Refused, aiohttp.ClientError) as error:
            self.tell(name, False, str(error))
            return None
        held = channel_permissions(guild, member, channel)
        lacking = permissions.missing(held, permissions.EVERY)
        where = f"#{channel.get('name')}"
        if lacking:
            self.tell(name, False, f"missing {_names(lacking)} in {where}")
        else:
            self.tell(name, True, f"{_names(list(permissions.EVERY))} in {where}")
        return held

    async def check_messages(self) -> None:
        """Posts, edits with a new picture, edits without one, and deletes the message."""
        where = f"/channels/{self.channel_id}/messages"
        posted: str | None = None
        try:
            steps = (
                (
                    "post a Components V2 message with a picture",
                    "POST",
                    "doctor-1.png",
                    "Kortbord doctor: a message with a picture",
                ),
                (
                    "edit it with a new picture",
                    "PATCH",
                    "doctor-2.png",
                    "Kortbord doctor: the same message, a new picture",
                ),
                ("edit it without a picture", "PATCH", None, "Kortbord doctor: no picture now"),
            )
            for name, method, picture_name, text in steps:
                if method == "PATCH" and posted is None:
                    self.tell(name, False, "not tried: no message was posted")
                    continue
                pictures = None if picture_name is None else {picture_name: picture(text)}
                path = where if posted is None else f"{where}/{posted}"
                try:
                    answer = await self.http.request(
                        method, path, message(text, picture_name), pictures
                    )
                except (Refused, aiohttp.ClientError) as error:
                    self.tell(name, False, str(error))
                    continue
                posted = posted or str(answer["id"])
                files = _files(answer)
                expected = [] if picture_name is None else [picture_name]
                if files != expected:
                    self.tell(name, False, f"Discord kept the pictures {files}, not {expected}")
                else:
                    shown = f"shows {picture_name}" if picture_name else "shows no picture"
                    self.tell(name, True, f"message {posted} {shown}")
        finally:
            if posted is not None:
                try:
                    await self.http.request("DELETE", f"{where}/{posted}")
                    self.tell("delete the message", True, f"message {posted} deleted")
                except (Refused, aiohttp.ClientError) as error:
                    self.tell("delete the message", False, f"message {posted}: {error}")

    async def check_thread(self, held: discord.Permissions | None) -> None:
        name = "open a private thread and post in it"
        try:
            thread = await self.http.request(
                "POST",
                f"/channels/{self.channel_id}/threads",
                {
                    "name": "kortbord doctor",
                    "type": PRIVATE_THREAD,
                    "auto_archive_duration": 60,
                    "invitable": False,
                },
            )
        except (Refused, aiohttp.ClientError) as error:
            self.tell(name, False, str(error))
            return
        thread_id = str(thread["id"])
        try:
            await self.http.request(
                "POST",
                f"/channels/{thread_id}/messages",
                message("Kortbord doctor: a private thread, as a table of the day's", None),
            )
            self.tell(name, True, f"thread {thread_id}")
        except (Refused, aiohttp.ClientError) as error:
            self.tell(name, False, f"thread {thread_id}: {error}")
        finally:
            await self.delete_thread(thread_id, held)

    async def delete_thread(self, thread_id: str, held: discord.Permissions | None) -> None:
        name = "delete the private thread"
        if held is not None and not held.manage_threads:
            self.tell(
                name,
                True,
                f"left thread {thread_id}: deleting a thread needs Manage Threads, which no"
                " feature uses; it is private (only members with Manage Threads see it) and"
                " archives itself after an hour",
                skipped=True,
            )
            return
        try:
            await self.http.request("DELETE", f"/channels/{thread_id}")
            self.tell(name, True, f"thread {thread_id} deleted")
        except (Refused, aiohttp.ClientError) as error:
            self.tell(name, False, f"thread {thread_id}: {error}")

    async def check_commands(self, application_id: str) -> None:
        name = "slash commands"
        places = [f"/applications/{application_id}/commands"]
        if self.dev_guild is not None:
            places.append(f"/applications/{application_id}/guilds/{self.dev_guild}/commands")
        registered: list[dict[str, Any]] = []
        try:
            for place in places:
                registered += await self.http.request("GET", place)
        except (Refused, aiohttp.ClientError) as error:
            self.tell(name, False, str(error))
            return
        slash = {c.get("name") for c in registered if c.get("type", SLASH) == SLASH}
        lacking = [command for command in SLASH_COMMANDS if command not in slash]
        if lacking:
            self.tell(name, False, f"not registered: /{', /'.join(lacking)} (run kortbord sync)")
        else:
            self.tell(name, True, f"/{', /'.join(SLASH_COMMANDS)}")
        entry = [c for c in registered if c.get("type") == ENTRY_POINT]
        if entry:
            self.tell("Entry Point command", True, f"/{entry[0].get('name')} (the Activity)")
        elif self.public_url is None:
            self.tell(
                "Entry Point command",
                True,
                "none, and no web table (KORTBORD_PUBLIC_URL)",
                skipped=True,
            )
        else:
            self.tell(
                "Entry Point command",
                False,
                "none: enable Activities in the Developer Portal, then run kortbord sync",
            )

    async def check_web(self, application_id: str) -> None:
        name = "the web table"
        if self.public_url is None:
            self.tell(name, True, "KORTBORD_PUBLIC_URL is not set", skipped=True)
            return
        base = self.public_url.rstrip("/")
        session = self.http.session
        try:
            async with session.get(f"{base}/") as page:
                if page.status != 200:
                    self.tell(name, False, f"{base}/ answered {page.status} {page.reason}")
                    return
            async with session.get(f"{base}/api/config") as answer:
                config = await answer.json(content_type=None) if answer.status == 200 else None
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            self.tell(name, False, f"{base}/: {error or type(error).__name__}")
            return
        client_id = config.get("client_id") if isinstance(config, dict) else None
        if client_id is not None and str(client_id) != application_id:
            self.tell(
                name,
                False,
                f"{base}/ signs in to application {client_id}, not this bot's {application_id}",
            )
            return
        self.tell(name, True, f"{base}/ answers, for application {application_id}")


async def doctor(
    token: str,
    channel_id: int,
    say: Callable[[Check], None],
    *,
    public_url: str | None = None,
    dev_guild: int | None = None,
    api: str = DISCORD_API,
) -> bool:
    """Runs every check against Discord at ``api``; True when all passed."""
    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        checks = Doctor(
            Discord(session, token, api),
            channel_id,
            say,
            public_url=public_url,
            dev_guild=dev_guild,
        )
        return await checks.run()
