"""Dagens giv's opponents are the same for everyone: three members who make the same moves in the
same deal meet the same computer moves, bit for bit, at the real budget of a table of the day
(the bot's default settings: a count of playouts, searched on its worker processes), while other
processes keep the machine's cores busy."""

from __future__ import annotations

import multiprocessing
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from members import bot_of, play_until, sync_commands
from simcord import Env

from bot.discord.client import Kortbord
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.settings import Settings

GAME = "snipp_snapp_snorum"  # four seats with hidden hands, and a short deal
BUSY_PROCESSES = 2
BUSY_AT_MOST = 600.0
"""Seconds after which a busy process stops by itself, should the test never stop it."""

# the searches run at their real budget on a loaded machine: room for them (no timer of the bot
# falls within this wait, a turn of the day lasts a day)
pytestmark = pytest.mark.simcord(settle_timeout=60.0)


def _spin(at_most: float) -> None:
    """Keeps a core busy (a module function, so a spawned process can run it)."""
    until = time.monotonic() + at_most
    n = 0
    while time.monotonic() < until:
        n = (n * 7 + 1) % 1_000_003


@pytest.fixture
def busy_cpu() -> Iterator[None]:
    context = multiprocessing.get_context("spawn")
    spinners = [
        context.Process(target=_spin, args=(BUSY_AT_MOST,), daemon=True)
        for _ in range(BUSY_PROCESSES)
    ]
    for process in spinners:
        process.start()
    try:
        yield
    finally:
        for process in spinners:
            process.terminate()
        for process in spinners:
            process.join(10)


@pytest.fixture
def simcord_bot(tmp_path: Path) -> Iterator[Kortbord]:
    """The bot as it runs: the default settings (hard players on two worker processes, the
    day's count of playouts)."""
    settings = Settings(database=tmp_path / "kortbord.sqlite3", _env_file=None)  # type: ignore[call-arg]
    assert settings.ai_workers == 2
    bot = Kortbord(
        settings,
        computer_delay=0.0,
        dm_pause=0.0,
        panel_grace=GRACE_BEYOND_SETTLING,
        rng=random.Random(31),
    )
    yield bot
    sessions = getattr(bot, "sessions", None)
    if sessions is not None:
        sessions.thinker.close()


async def _play(env: Env, channel: Any, member: Any) -> list[tuple[int, str, str]]:
    """The member plays today's deal to its end, always their first legal choice; the log."""
    opened = await member.slash(channel, "dagens spela", spel=GAME)
    assert opened.response is not None
    table = bot_of(env).sessions.table_of(member.id)
    assert table is not None, opened.response.content
    thread = next(t for t in channel.threads if t.id == table.record.thread_id)
    await play_until(env, table.record.channel_id, {member.id: member}, thread.history()[0], 200)
    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    return [(a.seat, a.notation, a.by) for a in log]


async def test_three_members_making_the_same_moves_meet_the_same_opponents_on_a_busy_machine(
    simcord_env: Env, busy_cpu: None
) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    members = []
    for name in ("anna", "bo", "cilla"):
        member = guild.add_member(env.create_user(name))
        await member.slash(channel, "spel turpåminnelse", på=False)
        members.append(member)

    logs = [await _play(env, channel, m) for m in members]

    computer = [entry for entry in logs[0] if entry[2] == "computer"]
    print(
        f"\n{GAME}: {len(computer)} computer decisions per member, compared across"
        f" {len(logs)} members; identical: {logs[0] == logs[1] == logs[2]}"
    )
    assert len(computer) >= 5
    assert logs[1] == logs[0]
    assert logs[2] == logs[0]
