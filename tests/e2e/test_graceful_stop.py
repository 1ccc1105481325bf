"""The graceful stop through SimCord: what SIGTERM makes the bot do (``Kortbord.close``, called by
``bot.service.serve``) with a live table, as members see it, and the next start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import discord
from members import bot_of, open_hand, play_first_legal, table_in
from simcord import Env

from bot.client import Kortbord
from bot.storage import Storage


def shown(channel: object) -> str:
    message = channel.history()[0]  # type: ignore[attr-defined]
    return str(message.embeds[0].description or "")


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
    await anna.click(message, label="Starta")
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
    async with await Storage.open(tmp_path / "kortbord.sqlite3") as storage:
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
