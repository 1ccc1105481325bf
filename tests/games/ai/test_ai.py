"""Computer players: every registered game (and the toy game) is played to the end by random and by
rule-based players, with only legal actions; the rule-based player beats the random one; the
generic trick play and the reaction-time sampler behave as a player would expect."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator
from typing import TypeVar

import pytest
from toygame import SPEC as TOY

from games.ai import (
    PLAYER_KINDS,
    RulesPlayer,
    choose,
    decision_for,
    is_timed_window,
    make_player,
    reaction_presses,
    shape_of,
    trickplay,
)
from games.cards import Card, parse_card
from games.core import Game, GameSpec, Options, View
from games.registry import SPECS

MAX_ACTIONS = 60_000
OptionsT = TypeVar("OptionsT", bound=Options)


def _cases() -> Iterator[tuple[str, int]]:
    for spec in SPECS.values():
        for players in sorted({spec.min_players, spec.max_players}):
            yield spec.id, players


def _play(game: Game, kinds: dict[int, str], rng: random.Random) -> int:
    """Play to the end with the given player kind per seat; the number of actions."""
    players = {s: make_player(k) for s, k in kinds.items()}
    for count in range(MAX_ACTIONS):
        if game.is_over():
            return count
        acting = sorted(game.to_act())
        seat = acting[rng.randrange(len(acting))]
        legal = game.legal_actions(seat)
        action = choose(game, seat, players[seat], rng)  # choose() refuses an illegal choice
        assert action in legal
        game.apply(seat, action)
    pytest.fail("the match did not end")


@pytest.mark.parametrize("kind", ["random", "rules"])
@pytest.mark.parametrize(("game_id", "players"), list(_cases()))
def test_every_registered_game_is_played_to_the_end(game_id: str, players: int, kind: str) -> None:
    spec = SPECS[game_id]
    for seed in (1, 2):
        game = spec.new(players, rng=random.Random(seed))
        _play(game, dict.fromkeys(range(players), kind), random.Random(seed + 100))
        assert min(game.result().places) == 1


@pytest.mark.parametrize("kind", ["random", "rules"])
@pytest.mark.parametrize("players", [2, 3])
def test_the_toy_game_is_played_to_the_end(players: int, kind: str) -> None:
    for seed in range(3):
        game = TOY.new(players, rng=random.Random(seed))
        assert _play(game, dict.fromkeys(range(players), kind), random.Random(seed)) > 0


def test_player_kinds_are_named() -> None:
    assert {"random", "rules"} <= set(PLAYER_KINDS)
    with pytest.raises(KeyError, match="kinds: random"):
        make_player("oracle")


def _wins(spec: GameSpec[OptionsT], players: int, seeds: range) -> tuple[int, int]:
    """Matches won outright by the rule-based seat 0 and by random seat 0 against the same field."""
    won = [0, 0]
    for i, kind in enumerate(("rules", "random")):
        for seed in seeds:
            game = spec.new(players, rng=random.Random(seed))
            kinds = {0: kind} | dict.fromkeys(range(1, players), "random")
            _play(game, kinds, random.Random(seed))
            won[i] += game.result().places[0] == 1
    return won[0], won[1]


def test_rules_player_beats_random_player_in_the_toy_trick_game() -> None:
    rules, rand = _wins(TOY, 2, range(60))
    assert rules >= rand + 10, (rules, rand)


@pytest.mark.parametrize(("game_id", "matches"), [("tvamanswhist", 60), ("nittionio", 20)])
def test_rules_player_beats_random_player_in_a_real_trick_game(game_id: str, matches: int) -> None:
    if game_id not in SPECS:
        pytest.skip(f"{game_id} is not registered yet")
    spec = SPECS[game_id]
    rules, rand = _wins(spec, spec.min_players, range(matches))
    assert rules >= rand + matches // 5, (rules, rand)


# --- reading notations ----------------------------------------------------------------------------


def test_shapes_of_notations() -> None:
    qs = parse_card("QS")
    assert shape_of(qs, "QS").plays_one_card
    bid = shape_of(5000, "bid 7D KS TC")
    assert bid.verb == "bid"
    assert bid.cards == tuple(parse_card(c) for c in ("7D", "KS", "TC"))
    assert shape_of(1003, "draw 3").numbers == (3,)
    assert shape_of(1004, "trumf H").words == ("H",)
    assert shape_of(1000, "pass").verb == "pass"
    group = shape_of(2000, "QC KC AC")  # several cards at once, no verb (Skitgubbe)
    assert (group.verb, group.plays_one_card) == ("", False)
    assert group.cards == tuple(parse_card(c) for c in ("QC", "KC", "AC"))
    assert is_timed_window(["whistle 0", "hej 0", "close 0"])
    assert not is_timed_window(["turn"])
    assert not is_timed_window(["draw 1", "draw 2"])


# --- trick play -----------------------------------------------------------------------------------


def _view(trick: list[tuple[int, str]], trump: int | None, players: int = 3) -> View:
    from games.core import Msg, SeatView

    return View(
        game="toy",
        seat=0,
        phase=Msg.of("toy.phase.play"),
        to_act=frozenset({0}),
        hand=(),
        seats=tuple(SeatView(cards=5) for _ in range(players)),
        trick=tuple((s, Card.parse(c)) for s, c in trick),
        trump=trump,
    )


def _cards(*codes: str) -> list[int]:
    return [parse_card(c) for c in codes]


def test_last_to_play_wins_as_cheaply_as_possible() -> None:
    view = _view([(1, "9H"), (2, "JH")], trump=None)
    assert trickplay.play(_cards("QH", "AH", "2H"), view) == parse_card("QH")


def test_without_a_winner_the_lowest_card_is_shed() -> None:
    view = _view([(1, "AH")], trump=None)
    assert trickplay.play(_cards("KH", "3H", "9H"), view) == parse_card("3H")


def test_a_void_hand_ruffs_with_the_lowest_trump_and_keeps_side_aces() -> None:
    view = _view([(1, "KH"), (2, "AH")], trump=0)
    assert trickplay.play(_cards("5C", "JC", "AS"), view) == parse_card("5C")


def test_a_seat_that_wants_no_more_tricks_ducks_with_its_highest_loser() -> None:
    view = _view([(1, "JH")], trump=None)
    assert trickplay.play(_cards("QH", "TH", "4H"), view, want=False) == parse_card("TH")


def test_leading_cashes_an_ace_or_opens_the_longest_suit_low() -> None:
    assert trickplay.play(_cards("AS", "4H", "9H"), _view([], None)) == parse_card("AS")
    assert trickplay.play(_cards("KS", "4H", "9H"), _view([], None)) == parse_card("4H")


def test_decision_shows_only_what_the_seat_may_know() -> None:
    game = TOY.new(2, rng=random.Random(4))
    decision = decision_for(game, 0)
    assert decision.view == game.view(0)
    assert list(decision.legal) == game.legal_actions(0)
    assert decision.find(decision.notations[0]) == decision.legal[0]
    assert decision.find("xyzzy") is None
    other = decision.determinize(random.Random(1))
    assert other.view(0) == game.view(0)


# --- reaction times -------------------------------------------------------------------------------


def test_reaction_times_are_human_like_and_reproducible() -> None:
    rng = random.Random(7)
    plans = [reaction_presses(rng) for _ in range(2000)]
    firsts = [p[0].at_ms for p in plans]
    assert 650 <= statistics.median(firsts) <= 850
    assert min(firsts) >= 280
    assert max(firsts) <= 2500
    slips = [p for p in plans if len(p) == 2]
    assert 0.03 <= len(slips) / len(plans) <= 0.1
    assert all(not p[0].correct and p[1].correct and p[1].at_ms > p[0].at_ms for p in slips)
    assert all(p[-1].correct for p in plans)
    again = random.Random(7)
    assert [reaction_presses(again) for _ in range(2000)] == plans


def test_svarte_petter_rules_player_draws_and_never_shuffles() -> None:
    if "svarte_petter" not in SPECS:
        pytest.skip("svarte_petter is not registered yet")
    game = SPECS["svarte_petter"].new(3, rng=random.Random(1))
    rng = random.Random(1)
    while not game.is_over():
        seat = min(game.to_act())
        action = choose(game, seat, "rules", rng)
        assert game.notation(action).startswith("draw ")
        game.apply(seat, action)


def test_easy_makes_its_real_time_mistakes_by_its_reaction_model_not_at_random() -> None:
    """Hej knekt with false alarms: a random move in a window on a 2-9 card would be a press
    that picks up the centre; one easy player in four doing it kept the piles from shrinking."""
    from games.ai.levels import EasyPlayer

    spec = SPECS["hej_knekt"]
    game = spec.new(3, spec.preset("false_alarm"), rng=random.Random(3))
    windows = 0
    while windows < 5 and not game.is_over():
        acting = sorted(game.to_act())
        decision = decision_for(game, acting[0])
        if is_timed_window(decision.notations):
            windows += 1
            rules = RulesPlayer().choose(decision, random.Random(0))
            for seed in range(60):
                assert EasyPlayer().choose(decision, random.Random(seed)) == rules
            game.apply(acting[0], rules)
        else:
            game.apply(acting[0], decision.legal[0])
    assert windows == 5
