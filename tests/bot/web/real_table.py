"""The demo's stack for the web table's browser tests: the real bot on SimCord's simulated
Discord, its web face beside it with the demo's member picker, one session manager and a SQLite
database in a temporary folder, all on one event loop in a thread of its own.

The browser (Playwright's sync API) drives the page from the test's thread; everything the test
does on the bot's side (a member's slash command or click, simulated time moving, reading the
channel) runs on the stack's loop through :meth:`Stack.run`. Computer players move without a
pause, and the bot's timers run on SimCord's simulated clock (``SimulatedClock``): time moves only
when a test says so, never because the machine was slow.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sys
import threading
from collections.abc import Coroutine, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import simcord
from pydantic import SecretStr
from simcord import ChannelHandle, Env, MemberActor

from bot.discord.client import Kortbord
from bot.discord.clock import SimulatedClock
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.sessions import LiveTable
from bot.settings import Settings
from bot.web.auth import WebUser
from bot.web.server import DIST, WebFace

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "discord" / "e2e"))
from members import components, message_text, start

T = TypeVar("T")
NAMES = ("Anna", "Bo", "Cilla", "Dag")
SEED = 2026
MOCK_CODE = "mock_code"  # the code the SDK's mock answers authorize with
ACCESS_TOKEN = "discord-access-token"
MOCK_INSTANCE = "123456789012345678"  # the SDK mock's instanceId
BOT_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.the-bot-token-of-the-tests"
STEP_SECONDS = 150.0  # a bound on one step on the stack's loop, never a pause
PATIENCE = 120.0
"""Seconds of wall time ``Stack.settle`` waits for the bot's work in all: a bound for a bot that
hangs, never a pace a busy machine must keep."""
SETTLE_SECONDS = 60.0
"""Seconds of wall time SimCord gives the bot's work after a step (its ``settle_timeout``), a
bound for a bot that hangs: on a busy machine a database write alone may take 5 s. The bot's
timers wait for simulated time alone (``SimulatedClock``), so a long bound waits for none of
them."""


@dataclass
class Stack:
    """The running stack, as the tests see it."""

    loop: asyncio.AbstractEventLoop
    env: Env
    bot: Kortbord
    web: WebFace
    channel: ChannelHandle
    members: dict[str, MemberActor]
    exchanged: list[str] = field(default_factory=list)  # codes brought to Discord's token URL
    opened: list[int] = field(default_factory=list)
    secrets: int = 0  # how many times the web server started again with a new client secret

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web.port}/"

    def run(self, step: Coroutine[Any, Any, T]) -> T:
        """Runs ``step`` on the stack's loop, on the bot's clock, and waits for its result."""
        return asyncio.run_coroutine_threadsafe(self._on_the_bots_clock(step), self.loop).result(
            STEP_SECONDS
        )

    async def _on_the_bots_clock(self, step: Coroutine[Any, Any, T]) -> T:
        """``step`` with SimCord's simulated time as now, as the bot's own work reads it: a
        session call made here arms its deadlines on the clock they are checked against (on
        the wall clock, a deadline armed by a slash command hours of simulated time earlier
        would be passed at once, and the computer would act for a member)."""
        with self.env.time_context():
            return await step

    def member_id(self, name: str) -> int:
        return int(self.members[name].id)

    def table(self) -> LiveTable | None:
        return self.bot.sessions.table_in(self.channel.id)

    def live(self, table_id: int) -> LiveTable:
        table = self.bot.sessions.table_by_id(table_id)
        assert table is not None
        return table

    def end_table(self, host: str = "Anna") -> None:
        """The host ends the stack's table (a member sits at one table at a time)."""

        async def end() -> None:
            await self.bot.sessions.end(self.channel.id, self.member_id(host))
            await self.settle()

        self.run(end())

    def open_table(
        self,
        game_id: str,
        seated: tuple[str, ...] = ("Anna",),
        *,
        options: str | None = None,
        started: bool = True,
        seats: int | None = None,
    ) -> LiveTable:
        """The first of ``seated`` opens a table of ``game_id`` (of ``seats`` seats, else the
        game's default) with ``/spel ny`` in a fresh channel (the stack's channel from then on),
        the others sit down, and the host starts it with computer players in the empty seats."""
        return self.run(self._open(game_id, seated, options, started, seats))

    async def _open(
        self,
        game_id: str,
        seated: tuple[str, ...],
        options: str | None,
        started: bool,
        seats: int | None = None,
    ) -> LiveTable:
        guild = self.channel.guild
        assert guild is not None
        self.channel = guild.create_text_channel(f"{game_id}-{len(self.opened)}")
        host = self.members[seated[0]]
        filled: dict[str, str | int] = {"spel": game_id}
        if options is not None:
            filled["alternativ"] = options
        if seats is not None:
            filled["platser"] = seats
        opened = await host.slash(self.channel, "spel ny", **filled)
        message = opened.response
        assert message is not None, "the table did not open"
        for name in seated[1:]:
            await self.members[name].click(message, label="Sätt dig")
        if started:
            await start(host, message)
        await self.settle()
        table = self.table()
        assert table is not None
        self.opened.append(table.table_id)
        return table

    def fresh_channel(self, name: str) -> ChannelHandle:
        """A new text channel with no table (the stack's channel from then on)."""

        async def create() -> ChannelHandle:
            guild = self.channel.guild
            assert guild is not None
            return guild.create_text_channel(name)

        self.channel = self.run(create())
        return self.channel

    async def settle(self) -> None:
        """Lets the bot finish what it does now (computer moves, the table message's edits). A
        settle that SimCord's bound (``SETTLE_SECONDS``) cuts short on a busy machine is waited on
        again: the work it tracks goes on, so this waits for the work, up to ``PATIENCE``."""
        deadline = self.loop.time() + PATIENCE
        while True:
            try:
                await self.bot.listener.settle()
                await self.env.settle()
                return
            except TimeoutError:
                if self.loop.time() >= deadline:
                    raise

    def stop_web(self) -> None:
        """The web server stops (its pages lose their sockets); the tables live on."""
        self.run(self.web.stop())

    def start_web(self) -> None:
        """The web server starts again on its port, knowing no session it issued before (as
        after the bot's restart, or once every session expired)."""

        async def start() -> None:
            await self.web.start(self.bot.sessions, self.bot.application_id)

        # Sessions are signed with a key from the client secret, so a restart alone keeps them:
        # a new secret makes every session issued before unknown, as their expiry would.
        self.secrets += 1
        self.web.settings = self.web.settings.model_copy(
            update={"client_secret": SecretStr(f"the-client-secret-{self.secrets}")}
        )
        self.run(start())

    def restart_web(self) -> None:
        self.stop_web()
        self.start_web()

    def advance(self, seconds: float) -> None:
        """Moves simulated time on (turn deadlines, Hej knekt's reaction window)."""
        self.run(self.env.advance_time(seconds))

    def pictures_off(self, guild_id: int) -> None:
        """The server turns its tables' pictures off, so the table message's text carries the
        trick and the seats (``/inställningar kortbilder``)."""

        async def off() -> None:
            shown = await self.bot.guild_settings(guild_id)
            await self.bot.save_guild_settings(dataclasses.replace(shown, pictures=False))

        self.run(off())

    def table_message_text(self) -> str:
        """The channel's table message as a member reads it: every text of its layout."""

        async def read() -> str:
            await self.settle()
            return message_text(self.channel.history()[0])

        return self.run(read())

    def click_in_channel(self, name: str, **button: str) -> Any:
        """A member clicks a button of the channel's newest message."""

        async def click() -> Any:
            message = self.channel.history()[0]
            return await self.members[name].click(message, **button)

        return self.run(click())

    def channel_buttons(self) -> list[str]:
        return [str(c.get("label")) for c in components(self.channel.history()[0])]


