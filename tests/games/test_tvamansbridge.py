"""Tvåmansbridge: the worked examples of rules/two-player.md §2.7 (BR-1 … BR-5), transcripts
(explicit decks and actions give the expected deal and rubber scores), refusals, hidden cards
and the slam variant."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.i18n import catalog
from bot.render.text import TextRenderer
from games.ai import choose
from games.cards import code, make_deck, parse_card, randbelow
from games.core import IllegalActionError, NotationError
from games.registry import SPECS
from games.tvamansbridge import Tvamansbridge, TvamansbridgeOptions, score_deal
from games.tvamansbridge.scoring import (
    DOUBLED_BONUS,
    GRAND_SLAM,
    OVERTRICKS,
    SMALL_SLAM,
    UNDERTRICKS,
    SlamBonus,
    rubber_bonus,
)

SPEC = SPECS["tvamansbridge"]
ANNA, BO = 0, 1
ED, ELDER, DD, DEALER = range(4)
C, D, H, S, NT = range(5)


def seed_with_dealer(dealer: int) -> int:
    """A seed whose first dealer is ``dealer`` (the engine draws it first, §0)."""
    return next(s for s in range(100) if randbelow(random.Random(s), 2) == dealer)


def build_deck(
    hands: dict[int, Sequence[str]] | None = None,
    dummies: dict[int, dict[str, Sequence[str]]] | None = None,
) -> list[str]:
    """A deck (codes, top first) that deals the given cards to the given places (ED, Elder, DD,
    Dealer): a hand's cards in order, a dummy's ``down`` (slots 0-5), ``up`` (on slots 0-5) and
    ``lone``; every other card fills the places left open."""
    slots: list[str | None] = [None] * 52
    for place, cards in (hands or {}).items():
        for r, c in enumerate(cards):
            slots[4 * r + place] = c
    for place, parts in (dummies or {}).items():
        for r, c in enumerate(parts.get("down", ())):
            slots[4 * r + place] = c
        for r, c in enumerate(parts.get("up", ())):
            slots[4 * (6 + r) + place] = c
        for c in parts.get("lone", ()):
            slots[48 + place] = c
    used = {c for c in slots if c is not None}
    rest = iter(code(c) for c in make_deck() if code(c) not in used)
    deck = [c if c is not None else next(rest) for c in slots]
    assert sorted(deck) == sorted(code(c) for c in make_deck())
    return deck


def new_game(
    dealer: int = BO,
    decks: Sequence[Sequence[str]] | None = None,
    options: TvamansbridgeOptions | None = None,
) -> Tvamansbridge:
    game = SPEC.new(2, options, rng=random.Random(seed_with_dealer(dealer)), decks=decks)
    assert isinstance(game, Tvamansbridge)
    assert game.dealer == dealer
    return game


def act(game: Tvamansbridge, *calls: tuple[int, str]) -> None:
    for seat, text in calls:
        game.apply(seat, game.parse(text))


def legal(game: Tvamansbridge, seat: int) -> list[str]:
    return [game.notation(a) for a in game.legal_actions(seat)]


def play_lowest(game: Tvamansbridge, tricks: int = 13) -> None:
    """Each place due to play plays its lowest legal card, for ``tricks`` whole tricks."""
    for _ in range(4 * tricks):
        (seat,) = game.to_act()
        game.apply(seat, game.legal_actions(seat)[0])


def dummy_pile(game: Tvamansbridge, seat: int, viewer: int | None = None) -> tuple[str, int]:
    for pile in game.view(viewer).piles:
        if pile.key == "tvamansbridge.pile.dummy" and pile.seat == seat:
            return " ".join(sorted(code(c) for c in pile.cards)), pile.hidden
    raise AssertionError("no dummy pile")


# --- BR-1: the deal -------------------------------------------------------------------------------


def test_br_ex1_deal_mapping() -> None:
    deck = [code(c) for c in make_deck()]  # index i holds card int i
    game = new_game(BO, [deck])
    elder, dealer = ANNA, BO
    assert game.owner == (elder, elder, dealer, dealer)
    assert not game.up[elder] >> 0 & 1
    assert game.down[elder] >> 0 & 1
    assert game.hands[elder] >> 1 & 1
    assert game.down[dealer] >> 2 & 1  # DD slot 0, face down
    assert game.hands[dealer] >> 3 & 1
    assert game.up[elder] >> 24 & 1
    assert game.cover[24] == 0
    assert game.up[dealer] >> 26 & 1
    assert game.cover[26] == 2
    assert game.hands[dealer] >> 47 & 1
    assert game.lone == [48, 50]  # ED's and DD's lone cards
    for seat in (ANNA, BO):
        assert game.hands[seat].bit_count() == 13
        assert game.up[seat].bit_count() == 6
        assert game.down[seat].bit_count() == 7
        covered = [game.cover[c] for c in range(52) if game.up[seat] >> c & 1]
        assert len(covered) == 6
        assert all(game.down[seat] >> c & 1 for c in covered)


def test_br_ex1_every_face_up_dummy_card_is_public_and_the_face_down_ones_hidden_from_all() -> None:
    deck = [code(c) for c in make_deck()]
    game = new_game(BO, [deck])
    for viewer in (ANNA, BO, None):
        for seat, first in ((ANNA, 24), (BO, 26)):
            face_up = " ".join(sorted(code(c) for c in range(first, first + 24, 4)))
            assert dummy_pile(game, seat, viewer) == (face_up, 7)
    own = {code(c) for c in game.view(ANNA).hand}
    assert own == {code(c) for c in range(1, 52, 4)}
    assert "2C" not in own  # card 0 lies face down in Anna's own dummy, hidden from her too


# --- BR-2: auctions -------------------------------------------------------------------------------


def contract_of(game: Tvamansbridge) -> tuple[int, str, int]:
    assert game.auction is None
    return (
        game.declarer,
        f"{game.level}{'CDHS'[game.strain] if game.strain < 4 else 'NT'}",
        (game.doubled),
    )


def test_br_ex2_a_higher_bid_then_a_pass_ends_the_auction() -> None:
    game = new_game(BO)
    act(game, (BO, "bid 1H"), (ANNA, "bid 1S"), (BO, "bid 2C"), (ANNA, "pass"))
    assert contract_of(game) == (BO, "2C", 0)


def test_br_ex2_double_and_redouble_stand_when_passed() -> None:
    game = new_game(BO)
    act(game, (BO, "bid 1NT"), (ANNA, "double"), (BO, "redouble"), (ANNA, "pass"))
    assert contract_of(game) == (BO, "1NT", 2)


def test_br_ex2_a_new_bid_cancels_the_double() -> None:
    game = new_game(BO)
    act(game, (BO, "bid 1NT"), (ANNA, "double"), (BO, "bid 2D"), (ANNA, "pass"))
    assert contract_of(game) == (BO, "2D", 0)


def test_br_ex2_two_passes_pass_the_deal_out_and_elder_deals_next() -> None:
    game = new_game(BO)
    act(game, (BO, "pass"), (ANNA, "pass"))
    assert game.deal_no == 2
    assert game.dealer == ANNA
    assert game.to_act() == {ANNA}  # the new dealer calls first
    assert game.totals() == (0, 0)
    keys = [m.key for m in game.view(None).events]
    assert "tvamansbridge.event.passed_out" in keys


def test_br_ex2_an_opening_pass_gives_elder_one_call() -> None:
    game = new_game(BO)
    act(game, (BO, "pass"), (ANNA, "bid 1C"), (BO, "pass"))
    assert contract_of(game) == (ANNA, "1C", 0)


def test_br_ex2_illegal_calls_are_refused() -> None:
    game = new_game(BO)
    act(game, (BO, "bid 2H"))
    assert "bid 2D" not in legal(game, ANNA)
    with pytest.raises(IllegalActionError, match="higher than 2H"):
        act(game, (ANNA, "bid 2D"))
    game = new_game(BO)
    act(game, (BO, "bid 1S"))
    with pytest.raises(IllegalActionError, match="redouble"):
        act(game, (ANNA, "redouble"))
    act(game, (ANNA, "double"))
    assert "double" not in legal(game, BO)
    with pytest.raises(IllegalActionError, match="double"):
        act(game, (BO, "double"))
    assert legal(game, BO)[:2] == ["pass", "redouble"]


# --- BR-3: order and legality ---------------------------------------------------------------------


BR3_DECK = build_deck(
    hands={
        ELDER: ["5C", "2C", "3C", "4C", "6C"],
        DEALER: ["3S", "4S", "5S", "6S", "8S", "9S", "TS", "5H", "6H", "7H", "3D", "4D", "5D"],
    },
    dummies={
        ED: {
            "down": ["2H", "8C", "JC", "KC", "AC", "TC"],
            "up": ["7S", "KH", "4H", "2D", "9C", "QC"],
        },
        DD: {
            "down": ["KS", "QS", "JS", "7C", "9H", "TH"],
            "up": ["AS", "2S", "8H", "3H", "AD", "JD"],
        },
    },
)


def test_br_ex3_order_and_legality() -> None:
    # Bo (Dealer) is declarer in 4♠, so Anna (Elder) defends
    game = new_game(BO, [BR3_DECK])
    act(game, (BO, "bid 4S"), (ANNA, "pass"))
    # trick 1: Anna's dummy, Anna, Bo's dummy, Bo
    assert game.to_act() == {ANNA}
    assert sorted(legal(game, ANNA)) == sorted(["7S", "KH", "4H", "2D", "9C", "QC"])
    assert [m.key for m in game.view(ANNA).notes] == ["tvamansbridge.note.play_from_dummy"]
    act(game, (ANNA, "QC"))
    assert game.to_act() == {ANNA}
    assert sorted(legal(game, ANNA)) == sorted(["2C", "3C", "4C", "5C", "6C"])  # must follow
    with pytest.raises(IllegalActionError, match="follow suit"):
        act(game, (ANNA, next(code(c) for c in game.view(ANNA).hand if code(c)[1] != "C")))
    act(game, (ANNA, "5C"))
    # Bo's dummy shows no club, so any face-up card is legal, even with a club lying under 3H
    assert game.to_act() == {BO}
    assert sorted(legal(game, BO)) == sorted(["AS", "2S", "8H", "3H", "AD", "JD"])
    act(game, (BO, "3H"))
    assert "3S" in legal(game, BO)
    assert len(legal(game, BO)) == 13
    act(game, (BO, "3S"))
    assert game.taken == [0, 1]  # the only trump wins
    # the cards under ♣Q and ♥3 are face up now
    assert dummy_pile(game, ANNA) == ("2D 4H 7S 9C KH TC", 6)
    assert dummy_pile(game, BO) == ("2S 7C 8H AD AS JD", 6)
    # trick 2: Bo, Anna's dummy, Anna, Bo's dummy
    assert game.to_act() == {BO}
    act(game, (BO, "3D"))
    assert legal(game, ANNA) == ["2D"]  # the dummy's only face-up diamond
    act(game, (ANNA, "2D"))
    (seat,) = game.to_act()
    assert seat == ANNA
    assert game._place() == ELDER
    act(game, (ANNA, legal(game, ANNA)[0]))
    assert game.to_act() == {BO}
    assert game._place() == DD


def test_br_ex3_a_card_uncovered_is_not_playable_in_the_same_trick() -> None:
    game = new_game(BO, [BR3_DECK])
    act(game, (BO, "bid 4S"), (ANNA, "pass"), (ANNA, "QC"), (ANNA, "5C"), (BO, "3H"))
    # 3H has left Bo's dummy, but 7C under it stays face down until the trick is over
    assert dummy_pile(game, BO) == ("2S 8H AD AS JD", 7)
    assert "7C" not in legal(game, BO)
    with pytest.raises(IllegalActionError):
        act(game, (BO, "7C"))


def test_a_trick_won_by_a_dummy_is_led_from_that_dummy() -> None:
    game = new_game(BO, [BR3_DECK])
    act(game, (BO, "bid 4S"), (ANNA, "pass"), (ANNA, "QC"), (ANNA, "5C"), (BO, "3H"), (BO, "3S"))
    act(game, (BO, "3D"), (ANNA, "2D"), (ANNA, "6D"), (BO, "AD"))
    assert game.taken == [0, 2]
    assert game.to_act() == {BO}
    assert game._place() == DD  # Bo's dummy won, so it leads: any of its face-up cards,
    assert sorted(legal(game, BO)) == sorted(["2S", "7C", "8H", "9H", "AS", "JD"])  # 9H uncovered
    assert [m.key for m in game.view(BO).notes] == ["tvamansbridge.note.play_from_dummy"]
    with pytest.raises(IllegalActionError, match="dummy"):
        act(game, (BO, "4S"))  # in Bo's hand


def test_the_lone_card_stays_face_down_until_trick_13() -> None:
    game = new_game(BO, [BR3_DECK])
    act(game, (BO, "bid 4S"), (ANNA, "pass"))
    lone = {seat: code(game.lone[seat]) for seat in (ANNA, BO)}
    play_lowest(game, 11)
    for seat in (ANNA, BO):
        cards, hidden = dummy_pile(game, seat)
        assert hidden == 1
        assert lone[seat] not in cards.split()
    play_lowest(game, 1)
    for seat in (ANNA, BO):  # twelve cards played: the lone card turns up for the last trick
        assert dummy_pile(game, seat) == (lone[seat], 0)
    while game.trick_no == 13:
        (seat,) = game.to_act()
        if game._place() % 2 == 0:
            assert legal(game, seat) == [lone[seat]]
        act(game, (seat, legal(game, seat)[0]))
    assert game.deal_no == 2


def test_refusals_name_where_the_card_must_come_from() -> None:
    game = new_game(BO, [BR3_DECK])
    with pytest.raises(IllegalActionError, match="bidding"):
        act(game, (BO, "AS"))
    with pytest.raises(IllegalActionError, match="not your turn"):
        act(game, (ANNA, "pass"))
    act(game, (BO, "bid 4S"), (ANNA, "pass"))
    with pytest.raises(IllegalActionError, match="play a card"):
        act(game, (ANNA, "pass"))
    with pytest.raises(IllegalActionError, match="dummy"):
        act(game, (ANNA, "5C"))  # in Anna's hand, but her dummy is due to play
    with pytest.raises(IllegalActionError, match="dummy"):
        act(game, (ANNA, "TC"))  # face down in her dummy
    act(game, (ANNA, "QC"))
    with pytest.raises(IllegalActionError, match="hand"):
        act(game, (ANNA, "9C"))  # a dummy card when the hand is due


# --- BR-4: scoring single deals -------------------------------------------------------------------


def test_br_ex4_doubled_game_with_an_overtrick() -> None:
    score = score_deal(4, H, 1, 11, vulnerable=False)
    assert score.below == 240
    assert score.above == ((OVERTRICKS, True, 100), (DOUBLED_BONUS, True, 50))


def test_br_ex4_redoubled_vulnerable_down_two() -> None:
    assert score_deal(3, NT, 2, 7, vulnerable=True).above == ((UNDERTRICKS, False, 1000),)


def test_br_ex4_part_score_with_an_overtrick() -> None:
    score = score_deal(2, C, 0, 9, vulnerable=False)
    assert (score.below, score.above) == (40, ((OVERTRICKS, True, 20),))


def test_br_ex4_six_spades_with_thirteen_tricks() -> None:
    score = score_deal(6, S, 0, 13, vulnerable=False)
    assert score.below == 180
    assert score.above == ((OVERTRICKS, True, 30), (GRAND_SLAM, True, 1000))
    bid = score_deal(6, S, 0, 13, vulnerable=False, slam_bonus="bid")
    assert bid.above == ((OVERTRICKS, True, 30), (SMALL_SLAM, True, 500))


def test_br_ex4_grand_slam_in_no_trumps_vulnerable() -> None:
    score = score_deal(7, NT, 0, 13, vulnerable=True)
    assert (score.below, score.above) == (220, ((GRAND_SLAM, True, 1500),))


def test_br_ex4_two_no_trumps_doubled() -> None:
    score = score_deal(2, NT, 1, 8, vulnerable=False)
    assert (score.below, score.above) == (140, ((DOUBLED_BONUS, True, 50),))


def test_br_ex4_four_spades_doubled_down_three_by_zone() -> None:
    assert score_deal(4, S, 1, 7, vulnerable=False).above == ((UNDERTRICKS, False, 500),)
    assert score_deal(4, S, 1, 7, vulnerable=True).above == ((UNDERTRICKS, False, 800),)


def test_br_ex4_small_slam_taken_in_four_spades() -> None:
    score = score_deal(4, S, 0, 12, vulnerable=False)
    assert score.below == 120
    assert score.above == ((OVERTRICKS, True, 60), (SMALL_SLAM, True, 500))
    assert score_deal(4, S, 0, 12, False, "bid").above == ((OVERTRICKS, True, 60),)


def test_br_ex4_a_failed_grand_slam_scores_no_slam_bonus() -> None:
    modes: tuple[SlamBonus, ...] = ("taken", "bid")
    for mode in modes:
        score = score_deal(7, S, 0, 12, vulnerable=False, slam_bonus=mode)
        assert (score.below, score.above) == (0, ((UNDERTRICKS, False, 50),))


def test_undertricks_follow_the_seed_scale() -> None:
    assert score_deal(1, C, 0, 4, vulnerable=False).above[0][2] == 150
    assert score_deal(1, C, 0, 4, vulnerable=True).above[0][2] == 300
    assert score_deal(1, C, 1, 5, vulnerable=False).above[0][2] == 300
    assert score_deal(1, C, 2, 5, vulnerable=True).above[0][2] == 1000
    assert score_deal(3, H, 2, 10, vulnerable=True).above == (
        (OVERTRICKS, True, 400),
        (DOUBLED_BONUS, True, 50),
    )


def test_the_seed_tables_rows_not_in_the_worked_examples() -> None:
    # D-BR-9: an undoubled overtrick in no trumps is worth 30
    assert score_deal(1, NT, 0, 9, vulnerable=False).above == ((OVERTRICKS, True, 60),)
    # doubled overtricks: 100 each not vulnerable, 200 vulnerable
    assert score_deal(2, H, 1, 10, vulnerable=True).above == (
        (OVERTRICKS, True, 400),
        (DOUBLED_BONUS, True, 50),
    )
    # the small slam vulnerable: 750
    assert score_deal(6, D, 0, 12, vulnerable=True) == score_deal(6, D, 0, 12, True, "bid")
    assert score_deal(6, D, 0, 12, vulnerable=True).above == ((SMALL_SLAM, True, 750),)
    # redoubled below the line: four times the trick values
    assert score_deal(1, NT, 2, 7, vulnerable=False).below == 160
    assert score_deal(2, C, 2, 8, vulnerable=False).below == 160


# --- BR-5: a full rubber --------------------------------------------------------------------------


def settle(
    game: Tvamansbridge, declarer: int, level: int, strain: int, doubled: int, taken: int
) -> None:
    """Score one deal as if played with this contract and result (the bookkeeping of §2.4)."""
    game.auction = None
    game.declarer, game.level, game.strain, game.doubled = declarer, level, strain, doubled
    game.taken = [taken if s == declarer else 13 - taken for s in (0, 1)]
    game._score_deal()


def test_br_ex5_a_full_rubber() -> None:
    game = new_game(BO)
    settle(game, ANNA, 2, H, 0, 9)
    assert (game.below, game.above) == ([60, 0], [30, 0])
    settle(game, BO, 3, NT, 0, 9)
    assert game.games_won == [0, 1]
    assert game.segment == [0, 0]  # new line: Anna's 60 no longer counts toward game
    assert game.vulnerable(BO)
    assert not game.vulnerable(ANNA)
    settle(game, ANNA, 4, S, 1, 7)
    assert game.above == [30, 500]
    settle(game, BO, 4, H, 0, 10)
    assert game.games_won == [0, 2]
    assert game.is_over()
    assert game.totals() == (90, 1420)
    result = game.result()
    assert result.scores == (90, 1420)
    assert result.places == (2, 1)
    last = game.view(None).events[-1]
    assert (last.key, last.arg("seat"), last.arg("points")) == (
        "tvamansbridge.event.match_won",
        BO,
        1330,
    )


def test_br_ex5_the_score_sheet_above_and_below_the_line() -> None:
    game = new_game(BO)
    for deal in ((ANNA, 2, H, 0, 9), (BO, 3, NT, 0, 9), (ANNA, 4, S, 1, 7), (BO, 4, H, 0, 10)):
        settle(game, *deal)
    sheet = game.view(ANNA).sheet
    assert sheet is not None
    rows = [(r.label.key.split(".")[-1], r.cells, r.rule_below) for r in sheet.rows]
    assert rows == [
        ("rubber", (None, 700), False),
        ("undertricks", (None, 500), False),
        ("overtricks", (30, None), True),  # the line
        ("contract", (60, None), False),
        ("contract", (None, 100), True),  # Bo's first game: a new line
        ("contract", (None, 120), True),  # the second game, then the totals
        ("total", (90, 1420), False),
    ]
    lines = TextRenderer(catalog("sv"), ["Anna", "Bo"]).sheet(sheet)
    assert lines[0].split() == ["Anna", "Bo"]
    assert lines[1].split() == ["Giv", "4:", "andra", "utgång", "700"]
    assert lines[4].startswith("─")
    assert lines[5].split() == ["Giv", "1:", "2♥", "60"]
    assert lines[6].split() == ["Giv", "2:", "3", "sang", "100"]
    assert lines[-1].split() == ["Summa", "90", "1420"]


def test_a_part_score_stays_above_the_totals_without_a_new_line() -> None:
    game = new_game(BO)
    settle(game, ANNA, 2, H, 0, 8)
    sheet = game.view(None).sheet
    assert sheet is not None
    rows = [(r.label.key.split(".")[-1], r.cells, r.rule_below) for r in sheet.rows]
    assert rows == [
        ("above", (None, None), True),
        ("contract", (60, None), False),
        ("total", (60, 0), False),
    ]


def test_rubber_bonus_is_500_when_the_opponent_has_a_game() -> None:
    assert rubber_bonus(0) == 700
    assert rubber_bonus(1) == 500
    game = new_game(BO)
    settle(game, ANNA, 4, S, 0, 10)
    settle(game, BO, 4, S, 0, 10)
    settle(game, BO, 5, C, 0, 11)
    assert game.is_over()
    assert game.above == [0, 500]
    assert game.totals() == (120, 720)


def test_equal_totals_are_a_draw_sharing_first_place() -> None:
    game = new_game(BO)
    settle(game, ANNA, 3, NT, 0, 9)  # Anna 100: a game
    settle(game, BO, 3, NT, 0, 9)  # Bo 100: a game
    settle(game, ANNA, 1, C, 0, 1)  # Anna, vulnerable, down 6: Bo 600 above
    settle(game, ANNA, 3, NT, 0, 9)  # Anna's second game: 100 + 500
    assert game.is_over()
    assert game.totals() == (700, 700)
    assert game.result().places == (1, 1)
    assert game.view(None).events[-1].key == "tvamansbridge.event.draw"


# --- transcripts: explicit decks and actions ------------------------------------------------------

SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]


def test_transcript_two_grand_slams_make_the_rubber() -> None:
    # deal 1: Bo deals and holds every spade; deal 2: Anna deals and Bo (Elder) holds them
    decks = [build_deck(hands={DEALER: SPADES}), build_deck(hands={ELDER: SPADES})]
    game = new_game(BO, decks)
    act(game, (BO, "bid 7S"), (ANNA, "pass"))
    assert game.view(None).trump == 3
    play_lowest(game)  # Bo ruffs the first trick and leads trumps to the end
    assert game.deal_no == 2
    assert game.dealer == ANNA
    assert (game.below, game.above, game.games_won) == ([0, 210], [0, 1000], [0, 1])
    seat_notes = [m.key for m in game.view(None).seats[BO].notes]
    assert seat_notes == ["tvamansbridge.note.vulnerable"]
    act(game, (ANNA, "pass"), (BO, "bid 7S"), (ANNA, "double"), (BO, "redouble"), (ANNA, "pass"))
    assert game.to_act() == {ANNA}  # the defender's dummy leads
    assert game._place() == DD
    play_lowest(game)
    assert game.is_over()
    assert game.below == [0, 210 + 840]
    assert game.above == [0, 1000 + 50 + 1500 + 700]
    assert game.result().scores == (0, 4300)
    assert game.result().places == (2, 1)
    assert not game.to_act()
    with pytest.raises(IllegalActionError, match="over"):
        act(game, (ANNA, "pass"))


def test_transcript_passed_out_then_a_failed_contract() -> None:
    decks = [build_deck(hands={DEALER: SPADES}), build_deck(hands={DEALER: SPADES})]
    game = new_game(BO, decks)
    act(game, (BO, "pass"), (ANNA, "pass"))  # passed out: Anna deals deal 2
    assert (game.deal_no, game.dealer) == (2, ANNA)
    # Anna (Dealer) holds every spade, so Bo's 1♠ has no trump on his side at all
    act(game, (ANNA, "pass"), (BO, "bid 1S"), (ANNA, "double"), (BO, "pass"))
    while game.trick_no <= 13 and game.deal_no == 2:
        (seat,) = game.to_act()
        options = legal(game, seat)
        spade = [c for c in options if c.endswith("S")]
        act(game, (seat, spade[-1] if spade else options[0]))
    assert game.deal_no == 3
    assert game.above == [100 + 200 * 6, 0]  # 1♠ doubled, not vulnerable, down 7
    assert game.below == [0, 0]
    events = [m.key for m in game.view(None).events]
    assert "tvamansbridge.event.down" in events


@pytest.mark.parametrize(("preset", "slam"), [("standard", 1000), ("bid_slam", 500)])
def test_slam_bonus_by_tricks_taken_or_only_when_bid(preset: str, slam: int) -> None:
    options = SPEC.preset(preset)
    assert isinstance(options, TvamansbridgeOptions)
    game = new_game(BO, [build_deck(hands={DEALER: SPADES})], options)
    act(game, (BO, "bid 6S"), (ANNA, "pass"))
    play_lowest(game)
    assert game.below == [0, 180]
    assert game.above == [0, 30 + slam]


# --- hidden cards ---------------------------------------------------------------------------------


def test_determinize_redeals_the_opponent_hand_and_every_face_down_dummy_card() -> None:
    game = new_game(BO, [BR3_DECK])
    act(game, (BO, "bid 4S"), (ANNA, "pass"), (ANNA, "QC"), (ANNA, "5C"), (BO, "3H"), (BO, "3S"))
    hidden = game.hands[BO] | game.down[ANNA] | game.down[BO]
    moved = False
    for seed in range(5):
        other = game.determinize(ANNA, random.Random(seed))
        assert other.view(ANNA) == game.view(ANNA)
        assert other.hands[ANNA] == game.hands[ANNA]
        assert other.up == game.up
        assert other.hands[BO] | other.down[ANNA] | other.down[BO] == hidden
        assert not other.hands[BO] & 0x1FFF  # Bo showed out of clubs
        moved |= other.down != game.down
        for seat in (ANNA, BO):  # every face-up stack still covers a face-down card
            assert all(
                other.down[seat] >> other.cover[c] & 1
                for c in range(52)
                if other.up[seat] >> c & 1 and other.cover[c] >= 0
            )
    assert moved


def test_notation_round_trips_and_rejects_what_is_not_an_action() -> None:
    game = new_game(BO)
    for text in ("pass", "double", "redouble", "bid 1C", "bid 7NT", "QS", "TH"):
        assert game.notation(game.parse(text)) == text
    assert game.parse("bid 3nt") == game.parse("BID 3NT")
    assert game.parse("10h") == parse_card("TH")
    for text in ("bid 8C", "bid 0NT", "JK", "play QS", "xyzzy"):
        with pytest.raises(NotationError):
            game.parse(text)


# --- computer players -----------------------------------------------------------------------------


def _match(seed: int, kinds: dict[int, str]) -> Tvamansbridge:
    game = SPEC.new(2, rng=random.Random(seed))
    assert isinstance(game, Tvamansbridge)
    rng = random.Random(seed)
    while not game.is_over():
        (seat,) = game.to_act()
        game.apply(seat, choose(game, seat, kinds[seat], rng))
    return game


def test_rule_based_players_at_every_seat_finish_a_rubber() -> None:
    for seed in range(4):
        game = _match(seed, {0: "rules", 1: "rules"})
        assert max(game.games_won) == 2
        assert game.deal_no < 40
        assert game.sheet_below  # contracts were bid and made


def test_the_rule_based_player_beats_the_random_one_with_seats_rotated() -> None:
    wins = 0
    for seed in range(3):
        for rules in (ANNA, BO):
            game = _match(seed, {rules: "rules", 1 - rules: "random"})
            wins += game.result().places[rules] == 1 and game.result().places[1 - rules] == 2
    assert wins >= 5


def test_the_rule_based_player_doubles_a_hopeless_bid_and_bids_a_strong_hand() -> None:
    game = new_game(BO, [build_deck(hands={DEALER: SPADES})])
    bid = choose(game, BO, "rules", random.Random(1))
    assert game.notation(bid) in ("bid 4S", "bid 5S", "bid 6S", "bid 7S")  # game or more
    act(game, (BO, "bid 7NT"))
    assert game.notation(choose(game, ANNA, "rules", random.Random(1))) == "double"
