"""Tables in play for the tests of a stop and of an outage: opened, joined and started through
the session manager, as members would."""

from __future__ import annotations

from bot.sessions import LiveTable, Member, SessionManager


async def started_tables(
    sessions: SessionManager, count: int, *, guild_id: int, channel_id: int
) -> list[LiveTable]:
    """``count`` Tvåmanswhist tables in channels ``channel_id`` onwards, each opened by its
    host, joined by a guest and started."""
    tables = []
    for i in range(count):
        host, guest = Member(100 + 2 * i, f"A{i}"), Member(101 + 2 * i, f"B{i}")
        channel = channel_id + i
        await sessions.open_table(
            guild_id=guild_id, channel_id=channel, host=host, game_id="tvamanswhist"
        )
        await sessions.join(channel, guest)
        tables.append(await sessions.start(channel, host.user_id))
    return tables
