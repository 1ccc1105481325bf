"""Plain-text rendering of cards, messages, actions and views, in one catalog's language.

UI-agnostic (plain text with suit symbols): the terminal table prints it, and the Discord face and
the web table's server reuse it for their words. A :class:`~games.core.Msg` is rendered by the
argument convention of ``games.core``: a ``seat``/``*_seat`` argument becomes the player's name,
``card(s)``/``*_card(s)`` become card faces (``Q♠``, ``10♥``, ``🃏``), ``suit``/``*_suit`` become
the suit's name, ``contract``/``*_contract`` (``4S``, ``3NTX``) become the contract's face
(``4♠``, ``3 sang X``); anything else is shown as is.

Card faces come in two sets of suit symbols (:class:`Faces`). ``PLAIN`` is the printed deck's
``♠ ♥ ♣ ♦``, drawn by a terminal in its own text colour. ``DISCORD`` is a four-colour deck for
Discord, whose clients draw ``♠`` and ``♣`` as near-black emoji that vanish on the dark theme:
spades are ``♤`` (not an emoji, so drawn in the theme's text colour, light on dark and dark on
light, on buttons too), hearts the red ``♥️``, diamonds the blue ``🔷``, clubs the green ``☘️``
(each in its colour in ``bot.render.colours``); every suit differs from the others in shape and
colour on both themes.
"""

from __future__ import annotations

import copy
import re
import string
import textwrap
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from bot.i18n import Catalog
from bot.render.colours import FOUR_COLOUR_DECK, InkName
from games.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER,
    RANKS,
    SHOWN_SUIT_ORDER,
    SPADES,
    SUIT_SYMBOLS,
    SUITS,
    is_card_code,
    parse_card,
    shown_order,
    shown_rank_order,
    suit_of,
)
from games.core import ArgValue, Msg, Pile, Result, ScoreSheet, SeatView, View
from games.registry import SPECS

JOKER_FACE = "🃏"
_CONTRACT = re.compile(r"^(\d+)(C|D|H|S|NT)(X{0,2})$", re.IGNORECASE)
# Hands are shown suit by suit in alternating colours, high cards first.
HAND_SUIT_ORDER = SHOWN_SUIT_ORDER  # spades, hearts, clubs, diamonds


ENGLISH_RANKS: Mapping[str, str] = {r: ("10" if r == "T" else r) for r in RANKS}
"""The index printed on each rank (by its letter in a card code): English, ``A K Q J 10``."""


@dataclass(frozen=True, slots=True)
class Faces:
    """The symbol of each suit (by suit number) and of the joker, for one kind of screen, and the
    index of each rank in one language (Swedish cards read ``E K D Kn``, English ``A K Q J``)."""

    suits: Mapping[int, str]
    joker: str = JOKER_FACE
    ranks: Mapping[str, str] = field(default_factory=lambda: ENGLISH_RANKS)

    def speaking(self, catalog: Catalog) -> Faces:
        """These faces with the rank indices of the catalog's language (``table.index.<rank>``),
        made once per faces and catalog (every panel and picture asks)."""
        key = (id(self), id(catalog))
        kept = _SPOKEN.get(key)
        if kept is not None and kept[0] is self and kept[1] is catalog:
            return kept[2]
        ranks = {
            r: catalog.text(f"table.index.{r}") if catalog.has(f"table.index.{r}") else face
            for r, face in ENGLISH_RANKS.items()
        }
        spoken = Faces(self.suits, self.joker, ranks)
        if len(_SPOKEN) >= 64:  # faces and catalogs are few; a test's own are let go
            _SPOKEN.clear()
        _SPOKEN[key] = (self, catalog, spoken)
        return spoken


_SPOKEN: dict[tuple[int, int], tuple[Faces, Catalog, Faces]] = {}
""":meth:`Faces.speaking`'s answers, with the faces and the catalog they were made for (held,
so that their ids are not reused)."""


PLAIN = Faces(SUIT_SYMBOLS)
DISCORD_SYMBOLS: Mapping[tuple[int, InkName], str] = {
    (CLUBS, "green"): "☘️",
    (DIAMONDS, "blue"): "🔷",
    (HEARTS, "red"): "♥️",
    (SPADES, "black"): "♤",
}
"""A symbol of each suit that Discord's clients draw in one of the deck's colours (``♤`` in the
theme's text colour): the Discord faces take the one in their suit's colour, so a change of the
deck (``bot.render.colours``) without a symbol of that colour here stops the bot at once."""
DISCORD = Faces({s: DISCORD_SYMBOLS[s, colour.name] for s, colour in FOUR_COLOUR_DECK.items()})
CODE_BLOCK_SYMBOLS: Mapping[int, str] = {CLUBS: "♧", DIAMONDS: "♢", HEARTS: "♡", SPADES: "♤"}
"""The suits inside a Discord code block, whose monospace font has no emoji (an emoji there is
a box): the white suits, none of them an emoji, each one character wide so columns line up."""


