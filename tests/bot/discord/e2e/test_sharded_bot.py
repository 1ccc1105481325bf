"""One process of a bot split into shards, through SimCord: it serves the servers on its shards,
restores only their tables, and members' hands come by DM without buttons (Discord sends every
DM event to shard 0, so each action goes through the server's own shard)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from members import bot_of, components, dm_texts, sync_commands, table_in
from simcord import Env

from bot.discord.client import Kortbord, ShardedKortbord, build_bot
from bot.settings import Settings
from bot.storage import Shards, open_storage

T0 = 1_800_000_000.0
OTHER_SHARDS_GUILD = 6 << 22  # shard 0 of 2: another process's server


async def _table_of_another_process(database: Path) -> int:
    async with await open_storage(database) as storage:
        record = await storage.create_table(
            guild_id=OTHER_SHARDS_GUILD,
            channel_id=5,
            host_id=6,
            game_id="tvamanswhist",
            variant="standard",
            seed=1,
            turn_seconds=60,
            language="sv",
            created_at=T0,
        )
    return record.table_id


@pytest.fixture
def simcord_bot(tmp_path: Path) -> Kortbord:
    """The process that serves shard 1 of 2; the database already holds a live table of a
    server on shard 0."""
    database = tmp_path / "kortbord.sqlite3"
    asyncio.run(_table_of_another_process(database))
    settings = Settings(database=database, shard_count=2, shards="1", _env_file=None)  # type: ignore[call-arg]
    bot = build_bot(settings, computer_delay=0.0, dm_pause=0.0)
    assert isinstance(bot, ShardedKortbord)
    return bot


async def test_a_shard_process_serves_its_servers_with_hands_in_dms_without_buttons(
    simcord_env: Env,
) -> None:
    env = simcord_env
    bot = bot_of(env)
    assert isinstance(bot, ShardedKortbord)
    assert (bot.shard_count, bot.shard_ids) == (2, [1])
    # the other process's table stays with it: not restored here, not changed
    assert bot.sessions.live_tables() == []
    assert bot.storage.shards is not None
    assert bot.storage.shards.ids == (1,)

    assert "/commands" not in env.transcript()  # a process never syncs: kortbord sync does
    await sync_commands(env)
    guild = env.create_guild("Kortklubben", shard_id=1)
    assert (guild.id >> 22) % 2 == 1
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    await bo.click(opened.response, label="Sätt dig")
    await anna.click(opened.response, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    assert table.record.guild_id == guild.id
    for member in (anna, bo):
        assert len(dm_texts(member)) == 1
        for message in member.user.dm_channel.history():
            assert components(message) == []


async def test_a_process_whose_shards_were_taken_over_stops_and_leaves_its_tables_alone(
    simcord_env: Env, tmp_path: Path
) -> None:
    env = simcord_env
    bot = bot_of(env)
    assert isinstance(bot, ShardedKortbord)
    await sync_commands(env)
    guild = env.create_guild("Kortklubben", shard_id=1)
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    await bo.click(opened.response, label="Sätt dig")
    await anna.click(opened.response, label="Starta")
    table_id = table_in(env, channel.id).table_id
    assert await bot.renew_lease()

    # this process stalled past its lease and another took shard 1 over
    async with await open_storage(tmp_path / "kortbord.sqlite3") as successor:
        await successor.claim_shards(Shards(2, (1,)), "successor", time.time() + 3600, 60)
        assert not await bot.renew_lease()
        assert bot.shards_lost
        assert bot.is_closed()
        stored = await successor.table(table_id)
        assert stored is not None
        assert stored.status == "playing"  # not paused by the process that lost it
        assert successor.shards == Shards(2, (1,))
