"""Piquet: the worked examples of rules/two-player.md §3.12 (PQ-1..PQ-11), deal transcripts for
two, three and four players in both profiles, what each seat may see, and refusals.

Hands are written from elder's seat on, and the helpers deal them two at a time from elder
(§3.1), the talon after them, top card first. With the seeds below the dealer is the last seat,
so seat 0 is elder.
"""

from __future__ import annotations

import random

import pytest

from games.ai import choose
from games.cards import Card, mask_of, parse_card
from games.core import IllegalActionError, Msg, NotationError, apply_option_text
from games.piquet import SPEC, Piquet, PiquetOptions, combos, scoring
from games.piquet.actions import BLANCHE
from games.piquet.match import PLAY_PHASE
from games.piquet.scoring import PIQUE, PLAY, REPIQUE

SEED = {2: 0, 3: 5, 4: 0}  # the first dealer is the last seat: seat 0 is elder
SEED_PROFILE = PiquetOptions()
CLASSIC = PiquetOptions(profile="classic")
ALL = [parse_card(r + s) for s in "CDHS" for r in "789TJQKA"]


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def mask(text: str) -> int:
    return mask_of(cards(text))


def deck(hands: list[str], talon: str = "") -> list[str]:
    """The deck order that deals ``hands`` (from elder) two at a time, then the talon."""
    split = [h.split() for h in hands]
    size = len(split[0])
    order: list[str] = []
    for i in range(0, size, 2):
        for hand in split:
            order += hand[i : i + 2]
    order += talon.split()
    assert sorted(map(parse_card, order)) == sorted(ALL), "a deck holds each card once"
    return order


def new(
    hands: list[str], talon: str = "", options: PiquetOptions = SEED_PROFILE, more: int = 0
) -> Piquet:
    rng = random.Random(SEED[len(hands)])
    game = SPEC.new(len(hands), options, rng=rng, decks=[deck(hands, talon)] * (1 + more))
    assert isinstance(game, Piquet)
    assert game.dealer == len(hands) - 1
    return game


def exchange_deck(
    elder: str, younger: str, options: PiquetOptions = SEED_PROFILE, taken: tuple[int, int] = (3, 2)
) -> tuple[list[str], str, str]:
    """A deal after which two players hold these hands: elder takes the first ``taken[0]`` of his
    cards from the talon, younger the first ``taken[1]`` of his; the cards they lay away are the
    lowest of the rest of the deck. Returns the deck and the two exchanges."""
    e, y = elder.split(), younger.split()
    pool = [str(Card(c)) for c in ALL if c not in cards(elder) + cards(younger)]
    ke, ky = taken
    e_give, y_give, rest = pool[:ke], pool[ke : ke + ky], pool[ke + ky :]
    if options.profile == "seed":  # elder's five on top, younger's three below (S2)
        talon = e[:ke] + rest[: 5 - ke] + y[:ky] + rest[5 - ke :]
    else:  # classic: younger takes elder's leftovers first, so they come first
        talon = e[:ke] + y[:ky] + rest
    hands = [" ".join(e[ke:] + e_give), " ".join(y[ky:] + y_give)]
    return deck(hands, " ".join(talon)), " ".join(e_give), " ".join(y_give)


def exchange(game: Piquet, elder_gives: str, younger_gives: str) -> None:
    (elder,) = game.to_act()
    game.apply(elder, game.parse(f"exchange {elder_gives}".strip()))
    game.apply(1 - elder, game.parse(f"exchange {younger_gives}".strip()))
    if game.parse("hide") in game.legal_actions(1 - elder):
        game.apply(1 - elder, game.parse("hide"))


def after_exchange(
    elder: str, younger: str, options: PiquetOptions = SEED_PROFILE, taken: tuple[int, int] = (3, 2)
) -> Piquet:
    """Two players holding these hands after the exchange (see :func:`exchange_deck`)."""
    order, e_give, y_give = exchange_deck(elder, younger, options, taken)
    game = SPEC.new(2, options, rng=random.Random(SEED[2]), decks=[order])
    assert isinstance(game, Piquet)
    exchange(game, e_give, y_give)
    assert game.hands == [mask(elder), mask(younger)]
    return game


def play(game: Piquet, script: str) -> None:
    """Cards in the order they are played: the seat on turn plays each."""
    for text in script.split():
        (seat,) = game.to_act()
        game.apply(seat, game.parse(text))


def keys(game: Piquet, seat: int | None = None) -> list[str]:
    return [m.key for m in game.view(seat).events]


def calls(game: Piquet, seat: int) -> list[Msg]:
    return list(game.view(None).seats[seat].notes)


PQ1_ELDER = "JS TS 9S AS KS QS AH KH QH AD 8D AC"
PQ1_YOUNGER = "KC QC JH TH 9H 8H 7H KD QD JD TD 9D"


