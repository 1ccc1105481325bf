"""Answers a click on a Kortbord control that discord.py would drop unanswered.

discord.py hands a click to a restart-safe control (``DynamicItem``) only when the custom id
matches a registered control *and* is on the message the click came from. A click forged by a
modified client, or on a control an edit has since removed, would otherwise end in Discord's
"interaction failed"; it is answered here, privately, and nothing happens.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import discord

from bot.discord.replies import answer_errors
from bot.errors import UserError

DynamicType = type[discord.ui.DynamicItem[discord.ui.Item[discord.ui.View]]]


def _clicked(interaction: discord.Interaction) -> tuple[str, object]:
    """The clicked control's custom id and component type."""
    data: Mapping[str, object] = interaction.data or {}
    return str(data.get("custom_id", "")), data.get("component_type")


def dispatched(interaction: discord.Interaction, items: Sequence[DynamicType]) -> bool:
    """Whether discord.py gives this component click to one of ``items``' callbacks."""
    custom_id, kind = _clicked(interaction)
    if not any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items):
        return False
    message = interaction.message
    if message is None:
        return False
    return any(
        child.type.value == kind and getattr(child, "custom_id", None) == custom_id
        for child in _walk(message.components)
    )


def _walk(components: Sequence[object]) -> Iterator[discord.Component]:
    """Every component of a message, nested ones too (rows, containers, sections)."""
    for component in components:
        if not isinstance(component, discord.Component):
            continue
        yield component
        yield from _walk(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _walk([accessory])


async def answer_dropped(interaction: discord.Interaction, items: Sequence[DynamicType]) -> None:
    """Refuse, in words, a click on a Kortbord control that no callback will answer."""
    if interaction.type is not discord.InteractionType.component:
        return
    custom_id, _ = _clicked(interaction)
    if not custom_id.startswith("kb:") or dispatched(interaction, items):
        return
    async with answer_errors(interaction):
        raise UserError("not_offered")
