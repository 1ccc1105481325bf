"""Femhundra: the worked examples of rules/three-to-five-player.md §5.8 (``test_f_exN_...``),
transcripts from explicit deals, refusals and the variants for 2, 4 and 5 players."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.bidding import FIRST_BID
from games.cards import JOKER, cards_in, mask_of, parse_card
from games.core import IllegalActionError, Msg, NotationError
from games.femhundra import SPEC, Femhundra, FemhundraOptions, rules
from games.femhundra.rules import (
    MISERE_LADDER,
    PLAIN_LADDER,
    bid_value,
    cap_defenders,
    deck_for,
    game_winners,
    reached_at,
    score_deal,
)
from games.tricks import bower_tables

MISERE = FemhundraOptions(misere=True)
MULTI = FemhundraOptions(auction="multi")


def deal_order(players: int, dealer: int, hands: list[str], widow: str) -> list[str]:
    """The deck (top first) that deals ``hands`` (forehand first) and ``widow``: 3 each, the
    talong, 4 each, 3 each (rules 5.3, F14)."""
    cards = [h.split() for h in hands]
    out: list[str] = []
    taken = [0] * players
    for step in (3, 0, 4, 3):
        if step == 0:
            out += widow.split()
            continue
        for i in range(players):
            out += cards[i][taken[i] : taken[i] + step]
            taken[i] += step
    return out


def game_with(
    hands: list[str], widow: str, options: FemhundraOptions | None = None, seed: int = 1
) -> tuple[Femhundra, list[int]]:
    """A match whose first deal gives ``hands`` (forehand first, the dealer last); its seats in
    that order."""
    players = len(hands)
    dealer = SPEC.new(players, options, rng=random.Random(seed)).dealer  # type: ignore[attr-defined]
    deck = deal_order(players, dealer, hands, widow)
    game = SPEC.new(players, options, rng=random.Random(seed), decks=[deck])
    assert isinstance(game, Femhundra)
    return game, [(dealer + 1 + i) % players for i in range(players)]


def act(game: Femhundra, seat: int, *moves: str) -> None:
    for text in moves:
        game.apply(seat, game.parse(text))


def legal(game: Femhundra, seat: int) -> set[str]:
    return {game.notation(a) for a in game.legal_actions(seat)}


def play_out_deal(game: Femhundra) -> None:
    """Every seat plays its first legal action until the deal is over."""
    deal = game.dealt
    while game.dealt == deal and not game.is_over():
        seat = next(iter(game.to_act()))
        game.apply(seat, game.legal_actions(seat)[0])


# A no-trump deal (F-Ex6): M is to make 8NT; F holds the joker and no spades.
EX6_F = "JK AH KH 7C 8C 9C 7D 8D 9D TD"
EX6_M = "AS KS QS 7H AD KD QD AC KC QC"
EX6_D = "JS TS 9S 8S 7S QH JH TH 9H 8H"
EX6_WIDOW = "JD JC TC"

# A hearts deal (F-Ex7): F holds the joker and every heart; M every diamond (the left bower JD).
EX7_F = "JK JH AH KH QH TH 9H 8H 7H AS"
EX7_M = "JD AD KD QD TD 9D 8D 7D KS QS"
EX7_D = "AC KC QC JC TC 9C 8C 7C JS TS"
EX7_WIDOW = "9S 8S 7S"


# --- decks and the bid table ---------------------------------------------------------------------


def test_decks_for_each_player_count() -> None:
    assert len(deck_for(3)) == 33
    assert JOKER in deck_for(3)
    assert len(deck_for(4)) == 43
    assert len(deck_for(5)) == 53
    four = deck_for(4)
    assert parse_card("4H") in four
    assert parse_card("4D") in four
    assert parse_card("4C") not in four
    assert parse_card("4S") not in four
    assert parse_card("3H") not in four


def test_f_ex12_two_player_deck_check() -> None:
    deck = deck_for(2)
    assert len(deck) == 24
    assert JOKER not in deck
    suit_table, _, _ = bower_tables(3, joker=False)  # spades trump
    counts = [sum(1 for c in deck if suit_table[c] == s) for s in range(4)]
    assert counts == [5, 6, 6, 7]  # clubs 5, diamonds 6, hearts 6, spades (trumps) 7
    game, seats = game_with(
        [
            "AS KS QS AH KH QH AD KD QD AC",
            "JS TS 9S JH TH 9H JD TD 9D KC",
        ],
        "QC JC TC 9C",
    )
    assert [game.hands[s].bit_count() for s in seats] == [10, 10]
    assert game.widow.bit_count() == 4
    act(game, seats[0], "bid 6H")
    act(game, seats[1], "pass")
    assert game.hands[seats[0]].bit_count() == 14
    assert all(len(game.notation(a).split()) == 5 for a in game.legal_actions(seats[0]))
    act(game, seats[0], "discard QC JC TC 9C")
    assert game.discards.bit_count() == 4


def test_bid_table_values() -> None:
    values = {bid: bid_value(PLAIN_LADDER, i, 3) for i, bid in enumerate(PLAIN_LADDER.bids)}
    assert values["6S"] == 40
    assert values["6NT"] == 120
    assert values["7D"] == 180
    assert values["8H"] == 300
    assert values["10NT"] == 520
    assert bid_value(MISERE_LADDER, MISERE_LADDER.index("misere"), 3) == 250
    assert bid_value(MISERE_LADDER, MISERE_LADDER.index("openmisere"), 3) == 520
    assert bid_value(MISERE_LADDER, MISERE_LADDER.index("openmisere"), 4) == 500


# --- F-Ex1: bid comparison -------------------------------------------------------------------


def test_f_ex1_bid_comparison_with_misere() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, MISERE)
    act(game, f, "bid 6H")
    act(game, m, "bid 7S")
    with pytest.raises(IllegalActionError, match="higher than 7S"):
        act(game, d, "bid 6NT")
    assert "bid 6NT" not in legal(game, d)
    bids = MISERE_LADDER.bids
    assert bids.index("misere") == bids.index("7NT") + 1
    assert bids.index("8S") == bids.index("misere") + 1
    assert bids[-1] == "openmisere"
    # in a multi-round auction: misère over 7NT, 8S over misère, not misère over 8S
    game, (f, m, d) = game_with(
        [EX6_F, EX6_M, EX6_D], EX6_WIDOW, FemhundraOptions(misere=True, auction="multi")
    )
    act(game, f, "bid 7NT")
    assert "bid misere" in legal(game, m)
    act(game, m, "bid misere")
    assert "bid 8S" in legal(game, d)
    act(game, d, "bid 8S")
    assert "bid misere" not in legal(game, f)
    act(game, f, "bid 10NT")
    assert "bid openmisere" in legal(game, m)
    act(game, m, "bid openmisere")
    assert legal(game, d) == {"pass"}


# --- F-Ex2..F-Ex5: scoring ---------------------------------------------------------------------


def _winners(counts: dict[int, int]) -> list[int]:
    return [s for s, k in counts.items() for _ in range(k)]


SOLO_SIDES = (0, 1, 2)  # F 0, M 1, D 2


def test_f_ex2_made_contract() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW)
    act(game, f, "pass")
    act(game, m, "bid 7D")
    act(game, d, "bid 7H")
    assert game.declarer == d
    assert game.hands[d].bit_count() == 13
    act(game, d, "discard 7S 8S 9S")
    assert game.turn == d  # the declarer leads
    out = score_deal(3, _winners({2: 7, 0: 2, 1: 1}), 2, -1, 200, 7, False, True, SOLO_SIDES)
    assert out.gains == (20, 10, 200)


def test_f_ex3_slam_compensation() -> None:
    tens = [0] * 10
    assert score_deal(3, tens, 0, -1, 40, 6, False, True, SOLO_SIDES).gains == (250, 0, 0)
    assert score_deal(3, tens, 0, -1, 40, 6, False, False, SOLO_SIDES).gains == (40, 0, 0)
    assert score_deal(3, tens, 0, -1, 440, 10, False, True, SOLO_SIDES).gains == (440, 0, 0)


def test_f_ex3_transcript_ten_tricks_score_250_and_40_in_the_bidding_variant() -> None:
    for options, expected in ((FemhundraOptions(), 250), (MULTI, 100)):
        game, (f, m, d) = game_with([EX7_F, EX7_M, EX7_D], EX7_WIDOW, options)
        act(game, f, "bid 6H")
        act(game, m, "pass")
        act(game, d, "pass")
        act(game, f, "discard 7S 8S 9S", "JK")
        act(game, m, "JD")
        act(game, d, "JS")
        play_out_deal(game)  # F leads his trumps and the ace of spades
        assert game.scores[f] == expected
        assert game.scores[m] == game.scores[d] == 0
        assert game.dealt == 2


def test_f_ex4_failed_contract() -> None:
    out = score_deal(3, _winners({1: 6, 0: 3, 2: 1}), 1, -1, 320, 8, False, True, SOLO_SIDES)
    assert out.gains == (30, -320, 10)
    assert out.made is False


def test_f_ex5_misere() -> None:
    none = _winners({1: 5, 2: 5})
    assert score_deal(3, none, 0, -1, 250, 0, True, True, SOLO_SIDES).gains == (250, 0, 0)
    two = _winners({0: 2, 1: 4, 2: 4})
    assert score_deal(3, two, 0, -1, 250, 0, True, True, SOLO_SIDES).gains == (-250, 20, 20)
    one = _winners({0: 1, 1: 5, 2: 4})
    assert score_deal(3, one, 0, -1, 520, 0, True, True, SOLO_SIDES).gains == (-520, 10, 10)


def test_all_passed_scores_ten_per_trick_and_sets_the_talong_aside() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW)
    act(game, f, "pass")
    act(game, m, "pass")
    act(game, d, "pass")
    assert game.declarer == -1
    assert game.trump == -1
    assert game.turn == f  # forehand leads
    assert game.widow.bit_count() == 3  # set aside, unused
    assert "JK H" in legal(game, f)
    play_out_deal(game)
    assert sum(game.scores) == 100
    out = score_deal(3, _winners({0: 4, 1: 3, 2: 3}), -1, -1, 0, 0, False, True, SOLO_SIDES)
    assert out.gains == (40, 30, 30)


# --- F-Ex6, F-Ex7: the joker ----------------------------------------------------------------------


def _ex6_to_contract(options: FemhundraOptions | None = None) -> tuple[Femhundra, list[int]]:
    game, seats = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, options)
    f, m, d = seats
    act(game, f, "pass")
    act(game, m, "bid 8NT")
    act(game, d, "pass")
    act(game, m, "discard JD JC TC")
    return game, seats


def test_the_talong_and_the_discards_are_hidden_and_the_declarer_sees_his_discards() -> None:
    """Rules 5.9: hidden are the hands, the talong and the declarer's discards (declarer only)."""
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW)
    talong = [p for p in game.view(None).piles if p.key == "femhundra.pile.talong"]
    assert [(p.cards, p.hidden) for p in talong] == [((), 3)]
    act(game, f, "pass")
    act(game, m, "bid 8NT")
    act(game, d, "pass")
    act(game, m, "discard JD JC TC")
    discards = [parse_card(c) for c in ("JC", "TC", "JD")]

    def pile(seat: int | None) -> tuple[list[int], int]:
        (p,) = [p for p in game.view(seat).piles if p.key == "femhundra.pile.discards"]
        return [int(c) for c in p.cards], p.hidden

    assert pile(m) == (sorted(discards), 0)
    assert game.view(m).notes == (Msg.of("femhundra.note.discarded", cards="TC JC JD"),)
    for seat in (f, d, None):
        assert pile(seat) == ([], 3)
        assert game.view(seat).notes == ()
        assert not any(p.key == "femhundra.pile.talong" for p in game.view(seat).piles)


