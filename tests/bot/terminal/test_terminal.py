"""The terminal table, driven by scripted input and simulated time: whole matches by typed moves,
bad input that re-prompts and changes nothing, Swedish and English, quitting, a Hej knekt window,
and the command line's refusals."""

from __future__ import annotations

import random

import pytest
from fakeconsole import FakeConsole, Typed
from toygame import SPEC as TOY
from toygame import TOY_TEXTS_EN

from bot.__main__ import main
from bot.i18n import catalog
from bot.render.text import PLAIN, TextRenderer, card_face, sort_hand
from bot.terminal import table as terminal
from bot.terminal.table import PlayRequest, TerminalTable, build_table, seat_names
from games.ai import choose, shape_of
from games.ai.heuristics.hej_knekt import HEJ_KNEKT_PRESS
from games.cards import parse_card, rank_of
from games.core import Game
from games.registry import SPECS


def _toy_table(console: FakeConsole, lang: str = "en", seed: int = 1) -> TerminalTable:
    extra = TOY_TEXTS_EN | {"terminal.game.toy": "Toy", "toy.rules.play": "Toy rules: tricks."}
    return TerminalTable(
        spec=TOY,  # type: ignore[arg-type]
        game=TOY.new(2, rng=random.Random(seed)),
        human=0,
        render=TextRenderer(catalog(lang).with_entries(extra), ["Anna", "Bo"]),
        console=console,
        rng=random.Random(seed),
        kinds={1: "rules"},
    )


class Typist(FakeConsole):
    """Types what a rule-based player would choose, as a person would: card choices as bare cards
    (``7D KS TC``), other moves as their notation, Enter for the only move. With ``junk``, types
    that first at every prompt (and must then be asked again)."""

    def __init__(self, seat: int, seed: int, junk: str | None = None) -> None:
        super().__init__()
        self.game: Game | None = None
        self.seat = seat
        self.rng = random.Random(seed)
        self.junk = junk
        self.typed: list[str] = []

    def read(self, prompt: str) -> str:
        assert self.game is not None
        if self.junk is not None and (not self.typed or self.typed[-1] != self.junk):
            self.typed.append(self.junk)
            return self.junk
        action = choose(self.game, self.seat, "rules", self.rng)
        text = self.game.notation(action)
        shape = shape_of(action, text)
        if shape.verb is not None and shape.cards:
            text = " ".join(reversed(text.split()[1:]))  # bare cards, in another order
        elif len(self.game.legal_actions(self.seat)) == 1:
            text = ""  # Enter makes the only move
        self.typed.append(text)
        return text


def test_a_toy_match_is_played_to_the_end_by_typed_moves() -> None:
    typist = Typist(0, 5)
    table = _toy_table(typist)
    typist.game = table.game
    assert table.run()
    assert table.game.is_over()
    assert "Final result:" in typist.text
    assert any(" " in t for t in typist.typed), "bare card choices were typed"
    assert "Anna: lay aside" in typist.text


def test_bad_input_reprompts_with_a_clear_message_and_changes_nothing() -> None:
    console = FakeConsole(["xyzzy", "5", "pass", "8C 9C", "QS QS QS"])
    table = _toy_table(console)
    before = [table.game.view(s) for s in (0, 1, None)]
    assert not table.run()  # the script ends: the player has left
    assert [table.game.view(s) for s in (0, 1, None)] == before
    text = console.text
    assert "I do not understand “xyzzy”" in text
    assert "There are no numbered choices here" in text
    assert "Pass is not allowed now" in text
    assert text.count("I do not understand") == 3


def test_a_number_out_of_range_is_refused_and_play_goes_on() -> None:
    typist = Typist(0, 5, junk="17")
    table = _toy_table(typist)
    typist.game = table.game
    assert table.run()
    assert "There is no such choice. Type a number from 1 to 2." in typist.text
    assert "There are no numbered choices here" in typist.text


