"""The graceful stop through SimCord: what SIGTERM makes the bot do (``Kortbord.close``, called by
``bot.service.serve``) with a live table, as members see it, and the next start."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import discord
from members import bot_of, message_text, open_hand, play_first_legal, start, table_in
from simcord import Env

from bot.discord.client import Kortbord
from bot.health import check_health, heartbeat_path
from bot.service import serve
from bot.storage import open_storage


def shown(channel: object) -> str:
    message = channel.history()[0]  # type: ignore[attr-defined]
    return message_text(message)  # the game's name is in the foot, under the status


async def test_a_stop_pauses_the_live_table_and_the_next_start_resumes_it(
    simcord_env: Env, make_bot: Callable[[], Kortbord], tmp_path: Path
) -> None:
    env = simcord_env
    await bot_of(env).tree.sync()
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await start(anna, message)
    table = table_in(env, channel.id)
    assert table.game is not None
    seat = min(table.game.to_act())
    first = anna if table.record.seats[seat].user_id == anna.id else bo
    await play_first_legal(first, await open_hand(first, message))
    assert table.seq == 1
    assert "Pausat" not in shown(channel)

    await bot_of(env).close()  # SIGTERM

    assert shown(channel).startswith("⏸ Pausat, strax tillbaka.")
    assert "<t:" not in shown(channel)  # no deadline runs while the bot is away
    async with await open_storage(tmp_path / "kortbord.sqlite3") as storage:
        stored = await storage.table(table.table_id)
        assert stored is not None
        assert stored.status == "paused"
        assert len(await storage.actions(table.table_id)) == 1

    await env.restart_bot(make_bot())

    again = table_in(env, channel.id)
    assert again is not table
    assert again.record.status == "playing"
    assert again.seq == 1
    deadline = bot_of(env).sessions.deadline(again)
    now = discord.utils.utcnow().timestamp()
    assert deadline is not None
    assert abs(deadline - (now + again.record.turn_seconds)) < 2  # a fresh, full turn
    assert "Pausat" not in shown(channel)
    assert f"<t:{int(deadline)}:R>" in shown(channel)
    # play goes on from the same message
    assert again.game is not None
    seat = min(again.game.to_act())
    member = anna if again.record.seats[seat].user_id == anna.id else bo
    await play_first_legal(member, await open_hand(member, message))
    assert again.seq == 2


class SimCordGateway:
    """The SimCord bot as ``serve`` sees it: SimCord has connected it already, so ``start``
    only waits, and ``close`` is the real bot's close."""

    def __init__(self, bot: Kortbord) -> None:
        self.bot = bot
        self._closed = asyncio.Event()

    @property
    def latency(self) -> float:
        return self.bot.latency

    def is_ready(self) -> bool:
        return self.bot.is_ready()

    def is_closed(self) -> bool:
        return self.bot.is_closed()

    async def start(self, token: str) -> None:
        await self._closed.wait()

    async def close(self) -> None:
        await self.bot.close()
        self._closed.set()


async def test_sigterm_to_the_running_service_pauses_the_table_and_health_follows(
    simcord_env: Env, tmp_path: Path
) -> None:
    env = simcord_env
    await bot_of(env).tree.sync()
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    await bo.click(opened.response, label="Sätt dig")
    await start(anna, opened.response)
    database = tmp_path / "kortbord.sqlite3"

    serving = asyncio.create_task(serve(SimCordGateway(bot_of(env)), "token", database))
    for _ in range(1000):
        if heartbeat_path(database).exists():
            break
        await asyncio.sleep(0)
    health = await check_health(database, time.time())
    assert health.healthy, health.line

    os.kill(os.getpid(), signal.SIGTERM)
    assert await serving == 0

    assert shown(channel).startswith("⏸ Pausat, strax tillbaka.")
    health = await check_health(database, time.time())
    assert not health.healthy
    assert health.line.endswith("the bot is not running")