def test_f_ex6_joker_led_in_no_trumps_names_a_suit_not_shown_void() -> None:
    game, (f, m, d) = _ex6_to_contract()
    act(game, m, "AS")
    act(game, d, "7S")
    act(game, f, "7C")  # F shows void in spades
    assert game.winners == [m]
    act(game, m, "7H")
    act(game, d, "8H")
    act(game, f, "AH")
    assert game.winners == [m, f]
    options = legal(game, f)
    assert {"JK C", "JK D", "JK H"} <= options
    assert "JK S" not in options
    assert "JK" not in options  # the joker is led only with a suit named
    with pytest.raises(IllegalActionError, match="void"):
        act(game, f, "JK S")
    act(game, f, "JK H")
    act(game, m, "AD")  # M has no heart left
    assert legal(game, d) == {"QH", "JH", "TH", "9H"}  # must follow the named suit
    act(game, d, "9H")
    assert game.winners == [m, f, f]  # the joker wins


def test_f_ex6_joker_may_be_played_on_any_trick_but_only_void_with_void_only() -> None:
    game, (f, m, d) = _ex6_to_contract()
    act(game, m, "QD")
    act(game, d, "7S")
    assert "JK" in legal(game, f)  # F holds diamonds and may still play the joker
    act(game, f, "JK")
    assert game.winners == [f]
    assert not game.voids[f]  # playing the joker shows no void
    game, (f, m, d) = _ex6_to_contract(FemhundraOptions(nt_joker="void_only"))
    act(game, m, "QD")
    act(game, d, "7S")
    assert legal(game, f) == {"7D", "8D", "9D", "TD"}
    with pytest.raises(IllegalActionError, match="follow suit"):
        act(game, f, "JK")


