"""Femkort: the worked examples of rules/two-player.md §5.6, whole-match transcripts, both ways of
dealing, "better cards" (bättre kort) in its online form, both kinds of match, what each seat may
see, and refusals.

Seats are dealt so that seat 0 is the elder hand (the last seat deals first): ``deck`` takes the
hands in seat order and lays them out as the dealer deals them. Scripts are cards (and ``better``,
``accept``, ``refuse``) in the order they are played; each goes to the one seat whose turn it is.
"""

from __future__ import annotations

import dataclasses
import random
import re
import tomllib
from pathlib import Path

import pytest

from games.ai import choose
from games.cards import Card, code, make_deck, parse_card, randbelow
from games.core import IllegalActionError, Msg, NotationError, OptionError, View
from games.femkort import ACCEPT, BETTER, REFUSE, SPEC, Femkort, FemkortOptions

I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"
LAST_STANDING = FemkortOptions(match="last_standing")


def seed_for_dealer(players: int, dealer: int) -> int:
    """A seed whose first dealer is ``dealer``."""
    return next(s for s in range(1000) if randbelow(random.Random(s), players) == dealer)


def deck(*hands: str, style: str = "one_by_one") -> list[str]:
    """The deck order that deals ``hands`` (seat order, seat 0 the elder), the rest undealt."""
    cards = [h.split() for h in hands]
    assert all(len(h) == 5 for h in cards)
    rounds = ((0, 3), (3, 5)) if style == "three_two" else tuple((i, i + 1) for i in range(5))
    order = [c for lo, hi in rounds for h in cards for c in h[lo:hi]]
    dealt = {parse_card(c) for c in order}
    assert len(dealt) == len(order), "a card is dealt twice"
    return order + [code(c) for c in make_deck() if c not in dealt]


def new(
    players: int,
    decks: list[list[str]] | None = None,
    options: FemkortOptions | None = None,
    dealer: int | None = None,
) -> Femkort:
    """A match whose first dealer is the last seat (so seat 0 leads), or ``dealer``."""
    seat = players - 1 if dealer is None else dealer
    rng = random.Random(seed_for_dealer(players, seat))
    game = SPEC.new(players, options, rng=rng, decks=decks)
    assert isinstance(game, Femkort)
    assert game.dealer == seat
    return game


def play(game: Femkort, script: str) -> None:
    for text in script.split():
        (seat,) = game.to_act()
        game.apply(seat, game.parse(text))


def legal_cards(game: Femkort, seat: int) -> set[str]:
    return {code(a) for a in game.legal_actions(seat) if a < 52}


def events(view: View, key: str) -> list[Msg]:
    return [m for m in view.events if m.key == key]


# four players A B C D = seats 0..3; D deals, so A is the elder hand and leads
FK_FILL = "2H 3H 4H 5S 6S"


# --- the worked examples (§5.6) -----------------------------------------------------------------


def test_fk_ex1_follow_and_beat_the_highest_card_so_far() -> None:
    game = new(
        4,
        [
            deck(
                "8C AH KH QH JH",  # A
                "5C JC AD 7H 8H",  # B
                "9C QC 3C 9H TH",  # C
                "TC 2C 2S 3S 4S",  # D
            )
        ],
    )
    play(game, "8C")
    assert legal_cards(game, 1) == {"JC"}
    play(game, "JC")
    assert legal_cards(game, 2) == {"QC"}  # the top card is now JC
    play(game, "QC")
    assert legal_cards(game, 3) == {"TC", "2C"}  # cannot beat QC: any club
    play(game, "2C")
    view = game.view(None)
    assert events(view, "femkort.event.trick_won")[-1] == Msg.of(
        "femkort.event.trick_won", seat=2, card="QC", trick=1
    )
    assert game.to_act() == {2}  # the winner leads the next trick


