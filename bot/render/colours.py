"""The four-colour deck, defined once: the colour of each suit, read by every face.

``♠`` in the ink of what it is printed on (black on a white card, a terminal's own text colour),
``♥`` red, ``♦`` blue, ``♣`` green, as online card rooms show them, so that no two suits are
told apart by their shape alone. Each colour has a name, which a face turns into its own colour
(the terminal's ANSI colours, the emoji Discord draws in that colour), and its shade on a white
card (the Discord pictures, the web table's CSS).

It names colours; it draws nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from games.cards import CLUBS, DIAMONDS, HEARTS, SPADES

InkName = Literal["black", "red", "blue", "green"]
RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class SuitColour:
    """A suit's colour: its ``name`` and its shade ``rgb`` on a white card."""

    name: InkName
    rgb: RGB

    @property
    def css(self) -> str:
        """The shade as CSS writes it: ``#cd1923``."""
        return "#" + "".join(f"{v:02x}" for v in self.rgb)


FOUR_COLOUR_DECK: Mapping[int, SuitColour] = MappingProxyType(
    {
        CLUBS: SuitColour("green", (20, 140, 50)),
        DIAMONDS: SuitColour("blue", (25, 95, 210)),
        HEARTS: SuitColour("red", (205, 25, 35)),
        SPADES: SuitColour("black", (20, 20, 20)),
    }
)
"""Each suit's colour, by suit number (``games.cards``: clubs 0 .. spades 3)."""
