"""Dagens giv: each day, each of a server's chosen games has one deal for all its members, played
alone against computer players and scored as duplicate.

The day runs from midnight to midnight in the server's time zone (``DailySettings.time_zone``,
Europe/Stockholm by default). A game's deal of the day is a seed drawn the first time a member of
the server asks for it that day, kept with the moment it ends (``Storage.daily_deal``): a deal
is never dealt after its end, whatever the server's time zone says later. Every member then
plays a whole match from that seed, in seat 0, against computer players of the ``LEVEL`` level
in the other seats: the same cards and the same opponents for everyone. A member plays each deal
once (``Storage.claim_daily``: one row per member, day and game, whatever table, whatever restart).
The table is a table like any other: it survives restarts, and its member may leave it and come
back to it during the day; it ends at the day's end (``ENDS_AT``), and keeps its seed secret until
then (``SECRET_UNTIL``), as the other members still play its cards.

Duplicate scoring: a member's result minus the mean result of every member of the server who
finished that deal, in points, or in places for the games whose result is a place only
(``PLACE_GAMES``: better places count as more); in points, each place below first costs half a
point (``PLACE_WEIGHT``), so equal points with a win and with a loss are not worth the same.
The boards rank by it; the weekly board adds up a member's days of the week (Monday to Sunday)
per game; the streak counts days in a row with a deal finished; a table left unfinished counts
as the worst result of its deal that day. A table of the day has one member, so it never
changes a game's rating.

No Discord here: the Discord face (``bot.discord.cogs.daily``) draws the boards and posts them.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.errors import UserError
from bot.sessions import DAY_OPTION, ENDS_AT, SEATS_OPTION, LiveTable, Member, SessionManager
from bot.storage import Storage
from bot.storage.daily import DailyPlay, DailySettings
from bot.verify import SECRET_UNTIL
from games.registry import SPECS

LEVEL = "hard"
TURN_SECONDS = 24 * 3600
"""A member of a table of the day plays at their own pace: no turn runs out before the day."""
LEFT_OUT: dict[str, str] = {
    "svarte_petter": "no_choice",  # no choice a player makes changes who gets Svarte Petter
    "hej_knekt": "real_time",  # a race of reactions: nothing to compare between members
}
SEATS: dict[str, int] = {"femkort": 4, "snipp_snapp_snorum": 4, "lojliga_familjerna": 4}
"""Seats at a game's table of the day, where not the fewest the game allows."""
EARLIEST_ZONE = "Etc/GMT-14"
"""The time zone whose midnight comes first (UTC+14): a deal dealt before deals kept their end
counts as over at its day's end there."""
PLACE_GAMES = frozenset({"skitgubbe", "snipp_snapp_snorum", "femkort"})
"""Games whose result is a place, with no points to compare."""


def daily_games() -> tuple[str, ...]:
    """Every game that has a deal of the day: all but those played in real time or where no
    choice matters (``LEFT_OUT``)."""
    return tuple(g for g in sorted(SPECS) if g not in LEFT_OUT and not SPECS[g].realtime)


def offered(settings: DailySettings) -> tuple[str, ...]:
    """The server's games of the day: those it chose, or every one."""
    games = daily_games()
    chosen = tuple(g for g in settings.games if g in games)
    return chosen or games


def seats_of(game_id: str) -> int:
    return SEATS.get(game_id, SPECS[game_id].min_players)