def test_pq_ex1_repique_seed_profile() -> None:
    game = after_exchange(PQ1_ELDER, PQ1_YOUNGER)
    # point 1 (S1) + sequences 16 + 3 + the quatorze of aces 14 = 34 with younger at 0
    assert game.rows[scoring.POINT] == [1, 0]
    assert game.rows[scoring.SEQUENCES] == [19, 0]
    assert game.rows[scoring.SETS] == [14, 0]
    assert game.rows[REPIQUE] == [60, 0]
    assert game.deal_scores() == [94, 0]
    assert calls(game, 0)[:1] == [Msg.of("piquet.said.point", count=6)]
    log = game.view(1).events
    assert log.index(Msg.of("piquet.call.point", seat=0, count=6)) + 1 == log.index(
        Msg.of("piquet.call.good", seat=1, caller_seat=0)
    )
    assert calls(game, 1) == [
        Msg.of("piquet.said.good", caller_seat=0),
        Msg.of("piquet.said.good", caller_seat=0),
        Msg.of("piquet.said.good", caller_seat=0),
    ]
    assert Msg.of("piquet.said.sequence", length=6) in calls(game, 0)
    assert Msg.of("piquet.said.quatorze") in calls(game, 0)
    assert "piquet.event.repique" in keys(game)
    play(game, "AS")  # a lead above nine: 95
    assert game.deal_scores() == [95, 0]


def test_pq_ex1_repique_classic() -> None:
    game = after_exchange(PQ1_ELDER, PQ1_YOUNGER, CLASSIC)
    assert game.rows[scoring.POINT] == [6, 0]
    assert game.deal_scores() == [99, 0]  # 6 + 19 + 14 = 39, repique +60
    play(game, "AS")  # every lead scores: 100
    assert game.deal_scores() == [100, 0]


PQ2_ELDER = "7S 8S KS QS JS TS AH TH AD TD TC 9C"
PQ2_YOUNGER = "AC KC KH QH JH 9H 7H KD QD 9D 8D 7C"


def test_pq_ex2_pique_classic() -> None:
    game = after_exchange(PQ2_ELDER, PQ2_YOUNGER, CLASSIC, taken=(1, 0))
    assert game.deal_scores() == [24, 0]  # point 6, quart 4, quatorze of tens 14
    assert game.rows[REPIQUE] == [0, 0]
    play(game, "KS 7H QS 9H JS 7C TS 8D 8S 9D")
    assert game.deal_scores() == [29, 0]
    play(game, "7S QD")  # the sixth lead: 30 with younger at 0, pique
    assert game.rows[PIQUE] == [30, 0]
    assert game.deal_scores() == [60, 0]
    assert "piquet.event.pique" in keys(game)


def test_pq_ex2_no_pique_in_the_seed_profile() -> None:
    game = after_exchange(PQ2_ELDER, PQ2_YOUNGER)
    assert game.deal_scores() == [19, 0]  # point 1, quart 4, quatorze 14
    play(game, "KS 7H QS 9H JS 7C TS 8D 8S 9D 7S QD")
    assert game.deal_scores() == [23, 0]  # only the four leads above nine scored
    assert game.rows[PIQUE] == [0, 0]


def test_pq_ex3_point_by_pips() -> None:
    elder, younger = mask("AS KS QS 9S 7S"), mask("KH QH JH TH 8H")
    assert combos.best(elder, combos.POINT) == (5, 47)
    assert combos.best(younger, combos.POINT) == (5, 48)
    assert combos.points(younger, combos.POINT, flat_point=False) == 5
    assert combos.points(younger, combos.POINT, flat_point=True) == 1


def test_pq_ex3_equal_point_scores_nothing_and_blocks_the_bonuses() -> None:
    # both points are five cards of 47 pips: "lika", then "47", then "lika"
    elder = "AS KS QS 9S 7S AD KD QD JD AC KC QC"
    younger = "KH QH JH TH 7H JS TS 8S TD 9D 8D JC"
    game = after_exchange(elder, younger)
    assert calls(game, 0)[:2] == [
        Msg.of("piquet.said.point", count=5),
        Msg.of("piquet.said.pips", pips=47),
    ]
    assert calls(game, 1)[:2] == [
        Msg.of("piquet.said.equal"),
        Msg.of("piquet.said.equal"),
    ]
    assert "piquet.event.point_equal" in keys(game)
    assert game.rows[scoring.POINT] == [0, 0]
    assert game.rows[scoring.SEQUENCES] == [10, 0]  # quart 4, two tierces 3 + 3
    assert game.rows[scoring.SETS] == [9, 0]  # trios of aces, kings and queens
    assert game.blocked


def test_pq_ex3_equal_pips_block_repique_under_s5_only() -> None:
    items = [
        (scoring.SEQUENCES, 0, 0, 15),
        (scoring.SETS, 0, 0, 17),
    ]
    assert scoring.tally(items, 2, scoring.TWO_HANDED, blocked=True)[1] is None
    rows, bonus = scoring.tally(items, 2, scoring.TWO_HANDED, blocked=False)
    assert bonus == (REPIQUE, 0)
    assert rows[REPIQUE] == [60, 0]


# Elder (party 0) at 29 with younger at 0: 21 from combinations and eight leads (§3.7).
ELDER_AT_29 = [(scoring.SEQUENCES, 0, 0, 18), (scoring.SETS, 0, 0, 3)]
ELDER_AT_29 += [(PLAY, 2 * t, 0, 1) for t in range(1, 9)]


