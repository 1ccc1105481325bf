"""Moves of simulated members in SimCord: open the hand panel, pick a legal action, read state."""

from __future__ import annotations

from typing import Any

import discord
from simcord import Env, MemberActor

from bot.client import Kortbord
from bot.sessions import LiveTable


def bot_of(env: Env) -> Kortbord:
    assert isinstance(env.bot, Kortbord)
    return env.bot


def table_in(env: Env, channel_id: int) -> LiveTable:
    table = bot_of(env).sessions.table_in(channel_id)
    assert table is not None
    return table


def components(message: Any) -> list[dict[str, Any]]:
    """Every component of a message (buttons and selects), flattened out of their rows."""
    rows = message.components if not isinstance(message, discord.Message) else None
    if rows is None:
        rows = [c.to_dict() for c in message.components]
    out = []
    for row in rows:
        out.extend(row.get("components", [row]))
    return out


async def open_hand(member: MemberActor, table_message: Any) -> Any:
    result = await member.click(table_message, custom_id=custom_id(table_message, ":hand"))
    assert result.ephemeral
    return result.response


def custom_id(message: Any, suffix: str) -> str:
    for c in components(message):
        if str(c.get("custom_id", "")).endswith(suffix):
            return str(c["custom_id"])
    raise AssertionError(f"no component ending in {suffix} on {message!r}")


async def play_first_legal(member: MemberActor, panel: Any) -> Any:
    """Pick the first choice the panel offers: a button, or the first options of a select."""
    for c in components(panel):
        cid = str(c.get("custom_id", ""))
        if cid.startswith("kb:a:"):
            return await member.click(panel, custom_id=cid)
        if cid.startswith("kb:s:"):
            values = [o["value"] for o in c["options"][: c.get("min_values", 1)]]
            return await member.select(panel, values, custom_id=cid)
    raise AssertionError("the panel offers nothing to do")