def test_with_void_only_a_joker_played_on_a_plain_lead_shows_the_void() -> None:
    """The seed bars naming "en färg som han tidigare inte kunnat följa". With ``void_only`` the
    joker may be played on another lead only by a player void in it, so playing it shows that
    void to everyone (rules 5.9: shown voids are public); by default it shows nothing."""
    game, (f, m, d) = _ex6_to_contract(FemhundraOptions(nt_joker="void_only"))
    act(game, m, "AS")
    act(game, d, "7S")
    act(game, f, "JK")  # F holds no spade: the only way he may play the joker here
    assert game.winners == [f]
    assert game.voids[f] == 1 << 3  # spades
    assert Msg.of("femhundra.note.void", suits="♠") in game.view(m).seats[f].notes
    game, (f, m, d) = _ex6_to_contract()
    act(game, m, "AS")
    act(game, d, "7S")
    act(game, f, "JK")  # by default he might have held a spade
    assert not game.voids[f]


def test_f_ex7_joker_in_trumps_is_the_highest_trump_and_leads_trumps() -> None:
    game, (f, m, d) = game_with([EX7_F, EX7_M, EX7_D], EX7_WIDOW)
    act(game, f, "bid 6H")
    act(game, m, "pass")
    act(game, d, "pass")
    act(game, f, "discard 7S 8S 9S")
    act(game, f, "JK")
    assert legal(game, m) == {"JD"}  # the left bower is a trump and must follow
    act(game, m, "JD")
    act(game, d, "JS")
    assert game.winners == [f]
    _, power, _ = bower_tables(2, joker=True)
    order = ["JK", "JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H"]
    powers = [power[parse_card(c)] for c in order]
    assert powers == sorted(powers, reverse=True)


def test_the_left_bower_is_no_diamond_in_hearts_and_beats_the_ace_of_trumps() -> None:
    """Hearts trump: the jack of diamonds is a trump (the left bower, rules 5.2), so it does not
    follow a diamond lead, and in play it beats every trump but the joker and the right bower."""
    f_hand = "JK JH AH KH QH TH 9H 8H 7H AD"
    m_hand = "JD 7D KS QS JS TS 9S 8S 7S AS"
    d_hand = "AC KC QC JC TC 9C 8C 7C KD QD"
    game, (f, m, d) = game_with([f_hand, m_hand, d_hand], "TD 9D 8D")
    act(game, f, "bid 6H")
    act(game, m, "pass")
    act(game, d, "pass")
    act(game, f, "discard 8D 9D TD", "AD")
    assert legal(game, m) == {"7D"}  # his only diamond: the jack is a trump
    act(game, m, "7D")
    act(game, d, "QD")
    assert game.winners == [f]
    act(game, f, "AH")
    assert legal(game, m) == {"JD"}  # his only trump
    act(game, m, "JD")
    act(game, d, "7C")
    assert game.winners == [f, m]  # the left bower over the ace of trumps


# --- F-Ex8, F-Ex9, F-Ex13: the end of the game ---------------------------------------------------


def test_f_ex8_500_precedence() -> None:
    # F 480 + 20, M 420 + 240, D 300: both at 500 or more, the higher score wins
    assert game_winners([500, 660, 300], [1, 10, 10], 1, -1, SOLO_SIDES) == frozenset({1})
    # M started at 260: 500 and 500, equal: the declarer wins
    assert game_winners([500, 500, 300], [1, 10, 10], 1, -1, SOLO_SIDES) == frozenset({1})


def test_f_ex9_different_scores_the_higher_wins() -> None:
    winners = [1, 0, 2, 1, 2, 1, 1, 2, 2, 1]  # F trick 2 only; D tricks 3, 5, 8, 9
    out = score_deal(3, winners, 1, -1, 400, 9, False, True, SOLO_SIDES)
    assert out.gains == (10, -400, 40)
    assert reached_at(490, out.credits[0]) == 1
    assert reached_at(480, out.credits[2]) == 4
    scores = [490 + 10, 0 - 400, 480 + 40]
    reached = [1, 10, 4]
    assert game_winners(scores, reached, 1, -1, SOLO_SIDES) == frozenset({2})