def test_pique_counts_the_last_trick_but_never_the_cards_or_capot() -> None:
    """D-PQ-4: the cards and capot (step 6) come after play and never make a pique; the
    last-trick point is play (step 5) and does."""
    for item in ((scoring.CARDS, 26, 0, 10), (scoring.CAPOT, 26, 0, 40)):
        rows, bonus = scoring.tally([*ELDER_AT_29, item], 2, scoring.TWO_HANDED, blocked=False)
        assert bonus is None
        assert rows[PIQUE] == [0, 0]
    rows, bonus = scoring.tally(
        [*ELDER_AT_29, (scoring.LAST, 26, 0, 1)], 2, scoring.TWO_HANDED, blocked=False
    )
    assert bonus == (PIQUE, 0)
    assert rows[PIQUE] == [30, 0]


def test_a_tricks_lead_point_comes_before_its_win_point_whatever_the_order_told() -> None:
    """§3.7 step 5: for each trick the lead point, then the win point. Elder's ninth lead makes
    30 before younger wins that trick; a win by younger in the trick before stops the pique."""
    younger_wins_9 = (PLAY, 19, 1, 1)
    elder_leads_9 = (PLAY, 18, 0, 1)
    items = [younger_wins_9, *ELDER_AT_29, elder_leads_9]
    rows, bonus = scoring.tally(items, 2, scoring.TWO_HANDED, blocked=False)
    assert bonus == (PIQUE, 0)
    assert [sum(row[p] for row in rows) for p in (0, 1)] == [60, 1]
    younger_wins_8 = (PLAY, 17, 1, 1)
    items = [*ELDER_AT_29, younger_wins_8, elder_leads_9]
    assert scoring.tally(items, 2, scoring.TWO_HANDED, blocked=False)[1] is None


def test_a_repique_leaves_no_pique_to_win() -> None:
    """§3.6: repique or pique, not both."""
    items = [(scoring.SEQUENCES, 0, 0, 18), (scoring.SETS, 0, 0, 14)]
    items += [(PLAY, 2 * t, 0, 1) for t in range(1, 13)]
    rows, bonus = scoring.tally(items, 2, scoring.TWO_HANDED, blocked=False)
    assert bonus == (REPIQUE, 0)
    assert rows[PIQUE] == [0, 0]


def test_pq_ex4_sequences_and_sets() -> None:
    elder, younger = mask("JC TC 9C 8C 7C"), mask("AD KD QD JD TD 9S 8S 7S")
    assert combos.best(elder, combos.SEQUENCE) == (5, 11)
    assert combos.best(younger, combos.SEQUENCE) == (5, 14) > (5, 11)
    assert combos.points(younger, combos.SEQUENCE, False) == 18
    elder, younger = mask("KS KH KD TS TH TD"), mask("AS AH AC")
    assert combos.best(elder, combos.SETS) == (3, 13)
    assert combos.best(younger, combos.SETS) == (3, 14) > (3, 13)
    assert combos.points(elder, combos.SETS, False) == 6
    assert combos.best(mask("TS TH TD TC"), combos.SETS) == (4, 10) > (3, 14)


def test_pq_ex4_a_sixieme_is_one_sequence() -> None:
    hand = mask("AS KS QS JS TS 9S")
    assert combos.sequences_of(hand) == [(6, 14, 3)]
    assert combos.points(hand, combos.SEQUENCE, False) == 16


@pytest.mark.parametrize(
    ("lead", "top", "leader", "winner", "ten_plus", "expected"),
    [
        ("KS", "AS", 0, 1, False, (0, 1)),  # elder leads KS, younger wins with AS
        ("KS", "AS", 0, 1, True, (0, 1)),
        ("7C", "8C", 1, 0, False, (1, 0)),  # younger leads 7C, elder wins with 8C
        ("7C", "8C", 1, 0, True, (-1, -1)),
        ("9D", "9D", 0, 0, False, (0, -1)),  # elder leads 9D and keeps the trick
        ("9D", "9D", 0, 0, True, (-1, -1)),
    ],
)
def test_pq_ex5_play_points(
    lead: str,
    top: str,
    leader: int,
    winner: int,
    ten_plus: bool,
    expected: tuple[int, int],
) -> None:
    got = scoring.trick_points(2, leader, winner, parse_card(lead), parse_card(top), ten_plus)
    assert got == expected


CAPOT_ELDER = "AS KS QS JS TS 9S 8S 7S AH KH QH JH"
CAPOT_YOUNGER = "AD KD QD JD TD 9D 8D AC KC QC JC TC"


@pytest.mark.parametrize(("options", "last"), [(SEED_PROFILE, None), (CLASSIC, 1)])
def test_pq_ex6_capot(options: PiquetOptions, last: int | None) -> None:
    game = after_exchange(CAPOT_ELDER, CAPOT_YOUNGER, options)
    order = CAPOT_ELDER.split()
    younger = CAPOT_YOUNGER.split()
    play(game, " ".join(f"{e} {y}" for e, y in zip(order, younger, strict=True)))
    rows = {r.label.key: r.cells for r in game.past_rows}
    assert rows["piquet.sheet.capot"] == (40, None)
    assert "piquet.sheet.cards" not in rows
    assert rows.get("piquet.sheet.last_trick", (None, None)) == (last, None)
    assert game.totals == list(rows["piquet.sheet.deal"])
    assert "piquet.event.capot" in keys(game)


