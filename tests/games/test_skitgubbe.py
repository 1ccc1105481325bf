"""Skitgubbe: the worked examples of rules/three-to-five-player.md §4.6 (S-Ex1..S-Ex8, S-Ex4 being
the Swedish text's own example, move by move), the decisions S1..S14, transcripts from explicit
decks, the two variants, refusals, what each seat sees, and the message catalogs."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Mapping
from pathlib import Path

import pytest

from games.cards import RANKS, SUITS, cards_in, code, mask_of, parse_card, randbelow, shuffled
from games.core import IllegalActionError, Msg, NotationError
from games.skitgubbe import CHANCE, PHASE2_CAP, PICKUP, SPEC, Skitgubbe, SkitgubbeOptions
from games.skitgubbe.game import PHASE1, PHASE2
from games.skitgubbe.groups import group_mask, groups_in

ROOT = Path(__file__).resolve().parents[2]
A, B, C = 0, 1, 2  # forehand, efterhand and the dealer in every game below
EVERY_CARD = [r + s for s in SUITS for r in RANKS]
# a seed whose match draws seat 2 as the dealer (the dealer is the match's first random draw)
SEED = next(s for s in range(100) if randbelow(random.Random(s), 3) == C)


def mask(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def codes_of(cards: int) -> str:
    return " ".join(code(c) for c in range(52) if cards >> c & 1)


def act(game: Skitgubbe, seat: int, text: str) -> None:
    assert seat in game.to_act(), f"seat {seat} is not to act"
    game.apply(seat, game.parse(text))


def deck(a: str, b: str, c: str, stock: str = "") -> list[str]:
    """A deck (top first) dealing ``a``, ``b`` and ``c`` (three cards each) one at a time from
    forehand A, then ``stock`` on top of the stock and every other card below it."""
    hands = [a.split(), b.split(), c.split()]
    order = [hands[i % 3][i // 3] for i in range(9)] + stock.split()
    return order + [x for x in EVERY_CARD if x not in order]


def dealt(
    a: str, b: str, c: str, stock: str = "", options: SkitgubbeOptions | None = None
) -> Skitgubbe:
    game = SPEC.new(3, options, random.Random(SEED), [deck(a, b, c, stock)])
    assert isinstance(game, Skitgubbe)
    assert game.dealer == C
    return game


def phase_one(
    hands: Mapping[int, str], stock: str, leader: int, responder: int, holder: int = -1
) -> Skitgubbe:
    """A phase-1 position: these hands and stock (top first); with ``holder``, the stock's last
    card already lies set aside before him (it is the first card of ``stock`` then); the other
    cards lie in the won piles, A's first."""
    game = dealt("2C 3C 4C", "5C 6C 7C", "8C 9C TC")
    used = 0
    for seat in range(3):
        game.hands[seat] = mask(hands.get(seat, ""))
        used |= game.hands[seat]
    cards = [parse_card(c) for c in stock.split()]
    used |= mask_of(cards)
    if holder >= 0:
        game.last_card, game.holder = cards.pop(0), holder
    game.stock = cards[::-1]
    rest = ((1 << 52) - 1) & ~used
    game.won = [rest, 0, 0]
    game.tricks_won = [rest.bit_count() // 2, 0, 0]
    game.leader, game.responder = leader, responder
    return game


def phase_two(hands: Mapping[int, str], trump: str, turn: int, **options: bool) -> Skitgubbe:
    """A phase-2 position: these hands, trumps, ``turn`` to lead; every other card turned away."""
    game = dealt("2C 3C 4C", "5C 6C 7C", "8C 9C TC", options=SkitgubbeOptions(**options))
    game.phase = PHASE2
    game.stock = []
    game.won = [0, 0, 0]
    game.hands = [mask(hands.get(seat, "")) for seat in range(3)]
    game.known = list(game.hands)
    game.trump = SUITS.index(trump)
    game.turn = turn
    game.discarded = 52 - sum(h.bit_count() for h in game.hands)
    game.places = [0 if h else 1 for h in game.hands]
    return game


def legal(game: Skitgubbe, seat: int) -> list[str]:
    return [game.notation(a) for a in game.legal_actions(seat)]


def groups_on_table(game: Skitgubbe) -> list[tuple[int | None, str]]:
    view = game.view(None)
    return [
        (p.seat, " ".join(str(c) for c in p.cards))
        for p in view.piles
        if p.key.startswith("skitgubbe.pile.group")
    ]


def event_keys(game: Skitgubbe) -> list[str]:
    return [m.key.rsplit(".", 1)[1] for m in game.view(None).events]


# --- the worked examples (§4.6) ---------------------------------------------------------------


def test_s_ex1_equal_ranks_bounce_and_the_higher_card_takes_all_four() -> None:
    game = dealt("7C QS 2D", "7D 3H 2H", "4S 5S 6S", stock="9D 9H TD TH")
    act(game, A, "7C")
    assert game.hands[A] == mask("QS 2D 9D")  # drew at once
    act(game, B, "7D")
    assert "bounce" in event_keys(game)
    assert game.to_act() == {A}  # the leader plays first again (S2)
    act(game, A, "QS")
    act(game, B, "3H")
    assert game.won[A] == mask("7C 7D QS 3H")
    assert game.tricks_won == [1, 0, 0]
    assert game.hands[A] == mask("2D 9D TD")
    assert game.hands[B] == mask("2H 9H TH")
    assert (game.leader, game.responder) == (A, B)  # A leads against his left neighbour, B
    assert game.view(None).trick == ()


def test_s_ex2_chancing_turns_up_the_top_stock_card_without_drawing() -> None:
    stock = "5H TS JS QS KS AS 2H 3H 4H 6H"
    game = phase_one({A: "AC KC QC", B: "4C 8D 9D", C: "2D 3D 4D"}, stock, A, B)
    assert len(game.stock) == 10
    act(game, A, "chance")
    assert [(s, str(c)) for s, c in game.view(None).trick] == [(A, "5H")]
    assert (len(game.stock), game.hands[A]) == (9, mask("AC KC QC"))  # no draw
    act(game, B, "4C")
    assert len(game.stock) == 8  # B drew
    assert game.won[A] & mask("5H 4C") == mask("5H 4C")
    assert game.view(None).events[-2].key == "skitgubbe.event.chance"


def test_s_ex3_the_last_stock_card_is_set_aside_unseen_and_names_trumps() -> None:
    game = phase_one({A: "AC KC QC", B: "2D 3D 4D", C: "2H 3H 4H"}, "9S 6S", A, B)
    act(game, A, "AC")  # draws 9S, stock 1
    assert len(game.stock) == 1
    act(game, B, "2D")  # due to draw the last card: it is set aside
    assert (game.holder, code(game.last_card), game.stock) == (B, "6S", [])
    assert game.hands[B] == mask("3D 4D")  # B now holds 2 cards
    assert "6S" not in [str(c) for c in game.view(B).hand]  # unseen by B too
    piles = {p.key: p for p in game.view(B).piles}
    assert (piles["skitgubbe.pile.last_card"].hidden, piles["skitgubbe.pile.last_card"].seat) == (
        1,
        B,
    )
    assert CHANCE not in game.legal_actions(A)  # nobody draws or chances any more
    while game.phase == PHASE1:
        seat = next(iter(game.to_act()))
        game.apply(seat, game.legal_actions(seat)[0])
    assert game.trump == SUITS.index("S")
    assert game.to_act() == {B}  # the holder of the last stock card leads phase 2
    assert game.hands[B] >> parse_card("6S") & 1
    assert game.view(None).trump == SUITS.index("S")
    assert "6S" in [str(c) for c in game.view(None).seats[B].shown]


def test_s_ex4_the_swedish_example_played_exactly() -> None:
    """A spelar klöver 9. B spelar klöver D-K-E. C har klöver 10-Kn, kan inte slå över och får
    inte trumfa: han super B:s tre kort. A, utan klöver, spelar hjärter 4 (trumf). B svarar med
    hjärter 7-8. Tre spel: sticket vänds bort och B spelar ut."""
    game = phase_two({A: "9C 4H 2S 3S", B: "QC KC AC 7H 8H 5D", C: "TC JC 2D"}, "H", A)
    act(game, A, "9C")
    assert "QC KC AC" in legal(game, B)
    act(game, B, "QC KC AC")  # clubs, queen above the nine
    assert legal(game, C) == ["pickup"]  # no club above the ace, and he holds clubs: no trump
    act(game, C, "pickup")
    assert game.hands[C] == mask("TC JC QC KC AC 2D")
    assert groups_on_table(game) == [(A, "9C")]
    assert game.to_act() == {A}  # A faces his own nine of clubs
    assert set(legal(game, A)) == {"4H", "pickup"}  # no clubs: any heart group, or pick up
    act(game, A, "4H")
    assert groups_on_table(game) == [(A, "9C"), (A, "4H")]  # two groups of A's, apart
    assert "7H 8H" in legal(game, B)
    act(game, B, "7H 8H")
    assert groups_on_table(game) == []  # three plays: turned away
    assert game.discarded == 52 - 13 + 4  # 9C, 4H, 7H and 8H
    assert game.to_act() == {B}
    assert event_keys(game)[-1] == "turned_away"
    # C may later lead the whole run of clubs as one group
    assert "TC JC QC KC AC" in [game.notation(a) for a in groups_in(game.hands[C], False)]


def test_s_ex5_holding_the_led_suit_beats_only_in_it_and_never_over_a_trump() -> None:
    p_hand = "JD QD 2S 5C"
    game = phase_two({A: "TD 3C", B: p_hand, C: "4C"}, "S", A)
    act(game, A, "TD")
    assert sorted(legal(game, B)) == sorted(["JD", "JD QD", "QD", "pickup"])
    for wrong in ("2S", "5C"):
        with pytest.raises(IllegalActionError):
            act(game, B, wrong)
    # the same hand when someone void in diamonds has trumped with the nine of spades
    game = phase_two({A: "TD 3C", B: "9S 4C", C: p_hand}, "S", A)
    act(game, A, "TD")
    act(game, B, "9S")
    assert legal(game, C) == ["pickup"]
    act(game, C, "pickup")
    assert game.hands[C] == mask(p_hand + " 9S")
    assert groups_on_table(game) == [(A, "TD")]
    assert game.to_act() == {A}  # the next player moves on [TD]


def test_s_ex6_groups_are_one_suit_in_sequence_without_wrapping() -> None:
    game = dealt("2C 3C 4C", "5C 6C 7C", "8C 9C TC")
    assert group_mask(game.parse("7H 8H 9H")) == mask("7H 8H 9H")
    assert group_mask(game.parse("AS KS")) == mask("KS AS")  # any order is read
    assert game.notation(game.parse("AS KS")) == "KS AS"  # written low to high
    for wrong in ("7H 9H", "7H 8S", "AS 2S", "7H 7H"):
        with pytest.raises(NotationError, match="not a group"):
            game.parse(wrong)


def test_s_ex7_going_out_leaves_one_holder_who_is_the_skitgubbe() -> None:
    game = phase_two({A: "KH", C: "QH 2C 3C"}, "S", C)
    act(game, C, "QH")
    act(game, A, "KH")  # his last card, as the second group of the trick
    assert game.is_over()
    assert game.to_act() == frozenset()
    assert game.result().places == (2, 1, 3)  # B was out before, A next, C is skitgubbe
    assert event_keys(game)[-2:] == ["out", "skitgubbe"]


def test_s_ex8_places_follow_the_order_of_going_out() -> None:
    game = phase_two({A: "3C", B: "2D", C: "5H 6H 7H 8H"}, "S", B)
    act(game, B, "2D")  # B goes out first
    act(game, C, "pickup")  # C takes the two of diamonds
    act(game, A, "3C")  # A leads his last card and goes out
    assert game.is_over()
    result = game.result()
    assert result.places == (2, 1, 3)
    assert result.scores == (0, 0, -5)
    notes = [[m.key for m in s.notes] for s in game.view(None).seats]
    assert notes[C] == ["skitgubbe.note.skitgubbe"]
    assert notes[B] == ["skitgubbe.note.out"]


# --- phase 1 decisions ------------------------------------------------------------------------


def test_s4_players_without_cards_are_passed_and_phase_one_ends_with_one_holder() -> None:
    game = phase_one({A: "KC 2C", B: "3D", C: "4H 5H"}, "9S", A, B, holder=C)
    act(game, A, "KC")
    act(game, B, "3D")  # A wins; B has no cards left
    assert (game.leader, game.responder) == (A, C)
    act(game, A, "2C")
    act(game, C, "4H")  # C wins; only C holds cards: phase 1 ends
    assert game.phase == PHASE2
    assert game.hands[C] & mask("5H 9S") == mask("5H 9S")  # unplayed card kept, trump card
    assert game.trump == SUITS.index("S")
    assert game.to_act() == {C}


def test_s5_s14_an_unresolved_last_bounce_is_taken_back_chanced_card_included() -> None:
    game = phase_one({A: "9C 8S 2C", B: "5C 9D 8H", C: "2H 3H 4H"}, "5H 6S", A, B)
    act(game, A, "chance")  # 5H turned up; one card left in the stock
    act(game, B, "5C")  # bounce; B sets the last card aside
    assert game.holder == B
    act(game, A, "9C")
    act(game, B, "9D")  # bounce again
    act(game, A, "8S")
    act(game, B, "8H")  # bounce, and B has no card left: phase 1 ends
    assert game.phase == PHASE2
    assert "taken_back" in event_keys(game)
    assert game.hands[A] & mask("5H 9C 8S 2C") == mask("5H 9C 8S 2C")
    assert game.hands[B] & mask("5C 9D 8H 6S") == mask("5C 9D 8H 6S")
    assert game.trump == SUITS.index("S")


def test_s3_chancing_needs_two_stock_cards() -> None:
    game = phase_one({A: "AC KC QC", B: "2D 3D 4D", C: "2H 3H 4H"}, "9S 6S", A, B)
    assert CHANCE in game.legal_actions(A)
    act(game, A, "AC")
    act(game, B, "2D")
    with pytest.raises(IllegalActionError, match="at least two cards"):
        act(game, A, "chance")


def test_a_trick_always_holds_an_even_number_of_cards() -> None:
    game = dealt("7C 7S 2D", "7D 7H 2H", "4S 5S 6S")
    for seat, card in ((A, "7C"), (B, "7D"), (A, "7S"), (B, "7H")):
        act(game, seat, card)
    assert len(game.view(None).trick) == 4
    act(game, A, "2D")
    assert len(game.view(None).trick) == 5
    assert game.to_act() == {B}


# --- phase 2 decisions ------------------------------------------------------------------------


def test_s7_a_group_beats_only_with_its_lowest_card_above_the_top() -> None:
    game = phase_two({A: "9C", B: "TC JC QC 2D", C: "5D"}, "H", A)
    act(game, A, "9C")
    assert set(legal(game, B)) == {"TC", "JC", "QC", "TC JC", "JC QC", "TC JC QC", "pickup"}
    act(game, B, "TC JC")
    assert legal(game, C) == ["pickup"]  # void in clubs and without trumps


def test_s9_s10_picked_up_groups_no_longer_count_and_an_empty_trick_is_led_afresh() -> None:
    game = phase_two({A: "9C 2S", B: "TC 3S", C: "JC 4S"}, "H", A)
    act(game, A, "9C")
    act(game, B, "TC")
    act(game, C, "pickup")  # takes TC
    act(game, A, "pickup")  # takes his own 9C: the trick is empty
    assert groups_on_table(game) == []
    assert game.to_act() == {B}
    assert "pickup" not in legal(game, B)  # B leads a fresh trick


def test_trumps_over_a_trump_must_be_higher() -> None:
    game = phase_two({A: "9C 2D", B: "5H 3D", C: "4H 6H 7H 2S"}, "H", A)
    act(game, A, "9C")
    act(game, B, "5H")
    assert set(legal(game, C)) == {"6H", "6H 7H", "7H", "pickup"}


def test_the_last_player_to_play_leads_after_going_out_the_next_one_does() -> None:
    game = phase_two({A: "9C 2S", B: "TC 3S", C: "JC"}, "H", A)
    act(game, A, "9C")
    act(game, B, "TC")
    act(game, C, "JC")  # his last card closes the trick
    assert game.places[C] == 1
    assert game.to_act() == {A}


# --- variants ---------------------------------------------------------------------------------


def test_variant_one_card_at_a_time() -> None:
    game = phase_two({A: "9C TC JC", B: "2S", C: "3S"}, "H", A, single_card_only=True)
    assert legal(game, A) == ["9C", "TC", "JC"]
    with pytest.raises(IllegalActionError, match="one card at a time"):
        act(game, A, "9C TC")
    assert SPEC.preset("one_card").single_card_only


def test_variant_compulsory_beating() -> None:
    game = phase_two({A: "9C", B: "TC 2S", C: "3S"}, "H", A, must_beat=True)
    act(game, A, "9C")
    assert legal(game, B) == ["TC"]
    with pytest.raises(IllegalActionError, match="must beat"):
        act(game, B, "pickup")
    game = phase_two({A: "9C", B: "8C 2S", C: "3S"}, "H", A, must_beat=True)
    act(game, A, "9C")
    assert legal(game, B) == ["pickup"]
    assert SPEC.preset("must_beat").must_beat


def test_s15_a_circle_forced_by_compulsory_beating_lifts_the_compulsion() -> None:
    """Spades only, so nobody may trump; B leads 5S and the king and the ace go round: each
    player in turn must beat 5S with his one high card, and the next, holding only a low spade,
    must pick it up. After twelve forced moves the position stands again; then the player to
    move may pick up instead of beating, and the circle is broken."""
    game = phase_two({A: "2S", B: "3S 5S KS", C: "4S AS"}, "H", B, must_beat=True)
    act(game, B, "5S")
    forced = []
    for _ in range(12):
        (seat,) = game.to_act()
        assert game.repeated == 0
        (only,) = legal(game, seat)
        forced.append(only)
        act(game, seat, only)
    assert forced == ["AS", "pickup", "KS", "pickup"] * 3
    assert game.to_act() == {C}
    assert game.repeated == 1
    assert game.view(A).repeated == 1
    assert legal(game, C) == ["AS", "pickup"]  # S15: he may pick up although he can beat
    assert event_keys(game)[-1] == "repeat"
    act(game, C, "pickup")  # takes up 5S; A leads his last card and is out
    act(game, A, "2S")
    assert game.places[A] == 1


# --- refusals ---------------------------------------------------------------------------------


def test_refusals_name_the_rule_and_change_nothing() -> None:
    game = phase_two({A: "9C 4H", B: "QC 5H", C: "TC 2S"}, "H", A)
    act(game, A, "9C")
    act(game, B, "QC")
    before = [game.view(s) for s in (A, B, C, None)]
    cases = [
        (C, "2S", "beat with clubs higher than QC"),
        (C, "TC", "beat with clubs higher than QC"),
        (A, "4H", "not your turn"),
        (C, "AS", "do not hold AS"),
        (C, "chance", "first phase"),
    ]
    for seat, text, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            game.apply(seat, game.parse(text))
    assert [game.view(s) for s in (A, B, C, None)] == before
    act(game, C, "pickup")  # A faces his own nine of clubs, holding no clubs
    with pytest.raises(IllegalActionError, match="do not hold 9C"):
        act(game, A, "9C")
    game.hands[A] |= mask("2D")
    with pytest.raises(IllegalActionError, match="hold no clubs: trump, or pick up"):
        act(game, A, "2D")


def test_a_lead_cannot_pick_up_and_phase_one_plays_single_cards() -> None:
    game = phase_two({A: "9C", B: "2S", C: "3S"}, "H", A)
    with pytest.raises(IllegalActionError, match="nothing to pick up"):
        act(game, A, "pickup")
    game = dealt("7C 8C 9C", "7D 3H 2H", "4S 5S 6S")
    with pytest.raises(IllegalActionError, match="one card at a time"):
        act(game, A, "7C 8C")
    with pytest.raises(IllegalActionError, match="nothing to pick up"):
        act(game, A, "pickup")


# --- what a seat sees ---------------------------------------------------------------------------


def test_views_show_counts_the_trick_and_hide_the_set_aside_card() -> None:
    game = dealt("7C QS 2D", "7D 3H 2H", "4S 5S 6S")
    view = game.view(A)
    assert [str(c) for c in view.hand] == ["7C", "2D", "QS"]
    assert [s.cards for s in view.seats] == [3, 3, 3]
    assert {p.key: p.hidden for p in view.piles}["table.pile.stock"] == 43
    assert view.phase.key == "skitgubbe.phase.collect"
    assert view.trump is None
    assert game.view(None).hand == ()


def test_determinize_keeps_face_up_cards_with_their_holders() -> None:
    game = phase_two({A: "9C 4H 2S", B: "QC KC AC 7H", C: "TC JC 2D"}, "H", A)
    game.known = [mask("9C 4H"), mask("QC KC AC 7H"), mask("TC")]
    act(game, A, "9C")
    other = game.determinize(A, random.Random(3))
    assert other.hands[B] == game.hands[B]  # all known
    assert other.hands[C] & mask("TC") == mask("TC")
    assert other.hands[C].bit_count() == 3
    assert other.view(A) == game.view(A)


def test_determinize_keeps_a_shown_void_in_the_led_suit() -> None:
    game = phase_two({A: "4H 2S 3S", B: "9C QC", C: "TC JC 5D"}, "H", C)
    game.known = [mask("4H"), mask("9C QC"), 0]
    act(game, C, "TC")
    act(game, A, "4H")  # A trumps: none of his unseen cards is a club
    dealt_to_a = 0
    for seed in range(30):
        other = game.determinize(B, random.Random(seed))
        assert not other.hands[A] & mask("JC")
        assert other.hands[A].bit_count() == 2
        dealt_to_a |= other.hands[A]
        assert other.view(B) == game.view(B)
    assert dealt_to_a == mask("2S 3S 5D")  # the unseen cards do move between the hands


# --- transcripts --------------------------------------------------------------------------------


def first_legal_to_the_end(game: Skitgubbe) -> list[str]:
    record = []
    while not game.is_over():
        seat = next(iter(game.to_act()))
        action = game.legal_actions(seat)[0]
        record.append(game.notation(action))
        game.apply(seat, action)
    return record


def test_transcript_a_whole_match_from_an_explicit_deck() -> None:
    """Every seat plays its first legal action (the lowest card, a single card, never a chance)."""
    order = deck("2C 3C 4C", "5C 6C 7C", "8C 9C TC", stock="JC QC KC AC")
    game = SPEC.new(3, rng=random.Random(SEED), decks=[order])
    assert isinstance(game, Skitgubbe)
    record = []
    while game.phase == PHASE1:
        seat = next(iter(game.to_act()))
        record.append(game.notation(game.legal_actions(seat)[0]))
        game.apply(seat, game.legal_actions(seat)[0])
    # A leads 2C against B's 5C; B leads 6C against C's 8C; C leads 9C against A's 3C ...
    assert record[:6] == ["2C", "5C", "6C", "8C", "9C", "3C"]
    assert len(record) == 50
    assert (code(game.last_card), game.holder, game.trump) == ("AS", B, SUITS.index("S"))
    assert [h.bit_count() for h in game.hands] == [14, 20, 18]
    assert game.to_act() == {B}
    record += first_legal_to_the_end(game)
    assert len(record) == 120
    assert game.result().scores == (-12, 0, 0)
    assert game.result().places == (3, 2, 1)  # C out first, then B; A is the skitgubbe
    replay = SPEC.new(3, rng=random.Random(SEED), decks=[order])
    for text in record:
        replay.apply(next(iter(replay.to_act())), replay.parse(text))
    assert replay.result() == game.result()
    assert replay.view(None) == game.view(None)


def test_transcript_random_moves_with_chances_bounces_groups_and_pickups() -> None:
    """A golden record: random legal moves (seed 17) from a fixed deck, replayed from its text."""
    order = [code(c) for c in shuffled(range(52), random.Random(99))]
    game = SPEC.new(3, rng=random.Random(2), decks=[order])
    rng = random.Random(17)
    record: list[tuple[int, str]] = []
    bounces = 0
    while not game.is_over():
        seat = next(iter(game.to_act()))
        actions = game.legal_actions(seat)
        action = actions[rng.randrange(len(actions))]
        record.append((seat, game.notation(action)))
        game.apply(seat, action)
        bounces += game.view(None).events[-1].key == "skitgubbe.event.bounce"
    texts = [t for _, t in record]
    assert len(record) == 136
    assert (texts.count("chance"), texts.count("pickup")) == (10, 32)
    assert sum(1 for t in texts if len(t.split()) > 1) == 13  # groups of several cards
    assert bounces >= 1
    assert game.result().scores == (-24, 0, 0)
    assert game.result().places == (3, 1, 2)
    replay = SPEC.new(3, rng=random.Random(2), decks=[order])
    for seat, text in record:
        replay.apply(seat, replay.parse(text))
    assert replay.view(None) == game.view(None)
    assert replay.result() == game.result()


def test_random_playouts_stay_within_the_phase_two_cap() -> None:
    rng = random.Random(5)
    for seed in range(20):
        game = SPEC.new(3, rng=random.Random(seed))
        assert isinstance(game, Skitgubbe)
        steps = 0
        while not game.is_over():
            seat = next(iter(game.to_act()))
            actions = game.legal_actions(seat)
            game.apply(seat, actions[rng.randrange(len(actions))])
            steps += 1
        assert game.moves <= PHASE2_CAP
        assert steps <= PHASE2_CAP + 200
        assert sum(game.result().places) >= 6


def test_the_cap_ranks_holders_by_cards_held() -> None:
    game = phase_two({A: "9C 2S", B: "TC 3S 4S", C: "JC 5S"}, "H", A)
    game.moves = PHASE2_CAP - 1
    act(game, A, "9C")
    assert game.is_over()
    assert game.result().places == (1, 3, 2)  # nobody is out: 1, 3 and 2 cards held
    assert event_keys(game)[-1] == "cap"


# --- texts --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_catalogs_name_every_pile_and_action(lang: str) -> None:
    texts = tomllib.loads((ROOT / "bot" / "i18n" / lang / "skitgubbe.toml").read_text("utf-8"))
    assert set(texts["pile"]) >= {"last_card", "group1", "group2", "group3", "discarded"}
    assert set(texts["action"]) == {"chance", "pickup"}
    assert set(texts["variant"]) == set(SPEC.presets)


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_every_event_and_note_has_a_text_that_formats(lang: str) -> None:
    from bot.i18n import catalog
    from bot.render.text import TextRenderer
    from games.skitgubbe import game as engine

    render = TextRenderer(catalog(lang), ["Anna", "Bo", "Cia"])
    game = dealt("2C 3C 4C", "5C 6C 7C", "8C 9C TC")
    kinds = [getattr(engine, name) for name in dir(engine) if name.startswith("E_")]
    msgs = [game._message((kind, 1, 5, 0)) for kind in kinds if kind != engine.E_TRICK]
    msgs.append(game._message((engine.E_TRICK, 1, mask("7C 7D"), 0)))
    msgs += [game._phase_msg(), phase_two({A: "2C"}, "H", A)._phase_msg()]
    for key in ("out", "place", "skitgubbe"):
        msgs.append(Msg.of(f"skitgubbe.note.{key}", place=2))
    assert len(msgs) == len(kinds) + 5
    for m in msgs:
        text = render.msg(m)
        assert text != m.key, f"{lang}: no text for {m.key}"
        assert "{" not in text, text


def test_picked_up_cards_are_shown_while_held() -> None:
    game = phase_two({A: "9C 2S", B: "TC 3S", C: "4S 5S"}, "H", A)
    act(game, A, "9C")
    act(game, B, "pickup")
    assert [str(c) for c in game.view(C).seats[B].shown] == ["9C"]
    act(game, C, "4S")
    act(game, A, "pickup")
    act(game, B, "9C")
    assert game.view(C).seats[B].shown == ()


# --- the computer player ------------------------------------------------------------------------


def test_rules_player_goes_out_first_far_more_often_than_random() -> None:
    """One rule-based seat against two random ones on the same deals, seats rotated."""
    from games.ai import choose, make_player

    first = {"rules": 0, "random": 0}
    for kind in first:
        for seed in range(8):
            for seat in range(3):
                game = SPEC.new(3, rng=random.Random(seed))
                players = {s: make_player(kind if s == seat else "random") for s in range(3)}
                rng = random.Random(seed * 31 + seat)
                while not game.is_over():
                    s = next(iter(game.to_act()))
                    game.apply(s, choose(game, s, players[s], rng))
                first[kind] += game.result().places[seat] == 1
    assert first["rules"] >= first["random"] + 8, first


@pytest.mark.parametrize(
    ("preset", "kind", "seed"),
    [
        ("standard", "normal", 3),
        ("standard", "normal", 9),
        ("must_beat", "normal", 16),
        ("must_beat", "easy", 14),
        ("must_beat", "random", 1),
        ("must_beat", "random", 3),
        ("standard", "hard", 3),
    ],
)
def test_every_level_plays_the_deals_that_went_round_in_circles_to_their_end(
    preset: str, kind: str, seed: int
) -> None:
    """Deals on which these players used to pick up and play the same groups round and round
    until the phase-two cap stopped the table."""
    from games.ai import choose, make_player
    from games.ai.search import SearchPlayer

    game = SPEC.new(3, SPEC.preset(preset), rng=random.Random(seed))
    assert isinstance(game, Skitgubbe)
    players = [SearchPlayer(iterations=8) if kind == "hard" else make_player(kind) for _ in "abc"]
    rng = random.Random(seed)
    while not game.is_over():
        (s,) = game.to_act()
        game.apply(s, choose(game, s, players[s], rng))
    assert game.moves < PHASE2_CAP
    assert "cap" not in event_keys(game)
    assert sorted(game.result().places) == [1, 2, 3]


# --- the rules as written, against random games ---------------------------------------------------


class _Rules:
    """Rules 4.2 and 4.3 read sentence by sentence, independent of the engine: hands as sets,
    the stock as a list (top last), groups as sets of cards."""

    def __init__(self, hands: list[set[int]], stock: list[int], dealer: int) -> None:
        self.hands, self.stock = hands, stock
        self.won: list[set[int]] = [set(), set(), set()]
        self.trick: list[int] = []
        self.groups: list[frozenset[int]] = []
        self.leader = (dealer + 1) % 3
        self.responder = (self.leader + 1) % 3
        self.phase, self.last, self.holder, self.trump, self.turn = 1, -1, -1, -1, -1
        self.places = [0, 0, 0]
        self.stood: list[object] = []  # S15: the phase-2 positions since cards were turned away
        self.played: set[int] = set()  # cards taken back, and the cards played in phase 2

    def repeated(self) -> bool:
        """S15: the position everyone sees stands again since cards were last turned away."""
        return bool(self.stood) and self.stood.count(self.stood[-1]) > 1

    def can_play(self, seat: int) -> bool:
        return bool(self.hands[seat]) or len(self.stock) >= 2

    def actor(self) -> int:
        if self.phase == 1:
            return self.responder if len(self.trick) % 2 else self.leader
        return self.turn if self.phase == 2 else -1

    def legal(self, single: bool) -> set[frozenset[int] | str]:
        hand = self.hands[self.actor()]
        if self.phase == 1:
            return {frozenset((c,)) for c in hand} | ({"chance"} if len(self.stock) >= 2 else set())
        runs = {
            frozenset(range(low, low + n))
            for low in hand
            for n in range(1, 2 if single else 14)
            if low % 13 + n <= 13 and set(range(low, low + n)) <= hand
        }
        if not self.groups:
            return set(runs)
        led, top = min(self.groups[0]) // 13, self.groups[-1]
        if any(c // 13 == led for c in hand):  # follow the led suit, never over a trump
            ok = {g for g in runs if min(g) // 13 == led == min(top) // 13 and min(g) > max(top)}
        else:  # void: trump, higher than a trump on top
            ok = {
                g
                for g in runs
                if min(g) // 13 == self.trump
                and (min(top) // 13 != self.trump or min(g) > max(top))
            }
        return {*ok, "pickup"}

    def play(self, move: frozenset[int] | str) -> None:
        seat = self.actor()
        if self.phase == 1:
            if isinstance(move, str):  # chance
                card = self.stock.pop()
            else:
                (card,) = move
                self.hands[seat].discard(card)
                if len(self.stock) == 1:
                    self.last, self.holder = self.stock.pop(), seat
                elif self.stock:
                    self.hands[seat].add(self.stock.pop())
            self.trick.append(card)
            if len(self.trick) % 2:
                return
            lead, answer = self.trick[-2] % 13, self.trick[-1] % 13
            if lead == answer:
                if not (self.can_play(self.leader) and self.can_play(self.responder)):
                    self.end_phase_one()
                return
            winner = self.leader if lead > answer else self.responder
            self.won[winner] |= set(self.trick)
            self.trick = []
            if sum(self.can_play(s) for s in range(3)) < 2:
                self.end_phase_one()
                return
            self.leader = next(s % 3 for s in range(winner, winner + 3) if self.can_play(s % 3))
            self.responder = next(
                s % 3 for s in range(self.leader + 1, self.leader + 3) if self.can_play(s % 3)
            )
            return
        if move == "pickup":
            self.hands[seat] |= self.groups.pop()
            self.turn = self.next_holding(seat)
        else:
            assert isinstance(move, frozenset)
            self.played |= move
            self.hands[seat] -= move
            self.groups.append(move)
            if not self.hands[seat]:
                self.places[seat] = 1 + sum(1 for p in self.places if p)
            if len(self.groups) == 3:
                self.groups = []
                self.stood = []
                self.turn = seat if self.hands[seat] else self.next_holding(seat)
            else:
                self.turn = self.next_holding(seat)
        self.check_end()
        self.stand()

    def stand(self) -> None:
        """What everyone has seen: every card that lay face up (in a phase-1 trick, turned up, or
        played in phase 2) is known where it lies; the other cards only by their number."""
        shown = set().union(*self.won, self.trick, {self.last}, *self.groups, self.played)
        hands = tuple((frozenset(h & shown), len(h)) for h in self.hands)
        self.stood.append((hands, tuple(self.groups), self.turn))

    def next_holding(self, seat: int) -> int:
        return next((s % 3 for s in range(seat + 1, seat + 3) if self.hands[s % 3]), seat)

    def end_phase_one(self) -> None:
        for i, card in enumerate(self.trick):  # an unresolved bounce: each takes back his own
            self.hands[self.responder if i % 2 else self.leader].add(card)
        self.played |= set(self.trick)  # they lay face up
        self.trick = []
        self.trump = self.last // 13
        self.hands[self.holder].add(self.last)
        for s in range(3):
            self.hands[s] |= self.won[s]
            if not self.hands[s]:
                self.places[s] = 1
        self.phase, self.turn = 2, self.holder
        self.check_end()
        self.stand()

    def check_end(self) -> None:
        holding = [s for s in range(3) if self.hands[s]]
        if len(holding) <= 1:
            for s in holding:
                self.places[s] = 3
            self.phase = 3


@pytest.mark.parametrize(
    "options",
    [SkitgubbeOptions(), SkitgubbeOptions(single_card_only=True), SkitgubbeOptions(must_beat=True)],
)
def test_random_games_play_as_the_rules_are_written(options: SkitgubbeOptions) -> None:
    rng = random.Random(3)
    for seed in range(40):
        game = SPEC.new(3, options, random.Random(seed))
        assert isinstance(game, Skitgubbe)
        hands = [set(cards_in(h)) for h in game.hands]
        rules = _Rules(hands, list(game.stock), game.dealer)
        while not game.is_over() and game.moves < 600:
            seat = rules.actor()
            assert game.to_act() == {seat}
            actions = game.legal_actions(seat)
            moves: dict[frozenset[int] | str, int] = {
                game.notation(a) if a in (CHANCE, PICKUP) else frozenset(cards_in(group_mask(a))): a
                for a in actions
            }
            expected = rules.legal(options.single_card_only)
            if options.must_beat and expected != {"pickup"} and not rules.repeated():
                expected.discard("pickup")
            assert set(moves) == expected
            keys = sorted(moves, key=str)
            shed = [k for k in keys if k != "pickup"]  # mostly shed, so that games end
            move = rng.choice(shed if shed and rng.random() < 0.8 else keys)
            game.apply(seat, moves[move])
            rules.play(move)
            assert game.trump == rules.trump
        if game.is_over():
            assert rules.phase == 3
            assert game.result().places == tuple(rules.places)
