"""The ``kortbord`` command line. Thin: each subcommand hands over to the module that does it.

``kortbord run`` runs the Discord bot until SIGTERM (``bot.service``), with the web table beside
it when ``KORTBORD_WEB_PORT`` is set; ``kortbord web`` runs the web table alone; ``kortbord sync``
registers its slash commands with Discord (globally, or on ``KORTBORD_DEV_GUILD``).
``kortbord play <game>`` seats you at a terminal table against computer players
(``bot.terminal``).
``kortbord doctor CHANNEL`` checks, after a deploy, what the bot will do on real Discord in that
channel (``bot.discord.doctor``): one line per check, exit 0 only when every one passed.
``kortbord health`` tells whether a running bot is healthy (``bot.health``; the container's
HEALTHCHECK): exit 0 when it is, 1 when it is not, with one line either way.
``kortbord backup FILE`` writes a consistent copy of the database, safe while the bot runs.
``kortbord migrate-db ADDRESS`` moves the SQLite database into an empty PostgreSQL database.
``kortbord verify FILE`` (or ``--table N``) deals every deal of a finished match again from its
seed and checks it against the fingerprints shown and the moves played (``bot.verify``).
``kortbord demo`` shows the same bot on a simulated Discord in a local browser page (``bot.demo``).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.i18n import DEFAULT_LANG, LANGS, catalog
from games import registry

if TYPE_CHECKING:
    from bot.verify import MatchRecord


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kortbord", description="Classic Swedish card games.")
    parser.add_argument("--debug", action="store_true", help="log to stderr")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="run the Discord bot (settings from the environment or .env)")
    commands.add_parser("web", help="run the web table alone, without Discord (KORTBORD_WEB_PORT)")
    sync = commands.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument(
        "--guild", type=int, help="only on this guild, at once (default: KORTBORD_DEV_GUILD)"
    )
    demo = commands.add_parser("demo", help="the bot on a simulated Discord in your browser")
    demo.add_argument("--port", type=int, help="the local port of the page (default: any free)")
    demo.add_argument("--no-browser", action="store_true", help="do not open a browser")
    play = commands.add_parser("play", help="play a game in the terminal against computer players")
    play.add_argument("game", help=f"the game: {', '.join(registry.SPECS) or 'none registered'}")
    play.add_argument(
        "--players",
        type=int,
        help="number of seats (default: the number the game is best played by)",
    )
    play.add_argument("--seed", type=int, help="deal and computer players from this seed")
    play.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )
    play.add_argument("--variant", help="a named variant (preset of options)")
    play.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default sv)")
    play.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0)")
    play.add_argument(
        "--pace", type=float, default=0.7, help="seconds between computer moves (default 0.7)"
    )
    play.add_argument(
        "--opponents",
        default="normal",
        help="level of the computer players: easy, normal (default) or hard (also random)",
    )
    play.add_argument("--name", help="your name at the table (default: Du / You)")
    doctor = commands.add_parser(
        "doctor",
        help="check on Discord, in a channel, everything the bot will do there (after a deploy)",
    )
    doctor.add_argument("channel", type=int, help="the id of a text channel the bot is in")
    doctor.add_argument("--api", help=argparse.SUPPRESS)  # another Discord, for the tests
    commands.add_parser(
        "health",
        help="exit 0 if the database answers and the running bot's gateway is alive, else 1",
    )
    backup = commands.add_parser(
        "backup", help="copy the database to a new file (- writes it to stdout); safe while running"
    )
    backup.add_argument("file", help="the new file, or - for stdout")
    move = commands.add_parser(
        "migrate-db",
        help="move the SQLite database (the bot stopped) into an empty PostgreSQL database",
    )
    move.add_argument("target", help="the PostgreSQL address, postgresql://user:pw@host/db")
    move.add_argument(
        "--from",
        dest="source",
        help="the SQLite file (default: KORTBORD_DATABASE)",
    )
    verify = commands.add_parser(
        "verify",
        help="deal a finished match again from its seed and check it against what was played",
    )
    verify.add_argument("file", nargs="?", help="the match's record, from /spel verifiera")
    verify.add_argument(
        "--table", type=int, help="check this table in the bot's database instead of a file"
    )
    verify.add_argument("--lang", choices=LANGS, default=DEFAULT_LANG, help="language (default sv)")
    return parser


NO_TOKEN = """\
KORTBORD_TOKEN is not set: Kortbord needs a Discord bot token to run on Discord.
To get one: open https://discord.com/developers/applications, create an application, and under
Bot press Reset Token; put the token in .env as KORTBORD_TOKEN=... (see .env.example, and
README.md, Deploy, for inviting the bot and `kortbord sync`).
To try Kortbord without a token, run `./dev demo` (kortbord demo): the same bot on a simulated
Discord in your browser."""

NO_WEB_PORT = """\
KORTBORD_WEB_PORT is not set: `kortbord web` serves the web table on that port (e.g.
KORTBORD_WEB_PORT=8080 in .env); see README.md, The web table."""


def _service(command: str, guild: int | None = None) -> int:
    """``run``, ``web`` and ``sync``: the settings, the service's logging, then the bot (or the
    web table alone)."""
    import asyncio

    from bot.logs import setup_logging
    from bot.service import run_bot, run_web, sync_commands
    from bot.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    if command == "web":
        if settings.web_port is None:
            print(NO_WEB_PORT, file=sys.stderr)
            return 2
    elif settings.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    if guild is not None:
        settings = settings.model_copy(update={"dev_guild": guild})
    if command in ("run", "web"):
        problem = asyncio.run(_database_problem(settings.database))
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
    setup_logging(settings)
    if command == "web":
        return asyncio.run(run_web(settings))
    return asyncio.run(run_bot(settings) if command == "run" else sync_commands(settings))


async def _database_problem(database: object) -> str | None:
    """One line saying why the database cannot be opened (a read-only or unwritable path, a
    file that is no database...), or None when it opens."""
    import sqlite3

    from bot.storage import StorageError, open_storage, redact

    try:
        storage = await open_storage(str(database))
    except (StorageError, sqlite3.Error, OSError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        return redact(f"cannot open the database {database}: {reason}")
    await storage.close()
    return None


def _demo(port: int | None, open_browser: bool) -> int:
    from bot.demo import demo
    from bot.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    return demo(settings, port=port, open_browser=open_browser)


def _backup(file: str) -> int:
    import asyncio
    import shutil
    import tempfile
    from pathlib import Path

    from bot.settings import SettingsError, load_settings
    from bot.storage import StorageError, backup_storage

    try:
        settings = load_settings()
        if file != "-":
            asyncio.run(backup_storage(settings.database, file))
            size = Path(file).stat().st_size
            print(f"backed up {settings.database} to {file} ({size} bytes)", file=sys.stderr)
            return 0
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / "kortbord.sqlite3"
            asyncio.run(backup_storage(settings.database, copy))
            with copy.open("rb") as source:
                shutil.copyfileobj(source, sys.stdout.buffer)
            sys.stdout.buffer.flush()
    except (SettingsError, StorageError, OSError) as error:
        print(f"backup failed: {error}", file=sys.stderr)
        return 1
    return 0


def _migrate_db(target: str, source: str | None) -> int:
    import asyncio
    import time
    from pathlib import Path
    from urllib.parse import urlsplit

    from bot.health import heartbeat_path, read_beat
    from bot.settings import SettingsError, load_settings
    from bot.storage import StorageError, is_postgres, redact
    from bot.storage.transfer import move_database

    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    database = Path(source) if source else settings.database
    if not isinstance(database, Path):
        print(
            f"KORTBORD_DATABASE is already {redact(database)}; name the SQLite file with --from",
            file=sys.stderr,
        )
        return 2
    if not is_postgres(target):
        print(f"{redact(target)} is not a postgresql:// address", file=sys.stderr)
        return 2
    try:
        urlsplit(target).port  # noqa: B018 (reading it checks it)
    except ValueError:
        print(
            f"{redact(target)} has no valid port: write it as host:5432, or leave it out",
            file=sys.stderr,
        )
        return 2
    try:
        beat = read_beat(heartbeat_path(database))
    except (OSError, ValueError, KeyError, TypeError):
        beat = None
    if beat is not None and time.time() - beat.at < 60:
        print(
            f"the bot is running on {database} (pid {beat.pid}): stop it first, so that no move"
            " is made after the copy; its live tables are paused and resume after the move",
            file=sys.stderr,
        )
        return 1
    try:
        counts = asyncio.run(move_database(database, target))
    except (StorageError, OSError) as error:
        print(f"migrate-db failed: {error}", file=sys.stderr)
        return 1
    summary = ", ".join(f"{count} {name}" for name, count in counts.items())
    print(f"moved {database} into {redact(target)}: {summary}")
    print(f"now set KORTBORD_DATABASE={redact(target)} and start the bot; {database} is unchanged")
    return 0


def _verify(file: str | None, table_id: int | None, lang: str) -> int:
    """Checks a match record from a file, or a table in the bot's database: exit 0 when it
    holds, 1 when it does not, 2 when there is nothing to check."""
    import asyncio
    from pathlib import Path

    from bot.settings import SettingsError
    from bot.storage import StorageError
    from bot.verify import MatchRecord, RecordError, check, verdict_lines

    texts = catalog(lang)
    if (file is None) == (table_id is None):
        print("name a record file or --table N (not both)", file=sys.stderr)
        return 2
    try:
        if file is not None:
            record = MatchRecord.from_json(Path(file).read_text(encoding="utf-8"))
        else:
            assert table_id is not None
            found = asyncio.run(_stored_match(table_id))
            if found is None:
                print(f"no table {table_id} in the database", file=sys.stderr)
                return 2
            record = found
    except RecordError as error:
        kind = error.details.get("kind")
        details = {**error.details, **({"kind": texts.text(f"verify.kind.{kind}")} if kind else {})}
        print(texts.text(f"verify.record.{error.key}", **details), file=sys.stderr)
        return 2
    except (OSError, ValueError, SettingsError, StorageError) as error:
        print(str(error).splitlines()[0] if str(error) else type(error).__name__, file=sys.stderr)
        return 2
    verdict = check(record)
    print("\n".join(verdict_lines(texts, record, verdict)))
    return 0 if verdict.sound else 1


async def _stored_match(table_id: int) -> MatchRecord | None:
    from bot.settings import load_settings
    from bot.storage import open_storage
    from bot.verify import match_record

    storage = await open_storage(load_settings().database)
    try:
        # a table whose row cannot be read says so (UnreadableTableError), rather than "none"
        record = await storage.table(table_id, strict=True)
        return None if record is None else await match_record(storage, record)
    finally:
        await storage.close()


def _doctor(channel_id: int, api: str | None) -> int:
    import asyncio

    from bot.discord.commands_sync import DISCORD_API
    from bot.discord.doctor import Check, doctor
    from bot.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return 2
    if settings.token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2

    def say(check: Check) -> None:
        print(check.line, flush=True)

    healthy = asyncio.run(
        doctor(
            settings.token.get_secret_value(),
            channel_id,
            say,
            public_url=settings.public_url,
            dev_guild=settings.dev_guild,
            api=api or DISCORD_API,
        )
    )
    print("every check passed" if healthy else "some checks failed (FAIL above)")
    return 0 if healthy else 1


def _health() -> int:
    import asyncio
    import time

    from bot.health import check_health
    from bot.settings import SettingsError, load_settings

    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"unhealthy: {error}")
        return 1
    health = asyncio.run(check_health(settings.database, time.time(), settings.process_file))
    print(health.line)
    return 0 if health.healthy else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("run", "web", "sync"):
        # the service sets up its own logging from the settings
        return _service(args.command, getattr(args, "guild", None))
    if args.command == "demo":
        return _demo(args.port, open_browser=not args.no_browser)
    # The terminal is for playing: log lines would break up the table, so only with --debug.
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.CRITICAL,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command == "health":
        return _health()
    if args.command == "doctor":
        return _doctor(args.channel, args.api)
    if args.command == "backup":
        return _backup(args.file)
    if args.command == "migrate-db":
        return _migrate_db(args.target, args.source)
    if args.command == "verify":
        return _verify(args.file, args.table, args.lang)
    if args.command == "play":
        from bot.terminal.table import PlayRequest, SetupError, StdConsole, build_table

        console = StdConsole()
        request = PlayRequest(
            game_id=args.game,
            players=args.players,
            seed=args.seed,
            options=tuple(args.option),
            variant=args.variant,
            lang=args.lang,
            seat=args.seat,
            pace=max(args.pace, 0.0),
            opponents=args.opponents,
            name=args.name,
        )
        try:
            table = build_table(request, console)
        except SetupError as exc:
            print(exc, file=sys.stderr)
            return 2
        try:
            table.run()
        except KeyboardInterrupt:
            print(catalog(args.lang).text("terminal.bye"))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
