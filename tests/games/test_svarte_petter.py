"""Svarte Petter: the worked examples of rules/party.md §2 (SP-1..SP-6), transcripts from explicit
decks, the decisions D1..D9, the variants R1..R4, refusals and the message catalogs."""

from __future__ import annotations

import itertools
import random
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from games.cards import RANKS, SUITS, Card, code, randbelow
from games.core import Game, IllegalActionError, Msg, NotationError, View
from games.svarte_petter import (
    DRAW,
    DRAW_CAP,
    SHUFFLE,
    SPEC,
    OddCard,
    SvartePetterOptions,
    pairing_classes,
)

ROOT = Path(__file__).resolve().parents[2]
STANDARD = SvartePetterOptions()

# Every card of the standard game except J♠, in pairs: consecutive cards (2C 2D, 2H 2S, ...,
# JD JH, ...) make a pair, and any slice of even length starting at an even index is all pairs.
PAIRED = [r + s for r in RANKS for s in SUITS if r + s not in ("JC", "JS")]


def _cards(text: str) -> list[str]:
    """Card codes written with spaces between them, in that order."""
    return text.split()


def _seed_for_dealer(players: int, dealer: int, skip: int = 0) -> int:
    """A seed whose game draws ``dealer`` (the dealer is the game's first random draw)."""
    found = (s for s in range(1000) if randbelow(random.Random(s), players) == dealer)
    return next(itertools.islice(found, skip, None))


def _deck(hands: list[list[str]], forhand: int) -> list[str]:
    """The deck (top first) dealing ``hands`` (each in dealt order) one at a time from förhand."""
    n = len(hands)
    taken = [0] * n
    order = []
    for k in range(sum(len(h) for h in hands)):
        seat = (forhand + k) % n
        order.append(hands[seat][taken[seat]])
        taken[seat] += 1
    assert taken == [len(h) for h in hands], "hand sizes do not match a deal"
    return order


def _new(
    hands: list[list[str]],
    options: SvartePetterOptions = STANDARD,
    skip: int = 0,
) -> Game:
    """A game whose dealer is the last seat (förhand = seat 0), dealt exactly ``hands``."""
    n = len(hands)
    seed = _seed_for_dealer(n, n - 1, skip)
    return SPEC.new(n, options, rng=random.Random(seed), decks=[_deck(hands, 0)])


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _pairs_pile(view: View, seat: int) -> list[str]:
    pile = next(p for p in view.piles if p.key == "svarte_petter.pile.pairs" and p.seat == seat)
    return _codes(pile.cards)


def _play(game: Game, *moves: str) -> None:
    for text in moves:
        (seat,) = game.to_act()
        game.apply(seat, game.parse(text))


def _all_views(game: Game) -> list[View]:
    return [game.view(s) for s in range(game.players)] + [game.view(None)]


def _keys(game: Game) -> list[str]:
    return [m.key for m in game.view(None).events]


def _random_playout(game: Game, rng: random.Random) -> None:
    while not game.is_over():
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])


# --- SP-1 -----------------------------------------------------------------------------------------


def test_sp1_deal_counts_with_four_players() -> None:
    # One suit per hand deals no pair at all, so the counts after the lay-down are the deal's.
    hands = [
        [r + "C" for r in RANKS if r != "J"] + ["JS"],
        [r + "D" for r in RANKS],
        [r + "H" for r in RANKS],
        [r + "S" for r in RANKS if r != "J"],
    ]
    game = _new(hands)
    view = game.view(None)
    assert view.dealer == 3
    assert [s.cards for s in view.seats] == [13, 13, 13, 12]
    assert all(not _pairs_pile(view, s) for s in range(4))
    every = [c for s in range(4) for c in _codes(game.view(s).hand)]
    assert len(every) == len(set(every)) == 51
    assert "JC" not in every
    removed = next(p for p in view.piles if p.key == "svarte_petter.pile.removed")
    assert _codes(removed.cards) == ["JC"]
    assert game.to_act() == {0}  # förhand draws first