def test_pq_ex6_cards_for_eight_tricks_with_the_last() -> None:
    elder = "AS KS QS JS TS 9S 8S 7S AH 7H 8H 9H"
    younger = "AD KD QD JD TD 9D 8D KC QC JC KH QH"
    game = after_exchange(elder, younger)
    play(game, "AS AD KS KD QS QD JS JD TS TD 9S 9D 7S 8D")  # seven spade tricks to elder
    play(game, "7H KH KC 8H QC 9H JC 8S")  # younger wins four
    play(game, "QH AH")  # elder takes the last
    rows = {r.label.key: r.cells for r in game.past_rows}
    assert rows["piquet.sheet.cards"] == (10, None)
    assert rows["piquet.sheet.last_trick"] == (1, None)
    # leads above nine: elder 6 spades; younger KC QC JC QH; younger won KH
    assert rows["piquet.sheet.play"] == (6, 5)


def test_pq_ex7_classic_exchange_and_leftovers() -> None:
    game = new(
        ["AS KS QS JS TS 9S 8S 7S AH KH QH JH", "AD KD QD JD TD 9D 8D AC KC QC JC TC"],
        "7D 9C 8C 7C TH 9H 8H 7H",
        CLASSIC,
    )
    legal = game.legal_actions(0)
    assert {bin(a).count("1") - 1 for a in legal} == {1, 2, 3, 4, 5}
    assert game.notation(legal[0]).count(" ") == 5  # the biggest exchanges first
    game.apply(0, game.parse("exchange 7S 8S 9S"))  # takes 7D 9C 8C, has seen 7C TH
    assert Msg.of("piquet.note.aside", cards="7C TH") not in game.view(0).notes
    younger = game.legal_actions(1)
    assert {bin(a).count("1") - 1 for a in younger} == {0, 1, 2, 3, 4, 5}
    game.apply(1, game.parse("exchange AD KD QD JD"))  # takes 7C TH 9H 8H; 7H is left
    assert game.to_act() == frozenset({1})
    assert [game.notation(a) for a in game.legal_actions(1)] == ["expose", "hide"]
    game.apply(1, game.parse("expose"))
    assert Msg.of("piquet.note.aside", cards="7H") in game.view(1).notes
    assert Msg.of("piquet.note.aside", cards="7H") not in game.view(0).notes
    assert game.view(None).piles[0].hidden == 1
    play(game, "AS")  # elder has led to trick 1: the leftover is shown to everyone
    aside = next(p for p in game.view(None).piles if p.key == "piquet.pile.aside")
    assert aside.cards == (Card.parse("7H"),)


def test_pq_ex7_classic_elder_is_shown_the_talon_cards_he_leaves() -> None:
    """§3.2: with k1 < 5 the next 5 - k1 talon cards are shown to elder only and stay on top."""
    game = new(
        ["AS KS QS JS TS 9S 8S 7S AH KH QH JH", "AD KD QD JD TD 9D 8D AC KC QC JC TC"],
        "7D 9C 8C 7C TH 9H 8H 7H",
        CLASSIC,
    )
    game.apply(0, game.parse("exchange 7S 8S 9S"))  # takes 7D 9C 8C; 7C TH stay on top
    seen = Msg.of("piquet.note.talon_seen", cards="7C TH")
    assert seen in game.view(0).notes
    assert seen not in game.view(1).notes
    assert seen not in game.view(None).notes
    game.apply(1, game.parse("exchange AD KD QD JD"))  # younger takes 7C TH first
    assert seen in game.view(0).notes  # elder still knows which cards went to younger


def test_pq_ex7_seed_exchange_limits() -> None:
    game = new(
        ["AS KS QS JS TS 9S 8S 7S AH KH QH JH", "AD KD QD JD TD 9D 8D AC KC QC JC TC"],
        "7D 9C 8C 7C TH 9H 8H 7H",
    )
    for text in ("exchange 7S", "exchange 7S 8S", "exchange 7S 8S 9S TS JS QS"):
        with pytest.raises(IllegalActionError, match="exchange 3 to 5 cards"):
            game.apply(0, game.parse(text))
    game.apply(0, game.parse("exchange 7S 8S 9S"))
    assert Msg.of("piquet.note.aside", cards="7C TH") in game.view(0).notes
    with pytest.raises(IllegalActionError, match="exchange 2 to 3 cards"):
        game.apply(1, game.parse("exchange AD"))
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(0, game.parse("exchange AS KS QS"))
    game.apply(1, game.parse("exchange AD KD"))  # takes 9H 8H from his own three; 7H aside
    assert game.hands[1] & mask("9H 8H") == mask("9H 8H")
    aside = next(p for p in game.view(None).piles if p.key == "piquet.pile.aside")
    assert aside.hidden == 3
    assert not any(n.key == "piquet.note.aside" for n in game.view(1).notes)


def test_pq_ex8_partie_and_rubicon() -> None:
    assert scoring.rubicon_margin(152, 131) == 121
    assert scoring.rubicon_margin(152, 88) == 340


def test_pq_ex8_equal_after_six_deals_two_more_then_a_draw() -> None:
    game = new([CAPOT_ELDER, CAPOT_YOUNGER], "7D 9C 8C 7C TH 9H 8H 7H")
    game.totals = [140, 140]
    game.dealt = 6
    assert not game._partie_over()
    assert game.partie == 8
    game.dealt = 8
    assert game._partie_over()
    game._end_partie()
    assert game.result().places == (1, 1)
    assert "piquet.event.drawn" in keys(game)


