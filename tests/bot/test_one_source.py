"""Knowledge written once: nothing in the bot or its faces keeps its own copy of what the core
(or ``games.cards``) already says, so the faces cannot drift apart."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from bot.discord import images
from bot.discord.views.panel import panel_notations
from bot.i18n import catalog
from bot.render.colours import FOUR_COLOUR_DECK
from bot.render.text import DISCORD, DISCORD_SYMBOLS
from bot.sessions import LiveTable
from bot.storage import SeatRecord, TableRecord
from bot.terminal.table import colour_suits
from bot.web.protocol import actions, page_catalog, renderer
from bot.web.typescript import TARGET, typescript
from games.cards import SUIT_SYMBOLS, SUITS
from games.core import Game
from games.registry import SPECS

ROOT = Path(__file__).resolve().parents[2]


def _python_sources() -> list[Path]:
    return sorted(p for folder in ("bot", "games") for p in (ROOT / folder).rglob("*.py"))


def _is_card_test(function: ast.FunctionDef) -> bool:
    """A function that answers whether a word parses as a card: ``try: parse_card(…)`` with an
    ``except ValueError`` that returns False."""
    for node in ast.walk(function):
        if not isinstance(node, ast.Try):
            continue
        calls = {
            n.func.id
            for n in ast.walk(ast.Module(body=node.body, type_ignores=[]))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        falses = [
            r
            for handler in node.handlers
            for r in handler.body
            if isinstance(r, ast.Return)
            and isinstance(r.value, ast.Constant)
            and r.value.value is False
        ]
        if "parse_card" in calls and falses:
            return True
    return False


def test_whether_a_word_is_a_card_is_decided_in_games_cards_only() -> None:
    copies = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
        for path in _python_sources()
        if path != ROOT / "games" / "cards.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and _is_card_test(node)
    ]
    assert copies == [], "use games.cards.is_card_code instead of: " + ", ".join(copies)
    client = ROOT / "bot" / "web" / "client" / "src"
    assert not [p.name for p in client.glob("*.ts") if "[CDHS]" in p.read_text(encoding="utf-8")]


def test_the_clients_protocol_types_are_generated_from_the_servers() -> None:
    """``protocol.ts`` is ``bot.web.frames`` written in TypeScript (and the page's words are the
    catalogs' keys): regenerate it with ``python -m bot.web.typescript`` after a change."""
    assert TARGET.read_text(encoding="utf-8") == typescript(), "protocol.ts is stale"


def test_every_face_shows_the_one_four_colour_deck() -> None:
    """The Discord pictures, Discord's suit symbols, the terminal's colours and the web page's
    all take each suit's colour from ``bot.render.colours``."""
    ansi = {"red": "\x1b[31m", "blue": "\x1b[94m", "green": "\x1b[32m"}  # black: the text's own
    served = page_catalog()["colours"]
    for suit, colour in FOUR_COLOUR_DECK.items():
        assert images.FOUR_COLOURS[suit] == colour.rgb
        assert DISCORD.suits[suit] == DISCORD_SYMBOLS[suit, colour.name]
        face = f"Q{SUIT_SYMBOLS[suit]}"
        painted = colour_suits(face)
        assert painted == (f"{ansi[colour.name]}{face}\x1b[39m" if colour.name in ansi else face)
        assert served[SUITS[suit]] == {"ink": colour.name, "css": colour.css}
    client = ROOT / "bot" / "web" / "client" / "src"
    style = (client / "style.css").read_text(encoding="utf-8")
    for colour in FOUR_COLOUR_DECK.values():
        assert f"var(--ink-{colour.name})" in style
    copies = re.findall(r"\.(?:red|blue|green|black)\b[^{]*\{[^}]*#[0-9a-fA-F]{3,6}", style)
    assert copies == [], "the deck's shades come from the server (--ink-*)"


def _live(game_id: str, game: Game) -> LiveTable:
    seats = tuple(SeatRecord(s, 100 + s, f"Spelare {s}") for s in range(game.players))
    record = TableRecord(
        table_id=1,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=3,
        host_id=100,
        game_id=game_id,
        options=(),
        variant="standard",
        seed=1,
        status="playing",
        turn_seconds=60,
        language="sv",
        version=1,
        created_at=0.0,
        updated_at=0.0,
        deadline_at=None,
        seats=seats,
    )
    return LiveTable(record, game, seq=0)


@pytest.mark.parametrize("game_id", ["nittionio", "piquet", "femhundra", "lojliga_familjerna"])
def test_the_web_page_and_the_discord_panel_offer_the_same_moves(game_id: str) -> None:
    spec = SPECS[game_id]
    rng = random.Random(5)
    game = spec.new(spec.min_players, spec.preset("standard"), rng=random.Random(5))
    texts = catalog("sv")
    compared = 0
    for _ in range(120):
        if game.is_over():
            break
        table = _live(game_id, game)
        for seat in sorted(game.to_act()):
            on_page = [a["notation"] for a in actions(texts, renderer(texts, table), table, seat)]
            assert on_page == panel_notations(table, seat)
            compared += bool(on_page)
        seat = sorted(game.to_act())[0]
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    assert compared > 20
