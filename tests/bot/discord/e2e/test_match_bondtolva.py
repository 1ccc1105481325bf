"""Bondtolva through SimCord: a whole match of members and the computer player, played from the
hand panel (cards, and the declare-or-skip step after a won trick) to the leaderboard."""

from __future__ import annotations

from members import bot_of, labels, message_text, play_until, start, table_for_two, table_in
from simcord import Env

MOVES = 2000  # a match to exactly 12 takes some ten deals of about 15 moves a seat
DECLARE_STEP = {"skip", "declare C", "declare D", "declare H", "declare S"}


async def test_bondtolva_two_members_and_the_computer_player_to_the_leaderboard(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "bondtolva")
    await start(anna, message)
    table = table_in(env, channel.id)
    assert table.game is not None
    members = {anna.id: anna, bo.id: bo}
    bo_seat = table.seat_of(bo.id)
    assert bo_seat is not None
    while not table.record.seats[bo_seat].autoplay:  # Bo lets his turns run out
        if bo_seat in table.game.to_act():
            await env.advance_time(table.record.turn_seconds + 1)
        else:
            await play_until(env, channel.id, members, message, 1)

    # the computer player plays Bo's seat from here on; Anna plays hers from the panel
    played = await play_until(env, channel.id, members, message, MOVES)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert [a.by for a in log if a.seat == bo_seat][:2] == ["timeout", "timeout"]
    assert any(a.by == "computer" and a.seat == bo_seat for a in log)
    assert sum(1 for a in log if a.by == "member") >= played
    assert any(a.notation in DECLARE_STEP and a.by == "member" for a in log)
    result = message_text(channel.history()[0])
    assert "**Resultat**" in result
    assert "**Protokoll**" in result  # the score sheet, deal by deal
    assert labels(channel.history()[0]) == ["Ny match"]  # a finished table offers a rematch only
    board = await anna.slash(channel, "topplista", spel="bondtolva")
    assert board.response is not None
    lines = (board.response.embeds[0].description or "").splitlines()
    assert {line.split(":")[0][3:] for line in lines} == {"anna", "bo"}
