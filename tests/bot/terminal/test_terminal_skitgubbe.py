"""Skitgubbe at the terminal table: a whole match by typed moves, phase 2's groups typed as bare
cards in any order, single cards and ``pickup`` typed or chosen by number."""

from __future__ import annotations

import random

from fakeconsole import FakeConsole

from bot.terminal.table import PlayRequest, build_table
from games.ai import choose
from games.core import Game


class GroupTypist(FakeConsole):
    """Types what the rule-based player would choose: a group as its cards high to low, anything
    else as its notation, Enter when only one move is possible."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.game: Game | None = None
        self.rng = random.Random(seed)
        self.typed: list[str] = []

    def read(self, prompt: str) -> str:
        assert self.game is not None
        action = choose(self.game, 0, "rules", self.rng)
        words = self.game.notation(action).split()
        only = len(self.game.legal_actions(0)) == 1
        text = "" if only else " ".join(reversed(words))
        self.typed.append(text)
        return text


def test_a_skitgubbe_match_is_played_to_the_end_by_typed_moves() -> None:
    typist = GroupTypist(3)
    table = build_table(PlayRequest("skitgubbe", seed=3, pace=0.0), typist)
    typist.game = table.game
    assert table.run()
    assert table.game.is_over()
    text = typist.text
    assert "Slutresultat:" in text
    assert "Första fasen" in text
    assert "Andra fasen börjar" in text
    assert any(len(t.split()) > 1 for t in typist.typed), "no group was typed"
    assert "Utspel (" in text  # the groups of a trick are shown apart, with who played them
