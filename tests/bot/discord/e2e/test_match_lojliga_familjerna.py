"""Löjliga familjerna through SimCord: asking in two clicks (whom, then which rank), the questions
on the table, and a whole game with two members and a computer to the leaderboard."""

from __future__ import annotations

from members import (
    bot_of,
    components,
    message_text,
    open_hand,
    play_until,
    start,
    sync_commands,
    table_in,
)
from simcord import Env


async def test_a_whole_game_asked_in_two_clicks_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="lojliga_familjerna")
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.select(message, ["normal"])
    await start(anna, message)
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    assert table.game is not None

    # the computer has asked already if it was first; a member asks: whom, then which rank
    seat = min(table.game.to_act())
    assert not table.by_computer(seat)
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    member = members[user_id]
    panel = await open_hand(member, message)
    whom = [c for c in components(panel) if str(c.get("custom_id", "")).startswith("kb:st:")]
    assert len(whom) == 2  # three players, a hand of 17 or 18: more than five questions
    assert {c["label"] for c in whom} == {"anna", "bo", "Dator 1"} - {member.user.name}
    step = await member.click(panel, custom_id=str(whom[0]["custom_id"]))
    assert step.response is not None
    ranks = [
        c for c in components(step.response) if str(c.get("custom_id", "")).startswith("kb:a:")
    ]
    assert ranks
    assert all(str(c["label"]).istitle() and " " not in str(c["label"]) for c in ranks)  # Kungar
    version = table.version
    await member.click(step.response, custom_id=str(ranks[0]["custom_id"]))
    assert table.version > version
    assert "frågade" in message_text(channel.history()[0])

    # members ask the last seat offered (the computer, seat 2), so the computer gets turns too
    await play_until(env, channel.id, members, message, 2000, step=-1)
    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert any(a.by == "computer" for a in log)
    board = await bo.slash(channel, "topplista", spel="lojliga_familjerna")
    assert board.response is not None
    names = [
        line.split(":")[0][3:] for line in (board.response.embeds[0].description or "").splitlines()
    ]
    assert sorted(names) == ["anna", "bo"]
