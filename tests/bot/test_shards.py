"""The bot as several processes on one database: each claims its shards, restores and changes
only the tables of its servers, and the database decides which process owns a table. Runs on
SQLite and on PostgreSQL (``any_database``); each ``Storage`` opened here is one process."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.clock import ManualClock
from bot.sessions import LiveTable, Member, SessionManager
from bot.storage import ShardClaimError, ShardLostError, Shards, Storage, open_storage
from games.core import Seat

T0 = 1_800_000_000.0
TTL = 60.0
EVEN, ODD = Shards(2, (0,)), Shards(2, (1,))
# Discord puts a server on shard (guild_id >> 22) % count.
GUILD_ON_0, GUILD_ON_1 = 6 << 22, 7 << 22
ANNA, BO, CILLA, DAVID = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla"), Member(14, "D")


def test_a_shard_range_reads_as_it_is_written() -> None:
    assert Shards.parse("0-3", 8) == Shards(8, (0, 1, 2, 3))
    assert Shards.parse("4, 6-7", 8).ids == (4, 6, 7)
    assert Shards.parse("4,6-7", 8).label == "4,6,7"
    assert Shards.parse("2-5", 8).label == "2-5"
    assert (Shards(2, (0,)).serves(GUILD_ON_0), Shards(2, (0,)).serves(GUILD_ON_1)) == (True, False)
    for bad, why in [
        ("3-1", "backwards"),
        ("x", "not a shard range"),
        ("0-8", "not all in 0..7"),
        ("1,1", "twice"),
    ]:
        with pytest.raises(ValueError, match=why):
            Shards.parse(bad, 8)


async def new_table(storage: Storage, guild_id: int) -> int:
    record = await storage.create_table(
        guild_id=guild_id,
        channel_id=guild_id + 1,
        host_id=ANNA.user_id,
        game_id="tvamanswhist",
        variant="standard",
        seed=1,
        turn_seconds=60,
        language="sv",
        created_at=T0,
    )
    return record.table_id


async def test_a_process_claims_its_shards_and_no_other_live_process_can(
    any_database: Path | str,
) -> None:
    async with await open_storage(any_database) as first, await open_storage(any_database) as other:
        await first.claim_shards(EVEN, "first", T0, TTL)
        with pytest.raises(ShardClaimError, match="shard 0 of 2 by first for 50 s more"):
            await other.claim_shards(Shards(2, (0, 1)), "other", T0 + 10, TTL)
        # all or nothing: shard 1 was not taken by the refused claim
        await other.claim_shards(ODD, "other", T0 + 10, TTL)
        # a different split waits for every live lease
        with pytest.raises(ShardClaimError, match="taken"):
            await first.claim_shards(Shards(4, (0,)), "third", T0 + 20, TTL)
        assert (first.shards, other.shards) == (EVEN, ODD)


async def test_a_lease_that_ran_out_is_taken_over_and_the_old_process_is_fenced_off(
    any_database: Path | str,
) -> None:
    async with await open_storage(any_database) as stuck, await open_storage(any_database) as new:
        await stuck.claim_shards(EVEN, "stuck", T0, TTL)
        table_id = await new_table(stuck, GUILD_ON_0)
        await new.claim_shards(EVEN, "new", T0 + TTL + 1, TTL)
        record = await new.table(table_id)
        assert record is not None
        with pytest.raises(ShardLostError, match="shard 0, which stuck does not serve"):
            await stuck.save_table(replace(record, version=9))
        with pytest.raises(ShardLostError):
            await stuck.renew_shards(T0 + TTL + 2, TTL)
        with pytest.raises(ShardLostError):
            await new_table(stuck, GUILD_ON_0)
        assert await new.table(table_id) == record
        await new.save_table(replace(record, version=2))
        assert (await new.table(table_id)) == replace(record, version=2)


async def test_a_process_that_stops_gives_its_shards_up_at_once(any_database: Path | str) -> None:
    async with await open_storage(any_database) as old:
        await old.claim_shards(EVEN, "old", T0, TTL)
        await old.renew_shards(T0 + 20, TTL)
    async with await open_storage(any_database) as successor:
        await successor.claim_shards(EVEN, "successor", T0 + 21, TTL)
        assert successor.shards == EVEN


# --- two session managers on one database ------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.tables: set[int] = set()

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        self.tables.add(table.table_id)


async def process(
    database: Path | str, shards: Shards, name: str
) -> tuple[SessionManager, Recorder]:
    """One bot process: its own connection(s), its claim, its session manager, its restore."""
    storage = await open_storage(database)
    await storage.claim_shards(shards, name, T0, TTL)
    recorder = Recorder()
    sessions = SessionManager(
        storage,
        ManualClock(T0),
        turn_seconds=60,
        idle_seconds=600,
        listeners=[recorder],
        rng=random.Random(1),
    )
    await sessions.restore()
    return sessions, recorder


async def match(sessions: SessionManager, guild_id: int, host: Member, guest: Member) -> LiveTable:
    channel = guild_id + host.user_id
    await sessions.open_table(
        guild_id=guild_id, channel_id=channel, host=host, game_id="tvamanswhist"
    )
    await sessions.join(channel, guest)
    table = await sessions.start(channel, host.user_id)
    assert table.game is not None
    seat = min(table.game.to_act())
    user_id = table.record.seats[seat].user_id
    assert user_id is not None
    move = table.game.notation(table.game.legal_actions(seat)[0])
    return await sessions.act(table.table_id, user_id, table.version, move)


async def test_two_processes_on_disjoint_shards_never_touch_each_others_tables(
    any_database: Path | str,
) -> None:
    even, even_heard = await process(any_database, EVEN, "even")
    odd, odd_heard = await process(any_database, ODD, "odd")
    mine = await match(even, GUILD_ON_0, ANNA, BO)
    theirs = await match(odd, GUILD_ON_1, CILLA, DAVID)
    assert (even_heard.tables, odd_heard.tables) == ({mine.table_id}, {theirs.table_id})

    # the even process cannot open a table on the odd shard's server, nor change its table
    with pytest.raises(ShardLostError):
        await even.open_table(
            guild_id=GUILD_ON_1, channel_id=999, host=Member(15, "E"), game_id="tvamanswhist"
        )
    with pytest.raises(ShardLostError):
        await even.storage.save_table(replace(theirs.record, status="paused"))
    assert even.table_by_id(theirs.table_id) is None
    stored = await odd.storage.table(theirs.table_id)
    assert stored is not None
    assert stored.status == "playing"
    assert len(await odd.storage.actions(theirs.table_id)) == theirs.seq

    # both stop; each restarts and restores exactly its own table
    for sessions in (even, odd):
        await sessions.shutdown()
        await sessions.storage.close()
    even, _ = await process(any_database, EVEN, "even again")
    odd, _ = await process(any_database, ODD, "odd again")
    try:
        assert [t.table_id for t in even.live_tables()] == [mine.table_id]
        assert [t.table_id for t in odd.live_tables()] == [theirs.table_id]
        assert even.live_tables()[0].seq == mine.seq
        assert odd.live_tables()[0].seq == theirs.seq
    finally:
        for sessions in (even, odd):
            await sessions.shutdown()
            await sessions.storage.close()
