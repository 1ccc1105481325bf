"""Whole Femhundra matches through SimCord for 2, 3, 4 and 5 players: members (as partners with
four players) and computer players, to the leaderboard entry."""

from __future__ import annotations

import pytest
from members import bot_of, play_until, sync_commands, table_in
from simcord import Env

# who takes each seat, in order: a member's name or "computer"
SEATINGS = {
    2: ("anna", "computer"),
    3: ("anna", "bo", "computer"),
    4: ("anna", "computer", "bo", "computer"),  # anna and bo sit opposite: partners
    5: ("anna", "computer", "bo", "computer", "computer"),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
async def test_femhundra_match_to_the_leaderboard(simcord_env: Env, players: int) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="femhundra")
    message = opened.response
    assert message is not None
    for who in SEATINGS[players][1:]:
        if who == "bo":
            await bo.click(message, label="Sätt dig")
        else:
            await anna.select(message, ["normal"])
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    members = [who != "computer" for who in SEATINGS[players]]
    assert [s.user_id is not None for s in table.record.seats] == members
    if players == 4:
        assert table.game is not None
        assert table.game.view(None).teams == ((0, 2), (1, 3))

    played = await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 3000)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert sum(1 for a in log if a.by == "computer") > 0
    assert played == sum(1 for a in log if a.by == "member")
    board = await anna.slash(channel, "topplista", spel="femhundra")
    assert board.response is not None
    if "bo" in SEATINGS[players]:  # a table with one member is not rated
        lines = (board.response.embeds[0].description or "").splitlines()
        names = [line.split(":")[0][3:] for line in lines]
        assert sorted(names) == ["anna", "bo"]  # computer players are not on the leaderboard
    if players == 4:
        places = table.game.result().places if table.game is not None else ()
        assert places[0] == places[2]
