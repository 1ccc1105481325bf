"""Whose turn it is reaches the member: a DM line (Discord notifies it) when their turn came after
others acted and they have not acted within the grace, once per turn; never when they act in
time or turned it off; a mention in the channel, deleted afterwards, when their DMs are closed."""

from __future__ import annotations

from typing import Any

from members import (
    bot_of,
    dm_texts,
    message_text,
    open_hand,
    play_first_legal,
    table_for_two,
    table_in,
)
from simcord import Env

from bot.discord.listener import TURN_NOTICE_GRACE


def notices(member: Any) -> list[str]:
    return [t for t in dm_texts(member) if t.startswith("Din tur")]


def to_act(table: Any, anna: Any, bo: Any) -> tuple[Any, Any]:
    """(the member whose turn it is, the other)."""
    seat = min(table.game.to_act())
    return (anna, bo) if table.record.seats[seat].user_id == anna.id else (bo, anna)


async def test_a_member_who_does_not_act_is_told_once_per_turn(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    slow, other = to_act(table, anna, bo)

    await env.advance_time(TURN_NOTICE_GRACE - 1)
    assert notices(slow) == []
    await env.advance_time(2)
    told = notices(slow)
    assert len(told) == 1
    assert "Tvåmanswhist" in told[0]
    assert f"/{channel.id}/{message.id}" in told[0]  # a link to the table
    await env.advance_time(TURN_NOTICE_GRACE * 3)  # still the same turn: not told again
    assert table.seq == 0
    assert len(notices(slow)) == 1
    assert notices(other) == []

    await play_first_legal(slow, await open_hand(slow, message))
    nxt, _ = to_act(table, anna, bo)
    before = len(notices(nxt))
    await env.advance_time(TURN_NOTICE_GRACE + 1)
    assert len(notices(nxt)) == before + 1  # a new turn, a new notice


async def test_no_notice_when_the_member_turned_it_off(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    for member in (anna, bo):
        answer = await member.slash(channel, "spel turpåminnelse", på=False)
        assert answer.response is not None
        assert "ingen påminnelse" in message_text(answer.response)
    assert not await bot_of(env).storage.member_choice("turn_notices", anna.id)
    await anna.click(message, label="Starta")

    await env.advance_time(TURN_NOTICE_GRACE * 3)
    assert table_in(env, channel.id).seq == 0
    assert notices(anna) == notices(bo) == []

    await anna.slash(channel, "spel turpåminnelse", på=True)
    assert await bot_of(env).storage.member_choice("turn_notices", anna.id)


async def test_no_notice_when_the_member_acts_within_the_grace(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    for _ in range(4):
        member, _ = to_act(table, anna, bo)
        await env.advance_time(TURN_NOTICE_GRACE / 2)
        await play_first_legal(member, await open_hand(member, message))
    await env.settle()
    assert table.seq == 4
    assert notices(anna) == notices(bo) == []


async def test_with_closed_dms_a_mention_is_posted_and_deleted_when_the_turn_ends(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    for member in (anna, bo):
        dms = member.user.dm_channel
        env.inject_error("POST", f"/channels/{dms.id}/messages", status=403, code=50007, times=None)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    slow, _ = to_act(table, anna, bo)
    before = [m.id for m in channel.history()]

    await env.advance_time(TURN_NOTICE_GRACE + 1)
    mentions = [m for m in channel.history() if m.id not in before]
    assert len(mentions) == 1
    assert slow.mention in message_text(mentions[0])
    assert "din tur" in message_text(mentions[0])

    await play_first_legal(slow, await open_hand(slow, message))
    await env.settle()
    assert mentions[0].id not in [m.id for m in channel.history()]  # deleted: the turn is over
