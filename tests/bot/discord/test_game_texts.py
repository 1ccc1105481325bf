"""What the games' texts say on the table, as a player reads them: trump only where there is one,
points only where a game keeps them, the joker as what it counts for, and each game's own
findings (Piquet's calls, Nittionio's deal summary, Tvåmanswhist's end...)."""

from __future__ import annotations

import random

import pytest
from playouts import playout
from test_table_message import table

from bot.discord.embeds import DealResult, deal_result_embed, renderer
from bot.discord.listener import new_events
from bot.i18n import catalog
from bot.render.text import (
    DISCORD,
    TextRenderer,
    deal_events,
    sort_hand,
    trick_text,
    trump_line,
)
from games.cards import parse_card
from games.core import Game, Msg
from games.registry import SPECS

NAMES = ["Anna", "Bo", "Cilla", "Dan", "Eva"]
VERBS = ("chance", "pickup", "pass", "bid", "play", "discard", "declare", "ask", "lead", "draw")


def _sv(players: int) -> TextRenderer:
    return TextRenderer(catalog("sv"), NAMES[:players], DISCORD)


# --- trump ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "players"), [("piquet", 2), ("braus", 4), ("femkort", 2), ("skitgubbe", 3)]
)
def test_games_and_phases_without_trumps_never_say_no_trumps(game_id: str, players: int) -> None:
    text = _sv(players)
    said = {
        trump_line(text, v, SPECS[game_id].trick_taking)
        for v in playout(game_id, players)
        if v.trump is None
    }
    assert said <= {None}


@pytest.mark.parametrize(("game_id", "players"), [("femhundra", 3), ("tvamansbridge", 2)])
def test_no_trumps_is_not_said_during_an_auction(game_id: str, players: int) -> None:
    text = _sv(players)
    for seed in range(3):
        for v in playout(game_id, players, seed, steps=400):
            if "auction" in v.phase.key:
                assert trump_line(text, v, True) is None, v.phase.key


def test_a_deal_played_without_trumps_says_so() -> None:
    # rules/three-to-five-player.md: a nine or the joker turned up means no trumps
    game = SPECS["nittionio"].new(3, None, random.Random(1))
    seen = False
    for seed in range(40):
        game = SPECS["nittionio"].new(3, None, random.Random(seed))
        v = game.view(None)
        if v.trump is None:
            assert trump_line(_sv(3), v, True) == "Ingen trumf"
            seen = True
    assert seen


# --- points --------------------------------------------------------------------------------------


def _seat_lines(game_id: str, players: int) -> set[str]:
    text = _sv(players)
    lines: set[str] = set()
    for v in playout(game_id, players, steps=300):
        lines.update(text.seat_line(s, info, v) for s, info in enumerate(v.seats))
    return lines


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        ("skitgubbe", 3),
        ("svarte_petter", 3),
        ("braus", 4),
        ("hej_knekt", 3),
        ("snipp_snapp_snorum", 3),
    ],
)
def test_games_without_points_show_no_points_on_their_seats(game_id: str, players: int) -> None:
    lines = _seat_lines(game_id, players)
    assert lines
    assert not any(part.strip().endswith(" p") for line in lines for part in line.split("·"))


def test_what_a_game_counts_instead_of_points_is_said_in_its_words() -> None:
    assert any("0 ritor" in line for line in _seat_lines("braus", 4))
    assert any("0 familjer" in line for line in _seat_lines("lojliga_familjerna", 3))
    assert any(" p" in line for line in _seat_lines("nittionio", 3))  # a game with points


# --- the joker -----------------------------------------------------------------------------------


def test_the_joker_is_said_as_the_card_it_counts_for() -> None:
    # rules/three-to-five-player.md: the joker is an exact copy of the turn-up
    for seed in range(60):
        game = SPECS["nittionio"].new(3, None, random.Random(seed))
        turn_up = next(p for p in game.view(None).piles if p.cards)
        holder = next((s for s in range(3) if 52 in game.view(s).hand), None)
        if holder is not None and turn_up.cards[0] % 13 != 7:
            break
    else:
        raise AssertionError("no deal with the joker in a hand")
    text = _sv(3)
    view = game.view(holder)
    counts_as = text.face(turn_up.cards[0])
    assert f"🃏 (= {counts_as})" in text.hand(view)


