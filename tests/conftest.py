"""Shared test set-up: makes ``tests/`` importable so tests can use the unregistered toy game,
builds the real bot for the SimCord tests in ``tests/bot/discord/e2e`` (a fresh database per
test), holds the requests those tests make to Discord's contract (``contract``, from
``tests/discord_requests.py``: a violation fails the test), and gives the storage, session and
restore tests each database Kortbord runs on (``any_database``).

PostgreSQL: ``KORTBORD_TEST_POSTGRES=postgresql://user@host:port/db`` names a server on which
the tests may create schemas; each test gets a fresh schema of its own, dropped after it, so
runs in parallel never meet. Without the variable those tests skip and say so; with it, a
server that does not answer fails them (``.ci/run`` sets it, so CI never skips them).
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import asyncpg
import pytest
from discord_requests import Contract, contract, pytest_runtest_call
from simcord import Env

from bot.discord.client import Kortbord
from bot.discord.clock import DiscordClock, SimulatedClock
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.settings import Settings

__all__ = ["contract", "pytest_runtest_call"]

BotFactory = Callable[[], Kortbord]
SLOW = (
    "tests/bot/web/test_browser_client.py",  # a real browser
    "tests/bot/discord/e2e/test_match",  # whole matches of every game (test_match_*, test_matches)
    "tests/bot/discord/e2e/test_hostile_storm.py",  # 2,000 interactions
)
"""Where the tests that ``./dev test --fast`` leaves out live (marked ``slow``, with any test
marked so itself)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


E2E_SEED = 2026
SETTLE_PATIENCE = 60.0
"""Seconds of wall time SimCord gives the bot's work to finish after each step of a test: a
bound for a bot that hangs, never a pace the machine must keep (the session's timers wait for
``advance_time`` alone, ``SimulatedClock``, so a long bound waits for none of them). Below the
libraries' own housekeeping timers (asyncpg drops a connection idle for 300 s), which SimCord
would otherwise wait out by the wall clock."""
HELD_TO_CONTRACT = (Path(__file__).parent / "bot/discord/e2e", Path(__file__).parent / "bot/web")
"""The tests whose every request to SimCord is held to Discord's contract."""


SQLITE_THREAD = "(_connection_worker_thread)"
"""How the thread of an aiosqlite connection is named."""


@pytest.fixture(autouse=True)
def no_database_left_open() -> Iterator[None]:
    """A test that leaves a SQLite connection open fails, naming itself: left open, the
    connection would be stopped whenever it is collected, its thread then answering on a closed
    event loop, and fail whichever test runs at that moment."""
    before = set(threading.enumerate())
    yield
    for thread in set(threading.enumerate()) - before:
        if thread.name.endswith(SQLITE_THREAD):
            thread.join(timeout=5.0)  # a closed connection's thread ends at once
            assert not thread.is_alive(), "the test left a SQLite connection open"


@pytest.fixture(autouse=True)
def discord_contract(request: pytest.FixtureRequest) -> Contract | None:
    if any(request.path.is_relative_to(folder) for folder in HELD_TO_CONTRACT):
        checker: Contract = request.getfixturevalue("contract")
        return checker
    return None


@pytest.fixture
def simulated_clock() -> SimulatedClock:
    """The session clock of every bot a test builds: its timers run on SimCord's time only."""
    return SimulatedClock()


@pytest.fixture
async def make_bot(tmp_path: Path, simulated_clock: SimulatedClock) -> AsyncIterator[BotFactory]:
    """Builds the bot on this test's database; call it again for the same bot after a restart.

    Every bot built has its database closed after the test: a failed test's traceback keeps the
    bot alive, and with it the database's thread, which would keep pytest from ever exiting."""
    built: list[Kortbord] = []

    def build() -> Kortbord:
        # A database that takes its time on a busy machine is not away: the outage tests set
        # their own timeout; here a write waits as long as the settings allow.
        settings = Settings(  # type: ignore[call-arg]
            database=tmp_path / "kortbord.sqlite3", database_timeout=60.0, _env_file=None
        )
        # No pauses: a computer player moves at once, as a test expects. A seeded source for
        # the tables' seeds, so that every run of a test deals the same cards.
        bot = Kortbord(
            settings,
            clock=simulated_clock,
            computer_delay=0.0,
            dm_pause=0.0,
            panel_grace=GRACE_BEYOND_SETTLING,
            rng=random.Random(E2E_SEED),
        )
        built.append(bot)
        return bot

    yield build
    for bot in built:
        storage = getattr(bot, "storage", None)  # set when the bot started
        if storage is not None:
            await storage.close()


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> Kortbord:
    return make_bot()


@pytest.fixture
async def simcord_env(
    simcord_bot: Kortbord, simulated_clock: SimulatedClock, request: pytest.FixtureRequest
) -> AsyncIterator[Env]:
    """SimCord's own fixture, with the session's timers on its simulated clock and a settle
    bound (``SETTLE_PATIENCE``) no busy machine reaches; the ``simcord`` marker's options still
    apply. The bot's database is closed after the test, whichever fixture built the bot: a
    connection left open is stopped when it is collected, and its thread then answers on an
    event loop that is closed (it fails whatever test runs then)."""
    marker = request.node.get_closest_marker("simcord")
    options = {"settle_timeout": SETTLE_PATIENCE, **(marker.kwargs if marker else {})}
    if type(simcord_bot.clock) is DiscordClock:  # a test's own bot, on Discord's clock
        simcord_bot.clock = simulated_clock
    env = Env(simcord_bot, **options)
    simulated_clock.attach(env)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        storage = getattr(simcord_bot, "storage", None)  # set when the bot started
        if storage is not None:
            await storage.close()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


POSTGRES_ENV = "KORTBORD_TEST_POSTGRES"


def postgres_server() -> str:
    """The server named by ``KORTBORD_TEST_POSTGRES``; skips the test if none is named."""
    server = os.environ.get(POSTGRES_ENV, "").strip()
    if not server:
        pytest.skip(
            f"{POSTGRES_ENV} is not set: set it to a PostgreSQL server the tests may create"
            " schemas on, e.g. postgresql://postgres@127.0.0.1:5432/test (.ci/run does)"
        )
    return server


def in_schema(server: str, schema: str) -> str:
    """The server's address with ``schema`` as the search path (a server setting)."""
    return f"{server}{'&' if '?' in server else '?'}search_path={schema}"


@contextlib.asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """A fresh, empty schema on the test server, as a ``postgresql://`` address; dropped after."""
    server = postgres_server()
    schema = f"kortbord_test_{uuid.uuid4().hex[:16]}"
    try:
        admin = await asyncpg.connect(server, timeout=10)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        pytest.fail(f"{POSTGRES_ENV}={server} does not answer: {error}")
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
        yield in_schema(server, schema)
    finally:
        await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await admin.close()


@pytest.fixture
async def postgres_database() -> AsyncIterator[str]:
    """A fresh PostgreSQL schema of its own for this test (see ``fresh_schema``)."""
    async with fresh_schema() as address:
        yield address


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
async def any_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """Each database Kortbord runs on: a fresh SQLite file, then a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield tmp_path / "data" / "kortbord.sqlite3"
        return
    async with fresh_schema() as address:
        yield address
