"""Tvåmansbridge through SimCord: a bid in two clicks (level, then strain), the score sheet on the
table, a member's seat taken over by the computer player after two missed turns, and a whole
rubber to the leaderboard."""

from __future__ import annotations

from typing import Any

from members import (
    bot_of,
    components,
    custom_id,
    message_text,
    open_hand,
    pictures,
    play_first_legal,
    table_for_two,
)
from members import table_in as live_table
from simcord import Env, MemberActor

from bot.sessions import STRIKES_FOR_AUTOPLAY


async def bid_in_two_clicks(member: MemberActor, message: Any, level: str) -> str:
    """Open the hand, click the bid's level, then the first strain that level offers."""
    panel = await open_hand(member, message)
    step = await member.click(panel, custom_id=custom_id(panel, f":bid:{level}"))
    page = step.response
    assert page is not None
    labels = [str(c.get("label", "")) for c in components(page)]
    assert any(label.startswith(f"Bjud {level}") for label in labels), labels
    chosen = next(c for c in components(page) if str(c.get("custom_id", "")).startswith("kb:a:"))
    await member.click(page, custom_id=str(chosen["custom_id"]))
    return str(chosen["label"])


async def test_tvamansbridge_a_member_and_the_computer_player_to_the_leaderboard(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamansbridge")
    await anna.click(message, label="Starta")
    table = live_table(env, channel.id)
    game = table.game
    assert game is not None
    seat_of = {s.user_id: s.seat for s in table.record.seats}
    members = {seat_of[anna.id]: anna, seat_of[bo.id]: bo}

    # the dealer opens with a bid in two clicks: the level, then the strain
    (dealer,) = game.to_act()
    label = await bid_in_two_clicks(members[dealer], message, "1")
    assert label == "Bjud 1☘️"  # clubs in the four-colour Discord deck
    log = await bot_of(env).storage.actions(table.table_id)
    assert [(a.notation, a.by) for a in log] == [("bid 1C", "member")]
    shown = message_text(channel.history()[0])
    sheet = shown.split("**Protokoll**")[1]
    assert "(över strecket)" in sheet
    assert "Summa" in sheet
    assert pictures(channel.history()[0])  # the träkarl is drawn in the table's picture

    # Bo lets his turn run out twice: then the computer player plays his seat
    bo_seat = seat_of[bo.id]
    while not table.by_computer(bo_seat):
        assert table.game is not None  # the session may swap in a new state: read it afresh
        acting = sorted(table.game.to_act())
        if bo_seat in acting:
            await env.advance_time(table.record.turn_seconds + 1)
        else:
            await play_first_legal(anna, await open_hand(anna, message))
    assert table.record.seats[bo_seat].strikes >= STRIKES_FOR_AUTOPLAY

    # Anna plays her first choice on the panel (she passes in the bidding) to the end
    anna_seat = seat_of[anna.id]
    for _ in range(3000):
        if table.game is None or table.game.is_over() or table.record.status != "playing":
            break
        if anna_seat in table.game.to_act():
            await play_first_legal(anna, await open_hand(anna, message))
        else:
            await env.advance_time(0.1)
    assert table.record.status == "finished"

    log = await bot_of(env).storage.actions(table.table_id)
    assert sum(1 for a in log if a.by == "computer") > 0
    assert any(a.by == "timeout" for a in log)
    assert any(a.notation.startswith("bid ") and a.by == "computer" for a in log)
    result = message_text(channel.history()[0])
    assert "**Resultat**" in result
    assert "andra utgång" in result.split("**Protokoll**")[1]
    board = await anna.slash(channel, "topplista", spel="tvamansbridge")
    assert board.response is not None
    lines = (board.response.embeds[0].description or "").splitlines()
    assert {line.split(":")[0][3:] for line in lines} == {"anna", "bo"}
