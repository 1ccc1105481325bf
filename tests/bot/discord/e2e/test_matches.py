"""Whole matches through slash commands, buttons and selects, ending on the leaderboard."""

from __future__ import annotations

import pytest
from members import (
    bot_of,
    labels,
    message_text,
    play_until,
    start,
    sync_commands,
    table_for_two,
    table_in,
)
from simcord import Env

from games.registry import SPECS


async def test_tvamanswhist_two_members_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    assert not message.ephemeral
    await start(anna, message)
    table = table_in(env, channel.id)
    await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 400)

    assert table.record.status == "finished"
    assert bot_of(env).sessions.table_in(channel.id) is None
    assert "**Resultat**" in message_text(channel.history()[0])
    assert labels(channel.history()[0]) == ["Ny match"]  # a finished table offers a rematch only
    board = await anna.slash(channel, "topplista", spel="tvamanswhist")
    assert board.response is not None
    lines = (board.response.embeds[0].description or "").splitlines()
    assert len(lines) == 2
    assert {line.split(":")[0][3:] for line in lines} == {"anna", "bo"}


@pytest.mark.skipif("nittionio" not in SPECS, reason="Nittionio is not registered yet")
async def test_nittionio_two_members_and_a_computer_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="nittionio")
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.select(message, ["normal"])
    await start(anna, message)
    table = table_in(env, channel.id)
    assert [s.user_id is None for s in table.record.seats] == [False, False, True]

    played = await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 1000)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert any(a.notation.startswith("bid ") and a.by == "member" for a in log)
    assert sum(1 for a in log if a.by == "computer") > 0
    assert played == sum(1 for a in log if a.by == "member")
    board = await bo.slash(channel, "topplista", spel="nittionio")
    assert board.response is not None
    names = [
        line.split(":")[0][3:] for line in (board.response.embeds[0].description or "").splitlines()
    ]
    assert sorted(names) == ["anna", "bo"]  # the computer player is not on the leaderboard
