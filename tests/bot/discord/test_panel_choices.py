"""The hand panel's choices, for every registered game: every card one click away in the order the
hand is shown, cards picked in hand order, a line of help for every verb, Nittionio's bid-card
picker, half-made choices kept or dropped with a word, and Svarte Petter's odd card marked."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator, Mapping

import discord
import pytest
from test_limits import live_table

from bot.discord.embeds import dm_text, hand_line
from bot.discord.images import hand_png
from bot.discord.views.layout import Buttons, Draft, Select, choice_of, layout
from bot.discord.views.panel import (
    SUIT_FACES,
    PanelAction,
    PanelPage,
    PanelSelect,
    build_panel,
    hand_picture,
    panel_for,
    panel_rows,
)
from bot.i18n import catalog
from bot.offers import panel_choices
from bot.render.text import DISCORD, card_face, hand_order_of, sort_hand
from bot.sessions import LiveTable, member_actions
from games.cards import parse_card, suit_of
from games.core import Game
from games.registry import SPECS

LANGUAGES = ("sv", "en")


def playouts(game_id: str, steps: int, seed: int = 3) -> Iterator[Game]:
    """Every state of random playouts of each preset, at both ends of the seat range."""
    spec = SPECS[game_id]
    rng = random.Random(seed)
    for preset in ["standard", *spec.presets]:
        for players in sorted({spec.min_players, spec.max_players}):
            game = spec.new(players, spec.preset(preset), rng=random.Random(seed))
            for _ in range(steps):
                if game.is_over():
                    break
                yield game
                seat = sorted(game.to_act())[0]
                legal = game.legal_actions(seat)
                game.apply(seat, legal[rng.randrange(len(legal))])


def singles(notations: list[str]) -> list[str]:
    return [n for n in notations if choice_of(n).is_card]


def card_buttons(texts_lang: str, table: LiveTable, seat: int) -> list[PanelAction]:
    """The card buttons of every page of the seat's panel, page by page, row by row."""
    texts = catalog(texts_lang)
    found: list[PanelAction] = []
    pages = len(panel_rows(texts, table, seat))
    for page in range(pages):
        _, view = build_panel(texts, table, seat, page=page)
        items = sorted(view.children, key=lambda i: i.row or 0)
        assert not any(isinstance(i, PanelSelect) and not i.verb and i.pick == 1 for i in items), (
            "a single card is offered in a menu"
        )
        found += [i for i in items if isinstance(i, PanelAction) and choice_of(i.notation).is_card]
    return found


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_card_is_one_click_on_some_page_in_the_order_of_the_hand_line(game_id: str) -> None:
    largest = 0
    for n, game in enumerate(playouts(game_id, 160)):
        if n % 3:
            continue
        table = live_table(game_id, game)
        for seat in sorted(game.to_act()):
            plays = singles(panel_choices(table, seat))
            if not plays:
                continue
            largest = max(largest, len(plays))
            buttons = card_buttons("sv", table, seat)
            assert sorted(b.notation for b in buttons) == sorted(plays)  # each once, none missing
            playable = [parse_card(b.notation) for b in buttons]
            assert playable == sort_hand(playable, hand_order_of(game_id))  # as a hand is shown
            # and the hand line's order (a dummy's cards, played too, are not in the hand)
            line = hand_line(catalog("sv"), game.view(seat)).split()
            labels = [b.item.label for b in buttons]
            assert [label for label in labels if label in line] == [w for w in line if w in labels]
    if game_id in ("skitgubbe", "snipp_snapp_snorum", "svarte_petter", "tvamanswhist"):
        assert largest > 10 or game_id == "svarte_petter"


