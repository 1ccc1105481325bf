"""A whole match of Skitgubbe through slash commands, buttons and selects: two members and a
computer player, phase 1's single cards and phase 2's groups (several cards chosen in one
multi-select), ending on the leaderboard."""

from __future__ import annotations

from members import bot_of, message_text, play_until, start, sync_commands, table_in
from simcord import Env


async def test_skitgubbe_two_members_and_a_computer_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="skitgubbe")
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.select(message, ["normal"])
    await start(anna, message)
    table = table_in(env, channel.id)
    assert [s.user_id is None for s in table.record.seats] == [False, False, True]

    played = await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 2000)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    members = [a.notation for a in log if a.by == "member"]
    assert played == len(members)
    assert any(len(n.split()) > 1 for n in members), "no group was played from a multi-select"
    assert sum(1 for a in log if a.by == "computer") > 0
    assert "**Resultat**" in message_text(channel.history()[0])
    board = await bo.slash(channel, "topplista", spel="skitgubbe")
    assert board.response is not None
    names = [
        line.split(":")[0][3:] for line in (board.response.embeds[0].description or "").splitlines()
    ]
    assert sorted(names) == ["anna", "bo"]  # the computer player is not on the leaderboard
