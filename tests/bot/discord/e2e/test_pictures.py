"""Pictures and results as the members see them: the table message's image, the hand panel's
image, the score table posted when a deal is over, and the result in every hand panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
import pytest
from discord_requests import attachment_references
from members import message_text, open_hand, pictures, play_first_legal, table_for_two, table_in
from simcord import Env

from bot.discord.images import hand_png
from bot.discord.views import panel as panel_views


def _titled(channel: Any, start: str) -> list[Any]:
    return [e for m in channel.history() for e in m.embeds if (e.title or "").startswith(start)]


async def test_pictures_beside_the_text_and_every_deal_ends_with_a_score_table(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    panels: dict[int, Any] = {}
    moves = 0
    while table.game is not None and not table.game.is_over():
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        panel = await open_hand(members[user_id], message)
        if moves == 3:
            await env.settle()
            table_message = channel.history()[0]
            assert [url.rsplit("/", 1)[-1] for url in pictures(table_message)] == ["table.png"]
            assert [a.filename for a in table_message.attachments] == ["table.png"]
            assert [a.filename[:5] for a in panel.attachments] == ["hand-"]
        played = await play_first_legal(members[user_id], panel)
        panels[user_id] = played.response or panel
        moves += 1
    await env.settle()

    assert table.game is not None
    result = table.game.result()
    deals = _titled(channel, "Giv ")
    assert deals, "no deal result was posted"
    last = deals[-1].description or ""
    totals = {line.split()[0]: line.split()[-2] for line in last.strip("`\n").splitlines()[1:]}
    assert totals == {"anna": str(result.scores[0]), "bo": str(result.scores[1])}
    for panel in panels.values():
        assert "Resultat" in message_text(panel)


async def test_a_server_and_a_member_can_turn_the_pictures_off(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None

    turned = await bo.slash(channel, "spel kortbilder", visa=False)
    assert turned.response is not None
    assert "bara som text" in message_text(turned.response)
    bo_panel = await open_hand(bo, message)
    anna_panel = await open_hand(anna, message)
    assert bo_panel.attachments == []
    assert [a.filename[:5] for a in anna_panel.attachments] == ["hand-"]
    assert "Hand:" in message_text(bo_panel)  # the text stays, with or without the picture

    admins = channel.guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    admin = channel.guild.add_member(env.create_user("admin"), roles=[admins])
    changed = await admin.slash(channel, "inställningar", kortbilder=False)
    assert changed.response is not None
    assert "Kortbilder: nej" in (changed.response.embeds[0].description or "")
    seat = min(table.game.to_act())
    member = anna if table.record.seats[seat].user_id == anna.id else bo
    await play_first_legal(member, await open_hand(member, message))
    await env.settle()
    table_message = channel.history()[0]
    assert table_message.attachments == []
    assert pictures(table_message) == []
    assert "**Platser**" in message_text(table_message)  # the text carries the table instead
    assert (await open_hand(anna, message)).attachments == []


async def test_a_panel_edited_for_a_turn_uploads_the_hand_picture_it_shows(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waiting member's panel is edited when the turn narrows its choices (a suit to follow);
    the hand it shows is the same, yet its picture goes with the edit: Discord finds an
    ``attachment://`` picture only among the files of the same request. It is the picture drawn
    when that hand was shown, not drawn again. A panel whose hand changed (the clicker's own, a
    card played) gets a new one."""
    env = simcord_env
    drawn: list[tuple[int, ...]] = []

    def counted(cards: Sequence[int], *args: Any, **kwargs: Any) -> bytes:
        drawn.append(tuple(cards))
        return hand_png(cards, *args, **kwargs)

    monkeypatch.setattr(panel_views, "hand_png", counted)
    channel, message, anna, bo = await table_for_two(env, "tvamanswhist")
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    panels = {m.id: await open_hand(m, message) for m in members.values()}
    kept = redrawn = 0
    while table.game is not None and not table.game.is_over() and not kept:
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        other = bo.id if user_id == anna.id else anna.id
        other_seat = table.seat_of(other)
        assert other_seat is not None
        hand_before = sorted(table.view(other_seat).hand)
        before, draws = len(env.http_requests), len(drawn)
        played = await play_first_legal(members[user_id], panels[user_id])
        await env.settle()
        panels[user_id] = played.response or panels[user_id]
        for request in env.http_requests[before:]:
            body = request.json or {}
            if request.path.startswith("/interactions/"):  # the clicker's own panel
                data = body.get("data") or {}
                redrawn += "attachments" in data and data["attachments"] != []
            elif (
                request.path.startswith("/webhooks/")
                and request.method == "PATCH"
                and sorted(table.view(other_seat).hand) == hand_before
            ):
                uploaded = {a.get("filename") for a in body.get("attachments", [])}
                named = set(attachment_references(body))
                assert named, "the panel lost its picture"
                assert named <= uploaded, f"{named} named, {uploaded} uploaded"
                assert sorted(table.view(other_seat).hand) not in [sorted(h) for h in drawn[draws:]]
                kept += 1
    assert kept, "no waiting panel was edited for its turn"
    assert redrawn, "the clicker's panel never got its new hand"
