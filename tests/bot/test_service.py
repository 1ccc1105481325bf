"""``serve``: back-off, heartbeat and a clean stop on SIGTERM, with a stand-in for the bot."""

from __future__ import annotations

import asyncio
import math
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.health import heartbeat_path, read_beat
from bot.logins import LoginLedger
from bot.service import gateway_state, serve


@dataclass
class Websocket:
    open: bool


class FakeBot:
    """Connects when started and runs until closed, like ``discord.Client.start``."""

    def __init__(self, *, fail: Exception | None = None) -> None:
        self.fail = fail
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