def card_face(c: int, faces: Faces = PLAIN) -> str:
    """``Q♠``, ``10♥``, ``🃏`` (``Q♤``, ``10♥️`` with the Discord faces; ``D♠`` with Swedish
    ranks, see :meth:`Faces.speaking`)."""
    if c == JOKER:
        return faces.joker
    return faces.ranks[RANKS[c % 13]] + faces.suits[suit_of(c)]


def card_faces(cards: Iterable[int], faces: Faces = PLAIN) -> str:
    return " ".join(card_face(c, faces) for c in cards)


def faces_of_codes(text: str, faces: Faces = PLAIN) -> str:
    """``"QS 7S"`` -> ``"Q♠ 7♠"``; a token that is not a card code stays as it is."""
    out = []
    for token in str(text).split():
        try:
            out.append(card_face(parse_card(token), faces))
        except ValueError:
            out.append(token)
    return " ".join(out)


HandOrder = Literal["suit", "rank"]


def hand_order_of(game_id: str) -> HandOrder:
    """How the game lays out a hand (``GameSpec.hand_order``): by suit unless it says by rank."""
    spec = SPECS.get(game_id)
    return "suit" if spec is None else spec.hand_order


def hand_key(c: int, order: HandOrder = "suit") -> tuple[int, int]:
    """A card's place in a hand as shown everywhere (text, buttons, menus, pictures): suit by suit
    (♠ ♥ ♣ ♦, the joker first), high cards first: :func:`games.cards.shown_order`, which the
    games use for hands they lay open (a träkarl); rank by rank for a game that collects ranks
    (:func:`games.cards.shown_rank_order`)."""
    return shown_rank_order(c) if order == "rank" else shown_order(c)


def sort_hand(cards: Iterable[int], order: HandOrder = "suit") -> list[int]:
    """The cards in the order a hand is shown (:func:`hand_key`)."""
    return sorted(cards, key=lambda c: hand_key(c, order))


def mark_label(catalog: Catalog, game_id: str) -> str:
    """What a card the game marks in a hand is called (``Svarte Petter``): the game's
    ``<game>.mark``, else a plain word."""
    key = f"{game_id}.mark"
    return catalog.text(key if catalog.has(key) else "view.marked")


def hand_faces(catalog: Catalog, view: View, faces: Faces = PLAIN) -> str:
    """The viewer's hand in the order it is shown, a marked card followed by what it is:
    ``J♠ (Svarte Petter)``."""
    out = []
    for c in sort_hand(view.hand, hand_order_of(view.game)):
        face = face_in_view(c, view, faces)
        out.append(f"{face} ({mark_label(catalog, view.game)})" if c in view.marked else face)
    return " ".join(out)


def _is_seat_arg(name: str) -> bool:
    return name == "seat" or name.endswith("_seat")


def _is_card_arg(name: str) -> bool:
    return name in ("card", "cards") or name.endswith(("_card", "_cards"))


def _is_suit_arg(name: str) -> bool:
    return name == "suit" or name.endswith("_suit")


def _is_contract_arg(name: str) -> bool:
    return name == "contract" or name.endswith("_contract")


def _is_buttons_arg(name: str) -> bool:
    return name == "buttons" or name.endswith("_buttons")


def _is_rank_arg(name: str) -> bool:
    return name == "rank" or name.endswith("_rank")


def _is_place_arg(name: str) -> bool:
    return name == "place" or name.endswith("_place")


def seat_names(catalog: Catalog, members: Sequence[str | None]) -> list[str]:
    """A name per seat: the member's (``members``, by seat), or "Dator 2" for a computer seat
    (None), numbered among the computers."""
    computers = 0
    names = []
    for name in members:
        if name is None:
            computers += 1
            names.append(f"{catalog.text('ui.table.computer')} {computers}")
        else:
            names.append(name)
    return names


def place_name(catalog: Catalog, place: int, shared: bool = False) -> str:
    """``2:a plats``, ``delad 2:a plats`` (``2nd place``, ``shared 2nd place``)."""
    key = "place.name.shared" if shared else "place.name.alone"
    return catalog.text(key, ordinal=catalog.ordinal(place))


