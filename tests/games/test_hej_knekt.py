"""Hej knekt (rules/party.md §1): the worked examples HK-1..HK-9, transcripts, the early close of
the reaction window, the variants and the refusals.

Seats 0..3 are the spec's P1..P4; seat 0 is förhand and turns first. Times are ms after the reveal.
"""

from __future__ import annotations

import dataclasses
import random
import tomllib
from pathlib import Path

import pytest

from bot.i18n import catalog as load_catalog
from bot.i18n import fill
from bot.render.text import TextRenderer
from games.cards import code, make_deck, parse_card, randbelow
from games.core import (
    Game,
    IllegalActionError,
    Msg,
    NotationError,
    OptionError,
    View,
    apply_option_text,
)
from games.hej_knekt import (
    CLOSE,
    SPEC,
    TURN,
    VERBS,
    HejKnekt,
    HejKnektOptions,
    deck_for,
    position,
    timed,
)

I18N = Path(__file__).resolve().parents[2] / "bot" / "i18n"
WHISTLE, HEJ, GODDAG, SALUTE, SLAP = range(5)


# --- helpers --------------------------------------------------------------------------------------


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def deal(players: int, tops: list[str], options: HejKnektOptions | None = None) -> HejKnekt:
    """A match whose deck starts with ``tops`` (top first: seat k % n gets card k), the other
    cards following in a fixed order."""
    first = [parse_card(c) for c in tops]
    rest = [c for c in deck_for(players) if c not in first]
    deck = [code(c) for c in first + rest]
    game = SPEC.new(players, options, rng=random.Random(seat0_first(players)), decks=[deck])
    assert isinstance(game, HejKnekt)
    return game


def seat0_first(players: int) -> int:
    """A seed whose dealer (the game's first random draw) is the last seat, so seat 0 is förhand."""
    return next(s for s in range(100) if randbelow(random.Random(s), players) == players - 1)


def at(
    piles: list[str], center: str, turner: int, options: HejKnektOptions | None = None
) -> HejKnekt:
    """A match at a position: each pile as codes top first, the centre in play order."""
    return position([cards(p) for p in piles], cards(center), turner, options)


def play(game: Game, transcript: list[tuple[int, str]]) -> None:
    for seat, text in transcript:
        game.apply(seat, game.parse(text))


def views(game: Game) -> list[View]:
    return [game.view(s) for s in range(game.players)] + [game.view(None)]


def center(game: Game) -> str:
    return " ".join(str(c) for c in game.view(None).piles[0].cards)


def sizes(game: Game) -> list[int]:
    return [s.cards for s in game.view(None).seats]


def events(game: Game, last: int) -> list[Msg]:
    return list(game.view(None).events[-last:])


def ev(key: str, **args: int | str) -> Msg:
    return Msg.of(f"hej_knekt.event.{key}", **args)


def turner(game: Game) -> int:
    phase = game.view(None).phase
    assert phase.key == "hej_knekt.phase.turn"
    seat = phase.arg("seat")
    assert isinstance(seat, int)
    assert game.to_act() == {seat}
    assert game.legal_actions(seat) == [TURN]
    return seat


def refused(game: Game, seat: int, text: str) -> None:
    before = views(game)
    with pytest.raises(IllegalActionError):
        game.apply(seat, game.parse(text))
    assert views(game) == before


# --- HK-1..HK-9 -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "total", "each", "absent"),
    [(3, 51, 17, "2C"), (4, 52, 13, ""), (5, 50, 10, "2C 2D"), (6, 48, 8, "2C 2D 2H 2S")],
)
def test_hk1_deck_sizes(players: int, total: int, each: int, absent: str) -> None:
    game = SPEC.new(players, rng=random.Random(1))
    assert sizes(game) == [each] * players
    assert sum(sizes(game)) == total
    assert {code(c) for c in make_deck()} - {code(c) for c in deck_for(players)} == set(
        absent.split()
    )
    # A deck holding a removed 2 is not this game's deck.
    if absent:
        with pytest.raises(ValueError, match="exactly"):
            SPEC.new(players, decks=[[code(c) for c in make_deck()][:total]])


def test_the_dealer_is_drawn_and_forhand_on_the_left_turns_first() -> None:
    # §0.2 / D1: the dealer is random, förhand is the dealer's left, the deal starts with förhand
    deck = [code(c) for c in deck_for(4)]
    dealers = set()
    for seed in range(12):
        game = SPEC.new(4, rng=random.Random(seed), decks=[deck])
        dealer = game.view(None).dealer
        assert dealer is not None
        forhand = (dealer + 1) % 4
        assert game.to_act() == {forhand}
        play(game, [(forhand, "turn")])
        assert center(game) == deck[0]
        dealers.add(dealer)
    assert dealers == {0, 1, 2, 3}


