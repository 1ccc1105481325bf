"""``kortbord migrate-db``: a server's SQLite database, with tables in play, moved into PostgreSQL;
started there, the bot resumes every table as it was."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from conftest import postgres_server

from bot.__main__ import main
from bot.clock import ManualClock
from bot.health import Beat, heartbeat_path, write_beat
from bot.leaderboard import finish_table, leaderboard
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import GuildSettings, SeatRecord, Storage, open_storage

T0 = 1_800_000_000.0
GUILD = 5 << 22
ANNA, BO, CILLA = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla")


@pytest.fixture
def sqlite_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings point at a SQLite file in the test's folder, as on a small server."""
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_") and not name.upper().startswith("KORTBORD_TEST_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "data" / "kortbord.sqlite3"
    monkeypatch.setenv("KORTBORD_DATABASE", str(path))
    return path


def manager(storage: Storage) -> SessionManager:
    return SessionManager(
        storage, ManualClock(T0), turn_seconds=60, idle_seconds=600, rng=random.Random(1)
    )


def to_act(table: LiveTable) -> tuple[int, str]:
    assert table.game is not None
    seat = min(table.game.to_act())
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    return user_id, table.game.notation(table.game.legal_actions(seat)[0])


async def a_small_servers_database(path: Path) -> tuple[int, int, int]:
    """A match in play (two moves made), a lobby, a finished rated table, settings, a DM; the
    bot then stops as on SIGTERM. Returns (match, lobby, finished) table ids."""
    async with await open_storage(path) as storage:
        sessions = manager(storage)
        await sessions.open_table(guild_id=GUILD, channel_id=1, host=ANNA, game_id="tvamanswhist")
        await sessions.join(1, BO)
        match = await sessions.start(1, ANNA.user_id)
        for _ in range(2):
            user_id, move = to_act(match)
            await sessions.act(match.table_id, user_id, match.version, move)
        lobby = await sessions.open_table(
            guild_id=GUILD, channel_id=2, host=CILLA, game_id="tvamanswhist"
        )
        await sessions.attach_message(lobby, 72)  # its message was posted (else restore ends it)
        done = await storage.create_table(
            guild_id=GUILD,
            channel_id=3,
            host_id=21,
            game_id="tvamanswhist",
            variant="standard",
            seed=7,
            turn_seconds=60,
            language="sv",
            created_at=T0,
            status="playing",
            seats=(SeatRecord(0, 21, "Dag"), SeatRecord(1, 22, "Eva")),
        )
        await finish_table(storage, done, scores=(10, 3), places=(1, 2))
        await storage.save_guild_settings(GuildSettings(GUILD, language="en", turn_seconds=90))
        await storage.set_private_copy(match.table_id, ANNA.user_id, channel_id=71, message_id=81)
        await sessions.shutdown()
    return match.table_id, lobby.table_id, done.table_id


@pytest.mark.postgresql
async def test_a_live_sqlite_database_moves_into_postgresql_and_its_tables_resume(
    sqlite_file: Path, postgres_database: str, capsys: pytest.CaptureFixture[str]
) -> None:
    match_id, lobby_id, done_id = await a_small_servers_database(sqlite_file)
    async with await open_storage(sqlite_file) as before:
        board = await leaderboard(before, GUILD, "tvamanswhist")
        log = await before.actions(match_id)

    assert await asyncio.to_thread(main, ["migrate-db", postgres_database]) == 0
    said = capsys.readouterr().out
    assert "2 live tables" in said
    assert "3 tables" in said
    assert f"now set KORTBORD_DATABASE={postgres_database}" in said

    async with await open_storage(postgres_database) as moved:
        assert await leaderboard(moved, GUILD, "tvamanswhist") == board
        assert await moved.guild_settings(GUILD) == GuildSettings(
            GUILD, language="en", turn_seconds=90
        )
        assert await moved.private_copy(match_id, ANNA.user_id) == (71, 81)
        sessions = manager(moved)
        assert await sessions.restore() == 2
        match = sessions.table_by_id(match_id)
        assert match is not None
        assert (match.record.status, match.seq) == ("playing", len(log))
        assert await moved.actions(match_id) == log
        assert sessions.table_by_id(lobby_id) is not None
        # the match goes on where it stopped
        user_id, move = to_act(match)
        await sessions.act(match_id, user_id, match.version, move)
        assert len(await moved.actions(match_id)) == match.seq > len(log)
        # a new table never takes an id the old database used
        fresh = await sessions.open_table(
            guild_id=GUILD, channel_id=4, host=Member(30, "Fia"), game_id="tvamanswhist"
        )
        assert fresh.table_id > max(match_id, lobby_id, done_id)
        await sessions.shutdown()

    # a second move into the now full database is refused and changes nothing
    assert await asyncio.to_thread(main, ["migrate-db", postgres_database]) == 1
    assert "already holds data" in capsys.readouterr().err