# --- Skitgubbe -----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_no_help_line_repeats_the_name_of_its_action(lang: str) -> None:
    # the panel shows "<action>: <help>"; "Våga: Våga: ..." said the name twice, and
    # "Passa: Passa. Efter ett bud ..." too
    texts = catalog(lang)
    text = TextRenderer(texts, NAMES)
    for game_id in SPECS:
        for verb in VERBS:
            key = f"{game_id}.help.{verb}"
            if texts.has(key):
                name = text.verb(game_id, verb).lower()
                help_text = texts.text(key).lower()
                assert not help_text.startswith((f"{name}:", f"{name.split()[0]}:")), key
                assert help_text.split(".")[0].strip() != name, key


def _forced_pickup() -> tuple[Game, int]:
    """A Skitgubbe match at a moment where the seat to act can only pick up (supa)."""
    for seed in range(200):
        rng = random.Random(seed)
        game = SPECS["skitgubbe"].new(3, None, random.Random(seed))
        for _ in range(400):
            if game.is_over():
                break
            seat = min(game.to_act())
            legal = game.legal_actions(seat)
            if game.notation_or_raw(legal[0]) == "pickup" and len(legal) == 1:
                return game, seat
            game.apply(seat, rng.choice(legal))
    raise AssertionError("no forced pick-up found")


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_a_forced_pick_up_says_why(lang: str) -> None:
    game, seat = _forced_pickup()
    text = TextRenderer(catalog(lang), NAMES[:3], DISCORD)
    notes = [text.msg(n) for n in game.view(seat).notes]
    word = {"sv": "supa", "en": "pick up"}[lang]
    assert any(word in note.lower() for note in notes), notes
    assert not game.view(None).notes  # the reason is the seat's own: it tells of its hand


# --- Piquet --------------------------------------------------------------------------------------


def _piquet_at_play(seed: int) -> Game:
    """A two-player Piquet deal at its first trick, after the declarations."""
    rng = random.Random(seed)
    game = SPECS["piquet"].new(2, None, random.Random(seed))
    while "play" not in game.view(None).phase.key:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def test_piquet_good_and_not_good_say_whose_holding_is_better() -> None:
    # "räcker" beside the answering seat read as if his own hand fell short
    text = _sv(2)
    for seed in range(30):
        events = [m for m in _piquet_at_play(seed).view(None).events if m.key.endswith("good")]
        for m in events:
            line = text.msg(m)
            caller = text.seat(int(m.arg("caller_seat")))
            better = caller if m.key.endswith(".good") else text.seat(int(m.arg("seat")))
            assert f"({better} har bättre)" in line, line
        if events:
            return
    raise AssertionError("no answer seen")


def test_piquet_names_the_rank_of_the_winning_set() -> None:
    text = _sv(2)
    for seed in range(40):
        for m in _piquet_at_play(seed).view(None).events:
            if m.key.startswith(("piquet.event.quatorze_scored", "piquet.event.trio_scored")):
                line = text.msg(m)
                assert any(w in line for w in ("fyrtal i ", "tretal i ")), line
                return
    raise AssertionError("no set scored")


def test_piquet_outcomes_of_the_declarations_are_in_the_last_lines_when_play_starts() -> None:
    # the table shows the last five events: every class's outcome must be among them
    for seed in range(10):
        events = _piquet_at_play(seed).view(None).events
        outcomes = [m for m in events if m.key.endswith(("_scored", "_equal"))]
        assert outcomes
        assert all(m in events[-5:] for m in outcomes), [m.key for m in events]


# --- Tvåmanswhist --------------------------------------------------------------------------------


def test_tvamanswhist_seats_count_the_tricks_the_score_counts() -> None:
    # rules/two-player.md §4: only tricks 14-26 count; the seats showed all 26 (10 vs 16)
    # while the log scored 9 vs 4
    views = list(playout("tvamanswhist", 2, seed=3, steps=200))
    counting = [v for v in views if "counting" in v.phase.key]
    assert counting
    for v in counting:
        assert [s.tricks for s in v.seats] == [s.score for s in v.seats]
    game = SPECS["tvamanswhist"].new(2, None, random.Random(3))
    rng = random.Random(3)
    while not game.is_over():
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    end = game.view(None)
    assert tuple(s.tricks for s in end.seats) == game.result().scores