def test_hk2_the_slowest_of_the_clean_presses_loses() -> None:
    game = deal(4, ["5C", "JD", "3S", "4S"])
    play(game, [(0, "turn"), (1, "turn")])
    assert center(game) == "5C JD"
    assert game.view(None).phase == Msg.of(
        "hej_knekt.phase.reveal", seat=1, card="JD", window_ms=5000
    )
    assert game.to_act() == {0, 1, 2, 3}  # the turner reacts too (D2)
    play(game, [(2, "hej 540"), (0, "hej 610")])
    assert game.to_act() == {1, 3}
    play(game, [(1, "hej 880")])
    # All but P4 have clean correct presses: the window closes at once and P4 picks up.
    assert events(game, 5) == [
        ev("reaction", seat=2, ms=540),
        ev("reaction", seat=0, ms=610),
        ev("reaction", seat=1, ms=880),
        ev("reaction_none", seat=3),
        ev("pickup", seat=3, count=2),
    ]
    assert center(game) == ""
    assert sizes(game) == [12, 12, 13, 15]
    assert turner(game) == 3
    play(game, [(3, "turn")])
    assert center(game) == "4S"  # P4's own top card, the picked-up ones went under


def test_hk3_a_wrong_press_costs_the_penalty() -> None:
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 600"), (0, "salute 820"), (2, "salute 950"), (1, "salute 1100")])
    # All but P4 did it, but P3 counts only from 1600: P4 may still come in before that.
    assert game.to_act() == {3}
    assert dict(game.view(None).phase.args)["decided_ms"] == 1600
    play(game, [(3, "salute 1400")])
    # Effective times: P1 820, P2 1100, P4 1400, P3 max(950, 600 + 1000) = 1600: P3 picks up.
    assert events(game, 5) == [
        ev("reaction", seat=0, ms=820),
        ev("reaction", seat=1, ms=1100),
        ev("reaction", seat=3, ms=1400),
        ev("reaction_corrected", seat=2, ms=950, wrong=1, buttons="whistle", counted_ms=1600),
        ev("pickup", seat=2, count=2),
    ]
    assert turner(game) == 2


def test_hk3b_a_corrected_press_that_is_still_not_the_last() -> None:
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (2, "salute 600"), (0, "salute 820"), (1, "salute 1100")])
    # All but P4 did it, but P3's press counts only from 1200: P4 may still come in before it.
    assert game.to_act() == {3}
    assert dict(game.view(None).phase.args)["decided_ms"] == 1200
    play(game, [(3, "salute 1400")])
    # Effective times: P3 1200, P1 820, P2 1100, P4 1400: P4 did the right thing last.
    assert events(game, 5) == [
        ev("reaction", seat=0, ms=820),
        ev("reaction", seat=1, ms=1100),
        ev("reaction_corrected", seat=2, ms=600, wrong=1, buttons="whistle", counted_ms=1200),
        ev("reaction", seat=3, ms=1400),
        ev("pickup", seat=3, count=2),
    ]
    assert turner(game) == 3


def test_hk3b_under_corrected_last_the_corrected_press_picks_up() -> None:
    game = deal(4, ["5C", "KH"], HejKnektOptions(corrected_last=True))
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (2, "salute 600"), (0, "salute 820"), (1, "salute 1100")])
    assert game.to_act() == {3}  # P3 is not clean, so the window waits for P4
    assert "decided_ms" not in dict(game.view(None).phase.args)
    play(game, [(3, "salute 1400")])
    assert events(game, 1) == [ev("pickup", seat=2, count=2)]


def test_the_early_close_waits_for_a_pending_penalty_and_no_longer() -> None:
    # P3 corrected at 600 after a slip at 200: counts as 1200. P4 comes in at 1150: still in time.
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (2, "salute 600"), (0, "salute 820"), (1, "salute 1100")])
    play(game, [(3, "salute 1150")])
    assert events(game, 1) == [ev("pickup", seat=2, count=2)]
    # The same, but P4 presses the wrong button at 1300: past 1200, P4 is certainly last.
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (2, "salute 600"), (0, "salute 820"), (1, "salute 1100")])
    play(game, [(3, "slap 1300")])
    assert events(game, 1) == [ev("pickup", seat=3, count=2)]
    # With no penalty pending the window closes at the third correct press (HK-2 style).
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (0, "salute 820"), (2, "salute 1250"), (1, "salute 1300")])
    assert events(game, 1) == [ev("pickup", seat=3, count=2)]


