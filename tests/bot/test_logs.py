"""Logs: readable text by default, JSON lines when asked, and never the bot token."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.logs import HIDDEN, setup_logging
from bot.settings import Settings

# Shaped like a Discord token (not a real one): id, timestamp and HMAC in base64url.
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GhXyZa.abcdefghijklmnopqrstuvwxyz0123456789AB"
OTHER_TOKEN = "ODc2NTQzMjEwOTg3NjU0MzIxMA.Gq1w2e.ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zz"

log = logging.getLogger("bot.test_logs")


@pytest.fixture(autouse=True)
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)


def configure(**settings: object) -> io.StringIO:
    stream = io.StringIO()
    # model_validate reads neither the environment nor .env: only what the test gives.
    setup_logging(Settings.model_validate(settings), stream)
    return stream


def test_text_by_default_one_readable_line() -> None:
    stream = configure()
    log.info("table %d opened in %s", 7, "#kortbord")
    line = stream.getvalue().strip()
    assert line.endswith("INFO    bot.test_logs: table 7 opened in #kortbord")
    assert "\n" not in line


def test_json_lines_when_configured() -> None:
    stream = configure(log_format="json")
    log.warning("table %d: %s", 7, "message gone", extra={"table_id": 7})
    log.info("second")
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["level"] == "WARNING"
    assert first["logger"] == "bot.test_logs"
    assert first["message"] == "table 7: message gone"
    assert first["table_id"] == 7
    assert first["time"].endswith("+00:00")
    assert second["message"] == "second"


def test_json_carries_the_traceback_in_one_line() -> None:
    stream = configure(log_format="json")
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        log.exception("timer callback failed")
    (line,) = stream.getvalue().splitlines()
    entry = json.loads(line)
    assert entry["message"] == "timer callback failed"
    assert "RuntimeError: boom" in entry["exception"]
    assert "Traceback" in entry["exception"]


def test_level_is_honoured() -> None:
    stream = configure(log_level="WARNING")
    log.info("not shown")
    log.warning("shown")
    assert "not shown" not in stream.getvalue()
    assert "shown" in stream.getvalue()


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_token_never_appears(log_format: str) -> None:
    stream = configure(token=TOKEN, log_format=log_format)
    log.info("connecting with %s", TOKEN)
    log.info("header Authorization: Bot " + TOKEN)
    log.info("extra", extra={"request": f"Bot {TOKEN}", "headers": {"Authorization": TOKEN}})
    log.info("stack", stack_info=True, extra={"note": TOKEN})
    try:
        raise ValueError(f"improper token {TOKEN}")
    except ValueError:
        log.exception("login failed for %r", TOKEN)
    try:
        raise ValueError(f"improper token {TOKEN}")
    except ValueError as error:
        log.error("login failed", exc_info=error)
    written = stream.getvalue()
    assert TOKEN not in written
    assert TOKEN[:20] not in written
    assert written.count(HIDDEN) >= (8 if log_format == "json" else 5)
    assert "improper token" in written  # the rest of the message is kept


def test_a_token_split_between_format_and_argument_is_hidden() -> None:
    stream = configure(token=TOKEN)
    half = len(TOKEN) // 2
    log.info(TOKEN[:half] + "%s", TOKEN[half:])
    assert TOKEN not in stream.getvalue()


def test_anything_shaped_like_a_token_is_hidden_even_if_not_configured() -> None:
    stream = configure(token=TOKEN)
    log.warning("an old token in the environment: %s", OTHER_TOKEN)
    assert OTHER_TOKEN not in stream.getvalue()
    assert HIDDEN in stream.getvalue()


def test_an_unusual_configured_token_is_hidden_by_value() -> None:
    odd = "not-a-discord-shaped-secret"
    stream = configure(token=odd)
    log.info("token=%s", odd)
    assert odd not in stream.getvalue()


def test_ordinary_text_with_dots_is_left_alone() -> None:
    stream = configure()
    text = "discord.gateway: shard ID None has connected; version 2.7.1; 192.168.0.1; v1.2.3"
    log.info(text)
    assert text in stream.getvalue()


def test_calling_it_again_replaces_its_handler() -> None:
    first = configure()
    second = configure(log_format="json")
    log.info("once")
    assert "once" not in first.getvalue()
    assert json.loads(second.getvalue())["message"] == "once"
    assert sum(type(h).__name__ == "LogHandler" for h in logging.getLogger().handlers) == 1
