"""The flow around a match: questions before what cannot be undone, the lobby, a rematch."""

from __future__ import annotations

from members import bot_of, components, message_text, play_until, table_for_two, table_in
from simcord import Env


def button(message: object, label: str) -> dict[str, object]:
    found = [c for c in components(message) if c.get("label") == label]
    assert found, f"no button {label!r}"
    return found[0]


async def test_ending_a_match_asks_first_and_says_the_match_is_lost(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, _ = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)

    asked = await anna.click(message, label="Avsluta")
    assert asked.ephemeral
    assert "går förlorad" in message_text(asked.response)
    assert table.record.status == "playing"  # nothing happened yet
    table = table_in(env, channel.id)  # (a fresh name: the status is about to change)

    done = await anna.click(asked.response, label="Ja, avsluta")
    assert done.response is not None
    assert table.record.status == "ended"
    assert bot_of(env).sessions.table_in(channel.id) is None
    assert "avslutade" in message_text(channel.history()[0])


async def test_starting_with_empty_seats_asks_before_computers_take_them(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, _ = await table_for_two(env, "nittionio")
    lobby = message_text(channel.history()[0])
    assert "1 tom plats" in lobby
    assert "Dragtid: 60 s" in lobby

    asked = await anna.click(message, label="Starta")
    assert asked.ephemeral
    assert "1 tom plats" in message_text(asked.response)
    assert "datorspelare" in message_text(asked.response)
    table = table_in(env, channel.id)
    assert table.record.status == "lobby"

    await anna.click(asked.response, label="Fyll med datorspelare och starta")
    table = table_in(env, channel.id)
    assert table.record.status == "playing"
    assert [s.user_id is None for s in table.record.seats] == [False, False, True]


async def test_join_is_disabled_on_a_full_table(simcord_env: Env) -> None:
    env = simcord_env
    channel, _, _, _ = await table_for_two(env)  # Tvåmanswhist: two seats
    shown = channel.history()[0]
    assert button(shown, "Sätt dig").get("disabled") is True
    assert "Bordet är fullt" in message_text(shown)


async def test_a_rematch_seats_the_same_players_with_the_same_options(simcord_env: Env) -> None:
    env = simcord_env
    from members import sync_commands

    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(
        channel, "spel ny", spel="tvamanswhist", dragtid=45, alternativ="scoring=all26"
    )
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.click(message, label="Starta")
    first = table_in(env, channel.id)
    await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 500)
    assert first.record.status == "finished"
    finished = next(m for m in channel.history() if m.id == message.id)
    assert [c.get("label") for c in components(finished)] == ["Ny match"]

    again = await bo.click(finished, label="Ny match")
    assert again.response is not None
    second = table_in(env, channel.id)
    assert second.table_id != first.table_id
    assert second.record.status == "lobby"
    assert [(s.seat, s.user_id) for s in second.record.seats] == [
        (s.seat, s.user_id) for s in first.record.seats
    ]
    assert second.record.options == first.record.options
    assert second.record.turn_seconds == 45
    assert second.record.host_id == bo.id
    assert second.record.message_id == again.response.id
