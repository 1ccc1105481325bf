"""Reunion: the worked examples of rules/three-to-five-player.md §1.10, transcripts of whole deals
and a whole partie, the session and its dealer rotation, the refusals and what each seat sees."""

from __future__ import annotations

import random
import string
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest

from games.ai import choose, make_player
from games.cards import Card, parse_card
from games.core import IllegalActionError, Msg, NotationError, OptionError, View
from games.reunion import (
    MATCH,
    QUADRUPLE,
    SIMPLE,
    SPEC,
    TRIPLE,
    DealRecord,
    Reunion,
    ReunionOptions,
    discard_action,
    eyes_of,
    loss_kind,
    net_stakes,
    settle_partie,
)
from games.reunion.rules import TABLES

I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"
H, D, C, S = 2, 1, 0, 3  # suit numbers of games.cards (C D H S)


def deck(forehand: str, second: str, dealer: str, last: str, turn_up: str) -> list[str]:
    """The deck order (top first) that deals these hands 3, 4 and 3 at a time from forehand,
    then the dealer's face-down last card, the turn-up at the bottom."""
    hands = [forehand.split(), second.split(), dealer.split()]
    assert [len(h) for h in hands] == [10, 10, 10]
    order: list[str] = []
    for start, end in ((0, 3), (3, 7), (7, 10)):
        for h in hands:
            order += h[start:end]
    return [*order, last, turn_up]


def new(
    decks: list[list[str]] | None = None,
    options: ReunionOptions | None = None,
    seed: int = 1,
) -> Reunion:
    game = SPEC.new(3, options, rng=random.Random(seed), decks=decks)
    assert isinstance(game, Reunion)
    return game


def roles(game: Reunion) -> tuple[int, int, int]:
    """(forehand, second hand, dealer) of the current deal."""
    dealer = game.view(None).dealer
    assert dealer is not None
    return (dealer + 1) % 3, (dealer + 2) % 3, dealer


def hand(view: View) -> set[str]:
    return {str(c) for c in view.hand}


def legal(game: Reunion, seat: int) -> set[str]:
    return {game.notation(a) for a in game.legal_actions(seat)}


def act(game: Reunion, seat: int, text: str) -> None:
    game.apply(seat, game.parse(text))


def play_with_preferences(game: Reunion, prefs: Sequence[Sequence[str]], tricks: int) -> None:
    """Play ``tricks`` tricks; each seat plays its first legal card of ``prefs[seat]``."""
    for _ in range(3 * tricks):
        (seat,) = game.to_act()
        options = legal(game, seat)
        choice = next(c for c in prefs[seat] if c in options)
        act(game, seat, choice)


# --- the worked examples (§1.10) -----------------------------------------------------------------

# Hearts trumps (turn-up 8H): right bower JH, left bower JD.
EX1 = deck(
    forehand="9D AD TD KD QD 8D 7D AH TH KH",
    second="JD 7H KC AS TS KS QS JS 9S 8S",
    dealer="QH JH 9H AC TC QC JC 9C 8C 7C",
    last="7S",
    turn_up="8H",
)


def test_re_ex1_a_void_follower_must_play_a_trump_and_the_left_bower_is_one() -> None:
    game = new([EX1])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard TC QC")
    act(game, forehand, "9D")
    assert legal(game, second) == {"JD", "7H"}  # JD is no diamond: he is void and must trump
    with pytest.raises(IllegalActionError, match="trump"):
        act(game, second, "KC")


def test_re_ex2_trump_led_and_the_left_bower_the_only_trump() -> None:
    ex2 = deck(
        forehand="AH TH KH QH 9H 7H 9D 8D 7D KD",
        second="JD AD TC AS TS KS QS JS 9S 8S",
        dealer="JH TD QD AC KC QC JC 9C 8C 7C",
        last="7S",
        turn_up="8H",
    )
    game = new([ex2])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard TD QD")
    act(game, forehand, "AH")
    assert legal(game, second) == {"JD"}  # AD is a diamond, not a trump


