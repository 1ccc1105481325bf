"""The bot opens a table only where it holds every permission the table will use, and says
which ones are missing, in the member's language; nothing is opened or claimed meanwhile."""

from __future__ import annotations

import discord
from members import bot_of, message_text, sync_commands
from simcord import Env


async def test_a_table_is_refused_where_the_bot_may_not_attach_its_picture(
    simcord_env: Env,
) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    no_files = discord.PermissionOverwrite(attach_files=False)
    channel = guild.create_text_channel("kortbord", overwrites={guild.default_role: no_files})
    anna = guild.add_member(env.create_user("anna"))

    refused = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert refused.ephemeral
    assert refused.response is not None
    text = message_text(refused.response)
    assert "jag saknar" in text
    assert "**Bifoga filer**" in text
    assert "Skicka meddelanden" not in text  # only what is missing is named
    assert bot_of(env).sessions.table_in(channel.id) is None

    admins = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    await admin.slash(channel, "inställningar", språk="en")
    english = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    assert english.response is not None
    assert "I am missing these permissions in this channel: **Attach Files**" in message_text(
        english.response
    )
    assert bot_of(env).sessions.table_in(channel.id) is None


async def test_the_table_of_the_day_is_refused_without_private_threads(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    no_threads = discord.PermissionOverwrite(create_private_threads=False)
    channel = guild.create_text_channel("dagens", overwrites={guild.default_role: no_threads})
    anna = guild.add_member(env.create_user("anna"))

    refused = await anna.slash(channel, "dagens spela", spel="bondtolva")
    assert refused.response is not None
    assert "**Skapa privata trådar**" in message_text(refused.response)
    assert channel.threads == []
    # nothing was claimed: where the bot may, the member plays the deal of the day
    other = guild.create_text_channel("kortbord")
    opened = await anna.slash(other, "dagens spela", spel="bondtolva")
    assert opened.response is not None
    assert "saknar" not in message_text(opened.response)
    assert len(other.threads) == 1