@pytest.mark.parametrize(
    ("players", "counts"),
    [(3, [17, 17, 17]), (4, [13, 13, 13, 12]), (5, [11, 10, 10, 10, 10]), (6, [9, 9, 9, 8, 8, 8])],
)
def test_sp1_a_shuffled_deal_gives_the_extra_cards_from_forhand(
    players: int, counts: list[int]
) -> None:
    dealer = players - 1
    game = SPEC.new(players, rng=random.Random(_seed_for_dealer(players, dealer)))
    view = game.view(None)
    assert view.dealer == dealer
    dealt = [view.seats[s].cards + len(_pairs_pile(view, s)) for s in range(players)]
    assert dealt == counts
    held = [c for s in range(players) for c in _codes(game.view(s).hand)]
    laid = [c for s in range(players) for c in _pairs_pile(view, s)]
    assert sorted(held + laid) == sorted(c for c in map(code, range(52)) if c != "JC")


# --- SP-2 -----------------------------------------------------------------------------------------


def test_sp2_initial_lay_down() -> None:
    mine = ["3C", "3H", "3S", "JS", "JD", "QH", "QC", "QD", "QS", "8D", "2C", "4C", "5C"]
    rest = [c for c in map(code, range(52)) if c not in mine and c != "JC"]
    game = _new([mine, rest[:13], rest[13:26], rest[26:]])
    view = game.view(0)
    assert _codes(view.hand) == ["3S", "JS", "JD", "8D", "2C", "4C", "5C"]
    assert _pairs_pile(view, 0) == ["3C", "3H", "QC", "QD", "QH", "QS"]
    assert Msg.of("svarte_petter.event.pairs_dealt", seat=0, cards="3C 3H QC QD QH QS") in (
        game.view(None).events
    )


# --- SP-3 -----------------------------------------------------------------------------------------

# SP-3's position (A = {5♥, J♦}, B = {5♣, K♠, J♠}, C = {K♦, J♥}) cannot come straight from a
# deal: three players get 17 cards each, and a dealt hand keeps an odd number after its pairs go.
# It arises after one draw: förhand (seat 0, SP-3's C) draws 9♣ from seat 1 (SP-3's A) and pairs
# it. Seat 1 then draws first of the three, as A does in SP-3.
SP3_HANDS = [
    _cards("KD 2C 2D JH 2H 2S 3C 3D 9S 3H 3S 4C 4D 4H 4S 5D 5S"),
    _cards("5H 6C 6D 6H JD 6S 7C 7D 7H 7S 9C 8C 8D 8H 8S KC KH"),
    _cards("5C TC TD TH TS KS QC QD QH QS JS AC AD AH AS 9D 9H"),
]


def test_sp3_full_three_player_ending() -> None:
    game = _new(SP3_HANDS)
    assert [_codes(game.view(s).hand) for s in range(3)] == [
        ["KD", "JH", "9S"],
        ["5H", "JD", "9C"],
        ["5C", "KS", "JS"],
    ]
    _play(game, "draw 3")  # seat 0 takes 9C from seat 1: a pair
    assert _pairs_pile(game.view(None), 0)[-2:] == ["9C", "9S"]
    assert [_codes(game.view(s).hand) for s in range(3)] == [
        ["KD", "JH"],
        ["5H", "JD"],
        ["5C", "KS", "JS"],
    ]
    # SP-3 draw 1: A (seat 1) takes 5♣ from B (seat 2), which pairs with 5♥. Next drawer: B.
    assert game.to_act() == {1}
    _play(game, "draw 1")
    assert _codes(game.view(1).hand) == ["JD"]
    assert _codes(game.view(2).hand) == ["KS", "JS"]
    assert _pairs_pile(game.view(None), 1)[-2:] == ["5C", "5H"]
    # Draw 2: B takes K♦ from C (seat 0), which pairs with K♠. Next drawer: C.
    assert game.to_act() == {2}
    _play(game, "draw 1")
    assert _codes(game.view(2).hand) == ["JS"]
    assert _codes(game.view(0).hand) == ["JH"]
    # Draw 3: C draws from A, takes J♦ and pairs it with J♥. A goes out first, then C.
    assert game.to_act() == {0}
    assert game.view(None).phase == Msg.of("svarte_petter.phase.draw", seat=0, from_seat=1)
    _play(game, "draw 1")
    assert _pairs_pile(game.view(None), 0)[-2:] == ["JD", "JH"]
    assert game.is_over()
    assert game.to_act() == frozenset()
    result = game.result()
    assert result.places == (2, 1, 3)  # D5: the player drawn from goes out first
    assert result.scores == (1, 1, 0)
    view = game.view(None)
    assert _codes(view.seats[2].shown) == ["JS"]  # B is Svarte Petter, revealed to all
    assert [s.cards for s in view.seats] == [0, 0, 1]
    events = list(view.events)
    out_events = [m for m in events if m.key == "svarte_petter.event.out"]
    assert out_events[-2:] == [
        Msg.of("svarte_petter.event.out", seat=1),
        Msg.of("svarte_petter.event.out", seat=0),
    ]
    assert events[-1] == Msg.of("svarte_petter.event.loser", seat=2, card="JS")