class TextRenderer:
    """Renders for one table: a catalog (language) and the players' names by seat.

    ``markup``: how a face's text writes a name so that it shows as written (Discord's markdown
    escapes the characters it would read as styling, a spoiler or a link); names are written
    as they are where it is None, and always in a code block and in a picture
    (:meth:`plain_seat`)."""

    def __init__(
        self,
        catalog: Catalog,
        names: Sequence[str],
        faces: Faces = PLAIN,
        markup: Callable[[str], str] | None = None,
    ) -> None:
        self.catalog = catalog
        self.names = list(names)
        self.faces = faces.speaking(catalog)  # cards in the catalog's language
        self.markup = markup

    def plain(self) -> TextRenderer:
        """This renderer writing names as they are: for controls' labels, which show no
        markup."""
        if self.markup is None:
            return self
        other = copy.copy(self)
        other.markup = None
        return other

    def face(self, c: int) -> str:
        return card_face(c, self.faces)

    def in_code_block(self) -> TextRenderer:
        """This renderer with faces a code block can draw: the white suits and the joker by its
        name, no emoji (:data:`CODE_BLOCK_SYMBOLS`)."""
        faces = Faces(CODE_BLOCK_SYMBOLS, self.t("table.joker.name"))
        return TextRenderer(self.catalog, self.names, faces)  # a code block shows names as written

    def faces_of(self, cards: Iterable[int]) -> str:
        return card_faces(cards, self.faces)

    def t(self, key: str, /, **args: object) -> str:
        """A UI text of the catalog."""
        return self.catalog.text(key, **args)

    def seat(self, seat: int) -> str:
        """The seat's name as this face's text writes it (``markup``)."""
        name = self.plain_seat(seat)
        return name if self.markup is None else self.markup(name)

    def plain_seat(self, seat: int) -> str:
        """The seat's name as it is: for a picture, a code block or a control's label."""
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return self.t("view.seat_number", number=seat + 1)

    def suit(self, suit: ArgValue | None) -> str:
        """``♥ hjärter`` for a suit number or letter; anything else as it is."""
        if suit is None:
            return self.t("view.no_trump")
        letter = None
        if isinstance(suit, int):
            letter = SUITS[suit] if 0 <= suit < 4 else None
        elif len(suit.strip()) == 1 and suit.strip().upper() in SUITS:
            letter = suit.strip().upper()
        if letter is None:
            return str(suit)
        return f"{self.faces.suits[SUITS.index(letter)]} {self.t(f'table.suit.{letter}')}"

    def arg(self, name: str, value: ArgValue) -> str:
        if _is_seat_arg(name) and isinstance(value, int):
            return self.seat(value)
        if _is_card_arg(name):
            return faces_of_codes(str(value), self.faces) if str(value).strip() else "–"
        if _is_suit_arg(name):
            return self.suit(value)
        if _is_rank_arg(name):
            return self.rank(value)
        if name == "ranks" or name.endswith("_ranks"):
            return ", ".join(self.rank(r) for r in str(value).split()) or "–"
        if _is_contract_arg(name):
            return self.contract(str(value))
        if _is_place_arg(name) and str(value).isdigit():
            return self.place(int(value))
        return str(value)

    def place(self, place: int, shared: bool = False) -> str:
        """``2:a plats``, ``delad 2:a plats`` (``2nd place``, ``shared 2nd place``)."""
        return place_name(self.catalog, place, shared)

    def rank(self, rank: ArgValue) -> str:
        """A rank named in words (``kungar``) from its letter (``K``) or number (13)."""
        letter = str(rank).strip().upper()
        if letter.isdigit() and 2 <= int(letter) <= 14:
            letter = RANKS[int(letter) - 2]
        key = f"table.rank.{letter}"
        return self.t(key) if self.catalog.has(key) else str(rank)

    def contract(self, text: str) -> str:
        """A contract bid: ``7NT`` -> ``7 sang``, ``6S`` -> ``6♠``, doubled ``4SX`` -> ``4♠X``,
        redoubled ``3NTXX`` -> ``3 sang XX``; other words as they are."""
        found = _CONTRACT.match(text)
        if found is None:
            return text
        level, strain, doubled = found[1], found[2].upper(), found[3].upper()
        if strain == "NT":
            return f"{level} {self.t('table.strain.NT')}" + (f" {doubled}" if doubled else "")
        return level + self.faces.suits[SUITS.index(strain)] + doubled

    def msg(self, m: Msg) -> str:
        """A game's message in this language; a ``buttons`` argument (action verbs, e.g.
        ``whistle slap``) is named by the game's action texts."""
        game_id = m.key.split(".", 1)[0]
        return self.t(
            m.key,
            **{
                name: self.verbs(game_id, str(value))
                if _is_buttons_arg(name)
                else self.arg(name, value)
                for name, value in m.args
            },
        )

    def verbs(self, game_id: str, words: str) -> str:
        """Action verbs (``whistle slap``) by their names, in order: ``Whistle, Slap the table``."""
        return ", ".join(self.verb(game_id, w) for w in words.split()) or "–"

    # --- actions ----------------------------------------------------------------------------------

    def verb_key(self, game_id: str, verb: str) -> str:
        """The catalog key of an action verb: the game's own, else the shared one."""
        own = f"{game_id}.action.{verb}"
        return own if self.catalog.has(own) else f"action.{verb}"

    def verb(self, game_id: str, verb: str) -> str:
        """The name of an action verb (``Byt``), for a menu of its choices."""
        return self.t(self.verb_key(game_id, verb))

    def action(self, game_id: str, notation: str) -> str:
        """A readable label for an action given in notation: ``QS`` -> ``Q♠``,
        ``QC KC AC`` -> ``Q♣ K♣ A♣``, ``bid 7D KS TC`` -> ``Bjud 7♦ K♠ 10♣``,
        ``draw 3`` -> ``Dra kort 3``. A verb written alone uses the game's ``<game>.alone.<verb>``
        text when it has one; a game may name a whole action (key ``<game>.notation.bid_misere``
        for ``bid misere``)."""
        tokens = notation.split()
        if not tokens:
            return notation
        try:  # one card, or several played at once with no verb (``QC KC AC``)
            return card_faces((parse_card(token) for token in tokens), self.faces)
        except ValueError:
            pass
        spec = SPECS.get(game_id)
        own = None if spec is None or spec.words is None else spec.words(notation, len(self.names))
        if own is not None:  # the game's own words (Femhundra: a bid and its value)
            return self.msg(own)
        verb = tokens[0].lower()
        alone = f"{game_id}.alone.{verb}"
        if len(tokens) == 1 and self.catalog.has(alone):
            return self.t(alone)  # the verb without its arguments (Piquet: exchange none)
        whole = f"{game_id}.notation.{'_'.join(tokens).lower()}"
        if self.catalog.has(whole):  # a game's name for one whole action (``bid misere``)
            return self.t(whole)
        template = f"{game_id}.notation.{verb}"
        if self.catalog.has(template) and len(tokens) > 1:
            return self._filled(template, tokens[1:])
        label = self.t(self.verb_key(game_id, verb))
        args = " ".join(self.contract(faces_of_codes(t, self.faces)) for t in tokens[1:])
        return f"{label} {args}" if args else label

    def button(self, game_id: str, notation: str) -> str:
        """An action's label on a button, where a row has little room: the game's short
        ``<game>.button.<verb>`` text (Svarte Petter's draw by place: ``3``), filled as
        :meth:`action` fills its templates, else the action's label. A button's row names its
        verb elsewhere (the panel's help line)."""
        tokens = notation.split()
        key = f"{game_id}.button.{tokens[0].lower()}" if tokens else ""
        if len(tokens) > 1 and self.catalog.has(key):
            return self._filled(key, tokens[1:])
        return self.action(game_id, notation)

    def _filled(self, key: str, words: Sequence[str]) -> str:
        """A game's template for an action's arguments, filled in order of its fields, each shown
        by the argument naming convention: ``"Fråga {seat} om {rank}"`` for ``ask 2 K``."""
        fields = [f for _, f, _, _ in string.Formatter().parse(self.catalog.template(key)) if f]
        args: dict[str, object] = {}
        for name, word in zip(fields, words, strict=False):
            if len(word) > 1 and not word.isdigit() and is_card_code(word):
                args[name] = faces_of_codes(word, self.faces)  # a card fills any field as its face
                continue
            value: ArgValue = int(word) if word.isdigit() else word
            args[name] = self.arg(name, value)
        return self.t(key, **args)

    def step(self, game_id: str, verb: str, first: str) -> str:
        """The label of the first part of a two-part choice: the game's ``step.<verb>`` text
        (``{first}``, and ``{seat}`` when the part is a seat), else the verb and the part."""
        key = f"{game_id}.step.{verb}"
        if self.catalog.has(key):
            seat = self.seat(int(first)) if first.isdigit() else first
            return self.t(key, first=first, seat=seat)
        return f"{self.t(self.verb_key(game_id, verb))} {first}…"

    def step_heading(self, game_id: str, verb: str, first: str) -> str:
        """What the page a first part opens is choosing, the first part named: the game's
        ``stepped.<verb>`` text (``Du frågar {seat} efter …``), else the step's label."""
        key = f"{game_id}.stepped.{verb}"
        if self.catalog.has(key):
            seat = self.seat(int(first)) if first.isdigit() else first
            return self.t(key, first=first, seat=seat)
        return self.step(game_id, verb, first)

    # --- views ------------------------------------------------------------------------------------

    def hand(self, view: View) -> str:
        return hand_faces(self.catalog, view, self.faces) if view.hand else "–"

    def trick(self, view: View) -> str:
        if not view.trick:
            return "–"
        return "  ".join(
            f"{self.seat(s)}: {face}"
            for (s, _), face in zip(view.trick, trick_faces(self, view), strict=True)
        )

    def pile(self, pile: Pile) -> str:
        parts = []
        if pile.cards:
            parts.append(self.faces_of(pile.cards))
        if pile.hidden:
            parts.append(self.t("view.hidden_cards", count=pile.hidden))
        owner = f" ({self.seat(pile.seat)})" if pile.seat is not None else ""
        return f"{self.t(pile.key)}{owner}: {', '.join(parts) or '–'}"

    def seat_line(self, seat: int, info: SeatView, view: View) -> str:
        parts = [self.t("view.cards", count=info.cards)]
        if info.tricks is not None:
            parts.append(self.t("view.tricks", count=info.tricks))
        score = seat_score(self.catalog, view.game, info.score)
        if score is not None:
            parts.append(score)
        if info.shown:
            parts.append(self.t("view.shown", cards=self.faces_of(sort_hand(info.shown))))
        parts.extend(self.msg(n) for n in info.notes)
        marks = []
        if seat == view.dealer:
            marks.append(self.t("view.dealer_mark"))
        if seat in view.to_act:
            marks.append(self.t("view.to_act_mark"))
        mark = f" [{', '.join(marks)}]" if marks else ""
        return f"{self.seat(seat)}{mark}: {' · '.join(parts)}"

    def table(self, view: View) -> list[str]:
        """The public table and the viewer's own hand, one fact per line."""
        tricks = view.trump is not None or any(s.tricks is not None for s in view.seats)
        head = [self.t("view.deal", deal=view.deal)]
        if view.dealer is not None:
            head.append(self.t("view.dealer", seat=self.seat(view.dealer)))
        if view.trump is not None:
            head.append(self.t("view.trump", suit=self.suit(view.trump)))
        elif view.no_trump:
            head.append(self.t("view.no_trump"))
        lines = [" · ".join(head), self.t("view.phase", phase=self.msg(view.phase))]
        lines += [f"  {self.seat_line(s, info, view)}" for s, info in enumerate(view.seats)]
        if view.teams:
            lines.append(self.t("view.sides", sides=self.t("view.against").join(self.sides(view))))
        if view.sheet is not None and view.sheet.rows:
            lines.append(self.t("view.sheet"))
            lines += [f"    {line}" for line in self.sheet(view.sheet)]
        lines += [f"  {self.pile(p)}" for p in view.piles]
        if view.trick or tricks:
            lines.append(self.t("view.trick", trick=self.trick(view)))
        if view.hand:
            lines.append(self.t("view.hand", cards=self.hand(view)))
        lines += [f"  {self.msg(n)}" for n in view.notes]
        return lines

    def sheet(self, sheet: ScoreSheet, width: int | None = None) -> list[str]:
        """The score sheet as a fixed-width table (:meth:`sheet_rows`), line by line."""
        head, rows = self.sheet_rows(sheet, width)
        return [head, *(line for row in rows for line in row)]

    def sheet_rows(
        self, sheet: ScoreSheet, width: int | None = None
    ) -> tuple[str, list[list[str]]]:
        """The score sheet as a fixed-width table: its header line, and its rows, each as the
        lines that draw it (a rule under the marked rows, bridge's line, is a row of its own).
        Blank cells stay blank. Where the sheet is wider than ``width`` columns (a phone's
        code block), the columns are headed by the seats' names in a shorter form
        (:func:`short_forms`: first names, ``Åsa & Cilla``, else initials, ``ÅÖ & CD``,
        each with as much of a last name as tells two members of the same apart): the
        longest that tell the columns apart and leave room for the labels beside the numbers,
        else the longest that fit. A label that still finds no room goes on lines of its own
        above its numbers, broken between words."""
        cells = [["" if v is None else str(v) for v in r.cells] for r in sheet.rows]
        needed = [
            max([len(row[i]) for row in cells if i < len(row)], default=0)
            for i in range(len(sheet.columns))
        ]
        labels = [self.msg(r.label) for r in sheet.rows]
        heads = [self.msg(c) for c in sheet.columns]
        room = None
        if (
            width is not None
            and _sheet_width(heads, needed, max(map(columns, labels), default=0)) > width
        ):
            narrow = self._narrow(sheet, needed, labels, width)
            if narrow is not None:
                heads, labels, room = narrow
        widths = [max(columns(h), n) for h, n in zip(heads, needed, strict=True)]
        beside = [x for x in labels if room is None or columns(x) <= room]
        # the labels' column: at least one character wide, or none where every label is above
        first = (
            max(map(columns, beside), default=0)
            if room is not None
            else max([1, *map(columns, beside)])
        )

        def line(label: str, values: Sequence[str]) -> str:
            body = " ".join(pad_start(v, w) for v, w in zip(values, widths, strict=False))
            return f"{pad_end(label, first)} {body}".rstrip() if first else body.rstrip()

        rows: list[list[str]] = []
        for label, row, source in zip(labels, cells, sheet.rows, strict=True):
            if room is None or columns(label) <= room:
                rows.append([line(label, row)])
            else:
                broken = textwrap.wrap(label, width or len(label), subsequent_indent="  ")
                numbers = line("", row)
                rows.append([*broken, numbers] if numbers else broken)
            if source.rule_below:
                rows.append([])  # the rule, drawn once the sheet's width is known
        head = line("", heads)  # as wide as the columns: the rule is as wide as the widest line
        rule = "─" * max([columns(head), *(columns(x) for row in rows for x in row)])
        return head, [row or [rule] for row in rows]

    def _narrow(
        self, sheet: ScoreSheet, needed: Sequence[int], labels: Sequence[str], width: int
    ) -> tuple[list[str], list[str], int] | None:
        """The column heads and row labels (``labels`` as they are written in full) of a sheet
        too wide for ``width`` (:meth:`sheet_rows`), the seats named short, and the room left
        for a label beside the numbers; None where no short form of the names tells the columns
        apart within the width."""
        named = [any(_is_seat_arg(k) for k, _ in r.label.args) for r in sheet.rows]
        found = None
        for shorts in short_forms(self.names):
            text = TextRenderer(self.catalog, shorts, self.faces, self.markup)
            heads = [text.msg(c) for c in sheet.columns]
            body = _sheet_width(heads, needed, 0)
            if len(set(heads)) < len(heads) or body > width:
                continue
            shorter = [
                text.msg(r.label) if seats else label
                for r, label, seats in zip(sheet.rows, labels, named, strict=True)
            ]
            room = width - body - 1
            if all(columns(x) <= room for x in shorter):
                return heads, shorter, room
            found = found or (heads, shorter, room)
        return found

    def sides(self, view: View) -> list[str]:
        """The partnerships, one line each: ``Anna & Cilla``."""
        return [" & ".join(self.seat(s) for s in team) for team in view.teams]

    def turn(self, view: View) -> str:
        """Whose turn it is."""
        if not view.to_act:
            return self.msg(view.phase)
        names = ", ".join(self.seat(s) for s in sorted(view.to_act))
        return self.t("view.to_act", seats=names)


