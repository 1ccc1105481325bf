"""Snipp snapp snorum and Jig through SimCord: whole games with two members and a computer to the
leaderboard; in Jig a member's forced pass is played by the table at once."""

from __future__ import annotations

from typing import Any

from members import bot_of, message_text, play_until, start, sync_commands, table_in
from simcord import Env


async def _three_at_the_table(env: Env, variant: str) -> tuple[Any, Any, Any, Any]:
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="snipp_snapp_snorum", variant=variant)
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.select(message, ["normal"])
    await start(anna, message)
    return channel, message, anna, bo


async def test_a_whole_game_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await _three_at_the_table(env, "standard")
    table = table_in(env, channel.id)
    assert table.game is not None
    members = {anna.id: anna, bo.id: bo}
    await play_until(env, channel.id, members, message, 200)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert all(a.notation.startswith("lead ") for a in log)
    calls = message_text(channel.history()[0])
    assert "Snipp" in calls or "Snorum" in calls or "Resultat" in calls
    board = await bo.slash(channel, "topplista", spel="snipp_snapp_snorum")
    assert board.response is not None
    names = [
        line.split(":")[0][3:] for line in (board.response.embeds[0].description or "").splitlines()
    ]
    assert sorted(names) == ["anna", "bo"]


async def test_jig_forced_passes_are_played_at_once(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await _three_at_the_table(env, "jig")
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    await play_until(env, channel.id, members, message, 400)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    passes = [a for a in log if a.notation == "pass"]
    assert passes
    # nobody clicked a pass: a seat whose only move is to pass is moved by the table
    assert all(a.by == "computer" for a in passes)
    assert any(a.by == "member" for a in log)