def test_reverse_variant_sp3_the_odd_card_holder_wins() -> None:
    game = _new(SP3_HANDS, SvartePetterOptions(reverse=True))
    _play(game, "draw 3", "draw 1", "draw 1", "draw 1")
    result = game.result()
    assert result.places == (3, 2, 1)
    assert result.scores == (0, 0, 1)
    assert game.view(None).events[-1] == Msg.of("svarte_petter.event.odd_winner", seat=2, card="JS")


# --- SP-4 -----------------------------------------------------------------------------------------

SP4_HANDS = [
    [r + "C" for r in RANKS if r != "J"] + ["JD"],
    ["2D", "3D", "4D", "5D", "JS", "6D", "7D", "8D", "9D", "TD", "QD", "KD", "AD"],
    [r + "H" for r in RANKS],
    [r + "S" for r in RANKS if r != "J"],
]


def test_sp4_the_jack_of_spades_does_not_pair() -> None:
    game = _new(SP4_HANDS)
    assert _codes(game.view(1).hand)[4] == "JS"
    _play(game, "draw 5")
    hand = _codes(game.view(0).hand)
    assert len(hand) == 14
    assert {"JD", "4C", "JS"} <= set(hand)
    assert not _pairs_pile(game.view(None), 0)
    assert "svarte_petter.event.pair" not in _keys(game)
    assert game.to_act() == {1}


def test_a_drawn_card_goes_to_a_random_place_in_the_fan() -> None:
    places = set()
    for skip in range(12):
        game = _new(SP4_HANDS, skip=skip)
        _play(game, "draw 5")
        places.add(_codes(game.view(0).hand).index("JS"))
    assert len(places) >= 5


# --- SP-5 -----------------------------------------------------------------------------------------

SP5_A = ["2H", "3H", "4H", "5H", "6H", "7H", "QC", "QD", "KC", "KD", "JD", "JH", "QH"]
SP5_B = ["2C", "2D", "3C", "3D", "4C", "4D", "5C", "5D", "6C", "6D", "7C", "7D", "AS"]
SP5_C_D_ACTIVE = ["2S", "3S", "4S", "5S", "6S", "7S", "JS", "QS", "KH", "KS", "AC", "AD", "TS"]
SP5_D_ACTIVE = ["8C", "8D", "8H", "8S", "9C", "9D", "9H", "9S", "TC", "TD", "TH", "AH"]


def test_sp5_the_player_after_one_who_went_out_draws_next() -> None:
    game = _new([SP5_A, SP5_B, SP5_C_D_ACTIVE, SP5_D_ACTIVE])
    assert [s.cards for s in game.view(None).seats] == [7, 1, 9, 2]
    _play(game, "draw 1")  # A takes B's only card, A♠, which pairs with nothing
    view = game.view(None)
    assert [s.cards for s in view.seats] == [8, 0, 9, 2]
    assert view.seats[1].notes == (Msg.of("svarte_petter.note.out"),)
    assert game.to_act() == {2}
    assert view.phase == Msg.of("svarte_petter.phase.draw", seat=2, from_seat=3)
    assert game.legal_actions(2) == [DRAW + 1, DRAW + 2, SHUFFLE]


