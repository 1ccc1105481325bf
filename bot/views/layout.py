"""How a seat's legal actions become controls on a panel, for any game, within Discord's limits.

Pure: it reads notations only (DESIGN.md: the game says what is legal; this only arranges it).
- one card played (``QS``): a button per card when few, else select menus of at most 25 cards;
- a verb with several cards (``bid 7D KS TC``): a multi-select of exactly that many cards;
- a verb with a number (``draw 3``): buttons when few, else select menus;
- anything else (``pass``, ``declare``, ``hej 0``): a button each.
Discord allows 5 rows per message, 5 buttons per row or one select per row, 25 options per select.
Beyond five rows, the rows are split into pages of four, the fifth row turning the pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import parse_card

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action: its notation, its verb (``""`` for a card play) and its arguments."""

    notation: str
    verb: str
    args: tuple[str, ...]

    @property
    def is_card(self) -> bool:
        return self.verb == ""


@dataclass(frozen=True, slots=True)
class Buttons:
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu. ``pick`` > 1: a multi-select whose values form ``verb c1 c2 ...``."""

    verb: str
    choices: tuple[Choice, ...]
    pick: int = 1
    part: int = 0  # which slice, when one group needs several menus


Row = Buttons | Select


def _is_card(token: str) -> bool:
    try:
        parse_card(token)
    except ValueError:
        return False
    return True


def choice_of(notation: str) -> Choice:
    words = notation.split()
    if len(words) == 1 and _is_card(words[0]):
        return Choice(notation, "", (words[0],))
    return Choice(notation, words[0], tuple(words[1:]))


def _chunks(items: Sequence[Choice], size: int) -> list[tuple[Choice, ...]]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def layout(notations: Sequence[str]) -> list[list[Row]]:
    """Pages of rows for these legal actions; usually one page of at most five rows."""
    choices = [choice_of(n) for n in notations]
    cards = [c for c in choices if c.is_card]
    multi: dict[str, list[Choice]] = {}
    numbered: dict[str, list[Choice]] = {}
    plain: list[Choice] = []
    for c in choices:
        if c.is_card:
            continue
        if len(c.args) >= 2 and all(_is_card(a) for a in c.args):
            multi.setdefault(c.verb, []).append(c)
        elif len(c.args) == 1 and c.args[0].isdigit():
            numbered.setdefault(c.verb, []).append(c)
        else:
            plain.append(c)

    rows: list[Row] = []
    for verb, combos in multi.items():
        pick = len(combos[0].args)
        seen: dict[str, Choice] = {}
        for combo in combos:
            for card in combo.args:
                seen.setdefault(card, Choice(card, verb, (card,)))
        options = sorted(seen.values(), key=lambda c: parse_card(c.notation))
        rows.extend(
            Select(verb, part, pick, i) for i, part in enumerate(_chunks(options, MAX_OPTIONS))
        )
    small = len(cards) + sum(len(v) for v in numbered.values()) + len(plain)
    if small <= MAX_BUTTONS_PER_ROW * (MAX_ROWS - len(rows)) and not multi and small <= 10:
        buttons = [*cards, *(c for v in numbered.values() for c in v), *plain]
        rows.extend(Buttons(part) for part in _chunks(buttons, MAX_BUTTONS_PER_ROW))
    else:
        if cards:
            rows.extend(
                Select("", part, 1, i) for i, part in enumerate(_chunks(cards, MAX_OPTIONS))
            )
        for verb, items in numbered.items():
            rows.extend(
                Select(verb, part, 1, i) for i, part in enumerate(_chunks(items, MAX_OPTIONS))
            )
        rows.extend(Buttons(part) for part in _chunks(plain, MAX_BUTTONS_PER_ROW))
    if len(rows) <= MAX_ROWS:
        return [rows]
    # more than one page: four rows each, the fifth row of the panel turns the pages
    per_page = MAX_ROWS - 1
    return [rows[i : i + per_page] for i in range(0, len(rows), per_page)]