def test_the_window_closes_at_once_when_the_last_players_own_slip_makes_them_last() -> None:
    # P4 slipped at 300, so P4's correct press can count no earlier than 1300; P3 counts from
    # 1200 and the others are in: P4 is certainly last once P2 presses, with no wait for 1200.
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (3, "whistle 300"), (2, "salute 600"), (0, "salute 820")])
    play(game, [(1, "salute 1100")])
    assert events(game, 1) == [ev("pickup", seat=3, count=2)]
    assert turner(game) == 3
    # A slip at 150 can count from 1150, before P3's 1200: P4 may still beat P3, so wait.
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(3, "whistle 150"), (2, "whistle 200"), (2, "salute 600"), (0, "salute 820")])
    play(game, [(1, "salute 1100")])
    assert game.to_act() == {3}
    assert dict(game.view(None).phase.args)["decided_ms"] == 1200
    play(game, [(3, "salute 1160")])
    assert events(game, 1) == [ev("pickup", seat=2, count=2)]


def test_under_corrected_last_a_slip_by_the_last_player_closes_the_window_at_once() -> None:
    # P3 corrected, so the window waits for P4 (HK-3b); but P4 has slipped too: whenever P4
    # corrects, it is a corrected press after P3's, and never correcting is slower still.
    game = deal(4, ["5C", "KH"], HejKnektOptions(corrected_last=True))
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (3, "slap 300"), (2, "salute 600"), (0, "salute 820")])
    play(game, [(1, "salute 1100")])
    assert events(game, 1) == [ev("pickup", seat=3, count=2)]


def test_the_penalty_is_an_option() -> None:
    game = deal(4, ["5C", "KH"], HejKnektOptions(wrong_press_penalty_ms=100))
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 600"), (0, "salute 820"), (2, "salute 950"), (1, "salute 1100")])
    # P3 counts as max(950, 700) = 950, already past: P4 is certainly last.
    assert events(game, 1) == [ev("pickup", seat=3, count=2)]


def test_hk4_failing_without_pressing_is_worse_and_ties_go_to_the_turner_first() -> None:
    game = deal(4, ["AC"])
    play(game, [(0, "turn"), (2, "whistle 400"), (1, "slap 700")])
    assert game.to_act() == {0, 2, 3}
    play(game, [(3, "close 5000")])  # the timer ran out
    assert events(game, 5) == [
        ev("reaction", seat=1, ms=700),
        ev("reaction_wrong", seat=2, wrong=1, buttons="whistle"),
        ev("reaction_none", seat=0),
        ev("reaction_none", seat=3),
        ev("pickup", seat=0, count=1),
    ]
    assert turner(game) == 0


def test_hk4_the_no_press_tie_counts_clockwise_from_the_turner() -> None:
    game = deal(4, ["5C", "6C", "KS"])
    play(game, [(0, "turn"), (1, "turn"), (2, "turn"), (2, "salute 300"), (3, "salute 400")])
    play(game, [(0, "close 5000")])
    # P1 and P2 pressed nothing; counting from the turner P3: P3, P4, P1, P2, so P1 picks up.
    assert events(game, 1) == [ev("pickup", seat=0, count=3)]
    assert turner(game) == 0


def test_hk5_finishing_on_a_low_card_ends_the_match() -> None:
    rest = [code(c) for c in deck_for(4) if code(c) != "8C"]
    game = at([" ".join(rest[:9]), " ".join(rest[9:13]), "8C", " ".join(rest[13:22])], "", 2)
    play(game, [(2, "turn")])
    assert game.is_over()
    assert game.to_act() == frozenset()
    assert events(game, 2) == [ev("turned", seat=2, card="8C"), ev("finished", seat=2, place=1)]
    result = game.result()
    assert result.places == (3, 2, 1, 3)
    assert result.scores == (-9, -4, 0, -9)


def hk6_position() -> HejKnekt:
    return at(["2C 3C 4C 5C 6C", "2D 3D 4D 6D 7D", "QS", "2H 3H 4H 5H 6H 7H"], "5D 9C", 2)


def test_hk6_last_card_is_a_trigger_and_someone_else_is_slower() -> None:
    game = hk6_position()
    play(game, [(2, "turn")])
    assert not game.is_over()  # D4: not finished while the reaction is pending
    assert sizes(game)[2] == 0
    play(game, [(2, "goddag 500"), (0, "goddag 650"), (3, "goddag 700")])
    assert events(game, 3) == [
        ev("reaction_none", seat=1),
        ev("pickup", seat=1, count=3),
        ev("finished", seat=2, place=1),
    ]
    assert game.is_over()
    assert sizes(game) == [5, 8, 0, 6]
    # P2's new cards count: P1 5, P4 6, P2 8.
    assert game.result().places == (2, 4, 1, 3)


def test_hk7_last_card_is_a_trigger_and_the_turner_is_slowest() -> None:
    game = hk6_position()
    play(game, [(2, "turn"), (0, "goddag 650"), (3, "goddag 700"), (1, "goddag 1200")])
    # Everyone but P3 was right at once: P3 is certainly last and picks up; the window is closed,
    # so P3's own press at 1900 comes too late.
    assert events(game, 1) == [ev("pickup", seat=2, count=3)]
    refused(game, 2, "goddag 1900")
    assert not game.is_over()
    assert sizes(game)[2] == 3
    assert turner(game) == 2
    play(game, [(2, "turn")])
    assert center(game) == "5D"


