"""Dagens giv in Discord: members play the same deal of the day, the boards rank them by
duplicate score, a deal is played once (whatever table, whatever restart), and the day rolls over
at midnight in the server's time zone, when the day's boards are posted."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import discord
import pytest
from members import bot_of, play_until, sync_commands
from simcord import Env

from bot import daily
from bot.discord.client import Kortbord
from bot.discord.clock import SimulatedClock
from bot.discord.listener import GRACE_BEYOND_SETTLING
from bot.leaderboard import leaderboard
from bot.settings import Settings
from games.cards import codes

STOCKHOLM = ZoneInfo("Europe/Stockholm")
GAMES = ("tvamanswhist", "snipp_snapp_snorum")  # in points, and in places


@pytest.fixture
async def make_bot(
    tmp_path: Path, simulated_clock: SimulatedClock
) -> AsyncIterator[Callable[[], Kortbord]]:
    """The bot on this test's database, its hard players thinking in a thread for 30 samples
    (quick, and the same on any machine); call it again for the same bot after a restart."""
    built: list[Kortbord] = []

    def build() -> Kortbord:
        settings = Settings(  # type: ignore[call-arg]
            database=tmp_path / "kortbord.sqlite3",
            ai_workers=0,
            ai_iterations=30,
            daily_playouts=30,
            _env_file=None,
        )
        bot = Kortbord(
            settings,
            clock=simulated_clock,
            computer_delay=0.0,
            dm_pause=0.0,
            panel_grace=GRACE_BEYOND_SETTLING,
            rng=random.Random(2026),
        )
        built.append(bot)
        return bot

    yield build
    for bot in built:
        storage = getattr(bot, "storage", None)
        if storage is not None:
            await storage.close()


@pytest.fixture
def simcord_bot(make_bot: Callable[[], Kortbord]) -> Kortbord:
    return make_bot()


async def _server(env: Env) -> tuple[Any, Any, Any, Any]:
    """A server whose admin has the day's boards posted in #resultat: (guild, channel, results,
    admin)."""
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    results = guild.create_text_channel("resultat")
    admins = guild.create_role("Admin", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    answer = await admin.slash(channel, "inställningar", dagens_kanal=results)
    assert answer.response is not None
    assert f"<#{results.id}>" in str(answer.response.embeds[0].to_dict())
    return guild, channel, results, admin


async def _member(env: Env, guild: Any, channel: Any, name: str) -> Any:
    """A member of the server who plays at a test's pace: no reminder of their turn (its timer
    would fire in real time on a busy machine, while the test waits for the bot)."""
    member = guild.add_member(env.create_user(name))
    await member.slash(channel, "spel turpåminnelse", på=False)
    return member


def _thread_of(channel: Any, thread_id: int) -> Any:
    return next(t for t in channel.threads if t.id == thread_id)


async def _play_daily(env: Env, channel: Any, member: Any, game_id: str) -> Any:
    """The member plays today's deal of ``game_id`` to its end in its thread; the table."""
    opened = await member.slash(channel, "dagens spela", spel=game_id)
    assert opened.ephemeral
    assert opened.response is not None
    table = bot_of(env).sessions.table_of(member.id)
    assert table is not None, opened.response.content
    assert table.record.thread_id is not None
    assert str(table.record.thread_id) in opened.response.content
    thread = _thread_of(channel, table.record.thread_id)
    message = thread.history()[0]
    await play_until(env, table.record.channel_id, {member.id: member}, message, 800)
    assert table.record.status == "finished"
    return table


def _today(env: Env) -> str:
    return daily.day_of(env.now().timestamp(), "Europe/Stockholm")


async def test_three_members_play_the_days_deal_of_two_games_ranked_by_duplicate_score(
    simcord_env: Env,
) -> None:
    env = simcord_env
    guild, channel, _, _ = await _server(env)
    members = [await _member(env, guild, channel, name) for name in ("anna", "bo", "cilla")]
    storage = bot_of(env).storage
    for game_id in GAMES:
        tables = [await _play_daily(env, channel, m, game_id) for m in members]
        # the same cards and the same opponents for everyone
        assert len({t.record.seed for t in tables}) == 1
        firsts = {codes(daily_first_hand(t)) for t in tables}
        assert len(firsts) == 1
        for table in tables:
            assert [s.ai for s in table.record.seats[1:]] == ["hard"] * (
                len(table.record.seats) - 1
            )
            assert table.record.seats[0].user_id is not None
        # the board is posted at the table when it finishes
        thread = _thread_of(channel, tables[-1].record.thread_id)
        posted = [
            e
            for m in thread.history()
            for e in m.embeds
            if (e.title or "").startswith("Dagens giv")
        ]
        assert posted
        # a table of the day changes no rating
        assert await leaderboard(storage, guild.id, game_id) == []

    board = await members[0].slash(channel, "dagens topplista")
    assert board.response is not None
    embed = board.response.embeds[0]
    assert embed.title == f"Dagens giv {_today(env)}"
    for game_id in GAMES:
        plays = await storage.daily_plays(guild.id, _today(env), _today(env))
        # Tvåmanswhist in points (less half a point for a lost place); Snipp snapp snorum has
        # places only: a better place counts more
        results = {
            p.name: daily.result_value(game_id, p.score, p.place)
            for p in plays
            if p.game_id == game_id and p.score is not None and p.place is not None
        }
        assert set(results) == {"anna", "bo", "cilla"}
        mean = sum(results.values()) / 3
        name = {"tvamanswhist": "Tvåmanswhist", "snipp_snapp_snorum": "Snipp snapp snorum"}
        field = next(f for f in embed.fields if f.name == name[game_id])
        lines = (field.value or "").splitlines()
        ranked = [line.split("**")[1] for line in lines[:3]]
        assert ranked == sorted(results, key=lambda n: (-results[n], n))
        best = ranked[0]
        expected = f"duplikat **{results[best] - mean:+.1f}**".replace("-", "−")
        assert expected in lines[0]
        if game_id == "snipp_snapp_snorum":
            assert "plats" in lines[0]
        assert "svit 1" in lines[0]