def test_the_move_waits_for_the_bot_to_stop(
    sqlite_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sqlite_file.parent.mkdir(parents=True)
    write_beat(heartbeat_path(sqlite_file), Beat("connected", time.time(), 4242))
    assert main(["migrate-db", "postgresql://kortbord@db.invalid/kortbord"]) == 1
    said = capsys.readouterr().err
    assert "the bot is running" in said
    assert "stop it first" in said


def test_the_move_needs_a_postgresql_address(
    sqlite_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate-db", "backup.sqlite3"]) == 2
    assert "not a postgresql:// address" in capsys.readouterr().err


@pytest.mark.parametrize(
    "address",
    [
        "mysql://kortbord:hemligt@db.example/kortbord",
        "postgresql://kortbord@db.example/kortbord?password=hemligt",
        "host=db.example user=kortbord password=hemligt dbname=kortbord",
    ],
)
def test_a_refused_address_is_named_without_its_password(
    sqlite_file: Path, capsys: pytest.CaptureFixture[str], address: str
) -> None:
    code = main(["migrate-db", address])
    said = capsys.readouterr()
    assert code in (1, 2)
    assert "hemligt" not in said.err + said.out


@pytest.mark.parametrize("port", ["54x32", "99999", "-1"])
def test_a_malformed_port_is_one_line_and_exit_2(
    sqlite_file: Path, capsys: pytest.CaptureFixture[str], port: str
) -> None:
    assert main(["migrate-db", f"postgresql://kortbord:hemligt@db.example:{port}/kb"]) == 2
    said = capsys.readouterr().err.strip()
    assert "no valid port" in said
    assert "\n" not in said
    assert "Traceback" not in said
    assert "hemligt" not in said


def elsewhere(server: str, *, database: str | None = None, role: str | None = None) -> str:
    """The test server's address naming another database or another role."""
    parts = urlsplit(server)
    netloc = parts.netloc
    if role is not None:
        netloc = f"{role}@{netloc.rpartition('@')[2]}"
    path = f"/{database}" if database is not None else parts.path
    return urlunsplit(parts._replace(netloc=netloc, path=path))


@pytest.mark.postgresql
@pytest.mark.parametrize("missing", ["database", "role"])
def test_a_missing_database_or_unknown_role_is_one_line_for_migrate_db_and_run(
    sqlite_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    missing: str,
) -> None:
    server = postgres_server()
    if missing == "database":
        address, says = elsewhere(server, database="kortbord_nowhere"), "kortbord_nowhere"
    else:
        address, says = elsewhere(server, role="kortbord_nobody"), "kortbord_nobody"
    asyncio.run(a_small_servers_database(sqlite_file))
    assert main(["migrate-db", address]) == 1
    said = capsys.readouterr().err.strip()
    assert said.startswith("migrate-db failed: cannot connect to ")
    assert says in said
    assert "\n" not in said
    assert "Traceback" not in said

    monkeypatch.setenv(
        "KORTBORD_TOKEN", "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"
    )
    monkeypatch.setenv("KORTBORD_DATABASE", address)
    assert main(["run"]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"cannot open the database {address}: cannot connect to ")
    assert says in said
    assert "\n" not in said