def test_re_ex3_the_left_bower_wins_over_the_trump_ace_without_a_capture() -> None:
    # Spades trumps: JS right, JC left; clubs has seven cards, all with forehand.
    ex3 = deck(
        forehand="AC TC KC QC 9C 8C 7C AD TD KD",
        second="JC QD JD 9D 8D 7D AH TH KH QH",
        dealer="AS JS TS KS QS 9S 7S JH 9H 8H",
        last="7H",
        turn_up="8S",
    )
    game = new([ex3])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard 9H 8H")
    act(game, forehand, "AC")
    assert legal(game, second) == {"JC"}
    act(game, second, "JC")
    act(game, dealer, "AS")
    view = game.view(None)
    assert view.seats[second].tricks == 1
    assert [s.score for s in view.seats] == [0, 0, 0]
    assert game.view(None).to_act == frozenset({second})


EX3_VARIANT = deck(
    forehand="JH AH TH KH QH 9H AD TD KD QD",
    second="JD 9D 8D 7D AC TC KC QC JC 9C",
    dealer="7H 8C 7C AS TS KS QS JS 9S 8S",
    last="7S",
    turn_up="8H",
)


def test_re_ex3_variant_the_right_bower_captures_the_left_and_is_paid_a_stake_at_once() -> None:
    game = new([EX3_VARIANT])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard 8C 7C")
    act(game, forehand, "JH")
    act(game, second, "JD")
    assert legal(game, dealer) == {"7H"}
    act(game, dealer, "7H")
    view = game.view(None)
    assert view.seats[forehand].score == 1
    assert view.seats[second].score == -1
    assert view.seats[dealer].score == 0
    assert Msg.of("reunion.event.capture", seat=second, winner_seat=forehand) in view.events
    # the capture stake is written on the deal's lines of the sheet at the end of the deal
    play_with_preferences(game, _first_in_hand(game), tricks=9)
    rows = {r.label.key: r.cells for r in game.view(None).sheet.rows}  # type: ignore[union-attr]
    capture: list[int | None] = [None, None, None]
    capture[forehand], capture[second] = 1, -1
    assert rows["reunion.sheet.capture"] == tuple(capture)
    assert (rows["reunion.sheet.tricks"][forehand] or 0) >= 24


def _first_in_hand(game: Reunion) -> list[list[str]]:
    """A preference list per seat: every card of the deck, in card order."""
    every = [str(Card(c)) for c in range(52)]
    return [every, every, every]


def test_re_ex4_no_ace_and_no_bower_may_be_laid_away_and_the_discards_count_for_the_dealer() -> (
    None
):
    # Diamonds trumps (turn-up 8D): right bower JD, left bower JH.
    ex4 = deck(
        forehand="AH TH KH QH 9H 8H 7H AC QC JC",
        second="AD TD KD QD 9D 7D 9C 8C 7C JS",
        dealer="AS JD JH TC KC TS KS QS 9S 8S",
        last="7S",
        turn_up="8D",
    )
    game = new([ex4])
    _forehand, _second, dealer = roles(game)
    assert len(game.view(dealer).hand) == 11
    pairs = [set(game.notation(a).split()[1:]) for a in game.legal_actions(dealer)]
    assert pairs
    assert not any(p & {"AS", "JD", "JH"} for p in pairs)
    assert len(pairs) == 28  # 8 allowed cards of 11: every pair of them
    for bad in ("discard AS 7S", "discard JD TC", "discard JH KC"):
        with pytest.raises(IllegalActionError, match="ace or either bower"):
            act(game, dealer, bad)
    act(game, dealer, "discard TC KC")
    assert Msg.of("reunion.note.my_discards", cards="TC KC", eyes=14) in game.view(dealer).notes
    play_with_preferences(game, _first_in_hand(game), tricks=10)
    record = game._deals[0]
    assert record.discard_eyes == 14
    assert record.eyes(dealer) == record.trick_eyes[dealer] + 14 + (
        10 if record.last_trick == dealer else 0
    )
    assert sum(record.eyes(s) for s in range(3)) == 150


def test_re_ex5_deal_scoring_with_the_dealers_discards_and_a_zero_trick() -> None:
    # A (seat 0) 80 in tricks and the last trick; B 46; C won one trick of 7S 8S 9S, dealt, and
    # laid away TC KC.
    record = DealRecord(
        partie=1,
        deal=1,
        dealer=2,
        trick_eyes=(80, 46, 0),
        last_trick=0,
        discards=(parse_card("TC"), parse_card("KC")),
        discard_eyes=eyes_of([parse_card("TC"), parse_card("KC")], S),
        stangs=(False, False, False),  # C took a trick: a zero, not a stång
        capture=(0, 0, 0),
    )
    assert eyes_of([parse_card(c) for c in ("7S", "8S", "9S")], S) == 0
    assert [record.eyes(s) for s in range(3)] == [90, 46, 14]
    assert sum(record.eyes(s) for s in range(3)) == 150


