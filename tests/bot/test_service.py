"""``serve``: back-off, heartbeat and a clean stop on SIGTERM, with a stand-in for the bot."""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import os
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.client_reqrep import ConnectionKey

from bot.__main__ import main
from bot.health import heartbeat_path, judge_beat, read_beat
from bot.logins import FIRST_WAIT, LoginLedger
from bot.service import YOUNG_COLLECTIONS_EVERY, gateway_state, serve, tune_collector


@dataclass
class Websocket:
    open: bool


class FakeBot:
    """Connects when started and runs until closed, like ``discord.Client.start``."""

    def __init__(
        self, *, fail: Exception | None = None, unreachable: list[Exception] | None = None
    ) -> None:
        self.fail = fail
        self.unreachable = list(unreachable or [])
        """Raised by the first logins in turn, as discord.py's login does without a network."""
        self.starts = 0
        self.ready = False
        self.closed = False
        self.started_with: str | None = None
        self.ws: Websocket | None = None
        self._closed = asyncio.Event()

    @property
    def latency(self) -> float:
        return 0.042 if self.ready else math.inf

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed

    async def start(self, token: str) -> None:
        self.started_with = token
        self.starts += 1
        if self.unreachable:
            raise self.unreachable.pop(0)
        if self.fail is not None:
            raise self.fail
        self.ready = True
        await self._closed.wait()

    async def close(self) -> None:
        self.closed = True
        self.ready = False
        self._closed.set()


async def until(condition: Callable[[], bool]) -> None:
    """Lets the event loop run until ``condition`` holds (no wall-clock sleeps)."""
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


def state(database: Path) -> str | None:
    beat = read_beat(heartbeat_path(database))
    return beat.state if beat is not None else None


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "data" / "kortbord.sqlite3"


async def test_sigterm_closes_the_bot_and_exits_zero(database: Path) -> None:
    bot = FakeBot()
    serving = asyncio.create_task(serve(bot, "the-token", database))
    await until(lambda: state(database) == "connected")
    assert bot.started_with == "the-token"
    beat = read_beat(heartbeat_path(database))
    assert beat is not None
    assert beat.latency_ms == 42
    os.kill(os.getpid(), signal.SIGTERM)
    assert await serving == 0
    assert bot.closed
    assert not heartbeat_path(database).exists()  # health says "not running" from now on
    assert len(LoginLedger.beside(database).read()) == 1


async def test_a_bot_that_fails_exits_one(database: Path) -> None:
    bot = FakeBot(fail=RuntimeError("gateway refused"))
    assert await serve(bot, "the-token", database) == 1
    assert not heartbeat_path(database).exists()


async def test_sigterm_during_the_back_off_stops_without_logging_in(database: Path) -> None:
    ledger = LoginLedger.beside(database)
    now = 1_800_000_000.0
    for _ in range(5):
        ledger.record(now)
    bot = FakeBot()
    serving = asyncio.create_task(serve(bot, "the-token", database, now=lambda: now))
    await until(lambda: state(database) == "waiting")
    os.kill(os.getpid(), signal.SIGTERM)
    assert await serving == 0
    assert bot.started_with is None
    assert len(ledger.read()) == 5  # no login was made, so none is recorded


def no_dns() -> aiohttp.ClientConnectorError:
    """What discord.py's login raises when discord.com has no address (aiohttp's own error)."""
    key = ConnectionKey("discord.com", 443, True, True, None, None, None)
    return aiohttp.ClientConnectorError(
        key, socket.gaierror(-3, "Temporary failure in name resolution")
    )


