"""Löjliga familjerna's hand is laid out by family (rank), every other game's by suit."""

from __future__ import annotations

import random

from bot.discord.views.layout import Buttons, Select, layout
from bot.i18n import catalog
from bot.render.text import hand_faces, hand_order_of, sort_hand
from games import registry
from games.cards import code


def _ranks(cards: list[int]) -> list[int]:
    return [c % 13 for c in cards]


def _grouped(keys: list[int]) -> bool:
    """Whether equal keys lie together."""
    seen: list[int] = []
    for k in keys:
        if seen and seen[-1] == k:
            continue
        if k in seen:
            return False
        seen.append(k)
    return True


def _hand() -> list[int]:
    spec = registry.get("lojliga_familjerna")
    game = spec.factory(3, spec.default_options(), random.Random(7), None)
    return list(game.view(0).hand)


def test_lojliga_familjernas_hand_lies_family_by_family() -> None:
    hand = _hand()
    assert hand_order_of("lojliga_familjerna") == "rank"
    shown = sort_hand(hand, hand_order_of("lojliga_familjerna"))
    assert _grouped(_ranks(shown))
    assert not _grouped(_ranks(sort_hand(hand)))  # by suit the families are scattered


def test_lojliga_familjernas_hand_line_and_buttons_go_by_family() -> None:
    spec = registry.get("lojliga_familjerna")
    game = spec.factory(3, spec.default_options(), random.Random(7), None)
    view = game.view(0)
    line = hand_faces(catalog("sv"), view)
    ranks = [token[:-1] for token in line.split()]
    assert _grouped([hash(r) for r in ranks])
    cards = [code(c) for c in view.hand]
    order: list[str] = []
    for page in layout(cards, order="rank"):
        for row in page:
            if isinstance(row, Buttons):
                order.extend(ch.notation for ch in row.choices)
            elif isinstance(row, Select):
                pass
    assert order
    assert _grouped([hash(n[:-1]) for n in order])


def test_other_games_keep_their_hands_by_suit() -> None:
    assert all(hand_order_of(g) == "suit" for g in registry.SPECS if g != "lojliga_familjerna")