def test_sp5_a_drawer_skips_a_victim_who_is_out() -> None:
    # D's twelve cards are six pairs: D is out straight after the deal.
    c_hand = [*SP5_C_D_ACTIVE[:-1], "AH"]
    d_hand = [*SP5_D_ACTIVE[:-1], "TS"]
    game = _new([SP5_A, SP5_B, c_hand, d_hand])
    assert [s.cards for s in game.view(None).seats] == [7, 1, 9, 0]
    _play(game, "draw 1")
    assert game.to_act() == {2}
    assert game.view(None).phase == Msg.of("svarte_petter.phase.draw", seat=2, from_seat=0)
    assert game.legal_actions(2) == [DRAW + i for i in range(1, 9)] + [SHUFFLE]


# --- SP-6 and other refusals ----------------------------------------------------------------------


def _refused(game: Game, seat: int, action: int, message: str) -> None:
    before = _all_views(game)
    legal = [game.legal_actions(s) for s in range(game.players)]
    with pytest.raises(IllegalActionError, match=message):
        game.apply(seat, action)
    assert _all_views(game) == before
    assert [game.legal_actions(s) for s in range(game.players)] == legal


def test_sp6_illegal_actions_are_refused_and_change_nothing() -> None:
    game = _new(SP4_HANDS)  # seat 0 (A) draws from seat 1 (B), who holds 13 cards
    _refused(game, 2, DRAW + 1, "not your turn")  # C clicks a position during A's draw
    _refused(game, 0, DRAW + 0, "from 1 to 13")
    _refused(game, 0, DRAW + 14, "from 1 to 13")
    _refused(game, 1, SHUFFLE, "not your turn")  # B shuffles while A draws from B
    _refused(game, 3, SHUFFLE, "not your turn")
    _refused(game, 0, 52, "not a move")
    game.apply(0, SHUFFLE)
    _refused(game, 0, SHUFFLE, "already shuffled")
    assert SHUFFLE not in game.legal_actions(0)
    game.apply(0, DRAW + 13)
    assert SHUFFLE in game.legal_actions(1)  # a new turn, a new shuffle


def test_a_finished_game_refuses_everything() -> None:
    game = _new(SP3_HANDS)
    _play(game, "draw 3", "draw 1", "draw 1", "draw 1")
    for seat in range(3):
        assert game.legal_actions(seat) == []
        _refused(game, seat, DRAW + 1, "over")


def test_a_one_card_hand_cannot_be_shuffled() -> None:
    game = _new(SP3_HANDS)
    _play(game, "draw 3", "draw 1", "draw 1")
    assert game.to_act() == {0}
    assert game.legal_actions(0) == [DRAW + 1]
    _refused(game, 0, SHUFFLE, "one card")


# --- shuffling, private notices -------------------------------------------------------------------


def test_shuffle_reorders_only_the_drawers_own_hand_and_is_announced() -> None:
    game = _new(SP4_HANDS)
    before = [game.view(s) for s in range(4)]
    game.apply(0, SHUFFLE)
    after = game.view(0)
    assert sorted(after.hand) == sorted(before[0].hand)
    assert after.hand != before[0].hand
    for seat in (1, 2, 3):
        assert game.view(seat).hand == before[seat].hand
    assert game.view(None).events[-1] == Msg.of("svarte_petter.event.shuffled", seat=0)
    assert game.to_act() == {0}


def test_a_drawn_card_is_told_only_to_the_drawer_and_the_victim() -> None:
    game = _new(SP4_HANDS)
    _play(game, "draw 5")
    drawn = Msg.of("svarte_petter.event.you_drew", card="JS", from_seat=1)
    taken = Msg.of("svarte_petter.event.took_yours", seat=0, card="JS")
    public = Msg.of("svarte_petter.event.drew", seat=0, from_seat=1)
    assert drawn in game.view(0).events
    assert taken not in game.view(0).events
    assert taken in game.view(1).events
    assert drawn not in game.view(1).events
    assert game.view(0).notes == (Msg.of("svarte_petter.note.drew", card="JS", from_seat=1),)
    assert game.view(1).notes == (Msg.of("svarte_petter.note.taken", seat=0, card="JS"),)
    for viewer in (2, 3, None):
        view = game.view(viewer)
        assert public in view.events
        assert all("JS" not in str(v) for m in (*view.events, *view.notes) for _, v in m.args)


