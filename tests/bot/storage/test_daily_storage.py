"""The storage of the deals of the day and of the deals' fingerprints, on SQLite and PostgreSQL:
one seed per server, day and game; one play per member; the result is the table's own."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.leaderboard import finish_table
from bot.storage import SeatRecord, Storage, open_storage
from bot.storage.daily import DailySettings

T0 = 1_800_000_000.0
GUILD, OTHER = 5 << 22, 6 << 22
ANNA, BO = 11, 12
DAY = "2027-01-15"


@pytest.fixture
async def storage(any_database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_storage(any_database)
    yield opened
    await opened.close()


async def test_one_seed_per_server_day_and_game_with_the_end_it_was_dealt_with(
    storage: Storage,
) -> None:
    assert await storage.daily_deal(GUILD, DAY, "nittionio", 111, T0) == (111, T0)
    # asked again with another end (the server's time zone changed): the first deal's end holds
    assert await storage.daily_deal(GUILD, DAY, "nittionio", 222, T0 + 9) == (111, T0)
    assert await storage.daily_deal(GUILD, DAY, "bondtolva", 333, T0) == (333, T0)
    assert await storage.daily_deal(GUILD, "2027-01-16", "nittionio", 444, T0) == (444, T0)
    assert await storage.daily_deal(OTHER, DAY, "nittionio", 555, T0) == (555, T0)


async def test_a_member_claims_a_deal_once_and_the_result_is_the_tables(storage: Storage) -> None:
    assert await storage.claim_daily(GUILD, DAY, "nittionio", ANNA, "Anna", T0)
    assert not await storage.claim_daily(GUILD, DAY, "nittionio", ANNA, "Anna", T0 + 5)
    assert await storage.claim_daily(GUILD, DAY, "nittionio", BO, "Bo", T0 + 1)
    table = await storage.create_table(
        guild_id=GUILD,
        channel_id=9,
        host_id=ANNA,
        game_id="nittionio",
        variant="standard",
        seed=111,
        turn_seconds=60,
        language="sv",
        created_at=T0,
        status="playing",
        seats=(SeatRecord(0, ANNA, "Anna"), SeatRecord(1, None, ""), SeatRecord(2, None, "")),
    )
    await storage.daily_table(GUILD, DAY, "nittionio", ANNA, table.table_id)
    await storage.record_deal_print(table.table_id, 1, "abc", T0)
    await storage.record_deal_print(table.table_id, 1, "changed", T0 + 1)  # the first stays
    assert await storage.deal_prints(table.table_id) == {1: "abc"}
    await finish_table(storage, table, scores=(30, 20, 10), places=(1, 2, 3))
    await storage.daily_table(GUILD, DAY, "nittionio", BO, None)  # Bo's table never opened

    plays = await storage.daily_plays(GUILD, DAY, DAY)
    assert [(p.name, p.table_id, p.score, p.place) for p in plays] == [
        ("Anna", table.table_id, 30, 1)
    ]
    assert [r.score for r in await storage.table_result(table.table_id)] == [30, 20, 10]
    assert await storage.latest_over(9) == table.table_id
    assert await storage.days_played(GUILD, ANNA) == [DAY]
    assert await storage.claim_daily(GUILD, DAY, "nittionio", BO, "Bo", T0 + 2)
    assert await storage.days_played(GUILD, BO) == []  # claimed, not finished: no day yet


async def test_a_table_left_unfinished_is_told_apart_and_adds_no_day(storage: Storage) -> None:
    assert await storage.claim_daily(GUILD, DAY, "bondtolva", BO, "Bo", T0)
    table = await storage.create_table(
        guild_id=GUILD,
        channel_id=9,
        host_id=BO,
        game_id="bondtolva",
        variant="standard",
        seed=1,
        turn_seconds=60,
        language="sv",
        created_at=T0,
        status="playing",
        seats=(SeatRecord(0, BO, "Bo"), SeatRecord(1, None, "")),
    )
    await storage.daily_table(GUILD, DAY, "bondtolva", BO, table.table_id)
    (playing,) = await storage.daily_plays(GUILD, DAY, DAY)
    assert playing.status == "playing"
    await storage.end_table(table, "left")
    (left,) = await storage.daily_plays(GUILD, DAY, DAY)
    assert (left.status, left.score) == ("ended", None)
    assert await storage.days_played(GUILD, BO) == []


async def test_a_servers_choices_round_trip(storage: Storage) -> None:
    assert await storage.daily_settings(GUILD) == DailySettings(GUILD)
    chosen = DailySettings(GUILD, ("bondtolva", "nittionio"), 77, "America/New_York")
    await storage.save_daily_settings(chosen)
    await storage.save_daily_settings(DailySettings(OTHER, time_zone="Europe/Oslo"))
    assert await storage.daily_settings(GUILD) == chosen
    assert await storage.posting_guilds() == [chosen]
    posted = replace(chosen, posted_day=DAY)
    await storage.save_daily_settings(posted)
    assert await storage.daily_settings(GUILD) == posted
