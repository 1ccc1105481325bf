"""Snipp snapp snorum and Jig: the worked examples of rules/party.md §3.7 (SSS-1..SSS-5) and
§3.8.3 (JIG-1..JIG-4), a transcript from an explicit deck, the variants and the refusals."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from games.cards import RANKS, SUITS, code, parse_card, randbelow
from games.core import Game, IllegalActionError, Msg, NotationError
from games.snipp_snapp_snorum import (
    SPEC,
    SnippSnappSnorum,
    SnippSnappSnorumOptions,
    jig_follows,
)

A, B, C, D = range(4)
EVERY_CARD = [r + s for s in SUITS for r in RANKS]
JIG = SnippSnappSnorumOptions(jig=True)


def _seed_for_dealer(players: int, dealer: int) -> int:
    """A seed whose game draws ``dealer`` (the dealer is the game's first random draw)."""
    return next(s for s in range(1000) if randbelow(random.Random(s), players) == dealer)


def _position(
    hands: Sequence[Sequence[str]],
    current: int = A,
    options: SnippSnappSnorumOptions | None = None,
) -> SnippSnappSnorum:
    """A game where the players hold just these cards (the rest of the deck already set aside)
    and ``current`` is to lead. For the examples that list only the cards that matter."""
    n = len(hands)
    game = SPEC.new(n, options, rng=random.Random(_seed_for_dealer(n, n - 1)))
    assert isinstance(game, SnippSnappSnorum)
    held = {parse_card(c) for h in hands for c in h}
    game.hands = [sum(1 << parse_card(c) for c in h) for h in hands]
    game.set_aside = [c for c in range(52) if c not in held]
    game.current = current
    return game


def _hand(game: SnippSnappSnorum, seat: int) -> set[str]:
    return {str(c) for c in game.view(seat).hand}


def _events(game: SnippSnappSnorum, last: int) -> list[tuple[str, ...]]:
    """The last events as (kind, seat[, card])."""
    out = []
    for m in game.view(None).events[-last:]:
        args = dict(m.args)
        kind = m.key.rsplit(".", 1)[1]
        out.append(
            (kind, str(args.get("seat", "")), *([str(args["card"])] if "card" in args else []))
        )
    return out


def _play(game: SnippSnappSnorum, moves: Sequence[tuple[int, str]]) -> None:
    for seat, text in moves:
        game.apply(seat, game.parse(text))


# --- SSS-1..SSS-5 ---------------------------------------------------------------------------------


def test_sss1_a_basic_round() -> None:
    game = _position([["9C", "9D", "4S", "KH"], ["2C", "4H", "QD"], ["9H", "9S", "7C"]])
    _play(game, [(A, "lead 9")])
    assert _events(game, 6) == [
        ("led", "0", "9C"),
        ("snipp", "0", "9D"),
        ("passed", "1"),
        ("snapp", "2", "9H"),
        ("snorum", "2", "9S"),
        ("snorum_cleared", "2"),
    ]
    assert game.to_act() == {C}  # C made Snorum and leads next
    assert _hand(game, A) == {"4S", "KH"}
    assert _hand(game, C) == {"7C"}
    assert {"9C", "9D", "9H", "9S"} <= {code(c) for c in game.set_aside}
    assert game.view(None).trick == ()


def test_sss2_snorum_by_the_leader_alone() -> None:
    game = _position([["4C", "4D", "4H", "4S", "8C"], ["2C"], ["3C"]])
    _play(game, [(A, "lead 4")])
    assert [k for k, *_ in _events(game, 5)] == [
        "led",
        "snipp",
        "snapp",
        "snorum",
        "snorum_cleared",
    ]
    assert game.to_act() == {A}
    assert _hand(game, A) == {"8C"}


def test_sss3_the_leader_cannot_hold_back_a_card() -> None:
    game = _position([["9C", "9D", "5S"], ["2C", "9H"], ["3C", "9S"]])
    assert game.legal_actions(A) == [game.parse("lead 5"), game.parse("lead 9")]
    _play(game, [(A, "lead 9")])
    assert _hand(game, A) == {"5S"}  # both nines went down: there is no way to play one


def test_sss4_winning_in_the_middle_of_a_rank() -> None:
    game = _position([["QD", "3C", "3H"], ["QC"], ["QH", "QS", "5D"]])
    _play(game, [(A, "lead Q")])
    assert game.is_over()
    assert _events(game, 4) == [
        ("led", "0", "QD"),
        ("snipp", "1", "QC"),
        ("out", "1"),
        ("over", ""),
    ]
    result = game.result()
    assert result.places == (2, 1, 3)
    assert result.scores == (-2, 0, -3)


def test_sss5_leading_a_rank_not_held_is_refused_and_changes_nothing() -> None:
    game = _position([["9C", "9D", "4S"], ["2C", "4H"], ["9H", "9S"]])
    before = [game.view(s) for s in (None, A, B, C)]
    with pytest.raises(IllegalActionError, match="no 7"):
        _play(game, [(A, "lead 7")])
    with pytest.raises(IllegalActionError, match="not your turn"):
        _play(game, [(B, "lead 2")])
    assert [game.view(s) for s in (None, A, B, C)] == before


# --- JIG-1..JIG-4 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("previous", "legal", "illegal"),
    [
        ("8H", "9H TH JH QH KH AH", "7H 8S 9S"),
        ("AS", "2S 3S 4S 5S 6S 7S 8S 9S TS", "JS QS KS AH 2H"),
        ("KC", "AC", "2C QC AD"),
        ("TD", "JD QD KD AD", "9D 2D JH"),
    ],
)
def test_jig1_the_legality_table(previous: str, legal: str, illegal: str) -> None:
    prev = parse_card(previous)
    assert all(jig_follows(prev, parse_card(c)) for c in legal.split())
    assert not any(jig_follows(prev, parse_card(c)) for c in illegal.split())


