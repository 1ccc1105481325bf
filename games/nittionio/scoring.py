"""Nittionio's scoring as pure functions (rules/three-to-five-player.md §2.3, §2.4)."""

from __future__ import annotations

from games.nittionio.actions import DECLARE, PASS, REVEAL

SUCCESS_BONUS = (0, 30, 20, 10)
"""Bonus of each successful player, by the number of players who succeeded."""
PREMIUM_BONUS = {DECLARE: 30, REVEAL: 60}
GAME_BONUS = 100
RUBBER_GAMES = 3
NINE_DEALS = 9


def deal_points(
    bids: list[int], tricks: list[int], premium_seat: int | None = None, premium: int = PASS
) -> list[int]:
    """Each seat's points for one deal. ``premium`` is DECLARE or REVEAL."""
    made = [t == b for b, t in zip(bids, tricks, strict=True)]
    bonus = SUCCESS_BONUS[made.count(True)]
    points = [t + bonus if m else t for t, m in zip(tricks, made, strict=True)]
    if premium_seat is not None:
        amount = PREMIUM_BONUS[premium]
        if made[premium_seat]:
            points[premium_seat] += amount
        else:  # N5: each other player gets the whole amount
            for s in range(len(points)):
                if s != premium_seat:
                    points[s] += amount
    return points


def game_winner(scores: list[int], target: int) -> int | None:
    """The winner of a game to ``target``: alone on top with at least the target (§2.4)."""
    top = max(scores)
    if top < target or scores.count(top) > 1:
        return None
    return scores.index(top)


def game_bonuses(scores: list[int], winner: int) -> list[int]:
    """V1: the game winner and every other player who reached 100 in the game score 100 more."""
    return [GAME_BONUS if s == winner or p >= 100 else 0 for s, p in enumerate(scores)]


def rubber_bonus(games_played: int) -> int:
    """V1: the rubber winner's extra bonus, 100 for every game under eight (N10)."""
    return 100 * (8 - games_played)
