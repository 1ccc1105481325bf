"""Running the bot as a service: the start-up back-off, the heartbeat, and stopping on a signal.

``serve`` is what ``kortbord run`` does (``run_bot``: the Discord bot, and the web table beside it
when ``KORTBORD_WEB_PORT`` is set) once the settings are read and logging is set up: it waits out
the start-up back-off (``bot.logins``), starts the bot (and, when Discord cannot be reached
before it ever connected, says so in one line and starts it again after the same back-off),
writes the heartbeat that ``kortbord health`` reads (``bot.health``) while it runs, and on
SIGTERM or SIGINT closes the bot, which pauses and saves every live table (``Kortbord.close``).
It knows nothing of tables: the bot it is given does the work. ``run_web`` is ``kortbord web``,
the web table alone on the composition root (``bot.root``). ``sync_commands`` is
``kortbord sync``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import logging
import math
import os
import signal
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol

import aiohttp

from bot.health import HEARTBEAT_SECONDS, Beat, State, clear_beat, heartbeat_path, write_beat
from bot.logins import LoginLedger, LoginPlan, Sleep, before_login
from bot.settings import Settings

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
YOUNG_COLLECTIONS_EVERY = 50_000
"""Objects (net of those freed) that Python makes between two collections of its youngest
generation: 700 by default. Each collection goes through every object made since the one before
that is still alive, and passes it on to the older generations, whose collections go through far
more. A member's click (its pictures, panels and requests: a few thousand objects, nearly all
freed by the end of the click) set off one or two collections at 700; a table's state after an
action (its match, its record, what was worked out of them) lives until the table's next
action, which thousands of tables acting at once put thousands of actions away. Collected this
seldom, most of both are gone before a collection comes: the collector's time per action of
``benchmarks.storage`` falls from about 35 to 16 µs at 10,000 tables (its longest pause from
450 to 180 ms, a full collection no longer needed), and per click of ``benchmarks.bot`` from
1.5-1.7 ms to under 1 ms; the peak memory of either is the same within a megabyte."""
SHUTDOWN_SECONDS = 45.0
"""How long the graceful shutdown may take; compose gives the container 60 s before it kills."""


class Gateway(Protocol):
    """What ``serve`` needs of the bot (a ``discord.Client`` has it all)."""

    @property
    def latency(self) -> float: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...

    async def start(self, token: str) -> None: ...

    async def close(self) -> None: ...


def gateway_state(bot: Gateway) -> tuple[State, int | None]:
    """Connected (with the latency in ms) when the gateway is up and answering heartbeats."""
    if bot.is_closed():
        return "stopping", None
    # During a reconnect the client stays "ready" and keeps its last latency, but the
    # websocket (discord.py's ``Client.ws``) is closed.
    websocket = getattr(bot, "ws", None)
    if websocket is not None and not getattr(websocket, "open", True):
        return "connecting", None
    if bot.is_ready() and math.isfinite(bot.latency):
        return "connected", round(bot.latency * 1000)
    return "connecting", None


def damaged_tables(bot: Gateway) -> tuple[str, ...]:
    """The bot's damaged tables, one line each, for the heartbeat (none if it has no tables)."""
    sessions = getattr(bot, "sessions", None)
    if sessions is None:
        return ()
    return tuple(sessions.damaged_lines())


def refused_requests(bot: Gateway) -> tuple[str, ...]:
    """What Discord refuses the bot (its face's ``refused_lines``), one line each."""
    lines = getattr(bot, "refused_lines", None)
    return () if lines is None else tuple(lines())


class Heartbeat:
    """Writes the bot's state beside the database, for ``kortbord health`` in another process."""

    def __init__(self, path: Path, now: Callable[[], float] = time.time) -> None:
        self.path = path
        self.now = now
        self.unreachable = ""
        """Why the last login could not reach Discord, until the gateway is connected."""

    def write(
        self,
        state: State,
        *,
        latency_ms: int | None = None,
        until: float | None = None,
        damaged: tuple[str, ...] = (),
        refused: tuple[str, ...] = (),
    ) -> None:
        if state == "connected":
            self.unreachable = ""
        beat = Beat(
            state,
            self.now(),
            os.getpid(),
            latency_ms=latency_ms,
            until=until,
            damaged=damaged,
            unreachable=self.unreachable,
            refused=refused,
        )
        try:
            write_beat(self.path, beat)
        except OSError as error:
            log.warning("cannot write the heartbeat %s: %s", self.path, error)

    def waiting(self, plan: LoginPlan) -> None:
        self.write("waiting", until=plan.at)

    async def follow(self, bot: Gateway, every: float = HEARTBEAT_SECONDS) -> None:
        """Writes the gateway's state now and every ``every`` seconds until cancelled."""
        while True:
            state, latency = gateway_state(bot)
            self.write(
                state,
                latency_ms=latency,
                damaged=damaged_tables(bot),
                refused=refused_requests(bot),
            )
            await asyncio.sleep(every)

    def clear(self) -> None:
        try:
            clear_beat(self.path)
        except OSError as error:
            log.warning("cannot remove the heartbeat %s: %s", self.path, error)