def test_re_ex6_match_for_the_only_player_below_150_and_pairwise_stangs() -> None:
    payments = settle_partie([190, 160, 100], [0, 1, 0])
    assert (2, 0, 2, MATCH) in payments
    assert net_stakes(payments) == [3, -2, -1]


def test_re_ex7_simple_loss_when_another_is_below_150_and_match_below_100() -> None:
    totals = [250, 130, 70]
    assert loss_kind(totals, [0, 0, 0], 1) == SIMPLE
    assert loss_kind(totals, [0, 0, 0], 2) == MATCH
    assert net_stakes(settle_partie(totals, [0, 0, 0])) == [3, -1, -2]


def test_re_ex8_quadruple_match_without_a_trick_whatever_the_discards() -> None:
    # C's 20 eyes are his discards TD + TC when he dealt.
    assert eyes_of([parse_card("TD"), parse_card("TC")], H) == 20
    totals, stangs = [280, 150, 20], [0, 0, 3]
    assert loss_kind(totals, stangs, 2) == QUADRUPLE
    payments = settle_partie(totals, stangs)
    assert (2, 0, 4, QUADRUPLE) in payments
    assert net_stakes(payments) == [7, 3, -10]


def test_re_ex9_a_tie_for_first_is_paid_in_full_to_each_winner() -> None:
    payments = settle_partie([200, 200, 50], [0, 0, 0])
    assert sorted(payments) == [(2, 0, 2, MATCH), (2, 1, 2, MATCH)]
    assert net_stakes(payments) == [2, 2, -4]


def test_triple_match_below_50_eyes_with_a_trick_and_nothing_when_all_have_150() -> None:
    assert loss_kind([300, 110, 40], [0, 0, 1], 2) == TRIPLE
    assert settle_partie([150, 150, 150], [1, 1, 1]) == []
    assert net_stakes(settle_partie([150, 150, 150], [2, 0, 1])) == [-3, 3, 0]


def test_eyes_of_a_deal_add_up_to_150() -> None:
    for trump in range(4):
        assert sum(TABLES[trump].eyes) + 10 == 150


# --- transcripts ----------------------------------------------------------------------------------

# Hearts trumps: forehand holds every trump but the turn-up and takes all ten tricks.
STRONG = "JH JD AH TH KH QH 9H 7H AS TS"
CLUBS = "AC TC KC QC JC 9C 8C 7C KS QS"
DIAMONDS = "AD TD KD QD 9D 8D 7D JS 9S 8S"
STRONG_DECK = deck(STRONG, CLUBS, DIAMONDS, last="7S", turn_up="8H")
FOREHAND_PREFS = ["JH", "JD", "AH", "TH", "KH", "QH", "9H", "7H", "AS", "TS"]
SECOND_PREFS = ["7C", "8C", "9C", "JC", "QC", "KC", "TC", "AC", "QS", "KS"]
DEALER_PREFS = ["7D", "8D", "9D", "QD", "AD", "TD", "KD", "8H", "7S", "8S", "9S", "JS"]


def play_strong_deal(game: Reunion, discard: str) -> tuple[int, int, int]:
    forehand, second, dealer = roles(game)
    act(game, dealer, discard)
    prefs = [[""]] * 3
    prefs[forehand], prefs[second], prefs[dealer] = FOREHAND_PREFS, SECOND_PREFS, DEALER_PREFS
    play_with_preferences(game, prefs, tricks=10)
    return forehand, second, dealer


