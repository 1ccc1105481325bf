"""The search player (``hard``) and the levels: legal moves only, every registered game finished,
the same seed giving the same moves, nothing read but the seat's Decision, and a small duplicate
match in which it is ahead of the random player. Budgets are tiny so the suite stays fast."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest

from games.ai import (
    LEVELS,
    PLAYER_KINDS,
    REACTIONS,
    EasyPlayer,
    RandomPlayer,
    RulesPlayer,
    SearchPlayer,
    choose,
    decision_for,
    level_of,
    make_player,
    reaction_of,
)
from games.ai.duplicate import Summary, duplicate_deal, duplicate_outcome, play_match, summarize
from games.ai.search import (
    EVIDENCE,
    SearchStats,
    candidate_actions,
    follow_suit,
    gain_outcome,
    has_observed_plays,
    place_outcome,
    play_weight,
    score_direction,
    search_part,
)
from games.core import Game, Msg, Result, SeatView, View
from games.registry import SPECS
from games.tricks import PLAIN_POWER, PLAIN_SUIT


def tiny() -> SearchPlayer:
    return SearchPlayer(iterations=6, playout_actions=40, guided_actions=2)


def _advance(game_id: str, players: int, seed: int, actions: int) -> Game:
    """A match of ``game_id`` after ``actions`` rule-based moves from ``seed``."""
    game = SPECS[game_id].new(players, rng=random.Random(seed))
    rng = random.Random(seed)
    for _ in range(actions):
        acting = sorted(game.to_act())
        game.apply(acting[0], choose(game, acting[0], "rules", rng))
    return game


def _mid_deal_nittionio() -> Game:
    game = _advance("nittionio", 3, 5, 12)
    assert game.view(None).phase.key == "nittionio.phase.tricks"
    return game


@pytest.mark.parametrize("game_id", list(SPECS))
def test_the_search_player_finishes_every_registered_game_with_legal_moves(game_id: str) -> None:
    spec = SPECS[game_id]
    players = spec.min_players
    # choose() refuses an illegal action; the search plays seat 0 (and its partners) throughout.
    teams = spec.new(players, rng=random.Random(0)).view(None).teams
    side = next((t for t in teams if 0 in t), (0,))
    seated = [tiny() if s in side else RulesPlayer() for s in range(players)]
    result = play_match(spec, players, 3, seated, random.Random(3))
    assert sorted(result.places)[0] == 1


def test_the_same_seed_gives_the_same_moves() -> None:
    game = _mid_deal_nittionio()
    seat = min(game.to_act())
    first, second = SearchPlayer(iterations=150), SearchPlayer(iterations=150)
    a = choose(game, seat, first, random.Random(7))
    b = choose(game, seat, second, random.Random(7))
    assert a == b
    assert first.last == second.last
    assert first.last is not None
    assert first.last.iterations == 150


def test_the_search_answers_a_simultaneous_bid_of_three_cards() -> None:
    # Nittionio's first decision: every seat lays three bid cards at once, 84 ways.
    game = SPECS["nittionio"].new(3, rng=random.Random(2))
    assert len(game.to_act()) == 3
    player = SearchPlayer(iterations=60)
    action = choose(game, 1, player, random.Random(1))
    assert game.notation(action).startswith("bid ")
    assert player.last is not None
    assert len(player.last.actions) == player.candidates
    prior = RulesPlayer().choose(decision_for(game, 1), random.Random(0))
    assert prior in player.last.actions


def test_a_budget_in_time_stops_the_search_early() -> None:
    game = _mid_deal_nittionio()
    asked = []

    def stop() -> bool:
        asked.append(True)
        return len(asked) > 3  # "time is up" at the fourth question

    player = SearchPlayer(iterations=10_000, stop=stop)
    choose(game, min(game.to_act()), player, random.Random(1))
    assert player.last is not None
    assert player.last.iterations <= 40


def test_with_no_budget_the_search_plays_the_rule_based_move() -> None:
    game = _mid_deal_nittionio()
    seat = min(game.to_act())
    rules = RulesPlayer().choose(decision_for(game, seat), random.Random(0))
    assert choose(game, seat, SearchPlayer(iterations=1), random.Random(0)) == rules


class _Spy:
    """A match that records what is asked of it, to show the player reads only its Decision."""

    def __init__(self, game: Game) -> None:
        self._game = game
        self.asked: list[tuple[str, object]] = []

    def __getattr__(self, name: str) -> object:
        target = getattr(self._game, name)
        if not callable(target):
            self.asked.append((name, None))
            return target

        def call(*args: object) -> object:
            self.asked.append((name, args[0] if args else None))
            return target(*args)

        return call


@pytest.mark.parametrize("game_id", ["nittionio", "svarte_petter", "braus"])
def test_the_search_never_sees_a_hidden_card(game_id: str) -> None:
    game = _advance(game_id, SPECS[game_id].min_players, 4, 6)
    seat = min(game.to_act())
    before = [game.view(s) for s in (None, *range(game.players))]
    spy = _Spy(game)
    choose(spy, seat, SearchPlayer(iterations=40), random.Random(2))  # type: ignore[arg-type]
    # It asked only for the seat's own view and legal actions, notations and re-dealt copies.
    allowed = {"game_id", "legal_actions", "view", "notation", "parse", "determinize"}
    assert {name for name, _ in spy.asked} <= allowed
    for name, arg in spy.asked:
        if name in ("legal_actions", "view", "determinize"):
            assert arg == seat, (name, arg)
    # and the real match is untouched: every search world was a re-dealt copy
    assert [game.view(s) for s in (None, *range(game.players))] == before


def test_hard_is_ahead_of_random_in_a_small_duplicate_match() -> None:
    spec = SPECS["tvamanswhist"]
    advantages = [
        duplicate_deal(
            spec, 2, seed, lambda: SearchPlayer(iterations=20, guided_actions=0), RandomPlayer
        )
        for seed in range(6)
    ]
    summary = summarize(advantages)
    assert summary.mean > 0.5, advantages
    assert summary.significant, summary


def test_outcomes_count_a_partner_as_oneself() -> None:
    sides = ((0, 2), (1, 3))
    assert gain_outcome([0, 5, 8, 1], sides, 0) == 1.0
    assert gain_outcome([0, 5, 8, 1], sides, 1) == -1.0
    assert place_outcome(Result((0, 0, 0, 0), (2, 1, 2, 1)), sides, 0) == -1.0
    three = ((0,), (1,), (2,))
    assert gain_outcome([3, 1, 3], three, 0) == 0.5
    assert place_outcome(Result((9, 3, 1), (1, 2, 3)), three, 1) == 0.0


def test_a_game_that_counts_points_against_is_read_as_such() -> None:
    # Skitgubbe scores cards left in hand as negative points: more is better all the same.
    assert score_direction("skitgubbe", 3) == 1
    assert score_direction("no_such_game", 3) == 1


def test_many_legal_actions_are_cut_to_the_prior_and_a_seeded_sample() -> None:
    legal = list(range(100))
    cut = candidate_actions(legal, 42, 10, random.Random(1))
    assert len(set(cut)) == 10
    assert cut[0] == 42
    assert set(cut) <= set(legal)
    assert cut == candidate_actions(legal, 42, 10, random.Random(1))
    assert candidate_actions(legal[:5], 3, 10, random.Random(1)) == (0, 1, 2, 3, 4)


# --- levels ---------------------------------------------------------------------------------------


def test_the_three_levels_are_player_kinds() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert {"easy", "normal", "hard", "rules", "random"} <= set(PLAYER_KINDS)
    assert isinstance(make_player("hard"), SearchPlayer)
    assert level_of("rules") == "normal"
    assert level_of("hard") == "hard"


def test_easy_mostly_plays_the_rule_based_move_and_sometimes_not() -> None:
    game = _mid_deal_nittionio()
    seat = min(game.to_act())
    decision = decision_for(game, seat)
    rules = RulesPlayer().choose(decision, random.Random(0))
    picks = [EasyPlayer().choose(decision, random.Random(seed)) for seed in range(200)]
    share = picks.count(rules) / len(picks)
    assert 0.6 < share < 0.95, share


def test_levels_differ_in_reaction_time_and_slips() -> None:
    easy, normal, hard = (REACTIONS[level] for level in LEVELS)
    assert easy.median_ms > normal.median_ms > hard.median_ms
    assert easy.wrong_rate > normal.wrong_rate > hard.wrong_rate
    assert reaction_of("rules") == normal
    assert reaction_of("random") == normal


@pytest.mark.parametrize("kind", ["easy", "normal", "hard"])
def test_every_level_plays_hej_knekt_windows(kind: str) -> None:
    # A real-time window is not searched: the level answers at once with a legal press.
    spec = SPECS["hej_knekt"]
    player = make_player(kind)
    if isinstance(player, SearchPlayer):
        player.iterations = 5
    result = play_match(spec, 3, 1, [player, RandomPlayer(), RandomPlayer()], random.Random(1))
    assert sorted(result.places)[0] == 1


def test_the_search_leaves_the_rule_based_move_only_on_evidence() -> None:
    # The means are advantages over the prior (7) in paired samples.
    ahead = 0.9 * EVIDENCE * 0.1
    close = SearchStats(180, (5, 7, 9), (60, 90, 30), (ahead, 0.0, ahead), (0.1, 0.0, 0.1))
    assert close.choice(7) == 7  # ahead, but not surely: the prior stays
    sure = (EVIDENCE * 0.1 + 0.1, 0.0, EVIDENCE * 0.1 + 0.15)
    clear = SearchStats(180, (5, 7, 9), (60, 90, 30), sure, (0.1, 0.0, 0.1))
    assert clear.choice(7) == 9  # the surer advantage
    few = SearchStats(10, (5, 7), (2, 5), (1.0, 0.0), (0.0, 0.0))
    assert few.choice(7) == 7  # too few samples to count as evidence


def _side_ace(hand: Sequence[int], trump: int | None) -> bool:
    return any(c < 52 and PLAIN_POWER[c] == 14 and PLAIN_SUIT[c] != trump for c in hand)


@pytest.mark.parametrize("seed", [0, 3, 5])
def test_weighted_samples_favour_holdings_consistent_with_the_observed_lead(seed: int) -> None:
    # Tvåmanswhist, the opponent has led a low side-suit card. The rule-based player leads a
    # side ace when it holds one, so worlds where the leader holds a side ace explain the lead
    # badly: weighted by the others' play, the sample gives them far less weight than the plain
    # sample of determinize does.
    game = SPECS["tvamanswhist"].new(2, rng=random.Random(seed))
    rng = random.Random(seed)
    while True:
        seat = min(game.to_act())
        decision = decision_for(game, seat)
        if has_observed_plays(decision):
            break
        game.apply(seat, choose(game, seat, "normal", rng))
    ((leader, led),) = decision.view.trick
    trump = decision.view.trump
    assert PLAIN_POWER[int(led)] < 14
    assert PLAIN_SUIT[int(led)] != trump
    sampler = random.Random(1)
    plain = weighted = total = 0.0
    for _ in range(200):
        world = game.determinize(seat, sampler)
        ace = _side_ace([int(c) for c in world.view(leader).hand], trump)
        weight = play_weight(world, decision, RulesPlayer(), sampler)
        plain += ace
        weighted += weight * ace
        total += weight
    assert plain / 200 > 0.4
    assert weighted / total < 0.6 * plain / 200


def test_a_world_weighs_one_without_plays_to_judge() -> None:
    # The first lead of a deal: no card on the table, nothing to weigh a world by.
    game = SPECS["tvamanswhist"].new(2, rng=random.Random(0))
    seat = min(game.to_act())
    decision = decision_for(game, seat)
    assert not has_observed_plays(decision)
    world = game.determinize(seat, random.Random(2))
    assert play_weight(world, decision, RulesPlayer(), random.Random(0)) == 1.0


def test_split_searches_merge_into_the_statistics_of_one() -> None:
    game = _mid_deal_nittionio()
    seat = min(game.to_act())
    player = SearchPlayer(iterations=40, guided_actions=0)
    prior, actions = player.plan(decision_for(game, seat), random.Random(3))
    parts = [search_part(game, seat, actions, prior, 20, seed) for seed in (1, 2)]
    merged = SearchStats.merge(parts)
    assert merged.iterations == 40
    assert merged.actions == actions
    for k in range(len(actions)):
        assert merged.visits[k] == parts[0].visits[k] + parts[1].visits[k]
        both = parts[0].means[k] * parts[0].visits[k] + parts[1].means[k] * parts[1].visits[k]
        if merged.visits[k]:
            assert merged.means[k] == pytest.approx(both / merged.visits[k])
    assert merged.choice(prior) in actions
    with pytest.raises(ValueError, match="different candidates"):
        SearchStats.merge([parts[0], SearchStats(1, actions[:1], (1,), (0.0,), (math.inf,))])


def test_duplicate_real_time_windows_follow_the_levels_reaction_models() -> None:
    # In Hej knekt the levels differ only in how fast and how surely they press: played by the
    # reaction models, hard (faster, fewer slips) is ahead of normal, and normal of easy.
    spec = SPECS["hej_knekt"]

    def ahead(a: str, b: str) -> Summary:
        return summarize(
            [
                duplicate_deal(spec, 3, seed, lambda: make_player(a), lambda: make_player(b))
                for seed in range(1, 9)
            ]
        )

    for a, b in (("hard", "normal"), ("normal", "easy")):
        summary = ahead(a, b)
        assert summary.significant, (a, b, summary)
    mirror = ahead("normal", "normal")
    assert mirror.mean == pytest.approx(0.0, abs=0.5)


def test_duplicate_outcomes_count_points_per_deal_of_cards() -> None:
    spec = SPECS["nittionio"]
    outcome = duplicate_outcome(spec, 3, 4, lambda: make_player("normal"), RandomPlayer)
    assert outcome.places > 0
    assert outcome.points > 0
    assert duplicate_deal(spec, 3, 4, lambda: make_player("normal"), RandomPlayer) == (
        outcome.places
    )


def test_plays_are_not_weighed_where_the_duty_is_more_than_following_suit() -> None:
    # Femkort: a follower holding the led suit must beat the trick when able. Here the seat holds
    # 3D and KD on a 5D and may play only KD, which "follow suit if able" does not explain: the
    # other seat's play would be judged by the wrong rule, so the samples stay unweighted.
    game = SPECS["femkort"].new(2, rng=random.Random(0))
    rng = random.Random(0)
    while True:
        seat = min(game.to_act())
        decision = decision_for(game, seat)
        cards = {s.action for s in decision.shapes if s.plays_one_card}
        hand = [int(c) for c in decision.view.hand]
        if decision.view.trick and cards and cards != set(follow_suit(hand, decision.view.trick)):
            break
        game.apply(seat, choose(game, seat, "normal", rng))
    assert not has_observed_plays(decision)


def test_the_search_leaves_what_a_game_lists_to_the_rule_based_choice() -> None:
    # Femkort lists proposals of better cards (SEARCH_LEAVES): the search offers one only when
    # the rule-based player makes it, and searches the cards as before.
    player = SearchPlayer(iterations=10)
    left = kept = 0
    for seed in range(40):
        if left and kept:
            break
        game = SPECS["femkort"].new(2, rng=random.Random(seed))
        rng = random.Random(seed)
        while not game.is_over():
            seat = min(game.to_act())
            decision = decision_for(game, seat)
            texts = dict(zip(decision.notations, decision.legal, strict=True))
            if "better" in texts:
                prior, actions = player.plan(decision, random.Random(7))
                if prior == texts["better"]:
                    kept += 1
                    assert prior in actions
                else:
                    left += 1
                    assert texts["better"] not in actions
                    assert set(actions) == {a for a in decision.legal if a < 52}
            game.apply(seat, choose(game, seat, "normal", rng))
    assert left
    assert kept


class Doors(Game):
    """A one-decision game for the search: seat 0 opens one of three doors, then a draw from the
    game's own generator says whether it wins, with door ``d``'s chance ``chances[d - 1]``."""

    game_id = "doors"

    def __init__(self, chances: tuple[float, ...], rng: random.Random) -> None:
        self.chances = chances
        self.rng = rng
        self.won: bool | None = None

    @property
    def players(self) -> int:
        return 2

    def to_act(self) -> frozenset[int]:
        return frozenset({0}) if self.won is None else frozenset()

    def legal_actions(self, seat: int) -> list[int]:
        return [1, 2, 3] if seat in self.to_act() else []

    def apply(self, seat: int, action: int) -> None:
        self.won = self.rng.random() < self.chances[action - 1]

    def view(self, seat: int | None) -> View:
        return View(
            game=self.game_id,
            seat=seat,
            phase=Msg.of("table.phase.over" if self.won is not None else "doors.phase.open"),
            to_act=self.to_act(),
            hand=(),
            seats=(SeatView(cards=0), SeatView(cards=0)),
        )

    def is_over(self) -> bool:
        return self.won is not None

    def result(self) -> Result:
        if self.won is None:
            raise ValueError("the match is not over")
        return Result.by_score([1, 0] if self.won else [0, 1])

    def notation(self, action: int) -> str:
        return f"door {action}"

    def parse(self, text: str) -> int:
        return int(text.split()[1])

    def determinize(self, seat: int, rng: random.Random) -> Doors:
        other = self.clone()
        other.rng = random.Random(rng.getrandbits(64))
        return other


def test_the_search_keeps_the_rule_based_move_when_no_other_is_surely_better() -> None:
    # Every door wins as often as the others. Each candidate is compared with the rule-based
    # door in the same sampled worlds, so the outcomes match sample by sample and no door looks
    # better by the luck of its samples: the rule-based door is kept every time.
    for seed in range(30):
        game = Doors((0.5, 0.5, 0.5), random.Random(seed))
        player = SearchPlayer(iterations=200)
        decision = decision_for(game, 0)
        prior, _ = player.plan(decision, random.Random(seed))
        assert choose(game, 0, player, random.Random(seed)) == prior


def test_the_search_leaves_the_rule_based_move_for_a_surely_better_one() -> None:
    for seed in range(10):
        game = Doors((0.5, 0.5, 0.5), random.Random(seed))
        prior, _ = SearchPlayer().plan(decision_for(game, 0), random.Random(seed))
        better = 3 if prior != 3 else 2
        chances = tuple(0.9 if door == better else 0.4 for door in (1, 2, 3))
        game = Doors(chances, random.Random(seed))
        assert choose(game, 0, SearchPlayer(iterations=200), random.Random(seed)) == better
