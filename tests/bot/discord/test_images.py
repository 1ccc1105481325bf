"""Card pictures: every registered game's table and hand pictures, in both languages, stay within
their size limits, read at a phone's width (texts and ranks high enough, no rank covered), show
what the table holds where a player looks for it, and never depend on cards hidden from a seat."""

from __future__ import annotations

import dataclasses
import io
import math
import random
from collections import Counter

import pytest
from legible import assert_legible, covers, op_rect
from PIL import Image
from playouts import NAMES

from bot.discord.images import (
    BACK,
    CARD_W,
    FOUR_COLOURS,
    FULL,
    HIGHLIGHT,
    LEGEND,
    MAX_BYTES,
    NAME_PX,
    TWO_ROWS,
    WIDTH,
    Block,
    BoxOp,
    CardOp,
    MarkOp,
    Plan,
    Rect,
    TextOp,
    _block_forms,
    _box_piece,
    _felt,
    _laid,
    _mark_piece,
    _paint,
    _parts,
    _piece,
    _png,
    _shape,
    _suit_piece,
    _text_piece,
    back_image,
    card_image,
    hand_plan,
    hand_png,
    seat_spots,
    table_plan,
    table_png,
    table_untold,
)
from bot.i18n import catalog
from bot.render.text import DISCORD, TextRenderer, sort_hand, table_piles, trump_line
from games.cards import JOKER, card, parse_card
from games.core import Game, GameSpec, Options, Pile, Seat, View
from games.registry import SPECS

MAX_HEIGHT = 2400  # an embed image taller than this is unreadable on a phone


