"""Settings: read from the environment and .env, bounded, and refused with one clear line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.settings import Settings, SettingsError, load_settings
from bot.storage import Shards

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No KORTBORD_ variable from the machine, and no .env but the test's own."""
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)


def test_defaults_without_environment_or_file() -> None:
    settings = load_settings()
    assert settings.token is None
    assert settings.database == Path("data/kortbord.sqlite3")
    assert settings.dev_guild is None
    assert settings.language == "sv"
    assert (settings.turn_seconds, settings.reaction_seconds, settings.idle_minutes) == (60, 5, 30)
    assert (settings.log_level, settings.log_format) == ("INFO", "text")


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KORTBORD_TOKEN", "secret-token")
    monkeypatch.setenv("KORTBORD_DATABASE", "/var/lib/kortbord/db.sqlite3")
    monkeypatch.setenv("KORTBORD_DEV_GUILD", "123456789012345678")
    monkeypatch.setenv("KORTBORD_LANGUAGE", "en")
    monkeypatch.setenv("KORTBORD_TURN_SECONDS", "90")
    monkeypatch.setenv("KORTBORD_LOG_LEVEL", "debug")
    monkeypatch.setenv("KORTBORD_LOG_FORMAT", "JSON")
    settings = load_settings()
    assert settings.token == SecretStr("secret-token")
    assert "secret-token" not in repr(settings)
    assert settings.database == Path("/var/lib/kortbord/db.sqlite3")
    assert settings.dev_guild == 123456789012345678
    assert settings.language == "en"
    assert settings.turn_seconds == 90
    assert (settings.log_level, settings.log_format) == ("DEBUG", "json")


