"""The real bot on PostgreSQL through a fault proxy (``tests/faultproxy.py``), through SimCord:
a member who asks for the leaderboard while the database is away is told so in words that fit
a database server (not the generic error that points at *Min hand*)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from faultproxy import FaultProxy, fault_proxy
from members import bot_of, table_for_two
from simcord import Env

from bot.discord.client import Kortbord
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.settings import Settings

pytestmark = pytest.mark.postgresql

DEFER_AFTER = 0.2
TIMEOUT = 1.0


@pytest.fixture
async def proxied(postgres_database: str) -> AsyncIterator[tuple[FaultProxy, str]]:
    async with fault_proxy(postgres_database) as found:
        yield found


@pytest.fixture
def simcord_bot(proxied: tuple[FaultProxy, str]) -> Kortbord:
    _, address = proxied
    settings = Settings(database=address, database_timeout=TIMEOUT, _env_file=None)  # type: ignore[call-arg]
    return Kortbord(
        settings,
        computer_delay=0.0,
        dm_pause=0.0,
        panel_grace=GRACE_BEYOND_SETTLING,
        defer_after=DEFER_AFTER,
    )


async def test_the_leaderboard_in_an_outage_says_the_database_server_is_away(
    simcord_env: Env, proxied: tuple[FaultProxy, str]
) -> None:
    env = simcord_env
    proxy, _ = proxied
    channel, _, anna, _ = await table_for_two(env)
    await proxy.refuse()
    proxy.cut()
    answer = await anna.slash(channel, "topplista", spel="tvamanswhist")
    await proxy.resume()
    said = " ".join([answer.response.content or ""] if answer.response else [])
    said += " ".join(m.content or "" for m in answer.followups)
    assert "databasserver svarar inte" in said
    assert "Min hand" not in said
    assert bot_of(env).storage.dialect == "postgresql"
