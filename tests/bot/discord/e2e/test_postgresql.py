"""The real bot on PostgreSQL through SimCord (when ``KORTBORD_TEST_POSTGRES`` names a server):
a match is played, the bot stops and starts again, and the match resumes on the same message and
is played to the end, its result on the leaderboard."""

from __future__ import annotations

import pytest
from members import bot_of, play_until, table_for_two, table_in
from simcord import Env

from bot.discord.client import Kortbord
from bot.discord.clock import SimulatedClock
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.leaderboard import leaderboard
from bot.settings import Settings

pytestmark = pytest.mark.postgresql


def bot_on(database: str, clock: SimulatedClock | None = None) -> Kortbord:
    settings = Settings(database=database, _env_file=None)  # type: ignore[call-arg]
    return Kortbord(
        settings,
        clock=clock,
        computer_delay=0.0,
        dm_pause=0.0,
        panel_grace=GRACE_BEYOND_SETTLING,
    )


@pytest.fixture
def simcord_bot(postgres_database: str) -> Kortbord:
    return bot_on(postgres_database)


async def test_a_match_on_postgresql_resumes_after_a_restart_and_is_rated(
    simcord_env: Env, postgres_database: str, simulated_clock: SimulatedClock
) -> None:
    env = simcord_env
    assert bot_of(env).storage.dialect == "postgresql"
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    members = {anna.id: anna, bo.id: bo}
    await play_until(env, channel.id, members, message, 5)
    before = table_in(env, channel.id)
    assert before.game is not None
    view = before.game.view(None)

    await bot_of(env).close()  # SIGTERM: paused and saved, the process's lease given up
    await env.restart_bot(bot_on(postgres_database, simulated_clock))

    after = table_in(env, channel.id)
    assert after is not before
    assert after.game is not None
    assert after.game.view(None) == view
    assert after.seq == before.seq
    await play_until(env, channel.id, members, message, 200)
    assert after.record.status == "finished"
    board = await leaderboard(bot_of(env).storage, after.record.guild_id, "tvamanswhist")
    assert {standing.user_id for standing in board} == {anna.id, bo.id}
