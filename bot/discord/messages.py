"""Messages as Discord's layout components: the table message, the hand panel and the DM hand are
each one container, with the picture at full width, a few lines of text, and the controls inside.

Pure: it puts texts, a picture's file name and controls together into a ``discord.ui.LayoutView``
and sends nothing. Discord's rules for such a message (the ``IS_COMPONENTS_V2`` flag): no
``content`` and no embeds, at most 40 components in all (containers, texts, rows and the buttons
in them count alike) and at most 4,000 characters across its texts; a message built here keeps
within them (the text is cut from the top of its longest part, so the latest lines stay).

The controls are built as the items of a ``discord.ui.View`` with their rows
(``bot.discord.views.table``, ``bot.discord.views.panel``); here each row becomes an action row of
the container. A row of buttons wider than a phone shows wraps there into more rows:
``row_px`` is a row's width as Discord's client draws it, to hold to ``PHONE_ROW_PX``. Every
control's custom id is one a registered ``DynamicItem`` answers, so a
message keeps working after a restart.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.discord.images import text_width

MAX_COMPONENTS = 40
MAX_TEXT = 4000
ROW_WIDTH = 5
COLOUR = discord.Colour.dark_green()
PHONE_ROW_PX = 236
"""The width a 360 px phone gives a row of controls inside a message's container (the width it
shows the table's picture at)."""
PACK_PX = PHONE_ROW_PX - 6
"""What a row of controls is filled to: a phone's row less a few pixels, as a label's drawn width
is estimated to within a pixel or two a button (a row filled to its last pixel may wrap)."""
BUTTON_PAD_PX = 24  # a button's padding, left and right together
BUTTON_GAP_PX = 8
EMOJI_PX = 22  # an emoji beside a button's label, with its space
EMOJI_IN_LABEL_PX = 19  # an emoji within a label's text (a card's 🔷), drawn 1.375 em wide
LABEL_PX = 14  # a button's label is 14 px Noto Sans (Discord's own face is as wide)


@dataclass(frozen=True, slots=True)
class Layout:
    """What one message shows, top to bottom: ``head`` (the lines above the picture), the
    picture (an attachment's file name), ``body`` (the lines below it), the controls, the
    ``parts``, and a small ``foot`` line."""

    head: Sequence[str]
    picture: str | None = None
    body: Sequence[str] = ()
    controls: discord.ui.View | None = None
    foot: str = ""
    parts: Sequence[str] = field(default=())
    """More blocks of text below the controls, each its own text display (a score sheet): what
    a member may read but need not, so that the controls stay on a phone's first screen."""


def rows_of(controls: discord.ui.View | None) -> list[list[discord.ui.Item[discord.ui.View]]]:
    """The controls in their rows: an item's own ``row`` where it set one, else the first row
    with room, as Discord lays out a message's controls (a select fills a row)."""
    if controls is None:
        return []
    rows: dict[int, list[discord.ui.Item[discord.ui.View]]] = {}
    widths: dict[int, int] = {}
    for item in controls.children:
        width = item.width
        row = item.row
        if row is None:
            row = 0
            while widths.get(row, 0) + width > ROW_WIDTH:
                row += 1
        rows.setdefault(row, []).append(item)
        widths[row] = widths.get(row, 0) + width
    return [rows[r] for r in sorted(rows)]


@functools.lru_cache(maxsize=4096)  # a panel measures each of its buttons' labels
def label_px(label: str) -> int:
    """How wide Discord draws a label's text: its letters in the label's font, and each emoji
    in it (a pictograph, or a symbol with the emoji variation selector: ``♥️``) as a picture."""
    return drawn_px(label, LABEL_PX, EMOJI_IN_LABEL_PX)


def drawn_px(text: str, size: int, emoji_px: int) -> int:
    """How wide Discord draws ``text``: its letters in its font at ``size``, each emoji in it as a
    picture ``emoji_px`` wide."""
    letters: list[str] = []
    pictures = 0
    for i, ch in enumerate(text):
        if ch == "\ufe0f":
            continue
        if ord(ch) >= 0x1F000 or text[i + 1 : i + 2] == "\ufe0f":
            pictures += 1
        else:
            letters.append(ch)
    shown = "".join(letters)
    return (text_width(shown, size) if shown else 0) + pictures * emoji_px


PHONE_TEXT_PX = 248
"""The width a 360 px phone gives a message's text inside its container (the picture's width
and a little more)."""
TEXT_PX = 16  # a message's text is 16 px (Discord's own face is about as wide as Noto Sans)
EMOJI_IN_TEXT_PX = 22  # an emoji in the text, drawn 1.375 em wide
CODE_PX = 14  # a code block's text is 0.875 em
CODE_ADVANCE = 0.6  # a monospace character is 0.6 em wide (Discord's gg mono, Menlo, Consolas)
CODE_PAD_PX = 8  # a code block's padding (0.5 em) and border, on each side
PHONE_CODE_COLUMNS = int((PHONE_TEXT_PX - 2 * CODE_PAD_PX) / (CODE_PX * CODE_ADVANCE))
"""The characters a line of a code block shows on a 360 px phone before it scrolls sideways
(27)."""


