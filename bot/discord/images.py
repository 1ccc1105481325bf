"""Card pictures: the table picture of the table message and the hand picture of a panel.

The table is drawn as a card table seen from above, landscape (16:10, 480×300): the seats along
its edges (the viewer's seat, else the first, at the bottom, the others clockwise; from six
players on, only along the top and the bottom), each on one compact plate: its name (cut to the
plate), then small pictures of a hand and of won tricks with their counts and the score where the
game has one, the dealer's chip, a partnership's coloured mark, and a bright frame and name on
whose turn it is. Each seat's cards of the trick lie in front of it, the trick's name (``Stick``)
beside them where the felt is free; the trump, the turn-up and the talong, a seat's bid cards, a
träkarl's open cards, shown hands and the last trick lie wherever the felt is free, in that order
of need: what finds no room (on a crowded table), or only for its last few cards, is said in words
beside the picture (:func:`table_untold`). A table's pictures follow one another: where its last
picture laid the trump and each group of cards, they stay while they still fit there whole (a
pile moves for a card played in front of a seat, or where it grew into another), so nothing jumps
across the felt when a card is played. Every group of cards on the felt is labelled with what
it is, whole (``Talong``, ``Senaste sticket``), and whose: its seat's name (cut, down to its
initial, only where no packing of the felt, nor shifting the label left or wrapping it, keeps it
whole) or its side's mark; where seats play in partnerships, a legend says what the marks mean.
No label, count or score is ever cut (a seat's name on its plate may be). The hand picture is a
row of cards (two for up to 13, more for a large hand), the cards that may be played now raised
where the caller says which.

Both are legible where Discord shows them on a phone: a picture in a message is shown
:data:`PHONE_PICTURE` (236) px wide on a :data:`PHONE` (360) px phone, and there every text is
at least :data:`MIN_TEXT_PX` and every card's rank at least :data:`MIN_RANK_PX` high, and no
card covers another's rank. A picture is first *planned* (:func:`table_plan`, :func:`hand_plan`: a
list of the texts, cards and boxes with their sizes, which the tests check) and then *painted*
from cached pieces: the felt, each card face and text per size, pasted onto a copy of the felt;
the PNG is a palette image (every picture mapped onto one fixed palette, none computed per
picture) deflated at ISA-L's fastest level, the cheapest encoding that stays a few tens of
kilobytes. A hand whose cards lie apart is not painted but laid from its cards already on the
palette, the same picture to the byte; a table's picture is painted only where it changed since
that table's last one (:func:`_repainted`), again the same picture to the byte.

The art is the project's own: white cards with large indices and a big suit, the four-colour deck
of ``bot.render.colours`` by default (♠ black, ♥ red, ♦ blue, ♣ green; ``four_colour=False``
gives the printed deck's red and black), a blue back, and the joker as a jester's star with what
it counts as, where the view says. A picture is composed from a :class:`~games.core.View` only,
so the table picture, built from the same spectator view as the text, can never show a card
hidden from it.

Pure and synchronous, and cheap enough (a few milliseconds) to be called on the event loop. The
only font is the one committed beside this module, so a picture looks the same on every machine.
The text beside a picture stays the source of truth (screen readers, search).
"""

from __future__ import annotations

import functools
import itertools
import math
import struct
import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from isal import isal_zlib
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.render.colours import FOUR_COLOUR_DECK
from bot.render.text import (
    ENGLISH_RANKS,
    LAST_TRICK,
    TextRenderer,
    seat_score,
    sort_hand,
    table_piles,
)
from games.cards import JOKER, RANKS, rank_of, suit_of
from games.core import Pile, View

RGB = tuple[int, int, int]
Rect = tuple[int, int, int, int]

MAX_BYTES = 1_000_000
"""A picture's ceiling (Discord allows far more; a table picture is a few tens of kilobytes)."""

PHONE = 360
"""A phone's width, in its own (CSS) pixels."""
PHONE_PICTURE = 236
"""The width at which Discord shows a picture on a :data:`PHONE` wide phone: inside the message,
after the avatar's gutter and the embed's margins. Measured in SimCord's preview of a message at a
360×740 window (the table picture and the panel's hand picture are both shown 236 px wide); the
Discord app on a 360 px phone gives about the same."""
MIN_TEXT_PX = 11
"""The least height of a text (its font size) shown :data:`PHONE_PICTURE` wide."""
MIN_RANK_PX = 14
"""The least height of a card's rank (its font size) shown :data:`PHONE_PICTURE` wide."""

WIDTH, HEIGHT = 480, 300
"""The table picture (16:10), and the hand picture's width: 2.03 times :data:`PHONE_PICTURE`,
so that the least sizes below are whole pixels, and small enough to draw and encode cheaply."""
SCALE = WIDTH / PHONE_PICTURE
"""The picture's pixels per pixel on a phone."""

RANK = 0.6
"""A card's rank index: its font size as a share of the card's width (a large index, as on
cards made to be read across a table)."""
TEXT_PX = math.ceil(MIN_TEXT_PX * SCALE)
NAME_PX = FACT_PX = TEXT_PX
CARD_W = math.ceil(math.ceil(MIN_RANK_PX * SCALE) / RANK)
"""Every card's width: the least whose rank reads :data:`MIN_RANK_PX` on a phone."""
PILE_W = TRICK_W = HAND_W = CARD_W
GAP = 4
EDGE = 4
"""The margin between the picture's edge and a seat's plate."""

FELT = (22, 92, 58)
FELT_LIGHT = (30, 112, 70)
RIM = (86, 52, 28)
BOX = (14, 62, 39)
BOX_LINE = (70, 130, 95)
INK = (240, 240, 232)
DIM_INK = (190, 210, 196)
HIGHLIGHT = (255, 214, 90)
CHIP = (250, 250, 244)
CHIP_INK = (30, 30, 30)
TEAM_COLOURS: tuple[RGB, ...] = ((250, 140, 40), (110, 190, 255), (230, 110, 220))
MARK = (200, 30, 140)
"""The frame of a card the game marks in a hand (Svarte Petter's odd card)."""
SUPERSAMPLE = 2

FOUR_COLOURS: dict[int, RGB] = {suit: colour.rgb for suit, colour in FOUR_COLOUR_DECK.items()}
"""The four-colour deck's shades (``bot.render.colours``), by suit."""
TWO_COLOURS: dict[int, RGB] = {0: (20, 20, 20), 1: (205, 25, 35), 2: (205, 25, 35), 3: (20, 20, 20)}
JOKER_INK = (120, 40, 160)
JOKER_GOLD = (230, 160, 20)
BACK = -1
"""A card drawn face down."""

FONT = Path(__file__).parent / "fonts" / "NotoSans-Kortbord.ttf"


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Noto Sans (SIL Open Font License, in ``fonts/``, cut down to Latin) at ``size`` pixels."""
    face = ImageFont.truetype(str(FONT), size)
    face.set_variation_by_name("Bold" if bold else "Regular")
    return face


@functools.lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> int:
    return math.ceil(font(size, bold).getlength(text))


@functools.cache
def line_height(size: int) -> int:
    """The height of a line of text of ``size`` pixels (ascent and descent)."""
    ascent, descent = font(size).getmetrics()
    return int(ascent + descent)


# --- suit shapes ----------------------------------------------------------------------------------


def draw_suit(
    draw: ImageDraw.ImageDraw, suit: int, cx: float, cy: float, size: float, colour: tuple[int, ...]
) -> None:
    """A suit symbol ``size`` pixels high, centred on (cx, cy), drawn from circles and polygons."""
    fill = tuple(colour)
    r = size / 4
    if suit == 1:  # diamond
        w = size * 0.38
        draw.polygon([(cx, cy - size / 2), (cx + w, cy), (cx, cy + size / 2), (cx - w, cy)], fill)
    elif suit == 2:  # heart: two lobes over a point
        top = cy - size / 2 + r
        draw.ellipse((cx - 2 * r, top - r, cx, top + r), fill)
        draw.ellipse((cx, top - r, cx + 2 * r, top + r), fill)
        draw.polygon(
            [
                (cx - 2 * r + 0.6, top + r * 0.35),
                (cx + 2 * r - 0.6, top + r * 0.35),
                (cx, cy + size / 2),
            ],
            fill,
        )
    elif suit == 3:  # spade: an upside-down heart on a stem
        bottom = cy + size / 2 - 1.6 * r
        draw.ellipse((cx - 2 * r, bottom - r, cx, bottom + r), fill)
        draw.ellipse((cx, bottom - r, cx + 2 * r, bottom + r), fill)
        draw.polygon(
            [
                (cx - 2 * r + 0.6, bottom - r * 0.35),
                (cx + 2 * r - 0.6, bottom - r * 0.35),
                (cx, cy - size / 2),
            ],
            fill,
        )
        draw.polygon(
            [(cx, bottom), (cx + r * 0.9, cy + size / 2), (cx - r * 0.9, cy + size / 2)], fill
        )
    else:  # club: three leaves on a stem
        leaf = r * 1.05
        draw.ellipse((cx - leaf, cy - size / 2, cx + leaf, cy - size / 2 + 2 * leaf), fill)
        draw.ellipse(
            (cx - 2 * leaf - r * 0.15, cy - leaf * 0.7, cx - r * 0.15, cy + leaf * 1.3), fill
        )
        draw.ellipse(
            (cx + r * 0.15, cy - leaf * 0.7, cx + 2 * leaf + r * 0.15, cy + leaf * 1.3), fill
        )
        draw.polygon(
            [(cx, cy - r), (cx + r * 0.9, cy + size / 2), (cx - r * 0.9, cy + size / 2)], fill
        )


def _star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """A five-pointed star, point up."""
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


# --- cards ----------------------------------------------------------------------------------------


@functools.cache
def card_height(width: int) -> int:
    return round(width * 1.4)


@functools.cache
def rank_size(width: int) -> int:
    """The font size of the rank index on a card ``width`` pixels wide."""
    return round(width * RANK)


@functools.lru_cache(maxsize=1024)
def index_width(width: int, label: str) -> int:
    """How much of a card's left edge its rank index needs: what an overlapping card leaves."""
    return round(width * 0.05) + text_width(label, rank_size(width), True) + 2


@functools.cache
def index_height(width: int) -> int:
    """How much of a card's top its index (the rank and the small suit under it) needs."""
    return round(card_height(width) * 0.02 + rank_size(width) * 0.82 + width * 0.3) + 2


def _blank(width: int) -> tuple[Image.Image, ImageDraw.ImageDraw, int, int]:
    s = SUPERSAMPLE
    w, h = width * s, card_height(width) * s
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=w // 10,
        fill=(252, 252, 248),
        outline=(90, 90, 90),
        width=s * 2,
    )
    return image, draw, w, h


def _shrunk(image: Image.Image, width: int) -> Image.Image:
    return image.resize((width, card_height(width)), Image.Resampling.LANCZOS)


@functools.cache
def card_image(
    card: int,
    width: int = HAND_W,
    four_colour: bool = True,
    index: str = "",
    joker_as: int | None = None,
    dim: bool = False,
) -> Image.Image:
    """One card's face, drawn once per card, size, deck and index and then reused. ``index`` is
    the rank printed in the corner in the table's language (``Kn``, ``D``); English by default.
    The joker shows the card it counts as (``joker_as``) under its star; ``dim`` veils a card
    that may not be played now."""
    if card == JOKER:
        return _joker_image(width, four_colour, index, joker_as, dim)
    image, draw, w, h = _blank(width)
    suit = suit_of(card)
    colour = (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]
    label = index or ENGLISH_RANKS[RANKS[card % 13]]
    size = rank_size(width) * SUPERSAMPLE
    # the rank's capitals start near the card's top edge (the font's ascent above them is empty)
    draw.text((w * 0.05, h * 0.02 - size * 0.3), label, font=font(size, bold=True), fill=colour)
    small = w * 0.28
    top = h * 0.02 + size * 0.82
    draw_suit(draw, suit, w * 0.05 + small * 0.55, top + small / 2, small, colour)
    draw_suit(draw, suit, w * 0.64, h * 0.72, w * 0.56, colour)
    face = _shrunk(image, width)
    return _veiled(face) if dim else face