def columns(text: str) -> int:
    """How many columns of a code block's monospace font ``text`` takes, as a phone draws it: an
    emoji (a pictograph, or a symbol with the emoji variation selector: ``♥️``) and a wide
    character two, as two letters are wide; a combining mark, a variation selector, a skin tone,
    a character of no width of its own (a zero-width space) and what a zero-width joiner joins
    to the emoji before it none; every other character one."""
    if not text or (max(text) < "\u0300" and "\u00ad" not in text):
        return len(text)  # Latin letters, one column each (a soft hyphen is drawn as none)
    total = 0
    joined = False
    for i, ch in enumerate(text):
        if ch in "\ufe0e\ufe0f" or unicodedata.combining(ch) or "\U0001f3fb" <= ch <= "\U0001f3ff":
            continue
        if ch == "\u200d":
            joined = True
            continue
        if unicodedata.category(ch) == "Cf":  # a zero-width space, a direction mark
            continue
        if joined:  # one picture with the emoji before it (a family, a profession)
            joined = False
            continue
        wide = unicodedata.east_asian_width(ch) in "WF" or text[i + 1 : i + 2] == "\ufe0f"
        total += 2 if wide else 1
    return total


def pad_end(text: str, width: int) -> str:
    """``text`` followed by spaces to ``width`` columns (:func:`columns`)."""
    return text + " " * (width - columns(text))


