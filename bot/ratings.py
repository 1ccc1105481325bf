"""Member ratings: OpenSkill's Weng-Lin Plackett-Luce model over a table's final places.

Pure functions over the ``openskill`` library: no I/O, no clock, no database (the storage keeps
``mu`` and ``sigma`` and calls ``rate`` when a table finishes). Each member is a team of one,
except in partnership games, where partners are rated as one team; places are competition places
(1 = best), so members who tie share a rank.

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


def ordinal(skill: Skill) -> float:
    """The conservative skill estimate that the leaderboard is ordered by."""
    return skill.mu - Z * skill.sigma


def display(skill: Skill) -> float:
    """The rating shown to players: the ordinal scaled; a new member has ``DISPLAY_BASE``."""
    return DISPLAY_BASE + DISPLAY_SCALE * ordinal(skill)


def rate(
    skills: Sequence[Skill], places: Sequence[int], sides: Sequence[int] | None = None
) -> list[Skill]:
    """The members' skills after a table where member ``i`` came ``places[i]`` (1 = best).

    ``sides[i]`` is member ``i``'s side in a partnership game: members of one side are rated as
    a team and must share a place. Without ``sides`` every member is a side of its own. Needs at
    least two members; equal places are ties. Members who all sit on one side (partners against
    computer players) keep their skills: there is no one to compare them with.
    """
    if len(skills) != len(places):
        raise ValueError(f"{len(skills)} skills but {len(places)} places")
    if len(skills) < 2:
        raise ValueError("a rating needs at least two members")
    if min(places) < 1:
        raise ValueError(f"places start at 1, got {list(places)}")
    groups: dict[int, list[int]] = {}
    for member, side in enumerate(range(len(skills)) if sides is None else sides):
        groups.setdefault(side, []).append(member)
    for members in groups.values():
        if len({places[m] for m in members}) != 1:
            raise ValueError(f"partners must share a place, got {list(places)}")
    if len(groups) < 2:
        return list(skills)
    teams = [
        [_MODEL.rating(mu=skills[m].mu, sigma=skills[m].sigma) for m in members]
        for members in groups.values()
    ]
    ranks = [float(places[members[0]]) for members in groups.values()]
    rated = _MODEL.rate(teams, ranks=ranks)
    out = list(skills)
    for members, team in zip(groups.values(), rated, strict=True):
        for m, rating in zip(members, team, strict=True):
            out[m] = Skill(mu=rating.mu, sigma=rating.sigma)
    return out
