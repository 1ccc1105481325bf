"""Variants and options in ``/spel ny``: offered by name in the member's language while typing,
and anything the game does not allow refused when the table is opened, in the member's language."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from members import bot_of, message_text, sync_commands
from simcord import Env, MemberActor


async def server(env: Env, language: str = "sv") -> tuple[Any, MemberActor]:
    """A server with a table channel and a member, speaking ``language``."""
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    if language != "sv":
        admins = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
        admin = guild.add_member(env.create_user("admin"), roles=[admins])
        await admin.slash(channel, "inställningar", språk=language)
    return channel, anna


async def refusal(anna: MemberActor, channel: Any, **filled: Any) -> str:
    """What ``/spel ny`` answered, privately, when it refused; no table was opened."""
    result = await anna.slash(channel, "spel ny", **filled)
    assert result.ephemeral
    assert result.response is not None
    assert bot_of(anna._env).sessions.table_in(channel.id) is None
    return str(message_text(result.response))


async def test_variants_are_offered_by_their_names_in_the_members_language(
    simcord_env: Env,
) -> None:
    channel, anna = await server(simcord_env)
    offered = await anna.autocomplete(channel, "spel ny", "variant", "", spel="svarte_petter")
    assert [c["value"] for c in offered] == [
        "standard",
        "old_maid",
        "hidden_odd_card",
        "reverse",
        "colour_pairs",
    ]
    assert [c["name"] for c in offered][1:3] == ["En dam tas bort", "Hemligt udda kort"]
    typed = await anna.autocomplete(channel, "spel ny", "variant", "penny", spel="nittionio")
    assert typed == [{"name": "Pennycooks variant", "value": "pennycook"}]


async def test_variants_are_offered_in_english_on_an_english_server(simcord_env: Env) -> None:
    channel, anna = await server(simcord_env, "en")
    offered = await anna.autocomplete(channel, "spel ny", "variant", "", spel="svarte_petter")
    assert [c["name"] for c in offered][1:3] == ["A queen set aside", "Secret odd card"]


async def test_options_are_offered_by_name_with_their_range_and_default(simcord_env: Env) -> None:
    channel, anna = await server(simcord_env)
    offered = await anna.autocomplete(channel, "spel ny", "alternativ", "reak", spel="hej_knekt")
    assert offered[0] == {
        "name": "reaktionstid (ms) = 5000 (3000–15000) (förval)",
        "value": "reaction_ms=5000",
    }
    assert all("reaction_ms" not in c["name"] for c in offered)
    # one setting chosen, the next one typed by its Swedish name: both kept
    more = await anna.autocomplete(
        channel, "spel ny", "alternativ", "reaction_ms=4000 falskt", spel="hej_knekt"
    )
    assert [c["value"] for c in more] == [
        "reaction_ms=4000",
        "reaction_ms=4000 false_alarm=no",
        "reaction_ms=4000 false_alarm=yes",
    ]
    assert more[2]["name"] == "reaktionstid (ms) = 4000 · falskt alarm = ja"
    choices = await anna.autocomplete(channel, "spel ny", "alternativ", "budg", spel="femhundra")
    assert [c["name"] for c in choices] == [
        "budgivning = ett varv (förval)",
        "budgivning = flera varv",
    ]


async def test_a_chosen_option_opens_the_table_with_it(simcord_env: Env) -> None:
    channel, anna = await server(simcord_env)
    opened = await anna.slash(
        channel,
        "spel ny",
        spel="hej_knekt",
        variant="Falskt alarm",
        alternativ="reaktionstid (ms) = 4000 · straff för fel knapp (ms) = 0",
    )
    assert opened.response is not None
    table = bot_of(simcord_env).sessions.table_in(channel.id)
    assert table is not None
    assert table.record.variant == "false_alarm"
    assert dict(table.record.options) == {"reaction_ms": "4000", "wrong_press_penalty_ms": "0"}


# Every kind of option, refused at once: (game, variant, options, the Swedish answer's words).
REFUSED = [
    (
        "hej_knekt",
        None,
        "reaction_ms=0",
        "reaktionstid (ms) ska vara ett heltal från 3000 till 15000",
    ),
    ("hej_knekt", None, "reaction_ms=-5000", "från 3000 till 15000, inte -5000"),
    ("hej_knekt", None, "reaction_ms=999999999999", "inte 999999999999"),
    ("hej_knekt", None, "reaktionstid=snabb", "från 3000 till 15000, inte snabb"),
    ("femkort", None, "ante=0", "insats ska vara ett heltal från 1 till 100"),
    ("femhundra", None, "auction=maybe", "budgivning kan vara ett varv, flera varv, inte maybe"),
    ("hej_knekt", None, "false_alarm=kanske", "falskt alarm är ja eller nej, inte kanske"),
    ("hej_knekt", None, "speed=3", "Hej knekt har ingen inställning speed. Inställningar: spela"),
    ("hej_knekt", None, "reaction_ms", "Skriv en inställning som namn = värde"),
    ("nittionio", "turbo", None, "Nittionio har ingen variant turbo. Varianter: Nittionio"),
    ("nittionio", "pennycook", "scoring=rubber", "går inte ihop: Pennycooks variant är ett parti"),
    ("femkort", "last_standing", "ante=5", "minst insatsen (5)"),
]

ENGLISH = ("setting", "must", "whole number", "takes", "not allowed", "variant is", "options:")


@pytest.mark.parametrize(("game", "variant", "options", "words"), REFUSED)
async def test_bad_options_are_refused_when_the_table_is_opened_in_swedish(
    simcord_env: Env, game: str, variant: str | None, options: str | None, words: str
) -> None:
    channel, anna = await server(simcord_env)
    filled = {"spel": game, "variant": variant, "alternativ": options}
    answer = await refusal(anna, channel, **{k: v for k, v in filled.items() if v is not None})
    assert words in answer
    assert not any(word in answer.lower() for word in ENGLISH), answer
    for option_id in ("reaction_ms", "false_alarm", "auction", "scoring", "ante"):
        assert f"{option_id} " not in answer  # named, not by its id


async def test_bad_options_are_refused_in_english_on_an_english_server(simcord_env: Env) -> None:
    channel, anna = await server(simcord_env, "en")
    answer = await refusal(anna, channel, spel="hej_knekt", alternativ="reaction_ms=0")
    assert answer == (
        "The setting reaction time (ms) must be a whole number from 3000 to 15000, not 0."
    )
    answer = await refusal(anna, channel, spel="hej_knekt", alternativ="falskt alarm=maybe")
    assert answer == "The setting false alarm is yes or no, not maybe."