def daily_first_hand(table: Any) -> Any:
    """Seat 0's hand as the day's deal dealt it, from the table's seed."""
    from games.registry import SPECS

    return (
        SPECS[table.record.game_id]
        .new(len(table.record.seats), rng=random.Random(table.record.seed))
        .view(0)
        .hand
    )


async def test_a_member_plays_the_days_deal_once_whatever_table_and_restart(
    simcord_env: Env, make_bot: Callable[[], Kortbord]
) -> None:
    env = simcord_env
    guild, channel, _, _ = await _server(env)
    other = guild.create_text_channel("prat")
    anna = await _member(env, guild, channel, "anna")
    opened = await anna.slash(channel, "dagens spela", spel="bondtolva")
    assert opened.response is not None
    first = bot_of(env).sessions.table_of(anna.id)
    assert first is not None
    # she leaves it for a while: nothing runs out before the day does
    assert first.record.turn_seconds == daily.TURN_SECONDS

    await env.restart_bot(make_bot())  # the table of the day survives a restart

    again = bot_of(env).sessions.table_of(anna.id)
    assert again is not None
    assert again.table_id == first.table_id
    assert again.record.status == "playing"
    assert again.record.thread_id is not None
    thread = _thread_of(channel, again.record.thread_id)
    await play_until(env, again.record.channel_id, {anna.id: anna}, thread.history()[0], 800)
    stored = await bot_of(env).storage.table(again.table_id)
    assert stored is not None
    assert stored.status == "finished"
    rematch = await anna.click(thread.history()[0], label="Ny match")
    assert rematch.response is not None
    assert "spelas en gång" in rematch.response.content

    twice = await anna.slash(other, "dagens spela", spel="bondtolva")
    assert twice.response is not None
    assert "redan spelat dagens giv i Bondtolva" in twice.response.content
    assert bot_of(env).sessions.table_of(anna.id) is None

    await env.restart_bot(make_bot())

    after = await anna.slash(channel, "dagens spela", spel="bondtolva")
    assert after.response is not None
    assert "redan spelat" in after.response.content
    assert bot_of(env).sessions.table_of(anna.id) is None
    # another game's deal of the day is still hers to play
    other_game = await anna.slash(channel, "dagens spela", spel="tvamanswhist")
    assert other_game.response is not None
    assert bot_of(env).sessions.table_of(anna.id) is not None