def pad_start(text: str, width: int) -> str:
    """``text`` after spaces to ``width`` columns (:func:`columns`): right-aligned."""
    return " " * (width - columns(text)) + text


def _sheet_width(heads: Sequence[str], needed: Sequence[int], label: int) -> int:
    """How wide a score sheet is drawn with ``heads`` over columns of at least ``needed``
    characters and a ``label`` column of that width (0: none), with one space between."""
    wide = sum(max(columns(h), n) + 1 for h, n in zip(heads, needed, strict=True))
    return label + wide if label else wide - 1


def _first_name(name: str) -> str:
    """A name's first word, with a last word that is a number, which tells seats apart
    (``Dator 2``)."""
    words = name.split()
    if len(words) < 2:
        return name
    return f"{words[0]} {words[-1]}" if words[-1].isdigit() else words[0]


def _initials(name: str) -> str:
    """A name's initials, with a last word that is a number whole (``Åsa Öberg`` → ``ÅÖ``,
    ``Dator 12`` → ``D12``)."""
    words = name.split()
    if len(words) < 2:
        return name[:1]
    last = words[-1] if words[-1].isdigit() else words[-1][:1]
    return _leading_initials(words) + last


def _leading_initials(words: Sequence[str]) -> str:
    """The initials of a name's words before its last."""
    return "".join(w[:1] for w in words[:-1])