def test_hk8_picked_up_cards_go_under_the_pile_in_play_order() -> None:
    game = at(["9H 2C", "AC 3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H", "3C 4C 5C 6C 7C"], "4D 7S", 1)
    play(game, [(1, "turn"), (1, "slap 300"), (2, "slap 400"), (3, "slap 500")])
    assert events(game, 1) == [ev("pickup", seat=0, count=3)]
    turned_by_p1 = []
    for i in range(5):
        play(game, [(0, "turn")])
        turned_by_p1.append(center(game).split()[-1])
        if i < 4:
            play(game, [(1, "turn"), (2, "turn"), (3, "turn")])  # low cards in between
    assert turned_by_p1 == ["9H", "2C", "4D", "7S", "AC"]


def test_hk9_a_press_with_no_window_open_is_refused_and_changes_nothing() -> None:
    game = deal(4, ["5C", "JD"])
    refused(game, 2, "slap 100")  # before anything is turned
    play(game, [(0, "turn")])  # a 5: no window
    assert game.to_act() == {1}
    for seat in range(4):
        for verb in VERBS:
            refused(game, seat, f"{verb} 300")
    play(game, [(1, "turn"), (2, "hej 100"), (0, "hej 200"), (1, "hej 300")])
    # The window is closed: a late press (a stale panel) is refused with no effect.
    refused(game, 3, "hej 400")
    refused(game, 2, "slap 900")


# --- transcripts ----------------------------------------------------------------------------------


def test_transcript_opening_round() -> None:
    game = deal(3, ["4C", "7D", "TS", "QH", "9S", "3D"])
    play(
        game,
        [
            (0, "turn"),
            (1, "turn"),
            (2, "turn"),  # TS: whistle
            (0, "whistle 420"),
            (1, "goddag 500"),
            (2, "whistle 650"),
        ],
    )
    # P2 pressed wrong and never right: P2 picks up 4C 7D TS and turns next.
    assert events(game, 4) == [
        ev("reaction", seat=0, ms=420),
        ev("reaction", seat=2, ms=650),
        ev("reaction_wrong", seat=1, wrong=1, buttons="goddag"),
        ev("pickup", seat=1, count=3),
    ]
    assert sizes(game) == [16, 19, 16]
    play(game, [(1, "turn"), (2, "turn")])  # 9S, 3D: nothing happens
    play(game, [(0, "turn")])  # QH
    play(game, [(2, "goddag 300"), (1, "hej 310"), (1, "close 5000")])
    assert events(game, 4) == [
        ev("reaction", seat=2, ms=300),
        ev("reaction_wrong", seat=1, wrong=1, buttons="hej"),
        ev("reaction_none", seat=0),
        ev("pickup", seat=0, count=3),
    ]
    assert sizes(game) == [18, 18, 15]
    assert turner(game) == 0
    play(game, [(0, "turn")])
    assert center(game) == "3C"


def test_transcript_first_to_finish_wins_and_the_rest_rank_by_cards_left() -> None:
    # P1 holds 17 triggers, P2 14 low cards then 3 triggers, P3 17 low cards. In every window the
    # player after the turner is last, so the turn order stays P1, P2, P3.
    faces = [code(c) for c in deck_for(3)]
    low = [c for c in faces if c[0] in "23456789"]
    high = [c for c in faces if c[0] not in "23456789"]
    assert (len(low), len(high)) == (31, 20)
    p1, p2, p3 = high[:17], low[:14] + high[17:], low[14:]
    deck = [c for trio in zip(p1, p2, p3, strict=True) for c in trio]
    game = SPEC.new(3, rng=random.Random(seat0_first(3)), decks=[deck])
    assert isinstance(game, HejKnekt)
    verb = {"T": "whistle", "J": "hej", "Q": "goddag", "K": "salute", "A": "slap"}
    dealt = {0: list(p1), 1: list(p2), 2: list(p3)}
    transcript: list[tuple[int, str]] = []
    seat = 0
    for _ in range(49):  # P1's 17 turns, 16 each for P2 and P3, all from the dealt cards
        top = dealt[seat].pop(0)
        transcript.append((seat, "turn"))
        if top[0] in verb:
            other = (seat + 2) % 3
            transcript += [(seat, f"{verb[top[0]]} 300"), (other, f"{verb[top[0]]} 400")]
        seat = (seat + 1) % 3
    assert len(transcript) == 49 + 2 * 19
    play(game, transcript)
    assert game.is_over()
    assert game.view(None).events[-1] == ev("finished", seat=0, place=1)
    assert sizes(game) == [0, 48, 3]
    assert game.result().scores == (0, -48, -3)
    assert game.result().places == (1, 3, 2)


