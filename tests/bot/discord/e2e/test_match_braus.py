"""Bräus through SimCord: two members as partners against two computer players, a whole match to
the leaderboard, where the partners share their place and their result."""

from __future__ import annotations

from members import bot_of, message_text, play_until, start, sync_commands, table_in
from simcord import Env


async def test_braus_two_partners_against_computers_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="braus")
    message = opened.response
    assert message is not None
    await anna.select(message, ["normal"])  # seat 1
    await bo.click(message, label="Sätt dig")  # seat 2: Anna's partner
    await start(anna, message)  # seat 3 is filled by a computer player
    table = table_in(env, channel.id)
    assert [s.user_id for s in table.record.seats] == [anna.id, None, bo.id, None]
    shown = message_text(channel.history()[0])
    assert "**Lag:** anna & bo · " in shown

    played = await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 2000)

    assert table.record.status == "finished"
    assert table.game is not None
    result = table.game.result()
    assert result.places[0] == result.places[2]
    assert result.places[1] == result.places[3] != result.places[0]
    log = await bot_of(env).storage.actions(table.table_id)
    # a member's forced pass (no card may be played) is played by the table at once
    assert any(a.notation == "pass" and a.seat in (0, 2) and a.by == "computer" for a in log)
    assert not any(a.notation == "pass" and a.by == "member" for a in log)
    assert sum(1 for a in log if a.by == "computer") > 0
    assert played == sum(1 for a in log if a.by == "member")
    final = message_text(channel.history()[0])
    assert "**Resultat**" in final
    assert "**Protokoll**" in final
    board = await bo.slash(channel, "topplista", spel="braus")
    assert board.response is not None
    lines = (board.response.embeds[0].description or "").splitlines()
    assert sorted(line.split(":")[0][3:] for line in lines) == ["anna", "bo"]
    assert lines[0].split(":")[1] == lines[1].split(":")[1]  # rated as one side
