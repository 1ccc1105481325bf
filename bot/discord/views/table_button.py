"""The table's button as Discord sees it: its custom id ``kb:t:<table>:<op>``, label and style.

What a click does is ``views/table.py``'s ``TableButton``, which is dispatched by this id alone
(a ``DynamicItem``). A hand panel offers one of these buttons (take the seat back) by making it
here, without importing the table's views, which open panels.
"""

from __future__ import annotations

import discord

TEMPLATE = r"kb:t:(?P<table>\d+):(?P<op>[a-z]+)"

STYLES = {
    "join": discord.ButtonStyle.success,
    "start": discord.ButtonStyle.primary,
    "hand": discord.ButtonStyle.primary,
    "turn": discord.ButtonStyle.success,
    "end": discord.ButtonStyle.danger,
    "endok": discord.ButtonStyle.danger,
    "startfill": discord.ButtonStyle.primary,
    "rematch": discord.ButtonStyle.success,
}


def table_button(table_id: int, op: str, label: str = "") -> discord.ui.Button[discord.ui.View]:
    """The button that does ``op`` at the table when clicked, wherever it is shown."""
    return discord.ui.Button(
        label=label or op,
        style=STYLES.get(op, discord.ButtonStyle.secondary),
        custom_id=f"kb:t:{table_id}:{op}",
    )
