"""``/spel repris``: a finished match of the channel, stepped through from its first deal to its
end with the buttons, every hand face up, as pictures; it and ``/spel verifiera`` by table number
serve only members who may see that table."""

from __future__ import annotations

import discord
from members import bot_of, components, play_until, sync_commands, table_in
from simcord import Env

from bot.replay import frames


async def test_a_replay_steps_a_whole_match(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    message = opened.response
    assert message is not None
    await anna.select(message, ["normal"])
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    early = await anna.slash(channel, "spel repris", bord=table.table_id)
    assert early.response is not None
    assert "spelas fortfarande" in early.response.content
    await play_until(env, channel.id, {anna.id: anna}, message, 400)
    assert table.record.status == "finished"
    storage = bot_of(env).storage
    steps = frames(table.record, await storage.actions(table.table_id))

    shown = await anna.slash(channel, "spel repris")
    assert shown.ephemeral
    page = shown.response
    assert page is not None
    assert page.attachments[0].filename == "replay.png"
    embed = page.embeds[0]
    assert embed.title == f"Repris: Tvåmanswhist · bord {table.table_id}"
    assert (embed.description or "").startswith("Giv 1: given är delad")
    hands = (embed.fields[0].value or "").splitlines()
    assert [line.split(":")[0] for line in hands] == ["anna", "Dator 1"]
    assert all(len(line.split(":")[1].split()) == 13 for line in hands)  # face up, each card
    labels = [c["label"] for c in components(page)]
    assert labels == ["⏮ Giv", "◀ Bakåt", "Framåt ▶", "Giv ⏭"]

    seen = [(embed.description or "").splitlines()[0]]
    for step in range(2, len(steps) + 1):
        clicked = await anna.click(page, label="Framåt ▶")
        assert clicked.response is not None
        page = clicked.response
        text = page.embeds[0].description or ""
        assert f"Steg {step} av {len(steps)}" in text
        seen.append(text.splitlines()[0])
    assert seen[1] == "Giv 1 · stick 1"
    deals = table.game.view(None).deal if table.game else 0
    assert seen.count("Giv 1 · stick 26") == 1
    assert sum(1 for line in seen if line.endswith("given är delad")) == deals
    forward = next(c for c in components(page) if c["label"] == "Framåt ▶")
    assert forward["disabled"]

    back = await anna.click(page, label="⏮ Giv")  # to the start of the last deal
    assert back.response is not None
    assert (back.response.embeds[0].description or "").startswith(f"Giv {deals}: given är delad")


async def test_replays_and_records_by_number_follow_who_may_see_the_table(
    simcord_env: Env,
) -> None:
    """A table played in a channel only some members see: a member who cannot see it is
    answered as for a table that is not there (numbers list nothing), a member seated there or
    who sees the channel is served, and outside the table's channel only to themselves."""
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    lobby = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    cilla = guild.add_member(env.create_user("cilla"))
    assert guild.me is not None
    sees = discord.PermissionOverwrite(view_channel=True)
    hidden = guild.create_text_channel(
        "hemlig",
        overwrites={
            guild.default_role: discord.PermissionOverwrite(view_channel=False),
            guild.me: sees,
            anna: sees,
            cilla: sees,
        },
    )
    opened = await anna.slash(hidden, "spel ny", spel="tvamanswhist")
    message = opened.response
    assert message is not None
    await anna.select(message, ["normal"])
    await anna.click(message, label="Starta")
    table = table_in(env, hidden.id)
    await play_until(env, hidden.id, {anna.id: anna}, message, 400)
    assert table.record.status == "finished"
    number, seed = table.table_id, str(table.record.seed)

    for command in ("spel repris", "spel verifiera"):
        refused = await bo.slash(lobby, command, bord=number)
        missing = await bo.slash(lobby, command, bord=number + 1000)
        assert refused.response is not None
        assert missing.response is not None
        assert refused.ephemeral
        assert refused.response.content == (
            f"Det finns inget bord {number} på den här servern som du kan se."
        )
        assert missing.response.content == refused.response.content.replace(
            str(number), str(number + 1000)
        )
        assert not refused.response.embeds
        assert not refused.response.attachments
    assert all(seed not in (m.content or "") for m in lobby.history())

    seated = await anna.slash(lobby, "spel verifiera", bord=number)
    assert seated.response is not None
    assert seated.ephemeral
    assert f"frö **{seed}**" in seated.response.content
    replay = await anna.slash(lobby, "spel repris", bord=number)
    assert replay.ephemeral
    assert replay.response is not None
    assert replay.response.embeds[0].title == f"Repris: Tvåmanswhist · bord {number}"
    watching = await cilla.slash(lobby, "spel verifiera", bord=number)
    assert watching.response is not None
    assert watching.ephemeral
    assert f"frö **{seed}**" in watching.response.content
    assert all(seed not in (m.content or "") for m in lobby.history(viewer=bo))

    there = await cilla.slash(hidden, "spel verifiera", bord=number)
    assert there.response is not None
    assert not there.ephemeral  # posted in the table's own channel, for those who see it
