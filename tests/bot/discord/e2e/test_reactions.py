"""Hej knekt in the channel: the reaction buttons on the table message, timed by Discord's ids,
the window open from when Discord has shown the turned card.

Time moves only by ``advance_time``: the session's timers run on SimCord's clock alone.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from members import bot_of, button, message_text, start, sync_commands, table_in
from simcord import Env, MemberActor

from bot.discord import replies
from bot.errors import UserError
from bot.i18n import catalog
from bot.sessions import correct_press


async def three_at_hej_knekt(
    env: Env, reaction_ms: int = 15000
) -> tuple[Any, Any, dict[int, MemberActor]]:
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna, bo, cilla = (guild.add_member(env.create_user(n)) for n in ("anna", "bo", "cilla"))
    opened = await anna.slash(
        channel, "spel ny", spel="hej_knekt", alternativ=f"reaction_ms={reaction_ms}"
    )
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await cilla.click(message, label="Sätt dig")
    await start(anna, message)
    return channel, message, {m.id: m for m in (anna, bo, cilla)}


async def turn_until_a_reaction(table: Any, message: Any, members: dict[int, MemberActor]) -> None:
    """The members turn cards until one calls for a reaction (a 10 or higher)."""
    for _ in range(60):
        assert table.game is not None
        if table.reveal_at is not None:
            break
        turner = table.record.seats[min(table.game.to_act())].user_id
        assert turner is not None
        await members[turner].click(message, custom_id=button(message, "kb:t:", ":turn"))
    assert table.reveal_at is not None


async def test_a_reaction_window_resolves_by_press_times(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)

    await turn_until_a_reaction(table, message, members)
    game = table.game
    assert game is not None
    first, second, third = sorted(game.to_act())
    right = correct_press(game, first)
    assert right is not None
    by_seat = {s: members[table.record.seats[s].user_id or 0] for s in (first, second, third)}
    wrong = next(v for v in ("whistle", "hej", "goddag", "salute", "slap") if v != right)

    # a press on the wrong reaction first, then two correct ones: the one who did it wrong loses
    await env.advance_time(0.2)
    await by_seat[first].click(message, custom_id=button(message, "kb:r:", f":{wrong}"))
    await env.advance_time(0.3)
    await by_seat[second].click(message, custom_id=button(message, "kb:r:", f":{right}"))
    await env.advance_time(0.4)
    await by_seat[third].click(message, custom_id=button(message, "kb:r:", f":{right}"))

    log = [(a.seat, a.notation) for a in await bot_of(env).storage.actions(table.table_id)]
    assert log[-3:] == [(first, f"{wrong} 200"), (second, f"{right} 500"), (third, f"{right} 900")]
    # both clean presses are in, so the window closed at once: the first seat picks up and turns
    assert table.reveal_at is None
    assert game is not table.game
    assert table.game is not None
    assert table.game.to_act() == frozenset({first})
    # the table shows its three latest events: the last press, who was wrong, who picks up
    events = message_text(channel.history()[0]).split("**Senaste händelser**")[1]
    assert "900 ms" in events
    assert "plockar upp" in events


async def test_a_slow_disk_does_not_move_the_simulated_clock_so_press_times_stay_exact(
    simcord_env: Env,
) -> None:
    """Each commit takes 0.3 s of the machine's time (a busy machine), longer than the bot
    waits before it defers a click: the storage's watch of its own time and the deferral's
    pause were timers SimCord took for the bot's and moved its clock on by, so presses made
    0.2 s and 0.5 s after the card counted 50–200 ms late."""
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)
    await turn_until_a_reaction(table, message, members)
    bot_of(env).defer_after = 0.1
    db = bot_of(env).storage._db  # type: ignore[attr-defined]
    execute = db.execute

    def slow_commit(sql: str, *args: Any) -> Any:
        if sql != "COMMIT":
            return execute(sql, *args)

        async def later() -> Any:
            await asyncio.to_thread(time.sleep, 0.3)
            return await execute(sql, *args)

        return later()

    db.execute = slow_commit
    game = table.game
    assert game is not None
    first, second, *_ = sorted(game.to_act())
    right = correct_press(game, first)
    assert right is not None
    by_seat = {s: members[table.record.seats[s].user_id or 0] for s in (first, second)}
    await env.advance_time(0.2)
    await by_seat[first].click(message, custom_id=button(message, "kb:r:", f":{right}"))
    await env.advance_time(0.3)
    await by_seat[second].click(message, custom_id=button(message, "kb:r:", f":{right}"))
    log = [(a.seat, a.notation) for a in await bot_of(env).storage.actions(table.table_id)]
    assert log[-2:] == [(first, f"{right} 200"), (second, f"{right} 500")]


async def test_the_window_opens_when_discord_has_shown_the_turned_card(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord takes a second to take each edit of the table message (it fails once and is
    tried again a second later): a turned card's 5 s window runs from when the edit showing it
    was taken, so a press 5.5 s after the turn, 4.5 s after the card could be seen, counts."""
    monkeypatch.setattr(replies, "RETRY_DELAYS", (1.0, 1.0))
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env, reaction_ms=5000)
    table = table_in(env, channel.id)
    edits = f"/channels/{channel.id}/messages/{message.id}"
    for _ in range(60):
        assert table.game is not None
        turner = table.record.seats[min(table.game.to_act())].user_id
        assert turner is not None
        env.inject_error("PATCH", edits, status=500, times=1)
        turned = env.now().timestamp()
        await members[turner].click(message, custom_id=button(message, "kb:t:", ":turn"))
        if table.reveal_at is not None:
            break
    assert table.reveal_at is not None
    shown = next(m for m in channel.history() if m.id == message.id)
    assert shown.edited_at is not None
    assert table.reveal_at == shown.edited_at.timestamp() == turned + 1.0

    game = table.game
    assert game is not None
    seat = min(game.to_act())
    right = correct_press(game, seat)
    assert right is not None
    await env.advance_time(4.5)  # 5.5 s after the turn
    member = members[table.record.seats[seat].user_id or 0]
    pressed = await member.click(message, custom_id=button(message, "kb:r:", f":{right}"))
    assert not pressed.ephemeral  # taken, not "too late"
    log = [(a.seat, a.notation) for a in await bot_of(env).storage.actions(table.table_id)]
    assert (seat, f"{right} 4500") in log