def test_fk_ex2_the_card_to_beat_is_the_highest_not_the_previous() -> None:
    game = new(
        4,
        [deck("8C AH KH QH JH", "3C 2C 7H 8H 9H", "5C JC TH 2S 3S", "4S 5S 6S 7S 8S")],
    )
    play(game, "8C")
    assert legal_cards(game, 1) == {"3C", "2C"}  # cannot beat: free among the clubs
    play(game, "3C")
    assert legal_cards(game, 2) == {"JC"}  # D-FK-1: beat 8C, not 3C


def test_fk_ex3_a_discard_never_wins() -> None:
    game = new(
        4,
        [deck("6H 2C 3C 4C 5C", "AS KS QS JS TS", "4H 9H 6C 7C 8C", "2D 3D 4D 5D 6D")],
    )
    play(game, "6H")
    assert legal_cards(game, 1) == {"AS", "KS", "QS", "JS", "TS"}  # void: any card
    play(game, "AS")
    assert legal_cards(game, 2) == {"9H"}
    play(game, "9H 2D")
    assert game.to_act() == {2}  # C's 9H wins, not B's ace of spades
    assert game.won == [0, 0, 1, 0]


def _sweep_deal(game: Femkort) -> None:
    """The elder (seat 0) holds five spades from the top and wins every trick."""
    play(game, "AS 2H 2D 2C KS 3H 3D 3C QS 4H 4D 4C JS 5H 5D 5C TS 6H 6D 6C")


SWEEP = deck("AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D", "2C 3C 4C 5C 6C")


def test_fk_ex4_the_winner_of_trick_five_takes_the_pot() -> None:
    game = new(4, [SWEEP])
    assert game.pot == 4  # 4 players ante 1 each
    assert events(game.view(None), "femkort.event.ante") == [
        Msg.of("femkort.event.ante", ante=1, pot=4)
    ]
    _sweep_deal(game)
    view = game.view(None)
    assert events(view, "femkort.event.pot_won") == [
        Msg.of("femkort.event.pot_won", seat=0, pot=4, pots=1)
    ]
    assert [s.score for s in view.seats] == [1, 0, 0, 0]  # pots won
    # counted in points (the last-standing match): +4 for the winner, net +3
    stack = new(4, [SWEEP], LAST_STANDING)
    _sweep_deal(stack)
    # the ante of the next deal is already in its pot
    assert [s.score for s in stack.view(None).seats] == [3 - 1 + 4 - 1, 1, 1, 1]


def test_fk_ex4_only_the_fifth_trick_counts() -> None:
    # B takes the first four tricks, A takes the fifth and the pot
    game = new(
        2,
        [deck("2S 3S 4S 5S AH", "KS QS JS TS 2H")],
    )
    play(game, "2S KS QS 3S JS 4S TS 5S 2H AH")
    won = events(game.view(None), "femkort.event.trick_won")
    assert [(m.arg("seat"), m.arg("trick")) for m in won] == [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (0, 5),
    ]
    assert game.pots_won == [1, 0]


FK5 = deck("AC 7D 6H 2S 3S", "KC 8D 7H 4S 5S", "QC 9D 8H 6S 7S", "JC TD 9H 8S 9S")


def _fk5_game(decks: list[list[str]] | None = None) -> Femkort:
    game = new(4, decks or [FK5, SWEEP])
    # trick 1: A leads AC and wins; trick 2: A leads 7D, D takes it with TD
    play(game, "AC KC QC JC 7D 8D 9D TD")
    # trick 3: D leads 9H; A cannot beat it and plays his only heart; B is to play
    play(game, "9H 6H")
    assert game.trick_no == 3
    assert game.to_act() == {1}
    return game


