"""An SQLite file on a read-only mount: every command says in one line that it is read-only.

SQLite itself says only "unable to open database file" (a WAL database cannot be opened where
its ``-shm`` file cannot be written). Root ignores file modes, so the mount is simulated: SQLite
refuses every file in the folder as it does on a read-only file system, and ``access(2)`` says
the folder cannot be written (EROFS), as it says there even to root.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.storage import open_storage

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A migrated database whose folder is then mounted read-only; the settings point at it."""
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "data" / "kortbord.sqlite3"

    async def create() -> None:
        await (await open_storage(path)).close()

    asyncio.run(create())
    monkeypatch.setenv("KORTBORD_DATABASE", str(path))
    monkeypatch.setenv("KORTBORD_TOKEN", TOKEN)
    return path


@pytest.fixture
def read_only_mount(database: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = database.parent
    real_connect, real_access = sqlite3.connect, os.access

    def on_the_mount(where: object) -> bool:
        text = os.fsdecode(where) if isinstance(where, str | bytes | os.PathLike) else ""
        return text.startswith((str(folder), folder.as_uri()))

    def connect(where: str, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if on_the_mount(where):
            raise sqlite3.OperationalError("unable to open database file")
        connection: sqlite3.Connection = real_connect(where, *args, **kwargs)
        return connection

    def access(where: str | Path, mode: int, *args: object, **kwargs: object) -> bool:
        if mode & os.W_OK and on_the_mount(where):
            return False
        return real_access(where, mode, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sqlite3, "connect", connect)
    monkeypatch.setattr(os, "access", access)
    return database


def said_read_only(line: str, database: Path) -> bool:
    return f"database {database} is read-only" in line and "\n" not in line.strip()


def test_run_says_the_file_is_read_only(
    read_only_mount: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run"]) == 2
    said = capsys.readouterr().err
    assert said_read_only(said, read_only_mount)
    assert "Traceback" not in said


def test_health_says_the_file_is_read_only(
    read_only_mount: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["health"]) == 1
    line = capsys.readouterr().out
    assert line.startswith("unhealthy: ")
    assert said_read_only(line, read_only_mount)


def test_backup_says_the_file_is_read_only(
    read_only_mount: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["backup", str(tmp_path / "copy.sqlite3")]) == 1
    line = capsys.readouterr().err
    assert line.startswith("backup failed: ")
    assert said_read_only(line, read_only_mount)


def test_a_readable_file_is_not_called_read_only(
    database: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["health"])
    assert "read-only" not in capsys.readouterr().out


@pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="a private read-only bind mount needs Linux, root and unshare",
)
def test_run_on_a_real_read_only_mount(database: Path) -> None:
    folder = database.parent
    script = (
        f"mount --bind {folder} {folder} && mount -o remount,ro,bind {folder} &&"
        f" {sys.executable} -m bot run"
    )
    try:
        done = subprocess.run(
            ["unshare", "-m", "sh", "-c", script],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"no private mount here: {error}")
    if done.returncode != 2 and done.stderr.startswith(("mount", "unshare")):
        pytest.skip(f"no private mount here: {done.stderr.strip()}")
    assert done.returncode == 2, done.stderr
    assert said_read_only(done.stderr, database)