def test_a_pair_from_a_draw_is_public() -> None:
    game = _new(SP3_HANDS)
    _play(game, "draw 3")
    assert Msg.of("svarte_petter.event.pair", seat=0, cards="9C 9S") in game.view(2).events


# --- D6, the draw cap -----------------------------------------------------------------------------


def test_d6_everyone_out_after_the_deal_shares_the_first_place() -> None:
    hands = [["JS", *PAIRED[:10]]] + [PAIRED[10 * k : 10 * k + 10] for k in range(1, 5)]
    game = _new(hands)
    assert game.is_over()
    assert game.to_act() == frozenset()
    assert game.result().places == (5, 1, 1, 1, 1)
    assert game.result().scores == (0, 1, 1, 1, 1)
    assert _codes(game.view(3).seats[0].shown) == ["JS"]


def test_d6_players_out_after_the_deal_rank_before_later_ones() -> None:
    # Seats 3 and 4 are dealt only pairs; seats 0..2 share what is left.
    rest = [c for c in map(code, range(52)) if c not in PAIRED[:20] and c != "JC"]
    hands = [rest[0::3], rest[1::3], rest[2::3], PAIRED[:10], PAIRED[10:20]]
    game = _new(hands)
    assert [s.cards > 0 for s in game.view(None).seats] == [True, True, True, False, False]
    _random_playout(game, random.Random(4))
    places = game.result().places
    assert places[3] == places[4] == 1
    assert sorted(places[:3]) == [3, 4, 5]


def _cap_game(options: SvartePetterOptions) -> Game:
    """Five players; seats 2..4 hold only pairs. Seat 0 holds J♠ 2♣ 3♣, seat 1 holds 2♦ 3♦."""
    pairs = [c for c in PAIRED if c[0] not in "23"]
    hands = [
        ["JS", "2C", "3C", *pairs[:8]],
        ["2D", "3D", *pairs[8:16]],
        ["2H", "2S", *pairs[16:24]],
        ["3H", "3S", *pairs[24:32]],
        pairs[32:42],
    ]
    return _new(hands, options)


def _chase_the_jack(game: Game) -> int:
    """Always draw J♠ when the victim holds it (looking at the victim's hand), else card 1."""
    draws = 0
    while not game.is_over():
        (seat,) = game.to_act()
        victim = game.view(None).phase.arg("from_seat")
        assert isinstance(victim, int)
        fan = _codes(game.view(victim).hand)
        game.apply(seat, DRAW + 1 + (fan.index("JS") if "JS" in fan else 0))
        draws += 1
    return draws


def test_the_draw_cap_stops_an_endless_game_and_the_jack_holder_loses() -> None:
    game = _cap_game(STANDARD)
    assert [s.cards for s in game.view(None).seats] == [3, 2, 0, 0, 0]
    assert _chase_the_jack(game) == DRAW_CAP
    view = game.view(None)
    assert [s.cards for s in view.seats] == [1, 2, 0, 0, 0]
    assert _codes(view.seats[1].shown) == ["JS"]
    assert Msg.of("svarte_petter.event.draw_cap", draws=DRAW_CAP) in view.events
    assert view.events[-1] == Msg.of("svarte_petter.event.loser", seat=1, card="JS")
    assert game.result().places == (4, 5, 1, 1, 1)
    assert game.result().scores == (0, 0, 1, 1, 1)


def test_the_draw_cap_in_the_reverse_game_makes_the_jack_holder_win() -> None:
    game = _cap_game(SvartePetterOptions(reverse=True))
    assert _chase_the_jack(game) == DRAW_CAP
    assert game.result().places == (5, 1, 2, 2, 2)
    assert game.result().scores == (0, 1, 0, 0, 0)


