"""How a seat's legal actions become controls on a panel, for any game, within Discord's limits.

Pure: it reads notations only (DESIGN.md: the game says what is legal; this only arranges it).
- one card played (``QS``): a button per card, always, in the order the hand is shown
  (``bot.render.text.hand_key``), so any card is one click away; a hand that needs more rows than
  a panel has is shown in pages of buttons;
- a verb with several cards (``bid 7D KS TC``): a multi-select of that many cards (of any count
  between the fewest and the most, when the game allows several counts: ``exchange 7C 8D``),
  its cards in hand order; several cards played at once with no verb (``QC KC AC``, beside single
  cards ``7C``) are a multi-select too, while the single cards stay one click each. When the cards
  need more than one menu, cards that are chosen together are kept in the same menu where they
  fit. Cards picked for a verb are sent with a button (``send``) once they make a legal action;
- a verb whose argument has two parts (``bid 7NT``: level and strain; ``ask 2 K``: whom and which
  rank), when there are more than five of them: two steps, first the first parts (a ``Steps`` row),
  then, on the page a first part opens (``step_page(..., "bid 7")``), the choices it leads to;
- a verb with a number, a rank or one card (``draw 3``, ``lead K``, ``call AC``): one choice,
  all of it buttons when few, else all of it in one select;
- anything else (``pass``, ``declare``, ``hej 0``): a button each.
Discord allows 5 rows per message, 5 buttons per row or one select per row, 25 options per select.
Given the width each button is drawn at (``Widths``), a row holds only the buttons that fit the
width a phone gives it (a wider row wraps there into more rows); "few" is then what fits two rows.
Beyond five rows the panel has pages: the other controls stay on every page where they fit, the
cards are spread over the pages, and the fifth row turns the pages (with the verbs, when they fit
beside the page buttons).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.actions import Choice as Choice
from bot.actions import choice_of as choice_of
from bot.actions import one_card_verbs
from bot.actions import two_parts as two_parts
from bot.render.text import HandOrder, hand_key
from games.cards import RANKS, all_card_codes, parse_card

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_OPTIONS = 25
MAX_DIRECT = 5  # two-part choices up to this many are buttons; more are offered in two steps


@dataclass(frozen=True, slots=True)
class Draft:
    """A choice begun on a panel and not sent yet: the first part of a two-part choice (``step``,
    ``"bid 7"``), or the cards picked for a verb of several cards (``verb`` ``"bid"``, ``cards``
    ``("7D", "KS")``). It is kept while the panel is refreshed as long as it still leads to a
    legal action; when it no longer does, the panel says that it was dropped."""

    step: str | None = None
    verb: str = ""
    cards: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return self.step is not None or bool(self.cards)


@dataclass(frozen=True, slots=True)
class Buttons:
    """A row of buttons; ``nav``: on a panel of pages, they share the row that turns the pages."""

    choices: tuple[Choice, ...]
    nav: bool = False


@dataclass(frozen=True, slots=True)
class Select:
    """A select menu. ``pick`` > 1: a multi-select whose values form ``verb c1 c2 ...``; with
    ``most`` > ``pick`` it takes any count from ``pick`` to ``most``."""

    verb: str
    choices: tuple[Choice, ...]
    pick: int = 1
    part: int = 0  # which slice, when one group needs several menus
    most: int = 0  # 0: exactly ``pick``

    @property
    def most_values(self) -> int:
        return max(self.pick, self.most)


@dataclass(frozen=True, slots=True)
class Steps:
    """The first parts of a verb's two-part choices (``bid``: ``1`` .. ``7``); each opens a page
    with the choices that start with it (``step="bid 7"``)."""

    verb: str
    firsts: tuple[str, ...]
    menu: bool = False
    """Offered as a select: too many for two rows of buttons."""


Row = Buttons | Select | Steps
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Widths:
    """How wide the panel's controls are drawn, in pixels, so that a row holds only what fits
    ``row`` (the width a phone gives a row of controls): a choice's button, a first part's
    button (verb, first part), and the buttons that turn ``pages`` pages, side by side."""

    button: Callable[[Choice], int]
    step: Callable[[str, str], int]
    nav: Callable[[int], int]
    row: int
    gap: int

    def fits(self, widths: Sequence[int]) -> bool:
        """Whether buttons of these widths fit one row."""
        return _fits(widths, self.row, self.gap)


def _fits(widths: Sequence[int], row: int, gap: int) -> bool:
    """Whether buttons of these widths fit a row ``row`` wide, ``gap`` between them."""
    return len(widths) <= MAX_BUTTONS_PER_ROW and sum(widths) + gap * (len(widths) - 1) <= row


def rows_of_buttons(
    items: Sequence[T], width: Callable[[T], int], row: int, gap: int
) -> list[tuple[T, ...]]:
    """``items`` as buttons in rows, in order, each row holding what fits ``row`` pixels with
    ``gap`` between buttons (at most five; a button wider than a row alone)."""
    rows: list[tuple[T, ...]] = []
    beside: list[T] = []
    sizes: list[int] = []
    for item in items:
        size = width(item)
        if beside and not _fits([*sizes, size], row, gap):
            rows.append(tuple(beside))
            beside, sizes = [], []
        beside.append(item)
        sizes.append(size)
    if beside:
        rows.append(tuple(beside))
    return rows


def _chunks(items: Sequence[Choice], size: int) -> list[tuple[Choice, ...]]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)]


def _pack(
    items: Sequence[T], width: Callable[[T], int] | None, widths: Widths | None
) -> list[tuple[T, ...]]:
    """``items`` as buttons in rows, in order: five a row, or, with their widths, each row
    holding what fits its width (a button wider than a row alone)."""
    if width is None or widths is None:
        size = MAX_BUTTONS_PER_ROW
        return [tuple(items[i : i + size]) for i in range(0, len(items), size)]
    return rows_of_buttons(items, width, widths.row, widths.gap)


def _together_chunks(
    options: Sequence[Choice], combos: Sequence[Choice]
) -> list[tuple[Choice, ...]]:
    """``options`` (sorted cards) in menus of at most ``MAX_OPTIONS``, never splitting a set of
    cards that some combination chooses together when that set fits in one menu."""
    if len(options) <= MAX_OPTIONS:
        return [tuple(options)]
    index = {c.notation: i for i, c in enumerate(options)}
    reach = list(range(len(options)))  # the last option chosen together with each, via combos
    for combo in combos:
        spots = [index[a] for a in combo.args]
        for i in spots:
            reach[i] = max(reach[i], *spots)
    blocks: list[list[Choice]] = []
    start = 0
    while start < len(options):
        end = reach[start]
        i = start
        while i <= end:
            end = max(end, reach[i])
            i += 1
        blocks.append(list(options[start : end + 1]))
        start = end + 1
    chunks: list[list[Choice]] = []
    for block in blocks:
        if len(block) > MAX_OPTIONS:  # too many chosen together: plain menus
            chunks.extend(list(part) for part in _chunks(block, MAX_OPTIONS))
        elif chunks and len(chunks[-1]) + len(block) <= MAX_OPTIONS:
            chunks[-1].extend(block)
        else:
            chunks.append(block)
    return [tuple(chunk) for chunk in chunks]


def _step_rows(verb: str, firsts: Sequence[str], widths: Widths | None) -> list[Steps]:
    """First parts in rows of buttons; more than two rows of them go into a select."""
    rows = _pack(firsts, None if widths is None else (lambda f: widths.step(verb, f)), widths)
    if len(rows) <= 2:
        return [Steps(verb, row) for row in rows]
    return [
        Steps(verb, tuple(firsts[i : i + MAX_OPTIONS]), menu=True)
        for i in range(0, len(firsts), MAX_OPTIONS)
    ]


def _step_groups(choices: Sequence[Choice], widths: Widths | None) -> dict[str, list[Choice]]:
    """The two-part choices by verb, for the verbs that have more than ``MAX_DIRECT`` of them
    or, with their widths, whose buttons would not fit two rows (``Fråga Åsa-Britt efter treor``
    wider than a row)."""
    groups: dict[str, list[Choice]] = {}
    one_card = one_card_verbs(choices)
    for c in choices:
        if not c.is_card and c.verb not in one_card and two_parts(c) is not None:
            groups.setdefault(c.verb, []).append(c)

    def direct(group: list[Choice]) -> bool:
        if len(group) > MAX_DIRECT:
            return False
        if widths is None:
            return True
        fit = all(widths.fits([widths.button(c)]) for c in group)
        return fit and len(_pack(group, widths.button, widths)) <= 2

    return {verb: group for verb, group in groups.items() if not direct(group)}


def step_page(notations: Sequence[str], step: str, widths: Widths | None = None) -> list[Row]:
    """The rows a first part opens (``step="bid 7"``): its choices, as buttons (selects when they
    need more than four rows); empty when the step no longer leads anywhere."""
    verb, _, first = step.partition(" ")
    chosen = [
        c
        for c in map(choice_of, notations)
        if c.verb == verb and (parts := two_parts(c)) is not None and parts[0] == first
    ]
    rows = _pack(chosen, None if widths is None else widths.button, widths)
    if len(rows) <= MAX_ROWS - 1:  # the last row goes back
        return [Buttons(row) for row in rows]
    selects: list[Row] = [Select(verb, part, 1, i) for i, part in enumerate(_chunks(chosen, 25))]
    return selects[: MAX_ROWS - 1]


def page_buttons(pages: int) -> int:
    """How many buttons turn ``pages`` pages: one per page up to five, else back, where, forward."""
    return pages if pages <= MAX_BUTTONS_PER_ROW else 3


def card_order(notation: str, order: HandOrder = "suit") -> tuple[int, int]:
    """Where a card (its code) is shown in a hand laid out by suit or by rank."""
    return hand_key(parse_card(notation), order)


def layout(
    notations: Sequence[str],
    send: str | None = None,
    order: HandOrder = "suit",
    widths: Widths | None = None,
) -> list[list[Row]]:
    """Pages of rows for these legal actions; usually one page of at most five rows. ``send``: a
    multi-card action whose cards are picked, offered as a button after its menus; ``order``: how
    the game lays out a hand; ``widths``: how wide each button is drawn, to pack rows by width
    (else five buttons a row)."""
    width = None if widths is None else widths.button

    def pack(items: Sequence[Choice]) -> list[tuple[Choice, ...]]:
        return _pack(items, width, widths)

    choices = [choice_of(n) for n in notations]
    steps = _step_groups(choices, widths)
    cards = sorted((c for c in choices if c.is_card), key=lambda c: card_order(c.notation, order))
    multi: dict[str, list[Choice]] = {}
    numbered: dict[str, list[Choice]] = {}
    plain: list[Choice] = []
    card_verbs = {c.verb for c in choices if len(c.args) >= 2 and all_card_codes(c.args)}
    one_card = one_card_verbs(choices)
    for c in choices:
        if c.is_card or (c.verb in steps and two_parts(c) is not None):
            continue
        if c.verb in card_verbs and c.args and all_card_codes(c.args):
            multi.setdefault(c.verb, []).append(c)
        elif len(c.args) == 1 and (_numbered(c.args[0]) or c.verb in one_card):
            numbered.setdefault(c.verb, []).append(c)
        else:
            plain.append(c)

    fixed: list[Row] = []
    for verb, group in steps.items():
        firsts = list(dict.fromkeys(p[0] for c in group if (p := two_parts(c)) is not None))
        fixed.extend(_step_rows(verb, firsts, widths))
    for verb, combos in multi.items():
        counts = [len(combo.args) for combo in combos]
        pick, most = min(counts), max(counts)
        seen: dict[str, Choice] = {}
        for combo in combos:
            for card in combo.args:
                seen.setdefault(card, Choice(card, verb, (card,)))
        options = sorted(seen.values(), key=lambda c: card_order(c.notation, order))
        fixed.extend(
            Select(verb, part, pick, i, most if most > pick else 0)
            for i, part in enumerate(_together_chunks(options, combos))
        )
        if send is not None and (chosen := choice_of(send)).verb == verb and chosen in combos:
            fixed.append(Buttons((chosen,)))
    # a verb's numbers, ranks or cards (``draw 3``, ``lead K``, ``call AC``) are one choice: all
    # of them buttons when they fit two rows (the other verbs on rows of their own), else a menu
    numbers = [c for v in numbered.values() for c in v]
    if len(pack(numbers)) <= 2:
        verbs = numbers + plain
        rows = pack(verbs)
        if len(rows) > 1:
            rows = pack(numbers) + pack(plain)
    else:  # many numbers or cards named by a verb: a menu each
        for verb, items in numbered.items():
            fixed.extend(
                Select(verb, part, 1, i) for i, part in enumerate(_chunks(items, MAX_OPTIONS))
            )
        verbs = list(plain)
        rows = pack(verbs)
    verb_rows: list[Row] = [Buttons(part) for part in rows]
    card_rows: list[Row] = [Buttons(part) for part in pack(cards)]
    if cards and len(alone := pack([*cards, *verbs])) == 1:
        loose: list[Row] = [Buttons(alone[0])]
    else:
        loose = card_rows + verb_rows
    if len(fixed) + len(loose) <= MAX_ROWS:
        return [fixed + loose]
    return _pages(fixed, card_rows, verbs, verb_rows, widths)


def _numbered(arg: str) -> bool:
    """An argument that is one of a row of its kind: a number (``draw 3``) or a rank (``lead
    K``), unlike a word of its own (``declare H``)."""
    return arg.isdigit() or (len(arg) == 1 and arg in RANKS)


def _pages(
    fixed: list[Row],
    card_rows: list[Row],
    verbs: list[Choice],
    verb_rows: list[Row],
    widths: Widths | None,
) -> list[list[Row]]:
    """More than five rows: the cards spread over pages of four rows, the other controls on every
    page, the verbs beside the page buttons where they fit; else every row on some page."""
    content = MAX_ROWS - 1  # the fifth row turns the pages
    if card_rows and len(fixed) < content:
        per = content - len(fixed)
        pages = -(-len(card_rows) // per)
        beside = len(verbs) + page_buttons(pages) <= MAX_BUTTONS_PER_ROW
        if widths is not None:  # the page buttons, drawn as one, beside the verbs
            beside = beside and widths.fits([*map(widths.button, verbs), widths.nav(pages)])
        if beside:
            nav: list[Row] = [Buttons(tuple(verbs), nav=True)] if verbs else []
            return [fixed + card_rows[i : i + per] + nav for i in range(0, len(card_rows), per)]
        if len(fixed) + len(verb_rows) < content:
            per = content - len(fixed) - len(verb_rows)
            return [
                fixed + card_rows[i : i + per] + verb_rows for i in range(0, len(card_rows), per)
            ]
    rows = fixed + card_rows + verb_rows
    return [rows[i : i + content] for i in range(0, len(rows), content)]