def test_fk_ex5_better_cards_accepted_by_all_redeals_with_the_pot_kept() -> None:
    game = _fk5_game()
    play(game, "better accept accept")
    assert game.to_act() == {0}  # C and D have accepted; A answers last
    play(game, "accept")
    view = game.view(None)
    assert events(view, "femkort.event.redeal") == [Msg.of("femkort.event.redeal", seat=3, pot=4)]
    assert game.dealer == 3  # the same dealer
    assert game.pot == 4  # the pot stays, no new ante
    assert len(events(view, "femkort.event.ante")) == 1
    assert game.trick_no == 1
    assert view.trick == ()
    assert view.deal == 2  # the same pot, but new cards: a new deal, shown to every seat
    started = Msg.of("table.event.deal_started", deal=2, seat=3)
    for seat in (None, 0, 1, 2, 3):
        seen = game.view(seat)
        assert seen.deal == 2
        assert events(seen, "table.event.deal_started")[-1] == started
    assert game.view(0).hand == tuple(sorted(Card.parse(c) for c in ["AS", "KS", "QS", "JS", "TS"]))
    assert game.to_act() == {0}  # the elder leads again
    _sweep_deal(game)
    assert game.pots_won == [1, 0, 0, 0]
    assert game.dealer == 0  # after a pot won the deal passes to the left


def test_fk_ex5_a_refusal_lets_play_go_on_and_the_proposer_cannot_ask_again() -> None:
    game = _fk5_game()
    before = game.view(1).hand
    play(game, "better refuse")
    assert game.to_act() == {1}
    assert game.view(1).hand == before
    assert [c for _, c in game.view(None).trick] == [Card.parse("9H"), Card.parse("6H")]
    assert BETTER not in game.legal_actions(1)
    assert game.pot == 4
    with pytest.raises(IllegalActionError, match="already proposed"):
        game.apply(1, BETTER)
    play(game, "7H")
    assert BETTER in game.legal_actions(2)  # the others still may


def test_fk_ex6_better_cards_online_turns() -> None:
    game = _fk5_game()
    assert BETTER in game.legal_actions(1)
    assert set(game.legal_actions(1)) == {parse_card("7H"), BETTER}
    assert game.legal_actions(2) == []  # C is not to act
    play(game, "better")
    assert game.to_act() == {2}
    assert game.legal_actions(2) == [ACCEPT, REFUSE]
    assert game.view(None).phase == Msg.of("femkort.phase.better", seat=1, pot=4)
    play(game, "accept")
    assert game.to_act() == {3}
    assert game.view(None).seats[2].notes == (Msg.of("femkort.note.accepted"),)
    play(game, "refuse")
    assert game.to_act() == {1}
    assert game.legal_actions(1) == [parse_card("7H")]  # his legal cards, no ``better``
    assert events(game.view(None), "femkort.event.refused") == [
        Msg.of("femkort.event.refused", seat=3)
    ]


def test_fk_ex6_the_order_of_answers_is_clockwise_from_the_proposer() -> None:
    game = _fk5_game()
    play(game, "better")
    answered: list[int] = []
    while game.proposer >= 0 and len(answered) < 3:
        (seat,) = game.to_act()
        answered.append(seat)
        game.apply(seat, ACCEPT)
    assert answered == [2, 3, 0]


# --- the window for better cards (D-FK-4, D-FK-10) ----------------------------------------------


def test_better_cards_as_the_leader_of_trick_five_but_not_after_the_lead() -> None:
    game = new(2, [deck("2S 3S 4S 5S AH", "KS QS JS TS 2H")])
    play(game, "2S KS QS 3S JS 4S TS 5S")
    assert game.trick_no == 5
    assert game.to_act() == {1}
    assert BETTER in game.legal_actions(1)
    play(game, "2H")
    assert game.legal_actions(0) == [parse_card("AH")]  # trick 5 has been led
    with pytest.raises(IllegalActionError, match="last trick"):
        game.apply(0, BETTER)


def test_two_players_redeal_when_the_other_accepts() -> None:
    two = deck("2S 3S 4S 5S AH", "KS QS JS TS 2H")
    game = new(2, [two, two])
    play(game, "better accept")
    assert game.to_act() == {0}
    assert game.pot == 2
    assert game.proposed == 0  # a redeal is a new deal: everyone may ask again


