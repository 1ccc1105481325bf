"""Bräus: the worked examples of rules/three-to-five-player.md §3.8, full-deal transcripts to the
end of a match, the ranking, the variant, what each seat may see, and refusals.

Seats N(0), E(1), S(2), W(3); N-S against E-W. ``deck`` interleaves four nine-card hands one card
at a time from forehand, as the dealer deals them. ``position`` sets hands and trick counts in the
middle of a deal, for the examples that start there (the cards need not add up to a deck).
"""

from __future__ import annotations

import random

import pytest

from games.ai import choose, make_player
from games.braus import (
    DECK,
    PASS,
    RANKING,
    SPEC,
    STRENGTH,
    Braus,
    BrausOptions,
)
from games.cards import Card, mask_of, parse_card, parse_deck
from games.core import IllegalActionError, Msg, NotationError, View

N, E, S, W = range(4)
PASSED_LEAD = BrausOptions(sevens_on_passed_lead=True)


def deck(forehand: int, *hands: str) -> list[int]:
    """The deck for hands given as N, E, S, W (nine codes each), dealt from ``forehand``."""
    cards = [parse_deck(h.split()) for h in hands]
    assert [len(h) for h in cards] == [9, 9, 9, 9]
    order = [cards[(forehand + i) % 4][i // 4] for i in range(36)]
    assert sorted(order) == sorted(parse_deck(_ALL.split())), "not the 36-card deck"
    return order


_ALL = "JC 8S KH 9C 9S 9H 9D AC AS AH AD JS JH JD 6C 6S 6H 6D 7C 7S 7H 7D " + (
    "8C 8H 8D TC TS TH TD QC QS QH QD KS KD KC"
)


def new(*decks: list[int], dealer: int = W, options: BrausOptions | None = None) -> Braus:
    return Braus(options or BrausOptions(), random.Random(7), list(decks), first_dealer=dealer)


def position(
    north: str,
    east: str,
    south: str,
    west: str,
    leader: int = N,
    tricks: tuple[int, int] = (0, 0),
    streak: tuple[int, int] = (-1, 0),
    options: BrausOptions | None = None,
) -> Braus:
    """A deal in progress: these hands, ``leader`` to lead, the tricks (N-S, E-W) counted so far
    and the latest run of counted tricks (side, length)."""
    game = new(deck(N, *_SPREAD), options=options)
    game.hands = [mask_of(parse_deck(h.split())) for h in (north, east, south, west)]
    game.tricks = list(tricks)
    game.streak = list(streak)
    game.won, game.laid, game.dead = [0, 0], [0, 0], 0
    game.leader = game.turn = leader
    game.events.clear()
    return game


_SPREAD = (
    "JC 9S AC JS 6C 7C 8C TS QC",
    "8S 9H AS JH 6S 7S 8H TH QS",
    "KH 9D AH JD 6H 7H 8D TD QH",
    "9C AD 6D 7D TC QD KS KD KC",
)


def play(game: Braus, script: str) -> None:
    """Actions in turn order, each by the one seat to act: ``"JC pass pass pass 8S ..."``."""
    for text in script.split():
        (seat,) = game.to_act()
        game.apply(seat, game.parse(text))


def legal(game: Braus, seat: int) -> list[str]:
    return [game.notation(a) for a in game.legal_actions(seat)]


def keys(view: View) -> list[str]:
    return [m.key for m in view.events]


def last(view: View, key: str) -> Msg:
    return [m for m in view.events if m.key == key][-1]


# --- the ranking (3.2) ----------------------------------------------------------------------------


def test_br_ranking_table_makdorar_first_and_three_classes_of_card() -> None:
    order = " ".join(Card(c).__str__() for c in RANKING)
    assert order == "JC 8S KH 9C 9S 9H 9D AC AS AH AD JS JH JD 6C 6S 6H 6D"
    assert sorted(DECK) == sorted(parse_deck(_ALL.split()))  # 36 cards: the 2s to 5s removed
    worthless = [c for c in parse_deck(_ALL.split()) if STRENGTH[c] == 0]
    assert len(RANKING) == 18
    assert len(worthless) == 4 + 14
    assert STRENGTH[parse_card("KC")] == 0
    assert STRENGTH[parse_card("KH")] == 16


# --- the worked examples (3.8) --------------------------------------------------------------------


def test_br_ex1_forced_beats() -> None:
    game = new(
        deck(
            N,
            "7H 7C AD TC TS TH TD QC QS",
            "9D JS JH JD 6D 6H QH QD KS",
            "8S AC AS AH 6C 6S KD 8C 8H",
            "JC KH 9C 9S 9H 7S 7D KC 8D",
        )
    )
    view = game.view(None)
    assert view.seats[N].tricks == 2
    assert view.seats[E].tricks == 0
    assert last(view, "braus.event.sevens").arg("count") == 2
    assert game.to_act() == {N}
    play(game, "AD")
    assert legal(game, E) == ["9D"]  # J♠ is lower than A♦
    play(game, "9D")
    assert legal(game, S) == ["8S"]  # A♣ is lower than 9♦
    play(game, "8S")
    assert legal(game, W) == ["JC"]
    play(game, "JC")
    view = game.view(None)
    assert last(view, "table.event.trick_won") == Msg.of("table.event.trick_won", seat=W, card="JC")
    # W won and lays down his sevens at once: E-W 1 + 2
    assert last(view, "braus.event.sevens") == Msg.of(
        "braus.event.sevens", seat=W, cards="7D 7S", count=2
    )
    assert view.seats[W].tricks == 3
    assert view.seats[N].tricks == 2
    assert game.to_act() == {W}
    assert view.trick == ()


def test_br_ex2_worthless_lead_forces_a_playable_card() -> None:
    game = new(
        deck(
            N,
            "QH JC 8S KH 9C 9S 9H 9D AC",
            "8C 8H 8D TC TS TH TD QC QS",
            "6D AS AH AD JS JD 6C 6S 6H",
            "JH 7C 7S 7H 7D QD KS KD KC",
        )
    )
    play(game, "QH")
    assert legal(game, E) == ["pass"]  # only worthless cards
    play(game, "pass")
    assert "6D" in legal(game, S)
    assert "pass" not in legal(game, S)
    play(game, "6D")
    assert legal(game, W) == ["JH"]
    play(game, "JH")
    view = game.view(None)
    assert last(view, "table.event.trick_won").arg("card") == "JH"
    assert game.won[1] == mask_of(parse_deck(["QH", "6D", "JH"]))
    assert view.seats[E].tricks == 1 + 4  # the trick, then W's four sevens


def test_br_ex3_dead_trick_same_leader_again() -> None:
    game = position("KC 6D", "TC QC", "TS QS", "TH QH", tricks=(5, 5))
    play(game, "KC pass pass pass")
    view = game.view(None)
    assert last(view, "braus.event.dead_trick") == Msg.of(
        "braus.event.dead_trick", seat=N, card="KC"
    )
    assert [p.cards for p in view.piles if p.key == "braus.pile.dead"] == [(Card.parse("KC"),)]
    assert game.to_act() == {N}
    assert view.seats[N].tricks == 5
    assert view.seats[E].tricks == 5


def test_br_ex3_five_five_without_the_king_of_clubs_is_redealt_by_the_same_dealer() -> None:
    game = position("KC QD", "TC QC", "TS QS", "TH QH", tricks=(5, 5))
    play(game, "KC pass pass pass")  # dead; nobody holds a playable card: the deal is over
    view = game.view(None)
    assert last(view, "braus.event.no_rita") == Msg.of("braus.event.no_rita", seat=W, won=5, lost=5)
    assert view.deal == 2
    assert view.dealer == W
    assert game.ritor == [0, 0]
    assert view.sheet is not None
    assert view.sheet.rows[0].cells == (None, None)


def test_br_ex4_king_of_clubs_decides_five_five() -> None:
    game = position("KC QD", "TC QC", "TS QS", "6C TH", tricks=(5, 4))
    play(game, "KC pass pass")
    assert legal(game, W) == ["6C"]
    play(game, "6C")  # nobody beats 6♣ (N led, and plays no more): E-W 5-5 with K♣
    view = game.view(None)
    assert last(view, "braus.event.king_of_clubs") == Msg.of(
        "braus.event.king_of_clubs", seat=E, partner_seat=W
    )
    assert game.ritor == [0, 1]
    assert view.dealer == N
    assert view.deal == 2


def test_br_ex5_jan_six_in_a_row_is_two_ritor() -> None:
    # events EW, EW, NS x5 so far; N-S win the next trick: the last six events are all N-S
    game = position("JC QD", "TC QC", "TS QS", "6C TH", tricks=(5, 2), streak=(0, 5))
    play(game, "JC pass pass pass")
    assert last(game.view(None), "braus.event.jan").arg("seat") == N
    assert game.ritor == [2, 0]


def test_br_ex5_six_not_in_a_row_is_one_rita() -> None:
    # events NS, EW, NS x4 so far; N-S reach six with the next trick, but EW is among the six
    game = position("JC QD", "TC QC", "TS QS", "6C TH", tricks=(5, 1), streak=(0, 4))
    play(game, "JC pass pass pass")
    assert last(game.view(None), "braus.event.rita").arg("seat") == N
    assert game.ritor == [1, 0]


def test_br_ex6_the_sixth_trick_ends_the_deal_before_sevens() -> None:
    game = position("6D QD", "TC QC", "JC 7D", "TH QH", tricks=(5, 3))
    play(game, "6D pass JC pass")  # S wins: N-S have six, S lays nothing down
    view = game.view(None)
    assert "braus.event.sevens" not in keys(view)
    assert last(view, "braus.event.rita").arg("seat") == N
    assert game.ritor == [1, 0]
    assert game.dealt == 2


def test_br_ex6_a_seven_laid_after_the_fifth_trick_makes_six() -> None:
    game = position("6D QD", "TC QC", "JC 7D", "TH QH", tricks=(4, 3))
    play(game, "6D pass JC pass")  # S wins (5) and lays 7♦ (6)
    view = game.view(None)
    assert last(view, "braus.event.sevens") == Msg.of(
        "braus.event.sevens", seat=S, cards="7D", count=1
    )
    assert last(view, "braus.event.rita").arg("seat") == N
    assert game.ritor == [1, 0]


def test_br_ex6_sevens_are_counted_one_by_one_up_to_the_sixth() -> None:
    game = position("6D QD", "TC QC", "JC 7D 7H", "TH QH", tricks=(4, 3))
    play(game, "6D pass JC pass")  # S wins (5) and needs only one of his sevens (6)
    view = game.view(None)
    assert last(view, "braus.event.sevens").arg("count") == 1
    assert last(view, "braus.event.rita") == Msg.of("braus.event.rita", seat=N, partner_seat=S)
    assert view.sheet is not None
    assert view.sheet.rows[0].label == Msg.of(
        "braus.sheet.rita", deal=1, won=6, lost=3, seat=N, partner_seat=S
    )


def test_br_ex7_passed_lead_lays_no_sevens() -> None:
    game = position("6D QH", "JC", "7D 6H", "9S TH")
    play(game, "6D JC pass pass")  # E wins with his last card
    view = game.view(None)
    assert last(view, "braus.event.lead_passed") == Msg.of(
        "braus.event.lead_passed", seat=E, next_seat=S
    )
    assert game.to_act() == {S}
    assert sorted(legal(game, S)) == ["6H", "7D"]
    assert view.seats[S].tricks == 0
    play(game, "7D")  # a worthless card now
    assert legal(game, W) == ["9S"]
    play(game, "9S pass")  # N cannot beat 9♠; E has no cards and is skipped
    assert game.won[1] == mask_of(parse_deck(["JC", "6D", "7D", "9S"]))
    assert game.to_act() == {W}


def test_br_ex7_a_lone_seven_led_after_a_passed_lead_is_a_dead_trick() -> None:
    game = position("6D QH", "JC", "7D 6H", "QD TH")
    play(game, "6D JC pass pass 7D pass pass")
    view = game.view(None)
    assert last(view, "braus.event.dead_trick") == Msg.of(
        "braus.event.dead_trick", seat=S, card="7D"
    )
    assert game.to_act() == {S}
    assert legal(game, S) == ["6H"]


def test_br_ex7_with_sevens_on_passed_lead_the_seven_is_a_trick() -> None:
    game = position("6D QH", "JC", "7D 6H", "9S TH", options=PASSED_LEAD)
    play(game, "6D JC pass pass")
    view = game.view(None)
    assert last(view, "braus.event.sevens").arg("seat") == S
    assert view.seats[S].tricks == 1
    assert game.to_act() == {S}
    assert legal(game, S) == ["6H"]


def test_br_ex8_forced_pass_is_an_action() -> None:
    game = position("JC 7H 6D", "9S QC", "AH QS", "8S TH")
    play(game, "JC")
    for seat in (E, S, W):
        assert game.to_act() == {seat}
        assert legal(game, seat) == ["pass"]
        game.apply(seat, PASS)
    view = game.view(None)
    assert last(view, "table.event.trick_won").arg("seat") == N
    assert last(view, "braus.event.sevens").arg("cards") == "7H"  # N lays his seven and leads
    assert game.to_act() == {N}
    assert legal(game, N) == ["6D"]
    assert [m.arg("seat") for m in view.events if m.key == "braus.event.passed"] == [E, S, W]


# --- transcripts: whole deals to the end of a match -----------------------------------------------

JAN_N = deck(  # dealer W: N lays 7♣ and takes five tricks with the top five cards
    N,
    "JC 8S KH 9C 9S 9H 9D AC 7C",
    "AS AH AD JS JH JD 6C 6S 6H",
    "6D 7S 7H 7D 8C 8H 8D TC TS",
    "TH TD QC QS QH QD KS KD KC",
)
JAN_S_AFTER_E = deck(  # dealer N: E leads a worthless card, S takes six tricks in a row
    E,
    "AH AD JS JH JD 6C 6S 6H 6D",
    "QC 8C 8H 8D TC TS TH TD QS",
    "JC 8S KH 9C 9S 9H 9D AC AS",
    "7C 7S 7H 7D QH QD KS KD KC",
)
JAN_S = deck(  # dealer E: S lays 7♣ and takes five tricks
    S,
    "AS AH AD JS JH JD 6C 6S 6H",
    "6D 7S 7H 7D 8C 8H 8D TC TS",
    "JC 8S KH 9C 9S 9H 9D AC 7C",
    "TH TD QC QS QH QD KS KD KC",
)
TOP_FIVE = (
    "JC pass pass pass 8S pass pass pass KH pass pass pass 9C pass pass pass 9S pass pass pass"
)


def test_transcript_three_jans_win_the_match_six_nil_pissmunkar() -> None:
    game = new(JAN_N, JAN_S_AFTER_E, JAN_S)
    play(game, TOP_FIVE)
    assert game.ritor == [2, 0]
    assert game.dealer == N
    assert game.dealt == 2
    play(game, "QC JC pass pass 8S pass pass pass KH pass pass pass")
    play(game, "9C pass pass pass 9S pass pass pass 9H pass pass pass")
    assert game.ritor == [4, 0]
    assert game.dealer == E
    play(game, TOP_FIVE)
    assert game.is_over()
    result = game.result()
    assert result.scores == (6, 0, 6, 0)
    assert result.places == (1, 2, 1, 2)
    view = game.view(E)
    assert game.whitewash()
    assert last(view, "braus.event.pissmunkar") == Msg.of(
        "braus.event.pissmunkar", seat=E, partner_seat=W
    )
    assert Msg.of("braus.note.pissmunk") in view.seats[E].notes
    assert not view.seats[N].notes
    assert last(view, "braus.event.match_won") == Msg.of(
        "braus.event.match_won", seat=N, partner_seat=S, won=6, lost=0
    )
    assert view.sheet is not None
    assert [r.cells for r in view.sheet.rows] == [(2, None), (2, None), (2, None), (6, 0)]
    assert view.teams == ((0, 2), (1, 3))
    assert game.to_act() == frozenset()
    assert game.legal_actions(N) == []


def test_transcript_match_goes_on_past_a_no_rita_deal() -> None:
    game = new(JAN_N)
    play(game, TOP_FIVE)
    assert game.ritor == [2, 0]
    assert game.dealt == 2
    assert not game.is_over()
    view = game.view(N)
    assert view.seats[N].score == view.seats[S].score == 2
    assert view.seats[N].tricks == 0
    assert len(view.hand) == 9


# --- the variant, the view, refusals --------------------------------------------------------------


def test_variant_preset_and_option() -> None:
    assert SPEC.preset("sevens_on_passed_lead") == PASSED_LEAD
    assert SPEC.preset("standard") == BrausOptions()


def test_refusals_name_the_rule_and_change_nothing() -> None:
    game = new(JAN_N)
    before = game.view(None)
    with pytest.raises(IllegalActionError, match="not your turn"):
        game.apply(E, parse_card("AS"))
    with pytest.raises(IllegalActionError, match="on lead"):
        game.apply(N, PASS)
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.apply(N, parse_card("AS"))
    play(game, "9D")
    with pytest.raises(IllegalActionError, match="AS is not higher than 9D"):
        game.apply(E, parse_card("AS"))
    assert game.view(None) == game.clone().view(None)
    assert game.to_act() == {E}
    game.apply(E, PASS)  # E holds nothing above 9♦ (A♠ is lower)
    assert game.view(None) != before


def test_a_player_holding_a_higher_card_may_not_pass() -> None:
    game = position("6D QD", "JC TC", "TS QS", "TH QH")
    play(game, "6D")
    before = game.view(None)
    with pytest.raises(IllegalActionError, match="higher than 6D: you must play it"):
        game.apply(E, PASS)
    with pytest.raises(IllegalActionError, match="TC is not higher than 6D"):
        game.apply(E, parse_card("TC"))
    assert game.view(None) == before
    assert legal(game, E) == ["JC"]


def test_notation_round_trips_and_malformed_text_is_refused() -> None:
    game = new(JAN_N)
    assert game.parse(" Pass ") == PASS
    assert game.notation(PASS) == "pass"
    assert game.notation(game.parse("jc")) == "JC"
    with pytest.raises(NotationError):
        game.parse("stå")


def test_view_shows_sides_tricks_ritor_and_no_hidden_card() -> None:
    game = new(JAN_N)
    play(game, "JC pass pass")
    view = game.view(None)
    assert view.hand == ()
    assert view.teams == ((0, 2), (1, 3))
    assert [s.cards for s in view.seats] == [7, 9, 9, 9]
    assert view.seats[N].tricks == view.seats[S].tricks == 1  # the side's tricks: 7♣
    assert view.trick == ((N, Card.parse("JC")),)
    assert view.phase == Msg.of("braus.phase.beat", seat=W, card="JC")
    assert next(p.cards for p in view.piles if p.key == "braus.pile.side_tricks") == (
        Card.parse("7C"),
    )


def test_determinize_keeps_what_the_passes_showed() -> None:
    game = new(JAN_N)
    play(game, "9D")  # E passes on 9♦: he holds nothing higher from now on
    play(game, "pass")
    rng = random.Random(3)
    higher_than_9d = mask_of(c for c in RANKING if STRENGTH[c] > STRENGTH[parse_card("9D")])
    for _ in range(30):
        other = game.determinize(S, rng)
        assert other.view(S) == game.view(S)
        assert other.hands[E] & higher_than_9d == 0
        assert other.hands[N] & mask_of(parse_deck(["7C", "7S", "7H", "7D"])) == 0  # N laid his
        assert sum(h.bit_count() for h in other.hands) == 34


# --- the computer player --------------------------------------------------------------------------


def _rules_side_wins(matches: int) -> int:
    """Matches won by a rule-based side against a random side on the same deals, sides swapped."""
    rules, rnd = make_player("rules"), make_player("random")
    won = 0
    for seed in range(matches):
        for side in (0, 1):
            game = SPEC.new(4, rng=random.Random(seed))
            rng = random.Random(seed)
            while not game.is_over():
                (seat,) = game.to_act()
                game.apply(seat, choose(game, seat, rules if seat % 2 == side else rnd, rng))
            won += game.result().places[side] == 1
    return won


def test_rules_player_beats_random_player() -> None:
    assert _rules_side_wins(20) >= 26  # of 40; about three in four over many matches


def test_rules_player_leads_a_sure_card_then_probes_with_a_worthless_one() -> None:
    def lead(north: str) -> str:
        game = position(north, "8S TC", "AH TS", "6C TH")
        return game.notation(choose(game, N, "rules", random.Random(1)))

    assert lead("JC 9D QS KC") == "JC"  # nothing ranks above J♣: a sure trick
    assert lead("9D QS KC") == "QS"  # no sure card: a worthless probe, K♣ kept
    assert lead("9D KC") == "KC"


def test_rules_player_beats_an_opponent_with_a_sure_card_and_its_partner_cheaply() -> None:
    game = position("6D", "AS", "JC 9S 6C", "TH")
    play(game, "6D AS")  # E (an opponent) is on top
    assert game.notation(choose(game, S, "rules", random.Random(1))) == "JC"
    game = position("AD", "TC", "JC 9S AS", "8S")
    play(game, "AD pass")  # N (the partner) is on top, but W may still beat
    assert game.notation(choose(game, S, "rules", random.Random(1))) == "JC"
    game = position("AD", "TC", "JC 9S AS", "QH")
    game.hands[W] = 0
    play(game, "AD pass")  # nobody after S: the cheapest card that beats
    assert game.notation(choose(game, S, "rules", random.Random(1))) == "AS"


# --- the rules as written, against random deals ---------------------------------------------------


class _Deal:
    """Rules 3.4 and 3.5 read sentence by sentence, independent of the engine: sets of cards,
    a list of counted tricks (sides, in order) and OBTAIN_LEAD as the spec writes it."""

    def __init__(self, hands: list[set[int]], forehand: int, passed_lead_sevens: bool) -> None:
        self.hands = hands
        self.passed_lead_sevens = passed_lead_sevens
        self.tricks = [0, 0]
        self.counted: list[int] = []
        self.won: list[set[int]] = [set(), set()]
        self.trick: list[tuple[int, int]] = []
        self.over = False
        self.leader = self.turn = forehand
        self.obtain(forehand, "start")

    def count(self, side: int) -> None:
        self.tricks[side] += 1
        self.counted.append(side)
        self.over = self.tricks[side] >= 6

    def obtain(self, seat: int, how: str) -> None:
        if how in ("start", "won") or (how == "passed" and self.passed_lead_sevens):
            for seven in sorted(c for c in self.hands[seat] if Card(c).rank == 7):
                self.hands[seat].discard(seven)
                self.count(seat % 2)
                if self.over:
                    return
        left = set(RANKING) | (
            {c for c in range(52) if Card(c).rank == 7} if self.passed_lead_sevens else set()
        )
        if not any(h & left for h in self.hands):
            self.over = True
        elif not self.hands[seat]:
            nxt = (seat + 1) % 4
            while not self.hands[nxt]:
                nxt = (nxt + 1) % 4
            self.obtain(nxt, "passed")
        else:
            self.leader = self.turn = seat
            self.trick = []

    def legal(self) -> set[int]:
        hand = self.hands[self.turn]
        if not self.trick:
            return set(hand)
        top = self.trick[-1][1]
        higher = {
            c
            for c in hand
            if c in RANKING and (top not in RANKING or RANKING.index(c) < RANKING.index(top))
        }
        return higher or {PASS}

    def play(self, action: int) -> None:
        if action != PASS:
            self.hands[self.turn].discard(action)
            self.trick.append((self.turn, action))
        nxt = (self.turn + 1) % 4
        while nxt != self.leader and not self.hands[nxt]:
            nxt = (nxt + 1) % 4
        if nxt != self.leader:
            self.turn = nxt
            return
        winner, top = self.trick[-1]
        if top not in RANKING:
            self.obtain(self.leader, "dead")
            return
        self.won[winner % 2] |= {c for _, c in self.trick}
        self.count(winner % 2)
        if not self.over:
            self.obtain(winner, "won")

    def ritor(self) -> list[int]:
        out = [0, 0]
        for side in (0, 1):
            if self.tricks[side] >= 6:
                out[side] = 2 if self.counted[-6:] == [side] * 6 else 1
            elif self.tricks == [5, 5] and parse_card("KC") in self.won[side]:
                out[side] = 1
        return out


@pytest.mark.parametrize("options", [BrausOptions(), PASSED_LEAD])
def test_random_deals_play_and_score_as_the_rules_are_written(options: BrausOptions) -> None:
    rng = random.Random(5)
    for seed in range(150):
        dealt = [parse_deck(_ALL.split())[i] for i in random.Random(seed).sample(range(36), 36)]
        game = new(dealt, dealer=seed % 4, options=options)
        forehand = (seed % 4 + 1) % 4
        hands = [{dealt[i] for i in range(36) if (forehand + i) % 4 == s} for s in range(4)]
        rules = _Deal(hands, forehand, options.sevens_on_passed_lead)
        while game.dealt == 1:
            assert not rules.over
            assert game.to_act() == {rules.turn}
            legal_now = game.legal_actions(rules.turn)
            assert set(legal_now) == rules.legal()
            action = legal_now[rng.randrange(len(legal_now))]
            game.apply(rules.turn, action)
            rules.play(action)
        assert rules.over
        assert game.ritor == rules.ritor()


def test_each_deal_s_score_line_names_the_side_that_won_it_first() -> None:
    from bot.i18n import catalog
    from bot.render.text import TextRenderer
    from games.braus import E_JAN, E_KING, E_NO_RITA, E_RITA

    game = SPEC.new(4, rng=random.Random(1))
    assert isinstance(game, Braus)
    # (deal, side 0's tricks, side 1's tricks, side that scored, ritor, kind)
    game.sheet = [
        (1, 2, 5, 1, 1, E_RITA),
        (2, 6, 0, 0, 2, E_JAN),
        (3, 5, 5, 1, 1, E_KING),
        (4, 4, 4, -1, 0, E_NO_RITA),
    ]
    sheet = game.view(None).sheet
    assert sheet is not None
    sv = TextRenderer(catalog("sv"), ["Anna", "Bo", "Cia", "Dan"])
    en = TextRenderer(catalog("en"), ["Anna", "Bo", "Cia", "Dan"])
    assert [sv.msg(r.label) for r in sheet.rows[:4]] == [
        "Giv 1: Bo & Dan 5–2",
        "Giv 2: Anna & Cia 6–0, jan",
        "Giv 3: Bo & Dan 5–5, klöver kung",
        "Giv 4: 4–4, ingen rita",
    ]
    assert en.msg(sheet.rows[0].label) == "Deal 1: Bo & Dan 5–2"
