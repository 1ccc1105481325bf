"""Tvåmanswhist: the worked examples of rules/two-player.md §4.7, full-deal transcripts, the seed's
variants, the match modes, what each seat may see, and refusals.

Decks are written as the forehand's (non-dealer's) 13 cards, the dealer's 13 and the 26 stock cards
top first; ``deck`` interleaves the hands one card at a time, forehand first (D-GW-1). Scripts are
written by role, ``A`` = forehand and ``B`` = dealer: ``"B QD 3C"`` means B leads QD and A plays 3C.
"""

from __future__ import annotations

import dataclasses
import random
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.i18n import fill
from games.cards import Card, parse_card
from games.core import IllegalActionError, Msg, NotationError, OptionError, Pile, View
from games.tvamanswhist import SPEC, Tvamanswhist, TvamanswhistOptions

SEED = 0  # the first dealer drawn with this seed is seat 1, so seat 0 is the forehand
I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"


def deck(forehand: str, dealer: str, stock: str) -> list[str]:
    f, d, s = forehand.split(), dealer.split(), stock.split()
    assert (len(f), len(d), len(s)) == (13, 13, 26)
    return [c for pair in zip(f, d, strict=True) for c in pair] + s


def new(
    decks: list[list[str]], options: TvamanswhistOptions | None = None, seed: int = SEED
) -> Tvamanswhist:
    game = SPEC.new(2, options, rng=random.Random(seed), decks=decks)
    assert isinstance(game, Tvamanswhist)
    return game


def play(game: Tvamanswhist, script: str, a_seat: int = 0) -> None:
    """Play tricks written ``<leader role> <lead> <follow>``, separated by commas."""
    for trick in script.split(","):
        role, lead, follow = trick.split()
        leader = a_seat if role == "A" else 1 - a_seat
        game.apply(leader, game.parse(lead))
        game.apply(1 - leader, game.parse(follow))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(Card.parse(c) for c in text.split()))


def pile(view: View, key: str, seat: int | None = None) -> Pile:
    return next(p for p in view.piles if p.key == key and p.seat == seat)


def events(view: View, key: str) -> list[Msg]:
    return [m for m in view.events if m.key == key]


def mentions(view: View, code: str) -> bool:
    """Whether a card appears anywhere in the view other than the viewer's own hand."""
    msgs = [view.phase, *view.events, *view.notes, *(n for s in view.seats for n in s.notes)]
    in_msgs = any(code in str(v).split() for m in msgs for _, v in m.args)
    visible = [c for s in view.seats for c in s.shown]
    visible += [c for p in view.piles for c in p.cards] + [c for _, c in view.trick]
    return in_msgs or Card.parse(code) in visible


# --- the deals ------------------------------------------------------------------------------------

# A holds the clubs, B the diamonds; trumps spades. A wins tricks 1-10 leading clubs, B trumps
# trick 11 and wins 12-13 with diamonds; A takes 8 of the last 13.
MAIN = deck(
    "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
    "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "AS 2S KS TS QS 9S JS 8S AH 7S KH 6S QH 5S JH 4S TH 3S 9H 5H 4H 8H 3H 7H 2H 6H",
)
MAIN_PHASE_1 = (
    "A AC 2D, A KC 3D, A QC 4D, A JC 5D, A TC 6D, A 9C 7D, A 8C 8D, A 7C 9D, A 6C TD, A 5C JD,"
    " A 4C 2S, B QD 3C, B KD 2C"
)
MAIN_PHASE_2 = (
    "B AD JS, A AS 3S, A KS 4S, A QS 5S, A AH 2H, A KH 3H, A QH 4H, A JH 5H, A TH 6S,"
    " B 7S 6H, B 8S 7H, B 9S 8H, B TS 9H"
)
MAIN_SCRIPT = MAIN_PHASE_1 + "," + MAIN_PHASE_2

