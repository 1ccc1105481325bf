"""The terminal's four-colour deck: ``♠`` in the text colour, ``♥`` red, ``♦`` blue, ``♣`` green,
only on a terminal and never with ``NO_COLOR``."""

from __future__ import annotations

import io

import pytest

from bot.render.text import card_faces
from bot.terminal.table import DEFAULT_COLOUR, SUIT_COLOURS, StdConsole, colour_suits, wants_colour
from games.cards import parse_card

RED, BLUE, GREEN = SUIT_COLOURS["♥"], SUIT_COLOURS["♦"], SUIT_COLOURS["♣"]


def test_each_suit_has_its_own_colour_and_spades_keep_the_text_colour() -> None:
    hand = card_faces(parse_card(c) for c in ("AS", "TH", "QD", "7C"))
    assert colour_suits(hand) == (
        f"A♠ {RED}10♥{DEFAULT_COLOUR} {BLUE}Q♦{DEFAULT_COLOUR} {GREEN}7♣{DEFAULT_COLOUR}"
    )
    assert len({RED, BLUE, GREEN, DEFAULT_COLOUR}) == 4


def test_swedish_ranks_lone_suits_and_other_text_are_painted_right() -> None:
    assert colour_suits("Kn♦ och E♣") == (
        f"{BLUE}Kn♦{DEFAULT_COLOUR} och {GREEN}E♣{DEFAULT_COLOUR}"
    )
    assert colour_suits("Trumf: ♥") == f"Trumf: {RED}♥{DEFAULT_COLOUR}"
    assert colour_suits("Ingen trumf, 3 stick") == "Ingen trumf, 3 stick"


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_terminal_and_not_with_no_color() -> None:
    assert wants_colour(Tty(), {})
    assert wants_colour(Tty(), {"NO_COLOR": ""})  # set but empty does not count
    assert not wants_colour(Tty(), {"NO_COLOR": "1"})
    assert not wants_colour(io.StringIO(), {})
    closed = io.StringIO()  # isatty() on a closed stream raises
    closed.close()
    assert not wants_colour(closed, {})


def test_the_console_paints_what_it_writes_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    StdConsole().write("7♥")  # captured output is no terminal: plain
    StdConsole(colour=True).write("7♥")
    monkeypatch.setenv("NO_COLOR", "1")
    StdConsole().write("7♥")
    assert capsys.readouterr().out.splitlines() == ["7♥", f"{RED}7♥{DEFAULT_COLOUR}", "7♥"]
