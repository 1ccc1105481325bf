"""A table's pictures one after another: the trump and each group of cards stay where the table's
last picture laid them while they still fit there whole, so a pile does not jump across the felt
when a card is played; staying never leaves out or cuts what a fresh arrangement draws."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from legible import assert_legible
from playouts import NAMES, SEATINGS, playout

from bot.discord import images
from bot.discord.images import (
    CELL,
    GAP,
    HEIGHT,
    WIDTH,
    Plan,
    Rect,
    _free_at,
    table_plan,
    table_untold,
)
from bot.i18n import catalog
from bot.render.text import DISCORD, LAST_TRICK, TextRenderer, trump_line
from games.core import View
from games.registry import SPECS

MOVES = 60


def test_a_place_is_free_by_the_packers_own_rule() -> None:
    """:func:`_free_at` is the test :func:`_nearest_free` applies to every cell: on the picture,
    and GAP clear of every box; a corner off the packer's grid is never one it gave."""
    rng = random.Random(8)
    free = taken = 0
    for _ in range(300):
        occupied: list[Rect] = []
        for _ in range(rng.randint(0, 8)):
            x0, y0 = rng.randint(-20, WIDTH), rng.randint(-20, HEIGHT)
            occupied.append((x0, y0, x0 + rng.randint(1, 240), y0 + rng.randint(1, 140)))
        w, h = rng.randint(10, 300), rng.randint(10, 200)
        for _ in range(20):
            x, y = (
                4 + rng.randint(-1, WIDTH // CELL) * CELL,
                4 + rng.randint(-1, HEIGHT // CELL) * CELL,
            )
            by_hand = (
                x >= 4
                and y >= 4
                and x + w <= WIDTH - 4
                and y + h <= HEIGHT - 4
                and not any(
                    x < x1 + GAP and x0 < x + w + GAP and y < y1 + GAP and y0 < y + h + GAP
                    for x0, y0, x1, y1 in occupied
                )
            )
            assert _free_at(occupied, w, h, x, y) == by_hand
            free += by_hand
            taken += not by_hand
            assert not _free_at(occupied, w, h, x + 1, y)
    assert free > 500
    assert taken > 500


def _planned(view: View, laid: dict[images.Spot, tuple[int, int, int]] | None) -> Plan:
    text = TextRenderer(catalog("sv"), NAMES[: len(view.seats)], DISCORD)
    trump = trump_line(text, view, SPECS[view.game].trick_taking)
    return table_plan(view, text, trump, laid=laid)


def _told(view: View, plan: Plan) -> tuple[Counter[str], Counter[str]]:
    """What a picture leaves to the text beside it, the last trick aside (it gives way): the
    groups left out, and the lines the text says (those and the groups drawn in part)."""
    text = TextRenderer(catalog("sv"), NAMES[: len(view.seats)], DISCORD)
    last = [text.pile(pile) for pile in view.piles if pile.key == LAST_TRICK and pile.cards]
    left = Counter(name for name in plan.left_out if name != LAST_TRICK)
    return left, Counter(line for line in plan.untold if line not in last)


def _pictures(game_id: str, players: int, seed: int) -> Iterator[tuple[View, Plan, Plan]]:
    """Over a playout, each state's picture laid where the last ones laid the felt, and laid
    afresh."""
    laid: dict[images.Spot, tuple[int, int, int]] = {}
    for view in playout(game_id, players, seed, MOVES):
        kept = _planned(view, dict(laid))
        yield view, kept, _planned(view, None)
        laid.update(kept.laid)


def _moves(plans: list[Plan]) -> int:
    """How often a group of cards lies elsewhere than in the picture before."""
    return sum(
        before.laid[group][1:] != place[1:]
        for before, after in itertools.pairwise(plans)
        for group, place in after.laid.items()
        if group in before.laid
    )


@pytest.mark.parametrize(("game_id", "players"), SEATINGS)
def test_a_tables_piles_stay_put_and_nothing_is_told_that_a_fresh_picture_draws(
    game_id: str, players: int
) -> None:
    """Over a playout, each picture drawn where the last one laid the felt: it is as legible as
    any, leaves out and says beside it nothing that a fresh arrangement of the same state draws
    (the last trick aside), drawn again where it laid itself it is the same picture, and its
    groups of cards move no more often than when each picture is laid afresh."""
    laid: dict[images.Spot, tuple[int, int, int]] = {}
    pictures = list(_pictures(game_id, players, seed=players))
    for view, kept, fresh in pictures:
        assert_legible(kept)
        (kept_left, kept_lines), (fresh_left, fresh_lines) = _told(view, kept), _told(view, fresh)
        assert kept_left <= fresh_left, (kept.left_out, fresh.left_out)
        assert kept_lines <= fresh_lines, (kept.untold, fresh.untold)
        laid.update(kept.laid)
        assert _planned(view, laid).ops == kept.ops
    kept_moves = _moves([kept for _, kept, _ in pictures])
    assert kept_moves <= _moves([fresh for _, _, fresh in pictures])


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("tvamanswhist", 2), ("tvamansbridge", 2), ("bondtolva", 2), ("reunion", 3), ("braus", 4)],
)
def test_piles_move_far_less_often_than_when_each_picture_is_laid_afresh(
    game_id: str, players: int
) -> None:
    """Shown hands, a dummy, the talong and the last trick: laid afresh at each picture, they
    changed sides and rows from one card to the next."""
    pictures = list(_pictures(game_id, players, seed=1))
    kept = _moves([kept for _, kept, _ in pictures])
    fresh = _moves([fresh for _, _, fresh in pictures])
    assert fresh >= 30
    assert kept * 4 <= fresh, (kept, fresh)


def test_the_text_beside_a_tables_picture_is_told_from_the_same_arrangement() -> None:
    """The picture and the text beside it are planned once for a table's state: what the text
    says the picture had no room for is what that picture, laid where the last one was, left
    out."""
    text = TextRenderer(catalog("sv"), NAMES[:6], DISCORD)
    told = 0
    for view in playout("svarte_petter", 6, 3, MOVES):
        trump = trump_line(text, view, SPECS[view.game].trick_taking)
        before = dict(images._LAID.get(-34, {}))
        images.table_png(view, text, trump, table=-34)
        expected = table_plan(view, text, trump, laid=before).untold
        assert table_untold(view, text, trump, -34) == expected
        told += bool(expected)
    assert told
