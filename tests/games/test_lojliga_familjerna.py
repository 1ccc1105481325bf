"""Löjliga familjerna: the worked examples of rules/party.md §4.8 (LF-1..LF-5), a transcript from
an explicit deck, the public record of questions, refusals, determinize and the catalogs."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from games.cards import RANKS, SUITS, card, parse_card, randbelow
from games.core import IllegalActionError, NotationError
from games.lojliga_familjerna import (
    MAX_ASKS,
    SPEC,
    LojligaFamiljerna,
    LojligaFamiljernaOptions,
)

A, B, C, D = range(4)
EVERY_CARD = [r + s for r in RANKS for s in SUITS]


def _seed_for_dealer(players: int, dealer: int) -> int:
    """A seed whose game draws ``dealer`` (the dealer is the game's first random draw)."""
    return next(s for s in range(1000) if randbelow(random.Random(s), players) == dealer)


def _deck(hands: Sequence[Sequence[str]], forhand: int) -> list[str]:
    """The deck (top first) dealing ``hands`` one card at a time from förhand."""
    n = len(hands)
    taken = [0] * n
    order = []
    for k in range(sum(len(h) for h in hands)):
        seat = (forhand + k) % n
        order.append(hands[seat][taken[seat]])
        taken[seat] += 1
    assert taken == [len(h) for h in hands], "hand sizes do not match a deal"
    return order


def _fill(given: Sequence[Sequence[str]], sizes: Sequence[int]) -> list[list[str]]:
    """Complete ``given`` partial hands to ``sizes`` with the other cards, one per rank where
    possible, so that no filler card gives a hand a rank it did not have or a whole quartet."""
    hands = [list(h) for h in given]
    used = {c for h in hands for c in h}
    spare = [c for c in EVERY_CARD if c not in used]
    for seat, size in enumerate(sizes):
        own = {c[0] for c in hands[seat]}
        others = {c[0] for s, h in enumerate(given) if s != seat for c in h} | own
        for c in list(spare):
            if len(hands[seat]) == size:
                break
            ranks = [x[0] for x in hands[seat]]
            if c[0] not in others and ranks.count(c[0]) < 2:
                hands[seat].append(c)
                spare.remove(c)
    leftover = iter(spare)
    for seat, size in enumerate(sizes):
        while len(hands[seat]) < size:
            hands[seat].append(next(leftover))
    return hands


def _new(hands: Sequence[Sequence[str]], dealer: int = D) -> LojligaFamiljerna:
    n = len(hands)
    game = SPEC.new(
        n, rng=random.Random(_seed_for_dealer(n, dealer)), decks=[_deck(hands, (dealer + 1) % n)]
    )
    assert isinstance(game, LojligaFamiljerna)
    return game


def _position(hands: Sequence[Sequence[str]], current: int) -> LojligaFamiljerna:
    """A game in the middle: these hands (the rest of the deck already out as quartets of
    nobody in particular) and ``current`` to ask. For the examples that list only some cards."""
    game = _new(
        _fill(
            [[] for _ in hands],
            [52 // len(hands) + (s < 52 % len(hands)) for s in range(len(hands))],
        )
    )
    game.hands = [sum(1 << parse_card(c) for c in h) for h in hands]
    game.current = current
    return game


def _hand(game: LojligaFamiljerna, seat: int) -> set[str]:
    return {str(c) for c in game.view(seat).hand}


def _ask(game: LojligaFamiljerna, seat: int, target: int, rank: str) -> None:
    game.apply(seat, game.parse(f"ask {target} {rank}"))


def _lf1_game() -> LojligaFamiljerna:
    hands = _fill([["9C", "5H", "5D"], ["9D", "9H", "KC"], ["9S", "KD"], ["5C", "5S"]], [13] * 4)
    game = _new(hands)
    assert game.to_act() == {A}  # the dealer is D, so A is förhand
    return game


def test_lf1_success_then_a_quartet_then_a_failed_ask() -> None:
    game = _lf1_game()
    _ask(game, A, B, "9")
    assert {"9D", "9H"} <= _hand(game, A)
    assert not {"9D", "9H"} & _hand(game, B)
    assert game.to_act() == {A}  # a yes: A asks again
    _ask(game, A, C, "9")
    assert not any(c.startswith("9") for c in _hand(game, A))  # the quartet is laid out
    assert game.quartets[A] == [RANKS.index("9")]
    assert game.to_act() == {A}
    _ask(game, A, B, "5")
    assert game.to_act() == {B}  # a no: the asked player asks next
    keys = [m.key.rsplit(".", 1)[1] for m in game.view(None).events]
    assert keys[-4:] == ["asked_yes", "asked_yes", "quartet", "asked_none"]
    assert game.view(None).events[-4].arg("count") == 2


def test_lf2_illegal_asks_are_refused_and_change_nothing() -> None:
    game = _lf1_game()
    before = [game.view(s) for s in range(4)]
    with pytest.raises(IllegalActionError, match="rank you hold"):
        _ask(game, A, B, "K")
    with pytest.raises(IllegalActionError, match="not yourself"):
        _ask(game, A, A, "9")
    with pytest.raises(IllegalActionError, match="not your turn"):
        _ask(game, B, A, "9")
    assert [game.view(s) for s in range(4)] == before
    # asking a player with no cards
    empty = _position([["7C", "5D"], ["7D", "5H"], [], ["7H", "7S", "5C", "5S"]], A)
    with pytest.raises(IllegalActionError, match="no cards left"):
        _ask(empty, A, C, "7")
    assert all(a // 13 != C for a in empty.legal_actions(A))


def test_lf3_the_asker_who_empties_their_hand_passes_the_turn_clockwise() -> None:
    game = _position([["7C", "7D", "7H"], ["2C", "3C"], ["2D", "3D"], ["7S", "2H", "3H"]], A)
    _ask(game, A, D, "7")
    assert game.view(None).seats[A].cards == 0
    assert game.quartets[A] == [RANKS.index("7")]
    assert game.to_act() == {B}
    assert game.legal_actions(A) == []


def test_lf4_a_dealt_quartet_counts_for_its_holder_before_the_first_ask() -> None:
    game = _new(_fill([[], [], ["KC", "KD", "KH", "KS"], []], [13] * 4))
    assert game.quartets[C] == [RANKS.index("K")]
    assert game.view(None).seats[C].score == 1
    assert not any(c.startswith("K") for c in _hand(game, C))
    assert game.to_act() == {A}


def test_lf5_final_ranking_shares_places() -> None:
    game = _lf1_game()
    game.quartets = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10], [11, 12]]
    game.hands = [0, 0, 0, 0]
    game.current = -1
    assert game.result().places == (1, 1, 3, 4)
    assert game.result().scores == (4, 4, 3, 2)


def test_a_whole_game_from_an_explicit_deck() -> None:
    # the deck in rank order, dealt one at a time from A: A gets 2♣ 2♠ 3♥ ..., B 2♦ 3♣ ...,
    # C 2♥ 3♦ ...; 52 cards to three players: 18, 17, 17
    game = _new([EVERY_CARD[s::3] for s in range(3)], dealer=C)
    assert [v.cards for v in game.view(None).seats] == [18, 17, 17]
    _ask(game, A, B, "2")
    assert "2D" in _hand(game, A)
    _ask(game, A, C, "2")
    assert game.quartets[A] == [0]
    _ask(game, A, B, "A")  # the aces: A♣ is A's (index 48), A♦ C's, A♥ A's, A♠ B's
    assert "AS" in _hand(game, A)
    _ask(game, A, B, "A")  # B has no more aces: B's turn
    assert game.to_act() == {B}
    rng = random.Random(4)
    while not game.is_over():
        seat = next(iter(game.to_act()))
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    assert sum(game.result().scores) == 13
    assert game.view(None).events[-1].key == "lojliga_familjerna.event.all_out"
    assert min(game.result().places) == 1


def test_the_table_remembers_what_the_questions_showed() -> None:
    game = _lf1_game()
    _ask(game, A, B, "9")
    _ask(game, A, B, "5")
    notes = {n.key.rsplit(".", 1)[1]: n.arg("ranks") for n in game.view(None).seats[A].notes}
    assert notes == {"holds": "5 9"}  # A asked for both
    b_notes = {n.key.rsplit(".", 1)[1]: n.arg("ranks") for n in game.view(None).seats[B].notes}
    assert b_notes == {"lacks": "5 9"}


def test_only_the_two_players_see_the_suits_handed_over() -> None:
    game = _lf1_game()
    _ask(game, A, B, "9")
    private = [m for m in game.view(A).events if m.key.endswith("you_got")]
    assert private[-1].arg("cards") == "9D 9H"
    assert any(m.key.endswith("you_gave") for m in game.view(B).events)
    for seat in (None, C, D):
        assert not any("you_" in m.key for m in game.view(seat).events)


def test_determinize_keeps_what_the_questions_proved() -> None:
    game = _lf1_game()
    _ask(game, A, B, "9")
    _ask(game, A, B, "5")  # B lacks 5s and 9s now; B asks next
    _ask(game, B, C, "K")  # B holds a king; C has K♦: yes
    for seed in range(20):
        other = game.determinize(C, random.Random(seed))
        assert other.view(C) == game.view(C)
        b_hand = other.hands[B]
        assert not any(b_hand >> parse_card(r + s) & 1 for r in "59" for s in SUITS)
        assert b_hand >> parse_card("KD") & 1  # C saw its K♦ go to B
        assert not [m for m in other.events.for_viewer(A) if m.key.endswith("you_got")]


@pytest.mark.parametrize("preset", sorted(SPEC.presets))
def test_a_redealt_world_never_gives_a_player_a_whole_family_unlaid(preset: str) -> None:
    """A family is laid down the moment it is whole, so no re-dealt world may hand one to a
    player (with Authors, a player holding only a whole family would have nothing to ask)."""
    whole = [sum(1 << parse_card(r + s) for s in SUITS) for r in RANKS]
    worlds = 0
    for players in (3, 4, 5):
        for seed in range(3):
            play = random.Random(seed)
            game = LojligaFamiljerna(players, SPEC.presets[preset], random.Random(seed), None)
            for step in range(60):
                if game.is_over():
                    break
                for viewer in range(players):
                    other = game.determinize(viewer, random.Random(step))
                    worlds += 1
                    for p in range(players):
                        if p != viewer:
                            assert not [f for f in whole if other.hands[p] & f == f], (p, step)
                    for seat in other.to_act():
                        assert other.legal_actions(seat), (seat, step)
                (seat,) = game.to_act()
                game.apply(seat, play.choice(game.legal_actions(seat)))
    assert worlds > 300


def test_the_safety_net_stops_an_endless_game() -> None:
    game = _lf1_game()
    game.asks = MAX_ASKS
    assert game.is_over()
    assert game.to_act() == frozenset()


def test_notation_round_trips_and_refuses_malformed_asks() -> None:
    game = _lf1_game()
    for action in game.legal_actions(A):
        assert game.parse(game.notation(action)) == action
    assert game.parse("ask 1 10") == game.parse("ask 1 T") == 1 * 13 + card(10, 0) % 13
    for text in ("ask 9 K", "ask one K", "ask 1 X", "ask 1", "pass"):
        with pytest.raises(NotationError):
            game.parse(text)


# --- the reference variants (§4.6) ----------------------------------------------------------------


def _variant(
    options: LojligaFamiljernaOptions, hands: Sequence[Sequence[str]], stock: str = ""
) -> LojligaFamiljerna:
    """A game with these hands and, top card first, this stock (the rest already out)."""
    game = SPEC.new(len(hands), options, rng=random.Random(_seed_for_dealer(len(hands), D)))
    assert isinstance(game, LojligaFamiljerna)
    game.hands = [sum(1 << parse_card(c) for c in h) for h in hands]
    game.stock = [parse_card(c) for c in stock.split()][::-1]
    game.known = [[h if v == p else 0 for p, h in enumerate(game.hands)] for v in range(len(hands))]
    game.current = A
    return game


def test_r1_go_fish_deals_seven_or_five_and_keeps_a_stock() -> None:
    three = SPEC.new(3, LojligaFamiljernaOptions(go_fish=True), rng=random.Random(1))
    view = three.view(None)
    assert sum(v.cards for v in view.seats) + sum(len(p.cards) for p in view.piles) == 21
    assert next(p for p in view.piles if p.key.endswith("stock")).hidden == 52 - 21
    four = SPEC.new(4, LojligaFamiljernaOptions(go_fish=True), rng=random.Random(1))
    assert next(p for p in four.view(None).piles if p.key.endswith("stock")).hidden == 32


def test_r1_a_no_makes_the_asker_draw_and_the_asked_player_ask() -> None:
    game = _variant(
        LojligaFamiljernaOptions(go_fish=True), [["9C", "5H"], ["KC"], ["9D"], ["2C"]], "7S 8S"
    )
    _ask(game, A, B, "9")
    assert _hand(game, A) == {"9C", "5H", "7S"}  # the top card of the stock
    assert [m.key.rsplit(".", 1)[1] for m in game.view(A).events][-3:] == [
        "asked_none",
        "drew",
        "you_drew",
    ]
    assert not any(m.key.endswith("you_drew") for m in game.view(B).events)
    assert game.to_act() == {B}
    assert game.stock == [parse_card("8S")]


def test_r1_an_emptied_hand_draws_while_the_stock_lasts() -> None:
    game = _variant(
        LojligaFamiljernaOptions(go_fish=True),
        [["9C", "9D", "9H"], ["9S"], ["5D"], ["2C"]],
        "7S",
    )
    _ask(game, A, B, "9")  # the quartet is out; A's hand is empty, B's too: A draws the 7♠
    assert game.quartets[A] == [RANKS.index("9")]
    assert _hand(game, A) == {"7S"}
    assert not game.hands[B]  # the stock is gone before B's turn to draw
    assert game.to_act() == {A}


def test_r1_determinize_deals_the_stock_anew_with_its_size() -> None:
    game = SPEC.new(3, LojligaFamiljernaOptions(go_fish=True), rng=random.Random(5))
    assert isinstance(game, LojligaFamiljerna)
    seat = next(iter(game.to_act()))
    other = game.determinize(seat, random.Random(2))
    assert other.view(seat) == game.view(seat)
    assert len(other.stock) == len(game.stock)

    def unseen(g: LojligaFamiljerna) -> list[int]:
        return sorted(
            g.stock + [c for p in range(3) if p != seat for c in range(52) if g.hands[p] >> c & 1]
        )

    assert unseen(other) == unseen(game)


def test_r2_authors_asks_for_one_card_of_a_rank_held() -> None:
    game = _variant(
        LojligaFamiljernaOptions(authors=True), [["9C", "5H"], ["9D", "9H"], ["9S"], ["2C"]]
    )
    legal = {game.notation(a) for a in game.legal_actions(A)}
    assert "ask 1 9D" in legal
    assert "ask 1 9C" not in legal  # A's own card
    assert "ask 1 9" not in legal  # no asking for a whole rank
    _ask(game, A, B, "9D")
    assert _hand(game, A) == {"9C", "9D", "5H"}
    assert _hand(game, B) == {"9H"}  # only the card asked for
    assert game.to_act() == {A}
    with pytest.raises(IllegalActionError, match="yourself"):
        game.apply(A, game.parse("ask 2 9C"))
    _ask(game, A, C, "5D")
    assert game.to_act() == {C}  # a no: the asked player asks next
    assert game.view(None).events[-1].key == "lojliga_familjerna.event.asked_card_none"


def test_r2_turn_after_no_may_go_clockwise() -> None:
    game = _variant(
        LojligaFamiljernaOptions(authors=True, turn_after_no="clockwise"),
        [["9C", "5H"], ["9D"], ["9S"], ["2C"]],
    )
    _ask(game, A, C, "5D")
    assert game.to_act() == {B}  # the asker's left, not C
    (said,) = game.view(None).events[-1:]
    assert said.key == "lojliga_familjerna.event.asked_card_none"
    assert said.arg("next_seat") == B


def test_r2_after_a_no_clockwise_the_table_names_the_asker_s_left() -> None:
    from bot.i18n import catalog
    from bot.render.text import TextRenderer

    game = SPEC.new(4, SPEC.preset("authors_clockwise"), rng=random.Random(1))
    game.apply(2, game.parse("ask 0 TC"))  # no
    assert game.to_act() == {3}
    names = ["Anna", "Bo", "Cia", "Dan"]
    assert (
        TextRenderer(catalog("sv"), names)
        .msg(game.view(None).events[-1])
        .endswith("Nu frågar Dan.")
    )
    assert (
        TextRenderer(catalog("en"), names).msg(game.view(None).events[-1]).endswith("Now Dan asks.")
    )


def test_lf3_an_asker_who_lays_out_his_last_cards_is_not_said_to_ask_again() -> None:
    game = _position([["7C", "7D", "7H"], ["2C", "3C"], ["2D", "3D"], ["7S", "2H", "3H"]], A)
    _ask(game, A, D, "7")
    asked = next(m for m in game.view(None).events if m.key.endswith("_yes_next"))
    assert asked.arg("seat") == A
    assert asked.arg("next_seat") == B
    assert not any(m.key.endswith("asked_yes") for m in game.view(None).events)


def test_r2_some_versions_let_you_ask_for_a_card_you_hold() -> None:
    # §4.6 R2: "Some ban asking for a card you already hold": the ban is the default, and the
    # versions without it are an option; the answer is always no, so the turn goes on.
    game = _variant(
        LojligaFamiljernaOptions(authors=True, ask_own_card=True),
        [["9C", "5H"], ["9D", "9H"], ["9S"], ["2C"]],
    )
    assert "ask 1 9C" in {game.notation(a) for a in game.legal_actions(A)}
    _ask(game, A, B, "9C")
    assert _hand(game, A) == {"9C", "5H"}
    assert game.to_act() == {B}
    assert game.view(None).events[-1].key == "lojliga_familjerna.event.asked_card_none"


def test_r2_notation_round_trips() -> None:
    game = _variant(LojligaFamiljernaOptions(authors=True), [["9C", "TH"], ["9D"], ["9S"], ["2C"]])
    for action in game.legal_actions(A):
        assert game.parse(game.notation(action)) == action
    assert game.parse("ask 1 10S") == game.parse("ask 1 TS")
    with pytest.raises(IllegalActionError, match="one card"):
        game.apply(A, game.parse("ask 1 9"))


def test_an_ask_timeout_makes_a_random_legal_ask_and_changes_nothing() -> None:
    # D6: a random legal ask made for the absent player, drawn from the game's generator
    picks = set()
    for seed in range(12):
        game = SPEC.new(4, rng=random.Random(seed))
        (seat,) = game.to_act()
        before = game.view(None)
        action = game.timeout_action(seat)
        assert action is not None
        assert action in game.legal_actions(seat)
        assert game.timeout_action(seat) == action  # asking twice gives the same ask
        assert game.view(None) == before
        assert all(game.timeout_action(s) is None for s in range(4) if s != seat)
        picks.add(game.notation(action))
    assert len(picks) > 6  # not always the same target or rank


@pytest.mark.parametrize(
    ("players", "sizes"), [(3, [18, 17, 17]), (4, [13] * 4), (5, [11, 11] + [10] * 3)]
)
def test_the_deal_gives_the_extra_cards_from_forhand(players: int, sizes: list[int]) -> None:
    # §4.1: one at a time from förhand, so the first hands from förhand get one card more
    game = SPEC.new(
        players, rng=random.Random(_seed_for_dealer(players, players - 1)), decks=[EVERY_CARD]
    )
    held = [v.cards + 4 * (v.score or 0) for v in game.view(None).seats]  # dealt quartets too
    assert held == sizes
    assert game.to_act() == {0}