def test_f_ex13_trick_order_tie_break() -> None:
    winners = [0, 0, 0, 1, 1, 2, 2, 2, 2, 2]
    out = score_deal(3, winners, -1, -1, 0, 0, False, True, SOLO_SIDES)
    scores = [470 + 30, 480 + 20, 100 + 50]
    reached = [reached_at(470, out.credits[0]), reached_at(480, out.credits[1]), 10]
    assert reached[:2] == [2, 4]
    assert game_winners(scores, reached, -1, -1, SOLO_SIDES) == frozenset({0})


def test_a_failed_misere_that_takes_both_opponents_to_500_together_is_a_shared_win() -> None:
    """Each opponent scores 10 per trick the misère declarer took, so both reach 500 on the same
    trick: equal scores, no declarer among them, the same trick. Nothing in the seed tells them
    apart, so they share the win (place 1 each)."""
    winners = [1, 1, 0, 2, 1, 1, 1, 1, 1, 1]  # the declarer F (0) took trick 3
    out = score_deal(3, winners, 0, -1, 250, 0, True, True, SOLO_SIDES)
    assert out.gains == (-250, 10, 10)
    scores = [100 - 250, 490 + 10, 490 + 10]
    reached = [10, reached_at(490, out.credits[1]), reached_at(490, out.credits[2])]
    assert reached[1:] == [2, 2]
    assert game_winners(scores, reached, 0, -1, SOLO_SIDES) == frozenset({1, 2})


def test_f_ex13_places_in_a_whole_match() -> None:
    game, (f, m, d) = game_with([EX7_F, EX7_M, EX7_D], EX7_WIDOW)
    game.scores[f], game.scores[m], game.scores[d] = 260, 490, 100
    act(game, f, "bid 6H")
    act(game, m, "pass")
    act(game, d, "pass")
    act(game, f, "discard 7S 8S 9S", "JK")
    act(game, m, "JD")
    act(game, d, "JS")
    play_out_deal(game)  # F takes all ten: 250
    assert game.is_over()
    result = game.result()
    assert result.scores[f] == 510
    assert result.places[f] == 1
    assert result.places[m] == 2
    assert result.places[d] == 3
    assert not game.to_act()


def test_back_door_win_at_minus_500() -> None:
    assert game_winners([-500, 30, 20], [10] * 3, 0, -1, SOLO_SIDES) == frozenset({1})
    assert game_winners([-520, 30, 30], [10] * 3, 0, -1, SOLO_SIDES) == frozenset({1, 2})
    game, (f, m, d) = game_with([EX7_F, EX7_M, EX7_D], EX7_WIDOW)
    game.scores[m] = -480
    game.scores[d] = 40
    act(game, f, "pass")
    act(game, m, "bid 10C")  # M cannot take ten tricks with these cards
    act(game, d, "pass")
    act(game, m, "discard 7S 8S 9S")
    play_out_deal(game)
    assert game.is_over()
    assert game.scores[m] == -480 - 460
    assert game.result().places[m] == 3
    assert any(e.key == "femhundra.event.back_door" for e in game.view(None).events)


def test_500_is_checked_before_minus_500() -> None:
    assert game_winners([510, -500, 0], [3, 10, 10], 1, -1, SOLO_SIDES) == frozenset({0})


# --- refusals ---------------------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game, (f, m, d) = _ex6_to_contract()
    before = game.view(None)
    with pytest.raises(IllegalActionError, match="not your turn"):
        act(game, f, "7C")
    with pytest.raises(IllegalActionError, match="not a card in your hand"):
        act(game, m, "JS")
    act(game, m, "AS")
    with pytest.raises(IllegalActionError):
        act(game, d, "QH")  # D must follow spades
    assert game.trick == [parse_card("AS")]
    assert game.view(None) != before
    with pytest.raises(NotationError):
        game.parse("bid 11S")
    with pytest.raises(NotationError):
        game.parse("JK X")


def test_discard_must_be_the_right_number_of_own_cards() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW)
    act(game, f, "pass")
    act(game, m, "bid 8NT")
    act(game, d, "pass")
    with pytest.raises(IllegalActionError, match="exactly 3"):
        act(game, m, "discard JD JC")
    with pytest.raises(IllegalActionError, match="exactly 3"):
        act(game, m, "discard JD JC 7C")
    with pytest.raises(IllegalActionError, match="declarer"):
        act(game, f, "discard 7C 8C 9C")
    assert len(game.legal_actions(m)) == 286  # 3 of 13


def test_notation_round_trips() -> None:
    game, _ = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, MISERE)
    for text in (
        "QS",
        "JK",
        "JK H",
        "pass",
        "bid 6S",
        "bid 10NT",
        "bid misere",
        "bid openmisere",
        "solo",
        "call AC",
        "discard 7C 8D 9H",
        "discard 7C 8D 9H TS",
    ):
        assert game.notation(game.parse(text)) == text
    assert game.parse("discard 9H 7C 8D") == game.parse("discard 7C 8D 9H")


# --- the bidding variant ------------------------------------------------------------------------


def test_bidding_variant_goes_round_until_passes_and_a_pass_is_final() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, MULTI)
    act(game, f, "bid 6S")
    act(game, m, "pass")
    act(game, d, "bid 6H")
    assert game.to_act() == {f}  # a second round
    act(game, f, "bid 7S")
    assert game.to_act() == {d}  # M passed: out for good
    act(game, d, "pass")
    assert game.declarer == f
    assert game.ladder.bids[game.bid] == "7S"


def test_one_round_ends_after_each_player_spoke_once() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW)
    act(game, f, "bid 6S")
    act(game, m, "pass")
    act(game, d, "bid 6H")
    assert game.declarer == d


# --- the Anglo-Saxon variant ---------------------------------------------------------------------


