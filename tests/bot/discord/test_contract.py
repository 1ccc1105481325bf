"""The contract the end-to-end tests hold the bot's requests to (tests/discord_requests.py):
a request Discord's API specification or its component limits refuse fails the test that made
it, with the route, the field and the rule, and a route the specification lacks is said, never
passed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from discord_requests import LIMITS, Contract, Request, spec

TESTS = Path(__file__).parents[2]
EDIT = "/channels/11/messages/12"
CALLBACK = "/interactions/13/token/callback"


@pytest.fixture
def checker() -> Contract:
    return Contract(spec())


def v2(*components: dict[str, Any]) -> dict[str, Any]:
    return {"flags": 1 << 15, "components": list(components)}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str = "Spela") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def test_a_table_message_within_the_rules_passes(checker: Contract) -> None:
    picture = {"type": 12, "items": [{"media": {"url": "attachment://table.png"}}]}
    body = v2(
        {
            "type": 17,
            "components": [
                text("## Nittionio"),
                picture,
                {"type": 1, "components": [button("join:1"), button("hand:1", "Min hand")]},
            ],
        }
    )
    assert checker.check(Request("PATCH", EDIT, body, ("table.png",))) == []


def test_a_text_display_too_long_names_route_field_and_rule(checker: Contract) -> None:
    body = v2({"type": 17, "components": [text("ok"), text("x" * 4001)]})
    (found,) = checker.check(Request("PATCH", EDIT, body, ()))
    assert found.startswith(f"PATCH /channels/{{channel_id}}/messages/{{message_id}} ({EDIT}):")
    assert "components[0].components[1].content" in found
    assert "maxLength 4000" in found


def test_the_40_components_count_the_nested_ones(checker: Contract) -> None:
    rows = [{"type": 1, "components": [button(f"b{r}{i}") for i in range(5)]} for r in range(7)]
    body = {"type": 4, "data": v2({"type": 17, "components": rows})}  # 1 + 7 + 35 components
    (found,) = checker.check(Request("POST", CALLBACK, body, ()))
    assert "POST /interactions/{interaction_id}/{interaction_token}/callback" in found
    assert "data.components: 43 components" in found
    assert f"at most {LIMITS['components']} in a message" in found


@pytest.mark.parametrize(
    ("component", "field", "rule"),
    [
        (button("x" * 101), "components[0].components[0].custom_id", "maxLength 100"),
        (button("a", "y" * 81), "components[0].components[0].label", "maxLength 80"),
        (
            {
                "type": 3,
                "custom_id": "kort",
                "options": [{"label": f"{i}", "value": f"{i}"} for i in range(26)],
            },
            "components[0].components[0].options",
            "maxItems 25",
        ),
    ],
)
def test_the_limits_of_a_control(
    checker: Contract, component: dict[str, Any], field: str, rule: str
) -> None:
    body = {"components": [{"type": 1, "components": [component]}]}
    (found,) = checker.check(Request("POST", "/channels/11/messages", body, ()))
    assert f"{field}:" in found
    assert f"(rule: {rule})" in found


def test_a_media_gallery_holds_ten_items_at_most(checker: Contract) -> None:
    items = [{"media": {"url": f"attachment://{i}.png"}} for i in range(11)]
    files = tuple(f"{i}.png" for i in range(11))
    (found,) = checker.check(Request("PATCH", EDIT, v2({"type": 12, "items": items}), files))
    assert "components[0].items:" in found
    assert "maxItems 10" in found


def test_custom_ids_are_unique_in_a_message(checker: Contract) -> None:
    body = v2(text("hej"), {"type": 1, "components": [button("spela"), button("spela")]})
    (found,) = checker.check(Request("PATCH", EDIT, body, ()))
    assert (
        "components[1].components[1].custom_id: 'spela' is also components[1].components[0]'s"
        in found
    )
    assert "custom ids are unique in a message" in found


def test_an_interaction_response_is_told_from_the_other_callbacks(checker: Contract) -> None:
    body = {"type": 7, "data": v2(text(""))}  # an update whose text is empty
    (found,) = checker.check(Request("POST", CALLBACK, body, ()))
    assert "data.components[0].content" in found
    assert "minLength 1" in found


def test_a_picture_named_but_not_uploaded(checker: Contract) -> None:
    body = v2({"type": 12, "items": [{"media": {"url": "attachment://hand-1.png"}}]})
    (found,) = checker.check(Request("PATCH", EDIT, body, ("table.png",)))
    assert "attachment://hand-1.png: not uploaded with it" in found


def test_a_route_the_specification_lacks_is_said(checker: Contract) -> None:
    (found,) = checker.check(Request("POST", "/channels/11/shuffle", {"cards": 52}, ()))
    assert found.startswith("POST /channels/11/shuffle: Discord's API specification")
    assert "has no POST operation at this path" in found


def test_ids_in_a_body_may_be_integers_as_discord_py_sends_them(checker: Contract) -> None:
    assert checker.check(Request("POST", "/users/@me/channels", {"recipient_id": 42}, ())) == []
    (found,) = checker.check(Request("POST", "/users/@me/channels", {"recipient_id": "Bo"}, ()))
    assert "recipient_id" in found


PLANTED = """
import discord


async def test_a_message_with_a_nonce_too_long(simcord_env):
    channel = simcord_env.create_guild().create_text_channel("bord")
    bot = simcord_env.bot
    await bot.get_channel(channel.id).send("hej", nonce="n" * 30)
"""

CONFTEST = """
import discord
import pytest
from discord_requests import contract, pytest_runtest_call


@pytest.fixture
def simcord_bot():
    return discord.Client(intents=discord.Intents.default())


@pytest.fixture(autouse=True)
def discord_contract(contract):
    return contract
"""


def test_a_planted_violation_fails_the_test(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_planted=PLANTED)
    pytester.syspathinsert(TESTS)
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "-o",
        "asyncio_mode=auto",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*requests Discord would refuse*",
            "*POST /channels/{channel_id}/messages (/channels/*/messages): nonce: 'nnn*"
            " breaks the spec (rule: maxLength 25)",
        ]
    )