@functools.lru_cache(maxsize=4096)
def text_lines(line: str, width: int = PHONE_TEXT_PX) -> int:
    """How many lines a phone wraps a line of a message's text into, at ``width`` (its words
    laid one after another). Remembered: a table's latest events are measured again at each
    of the next actions."""
    space = text_width(" ", TEXT_PX)
    lines, used = 1, 0
    for word in line.split():
        wide = drawn_px(word, TEXT_PX, EMOJI_IN_TEXT_PX)
        if used and used + space + wide > width:
            lines, used = lines + 1, wide
        else:
            used += (space if used else 0) + wide
    return lines


def button_px(label: str, emoji: bool = False) -> int:
    """How wide Discord draws a button with this ``label`` (and an emoji), in pixels."""
    return BUTTON_PAD_PX + (EMOJI_PX if emoji else 0) + label_px(label)


def fit_label(label: str, width: int = PHONE_ROW_PX) -> str:
    """``label`` cut with an ellipsis so that its button is at most ``width`` wide (a member's
    long name in a label): a phone would cut it itself, wherever it fell."""
    if button_px(label) <= width:
        return label
    while len(label) > 1 and button_px(label + "…") > width:
        label = label[:-1].rstrip()
    return label + "…"


def buttons_px(labels: Sequence[str]) -> int:
    """How wide a row of buttons with these labels is drawn, side by side."""
    return sum(map(button_px, labels)) + BUTTON_GAP_PX * max(len(labels) - 1, 0)


def row_px(row: Sequence[object]) -> int:
    """How wide a row of controls is drawn: its buttons side by side; a select fills a row."""
    inner = [item.item if isinstance(item, discord.ui.DynamicItem) else item for item in row]
    widths = [
        button_px(item.label or "", item.emoji is not None)
        if isinstance(item, discord.ui.Button)
        else PHONE_ROW_PX
        for item in inner
    ]
    return sum(widths) + BUTTON_GAP_PX * (len(widths) - 1)


def _clip_texts(blocks: list[str], limit: int) -> list[str]:
    """The blocks cut to ``limit`` characters in all, the longest first, from its top."""
    while sum(len(b) for b in blocks) > limit:
        longest = max(range(len(blocks)), key=lambda i: len(blocks[i]))
        over = sum(len(b) for b in blocks) - limit
        text = blocks[longest]
        keep = max(0, len(text) - over - 1)
        blocks[longest] = "…" + text[len(text) - keep :] if keep else "…"
    return blocks


def layout_view(shown: Layout) -> discord.ui.LayoutView:
    """The message as one container: head, picture, body, controls, parts, foot.

    The view is stopped before it is sent: its controls are dispatched by their custom ids
    alone, so discord.py need not keep it in memory."""
    texts = [
        "\n".join(shown.head),
        "\n".join(shown.body),
        *shown.parts,
        f"-# {shown.foot}" if shown.foot else "",
    ]
    head, body, *parts, foot = _clip_texts(texts, MAX_TEXT)
    container: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
        accent_colour=COLOUR
    )
    if head.strip():
        container.add_item(discord.ui.TextDisplay(head))
    if shown.picture is not None:
        media = discord.MediaGalleryItem(f"attachment://{shown.picture}")
        container.add_item(discord.ui.MediaGallery(media))
    if body.strip():
        container.add_item(discord.ui.TextDisplay(body))
    rows = rows_of(shown.controls)
    if rows:
        container.add_item(discord.ui.Separator())
    for row in rows:
        action_row: discord.ui.ActionRow[discord.ui.LayoutView] = discord.ui.ActionRow()
        for item in row:
            action_row.add_item(item)
        container.add_item(action_row)
    parts = [part for part in parts if part.strip()]
    if parts and rows:
        container.add_item(discord.ui.Separator())
    for part in parts:
        container.add_item(discord.ui.TextDisplay(part))
    if foot.strip():
        container.add_item(discord.ui.TextDisplay(foot))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    view.stop()
    return view


def count_components(view: discord.ui.LayoutView) -> int:
    """Every component of the message, nested ones included (Discord allows 40)."""
    return sum(1 for _ in view.walk_children())


def texts_of(view: discord.ui.LayoutView) -> list[str]:
    """Every text display's text, in order: what a member reads in the message."""
    return [i.content for i in view.walk_children() if isinstance(i, discord.ui.TextDisplay)]
