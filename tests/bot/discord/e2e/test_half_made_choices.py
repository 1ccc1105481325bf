"""Half-made choices on a hand panel in SimCord: picked bid cards are shown with the bid they make,
kept while the panel is refreshed for others' moves, sent with a button, and dropped with a word
when the time runs out and the computer lays them."""

from __future__ import annotations

from typing import Any

from members import (
    bot_of,
    components,
    message_text,
    open_hand,
    play_first_legal,
    table_for_two,
    table_in,
)
from simcord import Env

from bot.sessions import DECISION_FACTOR, LiveTable


async def nittionio_for_two(env: Env) -> tuple[Any, Any, Any, LiveTable]:
    channel, message, anna, bo = await table_for_two(env, "nittionio")
    await anna.select(message, ["normal"])
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    return message, anna, bo, table


def bid_menu(panel: Any) -> dict[str, Any]:
    return next(c for c in components(panel) if str(c.get("custom_id", "")).startswith("kb:s:"))


def send_ids(panel: Any) -> list[str]:
    return [
        str(c["custom_id"])
        for c in components(panel)
        if str(c.get("custom_id", "")).startswith("kb:a:") and "Skicka" in str(c.get("label"))
    ]


async def test_picked_bid_cards_show_their_bid_survive_a_refresh_and_are_sent_with_a_button(
    simcord_env: Env,
) -> None:
    env = simcord_env
    message, anna, bo, table = await nittionio_for_two(env)
    panel = await open_hand(anna, message)
    menu = bid_menu(panel)
    picks = [o["value"] for o in menu["options"] if o["value"] != "JK"][:3]
    worth = {"D": 0, "S": 1, "H": 2, "C": 3}  # the joker, left out, counts as the turn-up's suit
    picked = await anna.select(panel, picks, custom_id=menu["custom_id"])
    shown = picked.response
    assert shown is not None
    assert f"→ bud {sum(worth[c[-1]] for c in picks)}" in message_text(shown)
    assert len(send_ids(shown)) == 1
    log = await bot_of(env).storage.actions(table.table_id)
    assert not [a for a in log if a.by == "member"]  # nothing sent yet

    await play_first_legal(bo, await open_hand(bo, message))  # Bo lays his: Anna's panel redrawn
    await env.settle()
    assert "Valt:" in message_text(shown)  # the same panel, edited, still holding her picks
    assert {o["value"] for o in bid_menu(shown)["options"] if o.get("default")} == set(picks)
    (send,) = send_ids(shown)
    await anna.click(shown, custom_id=send)
    log = await bot_of(env).storage.actions(table.table_id)
    mine = [a for a in log if a.by == "member" and a.seat == table.seat_of(anna.id)]
    assert [sorted(a.notation.split()[1:]) for a in mine] == [sorted(picks)]


async def test_picks_dropped_when_the_computer_lays_the_cards_are_said_so(
    simcord_env: Env,
) -> None:
    env = simcord_env
    message, anna, _, table = await nittionio_for_two(env)
    panel = await open_hand(anna, message)
    menu = bid_menu(panel)
    picks = [o["value"] for o in menu["options"][:3]]
    picked = await anna.select(panel, picks, custom_id=menu["custom_id"])
    shown = picked.response
    assert shown is not None
    assert "Valt:" in message_text(shown)

    await env.advance_time(table.record.turn_seconds * DECISION_FACTOR + 1)

    log = await bot_of(env).storage.actions(table.table_id)
    assert any(a.by == "timeout" and a.seat == table.seat_of(anna.id) for a in log)
    assert "Tiden gick ut" in message_text(shown)
    assert "Ditt påbörjade val (Lägg budkort" in message_text(shown)
    assert "gäller inte längre" in message_text(shown)
    assert not send_ids(shown)
