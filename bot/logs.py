"""Logging for the service: one handler on the root logger, plain text or JSON lines, no secrets.

``setup_logging(settings)`` is called once by the commands that run the service (``kortbord run``,
``kortbord sync``); library code only uses ``logging.getLogger(__name__)``. Text is the default,
meant for a person reading ``docker compose logs``; ``KORTBORD_LOG_FORMAT=json`` writes one JSON
object per line for log collectors.

The bot token must never reach a log. A filter on the handler rewrites every record before it is
formatted: its message, its arguments, its exception and stack text and any extra fields. It hides
the configured token wherever it appears and anything else shaped like a Discord token (three
base64url parts joined by dots), so a token from a pasted URL or an old configuration is hidden too.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime
from typing import TextIO

from bot.settings import Settings

HIDDEN = "[token hidden]"

# A Discord bot token: the bot's user id in base64, a timestamp, an HMAC, joined by dots.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,8}\.[A-Za-z0-9_-]{25,}")
# A configured token shorter than this is only hidden where it has the token's shape: hiding
# every occurrence of a short word would blank out ordinary log text.
MIN_EXACT = 8

TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

# The attributes every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD = frozenset(
    set(logging.LogRecord("", 0, "", 0, "", None, None).__dict__)
    | {"message", "asctime", "taskName"}
)


class TokenFilter(logging.Filter):
    """Hides the token, and anything shaped like a Discord token, in every record it sees."""

    def __init__(self, token: str | None = None) -> None:
        super().__init__()
        self._token = token if token and len(token) >= MIN_EXACT else None

    def redact(self, text: str) -> str:
        if self._token is not None:
            text = text.replace(self._token, HIDDEN)
        return TOKEN_SHAPE.sub(HIDDEN, text)

    def filter(self, record: logging.LogRecord) -> bool:
        # The message is merged with its arguments here, once, so that a token split across
        # the format string and an argument is still seen whole.
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
            # exc_text is what formatters print; the exception object itself may still hold the
            # token (e.g. in its args), so no formatter gets to format it again.
            record.exc_info = None
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        for name, value in list(record.__dict__.items()):
            if name not in _STANDARD and isinstance(value, str):
                setattr(record, name, self.redact(value))
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, and the rest."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        for name, value in record.__dict__.items():
            if name not in _STANDARD and name not in entry:
                entry[name] = value
        return json.dumps(entry, ensure_ascii=False, default=str)


class LogHandler(logging.StreamHandler[TextIO]):
    """The service's one handler: hides tokens in each record, then once more in the line itself.

    The second pass catches what the filter cannot reach, such as a token inside a non-text
    ``extra`` value that only becomes text when the line is formatted.
    """

    def __init__(self, stream: TextIO, token_filter: TokenFilter) -> None:
        super().__init__(stream)
        self.token_filter = token_filter
        self.addFilter(token_filter)

    def format(self, record: logging.LogRecord) -> str:
        return self.token_filter.redact(super().format(record))


def setup_logging(settings: Settings, stream: TextIO | None = None) -> LogHandler:
    """Sends every log record at ``settings.log_level`` or above to ``stream`` (stderr).

    Replaces the handler a previous call installed (other handlers are left alone), so calling
    it again is harmless. Returns the handler.
    """
    token = settings.token.get_secret_value() if settings.token is not None else None
    handler = LogHandler(stream if stream is not None else sys.stderr, TokenFilter(token))
    if settings.log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in root.handlers[:]:
        if isinstance(old, LogHandler):
            root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(settings.log_level)
    # Python's warnings (deprecations in a dependency) go through the same handler.
    logging.captureWarnings(True)
    return handler
