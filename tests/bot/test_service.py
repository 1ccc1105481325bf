"""The command line of the service: without a token it says what to do, and starts nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main


@pytest.mark.parametrize("command", [["run"], ["sync", "--guild", "123"]])
def test_without_a_token_it_explains_how_to_get_one_and_points_at_the_demo(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("KORTBORD_TOKEN", raising=False)
    assert main(command) == 2
    said = capsys.readouterr().err
    assert "KORTBORD_TOKEN is not set" in said
    assert "discord.com/developers/applications" in said
    assert "./dev demo" in said


def test_a_bad_setting_is_named_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KORTBORD_TURN_SECONDS", "5")
    assert main(["run"]) == 2
    assert "KORTBORD_TURN_SECONDS" in capsys.readouterr().err