def test_transcript_safety_cap_ranks_by_pile_size() -> None:
    options = HejKnektOptions(max_turns=6)
    game = deal(4, ["3C", "4C", "KD", "5C", "6C"], options)
    play(
        game,
        [
            (0, "turn"),
            (1, "turn"),
            (2, "turn"),
            (2, "salute 200"),
            (1, "salute 300"),
            (3, "salute 350"),
            (0, "turn"),  # P1 was last: picks up 3C 4C KD and turns
            (1, "turn"),
        ],
    )
    assert not game.is_over()
    play(game, [(2, "turn")])  # the sixth card, a low one: the cap ends the match
    assert game.is_over()
    assert events(game, 1) == [ev("cap", count=6)]
    assert sizes(game) == [14, 11, 11, 13]
    assert center(game) == "6C 2C 7C"
    assert game.result().places == (4, 1, 1, 3)
    assert game.result().scores == (-14, -11, -11, -13)


def test_the_safety_cap_waits_for_the_last_window() -> None:
    game = deal(3, ["KC"], HejKnektOptions(max_turns=1))
    play(game, [(0, "turn")])
    assert not game.is_over()
    play(game, [(0, "salute 100"), (2, "salute 200")])
    assert game.is_over()
    assert events(game, 2) == [ev("pickup", seat=1, count=1), ev("cap", count=1)]
    assert game.result().places == (1, 3, 2)


PRESS_FOR = {"T": "whistle", "J": "hej", "Q": "goddag", "K": "salute", "A": "slap"}


def play_with_random_last(game: Game, rng: random.Random) -> int:
    """Plays ``game`` to its end with no player fixed as the slow one: in each window the last
    presser is drawn by ``rng`` and the others press right before them (the window then closes
    by itself). Returns how many cards were turned."""
    turned = 0
    while acting := sorted(game.to_act()):
        if game.legal_actions(acting[0]) == [TURN]:
            game.apply(acting[0], TURN)
            turned += 1
            continue
        verb = PRESS_FOR[str(game.view(None).phase.arg("card"))[0]]
        last = acting[randbelow(rng, len(acting))]
        for ms, seat in enumerate((s for s in acting if s != last), start=100):
            game.apply(seat, game.parse(f"{verb} {ms}"))
        assert game.to_act() <= {last}  # closed at once: the last presser turns next, or it is over
    return turned


def test_a_long_match_to_the_end_ends_by_its_rules_before_the_safety_cap() -> None:
    # V1's last two players can go on for long (seed 27: 2,821 cards); the cap is a safety net
    # above such tails (D9), not the end of one match in twenty.
    game = SPEC.new(3, SPEC.preset("play_to_end"), rng=random.Random(27))
    assert play_with_random_last(game, random.Random(27)) == 2821
    assert game.is_over()
    assert all(e.key != "hej_knekt.event.cap" for e in game.view(None).events)
    assert game.view(None).events[-1].key == "hej_knekt.event.finished"
    assert sorted(game.result().places) == [1, 2, 3]


def test_a_player_always_last_with_only_tens_to_aces_turns_for_ever_until_the_cap() -> None:
    # The loop the rules allow (D9): P2 turns, is last, picks up their own card and turns again;
    # P1 and P3 never turn. Only the safety cap ends it.
    game = at(["4C 5C", "TC JD", "6C"], "", 1, HejKnektOptions(max_turns=50))
    while not game.is_over():
        assert game.to_act() == {1}
        play(game, [(1, "turn")])
        if not game.is_over():
            verb = PRESS_FOR[str(game.view(None).phase.arg("card"))[0]]
            play(game, [(0, f"{verb} 300"), (2, f"{verb} 400")])
    assert events(game, 1) == [ev("cap", count=50)]
    assert sizes(game) == [2, 2, 1]
    assert game.result().places == (2, 2, 1)


# --- the window -----------------------------------------------------------------------------------


def test_window_stays_open_while_two_have_not_pressed() -> None:
    game = deal(4, ["TC"])
    play(game, [(0, "turn"), (1, "whistle 100"), (2, "whistle 150")])
    assert game.to_act() == {0, 3}
    play(game, [(0, "whistle 200")])
    # Closed without waiting for the timer: P4 is certainly last, picks up and turns next.
    assert events(game, 1) == [ev("pickup", seat=3, count=1)]
    assert turner(game) == 3


@pytest.mark.parametrize(("corrected_last", "loser"), [(False, 2), (True, 1)])
def test_window_closes_when_all_pressed_right_even_after_wrong_presses(
    corrected_last: bool, loser: int
) -> None:
    game = deal(3, ["TC"], HejKnektOptions(corrected_last=corrected_last))
    play(game, [(0, "turn"), (1, "hej 100"), (1, "whistle 150"), (0, "whistle 200")])
    # P2 is corrected, so P3 could still be faster than P2: keep waiting.
    assert game.to_act() == {2}
    play(game, [(2, "whistle 2900")])
    # P2 counts from 1100 (the slip at 100 plus the penalty), P3 at 2900 is last; under the
    # earlier rule the corrected P2 is last whatever the times.
    assert events(game, 1) == [ev("pickup", seat=loser, count=1)]
    assert turner(game) == loser