def test_transcript_one_deal_all_tricks_to_forehand_and_a_trickless_dealer_keeps_his_discards() -> (
    None
):
    game = new([STRONG_DECK])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard TD KD")
    prefs = [[""]] * 3
    prefs[forehand], prefs[second], prefs[dealer] = FOREHAND_PREFS, SECOND_PREFS, DEALER_PREFS
    play_with_preferences(game, prefs, tricks=2)
    view = game.view(None)
    assert view.seats[dealer].shown == (Card.parse("8H"),)  # the turn-up joined his hand
    assert not any(p.key == "reunion.pile.turn_up" for p in view.piles)
    assert legal(game, forehand) == set(FOREHAND_PREFS[2:])
    act(game, forehand, "AH")
    act(game, second, "9C")
    assert legal(game, dealer) == {"8H"}  # trumps led: the turn-up is now his only trump
    act(game, dealer, "8H")
    play_with_preferences(game, prefs, tricks=7)
    (record,) = game._deals
    eyes = [0, 0, 0]
    eyes[forehand], eyes[dealer] = 136, 14  # 140 - 14 in tricks + 10 for the last
    assert [record.eyes(s) for s in range(3)] == eyes
    stangs = [True, True, True]
    stangs[forehand] = False
    assert list(record.stangs) == stangs  # the dealer's 14 eyes do not save him the stång
    view = game.view(None)
    assert view.sheet is not None
    rows = {r.label.key: r.cells for r in view.sheet.rows}
    assert rows["reunion.sheet.deal"] == tuple(eyes)
    assert rows["reunion.sheet.discards"][dealer] == 14
    assert rows["reunion.sheet.last_trick"][forehand] == 10
    assert Msg.of("reunion.event.stang", seat=dealer) in view.events
    assert [n.arg("eyes") for s in view.seats for n in s.notes] == eyes


def test_transcript_a_whole_partie_and_its_settlement() -> None:
    """Forehand takes every trick in each deal; in the third the dealer lays away 0 eyes."""
    game = new([STRONG_DECK] * 3)
    a, b, c = play_strong_deal(game, "discard TD KD")  # A 136, B 0, C 14
    assert roles(game) == (b, c, a)
    play_strong_deal(game, "discard TD KD")  # B 136, C 0, A 14
    assert roles(game) == (c, a, b)
    play_strong_deal(game, "discard 8D 9D")  # C 150, A 0, B 0
    (partie,) = game._parties
    eyes = [0, 0, 0]
    eyes[a], eyes[b], eyes[c] = 150, 136, 164
    assert list(partie.eyes) == eyes
    assert partie.stangs == (2, 2, 2)  # no stång payments
    # C wins; A has 150: even; B alone below 150 with 100 or more: match, 2 stakes
    stakes = [0, 0, 0]
    stakes[c], stakes[b] = 2, -2
    assert list(partie.net) == stakes
    view = game.view(None)
    assert [s.score for s in view.seats] == stakes
    assert Msg.of("reunion.event.loss_match", seat=b, winner_seat=c, stakes=2, eyes=136) in (
        view.events
    )
    assert Msg.of("reunion.event.even", seat=a, eyes=150) in view.events
    # the seed's tip: the last dealer (B) deals the first deal of the next partie
    assert view.dealer == b
    assert view.phase == Msg.of("reunion.phase.discard", seat=b, partie=2, deal=1)
    assert view.sheet is not None
    labels = [r.label.key for r in view.sheet.rows]
    assert labels.count("reunion.sheet.deal") == 3  # the partie just settled, item by item
    assert labels[-1] == "reunion.sheet.session"


def test_plain_rotation_passes_the_deal_on_between_parties() -> None:
    game = new([STRONG_DECK] * 3, ReunionOptions(carry_last_dealer=False))
    _a, _b, c = play_strong_deal(game, "discard TD KD")
    play_strong_deal(game, "discard TD KD")
    play_strong_deal(game, "discard TD KD")
    assert [s.score for s in game.view(None).seats] == [0, 0, 0]  # all at 150: nothing paid
    assert Msg.of("reunion.event.all_even") in game.view(None).events
    assert game.view(None).dealer == c


def _dealers_of_a_session(options: ReunionOptions, seed: int) -> list[int]:
    game = new(options=options, seed=seed)
    rng = random.Random(seed)
    dealers: list[int] = []
    deal = 0
    while not game.is_over():
        view = game.view(None)
        if view.deal != deal:
            deal = view.deal
            assert view.dealer is not None
            dealers.append(view.dealer)
        (seat,) = game.to_act()
        actions = game.legal_actions(seat)
        game.apply(seat, actions[rng.randrange(len(actions))])
    return dealers


def test_a_session_is_three_parties_and_each_player_deals_the_last_deal_of_one() -> None:
    dealers = _dealers_of_a_session(ReunionOptions(), seed=4)
    d = dealers[0]
    assert dealers == [(d + i) % 3 for i in (0, 1, 2, 2, 3, 4, 4, 5, 6)]
    assert {dealers[2], dealers[5], dealers[8]} == {0, 1, 2}
    plain = _dealers_of_a_session(ReunionOptions(carry_last_dealer=False), seed=4)
    assert plain == [(plain[0] + i) % 3 for i in range(9)]
    assert len(_dealers_of_a_session(ReunionOptions(parties=1), seed=4)) == 3