# --- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("style", ["one_by_one", "three_two"])
def test_both_ways_of_dealing_give_the_hands_in_turn_from_the_dealers_left(style: str) -> None:
    hands = ("AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D")
    game = new(3, [deck(*hands, style=style)], FemkortOptions(deal=style))  # type: ignore[arg-type]
    for seat, hand in enumerate(hands):
        assert game.view(seat).hand == tuple(sorted(Card.parse(c) for c in hand.split()))
    view = game.view(None)
    assert next(p for p in view.piles if p.key == "femkort.pile.undealt").hidden == 52 - 15


def test_three_then_two_deals_three_cards_to_everyone_first() -> None:
    order = deck("AS KS QS JS TS", "2H 3H 4H 5H 6H", style="one_by_one")
    one = new(2, [order])
    three = new(2, [order], FemkortOptions(deal="three_two"))
    # the same deck order gives other hands: the first six cards go 3 + 3, not 1 + 1 + ...
    assert one.view(0).hand != three.view(0).hand
    assert {str(c) for c in three.view(0).hand} == {"AS", "2H", "KS", "JS", "5H"}


def test_the_dealer_is_dealt_last_and_the_elder_leads() -> None:
    hands = ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S"]
    game = new(4, [deck(*hands)], dealer=1)
    # dealt from seat 2 (the dealer's left): seat 2 gets the first hand of the deck
    assert {str(c) for c in game.view(2).hand} == set(hands[0].split())
    assert {str(c) for c in game.view(1).hand} == set(hands[3].split())
    assert game.to_act() == {2}


# --- transcripts --------------------------------------------------------------------------------