def _joker_image(
    width: int, four_colour: bool, index: str, joker_as: int | None, dim: bool
) -> Image.Image:
    """The joker: a gold star (no suit's shape), and the card it counts as in a box below."""
    image, draw, w, h = _blank(width)
    draw.polygon(_star(w * 0.24, h * 0.12, w * 0.17, w * 0.07), JOKER_INK)
    draw.polygon(_star(w * 0.5, h * 0.42, w * 0.36, w * 0.15), JOKER_GOLD)
    if joker_as is None or joker_as == JOKER:
        text = "JOKER"
        f = font(int(w * 0.2), bold=True)
        draw.text(((w - draw.textlength(text, font=f)) / 2, h * 0.7), text, font=f, fill=JOKER_INK)
    else:  # what it counts as: "= 9" and the suit, in that suit's colour
        suit = suit_of(joker_as)
        colour = (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]
        label = "=" + (index or ENGLISH_RANKS[RANKS[joker_as % 13]])
        f = font(rank_size(width) * SUPERSAMPLE, bold=True)
        tw = draw.textlength(label, font=f)
        small = w * 0.3
        x = (w - tw - small * 1.2) / 2
        draw.text((x, h * 0.66), label, font=f, fill=colour)
        draw_suit(draw, suit, x + tw + small * 0.65, h * 0.66 + f.size * 0.75, small, colour)
    face = _shrunk(image, width)
    return _veiled(face) if dim else face


def _veiled(face: Image.Image) -> Image.Image:
    veil = Image.new("RGBA", face.size, (0, 0, 0, 90))
    out = face.copy()
    out.alpha_composite(Image.composite(veil, Image.new("RGBA", face.size), face))
    return out