# --- determinize ----------------------------------------------------------------------------------


def _holder(game: Game, card_code: str) -> int | None:
    return next((s for s in range(game.players) if card_code in _codes(game.view(s).hand)), None)


def _assert_consistent_redeal(real: Game, other: Game, seat: int) -> None:
    assert other.view(seat) == real.view(seat)
    assert other.view(None) == real.view(None)
    classes = pairing_classes(STANDARD)
    for s in range(real.players):
        hand = [Card.parse(c) for c in _codes(other.view(s).hand)]
        paired = [classes[c] for c in hand if classes[c] >= 0]
        assert len(paired) == len(set(paired)), f"seat {s} holds an unlaid pair"


def test_determinize_keeps_the_card_a_seat_gave_away_where_it_went() -> None:
    game = _new(SP4_HANDS)
    _play(game, "draw 5")  # seat 1 knows seat 0 now holds J♠
    moved = False
    for k in range(20):
        other = game.determinize(1, random.Random(k))
        _assert_consistent_redeal(game, other, 1)
        assert _holder(other, "JS") == 0
        moved |= set(other.view(0).hand) != set(game.view(0).hand)
    assert moved, "the cards hidden from seat 1 were never re-dealt"
    # Seat 2 was not told, but seat 0's 14 cards can only be one of each rank plus J♠: the
    # re-deal respects that inference too.
    assert {_holder(game.determinize(2, random.Random(k)), "JS") for k in range(20)} == {0}


def test_determinize_forgets_a_given_card_once_someone_else_draws_from_that_hand() -> None:
    game = _new(SP4_HANDS)
    _play(game, "draw 5", "draw 1", "draw 1")  # seat 0 holds J♠; seats 1 and 2 drew
    fan = _codes(game.view(0).hand)
    assert game.to_act() == {3}
    game.apply(3, DRAW + 1 + (fan.index("JS") + 1) % len(fan))  # seat 3 takes another card
    assert _holder(game, "JS") == 0
    holders = {_holder(game.determinize(1, random.Random(k)), "JS") for k in range(40)}
    assert len(holders) > 1  # seat 1 cannot tell whether seat 3 took J♠


def test_determinize_is_reproducible_and_takes_the_future_from_its_rng() -> None:
    game = _new(SP4_HANDS)
    a = game.determinize(2, random.Random(9))
    b = game.determinize(2, random.Random(9))
    assert _all_views(a) == _all_views(b)
    a.apply(0, DRAW + 1)
    b.apply(0, DRAW + 1)
    assert _all_views(a) == _all_views(b)


# --- variants -------------------------------------------------------------------------------------


def _loser_card(game: Game) -> tuple[int, str]:
    view = game.view(None)
    (seat,) = (s for s in range(game.players) if view.seats[s].cards)
    assert view.seats[seat].cards == 1
    return seat, str(view.seats[seat].shown[0])


def test_old_maid_sets_a_queen_aside_and_the_last_queen_loses() -> None:
    options = SvartePetterOptions(odd_card="queen")
    for seed in range(6):
        game = SPEC.new(4, options, rng=random.Random(seed))
        removed = next(p for p in game.view(None).piles if p.key == "svarte_petter.pile.removed")
        assert _codes(removed.cards) == ["QC"]
        _random_playout(game, random.Random(seed))
        seat, last = _loser_card(game)
        assert last[0] == "Q"
        assert game.result().places[seat] == 4


def test_old_maid_pairs_every_jack_and_any_two_queens() -> None:
    mine = ["JS", "JC", "QS", "QD", "QH", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]
    rest = [c for c in map(code, range(52)) if c not in mine and c != "QC"]
    game = _new([mine, rest[:13], rest[13:26], rest[26:]], SvartePetterOptions(odd_card="queen"))
    assert _pairs_pile(game.view(None), 0) == ["JC", "JS", "QD", "QH"]
    assert "QS" in _codes(game.view(0).hand)