def test_the_result_is_the_balance_of_stakes_and_sums_to_zero() -> None:
    for seed in range(4):
        game = new(seed=seed)
        rng = random.Random(seed)
        while not game.is_over():
            (seat,) = game.to_act()
            actions = game.legal_actions(seat)
            game.apply(seat, actions[rng.randrange(len(actions))])
        result = game.result()
        assert sum(result.scores) == 0
        assert list(result.scores) == [s.score for s in game.view(None).seats]
        sheet = game.view(None).sheet
        assert sheet is not None
        assert sheet.rows[-1].cells == result.scores
        assert len(game._deals) == 9
        assert all(sum(d.eyes(s) for s in range(3)) == 150 for d in game._deals)


# --- refusals, views, notation ------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game = new([EX1])
    forehand, second, dealer = roles(game)
    before = game.view(dealer)
    with pytest.raises(IllegalActionError, match="dealer lays away"):
        act(game, forehand, "9D")
    with pytest.raises(IllegalActionError, match="own hand"):
        act(game, dealer, "discard 9D 8D")
    with pytest.raises(IllegalActionError):
        act(game, dealer, "QH")  # a card, not a discard
    assert game.view(dealer) == before
    act(game, dealer, "discard TC QC")
    with pytest.raises(IllegalActionError, match="not your turn"):
        act(game, second, "JD")
    with pytest.raises(IllegalActionError, match="not a card in your hand"):
        act(game, forehand, "8H")  # the turn-up lies on the table
    act(game, forehand, "AD")
    with pytest.raises(IllegalActionError, match="trump"):
        act(game, second, "AS")
    act(game, second, "7H")
    with pytest.raises(IllegalActionError, match="trump"):
        act(game, dealer, "AC")  # no diamond, but hearts: he must trump
    assert game.legal_actions(forehand) == game.legal_actions(second) == []


def test_a_void_dealer_may_trump_or_not_when_he_holds_no_trump() -> None:
    game = new([EX1])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard TC QC")
    act(game, forehand, "AD")
    act(game, second, "7H")
    # the dealer has no diamond; he holds QH JH 9H, so he must trump
    assert legal(game, dealer) == {"QH", "JH", "9H"}


def test_what_each_seat_sees_of_the_deal() -> None:
    game = new([EX1])
    forehand, second, dealer = roles(game)
    assert hand(game.view(dealer)) == {
        "QH",
        "JH",
        "9H",
        "AC",
        "TC",
        "QC",
        "JC",
        "9C",
        "8C",
        "7C",
        "7S",
    }  # the face-down last card joins the dealer's hand
    assert Msg.of("reunion.event.you_took_last_card", card="7S") in game.view(dealer).events
    assert Msg.of("reunion.event.you_took_last_card", card="7S") not in game.view(forehand).events
    turn_up = [p for p in game.view(None).piles if p.key == "reunion.pile.turn_up"]
    assert turn_up[0].cards == (Card.parse("8H"),)
    assert game.view(None).trump == H
    act(game, dealer, "discard TC QC")
    own = [p for p in game.view(dealer).piles if p.key == "reunion.pile.discards"]
    theirs = [p for p in game.view(second).piles if p.key == "reunion.pile.discards"]
    assert own[0].cards == (Card.parse("TC"), Card.parse("QC"))
    assert theirs[0].cards == ()
    assert theirs[0].hidden == 2
    assert game.view(None).seats[dealer].cards == 9


def test_determinize_never_lays_an_ace_or_a_bower_away_and_keeps_voids() -> None:
    game = new([EX1])
    forehand, second, dealer = roles(game)
    act(game, dealer, "discard TC QC")
    act(game, forehand, "AD")
    act(game, second, "7H")  # second shows out of diamonds
    act(game, dealer, "QH")
    t = TABLES[H]
    for seed in range(40):
        other = game.determinize(forehand, random.Random(seed))
        assert not other._discards & t.no_discard
        assert not other._hands[second] & t.suit_masks[D]
        assert other._hands[forehand] == game._hands[forehand]
        assert other.view(forehand) == game.view(forehand)
    assert game.determinize(dealer, random.Random(1))._discards == game._discards