def _told_apart(
    names: Sequence[str], shorts: Sequence[str], lead: Callable[[Sequence[str]], str]
) -> list[str]:
    """``shorts``, a short form of each name; where another name has the same, its ``lead``
    (the words before its last, in that form) with as much of its last word as tells the two
    apart (``Anna Berg`` and ``Anna Björk``: by first name ``Anna Be`` and ``Anna Bj``, by
    initials ``ABe`` and ``ABj``), else the whole name. A last word that is a number is in
    every short form already (``Dator 2``)."""
    told = []
    for name, short in zip(names, shorts, strict=True):
        words = name.split()
        others = [
            other.split()[-1]
            for other, theirs in zip(names, shorts, strict=True)
            if theirs == short and other != name
        ]
        if not others or len(words) < 2 or words[-1].isdigit():
            told.append(short)  # nothing to tell it from, or nothing after its lead to tell it by
            continue
        last = words[-1]
        k = next((k for k in range(1, len(last)) if all(o[:k] != last[:k] for o in others)), None)
        told.append(name if k is None else lead(words) + last[:k])
    return told


def short_forms(names: Sequence[str]) -> list[list[str]]:
    """The shorter forms of the seats' names where a phone has no room for them whole, longest
    first: their first words, the first words with what tells them apart, their initials, the
    initials with what tells them apart."""
    firsts = [_first_name(n) for n in names]
    initials = [_initials(n) for n in names]
    return [
        firsts,
        _told_apart(names, firsts, lambda words: f"{words[0]} "),
        initials,
        _told_apart(names, initials, _leading_initials),
    ]