def test_swedish_by_default_and_english_on_request() -> None:
    outputs = {}
    for lang in ("sv", "en"):
        typist = Typist(0, 5)
        table = _toy_table(typist, lang=lang)
        typist.game = table.game
        assert table.run()
        outputs[lang] = typist.text
    assert "Din hand:" in outputs["sv"]
    assert "Slutresultat:" in outputs["sv"]
    assert "tar sticket med" in outputs["sv"]
    assert "Your hand:" in outputs["en"]
    assert "Final result:" in outputs["en"]
    assert "takes the trick with" in outputs["en"]
    assert "Your hand" not in outputs["sv"]


def test_quitting_asks_for_confirmation() -> None:
    console = FakeConsole(["q", "n", "?", "r", "q", "y"])
    table = _toy_table(console)
    assert not table.run()
    assert not table.game.is_over()
    assert "How to play:" in console.text
    assert "Toy rules: tricks." in console.text
    assert console.prompts.count("Do you want to leave the match? (y/n) ") == 2
    assert console.text.endswith("Goodbye!")


# --- real games -----------------------------------------------------------------------------------


def _needs(game_id: str) -> None:
    if game_id not in SPECS:
        pytest.skip(f"{game_id} is not registered yet")


def test_nittionio_seed_1_is_played_to_the_end_by_typed_moves() -> None:
    _needs("nittionio")
    typist = Typist(0, 1)
    table = build_table(PlayRequest("nittionio", seed=1, pace=0.0), typist)
    typist.game = table.game
    assert table.run()
    assert table.game.is_over()
    text = typist.text
    assert "Slutresultat:" in text
    assert text.count("\n  1:a plats: ") >= 1
    assert "Du kan välja:" in text
    assert "Skriv korten" in text  # the 220 bid-card choices are typed, not listed
    assert "tar sticket med" in text


def test_a_big_group_of_bids_is_typed_without_its_verb() -> None:
    _needs("tvamansbridge")
    console = FakeConsole()
    table = build_table(PlayRequest("tvamansbridge", seed=3, pace=0.0), console)
    legal = table.game.legal_actions(0)
    notations = [table.game.notation(a) for a in legal]
    listed = table._list_actions(legal, notations)
    assert [notations[legal.index(a)] for a in listed] == ["pass"]
    assert "Skriv valet, till exempel: 1C" in console.text
    assert table._understand("1c", legal, notations, listed) == table.game.parse("bid 1C")
    assert table._understand("bid 7NT", legal, notations, listed) == table.game.parse("bid 7NT")


def _hej_knekt_with_a_trigger_first(seed_from: int = 0) -> tuple[Game, int]:
    """A Hej knekt match whose first card (turned by seat 0) asks for a reaction; its rank."""
    spec = SPECS["hej_knekt"]
    for seed in range(seed_from, seed_from + 200):
        game = spec.new(3, rng=random.Random(seed))
        if game.to_act() != {0}:  # the dealer is drawn: seat 0 must be förhand
            continue
        probe = game.clone()
        probe.apply(0, probe.parse("turn"))
        phase = dict(probe.view(None).phase.args)
        if "window_ms" in phase:
            return spec.new(3, rng=random.Random(seed)), rank_of(parse_card(str(phase["card"])))
    raise AssertionError("no trigger card found")


def _hej_knekt_table(game: Game, console: FakeConsole) -> TerminalTable:
    return TerminalTable(
        spec=SPECS["hej_knekt"],
        game=game,
        human=0,
        render=TextRenderer(catalog("en"), ["You", "Bo", "Cia"]),
        console=console,
        rng=random.Random(3),
        kinds={1: "rules", 2: "rules"},
    )


def test_hej_knekt_window_takes_a_typed_reaction_in_time() -> None:
    _needs("hej_knekt")
    game, rank = _hej_knekt_with_a_trigger_first()
    verb = HEJ_KNEKT_PRESS[rank]
    console = FakeConsole(["", Typed(250, "xyz"), Typed(50, verb)])
    table = _hej_knekt_table(game, console)
    table.run()  # the script runs out at the next prompt: the player leaves
    text = console.text
    assert "React! Type within 5 seconds" in text
    assert "That is not a reaction" in text
    # 250 ms to the bad line, 50 more to the right one: pressed at 300 ms since the reveal
    assert "You: " + table.render.t(f"hej_knekt.action.{verb}") + " (300 ms)" in text
    assert "You: right after 300 ms" in text


