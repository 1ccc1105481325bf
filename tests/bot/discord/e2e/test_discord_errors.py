"""Discord failing (5xx) through SimCord: an interaction response, a table message post or edit
and a DM are tried again a few times, a little later each time; what still fails is said to the
member, and the table is as it says it is afterwards."""

from __future__ import annotations

from typing import Any

import pytest
from members import bot_of, dm_texts, message_text, sync_commands, table_for_two, table_in
from simcord import Env

from bot.discord import replies
from bot.i18n import catalog

CALLBACK = "/interactions/*/callback"


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same tries, without waiting between them (SimCord waits in real time)."""
    monkeypatch.setattr(replies, "RETRY_DELAYS", (0.0, 0.0))


def shown(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


async def opened_channel(env: Env) -> tuple[Any, Any, Any]:
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    return guild, channel, anna


async def test_a_table_message_that_fails_once_is_posted_at_the_next_try(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, anna = await opened_channel(env)
    env.inject_error("POST", CALLBACK, status=500, times=1)
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    assert not opened.response.ephemeral
    table = table_in(env, channel.id)
    assert table.record.message_id == opened.response.id


async def test_a_lobby_that_cannot_be_posted_is_ended_and_the_host_told(simcord_env: Env) -> None:
    env = simcord_env
    _, channel, anna = await opened_channel(env)
    env.inject_error("POST", CALLBACK, status=503, times=3)
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    assert opened.response.ephemeral
    assert message_text(opened.response) == catalog("sv").text("errors.not_posted")
    sessions = bot_of(env).sessions
    assert sessions.table_in(channel.id) is None  # the channel is free
    assert sessions.table_of(anna.id) is None  # and so is the host
    again = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert again.response is not None
    assert not again.response.ephemeral


async def test_a_click_whose_answer_fails_once_is_answered_and_done_once(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, _bo = await table_for_two(env)
    table = table_in(env, channel.id)
    env.inject_error("POST", CALLBACK, status=500, times=1)
    started = await anna.click(message, label="Starta")
    assert started.acknowledged
    # the click's own answer, not an error message
    assert started.response is not None
    assert not started.response.ephemeral
    assert table.record.status == "playing"


async def test_an_answer_that_keeps_failing_is_reported_not_mistaken_for_a_bug(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, _anna, bo = await table_for_two(env)
    env.inject_error("POST", CALLBACK, status=502, times=3)
    left = await bo.click(message, label="Lämna")
    assert left.response is not None
    assert left.response.ephemeral
    assert message_text(left.response) == catalog("sv").text("errors.discord")
    assert table_in(env, channel.id).seat_of(bo.id) is None  # what was done is done once


async def test_a_table_message_edit_that_fails_once_shows_the_table_anyway(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, _bo = await table_for_two(env)
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=500, times=1)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.record.status == "playing"
    text = message_text(shown(channel, message.id))
    assert "**Platser** (" not in text  # no longer the lobby's seats: the match is shown


async def test_a_dm_that_fails_once_arrives_anyway(simcord_env: Env) -> None:
    env = simcord_env
    _channel, message, anna, bo = await table_for_two(env)
    env.inject_error("POST", "/channels/*/messages", status=500, times=1)
    await anna.click(message, label="Starta")
    assert len(dm_texts(anna)) == 1
    assert len(dm_texts(bo)) == 1
