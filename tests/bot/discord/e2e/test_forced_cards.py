"""``/spel tvingade``: a member's choice whether their only legal card is played for them at once
(the default) or waits for their click; the behaviour itself is tested in ``test_sessions``."""

from __future__ import annotations

from members import bot_of, message_text, table_for_two
from simcord import Env


async def test_a_member_turns_forced_cards_off_and_on(simcord_env: Env) -> None:
    env = simcord_env
    channel, _message, anna, bo = await table_for_two(env)
    choices = bot_of(env).sessions.choices
    assert await choices.get("forced_cards", anna.id)
    answer = await anna.slash(channel, "spel tvingade", på=False)
    assert answer.response is not None
    assert "klickar själv" in message_text(answer.response)
    assert not await bot_of(env).storage.member_choice("forced_cards", anna.id)
    assert not await choices.get("forced_cards", anna.id)
    assert await choices.get("forced_cards", bo.id)  # only her own choice
    answer = await anna.slash(channel, "spel tvingade", på=True)
    assert answer.response is not None
    assert "spelas det åt dig direkt" in message_text(answer.response)
    assert await bot_of(env).storage.member_choice("forced_cards", anna.id)
