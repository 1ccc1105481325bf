"""What every table and hand picture keeps to, shared by the tests of pictures: read at a phone's
width, every text and every card's rank is high enough, everything lies on the picture, and
nothing drawn later covers a text or a card's rank."""

from __future__ import annotations

from bot.discord.images import (
    BACK,
    MIN_RANK_PX,
    MIN_TEXT_PX,
    PHONE_PICTURE,
    BoxOp,
    CardOp,
    MarkOp,
    Plan,
    SuitOp,
    TextOp,
    rank_size,
)


def op_rect(op: object) -> tuple[int, int, int, int]:
    assert isinstance(op, TextOp | CardOp | BoxOp | SuitOp | MarkOp)
    return op.rect


def covers(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def assert_legible(plan: Plan) -> None:
    """Shown as wide as on a phone every text and every card's rank is high enough, everything
    lies on the picture, and nothing drawn later covers a text or a card's rank."""
    phone = PHONE_PICTURE / plan.width
    assert "trump" not in plan.left_out  # what gives way on a crowded table is never the trump
    for i, op in enumerate(plan.ops):
        x0, y0, x1, y1 = op_rect(op)
        assert min(x0, y0) >= 0, op
        assert x1 <= plan.width, op
        assert y1 <= plan.height, op
        if isinstance(op, TextOp):
            assert op.size * phone >= MIN_TEXT_PX, op
            guarded = op_rect(op)
        elif isinstance(op, CardOp) and op.card != BACK:
            assert rank_size(op.width) * phone >= MIN_RANK_PX, op
            index = op.index_rect
            assert index is not None
            guarded = index
        else:
            continue
        for later in plan.ops[i + 1 :]:
            if isinstance(later, BoxOp) and later.fill is None:
                frame = later.rect  # a frame covers only its edge
                inner = (frame[0] + later.line, frame[1] + later.line)
                inner_end = (frame[2] - later.line, frame[3] - later.line)
                if inner <= guarded[:2] and guarded[2:] <= inner_end:
                    continue
            if isinstance(later, BoxOp) and later.fill is not None:
                assert not covers(later.rect, guarded), (op, later)
                continue
            if isinstance(op, TextOp) and isinstance(later, TextOp):
                assert not covers(op_rect(later), guarded), (op, later)
                continue
            if isinstance(later, CardOp | SuitOp | MarkOp):
                assert not covers(op_rect(later), guarded), (op, later)