def test_misere_joker_is_compulsory_when_void_and_counts_for_the_declarer() -> None:
    # F bids misère; M holds the joker and later cannot follow: he must play it
    hands = [EX6_M, EX6_F, EX6_D]  # forehand holds EX6_M's cards
    game, (f, m, d) = game_with(hands, EX6_WIDOW, MISERE)
    act(game, f, "bid misere")
    act(game, m, "pass")
    act(game, d, "pass")
    act(game, f, "discard JD JC TC")
    assert game.trump == -1
    act(game, f, "KS")
    assert legal(game, m) == {"JK"}  # void in spades, holding the joker
    act(game, m, "JK")
    act(game, d, "7S")
    assert game.winners == [m]


def test_misere_discard_without_the_joker_shows_no_joker() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, MISERE)
    act(game, f, "pass")
    act(game, m, "bid misere")
    act(game, d, "pass")
    act(game, m, "discard JD JC TC")
    act(game, m, "7H")
    act(game, d, "8H")
    act(game, f, "AH")
    act(game, f, "7C")
    act(game, m, "QC")
    act(game, d, "8S")  # D shows void in clubs and, in misère, that he has no joker
    assert game.voids[d] & (1 << 4)


def test_open_misere_lays_the_hand_face_up_after_the_discard() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, MISERE)
    act(game, f, "pass")
    act(game, m, "bid openmisere")
    act(game, d, "pass")
    assert game.view(f).seats[m].shown == ()
    act(game, m, "discard AS KS QS")
    shown = {str(c) for c in game.view(f).seats[m].shown}
    assert shown == {"7H", "AD", "KD", "QD", "AC", "KC", "QC", "JD", "JC", "TC"}
    play_out_deal(game)
    assert game.scores[m] in (520, -520)


# --- two, four and five players -----------------------------------------------------------------


def _five_hands() -> tuple[list[str], str]:
    deck = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]
    suits = "SHDC"
    cards = [r + s for s in suits for r in deck] + ["JK"]
    hands = [" ".join(cards[10 * i : 10 * i + 10]) for i in range(5)]
    return hands, " ".join(cards[50:])


def test_f_ex11_five_players_partner() -> None:
    out = score_deal(5, _winners({0: 5, 2: 3, 1: 1, 4: 1}), 0, 2, 300, 8, False, True, range(5))
    assert out.gains == (300, 10, 300, 0, 10)


def test_five_players_call_a_card_whose_holder_becomes_partner() -> None:
    hands, widow = _five_hands()
    game, seats = game_with(hands, widow)
    a = seats[0]
    act(game, a, "bid 8H")
    for s in seats[1:]:
        act(game, s, "pass")
    assert game.to_act() == {a}
    options = legal(game, a)
    assert "solo" in options
    assert "call AS" not in options  # his own card
    assert "call AH" not in options  # a trump
    assert "call JD" not in options  # the left bower is a trump
    assert "call JK" not in options
    holder = seats[2]  # the third hand holds 4H..
    act(game, a, "call AD")
    assert game.partner == next(s for s in range(5) if game.hands[s] >> parse_card("AD") & 1)
    view = game.view(None)
    assert any(e.key == "femhundra.event.called" for e in view.events)
    assert view.teams
    assert a in view.teams[0] + view.teams[1]
    assert parse_card("AD") in [int(c) for c in view.seats[game.partner].shown]
    assert holder in range(5)
    assert game.hands[a].bit_count() == 13


def test_five_players_called_card_in_the_talong_plays_alone() -> None:
    hands, widow = _five_hands()
    game, seats = game_with(hands, widow)
    act(game, seats[0], "bid 6NT")
    for s in seats[1:]:
        act(game, s, "pass")
    act(game, seats[0], f"call {widow.split()[0]}")
    assert game.partner == -1
    assert any(e.key == "femhundra.event.called_talong" for e in game.view(None).events)


def test_five_players_a_card_called_from_the_talong_stays_with_the_declarer_when_redealt() -> None:
    """Nobody answered the call, so every player knows the card lay in the talong and went to
    the declarer: a re-dealt copy keeps it in his hand or his discards (rules 5.9)."""
    hands, widow = _five_hands()
    game, seats = game_with(hands, widow)
    declarer = seats[0]
    act(game, declarer, "bid 6NT")
    for s in seats[1:]:
        act(game, s, "pass")
    act(game, declarer, "call 3C")
    act(game, declarer, "discard 2C 5S 6S")
    called = parse_card("3C")
    for seed in range(40):
        other = game.determinize(seats[1], random.Random(seed))
        assert (other.hands[declarer] | other.discards) >> called & 1


def test_five_players_misere_is_played_alone() -> None:
    hands, widow = _five_hands()
    game, seats = game_with(hands, widow, MISERE)
    act(game, seats[0], "bid misere")
    for s in seats[1:]:
        act(game, s, "pass")
    assert legal(game, seats[0]) != {"solo"}
    assert all(n.startswith("discard") for n in legal(game, seats[0]))


def _four_hands() -> tuple[list[str], str]:
    deck = rules.deck_for(4)
    from games.cards import code

    cards = [code(c) for c in deck]
    hands = [" ".join(cards[10 * i : 10 * i + 10]) for i in range(4)]
    return hands, " ".join(cards[40:])


def test_four_players_partners_opposite_and_multi_round_bidding() -> None:
    hands, widow = _four_hands()
    game, seats = game_with(hands, widow)
    assert game.view(None).teams == ((0, 2), (1, 3))
    n, e, s, w = seats
    act(game, n, "bid 6S")
    act(game, e, "bid 6C")
    act(game, s, "pass")
    act(game, w, "pass")
    assert game.to_act() == {n}
    act(game, n, "bid 7S")
    assert game.to_act() == {e}  # S and W passed for good
    act(game, e, "pass")
    assert game.declarer == n
    assert game.partner == s
    assert not game.slam