async def test_a_press_when_no_reaction_is_needed_is_refused(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)
    assert table.reveal_at is None  # no card turned yet
    anna = next(iter(members.values()))
    result = await anna.click(message, custom_id=button(message, "kb:r:", ":slap"))
    assert result.ephemeral
    assert result.response is not None
    assert "ingen reaktion" in message_text(result.response)
    assert table.seq == 0


async def test_a_corrected_press_closes_the_window_once_its_penalty_has_run(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)
    await turn_until_a_reaction(table, message, members)
    game = table.game
    assert game is not None
    assert table.reveal_at is not None
    first, second, third = sorted(game.to_act())
    right = correct_press(game, first)
    assert right is not None
    by_seat = {s: members[table.record.seats[s].user_id or 0] for s in (first, second, third)}
    wrong = next(v for v in ("whistle", "hej", "goddag", "salute", "slap") if v != right)

    # the first slips at 200 and corrects at 300 (counts from 1200), the second is right at 500:
    # the third could still beat the first until 1200, and is certainly last from then on
    await env.advance_time(0.2)
    await by_seat[first].click(message, custom_id=button(message, "kb:r:", f":{wrong}"))
    await env.advance_time(0.1)
    await by_seat[first].click(message, custom_id=button(message, "kb:r:", f":{right}"))
    await env.advance_time(0.2)
    await by_seat[second].click(message, custom_id=button(message, "kb:r:", f":{right}"))
    await env.advance_time(1.0)

    log = [(a.seat, a.notation) for a in await bot_of(env).storage.actions(table.table_id)]
    assert log[-1][1] == "close 1200"  # closed when the penalty ran out, not at 15 s
    assert table.reveal_at is None
    assert table.game is not None
    assert table.game.to_act() == frozenset({third})
    events = message_text(channel.history()[0]).split("**Senaste händelser**")[1]
    assert "1200 ms" in events


async def test_a_press_after_the_window_closed_is_told_it_came_too_late(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)
    await turn_until_a_reaction(table, message, members)
    assert table.reveal_at is not None
    reveal = table.reveal_seq  # what the buttons carried while the window was open
    await env.advance_time(16)  # the 15 s window closes
    assert table.reveal_at is None or table.reveal_seq != reveal
    seq = table.seq

    # a click made on the old buttons, arriving after the close (Discord had not yet shown the edit)
    anna = next(iter(members))
    with pytest.raises(UserError) as refused:
        await bot_of(env).sessions.press(
            table.table_id, anna, reveal, "slap", env.now().timestamp()
        )
    assert catalog("sv").text(refused.value.msg.key) == (
        "För sent: fönstret stängdes innan ditt tryck kom fram."
    )
    assert table.seq == seq


async def test_a_press_on_the_buttons_shown_after_the_close_is_told_it_came_too_late(
    simcord_env: Env,
) -> None:
    """The table message is edited when the window closes; a member who presses then, before
    any card is turned, pressed for the card that called for it: "För sent", never "no
    reaction needed" or "not allowed"."""
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)
    await turn_until_a_reaction(table, message, members)
    await env.advance_time(16)  # the 15 s window closes
    assert table.reveal_at is None
    seq = table.seq
    anna = next(iter(members.values()))
    result = await anna.click(message, custom_id=button(message, "kb:r:", ":slap"))
    assert result.response is not None
    assert "För sent" in message_text(result.response)
    assert table.seq == seq


async def test_a_press_counts_while_the_window_is_open_by_the_servers_clock(
    simcord_env: Env,
) -> None:
    """A press whose click Discord stamped after the window's length, received while the
    window is still open by the server's clock, counts (at the window's last moment)."""
    env = simcord_env
    channel, message, members = await three_at_hej_knekt(env)
    table = table_in(env, channel.id)
    await turn_until_a_reaction(table, message, members)
    game = table.game
    assert game is not None
    assert table.reveal_at is not None
    seat = min(game.to_act())
    right = correct_press(game, seat)
    assert right is not None
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    await env.advance_time(14.5)
    stamped = table.reveal_at + 15.2  # a click stamped a little late
    await bot_of(env).sessions.press(table.table_id, user_id, table.reveal_seq, right, stamped)
    log = [(a.seat, a.notation) for a in await bot_of(env).storage.actions(table.table_id)]
    assert (seat, f"{right} 14999") in log
