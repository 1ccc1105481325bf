"""The table message's *Webbord* button: opens the web table as a Discord Activity.

``kb:w:<table>``, a ``DynamicItem`` (registered in ``setup_hook``), so it keeps working after a
restart. A click answers with Discord's launch-activity response (discord.py
``InteractionResponse.launch_activity``): Discord opens the Activity for the member in the
channel, where its page lists the channel's table to join or watch. Where Discord cannot launch
it (Activities not enabled for the application), the member is told so in their language.
"""

from __future__ import annotations

import logging
import re

import discord

from bot.discord.replies import catalog_of, send_private

log = logging.getLogger(__name__)


class ActivityButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kb:w:(?P<table>\d+)",
):
    """Opens the web table (the Activity) for the member who clicks."""

    def __init__(self, table_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Webbord",
                style=discord.ButtonStyle.secondary,
                custom_id=f"kb:w:{table_id}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> ActivityButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.launch_activity()
        except discord.HTTPException as error:
            # Activities are not enabled for the application (or Discord failed): said in words
            log.warning("interaction %s: the activity was not launched: %s", interaction.id, error)
            await send_private(interaction, catalog_of(interaction).text("web.error.no_activity"))