def test_pq_ex9_three_player_settlement() -> None:
    payments, net = scoring.settlement([140, 100, 60])
    assert sorted(payments) == sorted([(2, 0, 180), (1, 0, 140), (2, 1, 90)])
    assert net == [320, -50, -270]
    assert scoring.settlement([100, 100, 100]) == ([], [0, 0, 0])
    tied_first, _ = scoring.settlement([120, 120, 60])
    assert sorted(tied_first) == [(2, 0, 160), (2, 1, 160)]
    tied_last, _ = scoring.settlement([120, 60, 60])
    assert sorted(tied_last) == [(1, 0, 160), (2, 0, 160)]


@pytest.mark.parametrize(
    ("lead", "top", "leader", "winner", "ten_plus", "expected"),
    [
        ("KS", "AS", 0, 2, False, (0, -1)),  # N leads KS, S wins with AS: NS capped at 1
        ("7S", "AS", 0, 1, False, (0, 1)),  # N leads 7S, E wins with AS: one point each side
        ("7S", "AS", 0, 2, True, (-1, 2)),  # S3: only the win point qualifies
    ],
)
def test_pq_ex10_four_player_cap(
    lead: str, top: str, leader: int, winner: int, ten_plus: bool, expected: tuple[int, int]
) -> None:
    got = scoring.trick_points(4, leader, winner, parse_card(lead), parse_card(top), ten_plus)
    assert got == expected


BLANK_ELDER = "AS TS 9S 8S 7S AH TH 9H 8H 7D 8C 9D"
BLANK_YOUNGER = "KS QS JS KH QH JH KD QD JD KC QC JC"


def test_pq_ex11_carte_blanche_online() -> None:
    game = new([BLANK_ELDER, BLANK_YOUNGER], "AD TD 8D AC TC 9C 7C 7H")
    assert game.legal_actions(0)[0] == BLANCHE
    assert len(game.legal_actions(0)) == 1 + 220 + 495 + 792
    phase, acting = game.view(1).phase, game.to_act()
    game.apply(0, BLANCHE)
    assert game.deal_scores() == [10, 0]
    assert game.view(1).seats[0].shown == tuple(sorted(Card(c) for c in cards(BLANK_ELDER)))
    assert BLANCHE not in game.legal_actions(0)
    with pytest.raises(IllegalActionError, match="carte blanche"):
        game.apply(0, BLANCHE)
    game.apply(0, game.parse("exchange 7D 8C 9D"))
    assert game.view(1).seats[0].shown == ()  # which cards went is not shown
    assert BLANCHE not in game.legal_actions(1)  # younger's hand is not blank
    # nothing public tells a blank hand: a deal where elder's hand is not blank looks the same
    plain = new([BLANK_YOUNGER, BLANK_ELDER], "AD TD 8D AC TC 9C 7C 7H")
    assert BLANCHE not in plain.legal_actions(0)
    assert (plain.view(1).phase, plain.to_act()) == (phase, acting) == (phase, frozenset({0}))


# --- four players --------------------------------------------------------------------------------

FOUR = [
    "AS KS QS JS 7H 8H 7D 8D",  # N, elder: point of four (41), quart to the ace
    "TS 9S 8S JH TH JD TD JC",  # E: trios of jacks and tens
    "AH KH QH AC KC AD KD 7C",  # S: tierce to the ace, trios of aces and kings
    "7S 9H 9D QD QC TC 9C 8C",  # W: point of four (37)
]


@pytest.mark.parametrize(("options", "side_total"), [(SEED_PROFILE, 16), (CLASSIC, 111)])
def test_four_players_partner_scores_the_same_kind(options: PiquetOptions, side_total: int) -> None:
    game = new(FOUR, options=options)
    assert game.view(None).teams == ((0, 2), (1, 3))
    assert game.legal_actions(0)[0] != BLANCHE
    # elder has declared before leading; nobody else has said anything yet
    assert calls(game, 0) == [
        Msg.of("piquet.said.point_pips", count=4, pips=41),
        Msg.of("piquet.said.sequence_to_A", length=4),
    ]
    play(game, "AS")
    assert calls(game, 1) == []
    play(game, "TS")  # E announces only what beats the calls so far
    assert calls(game, 1) == [Msg.of("piquet.said.trio_of", rank="J")]
    assert game.deal_scores() == [1, 0]  # only elder's lead so far: the classes after trick 1
    play(game, "7C 7S")
    assert calls(game, 2) == [Msg.of("piquet.said.trio_of", rank="A")]
    assert calls(game, 3) == []
    flat = options.profile == "seed"
    assert game.rows[scoring.POINT] == ([2, 0] if flat else [7, 0])  # N's point and S's
    assert game.rows[scoring.SEQUENCES] == [7, 0]  # N's quart and S's tierce
    assert game.rows[scoring.SETS] == [6, 0]  # S's aces and kings
    assert game.rows[REPIQUE] == ([0, 0] if flat else [90, 0])  # 20 before EW scored
    assert game.deal_scores() == [side_total, 0]
    view = game.view(1)
    assert view.seats[0].score == view.seats[2].score == side_total
    assert set(view.seats[2].shown) == {
        Card.parse(c) for c in ["AH", "KH", "QH", "AC", "KC", "AD", "KD"]
    }