# A wins 5 of tricks 1-13 (the club tricks), B 8 (the diamond tricks and A's void in clubs).
SPLIT = deck(
    "AC KC QC JC TC 2D 3D 4D 5D 6D 7D 8D 9D",
    "2C 3C 4C 5C 6C 7C 8C 9C AD KD QD JD TD",
    "KS AS QS 7S JS 6S TS 5S 9S 4S 3S 8S 2S TH AH 9H KH 8H QH 7H JH 6H 3H 5H 2H 4H",
)
SPLIT_START = (
    "A AC 2C, A KC 3C, A QC 4C, A JC 5C, A TC 6C, A 2D TD, B AD 3D, B KD 4D, B QD 5D, B JD 6D,"
    " B 7C 7D, B 8C 8D, B 9C 9D,"
    " B AH 4H, B KH 5H, B QH 6H, B JH 7H, B 2S 8S, A 9S 3S, A TS 4S, A JS 5S, A QS 6S,"
)
SPLIT_8_5 = SPLIT_START + "A KS 7S, A 8H 2H, A 9H 3H, A TH AS"  # B takes trick 26 with AS
SPLIT_7_6 = SPLIT_START + "A KS AS, B 2H 8H, A 9H 3H, A TH 7S"


def finished(script: str, base: list[str], options: TvamanswhistOptions) -> Tvamanswhist:
    game = new([base], options)
    play(game, script)
    assert game.is_over()
    return game


# --- worked examples ------------------------------------------------------------------------------

GW1_STOCK = "7D 3S 2S KD QD JD TD 9D 8D 6D 5D 4D 3D 2D AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"


def test_gw_1_follow_suit_and_the_draw() -> None:
    game = new(
        [
            deck(
                "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2H",
                "2C AD AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
                GW1_STOCK,
            )
        ]
    )
    start = game.view(None)
    assert start.dealer == 1
    assert start.trump == parse_card("7D") // 13
    assert pile(start, "table.pile.stock").cards == cards("7D")
    game.apply(0, game.parse("KC"))
    assert game.legal_actions(1) == [parse_card("2C")]
    game.apply(1, game.parse("2C"))
    # the leader wins, takes the turned-up 7D in full view; the dealer takes 3S unseen
    spectator = game.view(None)
    assert spectator.to_act == {0}
    assert spectator.seats[0].shown == cards("7D")
    assert spectator.seats[1].shown == ()
    assert Card.parse("7D") in game.view(0).hand
    assert Card.parse("3S") in game.view(1).hand
    assert not mentions(game.view(0), "3S")
    assert not mentions(spectator, "3S")
    assert game.view(1).notes == (Msg.of("tvamanswhist.note.you_drew", card="3S"),)
    assert events(game.view(1), "tvamanswhist.note.you_drew") == [
        Msg.of("tvamanswhist.note.you_drew", card="3S")
    ]
    assert events(spectator, "tvamanswhist.event.drew_unseen") == [
        Msg.of("tvamanswhist.event.drew_unseen", seat=1)
    ]
    assert pile(spectator, "table.pile.stock") == Pile("table.pile.stock", cards("2S"), 23)


def test_gw_1_a_void_follower_may_trump_or_discard() -> None:
    game = new(
        [
            deck(
                "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
                "2H AD AS KS QS JS TS 9S 8S 7S 6S 5S 4S",
                GW1_STOCK,
            )
        ]
    )
    game.apply(0, game.parse("KC"))
    assert len(game.legal_actions(1)) == 13
    trumped = game.clone()
    trumped.apply(1, game.parse("AD"))
    assert trumped.view(None).to_act == {1}
    assert trumped.view(None).seats[1].shown == cards("7D")
    game.apply(1, game.parse("AS"))
    assert game.view(None).to_act == {0}


def test_gw_2_only_the_last_thirteen_tricks_count() -> None:
    game = finished(SPLIT_7_6, SPLIT, TvamanswhistOptions())
    spectator = game.view(None)
    # only tricks 14-26 count, and the seats show those (B took 8 of tricks 1-13)
    assert [s.tricks for s in spectator.seats] == [7, 6]
    assert game.result().scores == (7, 6)
    assert game.result().places == (1, 2)
    assert events(spectator, "tvamanswhist.event.deal_won") == [
        Msg.of("tvamanswhist.event.deal_won", seat=0, won=7, lost=6)
    ]
    assert events(spectator, "tvamanswhist.event.match_won") == [
        Msg.of("tvamanswhist.event.match_won", seat=0)
    ]


def test_gw_3_all26_tie_goes_to_the_winner_of_the_last_trick() -> None:
    game = finished(SPLIT_8_5, SPLIT, TvamanswhistOptions(scoring="all26"))
    assert game.result().scores == (13, 13)
    assert game.result().places == (2, 1)
    assert events(game.view(None), "tvamanswhist.event.deal_won_last_trick") == [
        Msg.of("tvamanswhist.event.deal_won_last_trick", seat=1, won=13, lost=13)
    ]
    # the same deal under the main rule: A wins 8-5
    assert finished(SPLIT_8_5, SPLIT, TvamanswhistOptions()).result().scores == (8, 5)


