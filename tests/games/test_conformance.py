"""The contract, checked over every registered game with no game-specific code.

Random playouts over several seeds, player counts and variants must end; every card stays accounted
for; replaying the record rebuilds the same state; notation round-trips; a seat's view does not
change when the cards hidden from it are re-dealt; the spectator sees no hidden card; an illegal
action raises and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from forks import count_lost

from games.cards import JOKER, code
from games.core import Game, GameSpec, IllegalActionError, NotationError, Options, View
from games.registry import SPECS

MAX_ACTIONS = 60_000
SEEDS = (1, 2, 3)


def _cases() -> Iterator[tuple[str, int, str]]:
    for spec in SPECS.values():
        counts = range(spec.min_players, spec.max_players + 1)  # every count the game allows
        for preset in ("standard", *[p for p in spec.presets if p != "standard"]):
            for players in counts:
                yield spec.id, players, preset


CASES = list(_cases())


def _new(spec: GameSpec[Options], players: int, preset: str, seed: int) -> Game | None:
    """A new match, or None where the variant does not allow that many players."""
    try:
        return spec.new(players, spec.preset(preset), rng=random.Random(seed))
    except ValueError:
        if players in (spec.min_players, spec.max_players) and preset == "standard":
            raise
        return None


def _views(game: Game) -> list[View]:
    views = [game.view(s) for s in range(game.players)]
    for seat, view in enumerate(views):
        assert game.hand(seat) == view.hand, f"seat {seat}'s hand is not its view's"
    public = game.view(None)
    assert game.deal_number() == public.deal, "the deal number is not the view's"
    return [*views, public]


def _total_cards(view: View) -> int:
    return (
        sum(s.cards for s in view.seats)
        + sum(len(p.cards) + p.hidden for p in view.piles)
        + len(view.trick)
    )


def _actor(game: Game, rng: random.Random) -> int:
    seats = sorted(game.to_act())
    return seats[rng.randrange(len(seats))]


def _playout(game: Game, rng: random.Random) -> list[tuple[int, str]]:
    """Play random legal actions to the end, checking the invariants at each step: the record."""
    record: list[tuple[int, str]] = []
    total = _total_cards(game.view(None))
    for _ in range(MAX_ACTIONS):
        if game.is_over():
            assert not game.to_act(), "a finished match still has seats to act"
            return record
        seat = _actor(game, rng)
        legal = game.legal_actions(seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        assert len(set(legal)) == len(legal), "legal_actions repeats an action"
        action = legal[rng.randrange(len(legal))]
        text = game.notation(action)
        assert game.parse(text) == action, f"notation {text!r} does not round-trip"
        game.apply(seat, action)
        record.append((seat, text))
        assert _total_cards(game.view(None)) == total, f"cards not conserved after {text}"
        assert game.hand(seat) == game.view(seat).hand, f"the hand is not the view's after {text}"
        assert game.deal_number() == game.view(None).deal, f"deal_number is off after {text}"
    pytest.fail(f"match did not end within {MAX_ACTIONS} actions")


@pytest.mark.parametrize(("game_id", "players", "preset"), CASES)
def test_random_playouts_end_conserve_cards_and_replay(
    game_id: str, players: int, preset: str
) -> None:
    spec = SPECS[game_id]
    for seed in SEEDS:
        game = _new(spec, players, preset, seed)
        if game is None:
            pytest.skip(f"{preset} is not played by {players}")
        record = _playout(game, random.Random(seed * 7919))
        result = game.result()
        assert len(result.scores) == len(result.places) == players
        assert min(result.places) == 1
        assert all(1 <= p <= players for p in result.places)

        replay = _new(spec, players, preset, seed)
        assert replay is not None
        for seat, text in record:
            replay.apply(seat, replay.parse(text))
        assert replay.is_over()
        assert replay.result() == result
        assert _views(replay) == _views(game)


def _states_along_a_playout(game: Game, rng: random.Random, samples: int) -> Iterator[Game]:
    """Yield the live match at ``samples`` random points of one random playout."""
    length = len(_playout(game.clone(), random.Random(rng.random())))
    stops = set(rng.sample(range(length), min(samples, length)))
    for step in range(length):
        if game.is_over():
            return
        if step in stops:
            yield game
        seat = _actor(game, rng)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("game_id", "players", "preset"), CASES)
def test_no_leak_through_views(game_id: str, players: int, preset: str) -> None:
    spec = SPECS[game_id]
    game = _new(spec, players, preset, 11)
    if game is None:
        pytest.skip(f"{preset} is not played by {players}")
    rng = random.Random(5)
    for state in _states_along_a_playout(game, rng, samples=25):
        spectator = state.view(None)
        assert spectator.hand == (), "the spectator view holds a hand"
        assert spectator.marked == (), "the spectator view marks a card"
        for seat in range(players):
            mine = state.view(seat)
            assert set(mine.marked) <= set(mine.hand), "a marked card is not in the hand"
            for _ in range(2):
                other = state.determinize(seat, random.Random(rng.random()))
                assert other.view(seat) == mine, "a view changes when hidden cards are re-dealt"
                assert other.view(None) == spectator, "the spectator view shows a hidden card"
                assert other.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_only_a_realtime_game_opens_a_reaction_window(game_id: str) -> None:
    # the bot asks only a realtime game whether a reaction window is open
    spec = SPECS[game_id]
    game = _new(spec, spec.min_players, "standard", 5)
    assert game is not None
    for state in _states_along_a_playout(game, random.Random(5), 40):
        assert spec.realtime or "window_ms" not in dict(state.view(None).phase.args)


@pytest.mark.parametrize(("game_id", "players", "preset"), CASES)
def test_illegal_actions_raise_and_change_nothing(game_id: str, players: int, preset: str) -> None:
    spec = SPECS[game_id]
    game = _new(spec, players, preset, 21)
    if game is None:
        pytest.skip(f"{preset} is not played by {players}")
    rng = random.Random(8)
    every_card = [code(c) for c in range(52)] + [code(JOKER)]
    for state in _states_along_a_playout(game, rng, samples=20):
        before = _views(state)
        acting = state.to_act()
        for seat in range(players):
            legal = set(state.legal_actions(seat))
            if seat not in acting:
                assert not legal, f"seat {seat} has legal actions but is not to act"
            for text in every_card:
                try:
                    action = state.parse(text)
                except NotationError:
                    continue
                if action in legal:
                    continue
                with pytest.raises(IllegalActionError):
                    state.apply(seat, action)
            assert _views(state) == before, "a refused action changed the match"


@pytest.mark.parametrize("game_id", list(SPECS))
def test_hands_and_the_deal_number_are_told_without_a_view(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot asks every member's hand and the deal's number after every action: each game
    answers them from its state, as its views do, without working out a whole view (which costs
    a hundred times more)."""
    spec = SPECS[game_id]
    game = spec.new(spec.max_players, rng=random.Random(5))
    rng = random.Random(6)
    for _ in range(20):
        if game.is_over():
            break
        seat = _actor(game, rng)
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    hands = [game.view(s).hand for s in range(game.players)]
    deal = game.view(None).deal

    def no_view(self: Game, seat: int | None) -> View:
        raise AssertionError("a whole view was worked out")

    monkeypatch.setattr(type(game), "view", no_view)
    assert [game.hand(s) for s in range(game.players)] == hands
    assert game.deal_number() == deal