def fake_discord(stack_ref: list[Stack]) -> Any:
    """Discord's token endpoint and ``/users/@me`` for the SDK mock's code (the member is Anna),
    and the SDK mock's Activity instance, in the stack's channel with Anna in it."""

    async def fetch(
        method: str, url: str, headers: Mapping[str, str], form: Mapping[str, str] | None
    ) -> tuple[int, object]:
        stack = stack_ref[0]
        if url.endswith("/oauth2/token"):
            code = (form or {}).get("code", "")
            stack.exchanged.append(code)
            if code != MOCK_CODE:
                return 400, {"error": "invalid_grant"}
            return 200, {"access_token": ACCESS_TOKEN, "token_type": "Bearer"}
        if url.endswith(f"/activity-instances/{MOCK_INSTANCE}"):
            if headers.get("Authorization") != f"Bot {BOT_TOKEN}":
                return 401, {"message": "401: Unauthorized"}
            location = {"id": "gc", "kind": "gc", "channel_id": str(stack.channel.id)}
            return 200, {"location": location, "users": [str(stack.member_id("Anna"))]}
        if headers.get("Authorization") == f"Bearer {ACCESS_TOKEN}":
            anna = stack.member_id("Anna")
            return 200, {"id": str(anna), "username": "anna", "global_name": "Anna"}
        return 401, {"message": "401: Unauthorized"}

    return fetch


