"""A click or command not answered within ``defer_after`` seconds of the machine's own time is
deferred, so Discord never gives up on it, and the answer that comes later still reaches the
member; one answered in time is never deferred."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord.replies import answer, answered_in_time

AFTER = 0.05


class Response:
    def __init__(self) -> None:
        self.done = False
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return self.done

    async def defer(self, **kwargs: Any) -> None:
        self.calls.append(("defer", kwargs))
        self.done = True

    async def send_message(self, *args: Any, **kwargs: Any) -> None:
        self.calls.append(("send_message", kwargs))
        self.done = True


class Followup:
    def __init__(self, response: Response) -> None:
        self.response = response

    async def send(self, *args: Any, **kwargs: Any) -> None:
        self.response.calls.append(("followup", kwargs))


def click(interaction_id: int) -> Any:
    response = Response()
    return SimpleNamespace(
        id=interaction_id,
        client=SimpleNamespace(defer_after=AFTER),
        type=discord.InteractionType.component,
        response=response,
        followup=Followup(response),
    )


async def test_a_click_answered_in_time_is_never_deferred() -> None:
    interaction = click(1)
    async with answered_in_time(interaction):
        await answer(interaction).send_message("klart", ephemeral=True)
    await asyncio.sleep(3 * AFTER)  # its timer was cancelled with the block
    assert [call for call, _ in interaction.response.calls] == ["send_message"]


async def test_a_slow_click_is_deferred_and_its_answer_comes_as_a_follow_up() -> None:
    interaction = click(2)
    async with answered_in_time(interaction):
        await asyncio.sleep(3 * AFTER)  # the work takes longer than Discord would wait
        await answer(interaction).send_message("klart", ephemeral=True)
    assert interaction.response.calls == [
        ("defer", {"thinking": False}),
        ("followup", {"ephemeral": True}),
    ]


async def test_a_block_inside_another_is_watched_once() -> None:
    interaction = click(3)
    async with answered_in_time(interaction), answered_in_time(interaction):
        await asyncio.sleep(3 * AFTER)
    assert interaction.response.calls == [("defer", {"thinking": False})]