async def test_the_day_rolls_over_at_midnight_in_the_servers_time_zone(simcord_env: Env) -> None:
    env = simcord_env
    guild, channel, results, admin = await _server(env)
    anna = await _member(env, guild, channel, "anna")
    bo = await _member(env, guild, channel, "bo")
    today = _today(env)
    played = await _play_daily(env, channel, anna, "tvamanswhist")
    secret = await anna.slash(channel, "spel verifiera", bord=played.table_id)
    assert secret.response is not None
    assert "fröet visas när dagen är slut" in secret.response.content
    hidden = await anna.slash(channel, "spel repris", bord=played.table_id)  # the hands too
    assert hidden.response is not None
    assert "fröet visas när dagen är slut" in hidden.response.content
    await bo.slash(channel, "dagens spela", spel="tvamanswhist")  # and leaves it unfinished
    unfinished = bot_of(env).sessions.table_of(bo.id)
    assert unfinished is not None

    midnight = daily.day_end(today, "Europe/Stockholm")
    local = dt.datetime.fromtimestamp(midnight, STOCKHOLM)
    assert (local.hour, local.minute, local.date().isoformat()) == (0, 0, daily.next_day(today))
    await env.advance_time(midnight - env.now().timestamp() - 60)
    assert _today(env) == today
    assert not results.history()  # a minute before midnight: nothing posted yet

    await env.advance_time(120)

    assert _today(env) == daily.next_day(today)
    (posted,) = results.history()
    embed = posted.embeds[0]
    assert embed.title == f"Dagens giv {today} är slut"
    (field,) = embed.fields
    assert field.name == "Tvåmanswhist"
    assert "**anna**" in (field.value or "")
    # bo left his deal unfinished: it counts as the worst result of the day (anna's, the only one)
    assert "**bo**: avbruten, räknas som" in (field.value or "")
    assert "Bäst i dag: **anna**" in (field.value or "")
    assert unfinished.record.status == "ended"
    assert unfinished.record.end_reason == "day_over"
    revealed = await anna.slash(channel, "spel verifiera", bord=played.table_id)
    assert revealed.response is not None
    assert f"frö **{played.record.seed}**" in revealed.response.content
    replayed = await anna.slash(channel, "spel repris", bord=played.table_id)
    assert replayed.response is not None
    assert replayed.response.embeds[0].title == f"Repris: Tvåmanswhist · bord {played.table_id}"
    assert revealed.ephemeral  # asked outside anna's private thread: to her alone
    # bo sees the channel but is not in anna's private thread: her table is not his to see
    for command in ("spel verifiera", "spel repris"):
        refused = await bo.slash(channel, command, bord=played.table_id)
        assert refused.response is not None
        assert f"inget bord {played.table_id}" in refused.response.content

    # moving the time zone back to a day whose deal is over (its seed told above) deals it to
    # nobody again
    cilla = await _member(env, guild, channel, "cilla")
    await admin.slash(channel, "inställningar", tidszon="America/New_York")
    assert daily.day_of(env.now().timestamp(), "America/New_York") == today
    again = await cilla.slash(channel, "dagens spela", spel="tvamanswhist")
    assert again.response is not None
    assert "redan slut" in again.response.content
    assert bot_of(env).sessions.table_of(cilla.id) is None
    await admin.slash(channel, "inställningar", tidszon="Europe/Stockholm")

    tomorrow = await _play_daily(env, channel, anna, "tvamanswhist")
    assert tomorrow.record.seed != played.record.seed
    week = await anna.slash(channel, "dagens vecka", spel="tvamanswhist")
    assert week.response is not None
    shown = week.response.embeds[0].description or ""
    first_day, _ = daily.week_of(daily.next_day(today))
    if first_day <= today:  # both days in one week (Monday to Sunday)
        assert "**anna**: 2 dagar" in shown
        assert "svit 2" in shown
    else:
        assert "**anna**: 1 dag" in shown


async def test_a_table_of_the_day_opens_only_in_a_private_thread_of_a_text_channel(
    simcord_env: Env,
) -> None:
    """Typed in a public thread, the table opens in a private thread of the thread's channel, not
    in the public thread; typed in a voice channel's chat it is refused with the reason, and the
    deal stays the member's to play."""
    env = simcord_env
    guild, channel, _, admin = await _server(env)
    await admin.slash(channel, "inställningar", tråd=True)
    bo = await _member(env, guild, channel, "bo")
    opened = await bo.slash(channel, "spel ny", spel="tvamanswhist")
    assert opened.response is not None
    public = bot_of(env).sessions.table_of(bo.id)
    assert public is not None
    assert public.record.thread_id is not None
    anna = await _member(env, guild, channel, "anna")
    in_thread = _thread_of(channel, public.record.thread_id)

    answer = await anna.slash(in_thread, "dagens spela", spel="bondtolva")

    assert answer.response is not None
    table = bot_of(env).sessions.table_of(anna.id)
    assert table is not None, answer.response.content
    assert table.record.thread_id not in (None, public.record.thread_id)
    thread = bot_of(env).get_channel(table.record.thread_id)
    assert isinstance(thread, discord.Thread)
    assert thread.type is discord.ChannelType.private_thread
    assert thread.parent_id == channel.id
    assert not in_thread.history() or all(
        "Bondtolva" not in (m.content or "") for m in in_thread.history()
    )

    cilla = await _member(env, guild, channel, "cilla")
    voice = guild.create_voice_channel("röst")
    refused = await cilla.slash(voice, "dagens spela", spel="bondtolva")
    assert refused.response is not None
    assert "privat tråd i en textkanal" in refused.response.content
    assert bot_of(env).sessions.table_of(cilla.id) is None
    later = await cilla.slash(channel, "dagens spela", spel="bondtolva")  # still hers to play
    assert bot_of(env).sessions.table_of(cilla.id) is not None, later.response


async def test_the_days_board_shows_a_deals_scores_only_to_members_who_finished_it(
    simcord_env: Env,
) -> None:
    env = simcord_env
    guild, channel, _, _ = await _server(env)
    anna = await _member(env, guild, channel, "anna")
    bo = await _member(env, guild, channel, "bo")
    await _play_daily(env, channel, anna, "tvamanswhist")

    before = await bo.slash(channel, "dagens topplista")  # bo has not played it yet

    assert before.response is not None
    assert before.ephemeral
    field = next(f for f in before.response.embeds[0].fields if f.name == "Tvåmanswhist")
    assert "Har spelat: anna" in (field.value or "")
    assert "duplikat" not in (field.value or "")
    assert " p " not in (field.value or "")
    mine = await anna.slash(channel, "dagens topplista")
    assert mine.response is not None
    assert mine.ephemeral
    field = next(f for f in mine.response.embeds[0].fields if f.name == "Tvåmanswhist")
    assert "duplikat" in (field.value or "")
