"""What a seat's hand panel offers: the actions a member may choose on it, read from the session
manager.

Both the panel (``views/panel.py``), which makes these choices into controls, and the listener
(``bot.discord.listener``), which notes what an open panel offers to know when it must be edited,
read it here, so neither needs the other for it. It arranges nothing and talks to no Discord.
"""

from __future__ import annotations

from bot.actions import in_hand_order
from bot.sessions import LiveTable, cards_ahead
from games.core import Game, Seat


def panel_notations(table: LiveTable, seat: Seat) -> list[str]:
    """The actions a member chooses on the panel: exactly what the session manager takes from a
    member (``member_actions``). A real-time game's timed presses are made with the reaction
    buttons on the table message, which read the press time; ``close`` is the window timer's.
    """
    if table.game is None:
        return []
    return list(table.worked_out("panel", seat, lambda game: _offered(table, game, seat)))


def _offered(table: LiveTable, game: Game, seat: Seat) -> tuple[str, ...]:
    return tuple(in_hand_order(list(table.choices(seat).values()) or cards_ahead(game, seat)))