async def serve(
    bot: Gateway,
    token: str,
    database: Path,
    *,
    now: Callable[[], float] = time.time,
    heartbeat_seconds: float = HEARTBEAT_SECONDS,
    sleep: Sleep = asyncio.sleep,
) -> int:
    """Runs ``bot`` until it stops or a stop signal comes; returns the process's exit code.

    0 after a stop signal (the bot closed cleanly), 1 if the bot stopped by itself or failed.
    A login that cannot reach Discord is tried again after the start-up back-off (waited out
    with ``sleep``), as a restart would be, for as long as it takes.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, _stop_on, stop, number)
    heartbeat = Heartbeat(heartbeat_path(database), now)
    ledger = LoginLedger.beside(database)
    try:
        while True:
            try:
                await before_login(
                    ledger, now, lambda s: _sleep_unless(stop, s, sleep), heartbeat.waiting
                )
            except _Stopped:
                log.info("stopped before logging in")
                return 0
            heartbeat.write("connecting")
            code = await _run(bot, token, stop, heartbeat, heartbeat_seconds)
            if code is not None:
                return code
    finally:
        for number in STOP_SIGNALS:
            loop.remove_signal_handler(number)
        heartbeat.clear()


def unreachable(error: BaseException) -> bool:
    """Whether ``error`` says Discord could not be reached (no DNS, refused, cut, no answer,
    Discord's servers failing): worth another login later, unlike a bad token or a bug."""
    from discord import DiscordServerError

    if isinstance(
        error,
        aiohttp.ClientConnectionError
        | socket.gaierror
        | ConnectionError
        | TimeoutError
        | DiscordServerError,
    ):
        return True
    no_route = {errno.ENETUNREACH, errno.EHOSTUNREACH, errno.ENETDOWN, errno.EHOSTDOWN}
    return isinstance(error, OSError) and error.errno in no_route


async def _run(
    bot: Gateway, token: str, stop: asyncio.Event, heartbeat: Heartbeat, every: float
) -> int | None:
    """The bot until it stops: the exit code, or None when its login could not reach Discord
    (``serve`` then logs in again after the back-off)."""
    running = asyncio.create_task(bot.start(token), name="kortbord")
    beating = asyncio.create_task(heartbeat.follow(bot, every), name="heartbeat")
    stopping = asyncio.create_task(stop.wait(), name="stop signal")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            beating.cancel()
            heartbeat.write("stopping")
            log.info("shutting down: pausing the live tables")
            try:
                await asyncio.wait_for(bot.close(), SHUTDOWN_SECONDS)
            except TimeoutError:
                log.error("the shutdown took over %d s and was cut short", SHUTDOWN_SECONDS)
                return 1
            await asyncio.gather(running, return_exceptions=True)
            log.info("shut down cleanly")
            return 0
        error = running.exception()
        if error is not None and unreachable(error) and not bot.is_ready():
            reason = " ".join(str(error).split()) or type(error).__name__
            log.warning(
                "Discord is unreachable (%s): logging in again after the start-up back-off",
                reason,
            )
            heartbeat.unreachable = reason
            return None
        if error is not None:
            log.critical("the bot stopped on an error", exc_info=error)
        else:
            log.error("the bot stopped by itself")
        return 1
    finally:
        for task in (running, beating, stopping):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(beating, stopping, return_exceptions=True)


def _stop_on(stop: asyncio.Event, number: signal.Signals) -> None:
    if not stop.is_set():
        log.info("received %s", number.name)
    stop.set()


class _Stopped(Exception):
    """A stop signal came during the start-up back-off: no login is made (or recorded)."""


async def _sleep_unless(stop: asyncio.Event, seconds: float, sleep: Sleep) -> None:
    """Sleeps ``seconds``; raises ``_Stopped`` as soon as a stop signal comes."""
    sleeping = asyncio.ensure_future(sleep(seconds))
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({sleeping, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sleeping, stopping):
            task.cancel()
        await asyncio.gather(sleeping, stopping, return_exceptions=True)
    if stop.is_set():
        raise _Stopped


def tune_collector() -> None:
    """Python's cycle collector set for a long-running process, once its code is loaded: what
    exists by then (modules, classes, the catalogs, discord.py: most of the process's objects,
    and never garbage) is frozen out of every later collection (``gc.freeze``), so that a full
    collection goes through the tables and what they hold, not the whole program again; and the
    youngest generation is collected every :data:`YOUNG_COLLECTIONS_EVERY` objects."""
    gc.collect()  # what loading left as garbage is freed, not frozen
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTIONS_EVERY, older, oldest)


async def run_bot(settings: Settings) -> int:
    """``kortbord run``: the bot until a stop signal; returns the exit code."""
    from bot.discord.client import build_bot
    from bot.web.server import WebFace

    assert settings.token is not None
    faces = [WebFace(settings)] if settings.web_port is not None else []
    bot = build_bot(settings, faces=faces)
    tune_collector()
    return await serve(bot, settings.token.get_secret_value(), settings.process_file)


async def run_web(settings: Settings, stop: asyncio.Event | None = None) -> int:
    """``kortbord web``: the web table alone, with no Discord face, until a stop signal (or
    ``stop``); returns the exit code. Its tables are those of this process's storage and shards;
    no channel message is kept current, so it suits a deployment whose members play only on the
    web (or a process that only serves pages). Stops as ``run`` does: the live tables paused."""
    from bot.clock import SystemClock
    from bot.root import Root
    from bot.web.server import WebFace

    stop = stop or asyncio.Event()
    face = WebFace(settings)
    root = Root(settings, SystemClock(), faces=[face])
    root.on_shards_lost = _set_later(stop)
    loop = asyncio.get_running_loop()
    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, _stop_on, stop, number)
    try:
        await root.open()
        await root.restore()
        await root.start_faces(None)
        log.info("the web table listens on %s:%d", face.host, face.port)
        await stop.wait()
        log.info("shutting down: pausing the live tables")
        await root.pause()
        return 1 if root.shards_lost else 0
    finally:
        for number in STOP_SIGNALS:
            loop.remove_signal_handler(number)
        await root.close()