def test_colour_pairs_match_red_with_red_and_black_with_black() -> None:
    options = SvartePetterOptions(colour_pairs=True)
    mine = ["7C", "7H", "8C", "8S", "9D", "9H", "JD", "JH", "JS", "2C", "2D", "3H", "3S"]
    rest = [c for c in map(code, range(52)) if c not in mine and c != "JC"]
    game = _new([mine, rest[:13], rest[13:26], rest[26:]], options)
    assert _pairs_pile(game.view(None), 0) == ["8C", "8S", "9D", "9H", "JD", "JH"]
    assert _codes(game.view(0).hand) == ["7C", "7H", "JS", "2C", "2D", "3H", "3S"]


def test_colour_pairs_a_drawn_card_pairs_only_with_its_colour() -> None:
    options = SvartePetterOptions(colour_pairs=True)
    # Seat 0 holds 5♥ (red); seat 1's fan starts 5♣ (black), then 5♦ (red).
    hands = [
        ["5H", "2C", "3C", "4C", "6C", "7C", "8C", "9C", "TC", "QC", "KC", "AC", "JS"],
        ["5C", "5D", "2D", "3D", "4D", "6D", "7D", "8D", "9D", "TD", "QD", "KD", "AD"],
        ["2H", "3H", "4H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "JD"],
        ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "QS", "KS", "AS"],
    ]
    game = _new(hands, options)
    assert not _pairs_pile(game.view(None), 1)  # 5♣ and 5♦ are no colour pair
    _play(game, "draw 1")
    assert "5C" in _codes(game.view(0).hand)
    assert not _pairs_pile(game.view(None), 0)
    game = _new(hands, options)
    _play(game, "draw 2")
    assert _pairs_pile(game.view(None), 0) == ["5D", "5H"]


def test_hidden_odd_card_sets_the_last_card_aside_face_down_until_the_end() -> None:
    options = SvartePetterOptions(odd_card="random")
    deck = [code(c) for c in range(52)]
    deck.remove("7H")
    deck.append("7H")
    game = SPEC.new(3, options, rng=random.Random(1), decks=[deck])
    for viewer in (0, 1, 2, None):
        view = game.view(viewer)
        (removed,) = (p for p in view.piles if p.key == "svarte_petter.pile.removed")
        assert (removed.cards, removed.hidden) == ((), 1)
        assert "7H" not in _codes(view.hand)
    assert (
        sum(s.cards for s in game.view(None).seats)
        + sum(len(p.cards) for p in game.view(None).piles)
        == 51
    )
    _random_playout(game, random.Random(2))
    view = game.view(None)
    (removed,) = (p for p in view.piles if p.key == "svarte_petter.pile.removed")
    assert (_codes(removed.cards), removed.hidden) == (["7H"], 0)
    assert Msg.of("svarte_petter.event.removed", card="7H") in view.events
    _, last = _loser_card(game)
    assert last[0] == "7"  # the odd card is one of the other three sevens


def test_hidden_odd_card_is_re_dealt_by_determinize() -> None:
    options = SvartePetterOptions(odd_card="random")
    game = SPEC.new(4, options, rng=random.Random(3))
    seen = set()
    for k in range(30):
        other = game.determinize(0, random.Random(k))
        assert other.view(0) == game.view(0)
        _random_playout(other, random.Random(k))
        removed = next(p for p in other.view(None).piles if p.key == "svarte_petter.pile.removed")
        seen.add(str(removed.cards[0]))
    assert len(seen) > 10


ODD_CARDS: tuple[OddCard, ...] = ("jack_of_clubs_removed", "queen", "random")
OPTION_COMBINATIONS = [
    SvartePetterOptions(odd_card=odd, reverse=reverse, colour_pairs=colour)
    for odd, reverse, colour in itertools.product(ODD_CARDS, (False, True), (False, True))
]