def _states(spec: GameSpec[Options], seed: int) -> list[Game]:
    """Matches at a few points of play: just dealt, a few moves in, well into a deal."""
    rng = random.Random(seed)
    players = rng.randint(spec.min_players, spec.max_players)
    game = spec.new(players, rng=random.Random(seed))
    states = [game.clone()]
    for moves in (3, 17):
        while moves and not game.is_over():
            seat = min(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            moves -= 1
        states.append(game.clone())
    return states


def _table(game: Game, view: View, lang: str) -> bytes:
    text = TextRenderer(catalog(lang), NAMES[: game.players], DISCORD)
    spec = SPECS[view.game]
    return table_png(view, text, trump_line(text, view, spec.trick_taking))


def _hand(game: Game, seat: Seat) -> bytes:
    hand = sort_hand(game.view(seat).hand)
    playable = [a for a in game.legal_actions(seat) if a in hand]
    return hand_png(hand, playable)


def _check(png: bytes) -> None:
    assert len(png) <= MAX_BYTES
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.width <= WIDTH
    assert image.height <= MAX_HEIGHT


@pytest.mark.parametrize("game_id", sorted(SPECS))
@pytest.mark.parametrize("lang", ["sv", "en"])
def test_table_and_hand_images_of_every_game_fit_their_limits(game_id: str, lang: str) -> None:
    for seed in (1, 2):
        for game in _states(SPECS[game_id], seed):
            _check(_table(game, game.view(None), lang))
            for seat in range(game.players):
                _check(_hand(game, seat))


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_a_seats_images_never_depend_on_cards_hidden_from_it(game_id: str) -> None:
    for game in _states(SPECS[game_id], 3)[1:]:
        for seat in range(game.players):
            table = _table(game, game.view(seat), "sv")
            public = _table(game, game.view(None), "sv")
            hand = _hand(game, seat)
            for redeal in range(2):
                other = game.determinize(seat, random.Random(redeal))
                assert _table(other, other.view(seat), "sv") == table
                assert _table(other, other.view(None), "sv") == public
                assert _hand(other, seat) == hand


def test_cards_are_drawn_once_and_reused() -> None:
    assert card_image(card(12, 3)) is card_image(card(12, 3))
    assert card_image(JOKER) is not card_image(card(12, 3))


def test_the_four_colour_deck_gives_each_suit_its_own_colour() -> None:
    def ink(c: int, four: bool) -> tuple[int, ...]:
        # the big suit in the lower right: its most common colour is the suit's
        image = card_image(c, 100, four).convert("RGB").crop((45, 75, 85, 115))
        counts = image.getcolors(maxcolors=40 * 40) or []
        inks = [(n, c) for n, c in counts if isinstance(c, tuple) and sum(c) < 600]
        return max(inks)[1]

    fours = {ink(card(9, suit), True) for suit in range(4)}
    twos = {ink(card(9, suit), False) for suit in range(4)}
    assert len(fours) == 4
    assert len(twos) == 2


def test_pictured_cards_carry_the_ranks_of_the_tables_language() -> None:
    swedish = DISCORD.speaking(catalog("sv")).ranks
    queen = parse_card("QS")
    assert card_image(queen, 100, True, "D") is not card_image(queen, 100, True)
    assert card_image(queen, 100, True, "D").tobytes() != card_image(queen, 100).tobytes()
    assert hand_png([queen], ranks=swedish) != hand_png([queen])
    seven = parse_card("7S")  # a seven reads the same in both languages
    assert hand_png([seven], ranks=swedish) == hand_png([seven])


# --- read at a phone's width ----------------------------------------------------------------------


def _playout_states(spec: GameSpec[Options], players: int, seed: int) -> list[Game]:
    """A match at several points of one seeded random playout, to its end."""
    rng = random.Random(seed)
    game = spec.new(players, rng=random.Random(seed))
    states = [game.clone()]
    for moves in (5, 20, 60, 400):
        while moves and not game.is_over():
            seat = min(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            moves -= 1
        states.append(game.clone())
    return states


def _plan(game: Game, lang: str, seat: Seat | None = None) -> Plan:
    view = game.view(seat)
    text = TextRenderer(catalog(lang), NAMES[: game.players], DISCORD)
    return table_plan(view, text, trump_line(text, view, SPECS[view.game].trick_taking))


def _counts(spec: GameSpec[Options]) -> range:
    return range(spec.min_players, spec.max_players + 1)


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_games_table_picture_reads_at_a_phones_width(game_id: str) -> None:
    spec = SPECS[game_id]
    for players in _counts(spec):
        for lang in ("sv", "en"):
            for game in _playout_states(spec, players, seed=players):
                plan = _plan(game, lang)
                assert plan.width / plan.height >= 1.6  # landscape, 16:10 or wider
                assert_legible(plan)
    image = Image.open(io.BytesIO(_table(game, game.view(None), "sv")))
    assert image.size == (plan.width, plan.height)


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_a_hand_of_up_to_29_cards_never_covers_a_rank(lang: str) -> None:
    ranks = DISCORD.speaking(catalog(lang)).ranks
    rng = random.Random(5)
    deck = [*list(range(52)), JOKER]
    for size in range(1, 30):
        cards = sort_hand(rng.sample(deck, size))
        playable = cards[::3]
        marked = cards[-1:]
        for plan in (
            hand_plan(cards, (), (), "", ranks),
            hand_plan(cards, playable, marked, "Svarte Petter", ranks),
        ):
            assert_legible(plan)
            shown = [op.card for op in plan.ops if isinstance(op, CardOp)]
            assert shown == cards  # every card, in the panel's order
        rows = len({op.y for op in hand_plan(cards, ranks=ranks).ops if isinstance(op, CardOp)})
        assert rows <= (2 if size <= 13 else 3 if size <= 26 else 4), size
    image = Image.open(io.BytesIO(hand_png(cards, playable, ranks=ranks)))
    assert image.width == WIDTH
    assert image.height <= image.width


def test_the_seat_to_act_is_framed_and_the_viewers_seat_is_at_the_bottom() -> None:
    game = SPECS["nittionio"].new(3, rng=random.Random(2))
    for seat in (None, 0, 1, 2):
        plan = _plan(game, "sv", seat)
        plates = [op for op in plan.ops if isinstance(op, BoxOp) and op.fill is not None]
        bottom = max(plates, key=lambda op: op.rect[3])
        names = [op for op in plan.ops if isinstance(op, TextOp) and op.size == NAME_PX]
        below = next(n for n in names if covers(n.rect, bottom.rect))
        assert _plain_name(seat or 0).startswith(below.text.rstrip("…"))
        framed = {n.text.rstrip("…") for n in names if n.colour == HIGHLIGHT}
        assert len(framed) == len(game.to_act())
        for seat in game.to_act():  # a long name is cut to its plate
            assert any(_plain_name(seat).startswith(name) for name in framed)
        assert sum(op.outline == HIGHLIGHT for op in plates) == len(game.to_act())


def _plain_name(seat: int) -> str:
    return " ".join("".join(ch for ch in NAMES[seat] if ord(ch) < 0x180).split())


def test_each_card_of_the_trick_lies_in_front_of_the_seat_that_played_it() -> None:
    for game_id, players in (("braus", 4), ("femkort", 10), ("piquet", 3), ("tvamansbridge", 2)):
        for game in _playout_states(SPECS[game_id], players, 4):
            view = game.view(None)
            plan = _plan(game, "en")
            spots = seat_spots(players, bool(view.teams))
            for seat, c in view.trick:
                drawn = next(op for op in plan.ops if isinstance(op, CardOp) and op.card == c)
                plate, spot = spots[seat]  # seat 0 at the bottom, as in the public picture
                assert spot[0] <= drawn.rect[0]
                assert drawn.rect[2] <= spot[2]
                assert spot[1] == drawn.rect[1]

                assert _facing(drawn.rect, spots) == plate


def _facing(rect: tuple[int, int, int, int], spots: tuple[tuple[Rect, Rect], ...]) -> Rect:
    """The plate nearest to the rectangle (between their middles)."""

    def middle(r: tuple[int, int, int, int]) -> tuple[float, float]:
        return ((r[0] + r[2]) / 2, (r[1] + r[3]) / 2)

    x, y = middle(rect)
    return min(
        (plate for plate, _ in spots),
        key=lambda p: math.hypot(middle(p)[0] - x, middle(p)[1] - y),
    )


def test_partners_share_a_mark_that_their_opponents_do_not() -> None:
    game = SPECS["braus"].new(4, rng=random.Random(1))
    plan = _plan(game, "sv")
    marks = [op for op in plan.ops if isinstance(op, MarkOp) and op.shape != "back"]
    marks = [m for m in marks if m.shape in ("circle", "diamond", "square")]
    plates = [op for op in plan.ops if isinstance(op, BoxOp) and op.fill is not None]
    side = {}
    for seat, (plate, _) in enumerate(seat_spots(4, marks=True)):
        assert plate in [p.rect for p in plates]
        inside = [m for m in marks if covers(m.rect, plate)]
        assert len(inside) == 1
        side[seat] = (inside[0].shape, inside[0].colour)
    for team in game.view(None).teams:
        assert len({side[s] for s in team}) == 1
    assert side[0] != side[1]


def test_the_last_trick_and_the_dummies_cards_are_in_the_picture_or_beside_it() -> None:
    seen: Counter[str] = Counter()
    for game in _playout_states(SPECS["tvamansbridge"], 2, 6):
        view = game.view(None)
        plan = _plan(game, "sv")
        text = TextRenderer(catalog("sv"), NAMES[: game.players], DISCORD)
        drawn = Counter(op.card for op in plan.ops if isinstance(op, CardOp))
        for pile in view.piles:
            last = pile.key == "table.pile.last_trick" and pile.cards and not view.trick
            if not last:
                continue
            if all(drawn[c] for c in pile.cards):
                seen["drawn"] += 1
            else:  # no room for all of it: the text beside the picture says it
                assert text.pile(pile) in plan.untold
                seen["told"] += 1
    assert seen["drawn"] + seen["told"]


def _hidden_counts(plan: Plan) -> Counter[str]:
    """The face-down counts drawn off the plates: a back and "× 6", or a small back and "6"."""
    plates = [op.rect for op in plan.ops if isinstance(op, BoxOp) and op.fill is not None]
    counts: Counter[str] = Counter()
    for op, after in zip(plan.ops, plan.ops[1:], strict=False):
        if not isinstance(after, TextOp) or any(covers(op_rect(op), p) for p in plates):
            continue
        if isinstance(op, CardOp) and op.card == BACK:
            counts[after.text.removeprefix("× ")] += 1
        elif isinstance(op, MarkOp) and op.shape == "back":
            counts[after.text] += 1
    return counts


def test_both_dummies_face_up_cards_and_face_down_count_are_in_the_picture() -> None:
    """Tvåmansbridge's träkarlar are what both players plan with: every face-up card of both
    and how many lie face down are drawn near their owners, at least in most states (the text
    beside the picture says a träkarl only where it finds no room)."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        for game in _playout_states(SPECS["tvamansbridge"], 2, seed):
            view = game.view(None)
            plan = _plan(game, "sv")
            drawn = Counter(op.card for op in plan.ops if isinstance(op, CardOp))
            counts = _hidden_counts(plan)
            for pile in view.piles:
                if pile.key != "tvamansbridge.pile.dummy" or not pile.cards:
                    continue
                whole = all(drawn[c] for c in pile.cards)
                if whole and (not pile.hidden or counts[str(pile.hidden)]):
                    seen["drawn"] += 1
                else:
                    seen["not drawn"] += 1
    assert seen["drawn"] >= 8
    assert seen["drawn"] >= 4 * seen["not drawn"], seen


def test_the_joker_is_drawn_as_a_joker_and_shows_the_card_it_counts_as() -> None:
    def inks(image: Image.Image) -> set[tuple[int, int, int]]:
        counts = image.convert("RGBA").getcolors(maxcolors=1 << 16) or []
        return {(c[0], c[1], c[2]) for _, c in counts if isinstance(c, tuple) and c[3] == 255}

    def near(colour: tuple[int, ...], seen: set[tuple[int, int, int]]) -> bool:
        return any(sum(abs(a - b) for a, b in zip(colour, c, strict=False)) < 30 for c in seen)

    plain = inks(card_image(JOKER, 100))
    assert not any(near(c, plain) for c in FOUR_COLOURS.values())  # no suit's emblem
    nine_of_clubs = parse_card("9C")
    counted = card_image(JOKER, 100, True, "9", nine_of_clubs)
    assert near(FOUR_COLOURS[0], inks(counted))  # a club, in the clubs' green
    # Nittionio N1: the joker copies the turn-up; played, the table picture shows it as that card
    for seed in range(40):
        for game in _playout_states(SPECS["nittionio"], 3, seed):
            view = game.view(None)
            turn_up = [p.cards[0] for p in view.piles if p.key.endswith("turn_up") and p.cards]
            if JOKER not in [c for _, c in view.trick] or not turn_up or turn_up[0] == JOKER:
                continue
            jokers = [
                op for op in _plan(game, "sv").ops if isinstance(op, CardOp) and op.card == JOKER
            ]
            assert [op.joker_as for op in jokers] == [turn_up[0]]
            return
    raise AssertionError("no playout played the joker")


@pytest.mark.parametrize(
    ("game_id", "players", "points"),
    [
        ("braus", 4, False),
        ("skitgubbe", 3, False),
        ("lojliga_familjerna", 3, False),
        ("svarte_petter", 3, False),
        ("nittionio", 3, True),
        ("femkort", 4, True),
    ],
)
def test_seats_show_points_only_in_games_that_count_them(
    game_id: str, players: int, points: bool
) -> None:
    game = SPECS[game_id].new(players, rng=random.Random(1))
    for lang, unit in (("sv", " p"), ("en", " pts")):
        score = catalog(lang).text("view.score", score=0)
        assert score.endswith(unit.strip())
        texts = [op.text for op in _plan(game, lang).ops if isinstance(op, TextOp)]
        shown = sum(score in t for t in texts)
        assert shown == (players if points else 0)


def test_the_dealer_has_a_chip_on_the_plate() -> None:
    game = SPECS["piquet"].new(3, rng=random.Random(4))
    view = game.view(None)
    assert view.dealer is not None
    plan = _plan(game, "sv")
    chips = [op for op in plan.ops if isinstance(op, MarkOp) and op.shape == "chip"]
    assert len(chips) == 1
    plate = seat_spots(3)[view.dealer][0]
    assert covers(chips[0].rect, plate)
    letters = [op for op in plan.ops if isinstance(op, TextOp) and covers(op.rect, chips[0].rect)]
    assert [op.text for op in letters] == ["G"]


def test_what_a_crowded_tables_picture_has_no_room_for_is_said_beside_it() -> None:
    told = 0
    for game in _playout_states(SPECS["svarte_petter"], 6, 3):
        view = game.view(None)
        text = TextRenderer(catalog("sv"), NAMES[: game.players], DISCORD)
        plan = _plan(game, "sv")
        drawn = Counter(op.card for op in plan.ops if isinstance(op, CardOp))
        for pile in view.piles:
            if pile.cards and not any(drawn[c] for c in pile.cards):
                assert text.pile(pile) in table_untold(view, text, None)
                told += 1
    assert told


def test_a_growing_pile_drawn_as_its_last_cards_and_a_count_is_not_listed_again_beside_it() -> None:
    """Bräus's tricks of a side grow all deal: drawn as their last cards and "× N", they are whole
    in the picture, so the text beside it does not spell out every card of them."""
    seen = 0
    for seed in range(6):
        for game in _playout_states(SPECS["braus"], 4, seed):
            view = game.view(None)
            plan = _plan(game, "sv")
            text = TextRenderer(catalog("sv"), NAMES[: game.players], DISCORD)
            drawn = Counter(op.card for op in plan.ops if isinstance(op, CardOp))
            for pile in view.piles:
                if not pile.key.endswith(".side_tricks") or len(pile.cards) < 6:
                    continue
                if any(drawn[c] for c in pile.cards) and not all(drawn[c] for c in pile.cards):
                    assert text.pile(pile) not in plan.untold
                    seen += 1
    assert seen


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_a_seat_name_of_seven_letters_is_whole_on_every_plate_even_beside_the_dealers_chip(
    game_id: str,
) -> None:
    """The computer players' names ("Dator 1") are never cut on the narrow plates of a crowded
    table, whichever seat deals (the chip takes room on its plate) and whoever has a side's mark."""
    spec = SPECS[game_id]
    names = [f"Dator {n}" for n in range(1, 7)]
    for players in range(spec.min_players, min(spec.max_players, 6) + 1):
        text = TextRenderer(catalog("sv"), names[:players], DISCORD)
        for game in _playout_states(spec, players, seed=players):
            for dealer in range(players):
                view = dataclasses.replace(game.view(None), dealer=dealer)
                plan = table_plan(view, text, trump_line(text, view, spec.trick_taking))
                plates = [op.rect for op in plan.ops if isinstance(op, BoxOp) and op.fill]
                on_plates = [
                    op.text
                    for op in plan.ops
                    if isinstance(op, TextOp)
                    and op.bold
                    and op.size == NAME_PX
                    and any(covers(op.rect, plate) for plate in plates)
                    and op.text.startswith("Dat")
                ]
                assert sorted(on_plates) == names[:players], (players, dealer)


def test_a_last_trick_drawn_in_a_compact_form_is_named_as_the_last_trick() -> None:
    """Drawn in a corner, the last trick is labelled as such, never by the taker's name alone
    (which reads as that seat's own cards)."""
    seen = 0
    for game_id in ("femhundra", "tvamanswhist", "nittionio", "bondtolva", "piquet"):
        spec = SPECS[game_id]
        for seed in range(4):
            for game in _playout_states(spec, spec.usual_players, seed):
                view = game.view(None)
                last = next((p for p in view.piles if p.key == "table.pile.last_trick"), None)
                if last is None or not last.cards:
                    continue
                plan = _plan(game, "sv")
                drawn = {op.card for op in plan.ops if isinstance(op, CardOp)}
                if not set(last.cards) <= drawn or any(c in drawn for _, c in view.trick):
                    continue  # not drawn, or its cards could be the trick's
                texts = [op.text for op in plan.ops if isinstance(op, TextOp)]
                assert any(t.startswith("Senaste sticket") for t in texts), texts
                seen += 1
    assert seen


# --- every pile named, nothing cut ----------------------------------------------------------------


def _off_plates(plan: Plan) -> list[TextOp]:
    plates = [op.rect for op in plan.ops if isinstance(op, BoxOp) and op.fill is not None]
    return [
        op
        for op in plan.ops
        if isinstance(op, TextOp) and not any(covers(op.rect, plate) for plate in plates)
    ]


def _on_plates_not_names(plan: Plan) -> list[TextOp]:
    """The counts and scores on the plates (a seat's name is bold; the dealer's chip too)."""
    plates = [op.rect for op in plan.ops if isinstance(op, BoxOp) and op.fill is not None]
    return [
        op
        for op in plan.ops
        if isinstance(op, TextOp)
        and not op.bold
        and any(covers(op.rect, plate) for plate in plates)
    ]


def _pile_name(label: str) -> str:
    """A label's pile name: before the seat's name (``Talong (Bo)``, ``Träkarl B…``,
    ``Bortlagt D… 1``) and the count (``Mitten · 5``)."""
    head = label.split(" · ")[0]
    if " (" in head:
        return head.split(" (")[0]
    return head[: head.index("…")].rsplit(" ", 1)[0] if "…" in head else head


def _assert_every_pile_named_and_nothing_cut(game: Game, lang: str, names: list[str]) -> None:
    """Every pile, the last trick and shown hand drawn on the felt carries a label with its
    name whole and (a seat's) its seat's name, or (a side's) its side's mark; the legend of the
    marks is in the picture or beside it; no label or count is cut, only a seat's name may be."""
    view = game.view(None)
    spec = SPECS[view.game]
    text = TextRenderer(catalog(lang), names[: game.players], DISCORD)
    plan = table_plan(view, text, trump_line(text, view, spec.trick_taking))
    assert_legible(plan)  # shown 236 px wide, every label high enough and uncovered
    labels = _off_plates(plan)
    for op in _on_plates_not_names(plan):  # the counts and scores
        assert "…" not in op.text, (view.game, op.text)
    drawn = {op.card for op in plan.ops if isinstance(op, CardOp)}
    expected: Counter[str] = Counter()
    owners: dict[str, set[str]] = {}
    for pile in view.piles:
        if not (pile.cards or pile.hidden):
            continue
        if pile.key == "table.pile.last_trick":
            if not set(pile.cards) <= drawn or any(c in drawn for _, c in view.trick):
                continue  # not drawn (it gives way to the trick), or its cards could be the trick's
        elif pile not in table_piles(view):
            continue  # counted on its seat's plate
        name = _label_name(text, pile)
        expected[name] += 1
        if pile.seat is not None and not pile.key.endswith(".side_tricks"):
            owners.setdefault(name, set()).add(_plain_of(text.seat(pile.seat)))
    for seat, info in enumerate(view.seats):
        if info.shown:
            name = text.t("table.pile.shown")
            expected[name] += 1
            owners.setdefault(name, set()).add(_plain_of(text.seat(seat)))
    left_out = Counter(
        text.t("table.pile.shown")
        if key.startswith("shown")
        else _label_name(text, Pile(key, seat=0))
        for key in plan.left_out
        if key not in ("trump", "legend")
    )
    known = set(expected) | {_label_name(text, pile) for pile in view.piles}
    for op in labels:  # only a seat's name after a pile's whole name, or under it, may be cut
        name = _pile_name(op.text)
        under = op.text.startswith("(") and op.text.endswith(")")
        whole = name in known and op.text.startswith(name + " ")
        assert "…" not in op.text or under or whole, op.text
    expected -= left_out
    found: Counter[str] = Counter()
    for i, op in enumerate(labels):
        name = _pile_name(op.text)
        if name not in expected:
            continue
        found[name] += 1
        if name in owners:  # its seat's name, or at least its initial (and a number after it)
            whose = op.text.removeprefix(name).split(" · ")[0].strip(" ()")
            if not whose and i + 1 < len(labels):  # on a line of its own under the pile's name
                whose = labels[i + 1].text.strip("()")
            head, _, tail = whose.partition("…")
            assert head, (view.game, op.text)
            assert any(o.startswith(head) and o.endswith(tail) for o in owners[name]), op.text
    for name, count in expected.items():
        assert found[name] >= count, (view.game, game.players, lang, name, [o.text for o in labels])
    if view.teams:
        legend = text.t("view.team_legend")
        pictured = " ".join(op.text for op in labels)
        assert legend in pictured or any(line.startswith(legend) for line in plan.untold)
        sides = [op for op in plan.ops if isinstance(op, MarkOp) and op.shape in _SIDE_SHAPES]
        for pile in view.piles:  # a side's pile shows its side's mark before its label
            name = _label_name(text, pile)
            if pile.key.endswith(".side_tricks") and name not in left_out:
                assert any(
                    m.rect[2] <= op.x and abs(m.rect[1] - op.y) < 20
                    for m in sides
                    for op in labels
                    if op.text.startswith(name)
                ), view.game


_SIDE_SHAPES = ("circle", "diamond", "square")


def _label_name(text: TextRenderer, pile: Pile) -> str:
    """A pile's name in the picture: a side's pile after the side's mark in short
    (``● Stick``)."""
    short = pile.key + "_short"
    if pile.key.endswith(".side_tricks") and text.catalog.has(short):
        return text.t(short)
    return text.t(pile.key)


def _plain_of(name: str) -> str:
    return " ".join("".join(ch for ch in name if ord(ch) < 0x180).split())


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_pile_on_the_felt_is_named_and_no_label_is_cut(game_id: str) -> None:
    """At the 236 px a phone shows the picture: over playouts of every game at every number of
    players, in both languages, with members' names and the computer players' ("Dator 1")."""
    spec = SPECS[game_id]
    computers = [f"Dator {n}" for n in range(1, 11)]
    for players in _counts(spec):
        for lang in ("sv", "en"):
            for names in (NAMES, computers):
                for seed in (players, players + 20):
                    for game in _playout_states(spec, players, seed):
                        _assert_every_pile_named_and_nothing_cut(game, lang, names)


def test_no_group_of_cards_is_labelled_by_a_seats_name_alone() -> None:
    """Tvåmanswhist's cards drawn from the talong face up, Piquet's discards and shown cards,
    Bräus's sides' tricks: once labelled "Dator 1" (three times in Piquet) or "Bo" alone, or not
    at all; now by what they are, and whose."""
    names = [f"Dator {n}" for n in range(1, 5)]
    seen: Counter[str] = Counter()
    for game_id, players in (("tvamanswhist", 2), ("piquet", 2), ("piquet", 3), ("braus", 4)):
        for seed in range(4):
            for game in _playout_states(SPECS[game_id], players, seed):
                view = game.view(None)
                text = TextRenderer(catalog("sv"), names[:players], DISCORD)
                plan = table_plan(view, text, trump_line(text, view, True))
                labels = [op.text for op in _off_plates(plan)]
                assert not set(labels) & set(names[:players]), labels
                owned = [label for label in labels if _pile_name(label) != label.split(" · ")[0]]
                assert len(set(owned)) == len(owned), owned  # whose is never ambiguous
                for label in labels:
                    seen[_pile_name(label)] += 1
    for name in ("Visat", "Bortlagt", "Talong", "Stick"):
        assert seen[name], (name, seen)
    assert seen["Märket"] + seen["Märket visar laget"], seen


@pytest.mark.parametrize(
    ("game_id", "players", "key"),
    [
        ("lojliga_familjerna", 5, "lojliga_familjerna.seat_score"),  # "3 fa…"
        ("piquet", 2, "piquet.pile.aside"),  # "Talongkor…"
        ("reunion", 3, "reunion.pile.discards"),  # "Bortlagda k…"
    ],
)
def test_the_labels_once_cut_are_whole(game_id: str, players: int, key: str) -> None:
    spec = SPECS[game_id]
    shown = 0
    for seed in range(6):
        for game in _playout_states(spec, players, seed):
            for lang in ("sv", "en"):
                whole = catalog(lang).text(key, score=3)
                words = whole.removeprefix("3 ")[:3]
                plan = _plan(game, lang)
                counts = [op.text for op in _on_plates_not_names(plan)]
                assert not [t for t in counts if "…" in t], counts
                labels = [op.text for op in _off_plates(plan) if op.text.startswith(words)]
                cut = [t for t in labels if "…" in t and not t.startswith(whole + " ")]
                assert not cut, labels  # only a seat's name after the whole name may be cut
                shown += len(labels) + sum(f" {words}" in t for t in counts)
    assert shown


def test_a_short_seat_name_in_a_pile_label_is_never_cut() -> None:
    """Nittionio at three, during the bidding: Anna's bid cards at the felt's right edge were
    labelled "Budkort A…" and Dator 2's "Budkort D… 2", where the label shifted left, or the
    seat's name on a line of its own, keeps it whole."""
    names = ["Anna", "Dator 1", "Dator 2"]
    spec = SPECS["nittionio"]
    owners: Counter[str] = Counter()
    for seed in range(6):
        for game in _playout_states(spec, 3, seed):
            view = game.view(None)
            for lang in ("sv", "en"):
                text = TextRenderer(catalog(lang), names, DISCORD)
                plan = table_plan(view, text, trump_line(text, view, True))
                assert_legible(plan)
                labels = [op.text for op in _off_plates(plan)]
                assert not [t for t in labels if "…" in t], (seed, lang, labels)
                for name in names:
                    owners[name] += sum(f"({name})" in t for t in labels)
    assert all(owners[name] for name in names), owners


@pytest.mark.parametrize("game_id", ["nittionio", "femkort", "tvamanswhist", "piquet", "femhundra"])
def test_the_trick_on_the_felt_is_named(game_id: str) -> None:
    """The cards of the trick in play carry the trick's name ("Stick", "Trick") beside them,
    uncovered; each card's seat is told by where it lies."""
    spec = SPECS[game_id]
    named = 0
    for players in _counts(spec):
        for seed in range(3):
            for game in _playout_states(spec, players, seed):
                view = game.view(None)
                for lang in ("sv", "en"):
                    word = catalog(lang).text("table.pile.trick")
                    text = TextRenderer(catalog(lang), NAMES[:players], DISCORD)
                    plan = table_plan(view, text, trump_line(text, view, spec.trick_taking))
                    assert_legible(plan)
                    shown = [op for op in _off_plates(plan) if op.text == word]
                    assert len(shown) == (1 if view.trick else 0), (players, lang)
                    named += len(shown)
    assert named


def test_a_piece_pasted_as_its_parts_is_pasted_exactly_as_through_its_alpha() -> None:
    """The painter pastes each piece as a solid core and blended strips (or through a one-bit
    mask): on a background of noise, every pixel is what one paste through the piece's alpha
    gives, for every kind of piece the pictures hold."""
    pieces = [card_image(c, CARD_W, four) for c in range(52) for four in (True, False)]
    pieces += [card_image(c, CARD_W, True, "Kn", None, True) for c in (0, 20, 51)]
    pieces += [card_image(JOKER, CARD_W, True, "", 7), back_image(CARD_W)]
    pieces += [
        _text_piece(t, NAME_PX, b, HIGHLIGHT)
        for t in ("Åsa Öberg", "Stick · 3", "")
        for b in (True, False)
    ]
    pieces += [
        _box_piece(150, 48, (14, 62, 39), (70, 130, 95), 2, 8),
        _box_piece(60, 90, None, (200, 30, 140), 6, 0),
    ]
    pieces += [
        _mark_piece(shape, 16, 16, HIGHLIGHT) for shape in ("circle", "diamond", "tricks", "back")
    ]
    pieces += [_suit_piece(suit, 30, FOUR_COLOURS[suit]) for suit in range(4)]
    rng = random.Random(7)
    noise = Image.frombytes("RGB", (200, 140), rng.randbytes(200 * 140 * 3))
    for piece in pieces:
        whole, parted = noise.copy(), noise.copy()
        whole.paste(piece, (9, 5), piece)
        for part, dx, dy, mask in _parts(piece):
            parted.paste(part, (9 + dx, 5 + dy), mask)
        assert parted.tobytes() == whole.tobytes()
    assert any(mask is None for p in pieces[:52] for _, _, _, mask in _parts(p))  # cores copied


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_a_table_is_painted_as_its_pieces_pasted_in_turn_through_their_alpha(game_id: str) -> None:
    """The painter pastes each piece's parts through Pillow's core, not ``Image.paste``: the
    picture is, pixel for pixel, the felt with every piece of the plan pasted in turn through
    its own alpha, at every point of play, in both decks."""
    for game in _states(SPECS[game_id], 11):
        view = game.view(None)
        text = TextRenderer(catalog("sv"), NAMES[: game.players], DISCORD)
        plan = table_plan(view, text, trump_line(text, view, SPECS[game_id].trick_taking))
        for four in (True, False):
            expected = _felt(plan.width, plan.height, True).copy()
            for op in plan.ops:
                piece, x, y = _piece(op, four)
                expected.paste(piece, (x, y), piece)
            assert _paint(plan, True, four).tobytes() == expected.tobytes()


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_a_hand_laid_from_tiles_is_the_hand_painted(lang: str) -> None:
    """A hand whose cards lie apart is laid from tiles on the palette, not painted: byte for byte
    the picture painting gives, for hands of every length, with cards dimmed (not playable now),
    jokers and both decks; a framed card or a fanned hand is painted as before."""
    ranks = DISCORD.speaking(catalog(lang)).ranks
    rng = random.Random(5)
    deck = [*range(52), JOKER]
    laid = 0
    for size in (1, 5, 13, 20, 29):
        for four in (True, False):
            cards = sort_hand(rng.sample(deck, size))
            playable = cards[::3] if size > 4 else ()
            plan = hand_plan(cards, playable, (), "", ranks, 5)
            painted = _png(_paint(plan, False, four))
            assert hand_png(cards, playable, (), "", four, ranks, 5) == painted
            laid += _laid(plan, four) is not None
    assert laid >= 6  # most hands lie apart
    fanned = hand_plan(list(range(20)), ranks=ranks)  # two rows of ten, each card over the next
    assert _laid(fanned, True) is None
    assert hand_png(list(range(20)), ranks=ranks) == _png(_paint(fanned, False, True))
    framed = hand_plan([1, 2, 3], (), [2], "Svarte Petter", ranks)
    assert _laid(framed, True) is None
    assert hand_png([1, 2, 3], (), [2], "Svarte Petter", True, ranks) == _png(
        _paint(framed, False, True)
    )


def test_the_legend_counts_as_whole_in_both_its_forms() -> None:
    """The packer prefers the packing that leaves the fewest blocks short: the legend of the
    sides' marks is whole in one line and in two, unless a form cuts it."""
    legend = Block(LEGEND, "Samma märke, samma lag", (), 0, (0, 300), 300)
    forms, sizes, wholes = _block_forms(_shape(legend), tuple(sorted(DISCORD.ranks.items())))
    assert forms == (FULL, TWO_ROWS)
    assert len(sizes) == 2
    assert wholes == 2
