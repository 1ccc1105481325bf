"""A table whose stored log is corrupt, through SimCord on a real SQLite file: after a restart its
message says it is damaged and what it shows, its members are told so and are free to play
elsewhere, ``kortbord health`` names it, and its host ends it."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from members import (
    bot_of,
    components,
    custom_id,
    forge,
    message_text,
    play_until,
    table_for_two,
    table_in,
)
from simcord import Env

from bot.discord.client import Kortbord
from bot.health import Beat, judge_beat
from bot.i18n import catalog
from bot.service import damaged_tables


async def test_a_corrupt_move_leaves_a_damaged_table_its_host_can_end(
    simcord_env: Env, make_bot: Callable[[], Kortbord], tmp_path: Path
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 5)
    table_id = table_in(env, channel.id).table_id

    await bot_of(env).close()
    with sqlite3.connect(tmp_path / "kortbord.sqlite3") as db:
        db.execute(
            "UPDATE actions SET notation = 'Zq%!' WHERE table_id = ? AND seq = 4", (table_id,)
        )
    await env.restart_bot(make_bot())

    table = table_in(env, channel.id)
    assert table.damage is not None
    assert table.seq == 3
    shown = shown_message(channel, message.id)
    description = message_text(shown)
    assert "Bordet är skadat och kan inte fortsätta" in description
    assert "drag 4 i den sparade loggen går inte att spela" in description
    assert "efter drag 3" in description
    assert [c["custom_id"] for c in components(shown)] == [f"kb:t:{table_id}:end"]

    # a member's old controls are answered in words, and nothing moves
    refused = await forge(bo, message, f"kb:t:{table_id}:hand")
    assert refused.response is not None
    assert refused.response.ephemeral
    assert message_text(refused.response) == catalog("sv").text("errors.table_damaged")
    assert table.seq == 3

    # kortbord health names it, while staying healthy: every other table is served
    lines = damaged_tables(bot_of(env))
    assert len(lines) == 1
    assert f"table {table_id}" in lines[0]
    beat = Beat("connected", time.time(), 1, latency_ms=40, damaged=lines)
    healthy, said = judge_beat_of(tmp_path, beat)
    assert healthy
    assert "1 damaged table is waiting for the host or an administrator" in said

    # Bo is free to open a table elsewhere meanwhile
    other = bo.guild.create_text_channel("annat")
    opened = await bo.slash(other, "spel ny", spel="tvamanswhist")
    assert not opened.ephemeral
    assert opened.response is not None

    # the host ends it
    asked = await anna.click(message, custom_id=custom_id(message, ":end"))
    await anna.click(asked.response, custom_id=f"kb:t:{table_id}:endok")
    assert bot_of(env).sessions.table_in(channel.id) is None
    closed = shown_message(channel, message.id)
    assert "Bordet är stängt" in message_text(closed)
    stored = await bot_of(env).storage.table(table_id)
    assert stored is not None
    assert stored.status == "ended"
    assert [a.notation for a in await bot_of(env).storage.actions(table_id)][3] == "Zq%!"


def judge_beat_of(folder: Path, beat: Beat) -> tuple[bool, str]:
    from bot.health import write_beat

    path = folder / "beat.json"
    write_beat(path, beat)
    return judge_beat(path, time.time())


def shown_message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)