@contextmanager
def serving(folder: Path) -> Iterator[Stack]:
    """The stack on a free port of 127.0.0.1, its database in ``folder``."""
    ready = threading.Event()
    holder: list[Stack] = []
    failure: list[BaseException] = []
    stop: list[asyncio.Event] = []

    async def main() -> None:
        settings = Settings(  # type: ignore[call-arg]
            database=folder / "kortbord.sqlite3",
            _env_file=None,
            client_id="424242",
            client_secret=SecretStr("the-client-secret"),
            token=SecretStr(BOT_TOKEN),
            # The page's moves reach the bot outside SimCord's own work, so the timers they set
            # run on the wall clock: turns long enough that a busy machine never lets a member's
            # deadline pass while a test is still moving for them.
            turn_seconds=3600,
            idle_minutes=24 * 60,
            database_timeout=60.0,  # a starved event loop is not a database away
        )
        clock = SimulatedClock()
        bot = Kortbord(
            settings,
            clock=clock,
            computer_delay=0.0,
            dm_pause=0.0,
            panel_grace=GRACE_BEYOND_SETTLING,
            rng=random.Random(SEED),
        )
        shown: list[WebUser] = []
        web = WebFace(
            settings, port=0, host="127.0.0.1", demo_members=shown, fetch=fake_discord(holder)
        )
        try:
            async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
                clock.attach(env)
                await bot.tree.sync()
                guild = env.create_guild(name="Kortbord")
                channel = guild.create_text_channel("kortbord")
                members = {
                    name: guild.add_member(env.create_user(name.lower(), global_name=name))
                    for name in NAMES
                }
                shown.extend(WebUser(m.id, name) for name, m in members.items())
                with env.time_context():  # as the demo starts it: on the channel's clock
                    await web.start(bot.sessions, bot.application_id)
                stop.append(asyncio.Event())
                holder.append(Stack(asyncio.get_running_loop(), env, bot, web, channel, members))
                ready.set()
                await stop[0].wait()
                await web.stop()
        except BaseException as error:  # the test's thread is told, not left waiting
            failure.append(error)
            ready.set()
            raise
        finally:
            storage = getattr(bot, "storage", None)
            if storage is not None:
                await storage.close()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(60), "the stack did not start"
    if failure:
        raise failure[0]
    stack = holder[0]
    try:
        yield stack
    finally:
        stack.loop.call_soon_threadsafe(stop[0].set)
        thread.join(30)


__all__ = ["DIST", "NAMES", "Stack", "serving"]
