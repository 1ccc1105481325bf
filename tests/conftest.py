"""Shared test set-up: makes ``tests/`` importable so tests can use the unregistered toy game, and
builds the real bot for the SimCord tests in ``tests/e2e`` (a fresh database per test)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bot.client import Kortbord
from bot.settings import Settings

BotFactory = Callable[[], Kortbord]


@pytest.fixture
def make_bot(tmp_path: Path) -> BotFactory:
    """Builds the bot on this test's database; call it again for the same bot after a restart."""

    def build() -> Kortbord:
        settings = Settings(database=tmp_path / "kortbord.sqlite3", _env_file=None)  # type: ignore[call-arg]
        # No pauses: SimCord waits for short timers in real time, and tests should be fast.
        return Kortbord(settings, computer_delay=0.0, dm_pause=0.0)

    return build


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> Kortbord:
    return make_bot()
