"""Cards, the shuffle and the shared trick mechanics."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from games import tricks
from games.cards import (
    JOKER,
    SPADES,
    Card,
    card,
    cards_in,
    code,
    deal_deck,
    fork_rng,
    is_card_code,
    make_deck,
    mask_cards,
    mask_of,
    parse_card,
    parse_deck,
    randbelow,
    shuffled,
)
from games.core import Result, competition_places
from games.tricks import NO_SUIT, PLAIN_SUIT, beat_mask, follow_mask, tables, trick_winner


def test_codes_round_trip_for_every_card() -> None:
    for c in [*range(52), JOKER]:
        assert parse_card(code(c)) == c
    assert str(Card.parse("th")) == "TH"
    assert Card.parse("10h") == Card.parse("TH")
    assert Card.parse("QS").rank == 12
    assert Card.parse("QS").suit == SPADES


@pytest.mark.parametrize("bad", ["", "Q", "1S", "QX", "QSS", "JJ"])
def test_malformed_card_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


@pytest.mark.parametrize(
    "word", ["QS", "th", "10h", "JK", "2C", "pass", "bid", "7NT", "10", "", "QSS"]
)
def test_a_card_code_is_exactly_what_parse_card_reads(word: str) -> None:
    try:
        parse_card(word)
    except ValueError:
        assert not is_card_code(word)
    else:
        assert is_card_code(word)


def test_the_cards_of_a_mask_are_its_cards_lowest_first_as_card_values() -> None:
    rng = random.Random(8)
    masks = [0, 1 << JOKER, (1 << 53) - 1, *(rng.getrandbits(53) for _ in range(2000))]
    for mask in masks:
        expected = tuple(Card(c) for c in range(JOKER + 1) if mask >> c & 1)
        assert mask_cards(mask) == expected
        assert mask_cards(mask) == expected  # and again, from the filled table
        assert all(type(c) is Card for c in mask_cards(mask))


def test_shuffle_is_a_permutation_and_depends_only_on_the_seed() -> None:
    deck = make_deck()
    a = shuffled(deck, random.Random(42))
    assert sorted(a) == deck
    assert a == shuffled(deck, random.Random(42))
    assert a != shuffled(deck, random.Random(43))
    # pinned: the same seed deals the same cards on every Python version
    assert [code(c) for c in a[:5]] == ["JC", "QD", "AD", "5C", "TD"]


def test_shuffle_is_fisher_yates_on_randbelow() -> None:
    for n in (2, 9, 32, 37, 52, 53):
        for seed in range(5):
            expected = list(range(n))
            rng = random.Random(seed)
            for i in range(n - 1, 0, -1):
                j = randbelow(rng, i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert shuffled(range(n), random.Random(seed)) == expected


def _draws(rng: random.Random) -> list[object]:
    return [rng.random(), rng.getrandbits(70), rng.randrange(1000), rng.gauss(), rng.randbytes(3)]


def test_a_forked_generator_draws_what_its_source_would_and_on_its_own() -> None:
    source = random.Random(11)
    source.gauss()  # a gauss_next kept, the state random.Random holds outside its generator
    expected = _draws(copy.deepcopy(source))
    first = fork_rng(source)
    second = fork_rng(first)
    third = fork_rng(second)
    assert _draws(second) == expected
    assert _draws(source) == expected
    assert _draws(third) == expected
    assert _draws(first) == expected
    assert _draws(fork_rng(first)) == _draws(copy.deepcopy(first)) == _draws(first)


def test_a_forked_generator_keeps_the_state_interface_of_a_generator() -> None:
    source = random.Random(12)
    source.gauss()
    fork = fork_rng(source)
    assert fork.getstate() == source.getstate()
    again = pickle.loads(pickle.dumps(fork))
    assert type(again) is random.Random
    assert _draws(again) == _draws(fork_rng(fork)) == _draws(copy.deepcopy(source))
    other = fork_rng(fork)
    other.seed(5)
    assert _draws(other) == _draws(random.Random(5))
    other.setstate(source.getstate())
    assert _draws(other) == _draws(fork) == _draws(source)


def test_explicit_deck_must_hold_the_games_cards() -> None:
    deck = make_deck(range(6, 15))
    assert deal_deck([list(reversed(deck))], 0, deck, random.Random(1)) == list(reversed(deck))
    with pytest.raises(ValueError, match="exactly"):
        deal_deck([deck[:-1]], 0, deck, random.Random(1))
    assert sorted(deal_deck([deck], 1, deck, random.Random(1))) == deck


def test_must_follow_suit_if_able_otherwise_anything() -> None:
    hand = mask_of([parse_card(c) for c in ("2C", "KH", "AS")])
    assert follow_mask(hand, parse_card("QC") // 13) == mask_of([parse_card("2C")])
    assert follow_mask(hand, parse_card("QD") // 13) == hand
    assert follow_mask(hand, NO_SUIT) == hand


def _winner(codes: str, trump: int | None, joker_as: str | None = None) -> int:
    suit_table, power_table, _ = tables(None if joker_as is None else parse_card(joker_as))
    return trick_winner([parse_card(c) for c in codes.split()], trump, suit_table, power_table)


def test_trick_winner() -> None:
    assert _winner("KC 2C AC", None) == 2
    assert _winner("KC AH 2C", None) == 0  # an off-suit card never wins without trumps
    assert _winner("KC 2H AC", 2) == 1  # hearts trump
    assert _winner("KC 2H 3H", 2) == 2
    assert _winner("KH 2C AC", 2) == 0  # trump led


def test_joker_takes_the_identity_of_another_card() -> None:
    # Nittionio: turn-up 8H, hearts trump: the joker is the 8H
    assert _winner("7H JK 9H", 2, joker_as="8H") == 2
    assert _winner("7H JK 6H", 2, joker_as="8H") == 1
    suit_table, _, masks = tables(parse_card("8H"))
    assert suit_table[JOKER] == 2
    assert follow_mask(mask_of([JOKER, card(14, 0)]), 2, masks) == 1 << JOKER
    assert PLAIN_SUIT[JOKER] == -1


def test_competition_places_share_ties() -> None:
    assert competition_places([3, 5, 3]) == (1, 3, 1)
    assert Result.by_score([10, 30, 30]).places == (3, 1, 1)
    assert Result.by_score([10, 30], higher_wins=False).places == (1, 2)


def test_bower_tables_lift_the_jacks_and_the_joker_into_trumps() -> None:
    suit, power, masks = tricks.bower_tables(parse_card("2D") // 13, joker=True)
    jd, jh, ad = parse_card("JD"), parse_card("JH"), parse_card("AD")
    assert suit[jh] == suit[jd] == suit[JOKER] == suit[ad]
    assert power[JOKER] > power[jd] > power[jh] > power[ad]
    assert masks[suit[ad]] >> jh & 1
    assert not masks[parse_card("2H") // 13] >> jh & 1
    led_hearts = [parse_card("AH"), jh]  # the left bower on a heart lead is a trump
    assert tricks.trick_winner(led_hearts, suit[ad], suit, power) == 1
    assert tricks.same_colour(0) == 3
    assert tricks.same_colour(1) == 2


def test_beat_mask_follows_and_beats_the_highest_led_card_so_far() -> None:
    hand = mask_of(parse_deck(["5H", "9H", "KH", "2S"]))
    # hearts led, the highest heart so far is the 8: the 9 and the king beat it
    allowed = beat_mask(hand, parse_deck(["8H", "QC", "4H"]))
    assert set(cards_in(allowed)) == set(parse_deck(["9H", "KH"]))
    # nothing beats the ace: any heart
    allowed = beat_mask(hand, parse_deck(["AH"]))
    assert set(cards_in(allowed)) == set(parse_deck(["5H", "9H", "KH"]))


def test_beat_mask_void_in_the_led_suit_trumps_only_when_asked() -> None:
    hand = mask_of(parse_deck(["5H", "2S", "7C"]))
    led = parse_deck(["QD"])
    assert beat_mask(hand, led) == hand
    assert set(cards_in(beat_mask(hand, led, trump=SPADES, trump_if_void=True))) == {
        parse_card("2S")
    }
    assert beat_mask(hand, [], trump=SPADES, trump_if_void=True) == hand