def test_gw_4_points_one_for_early_tricks_two_for_late() -> None:
    game = finished(SPLIT_8_5, SPLIT, TvamanswhistOptions(scoring="points"))
    assert game.result().scores == (21, 18)
    assert game.result().places == (1, 2)
    assert events(game.view(None), "tvamanswhist.event.deal_won_points") == [
        Msg.of("tvamanswhist.event.deal_won_points", seat=0, won=21, lost=18)
    ]


V3 = TvamanswhistOptions(first_half="no_trump_free")


def test_gw_5_v3_first_half_has_no_trumps_and_no_duty_to_follow() -> None:
    game = new(
        [
            deck(
                "2H AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C",
                "3H AS KS QS JS TS 9S 8S 7S 6S 5S 4S 2C",
                "7D 3S 2S AD KD QD JD TD 9D 8D 6D 5D 4D 3D 2D AH KH QH JH TH 9H 8H 7H 6H 5H 4H",
            )
        ],
        V3,
    )
    start = game.view(None)
    assert start.trump is None  # no trumps before the stock is empty
    assert pile(start, "tvamanswhist.pile.trump_card").cards == cards("7D")
    assert pile(start, "table.pile.stock") == Pile("table.pile.stock", cards("3S"), 24)
    game.apply(0, game.parse("2H"))
    assert len(game.legal_actions(1)) == 13  # may keep the 3H back
    discard = game.clone()
    discard.apply(1, game.parse("AS"))
    assert discard.view(None).to_act == {0}  # an off-suit card never wins: the leader does
    assert discard.view(None).seats[0].shown == cards("3S")
    game.apply(1, game.parse("3H"))
    assert game.view(None).to_act == {1}


def _v3_void_in_phase_two(hearts_for_a: str, clubs_for_b: str) -> Tvamanswhist:
    """A leads all diamonds and wins every drawing trick (B discards spades): A ends with the odd
    stock cards, B with the even ones and the clubs indicator. Trumps: clubs."""
    a, b = hearts_for_a.split(), clubs_for_b.split()
    rest = [x for pair in zip(a, [*b, ""], strict=True) for x in pair if x]
    game = new(
        [
            deck(
                "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
                "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
                "AC " + " ".join(rest),
            )
        ],
        V3,
    )
    play(
        game,
        ", ".join(f"A {d}D {s}S" for d, s in zip("AKQJT98765432", "AKQJT98765432", strict=True)),
    )
    spectator = game.view(None)
    assert spectator.phase.key == "tvamanswhist.phase.counting"
    assert spectator.trump == parse_card("AC") // 13
    assert Card.parse("AC") in spectator.seats[1].shown  # the indicator is taken in full view
    return game


def test_gw_5_v3_second_half_has_trumps_and_following_suit() -> None:
    game = _v3_void_in_phase_two(
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"
    )
    game.apply(0, game.parse("2H"))
    assert len(game.legal_actions(1)) == 13
    game.apply(1, game.parse("2C"))
    assert game.view(None).to_act == {1}  # the follower's trump wins

    holder = _v3_void_in_phase_two(
        "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 2C 2H", "KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 3H"
    )
    holder.apply(0, holder.parse("2H"))
    assert holder.legal_actions(1) == [parse_card("3H")]
    with pytest.raises(IllegalActionError, match="follow suit"):
        holder.apply(1, holder.parse("3C"))


# --- transcripts ----------------------------------------------------------------------------------