def test_a_large_hand_is_pages_of_buttons_with_the_verbs_beside_the_page_buttons() -> None:
    hand = [f"{rank}{suit}" for suit in "SHCD" for rank in "AKQJT98"]  # 28 cards
    pages = layout([*hand, "pickup"])
    assert len(pages) == 2
    assert all(len(rows) <= 5 for rows in pages)
    rows = [row for rows in pages for row in rows if isinstance(row, Buttons)]
    cards = [c.notation for row in rows for c in row.choices if c.is_card]
    assert cards == hand  # ♠ ♥ ♣ ♦, high first, across the pages
    nav = [row for row in rows if row.nav]
    assert len(nav) == 2  # beside the page buttons, on both pages
    assert all([c.notation for c in row.choices] == ["pickup"] for row in nav)


def test_a_hand_of_more_than_five_pages_turns_back_and_forward(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hand = [f"{rank}{suit}" for suit in "SHCD" for rank in "AKQJT98765432"][:26]
    menus = [
        *(f"draw {n}" for n in range(1, 20)),
        *(f"call {c}" for c in hand[:20]),
        *(f"lead {n}" for n in range(2, 15)),
    ]  # three menus on every page leave one row of cards
    pages = layout([*hand, *menus])
    assert len(pages) == 6
    game = SPECS["snipp_snapp_snorum"].new(2, rng=random.Random(1))
    table = live_table("snipp_snapp_snorum", game)
    monkeypatch.setattr("bot.discord.views.panel.panel_choices", lambda *_: [*hand, *menus])
    shown = len(panel_rows(catalog("en"), table, 0))  # rows as wide as a phone's: more pages
    assert shown >= 6
    found = []
    for page in range(shown):
        _, view = build_panel(catalog("en"), table, 0, page=page)
        assert len(view.to_components()) <= 5
        turns = [i for i in view.children if isinstance(i, PanelPage)]
        assert [t.item.label for t in turns] == ["◀", f"Page {page + 1}/{shown}", "▶"]
        assert [t.page for t in turns] == [(page - 1) % shown, page, (page + 1) % shown]
        found += [i.notation for i in view.children if isinstance(i, PanelAction)]
    assert found == sort_hand_codes(hand)


def sort_hand_codes(codes: list[str]) -> list[str]:
    by_card = {parse_card(c): c for c in codes}
    return [by_card[c] for c in sort_hand(by_card)]


def test_cards_picked_together_are_listed_in_hand_order() -> None:
    seen = 0
    for game_id in ("skitgubbe", "nittionio", "reunion", "piquet"):
        for game in playouts(game_id, 120):
            table = live_table(game_id, game)
            for seat in sorted(game.to_act()):
                hand = sort_hand(game.view(seat).hand)
                for rows in layout(panel_choices(table, seat)):
                    for row in rows:
                        if isinstance(row, Select) and row.most_values > 1:
                            cards = [parse_card(c.notation) for c in row.choices]
                            assert cards == [c for c in hand if c in cards]
                            seen += 1
    assert seen > 20


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_bidding_and_declaration_verb_has_help_in_both_languages(game_id: str) -> None:
    shown: dict[str, int] = {}
    for game in playouts(game_id, 400, seed=5):
        for seat in sorted(game.to_act()):
            verbs = {choice_of(n).verb for n in member_actions(game, seat).values()} - {""}
            for verb in sorted(verbs - {v for v, n in shown.items() if n >= 2}):
                shown[verb] = shown.get(verb, 0) + 1
                for lang in LANGUAGES:
                    texts = catalog(lang)
                    key = f"{game_id}.help.{verb.lower()}"
                    assert texts.has(key), f"{key} missing in {lang}"
                    help_text = texts.text(key, **SUIT_FACES)
                    assert len(help_text) <= 160
                    content, _ = build_panel(texts, live_table(game_id, game), seat)
                    assert help_text in content  # on the panel that offers it
    if game_id != "tvamanswhist":  # whist has nothing but cards to play
        assert shown


def test_the_help_of_the_verbs_offered_is_shown_on_the_panel() -> None:
    game = SPECS["nittionio"].new(3, rng=random.Random(2))
    for seat in range(3):
        game.apply(seat, game.legal_actions(seat)[0])
    seat = sorted(game.to_act())[0]
    content, _ = build_panel(catalog("sv"), live_table("nittionio", game), seat)
    assert "Deklarera: Budkorten vänds upp. Går du hem får du 30 till" in content
    assert (
        "Visa: Budkorten vänds upp och du spelar med handen öppen. Går du hem får du 60" in content
    )
    content, _ = build_panel(catalog("en"), live_table("nittionio", game), seat)
    assert "both opponents get 60 each" in content


def play(table: LiveTable, seat: int, action: int) -> Game:
    """``action`` for ``seat`` as the session makes it: the table's match is replaced by a changed
    copy (a match is never changed in place, so what was worked out from it stays true)."""
    assert table.game is not None
    game = table.game.clone()
    game.apply(seat, action)
    table.game = game
    return game


def bid_table() -> tuple[Game, LiveTable]:
    game = SPECS["nittionio"].new(3, rng=random.Random(1))
    return game, live_table("nittionio", game)


SUIT_TRICKS = {"D": 0, "S": 1, "H": 2, "C": 3}  # rules: three-to-five-player.md 2.3


def test_the_bid_card_picker_shows_each_cards_worth_and_the_bid_before_sending() -> None:
    _game, table = bid_table()
    texts = catalog("sv")
    _, view = build_panel(texts, table, 0)
    menu = next(i for i in view.children if isinstance(i, PanelSelect))
    for option in menu.item.options:
        card = parse_card(option.value)
        assert option.description == f"bud {SUIT_TRICKS['CDHS'[suit_of(card)]]}"
    hand = [o.value for o in menu.item.options]
    two = (hand[0], hand[-1])
    content, view, kept = panel_for(texts, table, 0, draft=Draft(None, "bid", two))
    assert kept == Draft(None, "bid", two)
    assert "Välj 1 till." in content
    assert not [i for i in view.children if isinstance(i, PanelAction)]  # nothing to send yet
    three = (hand[0], hand[1], hand[-1])
    bid = sum(SUIT_TRICKS[c[-1]] for c in three)
    content, view, _ = panel_for(texts, table, 0, draft=Draft(None, "bid", three))
    faces = " ".join(card_face(parse_card(c), DISCORD) for c in three)
    assert f"Valt: {faces} → bud {bid}" in content
    menu = next(i for i in view.children if isinstance(i, PanelSelect))
    assert {o.value for o in menu.item.options if o.default} == set(three)
    send = next(i for i in view.children if isinstance(i, PanelAction))
    assert sorted(choice_of(send.notation).args) == sorted(three)
    assert send.item.style == discord.ButtonStyle.success
    assert (send.item.label or "").startswith("Skicka: Lägg budkort")


def test_picked_cards_are_kept_while_others_act_and_dropped_with_a_word_when_gone() -> None:
    game, table = bid_table()
    texts = catalog("sv")
    mine = tuple(sorted(choice_of(game.notation(game.legal_actions(0)[5])).args))
    draft = Draft(None, "bid", mine[:2])
    game = play(table, 1, game.legal_actions(1)[0])  # another seat lays its bid cards: redrawn
    content, _, kept = panel_for(texts, table, 0, draft=draft)
    assert kept == draft
    assert "gäller inte längre" not in content
    play(table, 0, game.legal_actions(0)[0])  # the time ran out: the computer laid seat 0's cards
    content, _view, kept = panel_for(texts, table, 0, draft=draft)
    assert kept is None
    faces = " ".join(card_face(parse_card(c), DISCORD) for c in mine[:2])
    assert f"Ditt påbörjade val (Lägg budkort {faces}) gäller inte längre" in content
    english, _, _ = panel_for(catalog("en"), table, 0, draft=draft)
    assert "no longer applies" in english


def test_an_opened_step_is_kept_while_it_leads_somewhere_and_dropped_with_a_word() -> None:
    game = SPECS["tvamansbridge"].new(2, rng=random.Random(4))
    table = live_table("tvamansbridge", game)
    seat = sorted(game.to_act())[0]
    draft = Draft("bid 1")
    content, view, kept = panel_for(catalog("sv"), table, seat, draft=draft)
    assert kept == draft
    ids = [i.item.custom_id for i in view.children if isinstance(i, PanelAction)]
    assert any("bid_1" in (cid or "") for cid in ids)  # the step's page
    play(table, seat, game.parse("bid 1NT"))  # played for the seat: its step leads nowhere now
    content, _, kept = panel_for(catalog("sv"), table, seat, draft=draft)
    assert kept is None
    assert "gäller inte längre" in content


def test_svarte_petter_marks_the_odd_card_in_its_holders_hand_only() -> None:
    game = SPECS["svarte_petter"].new(3, rng=random.Random(3))
    table = live_table("svarte_petter", game)
    js = parse_card("JS")
    holders = [s for s in range(3) if js in game.view(s).hand]
    assert len(holders) == 1
    for seat in range(3):
        view = game.view(seat)
        for lang, jack, mark in (("sv", "Kn", "Svarte Petter"), ("en", "J", "Black Peter")):
            texts = catalog(lang)
            content, _ = build_panel(texts, table, seat)
            content = next(line for line in content.splitlines() if line.startswith("Hand:"))
            dm = dm_text(texts, table, seat, "Servern").splitlines()[1]
            marked = f"{jack}♤ ({mark})"
            if seat in holders:
                assert view.marked == (js,)
                assert marked in content
                assert marked in dm
            else:
                assert view.marked == ()
                assert f"({mark})" not in content
                assert f"({mark})" not in dm
    holder = game.view(holders[0])
    plain = hand_png(sort_hand(holder.hand), [])
    framed = hand_png(sort_hand(holder.hand), [], holder.marked, "Svarte Petter")
    assert plain != framed


def test_the_odd_card_is_marked_only_once_anyone_could_know_it() -> None:
    hidden = SPECS["svarte_petter"]
    game = hidden.new(3, hidden.preset("hidden_odd_card"), rng=random.Random(3))
    while not game.is_over():
        assert all(game.view(s).marked == () for s in range(3))  # the odd card is face down
        seat = sorted(game.to_act())[0]
        game.apply(seat, game.legal_actions(seat)[-1])
    assert any(game.view(s).marked for s in range(3))  # shown at the end


class PicturesOn:
    """The part of the bot the hand picture asks: pictures are on."""

    async def pictures(self, guild_id: int, user_id: int | None = None) -> bool:
        return True


async def test_the_hand_picture_shows_the_cards_in_the_order_of_the_buttons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[tuple[list[int], list[int], tuple[int, ...], str]] = []

    def draw(
        cards: list[int],
        playable: list[int],
        marked: tuple[int, ...],
        mark: str,
        ranks: Mapping[str, str],
    ) -> bytes:
        assert ranks["Q"] == "D"  # the cards' indices in the table's language (Swedish)
        drawn.append((list(cards), list(playable), tuple(marked), mark))
        return b"png"

    monkeypatch.setattr("bot.discord.views.panel.hand_png", draw)
    checked = []
    for game_id in ("skitgubbe", "svarte_petter"):
        for game in playouts(game_id, 400):
            table = live_table(game_id, game)
            seat = sorted(game.to_act())[0]
            view = game.view(seat)
            wanted = view.marked if game_id == "svarte_petter" else panel_choices(table, seat)
            if len(view.hand) < 10 or not wanted:
                continue  # a large hand with cards to play, or the odd card's holder
            checked.append(game_id)
            drawn.clear()
            await hand_picture(PicturesOn(), table, seat, 1)  # type: ignore[arg-type]
            cards, _, marked, mark = drawn[0]
            words = hand_line(catalog("sv"), game.view(seat)).split()[1:]
            faces = [w for w in words if not w.startswith("(") and not w.endswith(")")]
            assert len(faces) == len(cards)
            buttons = [parse_card(b.notation) for b in card_buttons("sv", table, seat)]
            assert buttons or game_id == "svarte_petter"  # (its cards are drawn by place)
            assert buttons == [c for c in cards if c in buttons]  # the buttons' order
            assert marked == game.view(seat).marked
            assert bool(mark) == bool(marked)
            break
    assert checked == ["skitgubbe", "svarte_petter"]


def labels(view: discord.ui.View) -> list[str | None]:
    return [getattr(getattr(i, "item", i), "label", None) for i in view.children]


def test_a_seat_played_by_the_computer_offers_its_place_back_only_while_the_match_lasts() -> None:
    _game, table = bid_table()
    seats = list(table.record.seats)
    seats[0] = dataclasses.replace(seats[0], autoplay=True)
    table.record = dataclasses.replace(table.record, seats=tuple(seats))
    texts = catalog("sv")
    reclaim = texts.text("ui.button.reclaim")
    content, view, _ = panel_for(texts, table, 0)
    assert texts.text("ui.panel.autoplay") in content
    assert reclaim in labels(view)
    table.record = dataclasses.replace(table.record, status="finished")
    content, view, _ = panel_for(texts, table, 0)
    assert texts.text("ui.panel.autoplay") not in content  # over: there is no place to take back
    assert reclaim not in labels(view)


@pytest.mark.parametrize("game_id", ["skitgubbe"])
def test_several_cards_played_together_are_picked_then_sent_with_skicka(game_id: str) -> None:
    """Cards played at once with no verb (Skitgubbe's cards of a suit) are chosen as every
    other choice of several cards: picked in the menu, then sent with *Skicka*."""
    rng = random.Random(5)
    for players in (3, 4):
        game = SPECS[game_id].new(players, rng=random.Random(players))
        for _ in range(400):
            if game.is_over():
                break
            seat = min(game.to_act())
            table = live_table(game_id, game)
            together = [n for n in member_actions(game, seat).values() if " " in n and n[0] != "l"]
            together = [n for n in together if all(len(p) == 2 for p in n.split())]
            if together:
                cards = tuple(together[0].split())
                texts = catalog("sv")
                _, view, kept = panel_for(texts, table, seat, draft=Draft(None, "", cards))
                assert kept == Draft(None, "", cards)  # kept, not dropped
                send = [i for i in view.children if isinstance(i, PanelAction)]
                sent = [i for i in send if i.item.style == discord.ButtonStyle.success]
                assert [i.notation for i in sent] == [together[0]]
                assert (sent[0].item.label or "").startswith("Skicka")
                return
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
    pytest.skip(f"no cards played together came up in {game_id}")


@pytest.mark.parametrize("game_id", ["skitgubbe", "snipp_snapp_snorum"])
def test_a_hand_of_18_to_26_cards_is_one_click_a_card_with_sida_buttons_when_it_needs_pages(
    game_id: str,
) -> None:
    texts = catalog("sv")
    sizes: set[int] = set()
    paged = 0
    for game in playouts(game_id, 200):
        table = live_table(game_id, game)
        for seat in sorted(game.to_act()):
            plays = singles(panel_choices(table, seat))
            if not 18 <= len(plays) <= 26:
                continue
            sizes.add(len(plays))
            pages = len(panel_rows(texts, table, seat))
            clicks: list[str] = []
            for page in range(pages):
                _, view = build_panel(texts, table, seat, page=page)
                turns = [i for i in view.children if isinstance(i, PanelPage)]
                assert bool(turns) == (pages > 1)  # Sida buttons exactly when there are pages
                clicks += [
                    i.notation
                    for i in view.children
                    if isinstance(i, PanelAction) and choice_of(i.notation).is_card
                ]
            assert sorted(clicks) == sorted(plays)  # every card once, one click
            paged += pages > 1
    assert paged, f"no hand needing pages among sizes {sorted(sizes)}"