def test_jig2_a_full_sequence_with_the_wrap() -> None:
    game = _position(
        [["6S", "3S", "9D"], ["9S", "KS", "2H"], ["4S", "5S", "JD"], ["AS", "8C"]], A, JIG
    )
    _play(game, [(A, "6S")])
    assert {code(a) for a in game.legal_actions(B)} == {"9S", "KS"}
    _play(game, [(B, "9S")])
    assert game.legal_actions(C) == [game.parse("pass")]  # no spade above the nine
    _play(game, [(C, "pass")])
    assert [code(a) for a in game.legal_actions(D)] == ["AS"]
    _play(game, [(D, "AS")])
    assert game.view(None).phase == Msg.of("snipp_snapp_snorum.phase.follow", seat=A, card="AS")
    _play(game, [(A, "3S")])  # any number card after the ace
    assert _events(game, 2) == [("snorum", "0", "3S"), ("sequence_done", "0")]
    assert game.to_act() == {A}
    _play(game, [(A, "9D")])  # the last card: A wins
    assert game.is_over()
    assert game.result().places == (1, 3, 4, 2)


def test_jig3_the_stop_rule() -> None:
    game = _position([["2C", "5H"], ["QD", "3C"], ["2D", "4S"], ["TD", "6H"]], B, JIG)
    _play(game, [(B, "QD")])  # K♦ and A♦ are out of the game already
    _play(game, [(C, "pass"), (D, "pass")])
    assert game.to_act() == {A}
    _play(game, [(A, "pass")])
    assert _events(game, 2) == [("passed", "0"), ("dead", "1")]
    assert game.to_act() == {B}  # B played the last card and leads again
    assert game.view(None).trick == ()
    assert "QD" in {code(c) for c in game.set_aside}


def test_jig4_no_face_card_after_an_ace() -> None:
    game = _position([["AH", "2C"], ["JH", "QH", "3C"]], A, JIG)
    _play(game, [(A, "AH")])
    assert game.legal_actions(B) == [game.parse("pass")]
    with pytest.raises(IllegalActionError, match="does not follow"):
        _play(game, [(B, "JH")])


def test_jig_a_pass_is_refused_while_a_card_may_be_played() -> None:
    game = _position([["6S", "2C"], ["9S", "3C"]], A, JIG)
    _play(game, [(A, "6S")])
    with pytest.raises(IllegalActionError, match="must play"):
        _play(game, [(B, "pass")])


# --- a transcript, the variants -------------------------------------------------------------------


def _deal_of(hands: Sequence[Sequence[str]], forhand: int) -> list[str]:
    n = len(hands)
    taken = [0] * n
    order = []
    for k in range(sum(len(h) for h in hands)):
        seat = (forhand + k) % n
        order.append(hands[seat][taken[seat]])
        taken[seat] += 1
    return order


def test_a_two_player_game_from_an_explicit_deck() -> None:
    # A holds every club and every diamond, B the hearts and spades: each holds two of every
    # rank, so whoever leads makes Snipp and the other Snapp and Snorum.
    hands = [
        [c for c in EVERY_CARD if c[1] in "CD"],
        [c for c in EVERY_CARD if c[1] in "HS"],
    ]
    deck = _deal_of(hands, forhand=A)
    game = SPEC.new(2, rng=random.Random(_seed_for_dealer(2, B)), decks=[deck])
    assert isinstance(game, SnippSnappSnorum)
    assert game.to_act() == {A}
    assert game.view(A).seats[A].cards == 26
    game.apply(A, game.parse("lead 2"))
    # A: 2♣ 2♦, B: 2♥ (Snapp) 2♠ (Snorum): B leads
    assert game.to_act() == {B}
    for rank in RANKS[1:]:
        seat = next(iter(game.to_act()))
        game.apply(seat, game.parse(f"lead {rank}"))
    # the leads alternate (the other player always makes Snorum): A leads the aces, puts down
    # the last two cards of that hand and wins at once, before B can make Snorum
    assert game.is_over()
    assert game.result().places == (1, 2)
    assert game.result().scores == (0, -2)
    assert _hand(game, B) == {"AH", "AS"}