def test_transcript_full_deal_main_rule() -> None:
    game = new([MAIN])
    play(game, MAIN_PHASE_1)
    spectator = game.view(None)
    assert spectator.phase == Msg.of("tvamanswhist.phase.counting", trick=14)
    assert spectator.to_act == {1}  # B won trick 13 and leads trick 14
    assert [s.tricks for s in spectator.seats] == [0, 0]  # drawing tricks count nothing
    assert [s.score for s in spectator.seats] == [0, 0]
    assert spectator.seats[0].shown == cards("AS KS QS JS AH KH QH JH TH 9H")
    assert spectator.seats[1].shown == cards("4H 3H 2H")
    assert not any(p.key == "table.pile.stock" for p in spectator.piles)
    assert events(spectator, "tvamanswhist.event.counting_started") == [
        Msg.of("tvamanswhist.event.counting_started", seat=1)
    ]
    assert game.view(1).hand == cards("AD TS 9S 8S 7S 6S 5S 4S 3S 5H 4H 3H 2H")
    play(game, MAIN_PHASE_2)
    assert game.is_over()
    assert game.to_act() == frozenset()
    assert game.result().scores == (8, 5)
    assert game.result().places == (1, 2)
    end = game.view(None)
    assert end.phase == Msg.of("table.phase.over")
    assert pile(end, "table.pile.last_trick", 1).cards == (Card.parse("TS"), Card.parse("9H"))
    assert pile(end, "table.pile.won_tricks", 0).hidden == 2 * 18
    assert pile(end, "table.pile.won_tricks", 1).hidden == 2 * 8 - 2
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(0, game.parse("2C"))


def test_transcript_variants_score_the_same_deal_differently() -> None:
    all26, points = TvamanswhistOptions(scoring="all26"), TvamanswhistOptions(scoring="points")
    for base, script, options, scores, places in (
        (MAIN, MAIN_SCRIPT, all26, (18, 8), (1, 2)),
        (MAIN, MAIN_SCRIPT, points, (26, 13), (1, 2)),
        (SPLIT, SPLIT_7_6, all26, (12, 14), (2, 1)),
        (SPLIT, SPLIT_7_6, points, (19, 20), (2, 1)),
    ):
        result = finished(script, base, options).result()
        assert (result.scores, result.places) == (scores, places)


def test_transcript_v3_full_deal() -> None:
    game = new([MAIN], V3)
    assert pile(game.view(None), "table.pile.stock").cards == cards("2S")
    # no trumps and no duty: A leads clubs, B throws diamonds, the leader wins every time
    play(game, ", ".join(f"A {r}C {r}D" for r in "AKQJT98765432"))
    spectator = game.view(None)
    assert [s.tricks for s in spectator.seats] == [0, 0]  # only tricks 14-26 count
    assert spectator.trump == parse_card("AS") // 13
    assert spectator.seats[1].shown == cards("AS")  # the last draw is the indicator, in view
    assert game.view(1).hand == cards("KS QS JS AH KH QH JH TH 9H 4H 3H 2H AS")
    assert spectator.seats[0].shown == cards("2S TS 9S 8S 7S 6S 5S 4S 3S 5H 8H 7H 6H")
    play(
        game,
        "A 5H 2H, A 6H 3H, A 7H 4H, A 8H 9H, B AH 2S, A 3S JS, B KH 4S, A 5S QS, B QH 6S,"
        " A 7S KS, B JH 8S, A 9S AS, B TH TS",
    )
    assert game.result().scores == (8, 5)


def test_transcript_best_of_three_deals_alternates_the_dealer() -> None:
    options = TvamanswhistOptions(match="best_of")
    game = new([MAIN, MAIN, MAIN], options)
    play(game, MAIN_SCRIPT, a_seat=0)
    second = game.view(None)
    assert (second.deal, second.dealer) == (2, 0)
    assert [s.score for s in second.seats] == [1, 0]
    assert second.to_act == {1}  # the new forehand leads
    assert events(second, "tvamanswhist.event.deals_won")[-1] == Msg.of(
        "tvamanswhist.event.deals_won", seat=0, deals=1
    )
    assert not any(p.key == "table.pile.last_trick" for p in second.piles)
    play(game, MAIN_SCRIPT, a_seat=1)
    assert not game.is_over()
    assert [s.score for s in game.view(None).seats] == [1, 1]
    play(game, MAIN_SCRIPT, a_seat=0)
    assert game.is_over()
    assert game.result().scores == (2, 1)
    assert game.result().places == (1, 2)


def test_transcript_cumulative_scores_the_difference() -> None:
    game = new([MAIN, MAIN, MAIN], TvamanswhistOptions(match="cumulative", target=5))
    play(game, MAIN_SCRIPT, a_seat=0)
    assert events(game.view(None), "tvamanswhist.event.scored")[-1] == Msg.of(
        "tvamanswhist.event.scored", seat=0, points=3, total=3
    )
    assert game.view(None).seats[0].notes == (Msg.of("tvamanswhist.note.deal_count", count=0),)
    play(game, MAIN_SCRIPT, a_seat=1)
    play(game, MAIN_SCRIPT, a_seat=0)
    assert game.result().scores == (6, 3)
    assert game.result().places == (1, 2)


