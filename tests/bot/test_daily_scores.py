"""The deals of the day's arithmetic: days in the server's time zone, duplicate scores in points
or places, the weekly board and the streak."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from bot import daily
from bot.errors import UserError
from bot.storage.daily import DailyPlay, DailySettings


def _play(
    name: str,
    score: int | None,
    place: int | None,
    game: str = "nittionio",
    day: str = "2026-11-25",
    status: str | None = None,
) -> DailyPlay:
    if status is None:
        status = "playing" if score is None else "finished"
    return DailyPlay(day, game, sum(map(ord, name)), name, 1, score, place, status)


def test_the_day_turns_at_midnight_in_the_servers_time_zone() -> None:
    stockholm = ZoneInfo("Europe/Stockholm")
    before = dt.datetime(2026, 11, 25, 23, 59, tzinfo=stockholm).timestamp()
    assert daily.day_of(before, "Europe/Stockholm") == "2026-11-25"
    assert daily.day_of(before + 120, "Europe/Stockholm") == "2026-11-26"
    assert daily.day_of(before, "America/New_York") == "2026-11-25"
    assert daily.day_end("2026-11-25", "Europe/Stockholm") == before + 60
    # the night the clocks go back is 25 hours long
    assert (
        daily.day_end("2026-10-25", "Europe/Stockholm")
        - daily.day_end("2026-10-24", "Europe/Stockholm")
        == 25 * 3600
    )
    with pytest.raises(UserError):
        daily.day_of(before, "Europe/Gnesta")


def test_games_played_in_real_time_or_with_no_choice_have_no_deal_of_the_day() -> None:
    games = daily.daily_games()
    assert "hej_knekt" not in games
    assert "svarte_petter" not in games
    assert len(games) == 12
    assert daily.offered(DailySettings(1)) == games
    assert daily.offered(DailySettings(1, games=("bondtolva", "hej_knekt"))) == ("bondtolva",)


def test_duplicate_score_is_the_result_minus_the_mean_of_everyone_who_played() -> None:
    plays = [
        _play("anna", 40, 1),
        _play("bo", 10, 3),
        _play("cilla", 25, 2),
        _play("dag", None, None),
    ]
    board = daily.day_board(plays, "nittionio", "2026-11-25")
    # points, less half a point for each place below first: 40, 24.5 and 9
    assert [(line.name, line.duplicate) for line in board] == [
        ("anna", 15.5),
        ("cilla", 0.0),
        ("bo", -15.5),
        ("dag", None),  # not finished: not in the mean, last on the board
    ]


def test_bondtolvas_12_12_is_a_win_for_one_and_a_loss_for_the_other() -> None:
    """Equal points, places 1 and 2: the winner scores more than the loser, and members with
    the same result score the same."""
    plays = [
        _play("anna", 12, 1, "bondtolva"),
        _play("bo", 12, 2, "bondtolva"),
        _play("cilla", 12, 1, "bondtolva"),
        _play("dag", 12, 2, "bondtolva"),
    ]
    board = {
        line.name: line.duplicate for line in daily.day_board(plays, "bondtolva", "2026-11-25")
    }
    assert board["anna"] == board["cilla"] == 0.25
    assert board["bo"] == board["dag"] == -0.25
    assert board["anna"] != board["bo"]


def test_a_game_with_places_only_is_scored_in_places() -> None:
    plays = [
        _play(n, -c, p, "skitgubbe") for n, c, p in (("anna", 0, 1), ("bo", 3, 3), ("cilla", 0, 2))
    ]
    board = daily.day_board(plays, "skitgubbe", "2026-11-25")
    assert [(line.name, line.result, line.duplicate) for line in board] == [
        ("anna", 1, 1.0),
        ("cilla", 2, 0.0),
        ("bo", 3, -1.0),
    ]


def test_the_week_adds_up_each_members_days() -> None:
    plays = [
        _play("anna", 40, 1, day="2026-11-23"),
        _play("bo", 20, 2, day="2026-11-23"),
        _play("bo", 30, 1, day="2026-11-24"),
        _play("anna", 10, 2, day="2026-11-24"),
    ]
    board = daily.week_board(plays, "nittionio", "2026-11-25")
    assert [(line.name, line.duplicate, line.days) for line in board] == [
        ("anna", 10 - 10.0, 2),
        ("bo", -10 + 10.0, 2),
    ]
    assert daily.week_of("2026-11-25") == ("2026-11-23", "2026-11-29")


def test_the_week_counts_a_table_left_unfinished_on_a_day_gone_by_as_its_worst_result() -> None:
    plays = [
        _play("anna", 40, 1, day="2026-11-23"),
        _play("bo", 20, 2, day="2026-11-23"),
        _play("cilla", None, None, day="2026-11-23"),  # the day ran out while she played
    ]
    board = daily.week_board(plays, "nittionio", "2026-11-25")
    mean = (40 + 19.5 + 19.5) / 3
    assert [(line.name, line.duplicate) for line in board] == [
        ("anna", 40 - mean),
        ("bo", 19.5 - mean),
        ("cilla", 19.5 - mean),
    ]
    # on the day itself her table is still being played: no score yet
    today = daily.week_board(plays, "nittionio", "2026-11-23")
    assert [line.name for line in today] == ["anna", "bo"]


def test_the_streak_counts_days_in_a_row_up_to_today_or_yesterday() -> None:
    days = ["2026-11-25", "2026-11-24", "2026-11-23", "2026-11-20"]
    assert daily.streak(days, "2026-11-25") == 3
    assert daily.streak(days, "2026-11-26") == 3  # today not played yet: the streak holds
    assert daily.streak(days, "2026-11-27") == 0
    assert daily.streak([], "2026-11-27") == 0


def test_a_deal_left_unfinished_counts_as_the_worst_result_of_that_deal_that_day() -> None:
    plays = [
        _play("anna", 40, 1),
        _play("bo", 10, 3),
        _play("dag", None, None, status="ended"),  # saw a bad hand and left
        _play("erik", None, None),  # still playing
    ]
    board = daily.day_board(plays, "nittionio", "2026-11-25")
    # bo's 10 in third place (9 points) is the worst: dag counts as that, and in the mean
    mean = (40 + 9 + 9) / 3
    assert [(line.name, line.result, line.duplicate, line.abandoned) for line in board] == [
        ("anna", 40, 40 - mean, False),
        ("bo", 10, 9 - mean, False),
        ("dag", 10, 9 - mean, True),
        ("erik", None, None, False),
    ]
    # nobody finished yet: nothing to count it as
    alone = daily.day_board([_play("dag", None, None, status="ended")], "nittionio", "2026-11-25")
    assert [(line.duplicate, line.abandoned) for line in alone] == [(None, False)]
