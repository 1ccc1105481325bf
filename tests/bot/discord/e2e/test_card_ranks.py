"""Cards read in the table's language: ``E K D Kn`` at a Swedish table, ``A K Q J`` at an English
one, in the panel's hand line and buttons, the table message and the DM hand."""

from __future__ import annotations

import discord
import pytest
from members import bot_of, components, dm_texts, message_text, open_hand, sync_commands
from simcord import Env

from bot.i18n import catalog
from bot.render.text import DISCORD, card_face
from games.cards import RANKS, rank_of

COURT = {"sv": ("E", "D", "Kn"), "en": ("A", "Q", "J")}


@pytest.mark.parametrize("lang", ["sv", "en"])
async def test_cards_show_the_ranks_of_the_tables_language(simcord_env: Env, lang: str) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    if lang == "en":
        admins = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
        admin = guild.add_member(env.create_user("admin"), roles=[admins])
        await admin.slash(channel, "inställningar", språk="en")
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    message = opened.response
    assert message is not None
    texts = catalog(lang)
    await bo.click(message, label=texts.text("ui.button.join"))
    await anna.click(message, label=texts.text("ui.button.start"))
    table = bot_of(env).sessions.table_in(channel.id)
    assert table is not None
    assert table.game is not None
    faces = DISCORD.speaking(texts)
    other = DISCORD.speaking(catalog("en" if lang == "sv" else "sv"))
    seat = min(table.game.to_act())
    member = anna if table.record.seats[seat].user_id == anna.id else bo
    hand = table.game.view(seat).hand
    court = [c for c in hand if RANKS[rank_of(c) - 2] in "AQJ"]  # their index differs
    assert court, "the deal gives the hand a card whose index differs between the languages"
    await bot_of(env).sessions.choices.set("hand_pictures", member.id, False)  # the hand as text
    panel = await open_hand(member, message)
    for card in hand:
        assert card_face(card, faces) in message_text(panel)
    for card in court:
        assert card_face(card, other) not in message_text(panel)
    labels = {str(c["label"]) for c in components(panel) if c.get("label")}
    labels |= {str(o["label"]) for c in components(panel) for o in c.get("options", [])}
    assert {card_face(c, faces) for c in table.game.legal_actions(seat)} <= labels
    assert not {card_face(c, other) for c in court} & labels
    dm = " ".join(dm_texts(member))
    assert all(card_face(card, faces) in dm for card in hand)
    assert not any(card_face(card, other) in dm for card in court)