def short_names(names: Sequence[str], room: int) -> list[str]:
    """``names`` in at most ``room`` columns each (:func:`columns`): whole where they fit, else
    all in the first of :func:`short_forms` that fits and tells them apart as well, else each cut
    in the middle, its start and its last three characters kept (``Åsa-Brit…Ek2``)."""
    apart = len(set(names))
    for short in [list(names), *short_forms(names)]:
        if all(columns(n) <= room for n in short) and len(set(short)) == apart:
            return short
    return [n if columns(n) <= room else _cut(n, room) for n in names]


def _cut(name: str, room: int) -> str:
    """``name`` cut in the middle to ``room`` columns (:func:`columns`), its start and its last
    three characters kept; or only its start, where the room is small."""
    end = name[-3:] if room >= 6 else ""
    start = name[: len(name) - len(end)]
    while len(start) > 1 and columns(f"{start}…{end}") > room:
        start = start[:-1]
    return f"{start}…{end}"


WON_TRICKS = "table.pile.won_tricks"
LAST_TRICK = "table.pile.last_trick"


RULE_SECTIONS = ("deck", "deal", "play", "scoring", "variants")
"""The sections of every game's rules (``<game>.rules.<section>``), in the order they are shown."""


def rule_sections(catalog: Catalog, game_id: str) -> list[tuple[str, str]]:
    """``(heading, text)`` of each section of a game's rules that the catalog has: Kortlek, Given,
    Spelet, Poäng, Varianter (Deck, Deal, Play, Scoring, Variants)."""
    return [
        (catalog.text(f"ui.rules.{section}"), catalog.text(f"{game_id}.rules.{section}").strip())
        for section in RULE_SECTIONS
        if catalog.has(f"{game_id}.rules.{section}")
    ]


def result_lines(text: TextRenderer, result: Result, teams: Sequence[Sequence[int]]) -> list[str]:
    """The end of a match, best first: ``1:a plats: Anna, 52 p``, ``delad 2:a plats: Bo, 30 p``;
    partners on one line (``Anna & Cilla``); then what the places mean when sides share them or
    a place is shared."""
    groups = [tuple(t) for t in teams] or [(s,) for s in range(len(result.places))]
    rows: list[tuple[int, ...]] = []
    for group in groups:  # partners with the same place and score on one line
        if len({(result.places[s], result.scores[s]) for s in group}) == 1:
            rows.append(group)
        else:
            rows.extend((s,) for s in group)
    rows.sort(key=lambda g: (result.places[g[0]], g[0]))
    taken = Counter(result.places[g[0]] for g in rows)
    lines = [
        text.t(
            "place.line",
            place=text.place(result.places[g[0]], shared=taken[result.places[g[0]]] > 1),
            name=" & ".join(text.seat(s) for s in g),
            score=result.scores[g[0]],
        )
        for g in rows
    ]
    if teams:
        lines.append(text.t("place.note_teams"))
    if any(n > 1 for n in taken.values()):
        lines.append(text.t("place.note"))
    return lines


