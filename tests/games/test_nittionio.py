"""Nittionio: the worked examples of rules/three-to-five-player.md §2.6, transcripts of whole
deals and matches, the variants, the refusals and what each seat may see."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from bot.i18n import fill
from games.cards import CLUBS, HEARTS, JOKER, SPADES, Card, mask_of, parse_card
from games.core import IllegalActionError, Msg, NotationError, OptionError, View, apply_option_text
from games.nittionio import (
    DECLARE,
    REVEAL,
    SPEC,
    Nittionio,
    NittionioOptions,
    bid_value,
    deal_points,
    game_bonuses,
    game_winner,
    rubber_bonus,
)

I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"
RUBBER = NittionioOptions(scoring="rubber")
PENNYCOOK = NittionioOptions(variant="pennycook")
BY_SUCCESS = NittionioOptions(variant="trump_by_success")

# A deal one hand wins outright: with hearts trump (turn-up 6H, so the joker is the 6H) the first
# hand holds every trump and lays three clubs (bid 9); the other two lay three spades (bid 3).
STRONG = "AC KC QC AH KH QH JH TH 9H 8H 7H JK"
WEAK_1 = "AS KS QS AD KD QD JD TD 9D 8D 7D 6D"
WEAK_2 = "JS TS 9S 8S 7S 6S JC TC 9C 8C 7C 6C"


def strong_deal_bid(view: View) -> str:
    """The bid cards each hand of a strong_deck deal lays: 9 for STRONG, 3 for the others."""
    cards = hand(view)
    if "AC" in cards:
        return "bid AC KC QC"
    return "bid AS KS QS" if "AS" in cards else "bid JS TS 9S"


def deck(forehand: str, second: str, dealer: str, turn_up: str | None = None) -> list[str]:
    """The deck order that deals these hands, one card at a time from forehand."""
    hands = [forehand.split(), second.split(), dealer.split()]
    assert [len(h) for h in hands] == [12, 12, 12]
    return [hands[i % 3][i // 3] for i in range(36)] + ([turn_up] if turn_up else [])


def strong_deck(role: int) -> list[str]:
    """STRONG for the seat in ``role`` (0 forehand, 1 second, 2 dealer)."""
    hands = [WEAK_1, WEAK_2]
    hands.insert(role, STRONG)
    forehand, second, dealer = hands
    return deck(forehand, second, dealer, turn_up="6H")


def new(
    options: NittionioOptions | None = None, decks: list[list[str]] | None = None, seed: int = 1
) -> Nittionio:
    game = SPEC.new(3, options, rng=random.Random(seed), decks=decks)
    assert isinstance(game, Nittionio)
    return game


def roles(game: Nittionio) -> tuple[int, int, int]:
    """(forehand, second hand, dealer) of the current deal."""
    dealer = game.view(None).dealer
    assert dealer is not None
    return (dealer + 1) % 3, (dealer + 2) % 3, dealer


def play(game: Nittionio, *moves: tuple[int, str]) -> None:
    for seat, text in moves:
        game.apply(seat, game.parse(text))


def hand(view: View) -> list[str]:
    return [str(c) for c in view.hand]


def events(game: Nittionio, seat: int | None = None) -> list[Msg]:
    return list(game.view(seat).events)


def event_args(game: Nittionio, key: str) -> list[dict[str, int | str]]:
    return [dict(m.args) for m in events(game) if m.key == key]


def finish_deal(game: Nittionio) -> None:
    """Play the first legal card for whoever is to act until the deal (or match) is over."""
    deal = game.view(None).deal
    while not game.is_over() and game.view(None).deal == deal:
        (seat,) = game.to_act()
        game.apply(seat, game.legal_actions(seat)[0])


def play_strong_deal(game: Nittionio, premium: str = "reveal") -> int:
    """Lay the bid cards of a strong_deck deal, let the strong seat make ``premium`` (the others
    pass) and play it out; the strong seat."""
    strong = next(s for s in range(3) if "AC" in hand(game.view(s)))
    for seat in range(3):
        play(game, (seat, strong_deal_bid(game.view(seat))))
    while game.view(None).phase.key == "nittionio.phase.premium":
        (seat,) = game.to_act()
        play(game, (seat, premium if seat == strong else "pass"))
    finish_deal(game)
    return strong


# --- §2.6 worked examples --------------------------------------------------------------------


def test_n_ex1_bid_decoding() -> None:
    def bid(codes: str) -> int:
        return bid_value(mask_of(parse_card(c) for c in codes.split()))

    assert bid("7D KS TC") == 4
    assert bid("AC KC QC") == 9
    assert bid("AD KD QD") == 0
    assert bid("AH KS QD") == 3


def test_n_ex1_bid_laid_through_the_engine_is_noted_for_its_owner_only() -> None:
    game = new(decks=[strong_deck(0)])
    forehand, second, _ = roles(game)
    play(game, (second, "bid AS KS 7D"))  # WEAK_1 holds 7D: 1 + 1 + 0
    assert game.view(second).notes == (Msg.of("nittionio.note.my_bid", cards="7D KS AS", bid=2),)
    assert game.view(forehand).notes == ()


def _n_ex2_game(second_lead: str) -> tuple[Nittionio, int, int, int]:
    """Turn-up 8H: hearts trump and the joker is the 8H. Forehand keeps the joker and no heart."""
    game = new(
        decks=[
            deck(
                "JK AS KS QS JS TS 9S 8S 7S 6S AC KC",
                "AH KH QH JH TH 9H 7H 6H QC JC TC 9C",
                "8C 7C 6C AD KD QD JD TD 9D 8D 7D 6D",
                turn_up="8H",
            )
        ]
    )
    f, s, d = roles(game)
    play(game, (f, "bid AS AC KC"), (s, "bid QC JC TC"), (d, "bid 8C 7C 6C"))
    play(game, (f, "pass"), (s, "pass"), (d, "pass"))
    assert game.view(None).trump == HEARTS
    # trick 1: the second hand trumps the spade lead and leads next
    play(game, (f, "KS"), (s, "6H"), (d, "6D"))
    play(game, (s, second_lead))
    return game, f, s, d


def test_n_ex2_joker_must_follow_hearts_and_beats_lower_hearts() -> None:
    game, f, _, d = _n_ex2_game("7H")
    play(game, (d, "7D"))
    assert game.legal_actions(f) == [JOKER]
    play(game, (f, "JK"))
    assert game.view(None).seats[f].tricks == 1
    assert event_args(game, "table.event.trick_won")[-1] == {"seat": f, "card": "JK"}


def test_n_ex2_joker_loses_to_the_nine_of_hearts() -> None:
    game, f, s, d = _n_ex2_game("9H")
    play(game, (d, "7D"), (f, "JK"))
    assert game.view(None).seats[s].tricks == 2
    assert game.view(None).seats[f].tricks == 0


def test_n_ex2_joker_is_a_trump_and_beats_any_plain_card() -> None:
    game, f, _, d = _n_ex2_game("9C")
    play(game, (d, "AD"))  # void in clubs
    assert JOKER in game.legal_actions(f)
    play(game, (f, "JK"))
    assert game.view(None).seats[f].tricks == 1


def test_n_ex2_joker_as_a_bid_card_counts_as_the_turn_up_suit() -> None:
    assert bid_value(mask_of([JOKER, parse_card("AD"), parse_card("KD")]), parse_card("8H")) == 2


N_EX3_DECK = deck(
    "8S 7S 6S AH KH QH JH TH 9H 8H 7H 6H",
    "JK AS KS QS JS TS AD KD QD AC KC QC",
    "JD TD 9D 8D 7D 6D JC TC 9C 8C 7C 6C",
    turn_up="9S",
)


def _n_ex3_game() -> tuple[Nittionio, int, int, int]:
    game = new(decks=[N_EX3_DECK])
    f, s, d = roles(game)
    play(game, (f, "bid TH JH QH"), (s, "bid AD KD QD"), (d, "bid JD TD 9D"))
    play(game, (f, "pass"), (s, "pass"), (d, "pass"))
    return game, f, s, d


def test_n_ex3_nine_turned_up_means_no_trumps() -> None:
    game, *_ = _n_ex3_game()
    assert game.view(None).trump is None
    assert Msg.of("table.event.no_trump") in events(game)
    assert Msg.of("nittionio.event.joker_as", card="9S") in events(game)


def test_n_ex3_joker_is_the_nine_and_beats_the_eight_of_spades() -> None:
    game, f, s, d = _n_ex3_game()
    play(game, (f, "8S"), (s, "JK"), (d, "6D"))
    assert game.view(None).seats[s].tricks == 1


def test_n_ex3_joker_cannot_win_a_trick_led_in_another_suit() -> None:
    game, f, s, d = _n_ex3_game()
    play(game, (f, "6H"), (s, "JK"), (d, "JC"))
    assert game.view(None).seats[f].tricks == 1


def test_n_ex3_joker_bid_value_is_the_nines_suit() -> None:
    game = new(decks=[N_EX3_DECK])
    _, s, _ = roles(game)
    play(game, (s, "bid JK AD KD"))
    assert game.view(s).notes[0].arg("bid") == 1


def test_n_ex4_a_reveal_supersedes_a_declaration_and_ends_the_round() -> None:
    game = new(decks=[strong_deck(1)])
    f, s, d = roles(game)
    play(game, (f, "bid AS KS QS"), (s, "bid AC KC QC"), (d, "bid JS TS 9S"))
    play(game, (f, "declare"))
    assert game.legal_actions(s) == [game.parse("pass"), REVEAL]
    play(game, (s, "reveal"))
    # the dealer could only pass: the engine passes for him and forehand leads
    assert game.to_act() == {f}
    assert game.view(None).phase.key == "nittionio.phase.tricks"
    view = game.view(d)
    bid_piles = {p.seat: p for p in view.piles if p.key == "nittionio.pile.bid_cards"}
    assert bid_piles[f].cards == ()
    assert bid_piles[f].hidden == 3
    assert [str(c) for c in bid_piles[s].cards] == ["QC", "KC", "AC"]
    assert sorted(str(c) for c in view.seats[s].shown) == sorted(
        ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "JK"]
    )
    assert view.seats[s].cards == 9
    assert view.seats[s].notes == (Msg.of("nittionio.note.revealed_bid", bid=9),)
    assert view.seats[f].notes == ()


@pytest.mark.parametrize(
    ("example", "bids", "tricks", "premium", "expected"),
    [
        ("N-Ex5", [4, 2, 1], [4, 3, 2], (0, DECLARE), [64, 3, 2]),
        ("N-Ex6", [5, 3, 2], [4, 3, 2], (0, REVEAL), [4, 83, 82]),
        ("N-Ex7", [0, 5, 4], [0, 5, 4], (0, DECLARE), [40, 15, 14]),
        ("N-Ex8", [3, 3, 3], [5, 2, 2], None, [5, 2, 2]),
    ],
)
def test_n_ex5_to_n_ex8_deal_scores(
    example: str,
    bids: list[int],
    tricks: list[int],
    premium: tuple[int, int] | None,
    expected: list[int],
) -> None:
    if premium is None:
        assert deal_points(bids, tricks) == expected, example
    else:
        assert deal_points(bids, tricks, *premium) == expected, example


def test_n_ex9_rubber_bonuses() -> None:
    scores = [104, 100, 87]
    assert game_winner(scores, 100) == 0
    bonuses = game_bonuses(scores, 0)
    assert [p + b for p, b in zip(scores, bonuses, strict=True)] == [204, 200, 87]
    assert rubber_bonus(6) == 200
    assert rubber_bonus(3) == 500


def test_n_ex10_trump_by_successes_of_the_previous_deal() -> None:
    game = new(
        BY_SUCCESS,
        decks=[
            deck(
                "AC KC QC AH KH QH JH TH 9H 8H 7H 6H",
                "AD KD QD JD TD 9D 8D 7D 6D JC TC 9C",
                "AS KS QS JS TS 9S 8S 7S 6S 8C 7C 6C",
            )
        ],
    )
    f, s, d = roles(game)
    assert game.view(None).trump is None  # the first deal of a game
    assert all(p.key != "nittionio.pile.turn_up" for p in game.view(None).piles)
    play(game, (f, "bid AC KC QC"), (s, "bid AD KD QD"), (d, "bid AS KS QS"))
    play(game, (f, "pass"), (s, "pass"), (d, "pass"))
    finish_deal(game)
    # forehand (9 of 9) and second hand (0 of 0) succeeded: two successes, hearts
    assert [v.score for v in game.view(None).seats] == _by_seat({f: 29, s: 20, d: 0})
    assert game.view(None).deal == 2
    assert game.view(None).trump == HEARTS


def _by_seat(points: dict[int, int]) -> list[int]:
    return [points[s] for s in range(3)]


# --- transcripts -----------------------------------------------------------------------------


def test_transcript_ninety_nine_for_a_successful_reveal() -> None:
    game = new(decks=[strong_deck(0)])
    f, s, d = roles(game)
    play(game, (f, "bid QC AC KC"), (s, "bid AS KS QS"), (d, "bid JS TS 9S"))
    play(game, (f, "reveal"))
    assert game.to_act() == {f}
    leads = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "JK"]
    seconds = ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD"]
    thirds = ["8S", "7S", "6S", "6C", "7C", "8C", "9C", "TC", "JC"]
    for lead, second, third in zip(leads, seconds, thirds, strict=True):
        play(game, (f, lead), (s, second), (d, third))
    view = game.view(None)
    assert view.deal == 2
    assert [v.score for v in view.seats] == _by_seat({f: 99, s: 0, d: 0})
    # the bid's line says its 9 tricks and 30 bonus, the premium's line its 60 (9 + 30 + 60)
    assert event_args(game, "nittionio.event.made") == [
        {"seat": f, "bid": 9, "tricks": 9, "points": 39}
    ]
    assert event_args(game, "nittionio.event.premium_made") == [{"seat": f, "points": 60}]
    assert {a["seat"] for a in event_args(game, "nittionio.event.missed")} == {s, d}


def test_transcript_failed_declaration_pays_both_opponents() -> None:
    game = new(
        decks=[
            deck(
                "AC KC AS AH KH QH JH TH 9H 8H 7H JK",
                "AD KD QD JD TD 9D 8D 7D 6D QC JC TC",
                "KS QS JS TS 9S 8S 7S 6S 9C 8C 7C 6C",
                turn_up="6H",
            )
        ]
    )
    f, s, d = roles(game)
    play(game, (f, "bid AC KC AS"), (s, "bid AD KD QD"), (d, "bid KS QS JS"))
    play(game, (f, "declare"), (s, "pass"), (d, "pass"))
    bid_piles = {p.seat: p for p in game.view(s).piles if p.key == "nittionio.pile.bid_cards"}
    assert sorted(str(c) for c in bid_piles[f].cards) == ["AC", "AS", "KC"]
    assert game.view(None).seats[f].shown == ()  # a declaration shows no hand
    finish_deal(game)
    # forehand bid 7 and took 9; second hand bid 0 and took 0 (the only success: 30);
    # the failed declaration gives each opponent 30
    assert [v.score for v in game.view(None).seats] == _by_seat({f: 9, s: 60, d: 30})
    assert event_args(game, "nittionio.event.premium_failed") == [{"seat": f, "points": 30}]
    # each seat's line says its own tricks and bonus; the 30 each opponent gets is on the
    # premium's line alone (a missed bid read "0 stick ... gick inte hem: 30 poäng")
    lines = [
        *event_args(game, "nittionio.event.made"),
        *event_args(game, "nittionio.event.missed"),
        *event_args(game, "nittionio.event.missed_bid"),
    ]
    assert sorted((a["seat"], a["points"]) for a in lines) == sorted([(f, 9), (s, 30), (d, 0)])
    assert event_args(game, "nittionio.event.bid_cards_shown")[-1] == {
        "seat": s,
        "cards": "QD KD AD",
        "bid": 0,
    }


def test_main_game_is_nine_deals_and_ties_share_the_win() -> None:
    # the same deck nine times: each deal, forehand holds every trump and reveals a bid of 9
    game = new(decks=[strong_deck(0)] * 9)
    dealers = []
    for _ in range(9):
        dealers.append(roles(game)[2])
        assert play_strong_deal(game) == (dealers[-1] + 1) % 3
    assert dealers == [(dealers[0] + n) % 3 for n in range(9)]
    assert game.is_over()
    assert game.to_act() == frozenset()
    assert game.result().scores == (297, 297, 297)
    assert game.result().places == (1, 1, 1)
    assert game.view(None).phase == Msg.of("table.phase.over")
    with pytest.raises(IllegalActionError):
        game.apply(0, game.parse("pass"))


def test_rubber_three_straight_games_earn_the_largest_rubber_bonus() -> None:
    # deal n's dealer: each game's first deal is dealt by the next player in turn (V1)
    first_dealer = new(RUBBER).view(None).dealer
    assert first_dealer is not None
    winner = 1
    decks = []
    for game_no in range(3):
        for deal_in_game in range(2):
            dealer = (first_dealer + game_no + deal_in_game) % 3
            decks.append(strong_deck((winner - dealer - 1) % 3))
    game = new(RUBBER, decks=decks)
    for deal_no in range(6):
        assert play_strong_deal(game) == winner
        if deal_no % 2 == 0:  # 99 after one deal: the game goes on
            assert not game.is_over()
            assert game.view(None).seats[winner].notes[0].arg("points") == 99
    assert game.is_over()
    # three games of 198 points and a game bonus of 100 each, and 100 × (8 - 3) for the rubber
    assert [v.score for v in game.view(None).seats] == _by_seat(
        {winner: 3 * (198 + 100) + 500, (winner + 1) % 3: 0, (winner + 2) % 3: 0}
    )
    assert game.result().places[winner] == 1
    assert event_args(game, "nittionio.event.rubber_won") == [
        {"seat": winner, "games": 3, "points": 500}
    ]


def test_pennycook_has_no_premium_round_and_ends_at_150() -> None:
    first_dealer = new(PENNYCOOK).view(None).dealer
    assert first_dealer is not None
    decks = [strong_deck((2 - first_dealer - n - 1) % 3) for n in range(4)]
    game = new(PENNYCOOK, decks=decks)
    forehand = roles(game)[0]
    for seat in range(3):
        play(game, (seat, strong_deal_bid(game.view(seat))))
    assert game.view(None).phase.key == "nittionio.phase.tricks"
    with pytest.raises(IllegalActionError):
        game.apply(forehand, DECLARE)
    finish_deal(game)
    for _ in range(3):
        assert not game.is_over()
        play_strong_deal(game)
    # 9 tricks and 30 for the only success, four times: 156
    assert game.is_over()
    assert game.result().scores[2] == 156
    assert game.result().places[2] == 1


def test_trump_by_success_uses_36_cards() -> None:
    game = new(BY_SUCCESS)
    view = game.view(None)
    assert sum(v.cards for v in view.seats) == 36
    assert not any(Card(JOKER) in game.view(s).hand for s in range(3))
    with pytest.raises(ValueError, match="36 cards"):
        new(BY_SUCCESS, decks=[strong_deck(0)])


def test_first_to_target_waits_while_the_top_is_tied() -> None:
    assert game_winner([120, 120, 50], 100) is None
    assert game_winner([120, 119, 50], 100) == 0
    assert game_winner([99, 50, 0], 100) is None
    assert game_winner([150, 30, 151], 150) == 2


# --- options ----------------------------------------------------------------------------------


def test_presets_and_options() -> None:
    assert SPEC.preset("standard") == NittionioOptions()
    assert SPEC.preset("rubber") == RUBBER
    assert SPEC.preset("pennycook") == PENNYCOOK
    assert SPEC.preset("trump_by_success") == BY_SUCCESS
    both = apply_option_text(
        NittionioOptions(), {"scoring": "rubber", "variant": "trump_by_success"}
    )
    game = new(both)
    assert game.view(None).trump is None
    assert game.view(None).seats[0].notes == (
        Msg.of("nittionio.note.game_score", points=0),
        Msg.of("nittionio.note.games_won", games=0),
    )


@pytest.mark.parametrize("scoring", ["main", "rubber"])
@pytest.mark.parametrize("variant", ["standard", "trump_by_success"])
def test_random_matches_of_every_combination_end_with_a_winner(scoring: str, variant: str) -> None:
    options = apply_option_text(NittionioOptions(), {"scoring": scoring, "variant": variant})
    for seed in range(3):
        game = new(options, seed=seed)
        rng = random.Random(seed)
        while game.to_act():
            seat = sorted(game.to_act())[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        result = game.result()
        assert 1 in result.places
        if scoring == "rubber":
            (won,) = event_args(game, "nittionio.event.rubber_won")
            assert isinstance(won["seat"], int)
            assert result.places[won["seat"]] == 1
        elif variant == "standard":
            assert game.view(None).deal == 9


def test_pennycook_rubber_is_refused() -> None:
    with pytest.raises(OptionError, match="Pennycook"):
        new(NittionioOptions(scoring="rubber", variant="pennycook"))


def test_only_three_players() -> None:
    for players in (2, 4):
        with pytest.raises(OptionError):
            SPEC.new(players)


# --- notation and refusals ---------------------------------------------------------------------


def test_bid_notation_is_canonical_and_parse_takes_any_order_and_case() -> None:
    game = new()
    action = game.parse("bid 7D KS TC")
    assert game.parse("  BID tc 7d ks ") == action
    assert game.parse("bid 10c ks 7d") == action
    assert game.notation(action) == "bid 7D KS TC"
    assert game.notation(game.parse("bid JK AH 6D")) == "bid 6D AH JK"
    for word in ("pass", "declare", "reveal"):
        assert game.notation(game.parse(word.upper())) == word
    assert game.notation(game.parse("th")) == "TH"


@pytest.mark.parametrize(
    "text", ["bid", "bid 7D KS", "bid 7D KS TC 6H", "bid 7D 7D KS", "bid 7D KS XX", "bid7D KS TC"]
)
def test_malformed_bids_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        new().parse(text)


def test_legal_bids_are_every_three_of_the_twelve_cards() -> None:
    game = new(decks=[strong_deck(0)])
    f, _, _ = roles(game)
    legal = game.legal_actions(f)
    assert len(legal) == len(set(legal)) == 220
    texts = {game.notation(a) for a in legal}
    assert "bid KH AH JK" in texts
    for text in texts:
        assert set(text.split()[1:]) <= set(STRONG.split())


def test_bid_refusals_change_nothing() -> None:
    game = new(decks=[strong_deck(0)])
    f, s, _ = roles(game)
    before = game.view(f)
    for text in ("bid AS KS QS", "AC", "pass"):  # not forehand's cards; not now
        with pytest.raises(IllegalActionError):
            game.apply(f, game.parse(text))
    assert game.view(f) == before
    play(game, (f, "bid AC KC QC"))
    with pytest.raises(IllegalActionError, match="already"):
        game.apply(f, game.parse("bid AH KH QH"))
    assert game.to_act() == {s, (s + 1) % 3}


def test_play_refusals() -> None:
    game, f, _, d = _n_ex2_game("7H")
    with pytest.raises(IllegalActionError, match="turn"):
        game.apply(f, game.parse("7D"))
    with pytest.raises(IllegalActionError, match="not a card in your hand"):
        game.apply(d, game.parse("AS"))
    game.apply(d, game.parse("7D"))
    with pytest.raises(IllegalActionError, match="follow suit"):
        game.apply(f, game.parse("QS"))
    with pytest.raises(IllegalActionError):
        game.apply(f, DECLARE)


def test_declaring_twice_is_refused() -> None:
    game = new(decks=[strong_deck(0)])
    f, s, d = roles(game)
    play(game, (f, "bid AC KC QC"), (s, "bid AS KS QS"), (d, "bid JS TS 9S"))
    play(game, (f, "declare"))
    with pytest.raises(IllegalActionError):
        game.apply(s, DECLARE)
    play(game, (s, "pass"), (d, "reveal"))
    assert game.view(None).seats[d].notes == (Msg.of("nittionio.note.revealed_bid", bid=3),)


# --- what each seat sees -------------------------------------------------------------------------


def test_bid_cards_stay_hidden_until_shown() -> None:
    game = new(decks=[strong_deck(0)])
    f, s, d = roles(game)
    play(game, (s, "bid AS KS QS"))
    for viewer in (f, d, None):
        view = game.view(viewer)
        pile = next(p for p in view.piles if p.key == "nittionio.pile.bid_cards")
        assert (pile.seat, pile.cards, pile.hidden) == (s, (), 3)
        assert view.seats[s].cards == 9
        assert view.seats[s].notes == (Msg.of("nittionio.note.bid_laid"),)
        for msg in view.events:
            assert all(code not in str(msg.args) for code in ("AS", "KS", "QS")), msg
        assert view.to_act == {f, d}
    assert Msg.of("nittionio.event.bid_laid", seat=s) in events(game)


def test_a_successful_players_bid_cards_are_shown_at_the_end_of_the_deal() -> None:
    game = new(decks=[strong_deck(0)])
    f, _, _ = roles(game)
    play_strong_deal(game, premium="pass")
    shown = event_args(game, "nittionio.event.bid_cards_shown")
    assert shown == [{"seat": f, "cards": "QC KC AC", "bid": 9}]


def test_events_let_a_player_follow_the_deal() -> None:
    game = new(decks=[strong_deck(0)])
    f, s, d = roles(game)
    keys = [m.key for m in events(game)]
    assert keys == [
        "table.event.deal_started",
        "nittionio.event.turn_up",
        "nittionio.event.joker_as",
        "table.event.trump",
    ]
    assert events(game)[-1] == Msg.of("table.event.trump", suit="H")
    play(game, (f, "bid AC KC QC"), (s, "bid AS KS QS"), (d, "bid JS TS 9S"))
    play(game, (f, "pass"), (s, "pass"), (d, "pass"))
    play(game, (f, "AH"), (s, "6D"), (d, "6C"))
    assert events(game)[-4:] == [
        Msg.of("nittionio.event.played", seat=f, card="AH"),
        Msg.of("nittionio.event.played", seat=s, card="6D"),
        Msg.of("nittionio.event.played", seat=d, card="6C"),
        Msg.of("table.event.trick_won", seat=f, card="AH"),
    ]
    play(game, (f, "KH"))
    assert game.view(s).trick == ((f, Card.parse("KH")),)


def test_determinize_keeps_what_the_seat_knows_and_respects_voids() -> None:
    game, f, s, d = _n_ex2_game("7H")
    play(game, (d, "7D"), (f, "JK"))
    # forehand saw the second hand trump a spade lead, and the dealer discard on a spade lead
    # and on a heart lead
    mine = game.view(f)
    for seed in range(20):
        other = game.determinize(f, random.Random(seed))
        assert other.view(f) == mine
        assert not [c for c in other.view(s).hand if c.suit == SPADES]
        assert not [c for c in other.view(d).hand if c.suit in (SPADES, HEARTS)]
    # ...while the hidden cards do move: the second hand's clubs are not always the same
    clubs = {
        tuple(c for c in game.determinize(f, random.Random(seed)).view(s).hand if c.suit == CLUBS)
        for seed in range(5)
    }
    assert len(clubs) > 1


def test_a_clone_deals_the_same_next_deal_as_the_original() -> None:
    game = new(seed=5)
    rng = random.Random(6)
    while game.view(None).phase.key != "nittionio.phase.tricks" or game.view(None).trick:
        seat = sorted(game.to_act())[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    copy = game.clone()
    finish_deal(game)
    finish_deal(copy)
    for seat in range(3):
        assert copy.view(seat).hand == game.view(seat).hand


# --- messages ------------------------------------------------------------------------------------


def _catalog(language: str, stem: str) -> dict[str, str]:
    with (I18N / language / f"{stem}.toml").open("rb") as f:
        data = tomllib.load(f)
    flat: dict[str, str] = {}

    def walk(prefix: str, node: dict[str, object]) -> None:
        for key, value in node.items():
            if isinstance(value, dict):
                walk(f"{prefix}.{key}", value)
            else:
                assert isinstance(value, str)
                flat[f"{prefix}.{key}"] = value

    walk(stem, data)
    return flat


def test_catalogs_parse_and_hold_the_same_keys() -> None:
    sv, en = _catalog("sv", "nittionio"), _catalog("en", "nittionio")
    assert sv.keys() == en.keys()
    for action in ("pass", "declare", "reveal", "bid"):
        assert f"nittionio.action.{action}" in sv
    for texts in (sv, en):
        assert all(texts[f"nittionio.rules.{s}"] for s in ("deck", "deal", "play", "scoring"))


def test_every_message_the_game_emits_has_a_text_in_both_languages() -> None:
    catalogs = {
        lang: _catalog(lang, "nittionio") | _catalog(lang, "table") for lang in ("sv", "en")
    }
    seen: set[Msg] = set()
    for options in SPEC.presets.values():
        game = new(options, seed=4)
        rng = random.Random(9)
        while not game.is_over():
            for seat in (0, 1, 2, None):
                view = game.view(seat)
                seen.update((view.phase, *view.events, *view.notes))
                seen.update(n for sv in view.seats for n in sv.notes)
                seen.update(Msg(p.key) for p in view.piles)
            seat = sorted(game.to_act())[0]
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        seen.update((game.view(None).phase, *game.view(None).events))
    keys = {m.key for m in seen}
    assert {"nittionio.event.made", "nittionio.event.rubber_won", "table.phase.over"} <= keys
    for lang, catalog in catalogs.items():
        for msg in seen:
            assert msg.key in catalog, f"{lang}: {msg.key}"
            fill(catalog[msg.key], dict(msg.args), strict=True)