def test_transcript_three_players_to_three_pots() -> None:
    decks = [
        # deal 1, seat 2 deals: seat 0 leads
        deck("AS 9S 4H 3D 2C", "KS 5S KH 8D 7C", "QS 2S 7H AD 6C"),
        # deal 2, seat 0 deals; hands listed from the elder (seat 1): seat 1, seat 2, seat 0
        deck("AH KH QH JH TH", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S"),
        # deal 3, seat 1 deals: seat 2 leads, asks for better cards and everyone accepts
        deck("2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"),
        # the redeal: seat 2 sweeps
        deck("AD KD QD JD TD", "2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H"),
        # deal 4, seat 2 deals: seat 0 leads and sweeps
        deck("AC KC QC JC TC", "2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H"),
    ]
    game = new(3, decks)
    # deal 1: the beat duty decides every card
    play(game, "4H")
    assert legal_cards(game, 1) == {"KH"}
    play(game, "KH")
    assert legal_cards(game, 2) == {"7H"}
    play(game, "7H 7C 6C 2C 8D AD 3D 2S")
    assert legal_cards(game, 0) == {"AS", "9S"}  # both beat 2S: free choice
    play(game, "9S")
    assert legal_cards(game, 1) == {"KS"}
    play(game, "KS 5S QS AS")
    assert game.pots_won == [1, 0, 0]
    assert game.dealer == 0
    assert game.to_act() == {1}
    # deal 2: seat 1 asks, seat 2 accepts, seat 0 refuses; seat 1 sweeps
    play(game, "better accept refuse")
    play(game, "AH 2H 2S KH 3H 3S QH 4H 4S JH 5H 5S TH 6H 6S")
    assert game.pots_won == [1, 1, 0]
    assert game.dealer == 1
    assert game.to_act() == {2}
    # deal 3: seat 2 asks for better cards and both accept: the same dealer deals again
    play(game, "better accept accept")
    assert game.dealer == 1
    assert game.pot == 3
    play(game, "AD 2C 2H KD 3C 3H QD 4C 4H JD 5C 5H TD 6C 6H")
    assert game.pots_won == [1, 1, 1]
    assert game.dealer == 2
    assert game.to_act() == {0}
    # deal 4: seat 0 sweeps and wins its second pot
    play(game, "AC 2D 2H KC 3D 3H QC 4D 4H JC 5D 5H TC 6D 6H")
    assert game.pots_won == [2, 1, 1]
    assert not game.is_over()
    view = game.view(None)
    assert view.deal == 6  # the fifth pot's deal, after a redeal: the sixth deal of the cards
    assert game.pot == 3


def test_transcript_first_to_the_target_ends_the_match() -> None:
    sweep_for_elder = deck("AS KS QS JS TS", "2H 3H 4H 5H 6H")
    game = new(2, [sweep_for_elder] * 3, FemkortOptions(target=2))
    play(game, "AS 2H KS 3H QS 4H JS 5H TS 6H")  # seat 0 leads and wins
    assert game.dealer == 0
    assert game.to_act() == {1}
    play(game, "AS 2H KS 3H QS 4H JS 5H TS 6H")  # seat 1 leads and wins
    play(game, "AS 2H KS 3H QS 4H JS 5H TS 6H")  # seat 0 again: two pots
    assert game.is_over()
    assert game.to_act() == frozenset()
    assert game.legal_actions(0) == []
    result = game.result()
    assert result.scores == (2, 1)
    assert result.places == (1, 2)
    assert events(game.view(None), "femkort.event.match_won") == [
        Msg.of("femkort.event.match_won", seat=0)
    ]
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(0, parse_card("AS"))


def test_places_by_pots_won_ties_share() -> None:
    sweep = deck("AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D")
    game = new(3, [sweep], FemkortOptions(target=1))
    play(game, "AS 2H 2D KS 3H 3D QS 4H 4D JS 5H 5D TS 6H 6D")
    assert game.result().places == (1, 2, 2)


# --- the last-standing match --------------------------------------------------------------------


def test_last_standing_a_player_who_cannot_ante_is_out() -> None:
    sweep = deck("AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D")
    # seat 1 leads the second deal and sweeps with the same cards
    game = new(3, [sweep, sweep], FemkortOptions(match="last_standing", start_points=2))
    play(game, "AS 2H 2D KS 3H 3D QS 4H 4D JS 5H 5D TS 6H 6D")
    assert game.points == [4 - 1, 0, 0]  # the next ante is paid, seats 1 and 2 with their last
    play(game, "AS 2H 2D KS 3H 3D QS 4H 4D JS 5H 5D TS 6H 6D")
    # seat 1 won the pot of 3; seat 2 paid its last point in the ante and is out; the two
    # left have paid the next ante
    assert game.points == [3 - 1, 3 - 1, 0]
    view = game.view(None)
    assert events(view, "femkort.event.out") == [Msg.of("femkort.event.out", seat=2, points=0)]
    assert view.seats[2].cards == 0
    assert view.seats[2].notes == (Msg.of("femkort.note.out"),)
    assert view.seats[2].tricks is None
    assert game.pot == 2  # only the two players left ante
    assert game.dealer == 1
    assert game.to_act() == {0}
    assert next(p for p in view.piles if p.key == "femkort.pile.undealt").hidden == 42
    rng = random.Random(4)
    while not game.is_over():
        (seat,) = game.to_act()
        assert seat != 2
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    result = game.result()
    assert result.places[2] == 3
    assert sorted(result.places[:2]) == [1, 2]
    assert sum(result.scores) == 6  # points are only moved, never made


def test_last_standing_players_out_together_share_a_place() -> None:
    sweep = deck("AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D")
    game = new(3, [sweep], FemkortOptions(match="last_standing", start_points=1))
    play(game, "AS 2H 2D KS 3H 3D QS 4H 4D JS 5H 5D TS 6H 6D")
    assert game.is_over()
    assert game.result().scores == (3, 0, 0)
    assert game.result().places == (1, 2, 2)


# --- visibility ---------------------------------------------------------------------------------


def test_each_seat_sees_its_own_hand_and_counts_of_the_others() -> None:
    game = new(3, [deck("AS KS QS JS TS", "2H 3H 4H 5H 6H", "2D 3D 4D 5D 6D")])
    mine = game.view(1)
    assert {str(c) for c in mine.hand} == {"2H", "3H", "4H", "5H", "6H"}
    assert [s.cards for s in mine.seats] == [5, 5, 5]
    assert game.view(None).hand == ()
    play(game, "AS 2H 2D")
    view = game.view(None)
    last = next(p for p in view.piles if p.key == "table.pile.last_trick")
    assert last.seat == 0
    assert [str(c) for c in last.cards] == ["AS", "2H", "2D"]
    play(game, "KS 3H 3D")
    view = game.view(None)
    played = next(p for p in view.piles if p.key == "femkort.pile.played")
    assert [str(c) for c in played.cards] == ["AS", "2H", "2D"]  # §5.7: only hands are hidden
    assert played.hidden == 0


def test_determinize_keeps_the_seats_hand_and_the_counts() -> None:
    game = new(4, [FK5])
    play(game, "AC KC QC JC 7D")
    other = game.determinize(1, random.Random(9))
    assert other.view(1) == game.view(1)
    assert other.hands[1] == game.hands[1]
    assert [h.bit_count() for h in other.hands] == [h.bit_count() for h in game.hands]
    assert sum(h.bit_count() for h in other.hands) + other.undealt.bit_count() == 52 - 5


def test_determinize_keeps_what_play_showed_of_the_hands() -> None:
    # Seat 1 followed spades without beating the king (it must beat when able, D-FK-1): it holds
    # no ace of spades. Seat 2 did not follow: it holds no spade at all.
    game = new(3, [deck("KS 2C 3C 4C 5C", "QS 2H 3H 4H 5H", "6D 2D 3D 4D 5D")])
    play(game, "KS QS 6D")
    spades = sum(1 << parse_card(f"{r}S") for r in "23456789TJQKA")
    for seed in range(60):
        other = game.determinize(0, random.Random(seed))
        assert not other.hands[1] >> parse_card("AS") & 1
        assert not other.hands[2] & spades
        assert [h.bit_count() for h in other.hands] == [4, 4, 4]
        assert sum(h.bit_count() for h in other.hands) + other.undealt.bit_count() == 52 - 3
    # what a seat showed is public and carried into a determinized world's later play
    assert game.determinize(1, random.Random(1)).barred == game.barred


# --- refusals and notation ----------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game = new(4, [deck("8C AH KH QH JH", "5C JC AD 7H 8H", "9C QC 3C 9H TH", "TC 2C 2S 3S 4S")])
    play(game, "8C")
    before = [game.view(s) for s in range(4)]
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(2, parse_card("QC"))
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.apply(1, parse_card("AS"))
    with pytest.raises(IllegalActionError, match="beat 8C"):
        game.apply(1, parse_card("5C"))
    with pytest.raises(IllegalActionError, match="beat 8C"):
        game.apply(1, parse_card("AD"))
    with pytest.raises(IllegalActionError):
        game.apply(1, ACCEPT)  # there is nothing to answer
    assert [game.view(s) for s in range(4)] == before
    play(game, "better")
    asked = [game.view(s) for s in range(4)]
    with pytest.raises(IllegalActionError, match="accept or refuse"):
        game.apply(2, parse_card("QC"))
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(1, parse_card("JC"))
    assert [game.view(s) for s in range(4)] == asked


def test_notation_round_trips_and_rejects_what_is_not_an_action() -> None:
    game = new(2)
    for text in ("better", "accept", "refuse", "JC", "TH", "2S"):
        assert game.notation(game.parse(text)) == text
    assert game.parse(" Better ") == BETTER
    assert game.parse("10h") == parse_card("TH")
    for text in ("JK", "", "pass", "QX", "bättre"):
        with pytest.raises(NotationError):
            game.parse(text)


def test_bad_options_are_refused() -> None:
    with pytest.raises(OptionError):
        SPEC.new(3, FemkortOptions(ante=0))
    with pytest.raises(OptionError):
        SPEC.new(3, FemkortOptions(target=0))
    with pytest.raises(OptionError):
        SPEC.new(3, FemkortOptions(match="last_standing", start_points=1, ante=2))
    with pytest.raises(OptionError):
        SPEC.new(11)
    with pytest.raises(OptionError):
        SPEC.new(1)


def test_presets_are_the_variants_of_the_spec() -> None:
    assert SPEC.preset("standard") == FemkortOptions()
    assert SPEC.preset("three_two").deal == "three_two"
    assert SPEC.preset("last_standing") == LAST_STANDING
    assert dataclasses.asdict(FemkortOptions()) == {
        "deal": "one_by_one",
        "ante": 1,
        "match": "pots",
        "target": 3,
        "start_points": 3,
    }


@pytest.mark.parametrize("players", range(2, 11))
def test_every_player_count_plays_a_whole_match(players: int) -> None:
    game = SPEC.new(players, rng=random.Random(players))
    rng = random.Random(players)
    while not game.is_over():
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    result = game.result()
    assert max(result.scores) == 3
    assert result.places.count(1) == 1


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_texts_speak_of_points_never_money(lang: str) -> None:
    text = (I18N / lang / "femkort.toml").read_text(encoding="utf-8").lower()
    tomllib.loads(text)
    for word in (
        "kronor",
        "kr",
        "pengar",
        "öre",
        "money",
        "dollars?",
        "chips?",
        "marker",
        "cents?",
    ):
        assert not re.search(rf"\b{word}\b", text), word
    assert not re.search("[$€£]", text)


# --- the computer players -----------------------------------------------------------------------


def test_rules_player_keeps_its_best_card_for_the_end() -> None:
    game = new(3, [deck("AS 2C 7H 3D 9C", "2H 3H 4H 5H 6H", "2D 4D 5D 6D 7D")])
    # seat 0 leads trick 1: its lowest card, never the ace
    assert code(choose(game, 0, "rules", random.Random(1))) == "2C"


def test_rules_player_wins_trick_four_cheaply_to_lead_its_ace() -> None:
    game = new(2, [deck("2S 3S 4S KH AD", "5S 6S 7S QH 2D")])
    play(game, "2S 5S 6S 3S 7S 4S")  # seat 1 wins tricks 1-3 and leads trick 4
    play(game, "QH")
    # KH wins trick 4 and seat 0 then leads AD: far better than keeping KH and following
    assert code(choose(game, 0, "rules", random.Random(1))) == "KH"


def test_rules_player_asks_for_better_cards_with_a_hopeless_hand_and_answers() -> None:
    game = new(
        6,
        [
            deck(
                *[" ".join(f"{r}{s}" for r in "23456") for s in "CDHS"],
                "7C 7D 7H 8C 8D".replace("8D", "8D"),
                "AS KS QS JS TS",
            )
        ],
    )
    assert game.notation(choose(game, 0, "rules", random.Random(1))) == "better"
    play(game, "better")
    # seats 1-4 have no card above an eight either: they accept; seat 5 holds the top spades
    for seat in range(1, 5):
        assert game.to_act() == {seat}
        play(game, game.notation(choose(game, seat, "rules", random.Random(1))))
    assert game.to_act() == {5}
    assert game.notation(choose(game, 5, "rules", random.Random(1))) == "refuse"


def test_rules_player_beats_random_players_on_the_same_deals() -> None:
    won = {"rules": 0, "random": 0}
    for kind in won:
        for seed in range(10):
            for seat in range(4):
                game = SPEC.new(4, rng=random.Random(seed))
                rng = random.Random(seed)
                while not game.is_over():
                    (acting,) = game.to_act()
                    player = kind if acting == seat else "random"
                    game.apply(acting, choose(game, acting, player, rng))
                won[kind] += game.result().places[seat] == 1
    assert won["rules"] >= won["random"] + 10, won


def test_a_turn_that_times_out_refuses_better_cards_and_plays_nothing_else() -> None:
    game = _fk5_game()
    assert game.timeout_action(1) is None  # a card: the computer player chooses it
    play(game, "better")
    assert game.timeout_action(2) == REFUSE
    assert game.timeout_action(3) is None  # not to act
