"""``/spel repris``: a match that is over, step by step with every hand face up, as pictures.

The answer (to the asker only) shows one frame of ``bot.replay``: the table picture with each
seat's hand face up and the trick just completed, and in words the deal, the trick, the moves
since the last step and the hands. Its buttons step back and forth by a trick and by a deal; each
carries the frame it shows, so they work after a restart (``ReplayButton``, a ``DynamicItem``),
and each click rebuilds the match from the stored log. Only a member who may see the table is
answered (``revealed_table``, ``bot.discord.visibility``), on every click too.
"""

from __future__ import annotations

import asyncio
import io
import re

import discord

from bot.discord.embeds import MAX_DESCRIPTION, MAX_FIELD, clip, markdown
from bot.discord.images import table_png
from bot.discord.replies import answer, answer_errors, catalog_of, kortbord
from bot.discord.verifying import revealed_table
from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.options import game_name
from bot.render.text import DISCORD, TextRenderer, trump_line
from bot.replay import Frame, deal_starts, frames
from bot.storage import TableRecord
from games.registry import SPECS

PICTURE = "replay.png"
COLOUR = discord.Colour.dark_teal()


def _names(texts: Catalog, record: TableRecord) -> list[str]:
    computers = 0
    names = []
    for seat in record.seats:
        if seat.user_id is None:
            computers += 1
            names.append(f"{texts.text('ui.table.computer')} {computers}")
        else:
            names.append(seat.name)
    return names


class ReplayButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kb:rp:(?P<table>\d+):(?P<frame>\d+):(?P<op>[a-z]+)",
):
    """A step of a replay: shows frame ``frame`` of table ``table``."""

    def __init__(self, table_id: int, frame: int, op: str, label: str, disabled: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"kb:rp:{table_id}:{frame}:{op}",
                disabled=disabled,
            )
        )
        self.table_id, self.frame = table_id, frame

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> ReplayButton:
        return cls(int(match["table"]), int(match["frame"]), match["op"], "", False)

    async def callback(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            record, steps = await _stored(interaction, self.table_id)
            embed, files, view = await _shown(texts, record, steps, self.frame)
            await answer(interaction).edit_message(embed=embed, attachments=files, view=view)


async def _stored(
    interaction: discord.Interaction, table_id: int | None
) -> tuple[TableRecord, list[Frame]]:
    """The table asked for (else the channel's latest match that is over) and its frames."""
    bot = kortbord(interaction)
    record = await revealed_table(bot, interaction, table_id)
    actions = await bot.storage.actions(record.table_id)
    try:
        steps = await asyncio.to_thread(frames, record, actions)
    except (ValueError, KeyError, IndexError):
        raise UserError("no_replay", table=record.table_id) from None
    return record, steps


async def _shown(
    texts: Catalog, record: TableRecord, steps: list[Frame], index: int
) -> tuple[discord.Embed, list[discord.File], discord.ui.View]:
    """Frame ``index`` of the replay: its embed, its picture and its buttons."""
    index = max(0, min(index, len(steps) - 1))
    frame = steps[index]
    text = TextRenderer(texts, _names(texts, record), DISCORD, markdown)
    if frame.trick == 0:
        where = texts.text("replay.deal_start", deal=frame.deal)
    else:
        where = texts.text("replay.step", deal=frame.deal, trick=frame.trick)
    lines = [where, texts.text("replay.progress", step=index + 1, steps=len(steps))]
    lines += [
        f"{text.seat(seat)}: {text.action(record.game_id, notation)}"
        for seat, notation in frame.moves
    ]
    embed = discord.Embed(
        title=clip(
            texts.text(
                "replay.title", game=game_name(texts, record.game_id), table=record.table_id
            ),
            256,
        ),
        description=clip("\n".join(lines), MAX_DESCRIPTION),
        colour=COLOUR,
    )
    hands = [
        f"{text.seat(seat)}: {text.faces_of(info.shown) or '–'}"
        for seat, info in enumerate(frame.view.seats)
    ]
    embed.add_field(
        name=texts.text("replay.hands"), value=clip("\n".join(hands), MAX_FIELD), inline=False
    )
    trump = trump_line(text, frame.view, SPECS[record.game_id].trick_taking)
    data = table_png(frame.view, text, trump)
    embed.set_image(url=f"attachment://{PICTURE}")
    files = [discord.File(io.BytesIO(data), PICTURE)]
    return embed, files, _buttons(texts, record.table_id, steps, index)


def _buttons(texts: Catalog, table_id: int, steps: list[Frame], index: int) -> discord.ui.View:
    starts = deal_starts(steps)
    this_deal = max(i for i in starts if i <= index)
    earlier = this_deal if index > this_deal else max((i for i in starts if i < index), default=0)
    later = min((i for i in starts if i > index), default=len(steps) - 1)
    last = len(steps) - 1
    view = discord.ui.View(timeout=None)
    for op, frame, disabled in (
        ("firstdeal", earlier, index == 0),
        ("back", index - 1, index == 0),
        ("next", index + 1, index == last),
        ("nextdeal", later, index == last),
    ):
        label = texts.text(f"replay.button.{op}")
        view.add_item(ReplayButton(table_id, max(frame, 0), op, label, disabled))
    return view


async def show_replay(interaction: discord.Interaction, table_id: int | None) -> None:
    """The first frame of the replay, to the asker only."""
    texts = catalog_of(interaction)
    record, steps = await _stored(interaction, table_id)
    embed, files, view = await _shown(catalog(texts.lang), record, steps, 0)
    await answer(interaction).send_message(embed=embed, files=files, view=view, ephemeral=True)