def _set_later(event: asyncio.Event) -> Callable[[], Awaitable[None]]:
    async def set_event() -> None:
        event.set()

    return set_event


async def sync_commands(settings: Settings) -> int:
    """``kortbord sync``: registers the slash commands, on the dev guild if one is set.

    Logs in over HTTP only (no gateway login, so it costs none of the daily logins), restores
    no table and claims no shard: run it once for the whole bot, however many processes
    ``kortbord run`` it runs as (they never sync). The application's Entry Point command
    (Activities) is read first and sent back with the slash commands (``commands_sync``).
    """
    import aiohttp
    import discord

    from bot.discord.client import Kortbord
    from bot.discord.commands_sync import SyncRefused, command_payload, put_commands

    assert settings.token is not None
    token = settings.token.get_secret_value()
    bot = Kortbord(settings, restore=False)
    try:
        async with bot:
            await bot.login(token)
            guild = discord.Object(settings.dev_guild) if settings.dev_guild else None
            if guild is not None:
                bot.tree.copy_global_to(guild=guild)
            payload = await command_payload(bot.tree, guild)
            assert bot.application_id is not None
            async with aiohttp.ClientSession() as session:
                synced = await put_commands(
                    session, token, bot.application_id, payload, guild_id=settings.dev_guild
                )
    except (discord.HTTPException, SyncRefused, aiohttp.ClientError) as error:
        log.error("syncing the commands failed: %s", error)
        return 1
    kept = sum(1 for command in synced if command.get("type") == 4)
    if kept:
        log.info("kept the Entry Point command (the Activity's Launch)")
    where = f"on guild {settings.dev_guild}" if guild is not None else "globally"
    log.info("synced %d commands %s", len(synced), where)
    return 0
