"""Moves of simulated members in SimCord: open the hand panel, pick a legal action, read state."""

from __future__ import annotations

import copy
from typing import Any

import discord
from simcord import Env, InteractionResult, MemberActor
from simcord.actors import _component_interaction, _visible_message

from bot.discord.client import Kortbord
from bot.sessions import LiveTable


def bot_of(env: Env) -> Kortbord:
    assert isinstance(env.bot, Kortbord)
    return env.bot


def table_in(env: Env, channel_id: int) -> LiveTable:
    table = bot_of(env).sessions.table_in(channel_id)
    assert table is not None
    return table


def _tree(message: Any) -> list[dict[str, Any]]:
    """A message's components as Discord sends them."""
    if isinstance(message, discord.Message):
        return [c.to_dict() for c in message.components]  # type: ignore[misc]
    return list(message.components)


def _walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for node in nodes:
        out.append(node)
        out.extend(_walk(list(node.get("components", []))))
        if isinstance(node.get("accessory"), dict):
            out.extend(_walk([node["accessory"]]))
    return out


def components(message: Any) -> list[dict[str, Any]]:
    """Every control of a message (buttons and selects), in order, out of their rows and
    containers."""
    return [c for c in _walk(_tree(message)) if c.get("type") in (2, 3)]


def message_text(message: Any) -> str:
    """What a member reads in a message: its content, then every text display's text, in order
    (a layout message has no content; a plain reply has no text displays)."""
    texts = [str(c["content"]) for c in _walk(_tree(message)) if c.get("type") == 10]
    return "\n".join(t for t in (message.content or "", *texts) if t)


def labels(message: Any) -> list[str]:
    """The labels of a message's buttons, in order."""
    return [str(c.get("label", "")) for c in components(message) if c.get("type") == 2]


def pictures(message: Any) -> list[str]:
    """The pictures a message's layout shows (``attachment://table.png`` as sent)."""
    shown = []
    for c in _walk(_tree(message)):
        if c.get("type") == 12:
            shown += [str(item["media"]["url"]) for item in c.get("items", [])]
    return shown


async def open_hand(member: MemberActor, table_message: Any) -> Any:
    result = await member.click(table_message, custom_id=custom_id(table_message, ":hand"))
    assert result.ephemeral
    return result.response


def custom_id(message: Any, suffix: str) -> str:
    for c in components(message):
        if str(c.get("custom_id", "")).endswith(suffix):
            return str(c["custom_id"])
    raise AssertionError(f"no component ending in {suffix} on {message!r}")


def button(message: Any, prefix: str, suffix: str) -> str:
    """The custom id of the message's control that starts with ``prefix`` and ends with
    ``suffix``."""
    for c in components(message):
        cid = str(c.get("custom_id", ""))
        if cid.startswith(prefix) and cid.endswith(suffix):
            return cid
    raise AssertionError(f"no button {prefix}...{suffix}")


async def play_first_legal(member: MemberActor, panel: Any, step: int = 0) -> Any:
    """Pick the first choice the panel offers: a button, or the first options of a select; a
    two-step choice (``kb:st``: a bid's level, whom to ask) is opened first, then played:
    ``step`` says which of the first parts (0 the first, -1 the last)."""
    steps = []
    for c in components(panel):
        cid = str(c.get("custom_id", ""))
        if cid.startswith("kb:a:"):
            return await member.click(panel, custom_id=cid)
        if cid.startswith("kb:s:"):
            values = [o["value"] for o in c["options"][: max(c.get("min_values", 1), 1)]]
            picked = await member.select(panel, values, custom_id=cid)
            send = send_button(picked.response)
            if send is None or picked.response is None:
                return picked
            return await member.click(picked.response, custom_id=send)
        if cid.startswith("kb:st:") and not cid.endswith(":"):
            steps.append(cid)
    if steps:
        opened = await member.click(panel, custom_id=steps[step])
        return await play_first_legal(member, opened.response or panel)
    raise AssertionError("the panel offers nothing to do")


def send_button(panel: Any) -> str | None:
    """The button that sends the cards picked for a verb (``bid 7D KS TC``), once they make an
    action: picking cards in a verb's menu shows them first, and this sends them."""
    if panel is None:
        return None
    for c in components(panel):
        cid = str(c.get("custom_id", ""))
        if cid.startswith("kb:a:") and c.get("style") == discord.ButtonStyle.success.value:
            return cid
    return None


async def sync_commands(env: Env) -> None:
    """What ``kortbord sync`` does once in production."""
    await bot_of(env).tree.sync()


def dm_texts(member: MemberActor) -> list[str]:
    """What the bot has written to the member's DMs, oldest first."""
    return [message_text(m) for m in member.user.dm_channel.history()]


async def table_for_two(env: Env, game_id: str = "tvamanswhist") -> tuple[Any, ...]:
    """Anna opens a table of ``game_id`` and Bo sits down: (channel, message, anna, bo)."""
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel=game_id)
    assert opened.response is not None
    await bo.click(opened.response, label="Sätt dig")
    return channel, opened.response, anna, bo


async def play_until(
    env: Env,
    channel_id: int,
    members: dict[int, MemberActor],
    message: Any,
    moves: int,
    step: int = 0,
) -> int:
    """Members whose turn it is play their first legal action, ``moves`` times or to the end
    (``step``: which first part of a two-step choice they open, as in ``play_first_legal``)."""
    table = table_in(env, channel_id)
    played = 0
    while played < moves and table.game is not None and not table.game.is_over():
        seat = min(s for s in table.game.to_act() if not table.by_computer(s))
        user_id = table.record.seats[seat].user_id
        assert user_id is not None
        member = members[user_id]
        await play_first_legal(member, await open_hand(member, message), step)
        played += 1
    return played


async def forge(
    member: MemberActor,
    message: Any,
    custom_id: str,
    values: list[str] | None = None,
    *,
    on_message: bool = True,
) -> InteractionResult:
    """What a modified client can send: any custom id (and select values) as if clicked on
    ``message``. With ``on_message`` the control is put into the copy of the message the
    interaction carries, so discord.py hands it to the bot's controls as it would a real one;
    without, the id is on no message (discord.py itself drops such a click)."""
    stored = _visible_message(member, message)
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
    control: dict[str, Any] = {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}
    if values is not None:
        data.update(component_type=3, values=values)
        options = [{"label": v[:100] or "-", "value": v[:100] or "-"} for v in values]
        options = options or [{"label": "-", "value": "-"}]
        control = {"type": 3, "custom_id": custom_id, "options": options}
    if on_message and custom_id not in {str(c.get("custom_id")) for c in components(stored)}:
        stored = copy.copy(stored)
        stored.components = [*stored.components, {"type": 1, "components": [control]}]
    return await _component_interaction(member, stored, data)


async def start(host: MemberActor, table_message: Any) -> Any:
    """The host presses *Starta*; when the table asks whether computer players should take the
    empty seats, the host says yes."""
    result = await host.click(table_message, label="Starta")
    if result.ephemeral and result.response is not None and components(result.response):
        return await host.click(result.response, label="Fyll med datorspelare och starta")
    return result
