"""Pictures Discord accepts, and what the bot does when Discord refuses an edit of a table.

Discord finds an ``attachment://`` picture only among the files of the same request; a picture
it refuses (400) costs the edit its picture, not the edit; a refusal (403) is said once and not
tried again until the bot's permissions there change."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord_requests import Request, recorded, unsent_pictures
from members import bot_of, message_text, open_hand, play_first_legal, table_for_two, table_in
from simcord import Env
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType


async def _play(env: Env, channel: Any, message: Any, members: dict[int, Any], moves: int) -> None:
    table = table_in(env, channel.id)
    for _ in range(moves):
        assert table.game is not None
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        await play_first_legal(members[user_id], await open_hand(members[user_id], message))
    await env.settle()


def _table_edits(requests: list[Request], message: Any) -> list[Request]:
    return [r for r in requests if r.method == "PATCH" and r.path.endswith(f"/{message.id}")]


async def test_every_picture_named_is_uploaded_with_the_same_request(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    members = {anna.id: anna, bo.id: bo}
    with recorded(monkeypatch) as requests:
        await anna.click(message, label="Starta")
        await _play(env, channel, message, members, 3)
        # a click on one's own panel out of turn is answered on that panel, its hand unchanged
        table = table_in(env, channel.id)
        assert table.game is not None
        waiting = next(s for s in range(2) if s not in table.game.to_act())
        waiting_id = table.record.seats[waiting].user_id
        assert waiting_id is not None
        member = members[waiting_id]
        panel = await open_hand(member, message)
        refused = await play_first_legal(member, panel)
        assert refused.response is not None
        assert "Det är inte din tur" in message_text(refused.response)
    pictured = [r for r in requests if r.files]
    assert any(f.startswith("hand-") for r in pictured for f in r.files)
    assert unsent_pictures(requests) == []


async def test_a_table_edit_whose_picture_is_refused_goes_out_without_it(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    await anna.click(message, label="Starta")
    await env.settle()
    before = message_text(next(m for m in channel.history() if m.id == message.id))
    env.inject_error(
        "PATCH",
        f"/channels/{channel.id}/messages/{message.id}",
        status=400,
        code=50035,
        message="Invalid Form Body: unfurled media attachment not found",
    )
    with recorded(monkeypatch) as requests:
        await _play(env, channel, message, {anna.id: anna, bo.id: bo}, 1)
    refused, plain = _table_edits(requests, message)[:2]
    assert refused.files == ("table.png",)
    assert plain.files == ()
    assert "attachment://" not in str(plain.json)
    shown = next(m for m in channel.history() if m.id == message.id)
    assert shown.attachments == []
    assert message_text(shown) != before  # the text carries the table as it is now
    assert bot_of(env).refused_lines() == [
        "1 edit was sent without the picture Discord refused (400)"
    ]


async def test_a_refused_table_edit_is_said_once_and_not_tried_again_until_permissions_change(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    members = {anna.id: anna, bo.id: bo}
    await anna.click(message, label="Starta")
    await env.settle()
    guild_id = channel.guild.id
    files = discord.Permissions(attach_files=True).value
    # the server takes Attach Files away; Discord refuses the bot's edits of the table from then on
    env.backend.set_overwrite(channel.id, Overwrite(guild_id, OverwriteType.ROLE, deny=files))
    path = f"/channels/{channel.id}/messages/{message.id}"
    env.inject_error(
        "PATCH", path, status=403, code=50013, message="Missing Permissions", times=None
    )
    with recorded(monkeypatch) as requests:
        await _play(env, channel, message, members, 4)
    assert len(_table_edits(requests, message)) == 1  # refused once, never tried blindly again
    told = [m for m in channel.history() if "Bifoga filer" in message_text(m)]
    assert len(told) == 1
    assert "403 Missing Permissions" in message_text(told[0])
    warned = [r for r in caplog.records if "refuses its edits" in r.getMessage()]
    assert len(warned) == 1
    table = table_in(env, channel.id)
    (line,) = bot_of(env).refused_lines()
    assert f"table {table.table_id} in channel {channel.id}" in line
    assert "missing Attach Files" in line

    # given back: the next change edits the table again
    env.backend.faults.clear()
    env.backend.delete_overwrite(channel.id, guild_id)
    with recorded(monkeypatch) as requests:
        await _play(env, channel, message, members, 1)
    assert len(_table_edits(requests, message)) == 1
    assert bot_of(env).refused_lines() == []