def test_four_players_play_a_whole_partie_of_eight_deals() -> None:
    game = SPEC.new(4, PiquetOptions(four_player_deals=8), rng=random.Random(4))
    rng = random.Random(9)
    while not game.is_over():
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    assert isinstance(game, Piquet)
    assert game.dealt == 8
    result = game.result()
    assert result.scores[0] == result.scores[2]
    assert result.places[0] == result.places[2]
    assert result.places[1] == result.places[3]
    sheet = game.view(None).sheet
    assert sheet is not None
    deals = [r for r in sheet.rows if r.label.key == "piquet.sheet.deal"]
    assert len(deals) == 8
    assert sheet.rows[-1].cells == tuple(sum(r.cells[p] or 0 for r in deals) for p in (0, 1))


# --- three players -------------------------------------------------------------------------------


def test_three_players_only_the_dealer_exchanges() -> None:
    game = SPEC.new(3, rng=random.Random(SEED[3]))
    assert isinstance(game, Piquet)
    assert game.dealer == 2
    assert game.to_act() == frozenset({2})
    legal = [a for a in game.legal_actions(2) if a != BLANCHE]
    assert len(legal) == 1 + 10 + 45  # 0, 1 or 2 cards (D-PQ-11)
    assert game.notation(legal[-1]) == "exchange"
    game.apply(2, game.parse("exchange"))
    assert game.to_act() == frozenset({0})  # elder leads, after the declarations
    assert game.view(None).seats[0].notes  # elder's calls
    aside = next(p for p in game.view(None).piles if p.key == "piquet.pile.aside")
    assert aside.hidden == 2


def test_three_players_twenty_point_bonuses() -> None:
    items = [(scoring.SEQUENCES, 0, 1, 15), (scoring.SETS, 0, 1, 6)]
    rows, bonus = scoring.tally(items, 3, scoring.MORE_HANDED, blocked=False)
    assert bonus == (REPIQUE, 1)
    assert rows[REPIQUE] == [0, 90, 0]
    items = [(scoring.SEQUENCES, 0, 1, 15), (PLAY, 2, 1, 1), (PLAY, 4, 1, 1), (PLAY, 6, 1, 1)]
    items += [(PLAY, 9, 1, 1), (PLAY, 10, 1, 1)]
    rows, bonus = scoring.tally(items, 3, scoring.MORE_HANDED, blocked=False)
    assert bonus == (PIQUE, 1)
    assert rows[PIQUE] == [0, 60, 0]
    items.insert(0, (scoring.BLANCHE, 0, 2, 10))  # a later claim still comes first
    assert scoring.tally(items, 3, scoring.MORE_HANDED, blocked=False)[1] is None


@pytest.mark.parametrize(
    ("players", "against"), [(2, "motspelaren"), (3, "motspelarna"), (4, "motsidan")]
)
def test_the_score_sheet_names_the_repique_against_the_opponents_there_are(
    players: int, against: str
) -> None:
    from bot.i18n import catalog
    from bot.render.text import TextRenderer

    render = TextRenderer(catalog("sv"), [f"P{s}" for s in range(players)])
    combinations = [(scoring.SEQUENCES, 0, 0, 15), (scoring.SETS, 0, 0, 15)]
    in_play = [(scoring.SEQUENCES, 0, 0, 15), *[(PLAY, 2 * k, 0, 1) for k in range(1, 16)]]
    for items, label in ((combinations, "Kombinationer"), (in_play, "Spel")):
        game = SPEC.new(players, rng=random.Random(SEED[players]))
        assert isinstance(game, Piquet)
        for item in items:
            game.tally.add(item)
        assert game.tally.given is not None
        sheet = game.view(None).sheet
        assert sheet is not None
        assert f"{label} före {against}" in [render.msg(r.label) for r in sheet.rows]


def test_three_players_a_later_carte_blanche_withdraws_a_repique_and_says_so() -> None:
    """§3.7, D-PQ-18: seat 1 shows his blank hand at his first card; it scores first in the
    precedence, so elder's repique (point 1 + octave 18 + trio of kings 3 = 22) falls."""
    game = new(
        [
            "AS KS QS JS TS 9S 8S 7S KH KD",
            "AH TH 9H 8H 7H AD TD 9D 8D 7D",
            "QH JH QD JD AC KC QC JC TC 9C",
        ],
        "8C 7C",
    )
    game.apply(2, game.parse("exchange"))
    assert game.rows[REPIQUE] == [90, 0, 0]
    assert "piquet.event.repique" in keys(game)
    play(game, "AS")
    game.apply(1, BLANCHE)
    assert game.rows[REPIQUE] == [0, 0, 0]
    assert game.deal_scores() == [1 + 18 + 3 + 1, 10, 0]
    assert keys(game)[-1] == "piquet.event.repique_withdrawn"
    assert game.view(None).events[-1].args == (("seat", 0),)
    from bot.i18n import catalog
    from bot.render.text import TextRenderer

    said = TextRenderer(catalog("sv"), ["Anna", "Bo", "Cia"]).msg(game.view(None).events[-1])
    assert said.startswith("Anna förlorar poängen för kombinationer före motspelarna")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_passes_clockwise_and_elder_leads_every_deal(players: int) -> None:
    """§3.1, §3.10: the deal passes clockwise (alternates with two); the dealer's left leads."""
    game = SPEC.new(players, rng=random.Random(SEED[players]))
    assert isinstance(game, Piquet)
    rng = random.Random(7)
    dealers: list[int] = []
    while not game.is_over():
        if game.dealt > len(dealers):
            dealers.append(game.dealer)
        if (
            game.trick_no == 1 and not game.trick and game.phase == PLAY_PHASE
        ):  # about to lead trick 1
            assert game.to_act() == {(game.dealer + 1) % players}
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    first = players - 1
    assert dealers == [(first + i) % players for i in range(len(dealers))]
    assert len(dealers) == game.partie


