"""The start-up back-off: a crash loop must never use up Discord's daily logins.

Discord allows a bot 1,000 gateway logins (IDENTIFY) a day; past that it refuses the token until
the day is over. A container restarted after every crash (``restart: unless-stopped``) logs in
again each time, and Docker's own restart delay does not protect it: the delay goes back to
0.1 s whenever the container stayed up for ten seconds, so a bot that crashes a little after it
connected is restarted almost at once, thousands of times a day. So the bot keeps its own record
of when it logged in, in a small file beside the database (on the same volume, so it outlives
the container), and waits before each login when the recent ones came too close together:

- A *streak* is the run of logins, ending with the latest, where each came less than
  ``STREAK_GAP`` after the one before and the latest less than ``STREAK_GAP`` before now. A bot
  that has been up for an hour has no streak; a crash loop keeps one going.
- The first ``FREE_LOGINS`` logins of a streak go ahead at once (a restart or an upgrade should
  not wait); then the wait after the latest login doubles from ``FIRST_WAIT`` up to ``MAX_WAIT``.
  A steady crash loop therefore logs in about once per ``MAX_WAIT``: under a hundred a day.
- Whatever the pattern, no more than ``DAILY_BUDGET`` logins are made in any 24 hours: the next
  one waits until the oldest of them is a day old.

This module decides and records; it has no clock of its own (``now`` is given) and sleeps only
through the ``sleep`` it is handed. The same rule guards reconnects inside a running bot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

DAY = 24 * 60 * 60
STREAK_GAP = 60 * 60
FREE_LOGINS = 2
FIRST_WAIT = 30.0
MAX_WAIT = 15 * 60.0
DAILY_BUDGET = 150
"""Well under Discord's 1,000, leaving room for `kortbord sync` and for a second copy run by
mistake; the streak rule alone stays under a hundred a day."""


@dataclass(frozen=True, slots=True)
class LoginPlan:
    """When the next login may happen, and why it has to wait (empty when it need not)."""

    at: float
    reason: str = ""

    def wait(self, now: float) -> float:
        return max(0.0, self.at - now)


def streak(logins: Sequence[float], now: float) -> int:
    """How many of the latest logins came in a run of less than ``STREAK_GAP`` apart, up to now."""
    count = 0
    later = now
    for at in sorted(logins, reverse=True):
        if later - at >= STREAK_GAP:
            break
        count += 1
        later = at
    return count


def streak_wait(length: int) -> float:
    """The pause after the latest login of a streak of ``length`` logins."""
    if length < FREE_LOGINS:
        return 0.0
    return min(MAX_WAIT, FIRST_WAIT * 2.0 ** (length - FREE_LOGINS))


def plan_login(logins: Sequence[float], now: float) -> LoginPlan:
    """When the next login may be made, given the earlier ones (seconds since the epoch)."""
    plan = LoginPlan(now)
    length = streak(logins, now)
    if length:
        at = max(logins) + streak_wait(length)
        if at > now:
            plan = LoginPlan(at, f"{length} logins in a row less than an hour apart")
    today = sorted(at for at in logins if now - at < DAY)
    if len(today) >= DAILY_BUDGET:
        at = today[len(today) - DAILY_BUDGET] + DAY
        if at > plan.at:
            plan = LoginPlan(at, f"{len(today)} logins in the last 24 hours")
    return plan


class LoginLedger:
    """The logins of the last day, kept in a JSON file (a list of times) at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def beside(cls, database: Path) -> LoginLedger:
        """The ledger kept next to the database file, on the same volume."""
        return cls(database.with_name(database.name + ".logins.json"))

    def read(self) -> list[float]:
        """The recorded login times; none if the file is missing or unreadable (logged)."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as error:
            log.warning("login record %s is unreadable and starts afresh: %s", self.path, error)
            return []
        if not isinstance(data, list):
            log.warning("login record %s is not a list and starts afresh", self.path)
            return []
        return [float(at) for at in data if isinstance(at, int | float)]

    def record(self, now: float) -> None:
        """Adds a login at ``now`` and forgets those more than a day old."""
        logins = [at for at in self.read() if now - at < DAY] + [now]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".tmp")
        partial.write_text(json.dumps(sorted(logins)), encoding="utf-8")
        os.replace(partial, self.path)

    def plan(self, now: float) -> LoginPlan:
        return plan_login(self.read(), now)


Sleep = Callable[[float], Awaitable[None]]


async def before_login(
    ledger: LoginLedger,
    now: Callable[[], float],
    sleep: Sleep = asyncio.sleep,
    on_wait: Callable[[LoginPlan], None] | None = None,
) -> None:
    """Waits as long as the ledger says, then records the login that is about to happen.

    ``on_wait`` hears of a wait before it starts (the bot publishes it for ``kortbord health``).
    """
    plan = ledger.plan(now())
    wait = plan.wait(now())
    if wait > 0:
        log.warning(
            "waiting %d s before logging in to Discord: %s (this protects the bot's daily"
            " limit of 1,000 logins)",
            round(wait),
            plan.reason,
        )
        if on_wait is not None:
            on_wait(plan)
        await sleep(wait)
    ledger.record(now())
