"""Member ratings: OpenSkill's Weng-Lin Plackett-Luce model over a table's final places.

Pure functions over the ``openskill`` library: no I/O, no clock, no database (the storage keeps
``mu`` and ``sigma`` as plain rows; ``bot.leaderboard`` calls ``rate`` when a table finishes).
Each member is a team of one, except in partnership games, where partners are rated as one team;
places are competition places (1 = best), so members who tie share a rank.

Computer players are never rated, but the places against them count: each takes part as an
opponent of a fixed skill for its level (:data:`COMPUTER_SKILL`), so members who finish behind a
computer player lost to it (two members tied for second behind one both lose a little), and
beating one gains. Its own skill never changes.

The leaderboard orders by the ordinal ``mu - 3 sigma`` (a conservative estimate that rises as a
member proves themselves); ``display`` maps it to a friendlier number, 1000 for a new member.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

Z = 3.0
"""Standard deviations subtracted from mu in the ordinal."""
DISPLAY_BASE = 1000.0
DISPLAY_SCALE = 20.0

_MODEL = PlackettLuce()


@dataclass(frozen=True)
class Skill:
    """A member's estimated skill: mean and uncertainty."""

    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma


COMPUTER_SKILL = {
    "easy": Skill(mu=20.0, sigma=2.0),
    "normal": Skill(mu=25.0, sigma=2.0),
    "hard": Skill(mu=30.0, sigma=2.0),
}
"""The fixed skill a computer player of each level is rated against: a new member's mean for
``normal``, a fifth lower or higher for ``easy`` and ``hard``, and a small uncertainty (a computer
player plays the same way every day). A kind that is no level plays as ``normal``."""


@dataclass(frozen=True)
class Computer:
    """A computer player at a rated table: its level, its place and (partnership games) its side."""

    level: str
    place: int
    side: int | None = None

    def skill(self) -> Skill:
        return COMPUTER_SKILL.get(self.level, COMPUTER_SKILL["normal"])


def ordinal(skill: Skill) -> float:
    """The conservative skill estimate that the leaderboard is ordered by."""
    return skill.mu - Z * skill.sigma


def display(skill: Skill) -> float:
    """The rating shown to players: the ordinal scaled; a new member has ``DISPLAY_BASE``."""
    return DISPLAY_BASE + DISPLAY_SCALE * ordinal(skill)


def rate(
    skills: Sequence[Skill],
    places: Sequence[int],
    sides: Sequence[int] | None = None,
    computers: Sequence[Computer] = (),
) -> list[Skill]:
    """The members' skills after a table where member ``i`` came ``places[i]`` (1 = best).

    ``sides[i]`` is member ``i``'s side in a partnership game: members of one side are rated as
    a team and must share a place. Without ``sides`` every member is a side of its own. Needs at
    least two members; equal places are ties. ``computers`` are the table's computer players,
    rated against at their level's fixed skill (a computer's side is its own unless given; a
    member and a computer player on one side are one team). Members who all sit on one side with
    no computer player against them keep their skills: there is no one to compare them with.
    """
    if len(skills) != len(places):
        raise ValueError(f"{len(skills)} skills but {len(places)} places")
    if len(skills) < 2:
        raise ValueError("a rating needs at least two members")
    if min(places) < 1:
        raise ValueError(f"places start at 1, got {list(places)}")
    # everyone at the table: the members first, then the computer players (fixed skills)
    everyone = [*skills, *(c.skill() for c in computers)]
    all_places = [*places, *(c.place for c in computers)]
    member_sides = list(range(len(skills))) if sides is None else list(sides)
    own = max(member_sides, default=0) + 1  # a side number no member has
    all_sides = [
        *member_sides,
        *(own + i if c.side is None else c.side for i, c in enumerate(computers)),
    ]
    groups: dict[int, list[int]] = {}
    for player, side in enumerate(all_sides):
        groups.setdefault(side, []).append(player)
    for players in groups.values():
        if len({all_places[p] for p in players}) != 1:
            raise ValueError(f"partners must share a place, got {list(all_places)}")
    if len(groups) < 2:
        return list(skills)
    teams = [
        [_MODEL.rating(mu=everyone[p].mu, sigma=everyone[p].sigma) for p in players]
        for players in groups.values()
    ]
    ranks = [float(all_places[players[0]]) for players in groups.values()]
    rated = _MODEL.rate(teams, ranks=ranks)
    out = list(skills)
    for players, team in zip(groups.values(), rated, strict=True):
        for p, rating in zip(players, team, strict=True):
            if p < len(skills):  # a computer player's skill never changes
                out[p] = Skill(mu=rating.mu, sigma=rating.sigma)
    return out