async def test_discord_unreachable_at_start_up_is_one_line_and_retried_with_the_back_off(
    database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = [1_800_000_000.0]
    waits: list[float] = []
    health_while_waiting: list[str] = []

    async def sleep(seconds: float) -> None:  # simulated time: the clock moves, nothing waits
        health_while_waiting.append(judge_beat(heartbeat_path(database), clock[0])[1])
        waits.append(seconds)
        clock[0] += seconds

    bot = FakeBot(
        unreachable=[
            no_dns(),
            socket.gaierror(-2, "Name or service not known"),
            ConnectionRefusedError(111, "Connect call failed ('162.159.135.232', 443)"),
        ]
    )
    caplog.set_level(logging.INFO)
    serving = asyncio.create_task(
        serve(bot, "the-token", database, now=lambda: clock[0], sleep=sleep)
    )
    await until(lambda: state(database) == "connected")
    assert bot.starts == 4
    # The same waits as a restart: two logins go ahead at once, then 30 s, doubling.
    assert waits == [FIRST_WAIT, 2 * FIRST_WAIT]
    assert len(LoginLedger.beside(database).read()) == 4
    assert health_while_waiting[0] == (
        "waiting 30 s more before logging in to Discord (start-up back-off; Discord was"
        " unreachable: [Errno -2] Name or service not known)"
    )
    assert "Connect call failed" in health_while_waiting[1]
    said = [r for r in caplog.records if "Discord is unreachable" in r.getMessage()]
    assert len(said) == 3
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in said)
    assert (
        said[0]
        .getMessage()
        .startswith(
            "Discord is unreachable (Cannot connect to host discord.com:443 ssl:default"
            " [Temporary failure in name resolution])"
        )
    )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    os.kill(os.getpid(), signal.SIGTERM)
    assert await serving == 0
    assert read_beat(heartbeat_path(database)) is None


async def test_a_login_that_cannot_reach_discord_leaves_no_session_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Otherwise each retry logs "Unclosed client session" as an error."""
    from bot.discord.client import Kortbord
    from bot.settings import Settings

    bot = Kortbord(Settings(database=tmp_path / "k.sqlite3", _env_file=None))  # type: ignore[call-arg]

    async def no_network(*args: object, **kwargs: object) -> None:
        raise no_dns()

    opened: list[aiohttp.ClientSession] = []
    real_session = aiohttp.ClientSession

    def session(*args: Any, **kwargs: Any) -> aiohttp.ClientSession:
        opened.append(real_session(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(bot.http, "request", no_network)
    monkeypatch.setattr(aiohttp, "ClientSession", session)
    for _ in range(2):
        with pytest.raises(aiohttp.ClientConnectorError):
            await bot.login("the-token")
    assert len(opened) == 2
    assert all(each.closed for each in opened)
    await bot.close()


async def test_once_connected_health_no_longer_speaks_of_the_outage(database: Path) -> None:
    bot = FakeBot(unreachable=[no_dns()])
    serving = asyncio.create_task(serve(bot, "the-token", database))
    await until(lambda: state(database) == "connected")
    healthy, line = judge_beat(heartbeat_path(database), time.time())
    assert healthy
    assert "unreachable" not in line
    os.kill(os.getpid(), signal.SIGTERM)
    assert await serving == 0


async def test_a_bot_error_that_is_no_network_outage_still_exits_one(database: Path) -> None:
    bot = FakeBot(fail=OSError(28, "No space left on device"))
    assert await serve(bot, "the-token", database) == 1
    assert bot.starts == 1


def test_the_gateway_state_follows_the_client() -> None:
    bot = FakeBot()
    assert gateway_state(bot) == ("connecting", None)
    bot.ready = True
    assert gateway_state(bot) == ("connected", 42)
    bot.ws = Websocket(open=False)  # a reconnect: still "ready", but the socket is down
    assert gateway_state(bot) == ("connecting", None)
    bot.ws = Websocket(open=True)
    assert gateway_state(bot) == ("connected", 42)
    bot.closed = True
    assert gateway_state(bot) == ("stopping", None)


@pytest.mark.parametrize("command", [["run"], ["sync", "--guild", "123"]])
def test_without_a_token_it_says_how_to_get_one_and_points_at_the_demo(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    assert main(command) == 2
    said = capsys.readouterr().err
    assert "KORTBORD_TOKEN is not set" in said
    assert "discord.com/developers/applications" in said
    assert "./dev demo" in said


def test_the_service_freezes_its_loaded_code_and_collects_the_young_less_often() -> None:
    """``kortbord run`` tunes the collector once the bot is built: what is loaded by then is
    frozen (a full collection no longer goes through it), and a click's many short-lived
    objects no longer set off a collection or two each."""
    threshold = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_freeze_count() > 10_000  # the modules, classes and catalogs loaded
        assert gc.get_threshold() == (YOUNG_COLLECTIONS_EVERY, *threshold[1:])
        assert threshold[0] < YOUNG_COLLECTIONS_EVERY
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
