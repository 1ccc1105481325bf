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


async def test_one_seed_per_server_day_and_game(storage: Storage) -> None:
    assert await storage.daily_seed(GUILD, DAY, "nittionio", 111) == 111
    assert await storage.daily_seed(GUILD, DAY, "nittionio", 222) == 111
    assert await storage.daily_seed(GUILD, DAY, "bondtolva", 333) == 333
    assert await storage.daily_seed(GUILD, "2027-01-16", "nittionio", 444) == 444
    assert await storage.daily_seed(OTHER, DAY, "nittionio", 555) == 555


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