def trump_line(text: TextRenderer, view: View, trick_taking: bool = True) -> str | None:
    """``Trumf: ♥️ hjärter``, or ``Ingen trumf`` where the game says the cards are played without
    one (``View.no_trump``: the turn-up was the joker or a nine, a sang contract); None where
    trumps are no part of the game or of its phase (Piquet, an auction, a game that is not
    trick-taking)."""
    if not trick_taking:
        return None
    if view.trump is not None:
        return text.t("table.event.trump", suit=text.suit(view.trump))
    return text.t("table.event.no_trump") if view.no_trump else None


def trick_text(text: TextRenderer, view: View) -> tuple[str, str] | None:
    """The trick on the table as played (``Anna Q♤ · Bo 7♥️``); while none is, the last trick
    and who took it, until the next card."""
    if view.trick:
        played = " · ".join(
            f"{text.seat(s)} {face}"
            for (s, _), face in zip(view.trick, trick_faces(text, view), strict=True)
        )
        return text.t("ui.table.trick"), played
    for pile in view.piles:
        if pile.key == LAST_TRICK and pile.cards:
            owner = f" ({text.seat(pile.seat)})" if pile.seat is not None else ""
            return f"{text.t(LAST_TRICK)}{owner}", " ".join(
                face_in_view(c, view, text.faces) for c in pile.cards
            )
    return None


def table_piles(view: View) -> list[Pile]:
    """The piles worth a line: won tricks are counted on their seat's line (as tricks, not as
    hidden cards), and the last trick is shown with the trick."""
    counted = {s for s, info in enumerate(view.seats) if info.tricks is not None}
    return [
        p
        for p in view.piles
        if p.key != LAST_TRICK and not (p.key == WON_TRICKS and p.seat in counted)
    ]


def seat_score(catalog: Catalog, game_id: str, score: int) -> str | None:
    """A seat's score as its line shows it: ``12 p`` in a game with points; in one without
    (``GameSpec.points``), what it counts in its own words (``2 ritor``, ``3 familjer``) or
    nothing."""
    own = f"{game_id}.seat_score"
    if catalog.has(own):
        return catalog.text(own, score=score)
    spec = SPECS.get(game_id)
    if spec is not None and not spec.points:
        return None
    return catalog.text("view.score", score=score)


def face_in_view(c: int, view: View, faces: Faces = PLAIN) -> str:
    """A card's face, the joker followed by what it counts as where the game says
    (``View.joker``): ``🃏 (= 9☘️)``."""
    if c == JOKER and view.joker is not None:
        return f"{faces.joker} (= {card_face(view.joker, faces)})"
    return card_face(c, faces)


def deal_events(events: Sequence[Msg]) -> list[Msg]:
    """The events of a deal's end, up to the next deal's first line (``table.event.deal_started``
    and what follows it belong to the next deal), for a deal's summary."""
    out: list[Msg] = []
    for m in events:
        if m.key == "table.event.deal_started":
            break
        out.append(m)
    return out


TRICK_WON = "table.event.trick_won"


def deal_summary(events: Sequence[Msg], most: int = 8) -> list[Msg]:
    """How a deal went, for its summary: its latest events (:func:`deal_events`), at most
    ``most``, in whole tricks only. The events seen may begin inside a trick (its first cards
    came before them), so a trick's cards are shown only after the end of the trick before it:
    whatever precedes the first trick's end shown is left out."""
    out = deal_events(events)
    ends = [i for i, m in enumerate(out) if m.key == TRICK_WON]
    if ends:
        out = out[ends[0] + 1 :]
    if len(out) > most:
        cut = len(out) - most
        if out[cut - 1].key != TRICK_WON:  # cut inside a trick: from the next trick's start
            cut = next((i + 1 for i in range(cut, len(out)) if out[i].key == TRICK_WON), cut)
        out = out[cut:]
    return out


def trick_faces(text: TextRenderer, view: View) -> list[str]:
    """Each card of the trick as shown, with the game's note on it where it gives one
    (``7♥️ (träkarl)``: played from a träkarl) and the joker as what it counts for."""
    notes = view.trick_notes
    out = []
    for i, (_, c) in enumerate(view.trick):
        face = face_in_view(c, view, text.faces)
        note = notes[i] if i < len(notes) else None
        out.append(face if note is None else f"{face} ({text.msg(note)})")
    return out
