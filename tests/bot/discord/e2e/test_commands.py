"""The other slash commands: rules, statistics, server settings, and the English localizations."""

from __future__ import annotations

import discord
from members import bot_of, components, message_text, sync_commands, table_for_two
from simcord import Env


async def test_commands_are_swedish_with_english_localizations(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    synced = next(
        r.json for r in env.http_requests if r.method == "PUT" and r.path.endswith("/commands")
    )
    assert isinstance(synced, list)
    by_name = {c["name"]: c for c in synced}
    assert set(by_name) == {
        "spel",
        "dagens",
        "hjälp",
        "regler",
        "topplista",
        "statistik",
        "inställningar",
    }
    assert by_name["hjälp"]["name_localizations"]["en-US"] == "help"
    assert by_name["spel"]["name_localizations"]["en-US"] == "game"
    new = next(o for o in by_name["spel"]["options"] if o["name"] == "ny")
    assert new["name_localizations"]["en-GB"] == "new"
    manage_guild = discord.Permissions(manage_guild=True).value
    assert str(by_name["inställningar"]["default_member_permissions"]) == str(manage_guild)


async def test_rules_of_a_game_in_the_tables_language(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    result = await anna.slash(channel, "regler", spel="svarte_petter")
    assert result.ephemeral
    assert result.response is not None
    embed = result.response.embeds[0]
    assert embed.title == "Regler: Svarte Petter"
    assert [f.name for f in embed.fields] == [
        "Kortlek",
        "Given",
        "Spelet",
        "Poäng",
        "Varianter",
        "Datorspelare och kontroll",
    ]
    assert "Datorspelarna ser aldrig dolda kort" in (embed.fields[-1].value or "")
    assert "spader knekt" in " ".join(f.value or "" for f in embed.fields).lower()
    unknown = await anna.slash(channel, "regler", spel="poker")
    assert unknown.response is not None
    assert "poker finns inte" in message_text(unknown.response)


async def test_a_game_typed_out_by_its_name_is_found_as_one_picked(simcord_env: Env) -> None:
    """ "Bräus" typed (not picked from the list) is the game Bräus, for /regler as for /spel ny,
    in any case and in English too."""
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    typed_names = {"Bräus": "Bräus", "bräus ": "Bräus", "svarte petter": "Svarte Petter"}
    for typed, name in typed_names.items():
        result = await anna.slash(channel, "regler", spel=typed)
        assert result.response is not None
        assert result.response.embeds, message_text(result.response)
        assert result.response.embeds[0].title == f"Regler: {name}"
    opened = await anna.slash(channel, "spel ny", spel="Bräus")
    assert opened.response is not None
    assert not opened.ephemeral
    assert bot_of(env).sessions.table_in(channel.id) is not None


async def test_help_says_how_to_play_and_names_every_command(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    result = await anna.slash(channel, "hjälp")
    assert result.ephemeral
    assert result.response is not None
    embed = result.response.embeds[0]
    assert embed.title == "Så spelar ni med Kortbord"
    said = embed.description or ""
    for command in ("/spel ny", "/spel hand", "/regler", "/topplista", "/dagens", "/hjälp"):
        assert command in said
    assert "Min hand" in said
    assert "Löjliga familjerna" in said


async def test_server_settings_need_manage_server_and_change_new_tables(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    other = guild.create_text_channel("prat")
    admins = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    anna = guild.add_member(env.create_user("anna"))

    assert "inställningar" not in anna.available_commands(channel)
    changed = await admin.slash(channel, "inställningar", språk="en", dragtid=120, kanal=channel)
    assert changed.ephemeral
    assert changed.response is not None
    shown = changed.response.embeds[0].description or ""
    assert "Turn time: 120 s" in shown
    assert channel.mention in shown

    refused = await anna.slash(other, "spel ny", spel="tvamanswhist")
    assert refused.ephemeral
    assert refused.response is not None
    assert "may not be opened in this channel" in message_text(refused.response)
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    assert message_text(opened.response).endswith("-# Host: anna")
    table = bot_of(env).sessions.table_in(channel.id)
    assert table is not None
    assert table.record.turn_seconds == 120
    assert table.record.language == "en"


async def test_statistics_after_a_finished_match_and_the_host_ends_a_table(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, _, anna, bo = await table_for_two(env)
    kicked = await bo.slash(channel, "spel sparka", medlem=anna)
    assert kicked.response is not None
    assert "Bara den som öppnade" in message_text(kicked.response)
    ended = await anna.slash(channel, "spel avsluta")
    assert ended.ephemeral
    assert bot_of(env).sessions.table_in(channel.id) is None
    assert components(channel.history()[0]) == []
    stats = await bo.slash(channel, "statistik")
    assert stats.response is not None
    assert "inte spelat" in (stats.response.embeds[0].description or "")


async def test_a_table_opened_in_a_thread_is_posted_there_and_the_host_gets_a_link(
    simcord_env: Env,
) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    admins = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    anna = guild.add_member(env.create_user("anna"))
    await admin.slash(channel, "inställningar", tråd=True)

    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.ephemeral
    assert opened.response is not None
    table = bot_of(env).sessions.table_of(anna.id)
    assert table is not None
    assert table.record.thread_id is not None
    assert table.record.channel_id == table.record.thread_id != channel.id
    assert table.record.message_id is not None
    assert f"/{table.record.thread_id}/{table.record.message_id}" in message_text(opened.response)