def zone(name: str) -> ZoneInfo:
    """The time zone named (``Europe/Stockholm``); UserError if there is none."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError("unknown_time_zone", zone=name) from None


def day_of(now: float, time_zone: str) -> str:
    """The day (YYYY-MM-DD) it is at Unix time ``now`` in ``time_zone``."""
    return dt.datetime.fromtimestamp(now, zone(time_zone)).date().isoformat()


def day_end(day: str, time_zone: str) -> float:
    """The Unix time of the midnight that ends ``day`` in ``time_zone``."""
    following = dt.date.fromisoformat(day) + dt.timedelta(days=1)
    return dt.datetime.combine(following, dt.time(), zone(time_zone)).timestamp()


def previous_day(day: str) -> str:
    return (dt.date.fromisoformat(day) - dt.timedelta(days=1)).isoformat()


def next_day(day: str) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()


def week_of(day: str) -> tuple[str, str]:
    """The first and last day (Monday and Sunday) of the week of ``day``."""
    date = dt.date.fromisoformat(day)
    monday = date - dt.timedelta(days=date.weekday())
    return monday.isoformat(), (monday + dt.timedelta(days=6)).isoformat()


# --- scoring -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardLine:
    """A member's line on a board: the result (points, or a place), the duplicate score (None:
    not finished), and for the weekly board how many days it adds up. ``abandoned``: the table
    ended unfinished, so it counts as the worst result of the deal that day."""

    user_id: int
    name: str
    result: int | None
    duplicate: float | None
    days: int = 1
    abandoned: bool = False


PLACE_WEIGHT = 0.5
"""Points a place below first costs in a game scored in points: a win is never worth the same
as a loss when the points are equal (Bondtolva's 12-12), and a point still outweighs a place."""


def result_value(game_id: str, score: int, place: int) -> float:
    """What a result is worth on the board: the place in the games whose result is a place
    (better places count more), else the points less ``PLACE_WEIGHT`` for each place below
    first. Equal results are worth the same."""
    if game_id in PLACE_GAMES:
        return float(-place)
    return score - PLACE_WEIGHT * (place - 1)


def _value(game_id: str, play: DailyPlay) -> float | None:
    if play.score is None or play.place is None:
        return None
    return result_value(game_id, play.score, play.place)


def abandoned(play: DailyPlay, *, over: bool = False) -> bool:
    """Whether the member's table of the day ended before the match did (left, ended by its
    host, or the day ran out; once the day is ``over``, any table not finished): it counts as
    the worst result of the deal that day."""
    return play.score is None and play.table_id is not None and (over or play.status == "ended")


def day_board(
    plays: Sequence[DailyPlay], game_id: str, day: str, *, over: bool = False
) -> list[BoardLine]:
    """The board of one deal: every member who played it, best duplicate score first. A table
    left unfinished (every unfinished one, once the day is ``over``) counts as the worst result
    anyone finished the deal with that day (while nobody has finished it, it has no score yet);
    a table still being played is last."""
    mine = [p for p in plays if p.game_id == game_id and p.day == day]
    finished = [(p, v) for p in mine if (v := _value(game_id, p)) is not None]
    worst = min(((v, p) for p, v in finished), key=lambda pair: pair[0], default=None)
    values = [v for _, v in finished]
    values += [worst[0] for p in mine if worst is not None and abandoned(p, over=over)]
    mean = sum(values) / len(values) if values else 0.0
    lines = []
    for play in mine:
        value = _value(game_id, play)
        result = play.place if game_id in PLACE_GAMES else play.score
        left = abandoned(play, over=over) and worst is not None
        if left and worst is not None:
            value = worst[0]
            result = worst[1].place if game_id in PLACE_GAMES else worst[1].score
        lines.append(
            BoardLine(
                play.user_id,
                play.name,
                result,
                None if value is None else value - mean,
                abandoned=left,
            )
        )
    return sorted(lines, key=_rank)


def week_board(plays: Sequence[DailyPlay], game_id: str, today: str) -> list[BoardLine]:
    """The weekly board of a game: each member's duplicate scores of the days in ``plays``
    added up, with the days they finished. A day before ``today`` is over: a table of it left
    unfinished counts as that day's worst result, as on the day's last board."""
    totals: dict[int, BoardLine] = {}
    for day in sorted({p.day for p in plays if p.game_id == game_id}):
        for line in day_board(plays, game_id, day, over=day < today):
            if line.duplicate is None:
                continue
            before = totals.get(line.user_id)
            if before is None or before.duplicate is None:
                totals[line.user_id] = BoardLine(line.user_id, line.name, None, line.duplicate)
            else:
                totals[line.user_id] = BoardLine(
                    line.user_id,
                    line.name,
                    None,
                    before.duplicate + line.duplicate,
                    before.days + 1,
                )
    return sorted(totals.values(), key=_rank)


def _rank(line: BoardLine) -> tuple[bool, float, str]:
    return (line.duplicate is None, -(line.duplicate or 0.0), line.name)


def streak(days: Sequence[str], today: str) -> int:
    """Days in a row with a play, up to today (or up to yesterday, while today is not played
    yet); ``days`` in any order."""
    played = set(days)
    day = today if today in played else previous_day(today)
    count = 0
    while day in played:
        count += 1
        day = previous_day(day)
    return count


# --- opening a table of the day -------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A member's claim on a deal of the day, made before its table opens."""

    guild_id: int
    day: str
    game_id: str
    member: Member
    seed: int
    ends: float


class DailyDeals:
    """Opens the members' tables of the day through the session manager."""

    def __init__(self, storage: Storage, sessions: SessionManager, rng: random.Random) -> None:
        self.storage = storage
        self.sessions = sessions
        self.rng = rng

    async def claim(self, guild_id: int, game_id: str, member: Member) -> Claim:
        """The member's claim on today's deal of ``game_id``; refused if the server has no such
        deal, the member sits at another table, already played it today, or the deal is over
        (a time zone moved back to a day whose deal ended: its seed may be told by now)."""
        settings = await self.storage.daily_settings(guild_id)
        if game_id not in offered(settings):
            raise UserError("not_daily", game=game_id)
        if self.sessions.table_of(member.user_id) is not None:
            raise UserError("already_seated")
        now = self.sessions.clock.now()
        day = day_of(now, settings.time_zone)
        seed, stored_end = await self.storage.daily_deal(
            guild_id, day, game_id, self.rng.getrandbits(62), day_end(day, settings.time_zone)
        )
        ends = day_end(day, EARLIEST_ZONE) if stored_end is None else stored_end
        if now >= ends:
            raise UserError("daily_over", game=game_id)
        if not await self.storage.claim_daily(
            guild_id, day, game_id, member.user_id, member.name, now
        ):
            raise UserError("daily_played", game=game_id)
        return Claim(guild_id, day, game_id, member, seed, ends)

    async def release(self, claim: Claim) -> None:
        """Gives the claim up: its table never opened."""
        await self.storage.daily_table(
            claim.guild_id, claim.day, claim.game_id, claim.member.user_id, None
        )

    async def open(
        self, claim: Claim, channel_id: int, thread_id: int | None, language: str
    ) -> LiveTable:
        """The member's table of the day, started: the member in seat 0, computer players of
        ``LEVEL`` in the others, the day's seed. It ends at the day's end."""
        ends = str(claim.ends)
        options = {
            SEATS_OPTION: str(seats_of(claim.game_id)),
            DAY_OPTION: claim.day,
            ENDS_AT: ends,
            SECRET_UNTIL: ends,
        }
        table = await self.sessions.open_table(
            guild_id=claim.guild_id,
            channel_id=channel_id,
            host=claim.member,
            game_id=claim.game_id,
            options=options,
            turn_seconds=TURN_SECONDS,
            language=language,
            thread_id=thread_id,
            seed=claim.seed,
        )
        try:
            for _ in range(seats_of(claim.game_id) - 1):
                await self.sessions.add_computer(channel_id, claim.member.user_id, LEVEL)
            await self.sessions.start(channel_id, claim.member.user_id)
            await self.storage.daily_table(
                claim.guild_id, claim.day, claim.game_id, claim.member.user_id, table.table_id
            )
        except BaseException:
            await self.sessions.discard(table, "no_message")
            raise
        return table


def day_of_table(table: LiveTable) -> str | None:
    """The day whose deal a table plays; None for any other table."""
    return dict(table.record.options).get(DAY_OPTION)
