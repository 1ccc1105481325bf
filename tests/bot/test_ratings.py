"""Ratings: OpenSkill Plackett-Luce over final places; ties share a rank."""

from __future__ import annotations

import pytest

from bot import ratings
from bot.ratings import Skill


def test_a_new_member_shows_the_base_rating() -> None:
    assert ratings.display(Skill()) == pytest.approx(ratings.DISPLAY_BASE)


def test_the_winner_goes_up_and_the_loser_down() -> None:
    winner, loser = ratings.rate([Skill(), Skill()], [1, 2])
    assert ratings.display(winner) > ratings.DISPLAY_BASE > ratings.display(loser)
    assert winner.mu > Skill().mu > loser.mu
    # Playing makes both estimates more certain.
    assert winner.sigma < Skill().sigma
    assert loser.sigma < Skill().sigma


def test_places_only_matter_by_their_order() -> None:
    assert ratings.rate([Skill(), Skill()], [1, 3]) == ratings.rate([Skill(), Skill()], [1, 2])
    second, first = ratings.rate([Skill(), Skill()], [2, 1])
    assert first.mu > second.mu


def test_members_who_tie_share_a_rank() -> None:
    first, tied_a, tied_b = ratings.rate([Skill(), Skill(), Skill()], [1, 2, 2])
    assert tied_a == tied_b
    assert first.mu > tied_a.mu
    even_a, even_b = ratings.rate([Skill(), Skill()], [1, 1])
    assert even_a.mu == pytest.approx(Skill().mu)
    assert even_a == even_b


def test_beating_a_stronger_member_gains_more() -> None:
    strong = Skill(mu=32.0, sigma=3.0)
    upset_winner, _ = ratings.rate([Skill(mu=25.0, sigma=3.0), strong], [1, 2])
    expected_winner, _ = ratings.rate([Skill(mu=25.0, sigma=3.0), Skill(25.0, 3.0)], [1, 2])
    assert upset_winner.mu - 25.0 > expected_winner.mu - 25.0


def test_the_leaderboard_order_is_the_conservative_estimate() -> None:
    proven = Skill(mu=28.0, sigma=1.0)
    lucky = Skill(mu=30.0, sigma=6.0)
    assert ratings.ordinal(proven) > ratings.ordinal(lucky)
    assert ratings.display(proven) > ratings.display(lucky)


def test_rate_is_deterministic() -> None:
    skills = [Skill(27.0, 5.0), Skill(22.0, 7.0), Skill(25.0, 8.0)]
    assert ratings.rate(skills, [2, 1, 3]) == ratings.rate(skills, [2, 1, 3])


@pytest.mark.parametrize(
    ("skills", "places", "message"),
    [
        ([Skill()], [1], "at least two"),
        ([Skill(), Skill()], [1], "2 skills but 1 places"),
        ([Skill(), Skill()], [0, 1], "places start at 1"),
    ],
)
def test_refusals(skills: list[Skill], places: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ratings.rate(skills, places)


def test_partners_are_rated_as_one_team() -> None:
    a, b, c, d = ratings.rate([Skill()] * 4, [1, 2, 1, 2], sides=[0, 1, 0, 1])
    assert a == c
    assert b == d
    assert a.mu > Skill().mu > b.mu


def test_partners_must_share_a_place() -> None:
    with pytest.raises(ValueError, match="share a place"):
        ratings.rate([Skill()] * 4, [1, 2, 3, 2], sides=[0, 1, 0, 1])


def test_partners_with_no_one_to_compare_with_keep_their_skills() -> None:
    strong = Skill(mu=30.0, sigma=4.0)
    assert ratings.rate([strong, Skill()], [1, 1], sides=[0, 0]) == [strong, Skill()]


# --- places against computer players ------------------------------------------------------------


def test_members_tied_behind_a_computer_player_lose_rating() -> None:
    # Two members tied for second behind a computer player lost to it: not a draw between them
    # that raises both (1000 -> 1016), but a loss each.
    a, b = ratings.rate([Skill(), Skill()], [2, 2], computers=[ratings.Computer("normal", 1)])
    assert a == b
    assert ratings.display(a) < ratings.DISPLAY_BASE
    assert a.mu < Skill().mu


def test_beating_a_computer_player_gains_and_losing_to_it_costs() -> None:
    alone = ratings.rate([Skill(), Skill()], [1, 3])
    first, last = ratings.rate(
        [Skill(), Skill()], [1, 3], computers=[ratings.Computer("normal", 2)]
    )
    assert first.mu > alone[0].mu  # beat a member and a computer player
    assert last.mu < alone[1].mu  # lost to both


def test_losing_to_a_hard_computer_player_costs_less_than_to_an_easy_one() -> None:
    def after(level: str) -> Skill:
        return ratings.rate([Skill(), Skill()], [2, 3], computers=[ratings.Computer(level, 1)])[0]

    assert after("hard").mu > after("normal").mu > after("easy").mu


def test_partners_against_computer_players_are_rated_against_them() -> None:
    won = ratings.rate(
        [Skill(), Skill()],
        [1, 1],
        sides=[0, 0],
        computers=[ratings.Computer("normal", 2, side=1), ratings.Computer("normal", 2, side=1)],
    )
    assert won[0] == won[1]
    assert won[0].mu > Skill().mu
