"""``/spel verifiera``: the seed and the whole record of a match that is over, as a file that
``kortbord verify`` checks (``bot.verify``).

The channel's latest match that is over unless a table number is given; a match still being
played, or a table of the day whose day is not over, keeps its seed. Only a member who may see the
table (``bot.discord.visibility``) is answered about it; the answer is posted in the table's own
channel or thread when asked there, and anywhere else only to the member who asked.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from bot.discord.replies import answer
from bot.discord.visibility import can_see
from bot.errors import UserError
from bot.i18n import Catalog
from bot.storage import TableRecord
from bot.verify import check, match_record, seed_secret, verdict_lines

if TYPE_CHECKING:
    from bot.discord.services import Services


async def revealed_table(
    bot: Services, interaction: discord.Interaction, table_id: int | None
) -> TableRecord:
    """The match asked for (else the channel's latest that is over), of this server, whose seed
    may be shown now; refused in words otherwise."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("guild_only")
    latest = table_id is None
    if table_id is None:
        table_id = await bot.storage.latest_over(interaction.channel_id)
        if table_id is None:
            raise UserError("no_match_over")
    record = await bot.storage.table(table_id)
    if (
        record is None
        or record.guild_id != interaction.guild_id
        or not await can_see(interaction, record)
    ):
        # the same answer whether the table is not there or not to be seen: numbers list nothing
        raise UserError("no_match_over") if latest else UserError("no_such_table", table=table_id)
    if seed_secret(record, bot.clock.now()):
        raise UserError("seed_secret" if not record.live else "match_not_over", table=table_id)
    return record


async def reveal(
    bot: Services, interaction: discord.Interaction, texts: Catalog, table_id: int | None
) -> None:
    """Answers with the match's seed, the check's verdict and its record as a file."""
    record = await revealed_table(bot, interaction, table_id)
    match = await match_record(bot.storage, record)
    verdict = check(match)
    name = f"kortbord-{record.table_id}.json"
    lines = [
        texts.text("verify.revealed", table=record.table_id, seed=record.seed, file=name),
        verdict_lines(texts, match, verdict)[-1],
    ]
    data = io.BytesIO(match.to_json().encode("utf-8"))
    # posted for all only where the table was played (whoever sees that channel saw the table);
    # anywhere else, to the member alone
    public = interaction.channel_id == (record.thread_id or record.channel_id)
    await answer(interaction).send_message(
        "\n".join(lines), file=discord.File(data, filename=name), ephemeral=not public
    )
