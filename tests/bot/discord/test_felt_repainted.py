"""A table's picture painted only where it changed since the table's last picture: the same
picture, to the byte, as one painted whole."""

from __future__ import annotations

import pytest
from playouts import NAMES, SEATINGS, playout

from bot.discord import images
from bot.discord.images import BoxOp, Plan, Rect, table_png
from bot.i18n import catalog
from bot.render.text import DISCORD, TextRenderer, trump_line
from games.registry import SPECS

MOVES = 60
TABLE = -35


def _whole(plan: Plan, four_colour: bool = True) -> bytes:
    return images._png(images._paint(plan, True, four_colour))


@pytest.fixture(autouse=True)
def _forgotten() -> None:
    for table in (TABLE, TABLE - 1):
        images._SHOWN.pop(table, None)
        images._LAID.pop(table, None)


@pytest.mark.parametrize(("game_id", "players"), SEATINGS)
def test_a_picture_painted_where_it_changed_is_the_picture_painted_whole(
    game_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over a playout, each picture of the table is the one painted whole from the same plan,
    in both decks' colours in turn; most are painted only in part."""
    parts: list[list[Rect] | None] = []
    changed = images._changed

    def spied(*args: object) -> list[Rect] | None:
        rects = changed(*args)  # type: ignore[arg-type]
        parts.append(rects)
        return rects

    monkeypatch.setattr(images, "_changed", spied)
    text = TextRenderer(catalog("sv"), NAMES[:players], DISCORD)
    views = list(playout(game_id, players, seed=players, steps=MOVES))
    for n, view in enumerate(views):
        trump = trump_line(text, view, SPECS[game_id].trick_taking)
        four_colour = n % 10 != 9  # a member's deck changed now and then
        data = table_png(view, text, trump, four_colour, table=TABLE)
        plan = images._planned(view, text, trump, TABLE)
        assert data == _whole(plan, four_colour), n
    in_part = [rects for rects in parts if rects]
    assert len(in_part) * 2 >= len(views), (len(in_part), len(views))
    share = sum((r[2] - r[0]) * (r[3] - r[1]) for rects in in_part for r in rects)
    assert share < 0.4 * len(in_part) * images.WIDTH * images.HEIGHT


def _plan(*ops: BoxOp) -> Plan:
    return Plan(images.WIDTH, images.HEIGHT, list(ops))


def test_pieces_that_change_their_order_are_painted_in_their_new_order() -> None:
    """Two boxes, one over the other, then the other way round: the second picture shows the
    one now on top, though neither box came or went."""
    red = BoxOp((100, 100, 200, 180), (200, 40, 40), (0, 0, 0))
    blue = BoxOp((150, 120, 260, 200), (40, 40, 200), (0, 0, 0))
    first = images._encoded(images._repainted(TABLE, _plan(red, blue), True))
    assert first == _whole(_plan(red, blue))
    second = images._encoded(images._repainted(TABLE, _plan(blue, red), True))
    assert second == _whole(_plan(blue, red)) != first


def test_a_piece_moved_is_painted_away_from_where_it_lay() -> None:
    box = BoxOp((20, 30, 90, 80), (200, 40, 40), (0, 0, 0))
    moved = BoxOp((300, 200, 370, 250), (200, 40, 40), (0, 0, 0))
    images._repainted(TABLE, _plan(box), True)
    assert images._encoded(images._repainted(TABLE, _plan(moved), True)) == _whole(_plan(moved))


def test_only_the_latest_tables_pictures_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pictures kept are bounded: the table drawn longest ago is forgotten, and its next
    picture is painted whole, the same picture."""
    monkeypatch.setattr(images, "_SHOWN", {})
    monkeypatch.setattr(images, "TABLES_SHOWN", 1)
    box = BoxOp((20, 30, 90, 80), (200, 40, 40), (0, 0, 0))
    images._repainted(TABLE, _plan(box), True)
    images._repainted(TABLE - 1, _plan(box), True)
    assert list(images._SHOWN) == [TABLE - 1]
    assert images._encoded(images._repainted(TABLE, _plan(), True)) == _whole(_plan())
