"""The service's settings: one ``Settings`` value, read from the environment and ``.env``.

Build it once at start-up with ``load_settings()`` and pass it down; nothing else reads the
environment. Every setting is ``KORTBORD_<NAME>`` (``.env.example`` lists them all). A bad value
stops start-up with a one-line ``SettingsError`` that names the setting, never with a traceback.
"""

from __future__ import annotations

import difflib
import io
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from dotenv import dotenv_values
from dotenv.parser import parse_stream
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.storage.records import Shards

ENV_PREFIX = "KORTBORD_"
TOKEN_SHAPE = re.compile(r"[\w-]{16,}\.[\w-]{4,}\.[\w-]{10,}")
"""A Discord bot token's shape: three dot-separated base64 parts."""
TEST_PREFIX = "KORTBORD_TEST_"
"""Names the test suite reads (``KORTBORD_TEST_POSTGRES``); no setting of the bot."""
POSTGRES_SCHEMES = ("postgresql://", "postgres://")

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class SettingsError(Exception):
    """A setting is missing or invalid; the message is one line that names it."""


class Settings(BaseSettings):
    """Everything the service can be configured with; defaults suit a small server."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_file=".env",
        env_file_encoding="utf-8",
        # A blank line such as `KORTBORD_DEV_GUILD=` in .env means "use the default".
        env_ignore_empty=True,
        # .env may hold other programs' settings too; misspelt KORTBORD_ names are caught by
        # load_settings instead.
        extra="ignore",
        frozen=True,
    )

    token: SecretStr | None = None
    """The Discord bot token; not needed by the terminal table or the demo."""
    database: Path | str = Path("data/kortbord.sqlite3")
    """The SQLite file (its directory is created when the storage opens it), or a PostgreSQL
    address ``postgresql://user:password@host:5432/kortbord`` for several processes."""
    pool_size: int = Field(default=10, ge=1, le=200)
    """PostgreSQL only: the most connections this process opens."""
    database_timeout: float = Field(default=5.0, ge=0.1, le=60.0)
    """Seconds the database may take to answer a read or write (from its turn to its commit)
    before it counts as not done: a database that hangs never holds a table longer than this.
    Waiting in line behind other tables is not counted: a queue is not an outage."""
    state_dir: Path | None = None
    """Where this process keeps its heartbeat and login ledger; by default beside the SQLite
    file, or ``data/`` with PostgreSQL."""
    shard_count: int | None = Field(default=None, ge=1)
    """Discord gateway shards of the whole bot, when it runs as several processes."""
    shards: str | None = None
    """The shards this process serves, e.g. ``0-3`` or ``4,5`` (needs ``shard_count``);
    default: all of them."""
    dev_guild: int | None = None
    """A guild whose slash commands are synced instantly (development); None: global sync."""
    language: Literal["sv", "en"] = "sv"
    """The bot's default language; a server may choose its own."""
    turn_seconds: int = Field(default=60, ge=10, le=3600)
    """Default time a player has for a turn before a computer player acts for the seat."""
    reaction_seconds: int = Field(default=5, ge=3, le=15)
    """Default time for real-time reactions (Hej knekt)."""
    idle_minutes: int = Field(default=30, ge=1)
    """A table with no action for this long is ended, so a channel is never blocked."""
    ai_seconds: float = Field(default=1.0, ge=0.05, le=30.0)
    """Wall-clock time a ``hard`` computer player may think about one decision."""
    ai_iterations: int = Field(default=5000, ge=1, le=1_000_000)
    """At most this many search samples per decision, even with time left."""
    ai_workers: int = Field(default=2, ge=0, le=64)
    """Worker processes that run the searches; 0 searches in a thread of the bot's process."""
    daily_playouts: int = Field(default=1000, ge=2, le=1_000_000)
    """Playouts of a ``hard`` decision at a table of the day: a count, never a time, so that
    every member meets the same computer moves."""
    web_port: int | None = Field(default=None, ge=0, le=65535)
    """The port of the web table (the Discord Activity); None: no web table is served."""
    web_host: str = "0.0.0.0"
    """The address the web table listens on (all of the machine's by default: a reverse proxy
    that terminates TLS sits in front of it)."""
    web_address: str | None = None
    """Where the bot's other processes reach this one's web table (e.g. ``http://shards-0-1:8080``),
    when it runs as several processes; by default ``http://<host name>:<web port>``."""
    client_id: str | None = None
    """The application's id, for the Activity's sign-in; by default the bot's own, learnt at
    login."""
    client_secret: SecretStr | None = None
    """The application's OAuth2 client secret, with which the bot exchanges the Activity's
    sign-in code at Discord; without it the web table cannot sign members in."""
    public_url: str | None = None
    """The web table's address on the internet (what Discord's URL Mapping points at), e.g.
    ``https://kortbord.example.se``; ``kortbord doctor`` fetches the web table through it."""
    log_level: LogLevel = "INFO"
    log_format: Literal["text", "json"] = "text"

    @field_validator("database", mode="before")
    @classmethod
    def _database(cls, value: object) -> object:
        """A PostgreSQL address stays text; anything else is a file path."""
        if isinstance(value, str):
            value = value.strip()
            return value if value.startswith(POSTGRES_SCHEMES) else Path(value)
        return value

    @model_validator(mode="after")
    def _shard_range(self) -> Settings:
        if self.shards is not None and self.shard_count is None:
            raise ValueError("KORTBORD_SHARDS needs KORTBORD_SHARD_COUNT, the shards of the bot")
        if self.shard_count is not None:
            Shards.parse(self.shards or f"0-{self.shard_count - 1}", self.shard_count)
        return self

    @property
    def postgres(self) -> bool:
        return isinstance(self.database, str)

    @property
    def shard_range(self) -> Shards | None:
        """The shards this process serves; None when the bot is not split into shards."""
        if self.shard_count is None:
            return None
        return Shards.parse(self.shards or f"0-{self.shard_count - 1}", self.shard_count)

    @property
    def process_file(self) -> Path:
        """The path beside which this process keeps its own files (heartbeat, login ledger):
        the SQLite file itself for one process, else one name per shard range, so processes
        that share a folder never share these files."""
        shards = self.shard_range
        if isinstance(self.database, Path) and shards is None and self.state_dir is None:
            return self.database
        folder = self.state_dir or (
            self.database.parent if isinstance(self.database, Path) else Path("data")
        )
        suffix = "" if shards is None else f"-shards-{shards.label.replace(',', '_')}"
        return folder / f"kortbord{suffix}"

    @field_validator("public_url", mode="before")
    @classmethod
    def _public_url(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.startswith(("https://", "http://")):
                raise ValueError(
                    "must be the web table's address, e.g. https://kortbord.example.se"
                )
        return value

    @field_validator("language", "log_format", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value


def load_settings(env_file: Path | str | None = ".env") -> Settings:
    """The settings from the environment and ``env_file`` (None: environment only).

    The environment wins over the file. Raises ``SettingsError`` with one line naming each bad
    setting, e.g. ``KORTBORD_TURN_SECONDS='5': Input should be greater than or equal to 10``.
    """
    names = list(os.environ)
    if env_file is not None and Path(env_file).is_file():
        check_env_file(Path(env_file))
        names += dotenv_values(env_file)
    problems = unknown_names(names)
    settings = None
    try:
        settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    except ValidationError as error:
        problems += describe(error)
    if problems or settings is None:
        raise SettingsError("invalid settings: " + "; ".join(problems))
    return settings


def check_env_file(path: Path) -> None:
    """``SettingsError`` naming the first line of ``path`` that is not UTF-8 or not a setting."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as error:
        line = path.read_bytes()[: error.start].count(b"\n") + 1
        raise SettingsError(f"{path} line {line}: not UTF-8 text") from None
    except OSError as error:
        raise SettingsError(f"{path} cannot be read: {error.strerror}") from None
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            line = binding.original.line
            raise SettingsError(f"{path} line {line}: not a NAME=value line") from None


def looks_secret(value: object) -> bool:
    """A value that may be a token or a password: long, or shaped like a Discord token. It is
    never repeated in an error, whichever setting it was given for."""
    text = str(value)
    return len(text) > 24 or bool(TOKEN_SHAPE.search(text))


def unknown_names(names: Iterable[str]) -> list[str]:
    """A problem for each ``KORTBORD_`` name that is no setting, with the likely intended one."""
    known = [ENV_PREFIX + field.upper() for field in Settings.model_fields]
    problems = []
    for name in sorted(set(names)):
        upper = name.upper()
        if not upper.startswith(ENV_PREFIX) or upper in known or upper.startswith(TEST_PREFIX):
            continue
        guess = difflib.get_close_matches(name.upper(), known, n=1)
        hint = f" (did you mean {guess[0]}?)" if guess else ""
        problems.append(f"{name}: unknown setting{hint}")
    return problems


def describe(error: ValidationError) -> list[str]:
    """A problem for each setting that failed, with its value unless it is secret."""
    problems = []
    for detail in error.errors():
        if not detail["loc"]:
            problems.append(str(detail["msg"]).removeprefix("Value error, "))
            continue
        field = str(detail["loc"][0])
        name = ENV_PREFIX + field.upper()
        value = detail["input"]
        if (
            field in ("token", "client_secret")
            or looks_secret(value)
            or (isinstance(value, str) and value.startswith(POSTGRES_SCHEMES))
        ):
            problems.append(f"{name}: {detail['msg']}")
        else:
            problems.append(f"{name}={value!r}: {detail['msg']}")
    return problems
