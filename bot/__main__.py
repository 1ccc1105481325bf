"""The ``kortbord`` command line. Thin: each subcommand hands over to the module that does it.

``kortbord play <game>`` seats you at a terminal table against computer players (``bot.terminal``).
``kortbord run`` runs the Discord bot, ``kortbord sync [--guild ID]`` publishes its slash commands
(``bot.service``), and ``kortbord demo`` shows the same bot on a simulated Discord in a browser
(``bot.demo``).
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
    from bot.settings import Settings


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kortbord", description="Classic Swedish card games.")
    parser.add_argument("--debug", action="store_true", help="log to stderr")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a game in the terminal against computer players")
    play.add_argument("game", help=f"the game: {', '.join(registry.SPECS) or 'none registered'}")
    play.add_argument("--players", type=int, help="number of seats (default: the fewest allowed)")
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
        "--opponents", default="rules", help="kind of computer player: rules or random"
    )
    play.add_argument("--name", help="your name at the table (default: Du / You)")
    commands.add_parser("run", help="run the Discord bot (settings from the environment and .env)")
    sync = commands.add_parser("sync", help="publish the slash commands to Discord, then stop")
    sync.add_argument(
        "--guild",
        type=int,
        help="only to this guild, at once (default: KORTBORD_DEV_GUILD, else all)",
    )
    demo = commands.add_parser("demo", help="the bot on a simulated Discord in your browser")
    demo.add_argument("--port", type=int, help="the local port of the page (default: any free)")
    demo.add_argument("--no-browser", action="store_true", help="do not open a browser")
    return parser


def _settings() -> Settings | None:
    from bot.settings import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as error:
        print(error, file=sys.stderr)
        return None


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("run", "sync", "demo"):
        return _service(args)
    # The terminal is for playing: log lines would break up the table, so only with --debug.
    logging.basicConfig(
        level=logging.DEBUG if args.debug else logging.CRITICAL,
        format="%(levelname)s %(name)s: %(message)s",
    )
    if args.command == "play":
        from bot.terminal import PlayRequest, SetupError, StdConsole, build_table

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


def _service(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    if args.command == "run":
        from bot.service import run

        return run(settings)
    if args.command == "sync":
        from bot.service import sync

        return sync(settings, args.guild or settings.dev_guild)
    from bot.demo import demo

    return demo(settings, port=args.port, open_browser=not args.no_browser)


if __name__ == "__main__":
    sys.exit(main())