def test_settings_from_dot_env_and_the_environment_wins(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text(
        "# a comment\nKORTBORD_TURN_SECONDS=120\nKORTBORD_LANGUAGE=en\nKORTBORD_DEV_GUILD=\n"
        "OTHER_PROGRAM_SETTING=1\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("KORTBORD_LANGUAGE", "sv")
    settings = load_settings()
    assert settings.turn_seconds == 120
    assert settings.language == "sv"
    assert settings.dev_guild is None


def test_an_explicit_env_file(tmp_path: Path) -> None:
    (tmp_path / "prod.env").write_text("KORTBORD_IDLE_MINUTES=5\n", encoding="utf-8")
    assert load_settings(tmp_path / "prod.env").idle_minutes == 5
    assert load_settings(None).idle_minutes == 30


@pytest.mark.parametrize(
    ("name", "value", "valid"),
    [
        ("TURN_SECONDS", "9", False),
        ("TURN_SECONDS", "10", True),
        ("TURN_SECONDS", "3600", True),
        ("TURN_SECONDS", "3601", False),
        ("REACTION_SECONDS", "2", False),
        ("REACTION_SECONDS", "3", True),
        ("REACTION_SECONDS", "15", True),
        ("REACTION_SECONDS", "16", False),
        ("IDLE_MINUTES", "0", False),
        ("LANGUAGE", "de", False),
        ("LOG_LEVEL", "LOUD", False),
        ("LOG_FORMAT", "xml", False),
        ("DEV_GUILD", "not-a-number", False),
    ],
)
def test_bounds(monkeypatch: pytest.MonkeyPatch, name: str, value: str, valid: bool) -> None:
    monkeypatch.setenv(f"KORTBORD_{name}", value)
    if valid:
        assert getattr(load_settings(), name.lower()) == int(value)
    else:
        with pytest.raises(SettingsError, match=f"KORTBORD_{name}='{value}'"):
            load_settings()


def test_the_error_is_one_line_naming_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KORTBORD_TURN_SECONDS", "5")
    monkeypatch.setenv("KORTBORD_REACTION_SECONDS", "soon")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("invalid settings: ")
    assert "KORTBORD_TURN_SECONDS='5': Input should be greater than or equal to 10" in message
    assert "KORTBORD_REACTION_SECONDS='soon'" in message
    # The one line is all there is: no pydantic traceback chained to it.
    assert caught.value.__cause__ is None


def test_a_misspelt_setting_is_named_with_the_likely_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text("KORTBORD_TURN_SECOND=90\n", encoding="utf-8")
    with pytest.raises(
        SettingsError,
        match=r"KORTBORD_TURN_SECOND: unknown setting \(did you mean KORTBORD_TURN_SECONDS\?\)",
    ):
        load_settings()


def test_settings_are_built_once_and_cannot_change() -> None:
    settings = load_settings()
    with pytest.raises(ValueError, match="frozen"):
        settings.turn_seconds = 30


def test_env_example_lists_every_setting_with_its_default() -> None:
    example = REPO / ".env.example"
    names = [
        line.split("=", 1)[0]
        for line in example.read_text(encoding="utf-8").splitlines()
        if line and not line.startswith("#")
    ]
    assert sorted(names) == sorted(f"KORTBORD_{field.upper()}" for field in Settings.model_fields)
    assert load_settings(example) == load_settings(None)


def test_a_postgresql_address_selects_postgresql_and_a_path_stays_sqlite(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert not load_settings().postgres
    monkeypatch.setenv("KORTBORD_DATABASE", "postgresql://kortbord:pw@db:5432/kortbord")
    settings = load_settings()
    assert settings.postgres
    assert settings.database == "postgresql://kortbord:pw@db:5432/kortbord"
    assert settings.process_file == Path("data/kortbord")


def test_a_shard_range_names_the_shards_this_process_serves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert load_settings().shard_range is None
    monkeypatch.setenv("KORTBORD_SHARD_COUNT", "8")
    assert load_settings().shard_range == Shards(8, tuple(range(8)))
    monkeypatch.setenv("KORTBORD_SHARDS", "4-7")
    settings = load_settings()
    assert settings.shard_range == Shards(8, (4, 5, 6, 7))
    # processes sharing a folder keep their heartbeats apart
    assert settings.process_file == Path("data/kortbord-shards-4-7")


@pytest.mark.parametrize(
    ("count", "shards", "problem"),
    [
        (None, "0-3", "KORTBORD_SHARDS needs KORTBORD_SHARD_COUNT"),
        ("4", "2-5", "not all in 0..3"),
        ("4", "three", "not a shard range"),
        ("0", None, "KORTBORD_SHARD_COUNT='0'"),
    ],
)
def test_a_bad_shard_range_is_refused_in_one_line(
    monkeypatch: pytest.MonkeyPatch, count: str | None, shards: str | None, problem: str
) -> None:
    if count is not None:
        monkeypatch.setenv("KORTBORD_SHARD_COUNT", count)
    if shards is not None:
        monkeypatch.setenv("KORTBORD_SHARDS", shards)
    with pytest.raises(SettingsError, match=problem) as refused:
        load_settings()
    assert "\n" not in str(refused.value)


def test_the_test_suites_own_names_are_no_misspelt_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("KORTBORD_TEST_POSTGRES", "postgresql://postgres@127.0.0.1/test")
    assert load_settings().database == Path("data/kortbord.sqlite3")


TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_a_token_given_for_another_setting_is_never_repeated(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("KORTBORD_DEV_GUILD", TOKEN)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert "KORTBORD_DEV_GUILD" in str(caught.value)
    assert TOKEN not in str(caught.value)
    assert "GaBcDe" not in str(caught.value)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"KORTBORD_LANGUAGE=en\nthis is no setting\n", ".env line 2: not a NAME=value line"),
        (b"KORTBORD_LANGUAGE=en\nKORTBORD_TURN_SECONDS=\xff\xfe\n", ".env line 2: not UTF-8"),
    ],
)
def test_a_broken_env_file_is_one_clear_line(content: bytes, says: str) -> None:
    Path(".env").write_bytes(content)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    assert says in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize("kind", ["a folder", "not a database", "under a file", "read-only"])
def test_run_refuses_an_unopenable_database_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
) -> None:
    from bot.__main__ import main

    database = tmp_path / "kortbord.sqlite3"
    if kind == "a folder":
        database.mkdir()
    elif kind == "under a file":  # its folder cannot be made
        (tmp_path / "data").write_text("a file, not a folder")
        database = tmp_path / "data" / "kortbord.sqlite3"
    elif kind == "read-only":  # a read-only file system: even root cannot write there
        database = Path("/proc/kortbord/kortbord.sqlite3")
    else:
        database.write_bytes(b"this is no SQLite file, only some text " * 100)
    monkeypatch.setenv("KORTBORD_TOKEN", TOKEN)
    monkeypatch.setenv("KORTBORD_DATABASE", str(database))
    assert main(["run"]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"cannot open the database {database}: ")
    assert "\n" not in said
    assert "Traceback" not in said
    assert TOKEN not in said
