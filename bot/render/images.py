"""Card pictures: the table image under the table message's embed and the hand image of a panel.

The art is the project's own, drawn with Pillow: white cards with large indices (a rank and a suit
in the top corner, readable at the size Discord shows an embed image on a phone) and a big suit in
the middle; a four-colour deck by default (♠ black, ♥ red, ♦ blue, ♣ green; ``four_colour=False``
gives the printed deck's red and black), a blue back, and the joker. Each card is drawn once and
cached; a picture is composed per state, from a :class:`~games.core.View` only, so the table image
is built from the same spectator view as the embed and can never show a card hidden from it.

Pure and synchronous: the listener calls :func:`table_png` and :func:`hand_png` in a worker
thread. The only font is the one committed beside this module, so a picture looks the same on every
machine.
The text beside a picture stays the source of truth (screen readers, search).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.render.text import (
    ENGLISH_RANKS,
    LAST_TRICK,
    TextRenderer,
    sort_hand,
    table_piles,
    trick_text,
)
from games.cards import JOKER, RANKS, suit_of
from games.core import View

MAX_BYTES = 1_000_000
"""A picture's ceiling (Discord allows far more; a table image is a few tens of kilobytes)."""
CARD_W, CARD_H = 100, 140
SMALL_W, SMALL_H = 70, 98
WIDTH = 800
MARGIN = 16
FELT = (22, 92, 58)
FELT_DARK = (15, 66, 42)
INK = (240, 240, 232)
HIGHLIGHT = (255, 214, 90)
SUPERSAMPLE = 3

FOUR_COLOURS = {0: (20, 140, 50), 1: (25, 95, 210), 2: (205, 25, 35), 3: (20, 20, 20)}
TWO_COLOURS = {0: (20, 20, 20), 1: (205, 25, 35), 2: (205, 25, 35), 3: (20, 20, 20)}


FONT = Path(__file__).parent / "fonts" / "NotoSans-Kortbord.ttf"


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Noto Sans (SIL Open Font License, in ``fonts/``, cut down to Latin) at ``size`` pixels."""
    face = ImageFont.truetype(str(FONT), size)
    face.set_variation_by_name("Bold" if bold else "Regular")
    return face


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


# --- cards ----------------------------------------------------------------------------------------


@functools.cache
def card_image(
    card: int, width: int = CARD_W, four_colour: bool = True, index: str = ""
) -> Image.Image:
    """One card's face, drawn once per card, size, deck and index and then reused. ``index`` is
    the rank printed in the corner in the table's language (``Kn``, ``D``); English by default."""
    s = SUPERSAMPLE
    w, h = width * s, round(width * 1.4) * s
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, w - 1, h - 1),
        radius=w // 10,
        fill=(252, 252, 248),
        outline=(90, 90, 90),
        width=s * 2,
    )
    if card == JOKER:
        draw.text((w * 0.08, h * 0.04), "JK", font=font(int(w * 0.26)), fill=(120, 40, 160))
        star = [(w / 2, h * 0.38), (w * 0.6, h * 0.55), (w / 2, h * 0.72), (w * 0.4, h * 0.55)]
        draw.polygon(star, (230, 160, 20))
        draw.ellipse((w * 0.42, h * 0.49, w * 0.58, h * 0.61), (120, 40, 160))
        text = "JOKER"
        f = font(int(w * 0.16))
        tw = draw.textlength(text, font=f)
        draw.text(((w - tw) / 2, h * 0.78), text, font=f, fill=(120, 40, 160))
    else:
        suit = suit_of(card)
        colour = (FOUR_COLOURS if four_colour else TWO_COLOURS)[suit]
        label = index or ENGLISH_RANKS[RANKS[card % 13]]
        f = font(int(w * (0.36 if len(label) > 1 else 0.42)), bold=True)
        draw.text((w * 0.07, h * 0.015), label, font=f, fill=colour)
        draw_suit(draw, suit, w * 0.2, h * 0.47, w * 0.26, colour)
        draw_suit(draw, suit, w * 0.64, h * 0.68, w * 0.5, colour)
    return image.resize((width, round(width * 1.4)), Image.Resampling.LANCZOS)


@functools.cache
def back_image(width: int = CARD_W) -> Image.Image:
    """The back of a card: a blue lattice in a white border."""
    s = SUPERSAMPLE
    w, h = width * s, round(width * 1.4) * s
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
    return image.resize((width, round(width * 1.4)), Image.Resampling.LANCZOS)


# --- composing ------------------------------------------------------------------------------------


