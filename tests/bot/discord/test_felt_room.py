"""The table picture's search for room on the felt: a block goes to the free place nearest its
anchor, the topmost and then the leftmost of equally near ones, and nowhere when none is free."""

from __future__ import annotations

import math
import random

from bot.discord.images import CELL, GAP, HEIGHT, WIDTH, Rect, _nearest_free

COLS, ROWS = WIDTH // CELL + 1, HEIGHT // CELL + 1


def nearest_by_hand(
    occupied: tuple[Rect, ...], w: int, h: int, ax: int, ay: int
) -> tuple[int, int] | None:
    """Every grid cell tried in turn: on the picture, GAP from every occupied box, nearest the
    cell under the block's middle put on the anchor; then topmost, then leftmost."""
    last_col, last_row = (WIDTH - 8 - w) // CELL, (HEIGHT - 8 - h) // CELL
    tx = min(max(round((ax - w / 2 - 4) / CELL), 0), COLS - 1)
    ty = min(max(round((ay - h / 2 - 4) / CELL), 0), ROWS - 1)
    best: tuple[int, int, int] | None = None
    for row in range(min(last_row, ROWS - 1) + 1):
        for col in range(min(last_col, COLS - 1) + 1):
            x, y = 4 + col * CELL, 4 + row * CELL
            if any(
                x < x1 + GAP and x0 < x + w + GAP and y < y1 + GAP and y0 < y + h + GAP
                for x0, y0, x1, y1 in occupied
            ):
                continue
            found = (round(math.hypot(col - tx, row - ty)), row, col)
            best = found if best is None else min(best, found)
    return None if best is None else (best[2], best[1])


def test_a_block_goes_to_the_nearest_free_place_topmost_then_leftmost() -> None:
    rng = random.Random(34)
    placed = nowhere = 0
    for _ in range(400):
        occupied = []
        for _ in range(rng.randint(0, 12)):
            x0, y0 = rng.randint(-20, WIDTH), rng.randint(-20, HEIGHT)
            occupied.append((x0, y0, x0 + rng.randint(1, 240), y0 + rng.randint(1, 140)))
        w, h = rng.randint(10, 300), rng.randint(10, 200)
        ax, ay = rng.randint(0, WIDTH), rng.randint(0, HEIGHT)
        expected = nearest_by_hand(tuple(occupied), w, h, ax, ay)
        assert _nearest_free(tuple(occupied), w, h, ax, ay, COLS, ROWS) == expected
        placed += expected is not None
        nowhere += expected is None
    assert placed > 100
    assert nowhere > 20
