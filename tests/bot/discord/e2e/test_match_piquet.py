"""Whole Piquet parties through slash commands, buttons and selects, ending on the leaderboard:
two players (a member against a computer player), three and four (partners opposite)."""

from __future__ import annotations

from typing import Any

from members import bot_of, message_text, play_until, sync_commands, table_in
from simcord import Env

MOVES = 400


async def _table(env: Env, members: int, computers: int) -> tuple[Any, Any, list[Any]]:
    """Anna opens a Piquet table, the other members sit down, computer players fill the rest."""
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    names = ["anna", "bo", "cilla"][:members]
    actors = [guild.add_member(env.create_user(name)) for name in names]
    opened = await actors[0].slash(channel, "spel ny", spel="piquet")
    message = opened.response
    assert message is not None
    for member in actors[1:]:
        await member.click(message, label="Sätt dig")
    for _ in range(computers):
        await actors[0].select(message, ["normal"])
    await actors[0].click(message, label="Starta")
    return channel, message, actors


async def _board(env: Env, channel: Any, member: Any) -> list[str]:
    board = await member.slash(channel, "topplista", spel="piquet")
    assert board.response is not None
    lines = (board.response.embeds[0].description or "").splitlines()
    return sorted(line.split(":")[0][3:] for line in lines)


async def test_piquet_two_players_a_member_and_a_computer(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, (anna,) = await _table(env, 1, 1)
    table = table_in(env, channel.id)
    await play_until(env, channel.id, {anna.id: anna}, message, MOVES)
    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert any(a.notation.startswith("exchange ") and a.by == "member" for a in log)
    assert any(a.by == "computer" for a in log)
    assert table.game is not None
    assert table.game.view(None).deal >= 6
    assert "**Resultat**" in message_text(channel.history()[0])


async def test_piquet_three_players_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, (anna, bo) = await _table(env, 2, 1)
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    await play_until(env, channel.id, members, message, MOVES)
    assert table.record.status == "finished"
    assert table.game is not None
    sheet = table.game.view(None).sheet
    assert sheet is not None
    assert any(r.label.key == "piquet.sheet.settlement" for r in sheet.rows)
    assert await _board(env, channel, anna) == ["anna", "bo"]


async def test_piquet_four_players_partners_share_a_place(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, (anna, bo) = await _table(env, 2, 2)
    table = table_in(env, channel.id)
    assert table.game is not None
    assert table.game.view(None).teams == ((0, 2), (1, 3))
    shown = message_text(channel.history()[0])
    sides = next(line for line in shown.splitlines() if line.startswith("**Lag:**"))
    assert "anna" in sides
    assert "**Protokoll**" in shown
    members = {anna.id: anna, bo.id: bo}
    await play_until(env, channel.id, members, message, MOVES)
    assert table.record.status == "finished"
    result = table.game.result()
    assert result.places[0] == result.places[2]
    assert result.places[1] == result.places[3]
    assert result.scores[0] == result.scores[2]
    assert await _board(env, channel, bo) == ["anna", "bo"]