@pytest.mark.parametrize("options", OPTION_COMBINATIONS, ids=repr)
def test_every_option_combination_ends_cleanly_and_hides_what_it_should(
    options: SvartePetterOptions,
) -> None:
    for players in (3, 6):
        game = SPEC.new(players, options, rng=random.Random(players))
        rng = random.Random(7)
        total = sum(s.cards for s in game.view(None).seats) + sum(
            len(p.cards) + p.hidden for p in game.view(None).piles
        )
        assert total == 52
        step = 0
        while not game.is_over():
            if step % 7 == 0:
                for seat in range(players):
                    other = game.determinize(seat, random.Random(rng.random()))
                    assert other.view(seat) == game.view(seat)
                    assert other.view(None) == game.view(None)
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            step += 1
        view = game.view(None)
        assert sum(s.cards for s in view.seats) + sum(len(p.cards) for p in view.piles) == 52
        seat, _ = _loser_card(game)
        places = game.result().places
        assert places[seat] == (1 if options.reverse else players)
        assert sorted(places) == list(range(1, players + 1))


# --- notation -------------------------------------------------------------------------------------


def test_notation_round_trips_and_accepts_any_case_and_spacing() -> None:
    game = SPEC.new(3, rng=random.Random(1))
    assert game.parse("  Draw 3 ") == DRAW + 3
    assert game.parse("SHUFFLE") == SHUFFLE
    assert game.notation(DRAW + 12) == "draw 12"
    assert game.notation(SHUFFLE) == "shuffle"
    for action in (DRAW + 1, DRAW + 26, SHUFFLE):
        assert game.parse(game.notation(action)) == action


@pytest.mark.parametrize("text", ["draw", "draw x", "draw -1", "draw 1 2", "draw ³", "shuffle 2"])
def test_malformed_moves_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        SPEC.new(3, rng=random.Random(1)).parse(text)


# --- message catalogs -----------------------------------------------------------------------------


def _flatten(table: Mapping[str, object], prefix: str) -> Iterator[str]:
    for key, value in table.items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield prefix + key


def _catalog(language: str, stem: str) -> set[str]:
    with (ROOT / "bot" / "i18n" / language / f"{stem}.toml").open("rb") as f:
        return set(_flatten(tomllib.load(f), f"{stem}."))


def test_catalogs_parse_hold_the_same_keys_and_every_key_the_game_emits() -> None:
    swedish, english = _catalog("sv", "svarte_petter"), _catalog("en", "svarte_petter")
    assert swedish == english
    assert {"svarte_petter.action.draw", "svarte_petter.action.shuffle"} <= swedish
    assert "svarte_petter.rules.play" in swedish
    known = swedish | _catalog("sv", "table")
    emitted: set[str] = set()
    for options in OPTION_COMBINATIONS:
        game = SPEC.new(3, options, rng=random.Random(5))
        rng = random.Random(6)
        while True:
            for viewer in (0, 1, 2, None):
                view = game.view(viewer)
                msgs = [view.phase, *view.events, *view.notes]
                msgs += [n for s in view.seats for n in s.notes]
                emitted |= {m.key for m in msgs} | {p.key for p in view.piles}
            if game.is_over():
                break
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
    capped = _cap_game(STANDARD)
    _chase_the_jack(capped)
    emitted |= {m.key for m in capped.view(None).events}
    assert emitted - known == set()
    assert "svarte_petter.event.you_drew" in emitted


@pytest.mark.parametrize("seed", range(5))
def test_the_drawer_cannot_tell_the_positions_of_the_fan_apart(seed: int) -> None:
    # The only choices are a position to draw from and a shuffle of one's own fan. Whatever order
    # the fan drawn from is in, the drawer sees the same and may do the same: the draws are
    # indistinguishable to him (and the fan's order is random: dealt shuffled, every drawn card
    # put at a random place), so no way of choosing draws better than another.
    game = SPEC.new(3, rng=random.Random(seed))
    rng = random.Random(seed)
    for _ in range(rng.randrange(12)):
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    if game.is_over():
        return
    (drawer,) = game.to_act()
    victim = game._victim()  # type: ignore[attr-defined]
    turned = game.clone()
    fan = turned._hands[victim]  # type: ignore[attr-defined]
    assert len(fan) > 1
    fan.reverse()
    assert turned.view(drawer) == game.view(drawer)
    assert turned.legal_actions(drawer) == game.legal_actions(drawer)
