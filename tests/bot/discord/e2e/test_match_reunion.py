"""A whole session of Reunion through slash commands, buttons and the discard multi-select, with
two members and a computer player, ending on the leaderboard."""

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

from games.reunion import Reunion


async def test_reunion_two_members_and_a_computer_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="reunion")
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.select(message, ["normal"])
    await start(anna, message)
    table = table_in(env, channel.id)
    assert [s.user_id is None for s in table.record.seats] == [False, False, True]
    assert isinstance(table.game, Reunion)
    members = {anna.id: anna, bo.id: bo}

    def dealer() -> int | None:
        return None if table.game is None else table.game.view(None).dealer

    # play until a member deals: the discard of two is one multi-select of two cards
    played = 0
    while dealer() == 2:
        played += await play_until(env, channel.id, members, message, 1)
    seat = dealer()
    assert seat is not None
    assert table.game.to_act() == frozenset({seat})
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    panel = await open_hand(members[user_id], message)
    selects = [c for c in components(panel) if str(c.get("custom_id", "")).startswith("kb:s:")]
    assert [(c["min_values"], c["max_values"]) for c in selects] == [(2, 2)]
    offered = {o["value"] for o in selects[0]["options"]}
    assert not offered & {"AC", "AD", "AH", "AS"}  # never an ace

    played += await play_until(env, channel.id, members, message, 2000)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert any(a.notation.startswith("discard ") and a.by == "member" for a in log)
    assert any(a.notation.startswith("discard ") and a.by == "computer" for a in log)
    assert played == sum(1 for a in log if a.by == "member")
    assert sum(1 for a in log if a.notation.startswith("discard ")) == 9  # three parties
    result = message_text(channel.history()[0])
    assert "**Resultat**" in result
    assert "Parti 3: insatser" in result.split("**Protokoll**")[1]  # the settlement, item by item
    board = await bo.slash(channel, "topplista", spel="reunion")
    assert board.response is not None
    names = [
        line.split(":")[0][3:] for line in (board.response.embeds[0].description or "").splitlines()
    ]
    assert sorted(names) == ["anna", "bo"]  # the computer player is not on the leaderboard