def _png(image: Image.Image) -> bytes:
    """A small PNG: 64 colours are plenty for cards on felt (a table is a few kilobytes)."""
    out = io.BytesIO()
    small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.FASTOCTREE)
    small.save(out, "PNG")
    return out.getvalue()


def _plain(text: str) -> str:
    """Text the font can draw: emoji and other symbols outside Latin are left out."""
    kept = "".join(ch for ch in text if ord(ch) < 0x180 or ch in "–—‘’“”•…×−▶")
    return " ".join(kept.split()) or "?"


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: float) -> str:
    text = _plain(text)
    while text and draw.textlength(text, font=font(size)) > width:
        text = text[:-2] + "…" if len(text) > 2 else text[:-1]
    return text


def _index(card: int, ranks: Mapping[str, str]) -> str:
    """The rank printed on ``card`` with the given rank indices (none on the joker)."""
    return "" if card == JOKER else ranks[RANKS[card % 13]]


def _row(
    canvas: Image.Image,
    cards: Sequence[int],
    x: int,
    y: int,
    width: int,
    room: int,
    four: bool,
    ranks: Mapping[str, str] = ENGLISH_RANKS,
) -> int:
    """Cards side by side from (x, y), overlapping to fit ``room`` pixels; the right edge."""
    if not cards:
        return x
    step = min(width + 6, max(width // 3, (room - width) // max(len(cards) - 1, 1)))
    for i, c in enumerate(cards):
        face = card_image(c, width, four, _index(c, ranks))
        canvas.alpha_composite(face, (x + i * step, y))
    return x + (len(cards) - 1) * step + width


def table_png(
    view: View, text: TextRenderer, trump_line: str | None, four_colour: bool = True
) -> bytes:
    """The table as ``view`` shows it (the spectator's view): a box per seat with its name, cards
    in hand (a back and a count), tricks, score and face-up cards; the trick as played with who
    played each card (else the last trick); the trump; the piles."""
    seats = len(view.seats)
    per_row = min(seats, 4)
    box_w = (WIDTH - MARGIN * (per_row + 1)) // per_row
    shown_w = 48
    box_h = 132 + (round(shown_w * 1.4) + 8 if any(info.shown for info in view.seats) else 0)
    seat_rows = (seats + per_row - 1) // per_row
    shown_piles = [p for p in table_piles(view) if p.cards or p.hidden]
    height = (
        MARGIN
        + 40
        + seat_rows * (box_h + MARGIN)
        + (CARD_H + 70)
        + len(shown_piles) * (SMALL_H + 44)
        + MARGIN
    )
    canvas = Image.new("RGBA", (WIDTH, height), (*FELT, 255))
    draw = ImageDraw.Draw(canvas)
    head = _fit(draw, text.t("view.deal", deal=view.deal), 30, WIDTH / 3)
    draw.text((MARGIN, MARGIN), head, font=font(30), fill=INK)
    if trump_line:  # the trump's name and its suit drawn as on the cards
        x = MARGIN + draw.textlength(head + "   ", font=font(30))
        label = _fit(draw, trump_line, 30, WIDTH - x - 60)
        draw.text((x, MARGIN), label, font=font(30, bold=True), fill=INK)
        if view.trump is not None:
            x += draw.textlength(label, font=font(30, bold=True)) + 24
            draw.ellipse((x - 20, MARGIN - 2, x + 20, MARGIN + 38), fill=(252, 252, 248))
            colour = (FOUR_COLOURS if four_colour else TWO_COLOURS)[view.trump]
            draw_suit(draw, view.trump, x, MARGIN + 18, 28, colour)
    y = MARGIN + 44
    for seat, info in enumerate(view.seats):
        col, row = seat % per_row, seat // per_row
        x0 = MARGIN + col * (box_w + MARGIN)
        y0 = y + row * (box_h + MARGIN)
        turn = seat in view.to_act
        draw.rounded_rectangle(
            (x0, y0, x0 + box_w, y0 + box_h),
            radius=12,
            fill=FELT_DARK,
            outline=HIGHLIGHT if turn else (60, 120, 85),
            width=5 if turn else 2,
        )
        name = text.seat(seat)
        draw.text(
            (x0 + 10, y0 + 6),
            _fit(draw, name, 28, box_w - 20),
            font=font(28),
            fill=HIGHLIGHT if turn else INK,
        )
        back = back_image(48)
        canvas.alpha_composite(back, (x0 + 10, y0 + 44))
        draw.text((x0 + 10 + back.width + 8, y0 + 46), f"× {info.cards}", font=font(30), fill=INK)
        facts = []
        if info.tricks is not None:
            facts.append(text.t("view.tricks", count=info.tricks))
        facts.append(text.t("view.score", score=info.score))
        draw.text(
            (x0 + 10 + back.width + 8, y0 + 84),
            _fit(draw, " · ".join(facts), 24, box_w - back.width - 30),
            font=font(24),
            fill=INK,
        )
        if info.shown:
            top = y0 + box_h - round(shown_w * 1.4) - 8
            shown = sort_hand(info.shown)
            ranks = text.faces.ranks
            _row(canvas, shown, x0 + 10, top, shown_w, box_w - 20, four_colour, ranks)
    y += seat_rows * (box_h + MARGIN)
    trick = trick_text(text, view)
    if trick is not None:
        draw.text(
            (MARGIN, y), _fit(draw, trick[0], 26, WIDTH - 2 * MARGIN), font=font(26), fill=INK
        )
        y += 34
        if view.trick:
            plays = list(view.trick)
        else:
            last = next(p for p in view.piles if p.key == LAST_TRICK)
            plays = [(-1, c) for c in last.cards]
        step = min(CARD_W + 24, (WIDTH - 2 * MARGIN) // max(len(plays), 1))
        width = min(CARD_W, step - 8)
        for i, (seat, c) in enumerate(plays):
            x = MARGIN + i * step
            face = card_image(c, width, four_colour, _index(c, text.faces.ranks))
            canvas.alpha_composite(face, (x, y))
            if seat >= 0:
                draw.text(
                    (x, y + round(width * 1.4) + 2),
                    _fit(draw, text.seat(seat), 22, step - 4),
                    font=font(22),
                    fill=INK,
                )
        y += CARD_H + 36
    for pile in shown_piles:
        label = text.t(pile.key) + (f" ({text.seat(pile.seat)})" if pile.seat is not None else "")
        draw.text((MARGIN, y), _fit(draw, label, 24, WIDTH - 2 * MARGIN), font=font(24), fill=INK)
        y += 30
        room = WIDTH - 2 * MARGIN - 140
        x = _row(canvas, list(pile.cards), MARGIN, y, SMALL_W, room, four_colour, text.faces.ranks)
        if pile.hidden:
            x += 8 if pile.cards else 0
            canvas.alpha_composite(back_image(SMALL_W), (x, y))
            draw.text((x + SMALL_W + 8, y + 30), f"× {pile.hidden}", font=font(30), fill=INK)
        y += SMALL_H + 14
    return _png(canvas.crop((0, 0, WIDTH, min(height, y + MARGIN))))


MARK = (200, 30, 140)
"""The frame of a card the game marks in a hand (Svarte Petter's odd card)."""


def hand_png(
    cards: Sequence[int],
    playable: Sequence[int] = (),
    marked: Sequence[int] = (),
    mark: str = "",
    four_colour: bool = True,
    ranks: Mapping[str, str] = ENGLISH_RANKS,
) -> bytes:
    """A hand in the given order (the panel's), the cards that may be played now raised and the
    others dimmed while some may be; a ``marked`` card framed and named (``mark``) under it."""
    cards = list(cards)
    width = CARD_W
    height = round(width * 1.4)
    room = WIDTH - 2 * MARGIN
    step = min(width + 6, max(width // 3, (room - width) // max(len(cards) - 1, 1)))
    raise_by = 18 if playable else 0
    caption = 34 if any(c in marked for c in cards) else 0
    w = MARGIN * 2 + (len(cards) - 1) * step + width if cards else 2 * MARGIN + width
    h = MARGIN * 2 + height + raise_by + caption
    canvas = Image.new("RGBA", (w, h), (*FELT, 255))
    draw = ImageDraw.Draw(canvas)
    for i, c in enumerate(cards):
        face = card_image(c, width, four_colour, _index(c, ranks))
        lifted = c in playable
        if playable and not lifted:
            face = face.copy()
            veil = Image.new("RGBA", face.size, (0, 0, 0, 90))
            face.alpha_composite(Image.composite(veil, Image.new("RGBA", face.size), face))
        canvas.alpha_composite(face, (MARGIN + i * step, MARGIN + (0 if lifted else raise_by)))
    for i, c in enumerate(cards):  # over the cards beside it, so it shows even when overlapped
        if c in marked:
            x, y = MARGIN + i * step, MARGIN + (0 if c in playable else raise_by)
            draw.rounded_rectangle(
                (x - 3, y - 3, x + width + 2, y + height + 2), radius=12, outline=MARK, width=6
            )
            label = _fit(draw, mark, 24, w - x - 4)
            draw.text((x, MARGIN + height + raise_by + 6), label, font=font(24, True), fill=INK)
    return _png(canvas)
