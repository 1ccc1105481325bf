"""``kortbord health``: exit 0 only when the database answers and the bot's gateway is alive."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.health import STALE_SECONDS, Beat, check_health, heartbeat_path, write_beat
from bot.storage import open_storage

NOW = 1_800_000_000.0


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings point at a database in the test's folder; nothing else is configured."""
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "data" / "kortbord.sqlite3"
    monkeypatch.setenv("KORTBORD_DATABASE", str(path))
    return path


@pytest.fixture
def running(database: Path) -> Iterator[sqlite3.Connection]:
    """A migrated database, held open by another connection in the middle of a write, as the
    running bot may hold it when the health check comes (WAL lets the reader through)."""

    async def create() -> None:
        await (await open_storage(database)).close()

    asyncio.run(create())
    bot = sqlite3.connect(database, isolation_level=None)
    bot.execute("INSERT INTO guild_settings (guild_id, language) VALUES (1, 'en')")
    bot.execute("BEGIN IMMEDIATE")
    bot.execute("INSERT INTO guild_settings (guild_id, language) VALUES (2, 'sv')")
    yield bot
    bot.execute("ROLLBACK")
    bot.close()


def health(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["health"])
    return code, capsys.readouterr().out.strip()


def test_healthy_when_the_database_answers_and_the_gateway_is_connected(
    running: sqlite3.Connection, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_beat(heartbeat_path(database), Beat("connected", time.time() - 3, 42, latency_ms=48))
    code, line = health(capsys)
    assert code == 0
    assert line.startswith("healthy: database answers; gateway connected (latency 48 ms")
    assert "\n" not in line


def test_damaged_tables_are_named_in_the_one_line_and_the_bot_stays_healthy(
    running: sqlite3.Connection, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damaged = ("table 7 in channel 222: action 4 is missing (the log goes on at 5)",)
    beat = Beat("connected", time.time() - 3, 42, latency_ms=48, damaged=damaged)
    write_beat(heartbeat_path(database), beat)
    code, line = health(capsys)
    assert code == 0
    assert line.startswith("healthy: database answers; gateway connected")
    assert "1 damaged table is waiting for the host or an administrator to end" in line
    assert damaged[0] in line
    assert "\n" not in line


def test_what_discord_refuses_the_bot_is_named_in_the_one_line(
    running: sqlite3.Connection, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused = (
        "table 7 in channel 222: Discord refuses its edits (403 Missing Permissions);"
        " missing Attach Files",
        "2 edits were sent without the picture Discord refused (400)",
    )
    beat = Beat("connected", time.time() - 3, 42, latency_ms=48, refused=refused)
    write_beat(heartbeat_path(database), beat)
    code, line = health(capsys)
    assert code == 0  # an administrator's permissions to fix; a restart would not help
    assert f"Discord refuses: {refused[0]}; {refused[1]}" in line
    assert "\n" not in line


def test_unhealthy_when_nothing_runs_and_nothing_is_created(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, line = health(capsys)
    assert code == 1
    assert line == (
        f"unhealthy: database {database} does not exist;"
        f" no heartbeat at {heartbeat_path(database)}: the bot is not running"
    )
    assert not database.exists()  # a health check never creates or migrates the database


def test_unhealthy_when_the_bot_has_stopped_beating(
    running: sqlite3.Connection, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_beat(heartbeat_path(database), Beat("connected", time.time() - STALE_SECONDS - 30, 42))
    code, line = health(capsys)
    assert code == 1
    assert line.startswith("unhealthy: the last heartbeat is ")
    assert line.endswith("s old: the bot is stuck or has stopped")


def test_unhealthy_while_the_gateway_is_not_connected(
    running: sqlite3.Connection, database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_beat(heartbeat_path(database), Beat("connecting", time.time(), 42))
    assert health(capsys) == (1, "unhealthy: connecting to Discord")
    write_beat(heartbeat_path(database), Beat("stopping", time.time(), 42))
    assert health(capsys) == (1, "unhealthy: shutting down")


def test_unhealthy_when_the_database_does_not_answer(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database.parent.mkdir(parents=True)
    database.write_bytes(b"this is not an SQLite database, just some bytes" * 100)
    write_beat(heartbeat_path(database), Beat("connected", time.time(), 42))
    code, line = health(capsys)
    assert code == 1
    assert line.startswith(f"unhealthy: database {database} does not answer: ")


def test_unhealthy_on_bad_settings(
    database: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KORTBORD_LOG_LEVEL", "LOUD")
    code, line = health(capsys)
    assert code == 1
    assert line.startswith("unhealthy: invalid settings: KORTBORD_LOG_LEVEL='LOUD'")


async def test_the_start_up_back_off_is_reported(
    running: sqlite3.Connection, database: Path
) -> None:
    write_beat(heartbeat_path(database), Beat("waiting", NOW - 10, 42, until=NOW + 120))
    health = await check_health(database, NOW)
    assert not health.healthy
    assert health.line == (
        "unhealthy: waiting 120 s more before logging in to Discord (start-up back-off)"
    )


async def test_an_unreadable_heartbeat_is_unhealthy(
    running: sqlite3.Connection, database: Path
) -> None:
    heartbeat_path(database).write_text("{", encoding="utf-8")
    health = await check_health(database, NOW)
    assert not health.healthy
    assert health.line.startswith(f"unhealthy: heartbeat {heartbeat_path(database)} is unreadable")


async def test_an_empty_database_file_is_not_healthy(database: Path) -> None:
    database.parent.mkdir(parents=True)
    database.touch()
    write_beat(heartbeat_path(database), Beat("connected", NOW, 42))
    health = await check_health(database, NOW)
    assert health.line == f"unhealthy: database {database} has no schema yet"


def test_the_container_healthcheck_command_in_a_process_of_its_own(
    running: sqlite3.Connection, database: Path
) -> None:
    """What Docker runs: a new process, judged by its exit code, with its line on stdout."""
    command = [sys.executable, "-m", "bot", "health"]
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    write_beat(heartbeat_path(database), Beat("connected", time.time(), 42, latency_ms=50))
    healthy = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert (healthy.returncode, healthy.stdout.split(";")[0]) == (0, "healthy: database answers")
    heartbeat_path(database).unlink()
    gone = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert gone.returncode == 1
    assert gone.stdout.strip().endswith("the bot is not running")


def test_a_backup_while_the_bot_writes_holds_what_was_committed(
    running: sqlite3.Connection,
    database: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `running` is in the middle of an uncommitted write: the backup must not wait for it or
    # contain it, and must be a database the bot can open.
    target = tmp_path / "backups" / "kortbord-copy.sqlite3"
    target.parent.mkdir()
    assert main(["backup", str(target)]) == 0
    assert "backed up" in capsys.readouterr().err
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA user_version").fetchone()[0] >= 1
    assert copy.execute("SELECT guild_id, language FROM guild_settings").fetchall() == [(1, "en")]
    copy.close()
    assert main(["backup", str(target)]) == 1  # never overwrites
    assert "already exists" in capsys.readouterr().err


def test_a_backup_to_stdout(
    running: sqlite3.Connection, database: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["backup", "-"]) == 0
    assert capsysbinary.readouterr().out.startswith(b"SQLite format 3\x00")


@pytest.mark.parametrize(
    "address",
    [
        "postgresql://kortbord:hemligt@127.0.0.1:1/kortbord",
        "postgresql://kortbord@127.0.0.1:1/kortbord?password=hemligt",
        "postgresql://kortbord@127.0.0.1:1/kortbord?sslmode=disable&password=hemligt",
        "host=127.0.0.1 port=1 password=hemligt dbname=kortbord",
    ],
)
def test_health_never_prints_a_password(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    address: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KORTBORD_DATABASE", address)
    monkeypatch.setenv("KORTBORD_STATE_DIR", str(tmp_path))
    code, line = health(capsys)
    assert code == 1
    assert line.startswith("unhealthy: ")
    assert "hemligt" not in line


async def test_a_login_that_could_not_reach_discord_is_reported(
    running: sqlite3.Connection, database: Path
) -> None:
    refused = "Cannot connect to host discord.com:443 ssl:default [Connection refused]"
    write_beat(heartbeat_path(database), Beat("connecting", NOW, 42, unreachable=refused))
    health = await check_health(database, NOW)
    assert not health.healthy
    assert health.line == f"unhealthy: connecting to Discord (Discord was unreachable: {refused})"