def test_two_wrong_presses_count_and_the_last_wrong_time_decides_between_failures() -> None:
    game = deal(3, ["AS"])
    play(game, [(0, "turn"), (1, "hej 100"), (2, "whistle 200"), (1, "goddag 300")])
    play(game, [(0, "slap 400"), (2, "close 5000")])
    assert events(game, 4) == [
        ev("reaction", seat=0, ms=400),
        ev("reaction_wrong", seat=2, wrong=1, buttons="whistle"),
        ev("reaction_wrong", seat=1, wrong=2, buttons="hej goddag"),
        ev("pickup", seat=1, count=1),
    ]


def test_the_published_result_names_the_wrong_buttons() -> None:
    # §1.5: after the window, each reaction time, any wrong buttons pressed, and who picks up
    game = deal(3, ["AS"])
    play(game, [(0, "turn"), (1, "hej 100"), (2, "whistle 200"), (1, "goddag 300")])
    play(game, [(0, "slap 400"), (2, "close 5000")])
    render = TextRenderer(load_catalog("en"), ["Anna", "Bo", "Cia"])
    assert [render.msg(m) for m in events(game, 4)[1:3]] == [
        "Cia: only wrong (Whistle), never right",
        "Bo: only wrong (“Hej knekt!”, “Goddag dam!”), never right",
    ]
    game = deal(4, ["5C", "KH"])
    play(game, [(0, "turn"), (1, "turn")])
    play(game, [(2, "whistle 200"), (2, "salute 600"), (0, "salute 820"), (1, "salute 1100")])
    play(game, [(3, "salute 1400")])
    assert TextRenderer(load_catalog("sv"), ["A", "B", "C", "D"]).msg(events(game, 3)[0]) == (
        "C: rätt efter 600 ms, men först fel (Vissla): räknas som 1200 ms"
    )


def test_equal_times_are_decided_by_the_order_received() -> None:
    for first, second in ((1, 2), (2, 1)):
        game = deal(4, ["QC"])
        play(game, [(0, "turn"), (first, "hej 100"), (0, "goddag 700"), (3, "goddag 700")])
        play(game, [(first, "goddag 700")])  # counts from 1100, after the slip at 100
        assert game.to_act() == {second}
        play(game, [(second, "goddag 1100")])
        # Same class, same time: the press received later is the slower one.
        assert events(game, 1) == [ev("pickup", seat=second, count=1)]


def test_views_show_who_has_reacted_during_the_window() -> None:
    game = deal(4, ["KC"])
    play(game, [(0, "turn"), (2, "slap 100"), (1, "salute 250")])
    seats = game.view(3).seats
    assert seats[1].notes == (Msg.of("hej_knekt.note.reacted", ms=250),)
    assert seats[2].notes == (Msg.of("hej_knekt.note.wrong", count=1),)
    assert seats[0].notes == () == seats[3].notes
    assert game.view(None).notes == (Msg.of("hej_knekt.note.reaction_ms", ms=5000),)


# --- timed actions and refusals -------------------------------------------------------------------


def test_legal_presses_are_stamped_with_the_latest_time_applied() -> None:
    game = deal(4, ["QD"])
    assert game.legal_actions(0) == [TURN]
    assert game.legal_actions(1) == []
    play(game, [(0, "turn")])
    assert game.legal_actions(2) == [timed(k, 0) for k in range(CLOSE + 1)]
    play(game, [(1, "goddag 640")])
    assert game.legal_actions(2) == [timed(k, 640) for k in range(CLOSE + 1)]
    assert [game.notation(a) for a in game.legal_actions(2)] == [
        "whistle 640",
        "hej 640",
        "goddag 640",
        "salute 640",
        "slap 640",
        "close 640",
    ]
    assert game.legal_actions(1) == []  # already reacted
    # Any later time is accepted, not only the listed one.
    play(game, [(2, "hej 5000")])
    refused(game, 3, "goddag 4999")
    refused(game, 0, "close 4000")
    assert game.legal_actions(3)[0] == timed(WHISTLE, 5000)


def test_refusals_change_nothing() -> None:
    game = deal(4, ["5C", "JD"])
    refused(game, 1, "turn")  # not P2's turn
    refused(game, 0, "close 100")  # no window open
    play(game, [(0, "turn"), (1, "turn"), (2, "hej 300")])
    refused(game, 1, "turn")  # the window is open
    refused(game, 2, "hej 400")  # already reacted
    refused(game, 2, "whistle 400")
    refused(game, 0, "hej 299")  # earlier than a press already applied
    refused(game, 0, "close 200")
    before = views(game)
    for action in (5, 52, 999, TURN + 1, 2000 + 6, 2000 + 7, -3):
        with pytest.raises(IllegalActionError):
            game.apply(0, action)
    for seat in (-1, 4):
        with pytest.raises(IllegalActionError):
            game.apply(seat, timed(HEJ, 400))
    assert views(game) == before


