"""A host adds a hard computer player from the lobby's select, the seat shows its level, and it
plays a whole match against a member."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from members import bot_of, components, message_text, play_until, sync_commands, table_in
from simcord import Env

from bot.discord.client import Kortbord
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.settings import Settings


@pytest.fixture
def simcord_bot(tmp_path: Path) -> Kortbord:
    """The bot with a hard player that thinks in a thread for 30 samples: quick and the same
    on any machine (the worker processes are tested in tests/bot/test_thinking.py)."""
    settings = Settings(  # type: ignore[call-arg]
        database=tmp_path / "kortbord.sqlite3", ai_workers=0, ai_iterations=30, _env_file=None
    )
    return Kortbord(
        settings,
        computer_delay=0.0,
        dm_pause=0.0,
        panel_grace=GRACE_BEYOND_SETTLING,
        rng=random.Random(7),
    )


async def test_a_hard_computer_player_from_the_lobby_plays_a_whole_match(
    simcord_env: Env,
) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    message = opened.response
    assert message is not None
    select = next(c for c in components(message) if str(c["custom_id"]).startswith("kb:c:"))
    assert [o["label"] for o in select["options"]] == ["Lätt", "Normal", "Svår"]
    await anna.select(message, ["hard"], custom_id=str(select["custom_id"]))
    table = table_in(env, channel.id)
    assert [s.ai for s in table.record.seats if s.user_id is None] == ["hard"]
    seats = message_text(channel.history()[0]).split("**Platser**")[1]
    assert "Dator 1 (svår)" in seats
    await anna.click(message, label="Starta")

    await play_until(env, channel.id, {anna.id: anna}, message, 400)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert sum(1 for a in log if a.by == "computer") > 10