def _random_deal_until(players: int, wanted: str) -> Piquet:
    for seed in range(200):
        game = SPEC.new(players, rng=random.Random(seed))
        assert isinstance(game, Piquet)
        rng = random.Random(seed)
        while game.dealt == 1:
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
        if wanted in keys(game):
            return game
    raise AssertionError(f"no deal with {wanted}")


def test_three_players_two_tied_for_most_tricks_get_five_each() -> None:
    game = _random_deal_until(3, "piquet.event.cards_shared")
    row = next(r for r in game.past_rows if r.label.key == "piquet.sheet.cards")
    assert sorted(v or 0 for v in row.cells) == [0, 5, 5]


def test_three_players_settlement_ends_the_partie() -> None:
    game = SPEC.new(3, rng=random.Random(2))
    rng = random.Random(2)
    while not game.is_over():
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    assert isinstance(game, Piquet)
    assert game.dealt == 6
    payments, net = scoring.settlement(game.totals)
    sheet = game.view(None).sheet
    assert sheet is not None
    settled = next(r for r in sheet.rows if r.label.key == "piquet.sheet.settlement")
    assert settled.cells == tuple(net)
    pays = [m for m in game.view(None).events if m.key == "piquet.event.pays"]
    assert len(pays) == len(payments)
    assert game.result().scores == tuple(game.totals)


# --- a whole two-player partie, refusals, notation and what each seat sees -----------------------


def test_two_players_partie_of_six_deals_adds_up() -> None:
    game = SPEC.new(2, rng=random.Random(1))
    rng = random.Random(1)
    while not game.is_over():
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, legal[rng.randrange(len(legal))])
    assert isinstance(game, Piquet)
    assert game.dealt in (6, 8)
    sheet = game.view(0).sheet
    assert sheet is not None
    deals = [r.cells for r in sheet.rows if r.label.key == "piquet.sheet.deal"]
    assert len(deals) == game.dealt
    assert sheet.rows[-1].cells == tuple(sum(d[s] or 0 for d in deals) for s in (0, 1))
    assert game.result().scores == sheet.rows[-1].cells
    assert "piquet.event.margin" in keys(game)
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(0, parse_card("AS"))


def test_refusals_change_nothing() -> None:
    game = after_exchange(PQ1_ELDER, PQ1_YOUNGER)
    before = game.view(0)
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(1, game.parse("KC"))
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.apply(0, game.parse("7C"))
    with pytest.raises(IllegalActionError, match="play a card"):
        game.apply(0, game.parse("exchange AS KS QS"))
    with pytest.raises(IllegalActionError, match="carte blanche"):
        game.apply(0, BLANCHE)
    assert game.view(0) == before
    play(game, "AH")
    after_lead = game.view(1)
    with pytest.raises(IllegalActionError, match="follow suit"):
        game.apply(1, game.parse("KC"))  # younger holds hearts
    assert game.view(1) == after_lead


def test_notation_round_trips_and_malformed_text_is_refused() -> None:
    game = after_exchange(PQ1_ELDER, PQ1_YOUNGER)
    for text in ("exchange 7C 8D 9H", "exchange", "blanche", "expose", "hide", "QS", "TH"):
        assert game.notation(game.parse(text)) == text
    assert game.parse("EXCHANGE 9h 7c 8d") == game.parse("exchange 7C 8D 9H")
    for text in ("exchange 7C 7C", "exchange XX", "JK", "swap 7C", "play QS"):
        with pytest.raises(NotationError):
            game.parse(text)


def test_what_each_seat_sees() -> None:
    game = new(
        ["AS KS QS JS TS 9S 8S 7S AH KH QH JH", "AD KD QD JD TD 9D 8D AC KC QC JC TC"],
        "7D 9C 8C 7C TH 9H 8H 7H",
    )
    game.apply(0, game.parse("exchange 7S 8S 9S"))
    mine, theirs, spectator = game.view(0), game.view(1), game.view(None)
    assert Msg.of("piquet.note.discards", cards="9S 8S 7S") in mine.notes
    assert not theirs.notes
    assert spectator.hand == ()
    assert theirs.seats[0].cards == 12
    assert next(p for p in spectator.piles if p.key == "piquet.pile.discards").hidden == 3
    assert game.view(1).to_act == frozenset({1})


# --- the rule-based computer player ---------------------------------------------------------------