@pytest.mark.parametrize("game_id", list(SPECS))
def test_clone_is_independent(game_id: str) -> None:
    spec = SPECS[game_id]
    game = spec.new(spec.min_players, rng=random.Random(3))
    before = _views(game)
    copy = game.clone()
    _playout(copy, random.Random(4))
    assert _views(game) == before


@pytest.mark.parametrize("game_id", list(SPECS))
def test_a_match_played_on_clones_of_clones_deals_what_the_match_deals(game_id: str) -> None:
    """The bot plays every move on a clone of the last state (the move is saved before it is
    kept): a chain of clones, none of whose generators is copied until it deals, must deal every
    deal as the match played in place does, while the states left behind stay as they were."""
    spec = SPECS[game_id]
    game = spec.new(spec.min_players, rng=random.Random(3))
    record = _playout(game.clone(), random.Random(4))
    chained = spec.new(spec.min_players, rng=random.Random(3))
    left: list[tuple[int, Game, list[View]]] = []
    for step, (seat, text) in enumerate(record):
        trial = chained.clone()
        trial.apply(seat, trial.parse(text))
        if step % 7 == 0:
            left.append((step, chained, _views(chained)))
        chained = trial
    played = spec.new(spec.min_players, rng=random.Random(3))
    for seat, text in record:
        played.apply(seat, played.parse(text))
    assert _views(chained) == _views(played)
    for _, state, views in left:
        assert _views(state) == views
    # a state left behind still deals its own future: played on from there, as in place; the
    # first too, the match made from the seed, whose generator its clones shared uncopied
    for at, state, _ in (left[len(left) // 2], left[0]):
        for seat, text in record[at:]:
            state.apply(seat, state.parse(text))
        assert _views(state) == _views(played)


@pytest.mark.parametrize("game_id", list(SPECS))
def test_a_detached_copy_deals_from_a_generator_of_its_own(game_id: str) -> None:
    """A computer player thinks on a copy of the match in another thread, where the count of
    who holds a shared generator could lose an update (it is kept without a lock): the copy it
    is given (``detached``) shares no generator with the match, so whatever it and its clones
    draw, that count lost or not, the match deals what its seed says."""
    spec = SPECS[game_id]
    record = _playout(spec.new(spec.min_players, rng=random.Random(3)), random.Random(4))
    game = spec.new(spec.min_players, rng=random.Random(3))
    game.clone()  # the match's generator shared with a clone, as at a table after a move
    thinking = game.detached()
    state = game.rng.getstate()
    count_lost(game.rng)
    for seat, text in record:  # the copy plays the match on, on clones, as a search does
        trial = thinking.clone()
        count_lost(trial.rng)
        trial.apply(seat, trial.parse(text))
        thinking = trial
    thinking.rng.getrandbits(64)
    assert game.rng.getstate() == state
    played = spec.new(spec.min_players, rng=random.Random(3))
    for seat, text in record:
        game.apply(seat, game.parse(text))
        played.apply(seat, played.parse(text))
    assert _views(game) == _views(played)


def _state(game: Game) -> Iterator[tuple[str, object]]:
    """A match's attributes by name: its slots, or its ``__dict__`` for an engine without."""
    slots = [name for klass in type(game).__mro__ for name in klass.__dict__.get("__slots__", ())]
    names = [name for name in slots if name not in ("__dict__", "__weakref__")] or list(vars(game))
    for name in names:
        yield name, getattr(game, name)


def _changeable(value: object) -> Iterator[object]:
    """The containers in ``value`` that could be changed in place: itself, and one level in."""
    if isinstance(value, str | bytes | int | float | tuple | frozenset | random.Random):
        items: list[object] = list(value) if isinstance(value, tuple) else []
    else:
        if isinstance(value, list | dict | set) or callable(getattr(value, "copy", None)):
            yield value
        items = list(value.values()) if isinstance(value, dict) else []
        items += list(value) if isinstance(value, list | set) else []
    for item in items:
        if isinstance(item, list | dict | set) or callable(getattr(item, "copy", None)):
            yield item


@pytest.mark.parametrize("game_id", list(SPECS))
def test_a_clone_shares_nothing_that_play_changes_in_place(game_id: str) -> None:
    """Every engine clones with ``games.core``'s ``clone``: an attribute that ``apply`` changes
    in place must be named in the engine's ``copied`` (or ``copied_nested``), or a search's copy
    and the real match would change together."""
    spec = SPECS[game_id]
    for players in sorted({spec.min_players, spec.max_players}):
        game = spec.new(players, rng=random.Random(5))
        rng = random.Random(6)
        for _ in range(40):
            if not (seats := game.to_act()):
                break
            seat = rng.choice(sorted(seats))
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        copy = game.clone()
        for name, value in _state(game):
            theirs = [id(part) for part in _changeable(getattr(copy, name))]
            for part in _changeable(value):
                assert id(part) not in theirs, f"{game_id} with {players}: a clone shares {name}"


@pytest.mark.parametrize("game_id", list(SPECS))
def test_malformed_notation_is_a_notation_error(game_id: str) -> None:
    game = SPECS[game_id].new(SPECS[game_id].min_players, rng=random.Random(1))
    for text in ("", "   ", "xyzzy", "QX", "play", "11S"):
        with pytest.raises(NotationError):
            game.parse(text)