def test_stakes_every_forced_pass_pays_and_the_first_out_wins_the_pot() -> None:
    game = _position(
        [["9C", "9D", "4S"], ["2C", "4H"], ["9H", "9S", "4C", "7C"]],
        options=SnippSnappSnorumOptions(stakes=True),
    )
    _play(game, [(A, "lead 9")])  # B stands over: one stake
    assert game.view(None).notes == (Msg.of("snipp_snapp_snorum.note.pot", count=1),)
    _play(game, [(C, "lead 4")])  # A plays 4♠ and is out
    assert game.is_over()
    assert game.result().scores == (1, -1, 0)


@pytest.mark.parametrize("play_to_end", [False, True])
def test_stakes_the_end_shows_what_each_paid_and_the_pot_the_winner_took(
    play_to_end: bool,
) -> None:
    rng = random.Random(7)
    options = SnippSnappSnorumOptions(stakes=True, play_to_end=play_to_end)
    for seed in range(10):
        game = SPEC.new(4, options, rng=random.Random(seed))
        assert isinstance(game, SnippSnappSnorum)
        while not game.is_over():
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
        result = game.result()
        view = game.view(None)
        assert tuple(s.score for s in view.seats) == result.scores
        winner = result.places.index(1)
        took = Msg.of("snipp_snapp_snorum.note.won_pot", count=sum(game.paid))
        assert took in view.seats[winner].notes
        for seat in range(4):
            if game.paid[seat]:
                assert Msg.of("snipp_snapp_snorum.note.paid", count=game.paid[seat]) in (
                    view.seats[seat].notes
                )


def test_play_to_end_places_everyone_in_the_order_of_going_out() -> None:
    game = _position(
        [["QD", "3C"], ["QC"], ["QH", "QS", "3H", "5D"]],
        options=SnippSnappSnorumOptions(play_to_end=True),
    )
    _play(game, [(A, "lead Q")])  # B goes out on Snipp; C makes Snapp and Snorum and leads
    assert not game.is_over()
    assert game.to_act() == {C}
    _play(game, [(C, "lead 3")])  # 3♥, then A's 3♣: A is out, C is left with cards
    assert game.is_over()
    assert game.result().places == (2, 1, 3)


def test_play_to_end_a_snorum_on_the_last_card_names_the_next_player_with_cards() -> None:
    game = _position(
        [["QD", "3C"], ["QC", "QH", "QS"], ["5D", "3H"], ["7C", "3S"]],
        options=SnippSnappSnorumOptions(play_to_end=True),
    )
    _play(game, [(A, "lead Q")])  # B plays the last three queens, Snorum, and is out
    assert game.to_act() == {C}
    assert _events(game, 2) == [("out", str(B)), ("snorum_cleared_next", str(C))]


@pytest.mark.parametrize("options", [{"jig": True}, {}], ids=["jig", "main"])
def test_play_to_end_every_set_aside_names_the_player_who_then_leads(
    options: dict[str, bool],
) -> None:
    """Random games of four (the table said the player just gone out would lead)."""
    rng = random.Random(10400)
    keys = ("snorum_cleared", "sequence_done", "dead")
    checked = 0
    for seed in range(30):
        game = SPEC.new(4, SnippSnappSnorumOptions(play_to_end=True, **options), rng=rng)
        while not game.is_over():
            (seat,) = game.to_act()
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            events = game.view(None).events
            cleared = [m for m in events if m.key.rsplit(".", 1)[1].startswith(keys)]
            if cleared and cleared[-1] is events[-1] and not game.is_over():
                assert game.to_act() == {dict(cleared[-1].args)["seat"]}, (seed, events[-3:])
                checked += 1
    assert checked > 100


