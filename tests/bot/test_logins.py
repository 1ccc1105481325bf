"""The start-up back-off, on simulated time: a crash loop cannot use up Discord's daily logins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.logins import (
    DAILY_BUDGET,
    DAY,
    FIRST_WAIT,
    MAX_WAIT,
    LoginLedger,
    LoginPlan,
    before_login,
    plan_login,
)

START = 1_800_000_000.0
DISCORD_DAILY_LIMIT = 1000


class FakeTime:
    """A clock that only moves when the code under test sleeps, or the test says so."""

    def __init__(self, now: float = START) -> None:
        self.now = now
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def crash_loop(run_seconds: float, days: float) -> list[float]:
    """Login times of a bot that crashes ``run_seconds`` after each login, restarted at once."""
    logins: list[float] = []
    now = START
    while now < START + days * DAY:
        now = max(now, plan_login(logins, now).at)
        logins.append(now)
        now += run_seconds
    return logins


def most_in_a_day(logins: list[float]) -> int:
    return max(sum(1 for b in logins if a <= b < a + DAY) for a in logins)


def test_a_first_start_and_a_restart_do_not_wait() -> None:
    assert plan_login([], START).wait(START) == 0
    assert plan_login([START], START + 5).wait(START + 5) == 0


def test_a_third_quick_start_waits_and_the_wait_doubles() -> None:
    logins = [START, START + 5]
    assert plan_login(logins, START + 10).wait(START + 10) == pytest.approx(FIRST_WAIT - 5)
    logins.append(START + 35)
    assert plan_login(logins, START + 36).at == START + 35 + 2 * FIRST_WAIT
    plan = plan_login(logins, START + 36)
    assert "3 logins in a row" in plan.reason


def test_the_wait_stops_growing_at_the_maximum() -> None:
    logins = [START + i for i in range(30)]
    assert plan_login(logins, START + 30).at == START + 29 + MAX_WAIT


def test_a_bot_that_ran_for_an_hour_restarts_at_once() -> None:
    logins = [START + i * 10 for i in range(10)]
    later = START + 90 + 3600
    assert plan_login(logins, later) == LoginPlan(later)


@pytest.mark.parametrize("run_seconds", [0, 1, 10, 60, 299, 600, 899, 901, 1800, 3599, 3601])
def test_no_crash_loop_uses_up_the_daily_logins(run_seconds: float) -> None:
    logins = crash_loop(run_seconds, days=3)
    assert most_in_a_day(logins) <= DAILY_BUDGET < DISCORD_DAILY_LIMIT


def test_an_instant_crash_loop_settles_at_one_login_per_maximum_wait() -> None:
    logins = crash_loop(0, days=2)
    second_day = [at for at in logins if at >= START + DAY]
    assert len(second_day) <= DAY / MAX_WAIT + 1
    assert logins[2] - logins[0] == FIRST_WAIT  # two free logins, then the first wait


def test_the_daily_budget_holds_whatever_the_pattern() -> None:
    # Logins recorded by something that ignored the streak rule (a second copy of the bot).
    logins = [START + i * 7 for i in range(DAILY_BUDGET)]
    now = START + DAILY_BUDGET * 7 + 3 * 3600
    plan = plan_login(logins, now)
    assert plan.at == logins[0] + DAY
    assert "150 logins in the last 24 hours" in plan.reason


def test_the_ledger_keeps_a_day_of_logins_in_a_file(tmp_path: Path) -> None:
    ledger = LoginLedger.beside(tmp_path / "data" / "kortbord.sqlite3")
    assert ledger.path == tmp_path / "data" / "kortbord.sqlite3.logins.json"
    assert ledger.read() == []
    ledger.record(START)
    ledger.record(START + DAY - 1)
    ledger.record(START + DAY + 1)
    assert ledger.read() == [START + DAY - 1, START + DAY + 1]


@pytest.mark.parametrize("content", ["{not json", '{"a": 1}', ""])
def test_an_unreadable_ledger_starts_afresh(tmp_path: Path, content: str) -> None:
    ledger = LoginLedger(tmp_path / "logins.json")
    ledger.path.write_text(content, encoding="utf-8")
    assert ledger.read() == []
    ledger.record(START)
    assert json.loads(ledger.path.read_text(encoding="utf-8")) == [START]


async def test_before_login_sleeps_out_the_wait_then_records(tmp_path: Path) -> None:
    ledger = LoginLedger(tmp_path / "logins.json")
    time = FakeTime()
    heard: list[LoginPlan] = []
    for _ in range(4):
        await before_login(ledger, time, time.sleep, heard.append)
    assert time.slept == [FIRST_WAIT, 2 * FIRST_WAIT]
    assert [plan.at for plan in heard] == [START + FIRST_WAIT, START + 3 * FIRST_WAIT]
    assert ledger.read() == [START, START, START + FIRST_WAIT, START + 3 * FIRST_WAIT]


async def test_restarted_processes_share_the_ledger(tmp_path: Path) -> None:
    """Each start is a new process: only the file carries the history."""
    path = tmp_path / "kortbord.sqlite3.logins.json"
    time = FakeTime()
    for _ in range(12):
        await before_login(LoginLedger(path), time, time.sleep)
    doubling = [FIRST_WAIT * 2**i for i in range(5)]
    assert time.slept == [*doubling, MAX_WAIT, MAX_WAIT, MAX_WAIT, MAX_WAIT, MAX_WAIT]