def test_cumulative_tie_on_all26_scores_one() -> None:
    options = TvamanswhistOptions(scoring="all26", match="cumulative", target=1)
    game = finished(SPLIT_8_5, SPLIT, options)
    assert game.result().scores == (0, 1)


def test_later_deals_come_from_the_seed() -> None:
    options = TvamanswhistOptions(match="best_of")
    one, two = new([MAIN], options), new([MAIN], options)
    play(one, MAIN_SCRIPT)
    play(two, MAIN_SCRIPT)
    assert one.view(0).hand == two.view(0).hand
    assert one.view(0).hand != new([MAIN], options, seed=5).view(0).hand


# --- visibility -----------------------------------------------------------------------------------


def test_only_the_last_trick_lies_face_up() -> None:
    game = new([MAIN])
    play(game, "A AC 2D")
    view = game.view(None)
    assert pile(view, "table.pile.last_trick", 0).cards == (Card.parse("AC"), Card.parse("2D"))
    assert pile(view, "table.pile.won_tricks", 0).hidden == 0
    play(game, "A KC 3D")
    view = game.view(None)
    assert pile(view, "table.pile.last_trick", 0).cards == (Card.parse("KC"), Card.parse("3D"))
    assert pile(view, "table.pile.won_tricks", 0).hidden == 2
    assert not mentions(view, "AC")  # the first trick can no longer be reviewed


def test_a_card_drawn_in_view_stays_shown_until_played() -> None:
    game = new([MAIN])
    play(game, MAIN_PHASE_1 + ", B AD JS")
    assert Card.parse("AS") in game.view(1).seats[0].shown
    game.apply(0, game.parse("AS"))
    assert Card.parse("AS") not in game.view(1).seats[0].shown
    assert game.view(1).trick == ((0, Card.parse("AS")),)


def test_the_private_draw_note_lasts_until_the_next_trick() -> None:
    game = new([MAIN])
    play(game, "A AC 2D")
    assert game.view(1).notes == (Msg.of("tvamanswhist.note.you_drew", card="2S"),)
    assert game.view(0).notes == ()
    play(game, "A KC 3D")
    assert game.view(1).notes == (Msg.of("tvamanswhist.note.you_drew", card="TS"),)


# --- determinize ----------------------------------------------------------------------------------

VOID_DECK = deck(
    "AC KC QC JC TC 9C 8C 2D 3D 4D 5D 6D 7D",
    "8D 9D TD JD QD KD AD 2H 3H 4H 5H 6H 7H",
    "AS 2C KS 7C QS 6C JS 5C TS 4C 9S 3C 8S 8H 7S 9H 6S TH 5S JH 4S QH 3S KH 2S AH",
)


def test_determinize_keeps_what_was_seen_and_respects_a_shown_void() -> None:
    game = new([VOID_DECK])
    play(game, "A AC 8D, A 2D 9D")  # B shows out of clubs, then wins KS in view
    assert game.view(0).seats[1].shown == cards("KS")
    rng = random.Random(7)
    club_counts = set()
    for _ in range(60):
        other = game.determinize(0, rng)
        opp = other.view(1).hand
        assert Card.parse("KS") in opp
        assert other.view(0) == game.view(0)
        # the 11 cards B held when it showed out are no clubs; the card drawn unseen may be one
        club_counts.add(sum(1 for c in opp if c.suit == 0))
    assert club_counts == {0, 1}
    # B's side: A's cards drawn in view stay put
    for _ in range(10):
        assert Card.parse("AS") in game.determinize(1, rng).view(0).hand


def test_determinize_draws_future_deals_from_the_given_rng() -> None:
    options = TvamanswhistOptions(match="best_of")
    game = new([MAIN, MAIN], options)
    play(game, MAIN_PHASE_1)
    a = game.determinize(0, random.Random(1))
    b = game.determinize(0, random.Random(1))
    for match in (game, a, b):
        play(match, MAIN_PHASE_2)
    # the real second deal is the given deck (seat 1 is now the forehand and gets the clubs)
    assert game.view(1).hand == cards("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C")
    assert a.view(1).hand == b.view(1).hand
    assert a.view(1).hand != game.view(1).hand