def test_hej_knekt_window_closes_when_time_is_up() -> None:
    _needs("hej_knekt")
    game, _ = _hej_knekt_with_a_trigger_first()
    cards_before = game.view(None).seats[0].cards
    console = FakeConsole([""])  # turn, then never react
    table = _hej_knekt_table(game, console)
    table.run()
    after = game.view(None)
    assert after.seats[0].cards == cards_before, "who never reacted picks up the turned card"
    assert "You: did nothing" in console.text
    assert console.clock <= 5.0 + 1e-9, "nothing waits past the reaction time"


# --- the command line -----------------------------------------------------------------------------


def test_unknown_game_is_refused_with_exit_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "schack", "--lang", "en"]) == 2
    assert "There is no game “schack”" in capsys.readouterr().err


def test_bad_option_and_seat_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    if not SPECS:
        pytest.skip("no game registered yet")
    game_id = next(iter(SPECS))
    assert main(["play", game_id, "--option", "nonsense=1"]) == 2
    assert "har ingen inställning nonsense. Inställningar:" in capsys.readouterr().err
    assert main(["play", game_id, "--option", "novalue"]) == 2
    assert "Skriv en inställning som namn = värde" in capsys.readouterr().err
    assert main(["play", "hej_knekt", "--option", "reaction_ms=0", "--lang", "en"]) == 2
    said = capsys.readouterr().err
    assert "reaction time (ms) must be a whole number from 3000 to 15000, not 0" in said
    assert main(["play", "hej_knekt", "--option", "falskt alarm=kanske"]) == 2
    assert "falskt alarm är ja eller nej, inte kanske" in capsys.readouterr().err
    assert main(["play", game_id, "--seat", "9", "--lang", "en"]) == 2
    assert "There is no seat 9" in capsys.readouterr().err
    assert main(["play", game_id, "--players", "99"]) == 2
    assert main(["play", game_id, "--opponents", "oracle"]) == 2


def test_seat_names() -> None:
    assert seat_names("sv", 3, 1) == ["Astrid", "Du", "Bertil"]
    assert seat_names("en", 2, 0, "Kim") == ["Kim", "Astrid"]


def test_the_terminal_plays_a_whole_match_against_a_hard_opponent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(terminal, "TERMINAL_SEARCH_ITERATIONS", 20)  # a quick search
    typist = Typist(0, 2)
    request = PlayRequest("tvamanswhist", seed=2, pace=0.0, opponents="hard", lang="en")
    table = build_table(request, typist)
    assert table.kinds == {1: "hard"}
    typist.game = table.game
    assert table.run()
    assert table.game.is_over()
    assert "Final result:" in typist.text


def test_the_terminal_opponents_are_normal_unless_a_level_is_asked_for() -> None:
    assert build_table(PlayRequest("tvamanswhist"), FakeConsole()).kinds == {1: "normal"}
    easy = build_table(PlayRequest("tvamanswhist", players=2, opponents="easy"), FakeConsole())
    assert easy.kinds == {1: "easy"}


@pytest.mark.parametrize(("lang", "court"), [("sv", ("E", "D", "Kn")), ("en", ("A", "Q", "J"))])
def test_the_terminal_shows_cards_with_the_ranks_of_its_language(
    lang: str, court: tuple[str, ...]
) -> None:
    console = FakeConsole([])
    table = build_table(PlayRequest("tvamanswhist", seed=3, lang=lang), console)
    assert not table.run()  # shows the table and the hand, then the script ends
    hand = table.game.view(table.human).hand
    faces = PLAIN.speaking(catalog(lang))
    shown = next(
        line for line in console.lines if catalog(lang).text("view.hand", cards="") in line
    )
    assert shown.split(":", 1)[1].split() == [card_face(c, faces) for c in sort_hand(hand)]
    indices = {card_face(c, faces)[:-1] for c in hand}
    assert indices & set(court), "the hand holds a card whose index differs between languages"


def test_femhundra_seats_three_by_default_as_the_game_is_best_played() -> None:
    table = build_table(PlayRequest("femhundra", seed=1, pace=0.0), Typist(0, 1))
    assert table.game.players == 3
    assert build_table(PlayRequest("piquet", seed=1, pace=0.0), Typist(0, 1)).game.players == 2