def test_f_ex10_four_player_cap_at_490() -> None:
    # N-S (side 0) 470 defend; E-W bid 8H and take 6: N-S took 4 tricks -> 510 -> 490
    gains = score_deal(
        4, _winners({1: 3, 3: 3, 0: 2, 2: 2}), 1, 3, 300, 8, False, False, (0, 1, 0, 1)
    ).gains
    assert gains == (40, -300, 40, -300)
    capped = cap_defenders([470, 0, 470, 0], gains, (0, 1, 0, 1), {1}, False, False)
    assert capped == [20, -300, 20, -300]
    # a made contract: trick points may reach 500
    assert (
        cap_defenders([470, 0, 470, 0], [40, 300, 40, 300], (0, 1, 0, 1), {1}, True, False)[0] == 40
    )
    assert (
        cap_defenders([470, 0, 470, 0], [40, 300, 40, 300], (0, 1, 0, 1), {1}, True, True)[0] == 20
    )


def test_four_players_misere_after_seven_and_the_partner_lays_his_cards_aside() -> None:
    hands, widow = _four_hands()
    game, seats = game_with(hands, widow, MISERE)
    n, e, s, w = seats
    assert "bid misere" not in legal(game, n)
    assert "bid openmisere" not in legal(game, n)
    with pytest.raises(IllegalActionError, match="seven"):
        act(game, n, "bid misere")
    act(game, n, "bid 7S")
    assert "bid misere" in legal(game, e)
    act(game, e, "bid misere")
    act(game, s, "pass")
    act(game, w, "pass")
    act(game, n, "pass")
    assert game.declarer == e
    act(game, e, game.notation(game.legal_actions(e)[0]))
    assert game.idle == w
    assert game.hands[w] == 0
    assert game.aside.bit_count() == 10
    for seat in (n, e, s, None):  # laid aside face down: only the idle partner knows them
        (aside,) = [p for p in game.view(seat).piles if p.key == "femhundra.pile.aside"]
        assert (aside.cards, aside.hidden, aside.seat) == ((), 10, w)
    (aside,) = [p for p in game.view(w).piles if p.key == "femhundra.pile.aside"]
    assert mask_of(int(c) for c in aside.cards) == game.aside
    lead = game.legal_actions(e)[0]
    game.apply(e, lead)
    assert game.to_act() == {s}
    game.apply(s, game.legal_actions(s)[0])
    game.apply(n, game.legal_actions(n)[0])
    assert len(game.winners) == 1  # a trick of three cards
    assert bid_value(game.ladder, game.bid, 4) == 250


