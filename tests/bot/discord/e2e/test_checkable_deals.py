"""Deals anyone can check, in Discord: each deal shows its fingerprint when it starts, the seed
is revealed on the result and by ``/spel verifiera`` (with the match's record as a file), and
``kortbord verify`` passes the stored match and fails it once its stored seed is changed."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest
from members import bot_of, message_text, play_until, sync_commands, table_in
from simcord import Env

from bot.__main__ import main
from bot.verify import MatchRecord, fingerprint


@pytest.fixture
def bot_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``kortbord verify --table`` reads the bot's own database, named by the settings."""
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_") and not name.upper().startswith("KORTBORD_TEST_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "kortbord.sqlite3"
    monkeypatch.setenv("KORTBORD_DATABASE", str(path))
    return path


async def test_a_match_shows_its_fingerprints_reveals_its_seed_and_verifies(
    simcord_env: Env, bot_database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    opened = await anna.slash(channel, "spel ny", spel="tvamanswhist")
    message = opened.response
    assert message is not None
    await anna.select(message, ["normal"])
    early = await anna.slash(channel, "spel verifiera")
    assert early.response is not None
    assert "Ingen match" in early.response.content
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    shown = fingerprint(table.record.seed, table.table_id, 1)
    status = message_text(channel.history()[0])
    assert f"Fingeravtryck {shown}" in status
    assert str(table.record.seed) not in status

    await play_until(env, channel.id, {anna.id: anna}, message, 400)

    assert table.record.status == "finished"
    result = message_text(channel.history()[0])
    assert f"**Kontroll**\nFrö {table.record.seed}" in result
    answer = await anna.slash(channel, "spel verifiera")
    assert answer.response is not None
    assert not answer.ephemeral
    assert f"frö **{table.record.seed}**" in answer.response.content
    assert "Kontrollen stämmer:" in answer.response.content
    (attached,) = answer.response.attachments
    record = MatchRecord.from_json((await attached.read()).decode("utf-8"))
    assert record.seed == table.record.seed
    assert table.game is not None
    assert [deal for deal, _ in record.prints] == list(range(1, table.game.view(None).deal + 1))
    assert [(s.seat, s.member, s.name) for s in record.seats] == [
        (0, anna.id, "anna"),
        (1, None, ""),
    ]
    assert record.status == "finished"
    played = table.game.result()
    assert [(r.seat, r.member, r.score, r.place) for r in record.result] == [
        (0, anna.id, played.scores[0], played.places[0]),
        (1, None, played.scores[1], played.places[1]),
    ]
    file = bot_database.parent / attached.filename
    file.write_text(record.to_json(), encoding="utf-8")

    assert main(["verify", str(file)]) == 0
    # the command line runs its own event loop: in a thread, as it would in its own process
    assert (
        await asyncio.to_thread(main, ["verify", "--table", str(table.table_id), "--lang", "en"])
        == 0
    )
    passed = capsys.readouterr().out
    assert f"Deal 1: as shown, fingerprint {shown}" in passed
    assert f"Seat 0: anna (member {anna.id})" in passed
    assert passed.rstrip().endswith("the end and the result are those the moves give.")

    await bot_of(env).storage.close()
    with sqlite3.connect(bot_database) as db:
        db.execute("UPDATE tables SET seed = seed + 1 WHERE table_id = ?", (table.table_id,))
    assert (
        await asyncio.to_thread(main, ["verify", "--table", str(table.table_id), "--lang", "en"])
        == 1
    )
    failed = capsys.readouterr().out
    assert f"Deal 1: fingerprint {fingerprint(table.record.seed + 1, table.table_id, 1)}" in failed
    assert f"but {shown} was shown" in failed
    assert failed.rstrip().endswith("The check does NOT hold: the record is not what was played.")
