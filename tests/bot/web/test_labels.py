"""The web table's labels of a verb with several cards are made from shared parts (the verb's
word, each card's face) for speed; they must read exactly as the renderer words them."""

from __future__ import annotations

import random

import pytest

from bot.i18n import LANGS, catalog
from bot.render.text import PLAIN, TextRenderer
from bot.web.protocol import action_label
from games.registry import SPECS

STEPS = 400


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_a_label_of_several_cards_reads_as_the_renderer_words_it(game_id: str) -> None:
    spec = SPECS[game_id]
    for players in sorted({spec.min_players, spec.max_players}):
        rng = random.Random(7)
        game = spec.new(players, spec.preset("standard"), rng=rng)
        names = tuple(f"Spelare {seat}" for seat in range(players))
        for _ in range(STEPS):
            acting = sorted(game.to_act())
            if game.is_over() or not acting:
                break
            seat = acting[0]
            legal = game.legal_actions(seat)
            for action in legal:
                notation = game.notation(action)
                for lang in LANGS:
                    text = TextRenderer(catalog(lang), names, PLAIN)
                    assert action_label(lang, game_id, names, notation) == text.action(
                        game_id, notation
                    ), notation
            game.apply(seat, rng.choice(legal))