@functools.cache
def back_image(width: int = HAND_W) -> Image.Image:
    """The back of a card: a blue lattice in a white border."""
    s = SUPERSAMPLE
    w, h = width * s, card_height(width) * s
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=w // 10,
        fill=(250, 250, 250),
        outline=(90, 90, 90),
        width=s * 2,
    )
    inset = w * 0.08
    draw.rounded_rectangle((inset, inset, w - inset, h - inset), radius=w // 16, fill=(30, 70, 150))
    step = w / 6
    y = inset
    while y < h - inset:
        x = inset + (step / 2 if int((y - inset) / step) % 2 else 0)
        while x < w - inset:
            draw.polygon(
                [
                    (x, y + step / 2),
                    (x + step / 2, y),
                    (x + step, y + step / 2),
                    (x + step / 2, y + step),
                ],
                outline=(120, 160, 230),
                width=s,
            )
            x += step
        y += step
    return _shrunk(image, width)


# --- plans: what a picture holds, and where -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextOp:
    """A line of text; ``size`` is its font size in the picture's pixels."""

    text: str
    x: int
    y: int
    size: int
    colour: RGB = INK
    bold: bool = False

    @property
    def rect(self) -> Rect:
        return (
            self.x,
            self.y,
            self.x + text_width(self.text, self.size, self.bold),
            self.y + line_height(self.size),
        )


@dataclass(frozen=True, slots=True)
class CardOp:
    """A card face up (or :data:`BACK`) at (x, y), ``width`` wide, its rank printed as ``index``."""

    card: int
    x: int
    y: int
    width: int
    index: str = ""
    joker_as: int | None = None
    dim: bool = False

    @property
    def rect(self) -> Rect:
        return (self.x, self.y, self.x + self.width, self.y + card_height(self.width))

    @property
    def index_rect(self) -> Rect | None:
        """Where its rank and small suit are, which nothing may cover (None for a back)."""
        if self.card == BACK:
            return None
        label = "★" if self.card == JOKER else self.index
        w = round(self.width * 0.45) if self.card == JOKER else index_width(self.width, label)
        return (self.x, self.y, self.x + w, self.y + index_height(self.width))


@dataclass(frozen=True, slots=True)
class BoxOp:
    """A rounded box: a seat's plate, a frame."""

    rect: Rect
    fill: RGB | None
    outline: RGB
    line: int = 2
    radius: int = 12


@dataclass(frozen=True, slots=True)
class SuitOp:
    """A suit symbol on a white disc (the trump), centred on (cx, cy)."""

    suit: int
    cx: int
    cy: int
    size: int
    colour: RGB

    @property
    def rect(self) -> Rect:
        r = self.size // 2 + 6
        return (self.cx - r, self.cy - r, self.cx + r, self.cy + r)


@dataclass(frozen=True, slots=True)
class MarkOp:
    """A small shape: a side's mark (``circle``, ``diamond``, ``square``) or the turn's arrow."""

    shape: str
    rect: Rect
    colour: RGB


Op = TextOp | CardOp | BoxOp | SuitOp | MarkOp


@dataclass
class Plan:
    """A picture before it is painted: its size and what is drawn, in order (later over earlier).
    ``left_out`` names what found no room on a crowded table, and ``untold`` says it in words
    for the text beside the picture (:func:`table_untold`)."""

    width: int
    height: int
    ops: list[Op] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    untold: list[str] = field(default_factory=list)
    laid: dict[Spot, tuple[int, int, int]] = field(default_factory=dict)
    """Where a table picture laid the trump and each group of cards (:data:`Laid`)."""


@functools.lru_cache(maxsize=4096)  # names and labels, drawn again in every picture
def _plain(text: str) -> str:
    """Text the font can draw: emoji and other symbols outside Latin are left out."""
    kept = "".join(ch for ch in text if ord(ch) < 0x180 or ch in "–—‘’“”•…×−")
    return " ".join(kept.split()) or "?"


def _fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    text = _plain(text)
    while len(text) > 1 and text_width(text, size, bold) > width:
        text = text[:-2].rstrip() + "…" if len(text) > 2 else text[:-1]
    return text


def _index(card: int, ranks: Mapping[str, str]) -> str:
    """The rank printed on ``card`` with the given rank indices (none on the joker)."""
    return "" if card in (JOKER, BACK) else ranks[RANKS[card % 13]]


def _joker_as(view: View) -> int | None:
    """The card the joker counts as, where the game says (``View.joker``)."""
    return view.joker


# --- the table ------------------------------------------------------------------------------------


PLATE_H = 64
"""A seat's plate: its name over its counts."""
PLATE_H_ONE = 34
"""A wide seat's plate (two players): its name and counts on one line."""

SIDES: dict[int, tuple[int, int, int, int]] = {
    2: (1, 0, 1, 0),
    3: (1, 1, 0, 1),
    4: (1, 1, 1, 1),
    5: (1, 1, 2, 1),
    6: (3, 0, 3, 0),
    7: (3, 0, 4, 0),
    8: (4, 0, 4, 0),
    9: (4, 0, 5, 0),
    10: (5, 0, 5, 0),
}
"""How many places the table has at the bottom, the left, the top and the right edge, by the
number of players: one plate at the bottom and at most two at the top where the sides have
seats, and from six players on, seats only along the top and the bottom (a side seat would take
the room their cards of the trick need)."""


def _sides(players: int) -> tuple[int, int, int, int]:
    if players in SIDES:
        return SIDES[players]
    return (players - players // 2, 0, players // 2, 0)


def _one_line(players: int) -> bool:
    return players <= 2


def _trick_room(players: int) -> int:
    """How many cards of one seat the spot in front of it holds side by side (a träkarl's card
    beside its owner's, a run of one rank)."""
    return 3 if players <= 2 else 2 if players == 3 else 1


def _trick_step() -> int:
    """How far apart a seat's several cards in one trick lie: the widest index of either
    language."""
    return max(index_width(TRICK_W, label) for label in ("10", "Kn", "D", "Q")) + 2


def _row(count: int, ends: bool, width: int) -> list[tuple[int, int]]:
    """The left and right edges of ``count`` plates along the top or the bottom: spread between
    the side seats where there are some (``ends``), else across the whole picture."""
    if ends:
        centres = [WIDTH * (i + 1) / (count + 1) for i in range(count)]
    else:
        width = min(width, (WIDTH - 2 * EDGE - (count - 1) * GAP) // count)
        centres = (
            [
                EDGE + width / 2 + i * (WIDTH - 2 * EDGE - width) / max(count - 1, 1)
                for i in range(count)
            ]
            if count > 1
            else [WIDTH / 2]
        )
    return [(round(c - width / 2), round(c - width / 2) + width) for c in centres]


@functools.cache
def seat_spots(players: int, marks: bool = False) -> tuple[tuple[Rect, Rect], ...]:
    """Where each place at the table is, from the bottom clockwise (the bottom edge from right
    to left, the left edge upward, the top from left to right, the right edge downward): its
    plate, and the spot in front of it, toward the middle, where its cards of the trick lie, as
    wide as :func:`_trick_room` cards. The side plates are wider where the seats show a side's
    mark before their names (``marks``)."""
    bottom, left, top, right = _sides(players)
    ends = left + right > 0
    height = PLATE_H_ONE if _one_line(players) else PLATE_H
    row_w = 280 if players <= 2 else 200 if max(bottom, top) == 1 else 150
    # a side plate holds a name of seven letters (``Dator 1``) and the dealer's chip, and a
    # side's mark before them where the seats play in partnerships (``marks``)
    side_w = 152 if marks else 140 if top == 0 else 132
    # with no seat at the top, those at the sides sit in its corners (leaving the middle to the
    # piles); with two there, lower, their cards below the top's
    side_y = EDGE + height // 2 if top == 0 else HEIGHT // 2 if top == 1 else 188
    tw = TRICK_W + (_trick_room(players) - 1) * _trick_step()
    th = card_height(TRICK_W)
    places: list[tuple[Rect, Rect]] = []
    for x0, x1 in reversed(_row(bottom, ends, row_w)):
        plate = (x0, HEIGHT - EDGE - height, x1, HEIGHT - EDGE)
        cx = (x0 + x1) // 2
        places.append(
            (plate, (cx - tw // 2, plate[1] - GAP - th, cx - tw // 2 + tw, plate[1] - GAP))
        )
    for _ in range(left):
        plate = (EDGE, side_y - height // 2, EDGE + side_w, side_y - height // 2 + height)
        x = plate[2] + GAP
        places.append((plate, (x, side_y - th // 2, x + tw, side_y - th // 2 + th)))
    for x0, x1 in _row(top, ends, row_w):
        plate = (x0, EDGE, x1, EDGE + height)
        cx = (x0 + x1) // 2
        places.append(
            (plate, (cx - tw // 2, plate[3] + GAP, cx - tw // 2 + tw, plate[3] + GAP + th))
        )
    for _ in range(right):
        plate = (
            WIDTH - EDGE - side_w,
            side_y - height // 2,
            WIDTH - EDGE,
            side_y - height // 2 + height,
        )
        x = plate[0] - GAP - tw
        places.append((plate, (x, side_y - th // 2, x + tw, side_y - th // 2 + th)))
    return tuple(places)


def _trick_ops(
    view: View, spot_of: Mapping[int, Rect], ranks: Mapping[str, str], joker_as: int | None
) -> list[Op]:
    """Each seat's cards of the trick, in the order played, side by side in its spot."""
    width, step = TRICK_W, _trick_step()
    by_seat: dict[int, list[int]] = {}
    for seat, played in view.trick:
        by_seat.setdefault(seat, []).append(played)
    ops: list[Op] = []
    for seat, cards in by_seat.items():
        x0, y0, x1, _ = spot_of[seat]
        left = (x0 + x1) // 2 - (width + (len(cards) - 1) * step) // 2
        for i, c in enumerate(cards):
            ops.append(CardOp(c, left + i * step, y0, width, _index(c, ranks), joker_as))
    return ops


def _overlaps(a: Rect, b: Rect, margin: int = 0) -> bool:
    return (
        a[0] < b[2] + margin
        and b[0] < a[2] + margin
        and a[1] < b[3] + margin
        and b[1] < a[3] + margin
    )


CELL = 8
"""The grid on which blocks are placed on the felt, in pixels."""


@functools.cache
def _distances() -> Image.Image:
    """Each cell's distance (in cells, at most 255) from the middle of a grid twice the
    picture's: cropped around a block's anchor, the distance of every place from it."""
    cols, rows = WIDTH // CELL + 1, HEIGHT // CELL + 1
    field = Image.new("L", (2 * cols, 2 * rows))
    field.putdata(
        [
            min(255, round(math.hypot(x - cols, y - rows)))
            for y in range(2 * rows)
            for x in range(2 * cols)
        ]
    )
    return field


@functools.lru_cache(maxsize=4096)
def _pack(
    taken: tuple[Rect, ...],
    items: tuple[tuple[tuple[tuple[int, int], ...], tuple[int, int]], ...],
) -> tuple[tuple[int, int, int] | None, ...]:
    """Places for blocks on the felt left free by ``taken``, in order: each block is given as its
    sizes (width, height), largest first, and its anchor; it takes the first size that finds
    room, as near as it can be to the anchor. Each answer is (size's index, x, y), None where no
    size finds room. The search is Pillow's: the places a block may not take are drawn on a
    grid, over the distances from its anchor, and the nearest free cell is read off."""
    occupied = list(taken)
    cols, rows = WIDTH // CELL + 1, HEIGHT // CELL + 1
    out: list[tuple[int, int, int] | None] = []
    for sizes, (ax, ay) in items:
        found: tuple[int, int, int] | None = None
        for choice, (w, h) in enumerate(sizes):
            cell = _nearest_free(tuple(occupied), w, h, ax, ay, cols, rows)
            if cell is not None:
                x, y = 4 + cell[0] * CELL, 4 + cell[1] * CELL
                found = (choice, x, y)
                occupied.append((x, y, x + w, y + h))
                break
        out.append(found)
    return tuple(out)


@functools.lru_cache(maxsize=2048)  # a few kilobytes each: the felt's boxes so far
def _nearest_free(
    occupied: tuple[Rect, ...], w: int, h: int, ax: int, ay: int, cols: int, rows: int
) -> tuple[int, int] | None:
    """The grid cell nearest to the anchor where a block's top-left corner may lie (at
    (4 + col·CELL, 4 + row·CELL)) so that it stays on the picture, :data:`GAP` from all else.
    Remembered: the packings a picture tries share their first placements, and the next
    action's picture most of them (searching is most of planning a table)."""
    blocked = Image.new("L", (cols, rows), 0)
    draw = ImageDraw.Draw(blocked)
    last_col, last_row = _last_cell(w, h)
    if last_col < 0 or last_row < 0:
        return None
    draw.rectangle((last_col + 1, 0, cols, rows), fill=255)
    draw.rectangle((0, last_row + 1, cols, rows), fill=255)
    for rect in occupied:
        c0, r0, c1, r1 = _too_near(rect, w, h)
        if c0 <= c1 and r0 <= r1:
            draw.rectangle((c0, r0, c1, r1), fill=255)
    tx, ty = round((ax - w / 2 - 4) / CELL), round((ay - h / 2 - 4) / CELL)
    tx, ty = min(max(tx, 0), cols - 1), min(max(ty, 0), rows - 1)
    field = _distances().crop((cols - tx, rows - ty, 2 * cols - tx, 2 * rows - ty))
    cost = ImageChops.lighter(field, blocked)
    least = cost.getextrema()[0]
    if not isinstance(least, int) or least >= 255:
        return None
    cell = cost.tobytes().index(least)  # the first, row by row: the topmost, then leftmost
    return (cell % cols, cell // cols)


def _last_cell(w: int, h: int) -> tuple[int, int]:
    """The last grid column and row where a block of this size keeps to the picture."""
    return (WIDTH - 8 - w) // CELL, (HEIGHT - 8 - h) // CELL


def _too_near(rect: Rect, w: int, h: int) -> Rect:
    """The grid cells (first and last column and row) where the top-left corner of a block of
    this size would bring it within :data:`GAP` of ``rect``."""
    x0, y0, x1, y1 = rect
    return (
        (x0 - GAP - w - 4) // CELL + 1,
        (y0 - GAP - h - 4) // CELL + 1,
        -((4 - x1 - GAP) // CELL) - 1,
        -((4 - y1 - GAP) // CELL) - 1,
    )


def _free_at(occupied: Sequence[Rect], w: int, h: int, x: int, y: int) -> bool:
    """Whether a block of this size may lie with its top-left corner at (x, y), a place the
    packer gives (:func:`_nearest_free`): on the picture, :data:`GAP` from all of ``occupied``."""
    col, row = divmod(x - 4, CELL), divmod(y - 4, CELL)
    last_col, last_row = _last_cell(w, h)
    if col[1] or row[1] or not (0 <= col[0] <= last_col and 0 <= row[0] <= last_row):
        return False
    for rect in occupied:
        c0, r0, c1, r1 = _too_near(rect, w, h)
        if c0 <= col[0] <= c1 and r0 <= row[0] <= r1:
            return False
    return True


STACKS = frozenset({"side_tricks", "dead", "played", "center", "set_aside", "pairs"})
"""Piles that grow as play goes (tricks taken, cards played out, pairs laid), drawn as their last
cards and a count: whole as they are, so the text beside the picture does not list them again.
Any other pile drawn with only its last few cards (a dummy, a shown hand) is said in full there."""


@dataclass(frozen=True, slots=True)
class Block:
    """A labelled row of cards to place on the felt: a pile, the last trick, a shown hand, or
    the legend of the sides' marks (:data:`LEGEND`, no cards). Its label says what it is
    (``label``, never cut) and whose: a seat's name (``owner``, cut if it must be) or a side's
    mark (``mark``, drawn before the label)."""

    name: str
    label: str
    cards: tuple[int, ...]
    hidden: int
    anchor: tuple[int, int]
    room: int
    owner: str = ""
    mark: tuple[str, RGB] | None = None


def _fan_step(ranks: Mapping[str, str], width: int) -> int:
    """How far apart overlapping cards lie: the widest rank index of the table's language."""
    return _widest_index(frozenset(ranks.values()), width) + 2


@functools.lru_cache(maxsize=64)
def _widest_index(labels: frozenset[str], width: int) -> int:
    return max(index_width(width, label) for label in labels | {"★"})


FULL, TWO_ROWS, PACKED, PACKED_TALL, PACKED_TIGHT, SHORT, BARE, BARE_TALL, BARE_TIGHT = range(9)
"""How a block is drawn, from the most to the least room it needs: all its cards that fit its
room in one row, or in two overlapping rows (the upper one's ranks left clear), its face-down
cards as a back and their count after them; every card in one row (up to three) or two, under
its label and a small back with the face-down count (as narrow as a hand of a träkarl's five or
six cards can be); the last few under the count of all; or only its top card and how many it
holds, under its label. Every form carries the label, the pile's name whole: a card on the felt
is never unnamed. The compact forms come three times: with the seat's name beside the pile's
where the block's room allows, then (``_TALL``) with the seat's name on a line of its own under
it, then (``_TIGHT``) beside it again but cut, as narrow as the cards."""

BARE_BESIDE = 9
"""A block's top card (else a back) with its label beside it on three lines: the pile's name,
the seat's name, how many it holds: narrower than any form but the tight ones, and whole."""

TIGHT = 130
"""The width a tight form's label keeps to (beyond its cards')."""

LEGEND = "legend"
"""The block that explains the sides' marks, where seats play in partnerships."""


def _block_label(block: Block, room: int, count: str) -> str:
    """``Budkort (Bo)``, ``Träkarl (Bo) · 6``: the pile's name, always whole, then its seat's
    name cut to the room left (:func:`_short_name`, down to ``Träkarl D… 1`` without the
    brackets), then how many it holds."""
    tail = f" · {count}" if count else ""
    if not block.owner:
        return block.label + tail
    owner = _short_name(block.owner, room - text_width(f"{block.label} (){tail}", FACT_PX))
    if owner != _short_name(block.owner, 0):
        return f"{block.label} ({owner}){tail}"
    return f"{block.label} {owner}{tail}"  # no room for more than its initial


def _short_name(name: str, room: int) -> str:
    """A seat's name cut to ``room`` pixels, down to its initial, keeping a short last word
    that tells seats apart (``Dator 1`` → ``Dat… 1``, ``D… 1``)."""
    if text_width(name, FACT_PX) <= room:
        return name
    words = name.split(" ")
    last = " " + words[-1] if len(words) > 1 and len(words[-1]) <= 2 else ""
    head = name[: len(name) - len(last)]
    cut = _fit(head, FACT_PX, room - text_width(last, FACT_PX))
    if not cut.endswith("…") or len(cut) < 2:
        cut = head[:1] + "…"
    return cut + last


def _owner_line(block: Block, x: int, y: int, room: int) -> tuple[list[Op], int]:
    """A seat's name in brackets on a line of its own, under its pile's name: ``(Dator 2)``."""
    owner = f"({_short_name(block.owner, room - text_width('()', FACT_PX))})"
    return [TextOp(owner, x, y, FACT_PX, DIM_INK)], text_width(owner, FACT_PX)


def _mark_w(block: Block) -> int:
    """The room a side's mark takes before a block's label."""
    return MARK_W + 5 if block.mark else 0


def _label_ops(block: Block, label: str, x: int, y: int) -> tuple[list[Op], int]:
    """A block's label at (x, y), after its side's mark where it is a side's; and its width."""
    ops: list[Op] = []
    if block.mark is not None:
        caps = y + (line_height(FACT_PX) - FACT_PX) // 2 + 3  # where a capital's top lies
        shape, colour = block.mark
        ops.append(MarkOp(shape, (x, caps, x + MARK_W, caps + MARK_W), colour))
    ops.append(TextOp(label, x + _mark_w(block), y, FACT_PX, DIM_INK))
    return ops, _mark_w(block) + text_width(label, FACT_PX)


def _legend_lines(label: str, form: int) -> list[str]:
    """The legend on one line, or on two (split where the longer line is the shortest)."""
    if form == FULL or " " not in label:
        return [label]
    words = label.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    head, tail = min(splits, key=lambda two: max(text_width(line, FACT_PX) for line in two))
    return [head, tail]


def _block_ops(
    block: Block, x: int, y: int, ranks: Mapping[str, str], joker_as: int | None, form: int
) -> tuple[list[Op], int, int]:
    """A block's texts and cards with its top-left at (x, y), and its width and height."""
    if block.name == LEGEND:
        lines = _legend_lines(block.label, form)
        legend: list[Op] = [
            TextOp(line, x, y + i * line_height(FACT_PX), FACT_PX, DIM_INK)
            for i, line in enumerate(lines)
        ]
        return (
            legend,
            max(text_width(line, FACT_PX) for line in lines),
            len(lines) * line_height(FACT_PX),
        )
    ops: list[Op] = []
    if form == BARE_BESIDE:
        card = (block.cards[-1:] or (BACK,))[0]
        ops.append(
            CardOp(card, x, y, PILE_W, "" if card == BACK else _index(card, ranks), joker_as)
        )
        total = len(block.cards) + block.hidden
        right = x + PILE_W + 6
        labelled, label_w = _label_ops(block, block.label, right, y)
        below, below_w = _owner_line(block, right, y + line_height(FACT_PX), 999)
        ops.extend(labelled + below)
        depth, width = 2, max(label_w, below_w)
        if total > 1:
            count = f"× {total}"
            ops.append(TextOp(count, right, y + 2 * line_height(FACT_PX), FACT_PX))
            depth, width = 3, max(width, text_width(count, FACT_PX))
        return ops, PILE_W + 6 + width, max(card_height(PILE_W), depth * line_height(FACT_PX))
    step = _fan_step(ranks, PILE_W)
    room = block.room if form in (FULL, TWO_ROWS) else min(block.room, 200)
    rows: list[tuple[int, ...]]
    tall = form in (PACKED_TALL, BARE_TALL)
    if form in (PACKED, PACKED_TALL, PACKED_TIGHT):  # every card, in rows as few as narrow
        per = len(block.cards) if len(block.cards) <= 3 else (len(block.cards) + 1) // 2
        rows = [block.cards[:per], block.cards[per:]] if per < len(block.cards) else [block.cards]
        count = ""
        hidden = str(block.hidden) if block.hidden else ""
        tail = ICON_W["back"] + 11 + text_width(hidden, FACT_PX) if hidden else 0
        span = (per - 1) * step + PILE_W
        wide = max(span, block.room if form == PACKED else TIGHT)
        label = block.label if tall else _block_label(block, wide - tail - _mark_w(block), "")
        labelled, label_w = _label_ops(block, label, x, y)
        ops.extend(labelled)
        if tall:
            below, below_w = _owner_line(block, x, y + line_height(FACT_PX), wide)
            ops.extend(below)
        if hidden:  # how many lie face down, after a small back as a plate shows a hand's count
            icon_x = x + label_w + 8
            icon_y = y + (line_height(FACT_PX) - FACT_PX) // 2 + 3
            ops.append(MarkOp("back", (icon_x, icon_y, icon_x + ICON_W["back"], icon_y + 17), INK))
            ops.append(TextOp(hidden, icon_x + ICON_W["back"] + 3, y, FACT_PX, INK))
        label_w += tail
        top = y + line_height(FACT_PX) * (2 if tall else 1)
        label_w = max(label_w, below_w) if tall else label_w
    elif form in (BARE, BARE_TALL, BARE_TIGHT):  # its top card (else a back) and how many
        rows = [block.cards[-1:] or (BACK,)]
        total = len(block.cards) + block.hidden
        count = f"× {total}" if total > 1 else ""
        wide = block.room if form == BARE else TIGHT
        label = block.label if tall else _block_label(block, wide - _mark_w(block), "")
        labelled, label_w = _label_ops(block, label, x, y)
        ops.extend(labelled)
        top = y + line_height(FACT_PX)
        if tall:
            below, below_w = _owner_line(block, x, top, wide)
            ops.extend(below)
            label_w = max(label_w, below_w)
            top += line_height(FACT_PX)
    else:
        count = f"× {block.hidden}" if block.hidden else ""
        count_w = text_width(count, FACT_PX) + PILE_W + 8 if count else 0
        fits = max(1, (room - PILE_W - count_w) // step + 1)
        if form == TWO_ROWS:
            half = (len(block.cards) + 1) // 2
            fits = min(fits, half)
            rows = [block.cards[:fits], block.cards[fits : 2 * fits]]
        else:
            rows = [block.cards[-fits:]]
        shown = sum(len(r) for r in rows)
        count_all = str(len(block.cards)) if shown < len(block.cards) else ""
        label = _block_label(block, room - _mark_w(block), count_all)
        labelled, label_w = _label_ops(block, label, x, y)
        ops.extend(labelled)
        top = y + line_height(FACT_PX)
    right = x
    row_top = top
    for r, row in enumerate(rows):
        row_top = top + r * (index_height(PILE_W) + 2)
        for i, c in enumerate(row):
            ops.append(CardOp(c, x + i * step, row_top, PILE_W, _index(c, ranks), joker_as))
        right = max(right, x + (len(row) - 1) * step + PILE_W if row else x)
    end = x + (len(rows[-1]) - 1) * step + PILE_W if rows[-1] else x
    if form in (FULL, TWO_ROWS, SHORT) and block.hidden:
        end += 4 if rows[-1] else 0
        ops.append(CardOp(BACK, end, row_top, PILE_W))
        end += PILE_W
    if count:
        middle = row_top + (card_height(PILE_W) - line_height(FACT_PX)) // 2
        ops.append(TextOp(count, end + 4, middle, FACT_PX))
        end += 4 + text_width(count, FACT_PX)
    width = max(right, end, x + label_w) - x
    return ops, width, row_top - y + card_height(PILE_W)


def _shape(block: Block) -> Block:
    """What a block's sizes depend on (:func:`_block_forms`): how many cards it holds, not
    which, nor where it is anchored."""
    return Block(
        name=block.name,
        label=block.label,
        cards=(0,) * len(block.cards),
        hidden=block.hidden,
        anchor=(0, 0),
        room=block.room,
        owner=block.owner,
        mark=block.mark,
    )


@functools.lru_cache(maxsize=4096)
def _sized(block: Block, ranks: tuple[tuple[str, str], ...], form: int) -> tuple[int, int, int]:
    """A block's width and height drawn in ``form`` (:func:`_block_ops`), and how many of its
    face-up cards that shows (-1 where it cuts a short seat's name)."""
    ops, width, height = _block_ops(block, 0, 0, dict(ranks), None, form)
    faces = sum(isinstance(op, CardOp) and op.card != BACK for op in ops)
    if len(block.owner) <= SHORT_NAME and any(
        isinstance(op, TextOp) and "…" in op.text for op in ops
    ):
        faces = -1  # a short seat's name cut: drawn so only where the felt has no other room
    return width, height, faces


SHORT_NAME = 8
"""The longest seat's name (``Dator 10``) that a pile's label keeps whole where the felt allows
any packing that does."""


@functools.lru_cache(maxsize=4096)
def _block_forms(
    shape: Block, ranks: tuple[tuple[str, str], ...]
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], int]:
    """The forms to try for a block (its :func:`_shape`), in order, their sizes, and how many of
    them (the first) show it whole: a growing pile (:data:`STACKS`) in any form, any other block
    where it shows all its face-up cards, neither where it cuts a short seat's name. A growing
    pile is whole as its last cards and a count; any other block tries first the forms that show
    all its face-up cards (from the most to the least room), then those that show its last few.
    A block is never drawn without its label, nor the last trick as one card. Remembered by the
    shape, so that the next state's piles and last trick are mostly known already."""
    if shape.name == LEGEND:  # its two forms as they are, each whole unless it cuts a name
        legend = {form: _sized(shape, ranks, form) for form in (FULL, TWO_ROWS)}
        wholes = sum(size[2] >= 0 for size in legend.values())
        return (FULL, TWO_ROWS), tuple(size[:2] for size in legend.values()), wholes
    least = [] if shape.name == LAST_TRICK else [BARE, BARE_TALL, BARE_BESIDE, BARE_TIGHT]
    stack = shape.name.rsplit(".", 1)[-1] in STACKS
    packed = [] if stack or not shape.cards else [PACKED, PACKED_TALL, PACKED_TIGHT]
    forms = [FULL, TWO_ROWS, *packed, SHORT, *least]
    if len(shape.cards) < 4:
        forms.remove(TWO_ROWS)
    if not shape.owner:  # a tall or tight form would be the same
        tall_or_tight = (PACKED_TALL, PACKED_TIGHT, BARE_TALL, BARE_BESIDE, BARE_TIGHT)
        forms = [form for form in forms if form not in tall_or_tight]
    sized = {form: _sized(shape, ranks, form) for form in forms}
    whole = 0 if stack else len(shape.cards)
    forms.sort(key=lambda form: sized[form][2] < whole)  # stable: whole first
    wholes = sum(sized[form][2] >= whole for form in forms)
    return tuple(forms), tuple(sized[form][:2] for form in forms), wholes


Place = tuple[int, int, int] | None
Item = tuple[tuple[tuple[int, int], ...], tuple[int, int]]
Way = tuple[int, bool, tuple[int, ...]]
ARRANGEMENTS = 8
"""How many packings of the felt a picture tries at most, where the first leaves a block short."""


@functools.lru_cache(maxsize=1024)
def _arrange(
    taken: tuple[Rect, ...],
    head: tuple[tuple[int, int], ...],
    items: tuple[Item, ...],
    wholes: tuple[int, ...],
) -> tuple[Place, tuple[Place, ...]]:
    """Places for the trump (its forms' sizes ``head``, none where there is no trump, anchored
    at the top-left corner) and the blocks (``items``, the first ``wholes[i]`` forms of each
    showing it whole). The packer is greedy: the trump, placed first in its widest form, or a
    block in its widest, may take the room that a later block needed to be drawn whole. So
    where a block falls short, the trump is tried in its narrower forms and last, and then the
    blocks placed before a block that fell short in their next forms, and the packing that
    leaves the fewest blocks out, then draws the most whole (then each in its widest form, then
    the trump widest) is kept."""
    corner = (0, 0)

    def attempt(way: Way) -> tuple[Place, tuple[Place, ...]]:
        trump_from, last, starts = way
        blocks = tuple(
            (sizes[s:], anchor) for (sizes, anchor), s in zip(items, starts, strict=True)
        )
        if not head:
            got, trump = _pack(taken, blocks), None
        elif last:
            got = _pack(taken, (*blocks, (head, corner)))
            got, trump = got[:-1], got[-1]
        else:
            got = _pack(taken, ((head[trump_from:], corner), *blocks))
            got, trump = got[1:], got[0] and (got[0][0] + trump_from, got[0][1], got[0][2])
        return trump, tuple(p and (p[0] + s, p[1], p[2]) for p, s in zip(got, starts, strict=True))

    def worth(way: Way) -> tuple[bool, int, int, int, int]:
        trump, places = tried[way]
        missing = sum(p is None for p in places)
        short = sum(p is None or p[0] >= whole for p, whole in zip(places, wholes, strict=True))
        forms = sum(
            len(item[0]) if p is None else p[0] for p, item in zip(places, items, strict=True)
        )
        return (
            bool(head) and trump is None,
            missing,
            short,
            forms,
            9 if trump is None else trump[0],
        )

    first: Way = (0, False, (0,) * len(items))
    tried = {first: attempt(first)}
    if all(p is not None and p[0] == 0 for p in tried[first][1]):
        return tried[first]
    ways = [(narrower, False, first[2]) for narrower in range(1, len(head))]
    ways += [(0, True, first[2])] if head else []
    for way in ways:
        tried[way] = attempt(way)
    best = min(tried, key=worth)
    while len(tried) < ARRANGEMENTS:
        places = tried[best][1]
        short = [i for i, p in enumerate(places) if p is None or p[0] > 0]
        better = best
        for j in range(max(short, default=0)):
            p = places[j]
            if p is None or p[0] + 1 >= len(items[j][0]) or len(tried) >= ARRANGEMENTS:
                continue
            starts = list(best[2])
            starts[j] = p[0] + 1
            way = (best[0], best[1], tuple(starts))
            if way not in tried:
                tried[way] = attempt(way)
                better = min(better, way, key=worth)
        if better == best:
            break
        best = better
    return tried[best]


Spot = tuple[str, tuple[int, int]]
"""A group of cards on the felt from one picture of a table to the next: its block's name and
anchor (a seat's pile and the next seat's have the same name)."""
TRUMP: Spot = ("trump", (0, 0))
Laid = Mapping[Spot, tuple[int, int, int]]
"""Where a table's pictures last laid each group of cards: its form (for the trump, the index of
its form) and its top-left corner."""


def _kept(
    taken: tuple[Rect, ...],
    head: tuple[tuple[int, int], ...],
    items: tuple[Item, ...],
    wholes: tuple[int, ...],
    forms: Sequence[tuple[int, ...]],
    trump_was: tuple[int, int, int] | None,
    blocks_were: Sequence[tuple[int, int, int] | None],
) -> tuple[Place, tuple[Place, ...]]:
    """Places as :func:`_arrange` gives them, but where the table's last picture laid the trump
    or a block: there it stays where it still fits, whole (first in the form it had, else in its
    widest that fits), and the rest are arranged around what stayed, so that a pile does not
    jump across the felt when a card is played."""
    occupied = list(taken)

    def stay(sizes: Sequence[tuple[int, int]], order: Sequence[int], x: int, y: int) -> Place:
        for j in order:
            w, h = sizes[j]
            if _free_at(occupied, w, h, x, y):
                occupied.append((x, y, x + w, y + h))
                return (j, x, y)
        return None

    def first(was: int, count: int) -> list[int]:
        return [was, *(j for j in range(count) if j != was)] if was < count else list(range(count))

    trump = None
    if head and trump_was is not None:
        trump = stay(head, first(trump_was[0], len(head)), trump_was[1], trump_was[2])
    places: list[Place] = []
    for (sizes, _), whole, tried, was in zip(items, wholes, forms, blocks_were, strict=True):
        j = tried.index(was[0]) if was is not None and was[0] in tried else whole
        places.append(None if was is None else stay(sizes, first(j, whole), was[1], was[2]))
    rest = [i for i, p in enumerate(places) if p is None]
    if rest or (head and trump is None):
        got_trump, got = _arrange(
            tuple(occupied),
            head if trump is None else (),
            tuple(items[i] for i in rest),
            tuple(wholes[i] for i in rest),
        )
        trump = trump if trump is not None else got_trump
        for i, p in zip(rest, got, strict=True):
            places[i] = p
    return trump, tuple(places)


def _shortfall(
    head: tuple[tuple[int, int], ...],
    arranged: tuple[Place, tuple[Place, ...]],
    wholes: tuple[int, ...],
    counted: Sequence[bool],
) -> tuple[int, ...]:
    """How an arrangement falls short for the trump and each ``counted`` block, in turn: 2 left
    out, 1 not drawn whole, 0 whole."""
    trump, places = arranged
    short = [2 if head and trump is None else 0]
    for p, whole, c in zip(places, wholes, counted, strict=True):
        if c:
            short.append(2 if p is None else int(p[0] >= whole))
    return tuple(short)


def _families(cards: Sequence[int]) -> tuple[int, ...]:
    """Laid sets of one rank (pairs, quartets), one card each; other piles as they are."""
    counts = Counter(rank_of(c) for c in cards)
    if len(cards) >= 4 and all(n % 2 == 0 for n in counts.values()):
        seen: dict[int, int] = {}
        for c in cards:
            seen.setdefault(rank_of(c), c)
        return tuple(seen.values())
    return tuple(cards)


def table_plan(
    view: View,
    text: TextRenderer,
    trump_line: str | None,
    four_colour: bool = True,
    laid: Laid | None = None,
) -> Plan:
    """What the table picture of ``view`` holds and where (see the module's docstring). Where
    the table's last picture ``laid`` the trump and its piles, they stay where they still fit
    (:func:`_kept`), unless that would leave out or cut what a fresh arrangement draws whole;
    the plan's ``laid`` says where this one laid them."""
    del four_colour  # the colours are the painter's; the plan is the same for both decks
    players = len(view.seats)
    plan = Plan(WIDTH, HEIGHT)
    ranks = text.faces.ranks
    joker_as = _joker_as(view)
    spots = seat_spots(players, bool(view.teams))
    bottom = view.seat if view.seat is not None else 0
    place_of = {(bottom + p) % players: p for p in range(players)}
    piles = table_piles(view)
    last = next((p for p in view.piles if p.key == LAST_TRICK and p.cards), None)
    # the spots in front of the seats are kept free while a trick lies there (the last trick is
    # shown only until the next card is played, so it may lie there meanwhile); at a crowded
    # table only the spots with a card are kept
    played = {place_of[seat] for seat, _ in view.trick}
    kept = [t for p, (_, t) in enumerate(spots) if p in played or (view.trick and players <= 6)]
    taken = [box for box, _ in spots] + kept
    plates = [
        _seat_ops(view, text, seat, spots[place_of[seat]][0], _one_line(players))
        for seat in range(players)
    ]
    if any(short for _, short in plates):  # every plate says the score alike: ``3 fam.``
        plates = [
            _seat_ops(view, text, seat, spots[place_of[seat]][0], _one_line(players), True)
            for seat in range(players)
        ]
    for ops, _ in plates:
        plan.ops.extend(ops)
    spot_of = {seat: spots[place][1] for seat, place in place_of.items()}
    trick = _trick_ops(view, spot_of, ranks, joker_as)
    plan.ops.extend(trick)
    room = 300 if players <= 2 else 220 if players <= 4 else 160
    blocks: list[Block] = []
    told: dict[Block, str] = {}  # each block in words, for the text where it finds no room
    if last is not None:
        owner = _plain(text.plain_seat(last.seat)) if last.seat is not None else ""
        corner = (WIDTH, HEIGHT)
        blocks.append(Block(LAST_TRICK, text.t(LAST_TRICK), last.cards, 0, corner, room, owner))
        told[blocks[-1]] = text.pile(last)
    for pile in piles:
        if pile.cards or pile.hidden:
            blocks.append(_pile_block(view, pile, text, spots, place_of, room))
            told[blocks[-1]] = text.pile(pile)
    for seat, info in enumerate(view.seats):
        if info.shown:
            anchor = _toward_centre(spots[place_of[seat]][0])
            shown = tuple(sort_hand(info.shown))
            label = _plain(text.t("table.pile.shown"))
            owner = _plain(text.plain_seat(seat))
            blocks.append(Block(f"shown {seat}", label, shown, 0, anchor, room, owner))
            cards = text.faces_of(shown)
            told[blocks[-1]] = f"{text.seat(seat)}: {text.t('view.shown', cards=cards)}"
    if view.teams:  # what the marks on the plates mean, in a corner the trick leaves free
        legend = text.t("view.team_legend")
        blocks.append(Block(LEGEND, _plain(legend), (), 0, (0, HEIGHT), room))
        told[blocks[-1]] = _told_legend(view, text, legend)

    # the most needed first, as what finds no room is left to the text beside the picture: the
    # middle's piles (a turn-up, the talong), then what seats show and own (a dummy, bid cards),
    # the seats at the sides first (they have the least room around them), the last trick last
    # (the latest events say who took it, and with what)
    def order(block: Block) -> tuple[int, float]:
        if block.name == LAST_TRICK:
            return (3, 0.0)
        if block.name == LEGEND:  # after the middle's piles, before the seats' own
            return (1, 1.0)
        if block.anchor == (WIDTH // 2, HEIGHT // 2):
            return (1, 0.0)
        side = abs(block.anchor[0] - WIDTH / 2) / WIDTH - abs(block.anchor[1] - HEIGHT / 2) / HEIGHT
        return (2, -side - (1.0 if block.name.startswith("shown") else 0.0))

    blocks.sort(key=order)
    heads = _trump_forms(view, trump_line)
    items: list[tuple[tuple[tuple[int, int], ...], tuple[int, int]]] = []
    forms: list[tuple[int, ...]] = []
    wholes: list[int] = []
    ranked = tuple(sorted(ranks.items()))
    for block in blocks:
        tried, sizes, whole = _block_forms(_shape(block), ranked)
        forms.append(tried)
        wholes.append(whole)
        items.append((sizes, block.anchor))
    head = tuple(_extent(ops) for ops in heads)
    groups = [(block.name, block.anchor) for block in blocks]
    settled = (tuple(taken), head, tuple(items), tuple(wholes))
    # what stayed is kept unless a fresh arrangement draws something better (the trump or a
    # block that staying leaves out or cuts); the last trick, the least needed (the latest
    # events say it), moves no other pile
    counted = [block.name != LAST_TRICK for block in blocks]
    arranged: tuple[Place, tuple[Place, ...]] | None = None
    short: tuple[int, ...] = ()
    if laid and (TRUMP in laid or any(group in laid for group in groups)):
        were = [laid.get(group) for group in groups]
        arranged = _kept(*settled, forms, laid.get(TRUMP), were)
        short = _shortfall(head, arranged, settled[3], counted)
    if arranged is None or any(short):
        fresh = _arrange(*settled)
        better = _shortfall(head, fresh, settled[3], counted)
        if arranged is None or any(f < k for f, k in zip(better, short, strict=True)):
            arranged = fresh
    place, places = arranged
    if place is not None:
        plan.laid[TRUMP] = place
    for group, form, at in zip(groups, forms, places, strict=True):
        if at is not None:
            plan.laid[group] = (form[at[0]], at[1], at[2])
    if heads and place is None:
        plan.left_out.append("trump")
        plan.untold.append(_plain(trump_line or ""))
    elif place is not None:
        plan.ops.extend(_moved(op, place[1], place[2]) for op in heads[place[0]])
    drawn: list[tuple[Block, int, int, list[Op]]] = []
    for block, form, place in zip(blocks, forms, places, strict=True):
        if place is None:
            if not (block.name == LAST_TRICK and view.trick):  # it gives way to the trick
                plan.left_out.append(block.name)
                plan.untold.append(told[block])
            continue
        ops = _block_ops(block, place[1], place[2], ranks, joker_as, form[place[0]])[0]
        drawn.append((block, place[1], place[2], ops))
        faces = sum(isinstance(op, CardOp) and op.card != BACK for op in ops)
        if faces < len(block.cards) and block.name.rsplit(".", 1)[-1] not in STACKS:
            plan.untold.append(told[block])  # only its last few: the text says them all
    rects = [op.rect for op in plan.ops] + [op.rect for _, _, _, ops in drawn for op in ops]
    named = _trick_label(_plain(text.t("table.pile.trick")), trick, rects) if trick else None
    if named is not None:
        plan.ops.append(named)
        rects.append(named.rect)
    for block, x, y, ops in drawn:
        plan.ops.extend(_whole_label(block, x, y, ops, rects))
    return plan


def _free(rect: Rect, rects: Sequence[Rect]) -> bool:
    """Whether ``rect`` lies on the felt, :data:`GAP` clear of all of ``rects``."""
    if rect[0] < EDGE or rect[1] < EDGE or rect[2] > WIDTH - EDGE or rect[3] > HEIGHT - EDGE:
        return False
    return not any(_overlaps(rect, other, GAP) for other in rects)


def _trick_label(label: str, cards: Sequence[Op], rects: Sequence[Rect]) -> TextOp | None:
    """The trick's name (``Stick``) where the felt is free beside its cards: in the middle
    between them, above or below them all, else beside one of them; None where it finds no
    room (each card's seat is told by where it lies, in front of the seat)."""
    w, h = text_width(label, FACT_PX), line_height(FACT_PX)
    x0, y0 = min(c.rect[0] for c in cards), min(c.rect[1] for c in cards)
    x1, y1 = max(c.rect[2] for c in cards), max(c.rect[3] for c in cards)
    cx, cy = (x0 + x1) // 2 - w // 2, (y0 + y1) // 2 - h // 2
    spots = [(cx, cy), (cx, y0 - GAP - h), (cx, y1 + GAP)]
    for c in cards:
        r = c.rect
        mx, my = (r[0] + r[2]) // 2 - w // 2, (r[1] + r[3]) // 2 - h // 2
        spots += [(mx, r[1] - GAP - h), (mx, r[3] + GAP), (r[2] + GAP, my), (r[0] - GAP - w, my)]
        spots += [(r[0], r[1] - GAP - h), (r[2] - w, r[1] - GAP - h), (r[0], r[3] + GAP)]
        spots += [(r[2] - w, r[3] + GAP), (r[2] + GAP, r[1]), (r[2] + GAP, r[3] - h)]
        spots += [(r[0] - GAP - w, r[1]), (r[0] - GAP - w, r[3] - h)]
    for x, y in spots:
        if _free((x, y, x + w, y + h), rects):
            return TextOp(label, x, y, FACT_PX, DIM_INK)
    return None


def _whole_label(block: Block, x: int, y: int, ops: list[Op], rects: list[Rect]) -> list[Op]:
    """A block's ops with its seat's name made whole where the packing cut it (``Budkort A…``)
    and the felt has room: its label shifted left, still over its cards, or wrapped upward with
    the seat's name on a line of its own under the pile's name. ``rects`` (all that is drawn)
    is kept up to date."""
    h = line_height(FACT_PX)
    cut = next((op for op in ops if isinstance(op, TextOp) and "…" in op.text and op.y == y), None)
    if not block.owner or cut is None or block.mark is not None:
        return ops
    line = [op for op in ops if not isinstance(op, CardOp) and op.rect[1] < y + h]
    rest = [op for op in ops if op not in line]
    own = [op.rect for op in ops]
    others = [r for r in rects if r not in own]
    head = cut.text[len(block.label) :].split(" · ", 1)
    tail = f" · {head[1]}" if len(head) > 1 else ""
    whole = f"{block.label} ({block.owner}){tail}"
    grow = text_width(whole, FACT_PX) - text_width(cut.text, FACT_PX)
    one = [
        replace(cut, text=whole) if op is cut else _moved(op, grow if op.rect[0] > cut.x else 0)
        for op in line
    ]
    tries: list[list[Op]] = [one]
    if len(line) == 1 and not tail:  # the pile's name over the seat's, above its cards
        owner = f"({block.owner})"
        above = TextOp(block.label, x, y - h, FACT_PX, DIM_INK)
        tries.append([above, TextOp(owner, x, y, FACT_PX, DIM_INK)])
    for label in tries:
        left, right = min(op.rect[0] for op in label), max(op.rect[2] for op in label)
        top = min(op.rect[1] for op in label)
        for dx in range(0, -(right - left) + PILE_W // 2, -4):
            if _free((left + dx, top, right + dx, y + h), others):
                moved = [_moved(op, dx) for op in label]
                rects[:] = [*others, *(op.rect for op in rest), *(op.rect for op in moved)]
                return [*moved, *rest]
    return ops


def _told_legend(view: View, text: TextRenderer, legend: str) -> str:
    """The legend in words, for the text beside a picture with no room for it: each side's
    mark and its seats (``Samma märke, samma lag: ● Åsa & Cilla · ◆ Bo & Dag``)."""
    symbols = {"circle": "●", "diamond": "◆", "square": "■"}
    sides = []
    for team in view.teams:
        mark = _side_mark(view, team[0])
        names = " & ".join(text.seat(seat) for seat in team)
        sides.append(f"{symbols[mark[0]] if mark else ''} {names}".strip())
    return f"{legend}: {' · '.join(sides)}"


TRUMP_PX = 30
"""The trump's suit, drawn on a white disc."""


def _trump_forms(view: View, trump_line: str | None) -> list[list[TextOp | SuitOp]]:
    """The trump, from the most to the least room it needs: its suit and its line (``Trumf:
    hjärter``), its suit and the line's first word (``Trumf``), its suit alone; ``Ingen trumf``
    alone. None where the game or its phase has no trump."""
    if not trump_line:
        return []
    label = _plain(trump_line)
    if view.trump is None:
        return [[TextOp(label, 0, 0, FACT_PX, INK, True)]]
    disc = SuitOp(
        view.trump, TRUMP_PX // 2 + 6, TRUMP_PX // 2 + 6, TRUMP_PX, FOUR_COLOURS[view.trump]
    )
    beside = TRUMP_PX + 16
    word = label.split(":")[0].split()[0]
    forms: list[list[TextOp | SuitOp]] = [
        [disc, TextOp(label, beside, 6, FACT_PX, INK, True)],
        [disc, TextOp(word, beside, 6, FACT_PX, INK, True)],
        [disc],
    ]
    return forms


def _extent(ops: Sequence[TextOp | SuitOp]) -> tuple[int, int]:
    """The width and height of ops laid from (0, 0)."""
    return max(op.rect[2] for op in ops), max(op.rect[3] for op in ops)


def _moved(op: Op, dx: int, dy: int = 0) -> Op:
    """``op`` moved by (``dx``, ``dy``): a text, a suit or a mark (the parts of a label or a
    trump's head); anything else as it is."""
    if isinstance(op, TextOp):
        return replace(op, x=op.x + dx, y=op.y + dy)
    if isinstance(op, SuitOp):
        return replace(op, cx=op.cx + dx, cy=op.cy + dy)
    if isinstance(op, MarkOp):
        x0, y0, x1, y1 = op.rect
        return replace(op, rect=(x0 + dx, y0 + dy, x1 + dx, y1 + dy))
    return op


def _toward_centre(box: Rect) -> tuple[int, int]:
    """Where a seat's own cards go: as near its plate as the felt allows."""
    cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
    return (cx + (WIDTH // 2 - cx) // 8, cy + (HEIGHT // 2 - cy) // 8)


def _pile_block(
    view: View,
    pile: Pile,
    text: TextRenderer,
    spots: Sequence[tuple[Rect, Rect]],
    place_of: Mapping[int, int],
    room: int,
) -> Block:
    """A pile, labelled with its name and its seat's name, or (a side's pile, which the game
    gives to the side's first seat) its side's mark."""
    owner = ""
    mark = None
    anchor = (WIDTH // 2, HEIGHT // 2)
    if pile.seat is not None:
        mark = _side_mark(view, pile.seat) if pile.key.endswith(SIDE_PILE) else None
        owner = "" if mark else _plain(text.plain_seat(pile.seat))
        anchor = _toward_centre(spots[place_of[pile.seat]][0])
    cards = _families(pile.cards)
    short = pile.key + "_short"  # a side's pile after its mark: ``● Stick``
    label = _plain(text.t(short if mark and text.catalog.has(short) else pile.key))
    return Block(pile.key, label, cards, pile.hidden, anchor, room, owner, mark)


SIDE_PILE = ".side_tricks"
"""The key's end of a pile that is a side's (its seat is the side's first), not one seat's."""

MARKS = ("circle", "diamond", "square")
MARK_W = 16
"""A side's mark: its shape by side, its size, as on the plates and before a side's pile."""


def _side_mark(view: View, seat: int) -> tuple[str, RGB] | None:
    """The shape and colour of the mark of ``seat``'s side; None where seats play alone."""
    for side, team in enumerate(view.teams):
        if seat in team:  # partners share a colour and a shape
            return (MARKS[side % 3], TEAM_COLOURS[side % 3])
    return None


TURN_BOX = (60, 52, 14)
"""The plate of a seat whose turn it is, under its bright frame."""


def _seat_ops(
    view: View, text: TextRenderer, seat: int, box: Rect, one_line: bool, short: bool = False
) -> tuple[list[Op], bool]:
    """A seat's plate: a side's mark, the name and the dealer's chip; under them (or after them
    on a wide plate) small pictures of a hand and of won tricks with their counts, and the score
    where the game has one (in short where it must be, or where ``short`` says so). A bright
    frame and a bright name on whose turn it is. And whether the score is said in short."""
    turn = seat in view.to_act
    x0, y0, x1, _ = box
    ops: list[Op] = [
        BoxOp(box, TURN_BOX if turn else BOX, HIGHLIGHT if turn else BOX_LINE, 4 if turn else 2, 8)
    ]
    line_y = y0 + 1 if one_line else y0 - 1
    caps = line_y + (line_height(NAME_PX) - NAME_PX) // 2 + 3  # where a capital's top lies
    left = x0 + 7
    side = _side_mark(view, seat)
    if side is not None:
        ops.append(MarkOp(side[0], (left, caps, left + MARK_W, caps + MARK_W), side[1]))
        left += MARK_W + 5
    right = x1 - 6
    chip: list[Op] = []
    if view.dealer == seat:
        letter = _plain(text.t("view.dealer_mark"))[:1].upper()
        disc = (right - 26, caps - 5, right, caps + 21)
        w = text_width(letter, FACT_PX, True)
        chip.append(MarkOp("chip", disc, CHIP))
        chip.append(TextOp(letter, right - 13 - w // 2, line_y - 1, FACT_PX, CHIP_INK, True))
        right -= 30
    facts = _facts(view, text, seat)
    facts_w = _facts_width(facts)
    name_w = text_width(_plain(text.plain_seat(seat)), NAME_PX, True)
    crowded = facts_w > x1 - x0 - 12 if not one_line else name_w > right - left - facts_w - 12
    if crowded and len(facts) == 3:
        # a narrow plate (a crowded table), or a wide one with a long score beside the name,
        # keeps the cards in hand and the score
        facts = [facts[0], facts[2]]
        facts_w = _facts_width(facts)
    # the counts are never cut: where they are still too wide, the score is said short
    # (``3 fam.``), and last, the counts that do not fit are left out (the name gives way to
    # them on a wide plate, down to a few letters)
    limit = x1 - x0 - 12 if not one_line else right - left - 12 - min(name_w, 60)
    if facts_w > limit or short:
        shorter = _facts(view, text, seat, short=True)
        facts = [shorter[0], shorter[-1]] if len(facts) < len(shorter) else shorter
        facts_w = _facts_width(facts)
        short = shorter != _facts(view, text, seat)
    while facts_w > limit and len(facts) > 1:
        facts = facts[:-1]
        facts_w = _facts_width(facts)
    if one_line:
        name = _fit(text.plain_seat(seat), NAME_PX, right - left - facts_w - 12, True)
        x, fy = right - facts_w, line_y
    else:
        name = _fit(text.plain_seat(seat), NAME_PX, right - left, True)
        x, fy = x0 + 7, line_y + line_height(NAME_PX)
    ops.append(TextOp(name, left, line_y, NAME_PX, HIGHLIGHT if turn else INK, True))
    ops.extend(chip)
    icon_y = fy + (line_height(FACT_PX) - FACT_PX) // 2 + 3
    for icon, words, _ in facts:
        if icon:
            ops.append(MarkOp(icon, (x, icon_y, x + ICON_W[icon], icon_y + 17), INK))
            x += ICON_W[icon] + 3
        ops.append(TextOp(words, x, fy, FACT_PX, INK))
        x += text_width(words, FACT_PX) + 8
    return ops, short


ICON_W = {"back": 12, "tricks": 16}


def _facts_width(facts: Sequence[tuple[str, str, int]]) -> int:
    return sum(w for _, _, w in facts) + 8 * (len(facts) - 1)


def _facts(
    view: View, text: TextRenderer, seat: int, short: bool = False
) -> list[tuple[str, str, int]]:
    """A seat's counts: (its icon, its words, their width with the icon): cards in hand, tricks
    won where the game counts them, the score where it has one (``short``: in its short words,
    ``12 p``, ``3 fam.``, where the game has them)."""
    info = view.seats[seat]
    facts = [("back", str(info.cards))]
    if info.tricks is not None:
        facts.append(("tricks", str(info.tricks)))
    score = seat_score(text.catalog, view.game, info.score)
    if score is not None and short:
        own = f"{view.game}.seat_score"
        if text.catalog.has(own + "_short"):
            score = text.catalog.text(own + "_short", score=info.score)
        elif not text.catalog.has(own):
            score = text.catalog.text("view.score_short", score=info.score)
    if score is not None:
        facts.append(("", _plain(score)))
    return [
        (icon, words, text_width(words, FACT_PX) + (ICON_W[icon] + 3 if icon else 0))
        for icon, words in facts
    ]


# --- the hand -------------------------------------------------------------------------------------


HAND_MARGIN = 8
HAND_RAISE = 12


def hand_plan(
    cards: Sequence[int],
    playable: Sequence[int] = (),
    marked: Sequence[int] = (),
    mark: str = "",
    ranks: Mapping[str, str] = ENGLISH_RANKS,
    joker_as: int | None = None,
) -> Plan:
    """A hand in the given order (the panel's): in one row while its ranks stay clear, else in as
    many even rows as it needs; the cards that may be played now raised and the others dimmed
    while some may be; a ``marked`` card framed and named (``mark``) under its row."""
    cards = list(cards)
    width = HAND_W
    height = card_height(width)
    step = _fan_step(ranks, width)
    room = WIDTH - 2 * HAND_MARGIN
    per_row_max = (room - width) // step + 1
    rows = max(1, math.ceil(len(cards) / per_row_max))
    per_row = max(1, math.ceil(len(cards) / rows))
    step = min(width + 6, max(step, (room - width) // max(per_row - 1, 1)))
    raise_by = HAND_RAISE if playable else 0
    caption = line_height(FACT_PX) + 2 if any(c in marked for c in cards) else 0
    row_h = height + raise_by + caption + 6
    plan = Plan(WIDTH, 2 * HAND_MARGIN + rows * row_h - 6)
    for r in range(rows):
        row = cards[r * per_row : (r + 1) * per_row]
        span = (len(row) - 1) * step + width
        x0 = (WIDTH - span) // 2
        top = HAND_MARGIN + r * row_h
        for i, c in enumerate(row):
            lifted = c in playable
            y = top + (0 if lifted or not playable else raise_by)
            plan.ops.append(
                CardOp(
                    c,
                    x0 + i * step,
                    y,
                    width,
                    _index(c, ranks),
                    joker_as,
                    bool(playable) and not lifted,
                )
            )
        for i, c in enumerate(row):  # over the cards beside it, so it shows even when overlapped
            if c in marked:
                x, y = x0 + i * step, top + (0 if c in playable or not playable else raise_by)
                plan.ops.append(BoxOp((x - 3, y - 3, x + width + 2, y + height + 2), None, MARK, 6))
                label = _fit(mark, FACT_PX, WIDTH - x - 4, True)
                plan.ops.append(TextOp(label, x, top + height + raise_by + 4, FACT_PX, INK, True))
    return plan


# --- painting -------------------------------------------------------------------------------------


@functools.cache
def _felt(width: int, height: int, table: bool) -> Image.Image:
    """The cloth: for a table, a lighter oval of felt inside a wooden rim."""
    image = Image.new("RGB", (width, height), FELT)
    if table:
        draw = ImageDraw.Draw(image)
        inset = 14
        draw.rounded_rectangle(
            (inset, inset, width - inset, height - inset),
            radius=(height - 2 * inset) // 2,
            fill=FELT_LIGHT,
            outline=RIM,
            width=5,
        )
    return image


@functools.lru_cache(maxsize=2048)  # a few tens of megabytes at most
def _text_piece(text: str, size: int, bold: bool, colour: RGB) -> Image.Image:
    f = font(size, bold)
    image = Image.new("RGBA", (text_width(text, size, bold) + 4, line_height(size)), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((0, 0), text, font=f, fill=colour)
    return image


@functools.cache
def _suit_piece(suit: int, size: int, colour: RGB) -> Image.Image:
    s = SUPERSAMPLE
    r = size // 2 + 6
    image = Image.new("RGBA", (2 * r * s, 2 * r * s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, 2 * r * s - 1, 2 * r * s - 1), fill=CHIP)
    draw_suit(draw, suit, r * s, r * s, size * s, colour)
    return image.resize((2 * r, 2 * r), Image.Resampling.LANCZOS)


def _paint(plan: Plan, table: bool, four_colour: bool) -> Image.Image:
    """The plan on a copy of the felt: every piece drawn once, cached and pasted (as its
    :func:`_parts`)."""
    pieces = [_piece(op, four_colour) for op in plan.ops]
    return _painted(pieces, _felt(plan.width, plan.height, table), (0, 0, plan.width, plan.height))


Placed = tuple[Image.Image, int, int]
"""A piece and where its top-left corner goes (:func:`_piece`)."""


def _painted(pieces: Sequence[Placed], felt: Image.Image, clip: Rect) -> Image.Image:
    """The part ``clip`` of a picture: the pieces over it, in order, pasted onto that part of
    the felt; a piece reaching outside it is cut at its edge (Pillow's paste leaves out what
    falls off the canvas), so each pixel is the one the whole picture has there. The parts are
    pasted by Pillow's core (``Image.im``), as ``Image.paste`` pastes them once it has checked
    its arguments: every part is an image made here, of the canvas's mode or RGBA, with a mask
    of its size, so the checks (a third of the painting's time) have nothing to find."""
    left0, top0 = clip[:2]
    canvas = felt.crop(clip) if clip != (0, 0, *felt.size) else felt.copy()
    core = canvas.im
    for piece, x, y in pieces:
        for part, dx, dy, mask in _parts(piece):
            left, top = x + dx - left0, y + dy - top0
            box = (left, top, left + part.width, top + part.height)
            if mask is None:
                core.paste(part.im, box)
            else:
                core.paste(part.im, box, mask.im)
    return canvas


@dataclass(slots=True)
class _Shown:
    """A table's latest picture, on the palette, the pieces it was painted from (held, so that
    no piece's ``id`` is reused while it is kept), and each one's key (:func:`_changed`)."""

    pieces: list[Placed]
    keys: list[tuple[int, int, int]]
    indexed: Image.Image


_SHOWN: dict[int, _Shown] = {}
TABLES_SHOWN = 256
"""Tables whose latest picture is kept (:func:`_repainted`), the latest drawn: 144 kB each, so
some 37 MB in all; a table beyond them is painted whole, as after a restart."""
REPAINT_SHARE = 0.6
"""Above this share of the picture changed, it is painted whole: as cheap, and simpler."""


def _repainted(table: int, plan: Plan, four_colour: bool) -> Image.Image:
    """The table's picture of ``plan``, on the palette, painted only where it differs from the
    table's latest picture: its pictures follow one another, and with its piles kept in place
    (:data:`_LAID`) a card played changes a few of its pieces, a fifth of the felt or so.
    Where a piece came or went, that rectangle is painted afresh from the felt with every piece
    over it, in order, and mapped onto the palette again; the rest is the latest picture's. So
    each pixel is the one painting and mapping the whole picture gives, in a fraction of the
    time. Painted whole for a table's first picture (none is kept: :data:`TABLES_SHOWN`), when
    its size changed, when pieces kept changed their order, and where most of it changed."""
    pieces = [_piece(op, four_colour) for op in plan.ops]
    keys = [(id(piece), x, y) for piece, x, y in pieces]
    felt = _felt(plan.width, plan.height, True)
    last = _SHOWN.pop(table, None)
    changed = None
    if last is not None and last.indexed.size == felt.size:
        changed = _changed(last, pieces, keys)
    if last is None or changed is None:
        indexed = _indexed(_painted(pieces, felt, (0, 0, *felt.size)))
    else:
        indexed = last.indexed  # the latest picture's bytes were made: it is changed in place
        sizes = [piece.size for piece, _, _ in pieces]
        for rect in changed:
            over = [
                (piece, x, y)
                for (piece, x, y), (w, h) in zip(pieces, sizes, strict=True)
                if _overlaps((x, y, x + w, y + h), rect)
            ]
            indexed.paste(_indexed(_painted(over, felt, rect)), rect[:2])
    if len(_SHOWN) >= TABLES_SHOWN:
        del _SHOWN[next(iter(_SHOWN))]  # the longest undrawn
    _SHOWN[table] = _Shown(pieces, keys, indexed)
    return indexed


def _changed(
    last: _Shown, pieces: list[Placed], keys: list[tuple[int, int, int]]
) -> list[Rect] | None:
    """Where a picture of ``pieces`` differs from ``last``: the rectangles of the pieces that
    came or went, merged where they overlap, cut to the picture; None where pieces in both
    lie in another order (one now over another that it was under, or one twice where it was
    once), or where the rectangles cover more than :data:`REPAINT_SHARE` of it. A piece is the
    same where it is the same image (pieces are drawn once and cached) at the same place: its
    key, ``(id, x, y)``."""
    if keys == last.keys:
        return []
    before, now = set(last.keys), set(keys)
    if [k for k in last.keys if k in now] != [k for k in keys if k in before]:
        return None
    width, height = last.indexed.size
    merged: list[Rect] = []
    for (piece, x, y), key, other in [
        *zip(last.pieces, last.keys, itertools.repeat(now)),
        *zip(pieces, keys, itertools.repeat(before)),
    ]:
        if key in other:
            continue
        rect = (max(x, 0), max(y, 0), min(x + piece.width, width), min(y + piece.height, height))
        if rect[0] >= rect[2] or rect[1] >= rect[3]:
            continue
        i = 0
        while i < len(merged):  # grown over a rectangle, it is checked against all again
            if _overlaps(merged[i], rect):
                a0, b0, a1, b1 = merged.pop(i)
                rect = (min(rect[0], a0), min(rect[1], b0), max(rect[2], a1), max(rect[3], b1))
                i = 0
            else:
                i += 1
        merged.append(rect)
    area = sum((r[2] - r[0]) * (r[3] - r[1]) for r in merged)
    return None if area > REPAINT_SHARE * width * height else merged


def _piece(op: Op, four_colour: bool) -> Placed:
    """What ``op`` pastes (RGBA, drawn once and cached), and where its top-left corner goes."""
    if isinstance(op, CardOp):
        if op.card == BACK:
            return back_image(op.width), op.x, op.y
        piece = card_image(op.card, op.width, four_colour, op.index, op.joker_as, op.dim)
        return piece, op.x, op.y
    x0, y0, x1, y1 = op.rect
    if isinstance(op, TextOp):
        piece = _text_piece(op.text, op.size, op.bold, op.colour)
    elif isinstance(op, BoxOp):
        piece = _box_piece(x1 - x0, y1 - y0, op.fill, op.outline, op.line, op.radius)
    elif isinstance(op, SuitOp):
        colours = FOUR_COLOURS if four_colour else TWO_COLOURS
        piece = _suit_piece(op.suit, op.size, colours[op.suit])
    else:
        piece = _mark_piece(op.shape, x1 - x0, y1 - y0, op.colour)
    return piece, x0, y0


Part = tuple[Image.Image, int, int, Image.Image | None]

_PARTS: dict[int, tuple[Image.Image, tuple[Part, ...]]] = {}
PARTS_KEPT = 8192
"""Pieces whose parts are kept, by the piece (held, so that its ``id`` is not reused)."""


def _parts(piece: Image.Image) -> tuple[Part, ...]:
    """A piece (RGBA) as the parts that paste it alike, each (image, dx, dy, mask), cheaper
    than one paste through its alpha, which blends every pixel: its clear margins are left
    out; where its alpha is only clear or solid (a plate, a mark) it is copied through a
    one-bit mask; else (a card's smoothed edge, a text) the solid rectangle inside it is copied
    with no mask and only the strips around it are blended. Worked out once per piece."""
    kept = _PARTS.get(id(piece))
    if kept is not None and kept[0] is piece:
        return kept[1]
    parts = _split(piece)
    if len(_PARTS) >= PARTS_KEPT:  # the oldest goes (a replay draws in a thread of its own)
        _PARTS.pop(next(iter(_PARTS)), None)
    _PARTS[id(piece)] = (piece, parts)
    return parts


def _split(piece: Image.Image) -> tuple[Part, ...]:
    """:func:`_parts`, worked out."""
    alpha = piece.getchannel("A")
    box = alpha.getbbox()
    if box is None:
        return ()
    x0, y0 = box[:2]
    piece, alpha = piece.crop(box), alpha.crop(box)
    histogram = alpha.histogram()
    if sum(histogram[1:255]) == 0:  # clear or solid only
        return ((piece.convert("RGB"), x0, y0, alpha.convert("1")),)
    core = _solid_core(alpha)
    if core is None:
        return ((piece, x0, y0, piece),)
    left, top, right, bottom = core
    w, h = piece.size
    parts: list[Part] = [(piece.crop(core).convert("RGB"), x0 + left, y0 + top, None)]
    for strip in (
        (0, 0, w, top),
        (0, bottom, w, h),
        (0, top, left, bottom),
        (right, top, w, bottom),
    ):
        if strip[0] < strip[2] and strip[1] < strip[3]:
            cut = piece.crop(strip)
            parts.append((cut, x0 + strip[0], y0 + strip[1], cut))
    return tuple(parts)


def _solid_core(alpha: Image.Image) -> Rect | None:
    """The solid rectangle about the middle of a piece's alpha: the middle row's solid run,
    grown up and down while the rows stay solid over it; None where the middle is not solid
    or the core would be small."""
    w, h = alpha.size
    row = alpha.crop((0, h // 2, w, h // 2 + 1)).tobytes()
    middle = w // 2
    if row[middle] != 255:
        return None
    left = middle
    while left > 0 and row[left - 1] == 255:
        left -= 1
    right = middle + 1
    while right < w and row[right] == 255:
        right += 1

    def solid(y: int) -> bool:
        return alpha.crop((left, y, right, y + 1)).getextrema()[0] == 255

    top = h // 2
    while top > 0 and solid(top - 1):
        top -= 1
    bottom = h // 2 + 1
    while bottom < h and solid(bottom):
        bottom += 1
    if (right - left) * (bottom - top) < w * h // 3:
        return None
    return (left, top, right, bottom)


@functools.lru_cache(maxsize=256)
def _box_piece(
    width: int, height: int, fill: RGB | None, outline: RGB, line: int, radius: int
) -> Image.Image:
    image = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    ImageDraw.Draw(image).rounded_rectangle((0, 0, width, height), radius, fill, outline, line)
    return image


@functools.lru_cache(maxsize=256)
def _mark_piece(shape: str, width: int, height: int, colour: RGB) -> Image.Image:
    image = Image.new("RGBA", (width + 1, height + 1), (0, 0, 0, 0))
    _mark(ImageDraw.Draw(image), MarkOp(shape, (0, 0, width, height), colour))
    return image


def _mark(draw: ImageDraw.ImageDraw, op: MarkOp) -> None:
    x0, y0, x1, y1 = op.rect
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if op.shape in ("circle", "chip"):
        draw.ellipse(op.rect, fill=op.colour)
    elif op.shape == "diamond":
        draw.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=op.colour)
    elif op.shape == "square":
        draw.rectangle(op.rect, fill=op.colour)
    elif op.shape == "tricks":  # two won tricks, face down and squared off
        draw.rectangle(
            (x0 + 4, y0, x1, y1 - 4), fill=(30, 70, 150), outline=(250, 250, 250), width=2
        )
        draw.rectangle(
            (x0, y0 + 4, x1 - 4, y1), fill=(30, 70, 150), outline=(250, 250, 250), width=2
        )
    elif op.shape == "back":  # a card back in small, before the count of cards in hand
        draw.rounded_rectangle(op.rect, 3, fill=(30, 70, 150), outline=(250, 250, 250), width=2)
    else:
        raise ValueError(op.shape)


@functools.cache
def _palette() -> Image.Image:
    """The one palette every picture is written with: the colours of the felt, the plates, the
    inks and the cards (faces in both decks, backs, the joker) and their edges, found once."""
    swatch = _felt(WIDTH, 120, True).copy()
    draw = ImageDraw.Draw(swatch)
    draw.rectangle((0, 60, 300, 120), fill=BOX)
    for i, colour in enumerate((INK, DIM_INK, HIGHLIGHT, CHIP_INK, MARK, *TEAM_COLOURS)):
        for j in range(2):  # on the felt and on a plate
            piece = _text_piece("Åg 10", FACT_PX, True, colour)
            swatch.paste(piece, (8 + i * 60, 4 + j * 64), piece)
    cards = [
        card_image(c, PILE_W, four, "K") for c in (0, 13, 26, 39, JOKER) for four in (True, False)
    ]
    cards += [card_image(c, PILE_W, True, "K", None, True) for c in (0, 13, 26, 39)]
    cards += [back_image(PILE_W), card_image(JOKER, PILE_W, True, "", 0)]
    sheet = Image.new("RGB", (len(cards) * 40 + 40, card_height(PILE_W) + 20), FELT)
    for i, face in enumerate(cards):
        sheet.paste(face, (10 + i * 40, 10), face)
    whole = Image.new("RGB", (max(WIDTH, sheet.width), 120 + sheet.height), FELT)
    whole.paste(swatch, (0, 0))
    whole.paste(sheet, (0, 120))
    return whole.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def _png(image: Image.Image) -> bytes:
    """A small PNG, cheaply: the picture on the fixed palette (8 bits a pixel, no per-picture
    quantising), its rows unfiltered and deflated by ISA-L at its fastest level (six times
    faster than zlib's fastest, and a little smaller: 0.07 ms against 0.4 for a table)."""
    return _encoded(_indexed(image))


def _indexed(image: Image.Image) -> Image.Image:
    """The picture on the fixed palette: each pixel its nearest colour's index."""
    return image.quantize(palette=_palette(), dither=Image.Dither.NONE)


def _encoded(indexed: Image.Image) -> bytes:
    """A picture on the fixed palette (:func:`_indexed`) as a PNG (:func:`_png`)."""
    width, height = indexed.size
    # each row led by its filter type, 0 (none): the rows written a byte wider, which Pillow
    # fills with 0 after each row, and shifted by one
    rows = b"\x00" + indexed.tobytes("raw", "P", width + 1)[:-1]
    head = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette image
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", head),
            _chunk(b"PLTE", _palette_bytes()),
            _chunk(b"IDAT", isal_zlib.compress(rows, 1)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@functools.cache
def _palette_bytes() -> bytes:
    colours = _palette().getpalette() or []
    return bytes(colours[: 3 * 256])


def table_png(
    view: View,
    text: TextRenderer,
    trump_line: str | None,
    four_colour: bool = True,
    table: int | None = None,
) -> bytes:
    """The table picture of ``view`` (:func:`table_plan`), as a PNG; of a ``table`` whose
    pictures follow one another (its message), with its piles where its last picture laid them
    (:data:`_LAID`), painted only where it changed (:func:`_repainted`)."""
    plan = _planned(view, text, trump_line, table)
    if table is None:
        return _png(_paint(plan, True, four_colour))
    return _encoded(_repainted(table, plan, four_colour))


_PLANNED: dict[tuple[object, ...], tuple[View, Plan]] = {}
PLANS_KEPT = 64
_LAID: dict[int, dict[Spot, tuple[int, int, int]]] = {}
"""Where each table's pictures last laid its trump and its groups of cards, by table: one that
is not in its latest picture (the last trick, between tricks) keeps its place for when it
returns. Lost on a restart, when the next picture lays the felt afresh."""
TABLES_LAID = 16384
"""Tables whose layout is kept, the latest drawn: a few hundred bytes each."""


def _planned(view: View, text: TextRenderer, trump_line: str | None, table: int | None) -> Plan:
    """:func:`table_plan`, planned once for the picture and the text beside it: the same view
    (the same object: a table works its views out once per state) in the same words, of the
    same table."""
    ranks = tuple(text.faces.ranks.items())
    key = (id(view), trump_line, id(text.catalog), tuple(text.names), text.markup, ranks, table)
    kept = _PLANNED.get(key)
    if kept is not None and kept[0] is view:
        return kept[1]
    if table is None:
        plan = table_plan(view, text, trump_line)
    else:
        laid = _LAID.pop(table, {})
        plan = table_plan(view, text, trump_line, laid=laid)
        laid.update(plan.laid)
        if len(_LAID) >= TABLES_LAID:
            del _LAID[next(iter(_LAID))]  # the longest undrawn
        _LAID[table] = laid
    if len(_PLANNED) >= PLANS_KEPT:
        del _PLANNED[next(iter(_PLANNED))]  # the oldest
    _PLANNED[key] = (view, plan)
    return plan


def table_untold(
    view: View, text: TextRenderer, trump_line: str | None, table: int | None = None
) -> list[str]:
    """What the table picture of ``view`` (of ``table``, :func:`table_png`) has no room for (a
    crowded table's piles, the last trick, shown hands), one line each, for the text beside it
    to say instead."""
    return _planned(view, text, trump_line, table).untold


def hand_png(
    cards: Sequence[int],
    playable: Sequence[int] = (),
    marked: Sequence[int] = (),
    mark: str = "",
    four_colour: bool = True,
    ranks: Mapping[str, str] = ENGLISH_RANKS,
    joker_as: int | None = None,
) -> bytes:
    """The hand picture (:func:`hand_plan`), as a PNG: laid from cards already on the
    palette (:func:`_laid`) where it can be, else painted."""
    plan = hand_plan(cards, playable, marked, mark, ranks, joker_as)
    laid = _laid(plan, four_colour)
    return _encoded(laid if laid is not None else _indexed(_paint(plan, False, four_colour)))


def _laid(plan: Plan, four_colour: bool) -> Image.Image | None:
    """A hand's picture on the palette, each card's tile (the card on the bare felt, mapped onto
    the palette once) copied onto the felt's colour, where the plan holds only cards and none
    touches another: each pixel is then the one painting and mapping the whole picture gives,
    for no pixel of a card is blended with anything but the felt, in half the time. None where
    a card is framed and named, or cards overlap (a long hand's fan)."""
    cards = [op for op in plan.ops if isinstance(op, CardOp)]
    if len(cards) < len(plan.ops):
        return None
    rects = [(op.x, op.y, op.x + op.width, op.y + card_height(op.width)) for op in cards]
    for i, rect in enumerate(rects):
        if any(_overlaps(rect, other) for other in rects[i + 1 :]):
            return None
    canvas = Image.new("P", (plan.width, plan.height), _felt_index())
    for op, rect in zip(cards, rects, strict=True):
        canvas.paste(_tile(op.card, op.width, four_colour, op.index, op.joker_as, op.dim), rect)
    return canvas


@functools.cache
def _felt_index() -> int:
    """The palette's index of the bare felt's colour."""
    index = _indexed(Image.new("RGB", (1, 1), FELT)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


@functools.lru_cache(maxsize=1024)  # a few kilobytes each: every card of both decks, dimmed too
def _tile(
    card: int, width: int, four_colour: bool, index: str, joker_as: int | None, dim: bool
) -> Image.Image:
    """A card on the bare felt, on the palette (:func:`_laid`)."""
    piece = (
        back_image(width)
        if card == BACK
        else card_image(card, width, four_colour, index, joker_as, dim)
    )
    felt = Image.new("RGB", piece.size, FELT)
    felt.paste(piece, (0, 0), piece)
    return _indexed(felt)