def test_match_ends_and_partners_share_a_place() -> None:
    game = SPEC.new(4, rng=random.Random(3))
    rng = random.Random(3)
    while not game.is_over():
        seat = next(iter(game.to_act()))
        options = game.legal_actions(seat)
        game.apply(seat, options[rng.randrange(len(options))])
    places = game.result().places
    assert places[0] == places[2]
    assert places[1] == places[3]
    assert places[0] != places[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("preset", ["standard", "misere", "multi_round"])
def test_every_player_count_passes_the_contract_checks(players: int, preset: str) -> None:
    """The conformance suite samples 2, 3 and 5 players: the same checks for all counts."""
    game = SPEC.new(players, SPEC.preset(preset), rng=random.Random(players))
    rng = random.Random(9)
    steps = 0
    record: list[tuple[int, str]] = []
    while not game.is_over():
        seat = next(iter(game.to_act()))
        options = game.legal_actions(seat)
        if steps % 7 == 0:
            for s in range(players):
                view = game.view(s)
                other = game.determinize(s, random.Random(steps))
                assert other.view(s) == view
                assert other.view(None) == game.view(None)
                assert other.legal_actions(s) == game.legal_actions(s)
        action = options[rng.randrange(len(options))]
        record.append((seat, game.notation(action)))
        game.apply(seat, action)
        steps += 1
    assert min(game.result().places) == 1
    replay = SPEC.new(players, SPEC.preset(preset), rng=random.Random(players))
    for seat, text in record:
        replay.apply(seat, replay.parse(text))
    assert replay.result() == game.result()
    assert [replay.view(s) for s in range(players)] == [game.view(s) for s in range(players)]


def test_presets() -> None:
    assert SPEC.preset("misere") == MISERE
    assert SPEC.preset("multi_round") == MULTI
    assert dataclasses.replace(SPEC.preset("standard"), misere=True) == MISERE
    assert FIRST_BID == 3


def test_rule_based_player_beats_random_on_the_same_deals() -> None:
    from games.ai import choose

    def first_place(kind: str, seat: int, seed: int) -> bool:
        game = SPEC.new(3, rng=random.Random(seed))
        rng = random.Random(seed + 100)
        while not game.is_over():
            s = next(iter(game.to_act()))
            game.apply(s, choose(game, s, kind if s == seat else "random", rng))
        return game.result().places[seat] == 1

    matches = [(seed, seed % 3) for seed in range(12)]
    rules_wins = sum(first_place("rules", seat, seed) for seed, seat in matches)
    random_wins = sum(first_place("random", seat, seed) for seed, seat in matches)
    assert rules_wins >= random_wins + 3, (rules_wins, random_wins)


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_every_message_of_every_player_count_and_variant_has_a_text(lang: str) -> None:
    from bot.i18n import catalog, fill
    from bot.render.text import TextRenderer

    texts = catalog(lang)
    render = TextRenderer(texts, [f"P{s}" for s in range(5)])
    for players in (2, 3, 4, 5):
        for preset in ("standard", "misere"):
            game = SPEC.new(players, SPEC.preset(preset), rng=random.Random(players))
            rng = random.Random(1)
            while True:
                for seat in [*range(players), None]:
                    view = game.view(seat)
                    msgs = [view.phase, *view.events, *view.notes]
                    msgs += [n for info in view.seats for n in info.notes]
                    if view.sheet is not None:
                        msgs += [*view.sheet.columns, *(row.label for row in view.sheet.rows)]
                    for m in msgs:
                        assert texts.has(m.key), m.key
                        args = {name: render.arg(name, value) for name, value in m.args}
                        fill(texts.template(m.key), args, strict=True)
                    for pile in view.piles:
                        assert texts.has(pile.key), pile.key
                if game.is_over():
                    break
                seat = next(iter(game.to_act()))
                options = game.legal_actions(seat)
                for action in options[:40]:
                    label = render.action("femhundra", game.notation(action))
                    assert "femhundra." not in label, label
                game.apply(seat, options[rng.randrange(len(options))])


def _clicks(notations: list[str]) -> dict[str, int]:
    """How many clicks on the hand panel reach each action (a page, a step, a choice)."""
    from bot.discord.views.layout import Buttons, Select, Steps, layout, step_page

    reach: dict[str, int] = {}
    for number, page in enumerate(layout(notations)):
        turn = 0 if number == 0 else 1
        for row in page:
            if isinstance(row, Steps):
                for first in row.firsts:
                    for sub in step_page(notations, f"{row.verb} {first}"):
                        assert isinstance(sub, Buttons | Select)
                        for choice in sub.choices:
                            reach.setdefault(choice.notation, turn + 2)
            elif isinstance(row, Select) and row.most_values > 1:
                for combo in notations:
                    if combo.startswith(row.verb + " "):
                        reach.setdefault(combo, turn + 1)
            else:
                for choice in row.choices:
                    reach.setdefault(choice.notation, turn + 1)
    return reach


def test_every_decision_takes_at_most_two_clicks_on_the_panel() -> None:
    game, (f, m, d) = game_with([EX6_F, EX6_M, EX6_D], EX6_WIDOW, MISERE)
    bids = legal(game, f)
    reach = _clicks(sorted(game.notation(a) for a in game.legal_actions(f)))
    assert set(reach) == bids
    assert reach["bid 7NT"] == 2  # tricks, then the strain
    assert reach["bid misere"] == 1
    assert reach["pass"] == 1
    act(game, f, "pass")
    act(game, m, "bid 8NT")
    act(game, d, "pass")
    discards = [game.notation(a) for a in game.legal_actions(m)]
    assert set(_clicks(discards).values()) == {1}  # one multi-select of three cards
    act(game, m, "discard JD JC TC", "7H")
    act(game, d, "8H")
    act(game, f, "AH")
    leads = [game.notation(a) for a in game.legal_actions(f)]
    assert max(_clicks(leads).values()) == 1
    hands, widow = _five_hands()
    five, seats = game_with(hands, widow)
    act(five, seats[0], "bid 6NT")
    for s in seats[1:]:
        act(five, s, "pass")
    calls = [five.notation(a) for a in five.legal_actions(seats[0])]
    assert len(calls) > 25
    reach = _clicks(calls)
    assert set(reach) == set(calls)
    assert max(reach.values()) <= 2


def test_transcript_five_players_partner_shares_the_slam() -> None:
    hands, widow = _five_hands()  # forehand: AS..5S; the talong 3C 2C JK
    game, seats = game_with(hands, widow)
    a, b, c, d, e = seats
    act(game, a, "bid 8S")
    for s in (b, c, d, e):
        act(game, s, "pass")
    act(game, a, "call AH")
    assert game.partner == b
    act(game, a, "discard 2C 3C 5S", "JK")
    act(game, b, "2S")
    act(game, c, "2H")
    act(game, d, "AC")
    assert legal(game, e) == {"JC"}  # the left bower must follow the joker's trump lead
    act(game, e, "JC")
    play_out_deal(game)
    assert game.scores[a] == game.scores[b] == 250  # 8S is worth 240: all ten score 250
    assert game.scores[c] == game.scores[d] == game.scores[e] == 0


def test_transcript_four_players_side_scores_without_slam() -> None:
    hands, widow = _four_hands()  # forehand: the clubs; the talong KS AS JK
    game, seats = game_with(hands, widow)
    n, e, s, w = seats
    act(game, n, "bid 10C")
    act(game, e, "pass")
    act(game, s, "pass")
    act(game, w, "pass")
    act(game, n, "discard 5C 6C KS", "JK")
    act(game, e, "4D")
    act(game, s, "4H")
    assert legal(game, w) == {"JS"}
    act(game, w, "JS")
    play_out_deal(game)
    assert game.scores[n] == game.scores[s] == 460  # four players: no 250 for ten tricks
    assert game.scores[e] == game.scores[w] == 0
    rows = game.view(None).sheet
    assert rows is not None
    assert rows.rows[0].cells == ((460, 0) if n % 2 == 0 else (0, 460))


# --- the rules as written, against random deals ---------------------------------------------------

_SAME_COLOUR = {0: 3, 3: 0, 1: 2, 2: 1}  # C-S, D-H


def _suit(c: int, trump: int | None) -> int | None:
    """Rules 5.2: the joker and the left bower are trumps; without trumps the joker has no suit."""
    if c == JOKER:
        return trump
    if trump is not None and c % 13 == 9 and c // 13 in (trump, _SAME_COLOUR[trump]):
        return trump
    return c // 13


def _power(c: int, trump: int | None) -> int:
    if c == JOKER:
        return 100
    if trump is not None and c % 13 == 9 and c // 13 == trump:
        return 99  # the right bower
    if trump is not None and c % 13 == 9 and c // 13 == _SAME_COLOUR[trump]:
        return 98  # the left bower
    return c % 13


def _deal_as_written(game: Femhundra, rng: random.Random) -> list[int]:
    """Play one deal's tricks at random, checking each legal set against rules 5.4 (and V1's
    compulsory joker); the winner of each trick, by an independent reading of 5.2 and 5.4."""
    n, options = game.n, game.options
    strain = game.ladder.strain(game.bid) if game.bid >= 0 else None
    trump = None if strain in (None, "NT") else rules.STRAIN_SUIT[strain]
    misere = game.bid >= 0 and strain is None
    voids: list[set[int]] = [set() for _ in range(n)]
    winners: list[int] = []
    trick: list[tuple[int, int]] = []
    led: int | None = None
    deal = game.dealt
    playing = n - (1 if game.idle >= 0 else 0)
    while game.dealt == deal and not game.is_over():
        (seat,) = game.to_act()
        hand = set(cards_in(game.hands[seat]))
        expected: set[int]
        if not trick and trump is None and JOKER in hand:  # the joker led names a suit
            named = [s for s in range(4) if s not in voids[seat]] or list(range(4))
            expected = (hand - {JOKER}) | {rules.JOKER_LEAD + s for s in named}
        elif not trick:
            expected = hand
        elif trump is not None:  # follow suit if able
            expected = {c for c in hand if _suit(c, trump) == led} or hand
        else:  # no trumps: the joker counts as the led suit (F6), compulsory in misère (V1)
            same = {c for c in hand if c != JOKER and c // 13 == led}
            joker = hand & {JOKER}
            if same:
                expected = same | joker if options.nt_joker == "any_time" else same
            else:
                expected = joker if joker and misere else hand
        actions = game.legal_actions(seat)
        assert set(actions) == expected
        action = actions[rng.randrange(len(actions))]
        card = JOKER if rules.JOKER_LEAD <= action < rules.JOKER_LEAD + 4 else action
        if not trick:
            led = action - rules.JOKER_LEAD if card != action else _suit(card, trump)
        elif card != JOKER and _suit(card, trump) != led:
            assert led is not None
            voids[seat].add(led)
        trick.append((seat, card))
        game.apply(seat, action)
        if len(trick) == playing:
            if trump is None:
                jokers = [s for s, c in trick if c == JOKER]
                plain = [(s, c) for s, c in trick if c != JOKER and c // 13 == led]
                winners.append(jokers[0] if jokers else max(plain, key=lambda t: t[1] % 13)[0])
            else:
                trumps = [t for t in trick if _suit(t[1], trump) == trump]
                pool = trumps or [t for t in trick if _suit(t[1], trump) == led]
                winners.append(max(pool, key=lambda t: _power(t[1], trump))[0])
            trick = []
    return winners


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [FemhundraOptions(), MISERE, FemhundraOptions(misere=True, nt_joker="void_only"), MULTI],
)
def test_random_deals_play_and_score_as_the_rules_are_written(
    players: int, options: FemhundraOptions
) -> None:
    rng = random.Random(players)
    for seed in range(12):
        game = SPEC.new(players, options, rng=random.Random(seed))
        assert isinstance(game, Femhundra)
        deal = game.dealt
        while game.dealt == deal and game.phase != 3:  # the bidding, the call and the discard
            (seat,) = game.to_act()
            actions = game.legal_actions(seat)
            pick = 0 if game.phase == 0 and rng.random() < 0.6 else rng.randrange(len(actions))
            game.apply(seat, actions[pick])
        bid, declarer, partner, idle = game.bid, game.declarer, game.partner, game.idle
        before = list(game.scores)
        winners = _deal_as_written(game, rng)
        assert len(winners) == 10
        sides = [s % 2 for s in range(players)] if players == 4 else list(range(players))
        expected = [0] * players
        if declarer < 0:  # all passed: 10 a trick, a side's tricks for both partners
            for s in range(players):
                expected[s] = 10 * sum(1 for w in winners if sides[w] == sides[s])
        else:
            team = {declarer} | ({partner} if partner >= 0 and idle < 0 else set())
            declaring = {sides[s] for s in team}
            taken = sum(1 for w in winners if w in team)
            value = bid_value(game.ladder, bid, players)
            level = game.ladder.level(bid)
            made = taken == 0 if level is None else taken >= level
            slam = players != 4 and options.auction == "one"  # V2, F9: no 250 then
            if slam and made and level is not None and taken == 10 and value < 250:
                value = 250
            for s in range(players):
                if sides[s] in declaring:
                    expected[s] = value if made else -value
                elif level is None:  # misère: 10 a trick the declarer took, if he failed
                    expected[s] = 0 if made else 10 * taken
                else:
                    expected[s] = 10 * sum(1 for w in winners if sides[w] == sides[s])
                defending = players == 4 and not made and sides[s] not in declaring
                if defending and before[s] + expected[s] >= 500:  # V5: they stay on 490
                    expected[s] = max(0, 490 - before[s])
        assert [game.scores[s] - before[s] for s in range(players)] == expected


def _five_hands_joker_held() -> tuple[list[str], str]:
    """The five hands above with the joker in the fourth hand and its 5D in the talong."""
    hands, widow = _five_hands()
    hands[3] = hands[3].replace("5D", "JK")
    return hands, widow.replace("JK", "5D")


def test_five_players_in_sang_the_joker_may_be_called_as_partner() -> None:
    hands, widow = _five_hands_joker_held()
    game, seats = game_with(hands, widow)
    act(game, seats[0], "bid 6NT")
    for s in seats[1:]:
        act(game, s, "pass")
    assert "call JK" in legal(game, seats[0])  # in sang the joker is no trump
    act(game, seats[0], "call JK")
    assert game.partner == seats[3]
    assert any(e.key == "femhundra.event.called" for e in game.view(None).events)


def test_five_players_misere_partner_never_plays_every_contract_alone() -> None:
    hands, widow = _five_hands()
    never = FemhundraOptions(misere=True, misere_partner="never")
    game, seats = game_with(hands, widow, never)
    act(game, seats[0], "bid 8H")
    for s in seats[1:]:
        act(game, s, "pass")
    assert all(n.startswith("discard") for n in legal(game, seats[0]))  # no call, no solo
    assert game.partner == -1
    assert game.view(None).teams == ()
    game, seats = game_with(hands, widow, MISERE)  # the default: only misère is played alone
    act(game, seats[0], "bid 8H")
    for s in seats[1:]:
        act(game, s, "pass")
    assert "solo" in legal(game, seats[0])
    assert MISERE.misere_partner == "misere_only"