def test_nothing_is_accepted_after_the_match_is_over() -> None:
    game = at(["3C", "4C", "5C"], "", 0)
    play(game, [(0, "turn")])
    assert game.is_over()
    refused(game, 1, "turn")
    refused(game, 1, "hej 100")
    assert game.legal_actions(1) == []


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(ValueError, match="not over"):
        SPEC.new(3, rng=random.Random(1)).result()


# --- notation -------------------------------------------------------------------------------------


def test_notation_round_trips_and_accepts_case_and_spaces() -> None:
    game = SPEC.new(3, rng=random.Random(1))
    assert game.parse("  TURN ") == TURN
    assert game.parse(" Hej   610 ") == timed(HEJ, 610)
    assert game.notation(timed(SLAP, 0)) == "slap 0"
    for kind, verb in enumerate(VERBS):
        for ms in (0, 7, 610, 123456):
            action = timed(kind, ms)
            assert game.notation(action) == f"{verb} {ms}"
            assert game.parse(game.notation(action)) == action


@pytest.mark.parametrize(
    "text", ["hej", "hej -5", "hej 6.1", "hej knekt", "turn 5", "close", "vissla 5", "QS", "+1"]
)
def test_malformed_notation(text: str) -> None:
    with pytest.raises(NotationError):
        SPEC.new(3, rng=random.Random(1)).parse(text)


# --- variants and options -------------------------------------------------------------------------


def test_v1_play_to_end_keeps_going_after_the_first_finisher() -> None:
    game = at(["8C", "5D 6D", "7D 8D AD 9D"], "", 0, HejKnektOptions(play_to_end=True))
    play(game, [(0, "turn")])
    assert not game.is_over()
    assert game.view(None).seats[0].notes == (Msg.of("hej_knekt.note.finished", place=1),)
    play(game, [(1, "turn"), (2, "turn")])
    assert turner(game) == 1  # the finished P1 is skipped
    play(game, [(1, "turn")])  # P2's last card: only P3 has cards left
    assert game.is_over()
    assert game.result().places == (1, 2, 3)
    assert game.result().scores == (0, 0, -3)


def test_v1_finished_players_take_no_part_and_the_last_player_with_cards_loses() -> None:
    game = at(["8C", "AD 5D", "AH 7D 8D"], "", 0, HejKnektOptions(play_to_end=True))
    play(game, [(0, "turn"), (1, "turn")])  # P1 finishes; P2 turns an ace
    assert game.to_act() == {1, 2}  # P1 is out
    refused(game, 0, "slap 100")
    play(game, [(2, "slap 100")])  # two participants: one clean press settles it
    assert events(game, 1) == [ev("pickup", seat=1, count=2)]
    play(game, [(1, "turn"), (2, "turn"), (1, "hej 60"), (2, "slap 80")])
    assert events(game, 3) == [
        ev("reaction", seat=2, ms=80),
        ev("reaction_wrong", seat=1, wrong=1, buttons="hej"),
        ev("pickup", seat=1, count=2),
    ]
    # P2 holds 8C AD 5D AH, P3 7D 8D.
    play(game, [(1, "turn"), (2, "turn"), (1, "turn"), (2, "slap 10")])
    assert events(game, 1) == [ev("pickup", seat=1, count=3)]
    play(game, [(1, "turn"), (2, "turn")])  # P3's last card
    assert game.is_over()
    assert events(game, 1) == [ev("finished", seat=2, place=2)]
    assert game.result().places == (1, 3, 2)
    assert game.result().scores == (0, -4, 0)


def test_v2_reaction_time_is_an_option_shown_to_the_caller() -> None:
    options = apply_option_text(HejKnektOptions(), {"reaction_ms": "8000"})
    assert options.reaction_ms == 8000
    game = deal(4, ["AS"], options)
    assert game.view(2).notes == (Msg.of("hej_knekt.note.reaction_ms", ms=8000),)
    play(game, [(0, "turn")])
    assert game.view(None).phase.arg("window_ms") == 8000
    for bad in (2999, 15001):
        with pytest.raises(OptionError, match="reaction_ms"):
            SPEC.new(4, HejKnektOptions(reaction_ms=bad))
    with pytest.raises(OptionError, match="max_turns"):
        SPEC.new(4, HejKnektOptions(max_turns=0))


def test_v3_off_by_default_low_cards_open_no_window() -> None:
    game = deal(4, ["5C"])
    play(game, [(0, "turn")])
    assert turner(game) == 1


