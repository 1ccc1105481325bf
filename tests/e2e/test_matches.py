"""Whole matches through slash commands, buttons and selects, ending on the leaderboard."""

from __future__ import annotations

from members import bot_of, open_hand, play_first_legal, table_in
from simcord import Env


async def test_tvamanswhist_two_members_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await bot_of(env).tree.sync()
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))

    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    table_message = opened.response
    assert table_message is not None
    assert not opened.ephemeral
    await bo.click(table_message, label="Sätt dig")
    await anna.click(table_message, label="Starta")
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    moves = 0
    while table.game is not None and not table.game.is_over():
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        panel = await open_hand(members[user_id], table_message)
        await play_first_legal(members[user_id], panel)
        moves += 1
        assert moves < 400
    assert table.record.status == "finished"
    final = channel.history()
    assert final  # the table message stays, with the result
    board = await anna.slash(channel, "topplista", spel="tvamanswhist")
    assert board.response is not None
    text = board.response.embeds[0].description or ""
    assert "anna" in text
    assert "bo" in text
    assert bot_of(env).sessions.table_in(channel.id) is None