def test_notation_round_trips_and_reads_any_order() -> None:
    game = new()
    action = discard_action([parse_card("TD"), parse_card("KC")])
    assert game.notation(action) == "discard KC TD"
    assert game.parse("discard TD KC") == action == game.parse("DISCARD kc td")
    assert game.parse("jh") == parse_card("JH")
    for bad in ("discard TD", "discard TD TD", "discard TD KC QS", "play JH", "discard JK TD"):
        with pytest.raises(NotationError):
            game.parse(bad)


def test_options_are_checked() -> None:
    with pytest.raises(OptionError):
        SPEC.new(3, ReunionOptions(parties=0))
    with pytest.raises(OptionError):
        SPEC.new(4)


def test_every_sheet_and_variant_text_exists_in_both_languages() -> None:
    for lang in ("sv", "en"):
        texts = tomllib.loads((I18N / lang / "reunion.toml").read_text(encoding="utf-8"))
        game = new(seed=3)
        rng = random.Random(3)
        while not game.is_over():
            (seat,) = game.to_act()
            actions = game.legal_actions(seat)
            game.apply(seat, actions[rng.randrange(len(actions))])
        sheet = game.view(None).sheet
        assert sheet is not None
        for label in [*sheet.columns, *(r.label for r in sheet.rows)]:
            section, name = label.key.split(".")[1:]
            assert name in texts[section], f"{lang}: no text for {label.key}"
        for key in ("capture", "stang", "partie_stakes", "session"):
            assert key in texts["sheet"]
        assert set(texts["variant"]) == set(SPEC.presets)
        for word in ("kronor", "kr", "pengar", "money", "dollar", "euro"):
            assert word not in " ".join(texts["rules"].values()).lower().split()


def test_a_session_where_everyone_ends_even_shares_the_first_place() -> None:
    game = new([STRONG_DECK] * 3, ReunionOptions(parties=1))
    for _ in range(3):
        play_strong_deal(game, "discard TD KD")
    assert game.is_over()
    assert game.result().places == (1, 1, 1)
    assert game.result().scores == (0, 0, 0)
    assert game.view(None).events[-1] == Msg.of("reunion.event.session_even")


def _first_places(kind: str, seeds: range) -> int:
    """Parties won outright or shared by ``kind`` against two random players, on the same deals
    with the seat rotated."""
    won = 0
    for seed in seeds:
        for seat in range(3):
            game = new(options=ReunionOptions(parties=1), seed=seed)
            players = {s: make_player(kind if s == seat else "random") for s in range(3)}
            rng = random.Random(seed * 3 + seat)
            while not game.is_over():
                (s,) = game.to_act()
                game.apply(s, choose(game, s, players[s], rng))
            won += game.result().places[seat] == 1
    return won


def test_the_rule_based_player_beats_the_random_player() -> None:
    rules, rand = _first_places("rules", range(12)), _first_places("random", range(12))
    assert rules >= rand + 8, (rules, rand)


def test_the_rule_based_player_lays_away_eyes_and_leads_the_right_bower() -> None:
    game = new([EX1])
    *_, dealer = roles(game)
    discard = choose(game, dealer, "rules", random.Random(1))
    assert game.notation(discard) == "discard TC QC"  # 13 safe eyes, plain cards
    game.apply(dealer, discard)
    game = new([EX3_VARIANT])
    forehand, _second, dealer = roles(game)
    act(game, dealer, "discard 8C 7C")
    assert game.notation(choose(game, forehand, "rules", random.Random(1))) == "JH"


def test_every_event_has_a_text_with_its_arguments_in_both_languages() -> None:
    from games.reunion import events as ev

    kinds = list(range(ev.E_SESSION_WON + 1))
    events: list[tuple[int, ...]] = [(k, -1, 0, 1, 2, 3, 4) for k in kinds]
    events += [(ev.E_LOSS, -1, 0, 1, amount, 120) for amount in (1, 2, 3, 4)]
    events.append((ev.E_SESSION_WON, -1, -1, 0))
    msgs = [ev.message(e) for e in events]
    assert {m.key for m in msgs} >= {
        "reunion.event.loss_quadruple",
        "reunion.event.session_even",
        "reunion.event.partie_shared",
        "reunion.event.all_even",
    }
    for lang in ("sv", "en"):
        texts = {
            name: tomllib.loads((I18N / lang / f"{name}.toml").read_text(encoding="utf-8"))
            for name in ("reunion", "table")
        }
        for m in msgs:
            name, section, key = m.key.split(".")
            template = texts[name][section][key]
            fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
            assert fields <= {a for a, _ in m.args}, (lang, m.key)