# --- Nittionio -----------------------------------------------------------------------------------


def _nittionio(seed: int = 1) -> tuple[Game, random.Random]:
    return SPECS["nittionio"].new(3, None, random.Random(seed)), random.Random(seed)


def test_nittionio_shows_the_last_trick_until_the_next_card() -> None:
    game, rng = _nittionio()
    text = _sv(3)
    while not any(s.tricks for s in game.view(None).seats):
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    view = game.view(None)
    assert not view.trick
    shown = trick_text(text, view)
    assert shown is not None
    winner = next(s for s, info in enumerate(view.seats) if info.tricks)
    assert shown[0] == f"Senaste sticket ({text.seat(winner)})"
    assert len(shown[1].split()) == 3
    total = sum(info.cards for info in view.seats) + len(view.trick)
    total += sum(len(p.cards) + p.hidden for p in view.piles)
    assert total == 37  # every card once: the last trick is not also counted as won face down


def _deal_end(seed: int = 1) -> tuple[Msg, ...]:
    """The events of the end of a Nittionio match's first deal, as the table saw them come."""
    game, rng = _nittionio(seed)
    before = game.view(None).events
    while game.view(None).deal == 1:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.view(None).deal == 1:
            before = game.view(None).events
    return new_events(before, game.view(None).events)


def test_nittionio_deal_summary_stops_at_the_next_deal() -> None:
    events = _deal_end()
    summary = deal_events(events)
    assert any(m.key in ("nittionio.event.made", "nittionio.event.missed") for m in summary)
    assert not any(m.key == "table.event.deal_started" for m in summary)
    assert not any(m.key in ("nittionio.event.turn_up", "table.event.trump") for m in summary)


def _deal_end_seen(seed: int, moves_before: int) -> tuple[Msg, ...]:
    """The events of a Nittionio deal's end as a table that last looked ``moves_before``
    moves before the deal ended saw them come."""
    game, rng = _nittionio(seed)
    seen: list[tuple[Msg, ...]] = [game.view(None).events]
    while game.view(None).deal == 1:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        seen.append(game.view(None).events)
    return new_events(seen[-1 - moves_before], seen[-1])


def _summary(events: tuple[Msg, ...]) -> list[str]:
    live = table("nittionio", status="playing")
    embed = deal_result_embed(catalog("sv"), live, DealResult(1, (0, 0, 0), (1, 1, 1), events))
    (field,) = [f for f in embed.fields if f.name == "Så gick given"]
    return (field.value or "").splitlines()


@pytest.mark.parametrize("moves_before", [1, 2, 5, 7])
def test_nittionio_deal_summary_shows_whole_tricks_only(moves_before: int) -> None:
    # "Så gick given" began with the last card alone ("Cilla spelar Kn♤"), mid-trick
    text = renderer(catalog("sv"), table("nittionio", status="playing"))
    for seed in range(12):
        events = _deal_end_seen(seed, moves_before)
        lines = _summary(events)
        played = [line for line in lines if " spelar " in line]
        won = [i for i, line in enumerate(lines) if " tar sticket " in line]
        assert len(played) == 3 * len(won)  # each trick shown has its three cards and its end
        assert all(i % 4 == 3 for i in won)  # three cards, then who took the trick
        results = [
            text.msg(m) for m in events if m.key.split(".")[-1] in ("made", "missed", "missed_bid")
        ]
        assert results
        assert all(line in lines for line in results)
    if moves_before >= 5:  # a whole trick seen before the end: it is shown, whole
        assert played


