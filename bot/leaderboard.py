"""The leaderboard: who a finished table rates, and the ratings members read.

The storage keeps each member's skill (``mu``, ``sigma``), games, wins and places as plain rows
and knows nothing of ratings; this module decides who is rated and how (``bot.ratings``), inside
the storage's finishing transaction, and turns the rows into the ratings members read. Only a
table with two or more members, each in one seat, counts for the leaderboard; computer players
are never rated, but the places against them count, at their level's fixed skill.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot import ratings
from bot.storage import Rated, RatedMember, Skill, SkillChange, Storage, TableRecord
from games.ai.levels import level_of

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RatingChange:
    """A member's displayed rating before and after a finished table."""

    user_id: int
    before: float
    after: float


@dataclass(frozen=True)
class Standing:
    """A member's line on a server's leaderboard for one game."""

    user_id: int
    name: str
    games: int
    wins: int
    rating: float
    """The OpenSkill ordinal scaled for display (``bot.ratings.display``)."""
    mu: float
    sigma: float


@dataclass(frozen=True)
class GameStats:
    """A member's record in one game on one server (rated tables only)."""

    game_id: str
    games: int
    wins: int
    places: tuple[int, ...]
    """How many times the member came 1st, 2nd, ... (index 0 is 1st)."""
    rating: float


async def finish_table(
    storage: Storage,
    table: TableRecord,
    scores: tuple[int, ...],
    places: tuple[int, ...],
    teams: tuple[tuple[int, ...], ...] = (),
) -> list[RatingChange]:
    """Marks the table finished, stores its result and updates the leaderboard, in one
    transaction. Returns the rated members' rating changes in seat order (empty when the table
    is not rated). ``teams`` are the partnerships of a partnership game (seats), whose members
    are rated as teams."""
    rated = rating_of(table, places, teams)
    changes = await storage.finish_table(table, scores, places, rated)
    return [shown(change) for change in changes]


def rating_of(
    table: TableRecord, places: tuple[int, ...], teams: tuple[tuple[int, ...], ...] = ()
) -> Rated | None:
    """Who the finished ``table`` rates and how; None when it counts for no leaderboard (fewer
    than two members, or a member in several seats)."""
    if len(places) != len(table.seats):
        return None  # the storage refuses such a result
    side_of = {seat: len(table.seats) + i for i, team in enumerate(teams) for seat in team}
    members = tuple(
        RatedMember(seat.user_id, seat.name, place)
        for seat, place in zip(table.seats, places, strict=True)
        if seat.user_id is not None
    )
    if len(members) < 2:
        return None
    if len({member.user_id for member in members}) != len(members):
        log.info("table %d: a member held several seats, so it is not rated", table.table_id)
        return None
    sides = [side_of.get(s.seat, s.seat) for s in table.seats if s.user_id is not None]
    # Computer players are not rated, but the places against them count (bot/ratings.py).
    computers = [
        ratings.Computer(level_of(seat.ai), place, side_of.get(seat.seat))
        for seat, place in zip(table.seats, places, strict=True)
        if seat.user_id is None
    ]

    def rate(before: list[Skill | None]) -> list[Skill]:
        skills = [ratings.Skill() if s is None else ratings.Skill(s.mu, s.sigma) for s in before]
        after = ratings.rate(skills, [m.place for m in members], sides, computers)
        return [Skill(skill.mu, skill.sigma) for skill in after]

    return Rated(members, rate)


def shown(change: SkillChange) -> RatingChange:
    """A stored skill change as the ratings members read."""
    before = ratings.Skill() if change.before is None else _skill(change.before)
    return RatingChange(
        change.user_id, ratings.display(before), ratings.display(_skill(change.after))
    )


async def leaderboard(
    storage: Storage, guild_id: int, game_id: str, limit: int = 10
) -> list[Standing]:
    """The server's best members at a game, by rating (then wins, then fewer games)."""
    rows = await storage.standings(guild_id, game_id, limit, ratings.Z)
    return [
        Standing(
            user_id=row.user_id,
            name=row.name,
            games=row.games,
            wins=row.wins,
            rating=ratings.display(ratings.Skill(row.mu, row.sigma)),
            mu=row.mu,
            sigma=row.sigma,
        )
        for row in rows
    ]


async def member_stats(storage: Storage, guild_id: int, user_id: int) -> list[GameStats]:
    """The member's record in each game they played on the server, by game id."""
    return [
        GameStats(
            game_id=row.game_id,
            games=row.games,
            wins=row.wins,
            places=row.places,
            rating=ratings.display(ratings.Skill(row.mu, row.sigma)),
        )
        for row in await storage.member_games(guild_id, user_id)
    ]


def _skill(stored: Skill) -> ratings.Skill:
    return ratings.Skill(stored.mu, stored.sigma)