def test_v3_a_press_on_a_low_card_picks_up_the_centre() -> None:
    options = HejKnektOptions(false_alarm=True)
    game = deal(4, ["5C", "6C"], options)
    play(game, [(0, "turn")])
    view = game.view(None)
    # The prompt is the same as for a trigger card, so it gives nothing away.
    assert view.phase == Msg.of("hej_knekt.phase.reveal", seat=0, card="5C", window_ms=2500)
    assert game.to_act() == {0, 1, 2, 3}
    play(game, [(3, "close 2500")])  # nobody pressed: the next player turns
    assert turner(game) == 1
    play(game, [(1, "turn"), (2, "slap 800")])
    assert events(game, 1) == [ev("false_alarm", seat=2, ms=800, count=2)]
    assert sizes(game) == [12, 12, 15, 13]
    assert turner(game) == 2


def test_v3_trigger_cards_work_as_usual() -> None:
    game = deal(3, ["TD"], HejKnektOptions(false_alarm=True))
    play(game, [(0, "turn"), (1, "whistle 100"), (2, "whistle 200")])
    assert events(game, 1) == [ev("pickup", seat=0, count=1)]


def test_presets_name_the_variants() -> None:
    assert SPEC.preset("standard") == HejKnektOptions()
    assert SPEC.preset("play_to_end").play_to_end
    assert SPEC.preset("false_alarm").false_alarm
    assert SPEC.preset("corrected_last").corrected_last
    assert SPEC.realtime
    assert not SPEC.trick_taking
    assert (SPEC.min_players, SPEC.max_players) == (3, 6)


# --- information ----------------------------------------------------------------------------------


def test_piles_are_hidden_from_everyone_and_determinize_redeals_them() -> None:
    game = SPEC.new(4, rng=random.Random(3))
    assert isinstance(game, HejKnekt)
    for seat in (0, 1, 2, 3, None):
        assert game.view(seat).hand == ()
    assert all(v == dataclasses.replace(game.view(None), seat=v.seat) for v in views(game))
    other = game.determinize(0, random.Random(9))
    assert other.view(None) == game.view(None)
    (first,) = game.to_act()
    play(game, [(first, "turn")])
    play(other, [(first, "turn")])
    assert center(game) != center(other)  # the re-dealt piles hold other cards


def test_clone_is_independent() -> None:
    game = deal(4, ["KS"])
    play(game, [(0, "turn"), (1, "salute 100")])
    copy = game.clone()
    play(copy, [(2, "salute 200"), (3, "salute 300")])
    assert game.to_act() == {0, 2, 3}
    assert copy.to_act() == {0}


# --- messages -------------------------------------------------------------------------------------


def _flatten(table: dict[str, object], prefix: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in table.items():
        if isinstance(value, dict):
            out |= _flatten(value, f"{prefix}{name}.")
        else:
            out[f"{prefix}{name}"] = str(value)
    return out


def _catalog(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for stem in ("hej_knekt", "table"):
        with (I18N / lang / f"{stem}.toml").open("rb") as f:
            out |= _flatten(tomllib.load(f), f"{stem}.")
    return out


def test_catalogs_parse_and_hold_the_same_keys() -> None:
    sv, en = _catalog("sv"), _catalog("en")
    assert sv.keys() == en.keys()
    assert {f"hej_knekt.action.{v}" for v in ("turn", *VERBS)} <= sv.keys()
    for catalog in (sv, en):
        for section in ("deck", "deal", "play", "scoring", "variants"):
            assert catalog[f"hej_knekt.rules.{section}"].strip()


def test_every_message_the_game_emits_has_a_text_in_both_languages() -> None:
    seen: dict[str, Msg] = {}
    for preset in ("standard", "play_to_end", "false_alarm", "corrected_last"):
        for players in (3, 6):
            options = dataclasses.replace(SPEC.preset(preset), max_turns=400)
            game = SPEC.new(players, options, rng=random.Random(players))
            rng = random.Random(4)
            while not game.is_over():
                seat = sorted(game.to_act())[rng.randrange(len(game.to_act()))]
                legal = game.legal_actions(seat)
                game.apply(seat, legal[rng.randrange(len(legal))])
                view = game.view(None)
                msgs = [view.phase, *view.events, *view.notes]
                msgs += [n for s in view.seats for n in s.notes]
                seen |= {m.key: m for m in msgs}
                seen |= {p.key: Msg(p.key) for p in view.piles}
    for catalog in (_catalog("sv"), _catalog("en")):
        for key, msg in seen.items():
            text = fill(
                catalog[key], dict(msg.args), strict=True
            )  # every placeholder has its argument
            assert "{" not in text
    assert {
        "hej_knekt.event.reaction_corrected",
        "hej_knekt.event.false_alarm",
        "hej_knekt.event.finished",
        "hej_knekt.event.cap",
        "hej_knekt.note.finished",
    } <= seen.keys()