def test_the_rules_player_claims_carte_blanche_then_lays_away_its_weakest_cards() -> None:
    game = new([BLANK_ELDER, BLANK_YOUNGER], "AD TD 8D AC TC 9C 7C 7H")
    rng = random.Random(1)
    assert choose(game, 0, "rules", rng) == BLANCHE
    game.apply(0, BLANCHE)
    action = choose(game, 0, "rules", rng)
    laid = game.notation(action).split()[1:]
    assert 3 <= len(laid) <= 5
    assert "AS" not in laid
    assert "AH" not in laid


def test_the_rules_player_beats_random_players() -> None:
    wins = 0
    for seed in range(6):
        for rules_seat in (0, 1):
            game = SPEC.new(2, rng=random.Random(seed))
            rng = random.Random(seed)
            while not game.is_over():
                (seat,) = game.to_act()
                kind = "rules" if seat == rules_seat else "random"
                game.apply(seat, choose(game, seat, kind, rng))
            wins += game.result().places[rules_seat] == 1
    assert wins >= 10


def test_determinize_keeps_the_published_calls_and_the_shown_cards() -> None:
    game = after_exchange(PQ2_ELDER, PQ2_YOUNGER)
    play(game, "KS 7H")
    for i in range(5):
        other = game.determinize(0, random.Random(i))
        assert isinstance(other, Piquet)
        assert other.hands[0] == game.hands[0]
        assert other.view(0) == game.view(0)
        assert other._calls_from(other.declared_hands) == game.calls
        assert other.hands[1] & game.shown[1] == game.shown[1]
    assert any(game.determinize(0, random.Random(i)).hands[1] != game.hands[1] for i in range(5))


def test_three_players_the_dialogue_goes_round_the_table() -> None:
    game = new(
        [
            "AS KS TS 8S AH AD AC KC 8C 7C",  # elder: point of 4, four aces
            "KH QH JH 9H 8H QS JS QC JC TC",  # point of 5 (47), tierces to K and Q, two trios
            "KD QD JD 9D 7D 9S 7S TH 7H 9C",  # the dealer: point of 5 (46), tierce to K
        ],
        "TD 8D",
    )
    game.apply(2, game.parse("exchange"))
    assert calls(game, 0) == [
        Msg.of("piquet.said.point", count=4),
        Msg.of("piquet.said.no_sequence"),
        Msg.of("piquet.said.quatorze"),
    ]
    assert calls(game, 1) == [
        Msg.of("piquet.said.point", count=5),
        Msg.of("piquet.said.pips", pips=47),
        Msg.of("piquet.said.sequence", length=3),
        Msg.of("piquet.said.top_K"),
        Msg.of("piquet.said.good", caller_seat=0),
    ]
    assert calls(game, 2) == [
        Msg.of("piquet.said.equal"),
        Msg.of("piquet.said.good", caller_seat=1),
        Msg.of("piquet.said.equal"),
        Msg.of("piquet.said.equal"),
        Msg.of("piquet.said.good", caller_seat=0),
    ]
    assert "piquet.event.sequence_equal" in keys(game)
    assert game.rows[scoring.POINT] == [0, 1, 0]
    assert game.rows[scoring.SEQUENCES] == [0, 0, 0]
    assert game.rows[scoring.SETS] == [14, 0, 0]
    assert game.blocked  # S5: the equal sequences
    play(game, "AS")
    assert game.deal_scores() == [15, 1, 0]


def test_transcript_a_partie_of_capots_is_drawn_after_eight_deals() -> None:
    """Every deal deals the PQ-1 hands: the elder has his repique (94), leads ten cards above
    nine (104) and takes every trick (capot 40): 144 a deal, 0 for the dealer. Each deals three
    times, so 432-432 after six deals; two more deals, 576-576: a draw (D-PQ-9)."""
    order, e_give, y_give = exchange_deck(PQ1_ELDER, PQ1_YOUNGER)
    game = SPEC.new(2, rng=random.Random(SEED[2]), decks=[order] * 8)
    assert isinstance(game, Piquet)
    script = "AS 9D KS TD QS JD JS QD TS 7H 9S 8H AH 9H KH TH QH JH AC QC AD KD 8D KC"
    for deal in range(1, 9):
        exchange(game, e_give, y_give)
        play(game, script)
        deal_row = [r for r in game.past_rows if r.label.key == "piquet.sheet.deal"][-1]
        seat_1_leads = deal % 2 == 0  # seat 0 is elder in deals 1, 3, 5 and 7
        assert deal_row.cells == ((0, 144) if seat_1_leads else (144, 0))
        if deal == 6:
            assert game.totals == [432, 432]
            assert "piquet.event.extra_deals" in keys(game)
    assert game.is_over()
    assert game.result().scores == (576, 576)
    assert game.result().places == (1, 1)
    assert "piquet.event.drawn" in keys(game)


def test_each_flag_can_be_set_on_its_own() -> None:
    options = apply_option_text(PiquetOptions(), {"ten_plus": "off", "point_flat_1": "off"})
    assert (options.flag("ten_plus"), options.flag("point_flat_1")) == (False, False)
    assert options.flag("seed_exchange")  # the rest follows the seed profile
    assert PiquetOptions(profile="classic", capot_no_last="on").flag("capot_no_last")
    game = after_exchange(PQ1_ELDER, PQ1_YOUNGER, options)
    assert game.rows[scoring.POINT] == [6, 0]  # one per card, with S1 off
    play(game, "9S 7H")  # a lead below ten scores with S3 off
    assert game.rows[PLAY] == [1, 0]