def test_nittionio_deal_lines_keep_the_premium_on_its_own_line() -> None:
    # a missed bid read "gick inte hem: 64 poäng": 4 tricks and the failed premium's 60
    for seed in range(40):
        events = _deal_end(seed)
        premium = [m for m in events if m.key == "nittionio.event.premium_failed"]
        if not premium:
            continue
        lines = [m for m in events if m.key.startswith("nittionio.event.missed")]
        others = [m for m in lines if m.arg("seat") != premium[0].arg("seat")]
        assert others
        assert all(m.arg("points") == m.arg("tricks") for m in others), others
        summary = _summary(events)
        assert any("klarade inte premiebudet" in line for line in summary)
        return
    raise AssertionError("no premium failed")


def test_nittionio_says_the_bid_of_whoever_went_down_when_it_was_shown() -> None:
    text = _sv(3)
    for seed in range(60):
        events = _deal_end(seed)
        for m in events:
            if m.key.startswith("nittionio.event.missed"):
                line = text.msg(m)
                if m.key == "nittionio.event.missed_bid":
                    assert f"bjöd {m.arg('bid')}" in line
                    return
                assert "budet visas inte" in line, line
    raise AssertionError("no declared bid went down")


# --- Femhundra -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "players", "notation", "label"),
    [
        ("sv", 3, "bid 6S", "Bjud 6♤ (40)"),
        ("sv", 3, "bid 7H", "Bjud 7♥️ (200)"),
        ("sv", 3, "bid 10NT", "Bjud 10 sang (520)"),
        ("en", 3, "bid 8C", "Bid 8☘️ (260)"),
        ("sv", 3, "bid misere", "Bjud misär (250)"),
        ("sv", 3, "bid openmisere", "Bjud öppen misär (520)"),
        ("sv", 4, "bid openmisere", "Bjud öppen misär (500)"),
    ],
)
def test_femhundra_bids_are_labelled_with_their_values(
    lang: str, players: int, notation: str, label: str
) -> None:
    # rules/three-to-five-player.md 5.4: the bid table
    text = TextRenderer(catalog(lang), NAMES[:players], DISCORD)
    assert text.action("femhundra", notation) == label


def test_femhundra_marks_the_cards_taken_from_the_talong() -> None:
    game = SPECS["femhundra"].new(3, None, random.Random(2))
    while "discard" not in game.view(None).phase.key:  # seat 0 bids 6♠, the others pass
        seat = min(game.to_act())
        game.apply(seat, game.parse("bid 6S" if seat == 0 else "pass"))
    (declarer,) = game.to_act()
    view = game.view(declarer)
    assert len(view.marked) == 3  # the talong's three cards, now in the declarer's hand
    assert set(view.marked) <= set(view.hand)
    assert "(från talongen)" in _sv(3).hand(view)
    assert all(not game.view(s).marked for s in range(3) if s != declarer)


# --- Tvåmansbridge -------------------------------------------------------------------------------


def _bridge_in_play() -> Game:
    """A Tvåmansbridge deal with the first trick's cards on the table (from both träkarlar)."""
    for seed in range(20):
        rng = random.Random(seed)
        game = SPECS["tvamansbridge"].new(2, None, random.Random(seed))
        for _ in range(200):
            view = game.view(None)
            if len(view.trick) == 3:
                return game
            seat = min(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    raise AssertionError("no trick reached")


def test_tvamansbridge_trick_says_which_cards_came_from_a_trakarl() -> None:
    view = _bridge_in_play().view(None)
    played = trick_text(_sv(2), view)
    assert played is not None
    # the defender's träkarl leads, then the defender, then the declarer's träkarl
    parts = played[1].split(" · ")
    assert [("(träkarl)" in part) for part in parts] == [True, False, True], parts
    assert "(träkarl)" in _sv(2).trick(view)


def test_tvamansbridge_trakarl_is_sorted_as_a_hand_is() -> None:
    view = _bridge_in_play().view(None)
    dummies = [p for p in view.piles if p.key == "tvamansbridge.pile.dummy"]
    assert dummies
    for pile in dummies:
        assert list(pile.cards) == sort_hand(pile.cards)
    # a dummy with diamonds and clubs shows clubs before diamonds, as a hand does
    assert sort_hand([parse_card(c) for c in ("2D", "AC", "KS", "3H")]) == [
        parse_card(c) for c in ("KS", "3H", "AC", "2D")
    ]