# --- refusals and notation ------------------------------------------------------------------------


def test_refusals_change_nothing() -> None:
    game = new([MAIN])
    before = [game.view(s) for s in (0, 1, None)]
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(1, game.parse("AD"))
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.apply(0, game.parse("AD"))
    assert [game.view(s) for s in (0, 1, None)] == before
    game.apply(0, game.parse("AC"))
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(0, game.parse("KC"))
    game.apply(1, game.parse("2D"))
    play(game, "A KC 3D, A QC 4D, A JC 5D, A TC 6D, A 9C 7D, A 8C 8D, A 7C 9D, A 6C TD, A 5C JD")
    play(game, "A 4C 2S, B QD 3C, B KD 2C")
    game.apply(1, game.parse("5H"))
    held = [game.view(s) for s in (0, 1, None)]
    with pytest.raises(IllegalActionError, match="follow suit: play one of your hearts"):
        game.apply(0, game.parse("AS"))
    assert [game.view(s) for s in (0, 1, None)] == held


def test_notation() -> None:
    game = new([MAIN])
    assert game.parse(" qs ") == parse_card("QS")
    assert game.parse("10h") == parse_card("TH")
    assert game.notation(parse_card("TH")) == "TH"
    for bad in ("", "play", "1S", "QX", "draw 3"):
        with pytest.raises(NotationError):
            game.parse(bad)


# --- options --------------------------------------------------------------------------------------


def test_presets_are_the_seed_variants() -> None:
    assert SPEC.preset("standard") == TvamanswhistOptions()
    assert SPEC.preset("all26").scoring == "all26"
    assert SPEC.preset("points").scoring == "points"
    assert SPEC.preset("no_trump_free").first_half == "no_trump_free"
    assert dataclasses.replace(SPEC.preset("no_trump_free"), first_half="normal") == (
        TvamanswhistOptions()
    )


def test_bad_options_and_player_counts_are_refused() -> None:
    with pytest.raises(OptionError):
        SPEC.new(2, TvamanswhistOptions(match="best_of", target=-1))
    with pytest.raises(OptionError):
        SPEC.new(3)


# --- texts ----------------------------------------------------------------------------------------


def _catalog(lang: str) -> dict[str, str]:
    flat: dict[str, str] = {}

    def walk(prefix: str, table: dict[str, object]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(f"{prefix}.{key}", value)
            else:
                flat[f"{prefix}.{key}"] = str(value)

    for stem in ("table", "tvamanswhist"):
        with (I18N / lang / f"{stem}.toml").open("rb") as f:
            walk(stem, tomllib.load(f))
    return flat


def _messages(game: Tvamanswhist, rng: random.Random) -> Iterator[Msg]:
    while True:
        for seat in (0, 1, None):
            view = game.view(seat)
            yield view.phase
            yield from view.events
            yield from view.notes
            for s in view.seats:
                yield from s.notes
            for p in view.piles:
                yield Msg(p.key)
        if game.is_over():
            return
        seat = next(iter(game.to_act()))
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])


def test_catalogs_match_and_cover_every_message() -> None:
    sv, en = _catalog("sv"), _catalog("en")
    assert sv.keys() == en.keys()
    assert all(sv[f"tvamanswhist.rules.{s}"] for s in ("deck", "deal", "play", "scoring"))
    assert "tvamanswhist.action.play" in sv
    games = [
        finished(SPLIT_8_5, SPLIT, TvamanswhistOptions(scoring="all26")),
        SPEC.new(2, TvamanswhistOptions(match="best_of"), rng=random.Random(3)),
        SPEC.new(
            2, TvamanswhistOptions(match="cumulative", scoring="points"), rng=random.Random(4)
        ),
        SPEC.new(2, V3, rng=random.Random(5)),
    ]
    seen: set[str] = set()
    for game in games:
        assert isinstance(game, Tvamanswhist)
        for msg in _messages(game, random.Random(1)):
            for catalog in (sv, en):
                fill(catalog[msg.key], dict(msg.args), strict=True)
            seen.add(msg.key)
    emitted = {k for k in seen if k.startswith("tvamanswhist.")}
    assert emitted == {
        k
        for k in sv
        if k.startswith("tvamanswhist.")
        and not any(f".{part}." in k for part in ("rules", "action", "option", "choice", "variant"))
    }