def test_presets_name_the_variants() -> None:
    assert SPEC.preset("standard") == SnippSnappSnorumOptions()
    assert SPEC.preset("jig").jig
    assert SPEC.preset("stakes").stakes
    assert SPEC.preset("play_to_end").play_to_end
    assert (SPEC.min_players, SPEC.max_players) == (2, 8)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (2, [26, 26]),
        (3, [18, 17, 17]),
        (4, [13] * 4),
        (5, [11, 11, 10, 10, 10]),
        (6, [9] * 4 + [8] * 2),
        (7, [8] * 3 + [7] * 4),
        (8, [7] * 4 + [6] * 4),
    ],
)
def test_the_deal_gives_the_extra_cards_from_forhand(players: int, sizes: list[int]) -> None:
    game = SPEC.new(players, rng=random.Random(_seed_for_dealer(players, players - 1)))
    assert [s.cards for s in game.view(None).seats] == sizes


def test_notation_round_trips_and_refuses_malformed_text() -> None:
    game = SPEC.new(3, rng=random.Random(1))
    for text in ("lead 9", "lead T", "pass", "QS"):
        assert game.notation(game.parse(text)) == text
    assert game.parse("lead 10") == game.parse("lead T")
    for text in ("lead", "lead 1", "play 9", "ZZ"):
        with pytest.raises(NotationError):
            game.parse(text)


def test_determinize_keeps_the_hand_sizes_and_the_viewers_hand() -> None:
    game = SPEC.new(4, rng=random.Random(3))
    seat = next(iter(game.to_act()))
    game.apply(seat, game.legal_actions(seat)[0])
    copy = game.determinize(A, random.Random(9))
    assert copy.view(A).hand == game.view(A).hand
    assert [s.cards for s in copy.view(None).seats] == [s.cards for s in game.view(None).seats]


# --- timeouts (§3.3, §3.8.1) ----------------------------------------------------------------------


def test_a_lead_timeout_leads_the_rank_held_most_the_lowest_of_equals() -> None:
    game = _position([["KC", "KD", "4S", "4H", "9C"], ["2C"]])
    assert game.notation(_timeout(game, A)) == "lead 4"  # two kings, two fours: the fours
    game = _position([["KC", "KD", "KH", "4S", "4H"], ["2C"]])
    assert game.notation(_timeout(game, A)) == "lead K"
    assert game.timeout_action(B) is None  # not to act


def test_a_jig_timeout_plays_the_lowest_legal_card_or_leads_the_lowest_card() -> None:
    game = _position([["9D", "QS", "7H", "9C"], ["TS", "KS", "4S", "2C"], ["3H"]], A, JIG)
    assert game.notation(_timeout(game, A)) == "7H"
    _play(game, [(A, "QS")])
    assert game.notation(_timeout(game, B)) == "KS"  # the only spade above the queen
    _play(game, [(B, "KS")])
    assert game.notation(_timeout(game, C)) == "pass"  # nothing to play


def _timeout(game: SnippSnappSnorum, seat: int) -> int:
    action = game.timeout_action(seat)
    assert action is not None
    assert action in game.legal_actions(seat)
    return action


def _wins(game: Game, me: int, memo: dict[tuple[object, ...], bool]) -> bool:
    """Whether ``me`` wins a two-player game from here with best play by both (in two-player
    Snipp snapp snorum each hand is the other's complement: nothing is hidden)."""
    if game.is_over():
        return game.result().places[me] == 1
    (seat,) = game.to_act()
    key = (seat, tuple(game.view(0).hand), tuple(game.view(1).hand))
    if key not in memo:
        outcomes = []
        for action in game.legal_actions(seat):
            after = game.clone()
            after.apply(seat, action)
            outcomes.append(_wins(after, me, memo))
        memo[key] = any(outcomes) if seat == me else all(outcomes)
    return memo[key]


@pytest.mark.parametrize("seed", range(6))
def test_two_player_rule_based_leads_are_always_among_the_best(seed: int) -> None:
    # Solved exhaustively from every lead once six ranks or fewer are left: the rule-based
    # player's lead (four of a kind first, then the rank held most) never turns a won game into
    # a lost one. With two players only the parity of the ranks both hold decides, once each
    # player leads his fours before the last shared rank (benchmarks/ai.py).
    from games.ai import RulesPlayer, decision_for

    game = SPEC.new(2, rng=random.Random(seed))
    rng = random.Random(seed)
    checked = 0
    while not game.is_over():
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        ranks = {code(c)[0] for s in (0, 1) for c in game.view(s).hand}
        if len(ranks) <= 6 and len(legal) > 1:
            memo: dict[tuple[object, ...], bool] = {}
            best = {}
            for action in legal:
                after = game.clone()
                after.apply(seat, action)
                best[action] = _wins(after, seat, memo)
            lead = RulesPlayer().choose(decision_for(game, seat), random.Random(seed))
            assert best[lead] or not any(best.values()), (game.view(seat).hand, best, lead)
            checked += 1
        game.apply(seat, legal[randbelow(rng, len(legal))])
    assert checked
