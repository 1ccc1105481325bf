"""The table message, the hand panel and the DM hand as Discord's layout components: one
container each, the picture at full width, a few lines of text, the controls inside it."""

from __future__ import annotations

from typing import Any

from members import (
    bot_of,
    components,
    dm_texts,
    message_text,
    open_hand,
    pictures,
    table_for_two,
    table_in,
)
from simcord import Env


def container(message: Any) -> dict[str, Any]:
    """The one container a layout message is made of (none of its content, no embeds)."""
    tree = message.components
    tree = [c if isinstance(c, dict) else c.to_dict() for c in tree]
    assert message.flags.components_v2
    assert not message.content
    assert not message.embeds
    assert [c["type"] for c in tree] == [17]
    return dict(tree[0])


async def test_the_table_message_is_one_container_with_picture_text_and_controls(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, _bo = await table_for_two(env)
    lobby = container(channel.history()[0])
    assert [c["type"] for c in lobby["components"]][-2:] == [1, 10]  # the controls, the host
    assert "Platser" in message_text(channel.history()[0])

    await anna.click(message, label="Starta")
    await env.settle()
    table = table_in(env, channel.id)
    shown = channel.history()[0]
    kinds = [c["type"] for c in container(shown)["components"]]
    assert kinds[:2] == [12, 10]  # the picture at full width first, then who is to play
    assert [url.rsplit("/", 1)[-1] for url in pictures(shown)] == ["table.png"]
    deadline = bot_of(env).sessions.deadline(table)
    assert deadline is not None
    assert f"<t:{int(deadline)}:R>" in message_text(shown)
    assert "**Platser**" not in message_text(shown)  # the picture shows the seats
    assert [c["label"] for c in components(shown)][:2] == ["Min hand", "Webbord"]

    panel = await open_hand(anna, message)
    assert panel.ephemeral
    kinds = [c["type"] for c in container(panel)["components"]]
    assert kinds[:3] == [10, 12, 14]  # the text, the hand's picture, then the controls
    assert [url.rsplit("/", 1)[-1][:5] for url in pictures(panel)] == ["hand-"]
    assert components(panel)

    dm = anna.user.dm_channel.history()[-1]
    container(dm)
    assert "Tvåmanswhist" in dm_texts(anna)[-1]
