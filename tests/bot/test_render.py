"""Text rendering: card faces, messages by the argument convention, action labels, the table."""

from __future__ import annotations

import random
import re

from toygame import SPEC as TOY
from toygame import TOY_TEXTS_EN

from bot.i18n import catalog
from bot.options import variant_name
from bot.render.text import (
    DISCORD,
    TextRenderer,
    card_face,
    columns,
    faces_of_codes,
    short_names,
    sort_hand,
)
from games.cards import JOKER, parse_card
from games.core import Msg, ScoreSheet, SheetRow


def _render(lang: str = "en") -> TextRenderer:
    return TextRenderer(catalog(lang).with_entries(TOY_TEXTS_EN), ["Anna", "Bo", "Cia"])


def test_card_faces() -> None:
    assert card_face(parse_card("QS")) == "Q♠"
    assert card_face(parse_card("TH")) == "10♥"
    assert card_face(parse_card("2C")) == "2♣"
    assert card_face(JOKER) == "🃏"
    assert faces_of_codes("QS 7D JK") == "Q♠ 7♦ 🃏"
    assert faces_of_codes("QS x") == "Q♠ x"


def test_discord_faces_are_four_colours_none_of_them_a_dark_emoji() -> None:
    # Discord draws ♠ and ♣ as near-black emoji, invisible on its dark theme
    faces = [card_face(parse_card(f"7{suit}"), DISCORD) for suit in "SHDC"]
    assert faces == ["7♤", "7♥️", "7🔷", "7☘️"]
    assert len(set(faces)) == 4
    assert not any(dark in "".join(faces) for dark in "♠♣")
    assert faces_of_codes("QS 7D JK", DISCORD) == "Q♤ 7🔷 🃏"
    sv = TextRenderer(catalog("sv"), ["Anna", "Bo"], DISCORD)
    assert sv.msg(Msg.of("table.event.trump", suit="C")) == "Trumf: ☘️ klöver"
    assert sv.action("toy", "QC KC") == "D☘️ K☘️"


def test_cards_have_swedish_ranks_in_swedish_and_english_ranks_in_english() -> None:
    codes = "AS KH QD JC TS 9H JK"
    sv, en = _render("sv"), _render("en")
    assert sv.faces_of(parse_card(c) for c in codes.split()) == "E♠ K♥ D♦ Kn♣ 10♠ 9♥ 🃏"
    assert en.faces_of(parse_card(c) for c in codes.split()) == "A♠ K♥ Q♦ J♣ 10♠ 9♥ 🃏"
    won = Msg.of("table.event.trick_won", seat=0, card="QS")
    assert sv.msg(won) == "Anna tar sticket med D♠"
    assert en.msg(won) == "Anna takes the trick with Q♠"
    assert sv.action("nittionio", "bid AC JD 7S") == "Lägg budkort E♣ Kn♦ 7♠"
    swedish_discord = TextRenderer(catalog("sv"), ["Anna"], DISCORD)
    assert swedish_discord.face(parse_card("JS")) == "Kn♤"


def test_hands_are_sorted_by_suit_then_high_to_low() -> None:
    hand = [parse_card(c) for c in ("2H", "AS", "KH", "JK", "9C", "TS", "4D")]
    assert " ".join(card_face(c) for c in sort_hand(hand)) == "🃏 A♠ 10♠ K♥ 2♥ 9♣ 4♦"


def test_messages_use_names_faces_and_suits() -> None:
    won = Msg.of("table.event.trick_won", seat=1, card="TH")
    assert _render("en").msg(won) == "Bo takes the trick with 10♥"
    assert _render("sv").msg(won) == "Bo tar sticket med 10♥"
    assert _render("sv").msg(Msg.of("table.event.trump", suit="S")) == "Trumf: ♠ spader"
    assert _render("en").msg(Msg.of("table.event.trump", suit=2)) == "Trumps: ♥ hearts"


def test_action_labels() -> None:
    r = _render("sv")
    assert r.action("toy", "QS") == "D♠"
    assert r.action("toy", "pass") == "Passa"
    assert r.action("toy", "draw 3") == "Dra kort nummer 3"
    assert _render("en").action("toy", "discard 8C 9D TS") == "lay aside 8♣ 9♦ 10♠"


def test_a_verb_alone_may_have_its_own_label() -> None:
    plain = _render("en")
    assert plain.action("toy", "discard") == "lay aside"
    own = TextRenderer(
        catalog("en").with_entries({**TOY_TEXTS_EN, "toy.alone.discard": "keep all"}), []
    )
    assert own.action("toy", "discard") == "keep all"
    assert own.action("toy", "discard 8C") == "lay aside 8♣"
    assert own.verb("toy", "discard") == "lay aside"  # a menu of discards is named by its verb


def test_table_lines_show_hand_trump_and_seats() -> None:
    game = TOY.new(3, rng=random.Random(2))
    lines = _render("en").table(game.view(0))
    text = "\n".join(lines)
    assert "Deal 1" in text
    assert "trumps:" in text
    assert "Your hand:" in text
    assert "Cia" in text
    assert "8 cards" in text
    spectator = "\n".join(_render("en").table(game.view(None)))
    assert "Your hand" not in spectator


def test_contract_bids_and_argument_templates() -> None:
    sv = TextRenderer(
        catalog("sv").with_entries(
            {"toy.notation.ask": "Fråga {seat} om {rank}", "toy.step.ask": "{seat}"}
        ),
        ["Anna", "Bo", "Cia"],
    )
    assert sv.action("toy", "bid 7NT") == "Bjud 7 sang"
    assert sv.action("toy", "bid 6S") == "Bjud 6♠"
    assert sv.action("toy", "ask 2 K") == "Fråga Cia om kungar"
    assert sv.step("toy", "ask", "1") == "Bo"
    assert _render("en").step("toy", "bid", "7").endswith("7…")


def test_contract_arguments_show_the_contract_and_its_doubling() -> None:
    sv = TextRenderer(catalog("sv"), ["Anna", "Bo"])
    assert sv.arg("contract", "4S") == "4♠"
    assert sv.arg("high_contract", "4SX") == "4♠X"
    assert sv.arg("contract", "3NTXX") == "3 sang XX"
    assert sv.arg("contract", "misere") == "misere"
    assert _render("en").arg("contract", "7NT") == "7 NT"


def test_score_sheet_lines_up_its_columns_and_draws_the_line() -> None:
    sheet = ScoreSheet(
        columns=(Msg.of("view.seat_number", number=1), Msg.of("view.seat_number", number=2)),
        rows=(
            SheetRow(Msg.of("view.deal", deal=1), (30, None), rule_below=True),
            SheetRow(Msg.of("view.deal", deal=2), (None, 120)),
        ),
    )
    lines = _render("en").sheet(sheet)
    assert lines[0].split() == ["Seat", "1", "Seat", "2"]
    assert lines[1].split() == ["Deal", "1", "30"]
    assert set(lines[2]) == {"─"}
    assert lines[3].endswith("120")
    assert lines[1].index("30") + 2 == lines[0].index("Seat 1") + len("Seat 1")  # lined up


def _sides_sheet(labels: list[str]) -> ScoreSheet:
    """Bräus's sheet: two sides, a deal won by a side on each row, each label naming it."""
    side = {"seat": 0, "partner_seat": 2}
    rows = [
        SheetRow(Msg.of("braus.sheet.rita", deal=n + 1, won=6, lost=4, **side), (1, None))
        for n in range(len(labels))
    ]
    columns = tuple(Msg.of("braus.sheet.side", seat=s, partner_seat=s + 2) for s in (0, 1))
    return ScoreSheet(columns, (*rows, SheetRow(Msg.of("braus.sheet.ritor"), (len(rows), 0))))


def test_a_sheet_too_wide_for_a_phone_names_seats_short_and_a_long_label_has_its_own_line() -> None:
    names = ["Åsa Öberg", "Bo Ek", "Cilla Dahl", "Dator 4"]
    text = TextRenderer(catalog("sv"), names)
    sheet = _sides_sheet(["", ""])
    assert max(map(len, text.sheet(sheet))) > 27  # as wide as the names
    head, rows = text.sheet_rows(sheet, 27)
    assert head.split() == ["Åsa", "&", "Cilla", "Bo", "&", "Dator", "4"]  # a number kept
    assert rows[0] == ["Giv 1: Åsa & Cilla 6–4", rows[0][1]]  # the label on a line of its own
    assert rows[0][1].split() == ["1"]
    assert rows[0][1].rindex("1") == head.index("Cilla") + len("Cilla") - 1  # under its side
    assert [line.split() for line in rows[-1]] == [["Ritor"], ["2", "0"]]
    assert all(len(line) <= 27 for line in [head, *(x for row in rows for x in row)])


def test_a_narrow_sheet_names_the_seats_by_their_initials_where_that_leaves_the_labels_room() -> (
    None
):
    text = TextRenderer(catalog("sv"), ["Åsa Öberg", "Bo Ek", "Cilla Dahl", "Dag Berg"])
    sheet = ScoreSheet(
        tuple(Msg.of("piquet.sheet.side", seat=s, partner_seat=s + 2) for s in (0, 1)),
        (
            SheetRow(Msg.of("piquet.sheet.last_trick"), (1, None)),
            SheetRow(Msg.of("piquet.sheet.cards"), (None, 10)),
        ),
    )
    # first names (Åsa & Cilla) would leave no room for Sista sticket beside its numbers
    head, rows = text.sheet_rows(sheet, 30)
    assert head.split() == ["ÅÖ", "&", "CD", "BE", "&", "DB"]
    assert head == "              ÅÖ & CD BE & DB"
    assert rows == [["Sista sticket       1"], ["Flest stick                10"]]  # lined up


def test_a_long_label_is_broken_between_words_and_nothing_is_wider_than_the_phone() -> None:
    text = TextRenderer(catalog("sv"), ["Åsa Öberg", "Bo Ek"])
    sheet = ScoreSheet(
        (Msg.of("piquet.sheet.seat", seat=0), Msg.of("piquet.sheet.seat", seat=1)),
        (SheetRow(Msg.of("piquet.sheet.repique_others"), (60, 1500)),),
    )
    head, rows = text.sheet_rows(sheet, 20)
    assert rows == [["Kombinationer före", "  motspelarna", " 60 1500"]]
    assert head == "Åsa   Bo"
    blank = ScoreSheet(sheet.columns, (SheetRow(Msg.of("piquet.sheet.repique_others"), ()),))
    assert text.sheet_rows(blank, 20)[1] == [["Kombinationer före", "  motspelarna"]]  # no blank


def _seats_sheet(names: list[str]) -> tuple[TextRenderer, ScoreSheet]:
    text = TextRenderer(catalog("sv"), names)
    sheet = ScoreSheet(
        (Msg.of("piquet.sheet.seat", seat=0), Msg.of("piquet.sheet.seat", seat=1)),
        (SheetRow(Msg.of("piquet.sheet.repique_others"), (60, None)),),
    )
    return text, sheet


def test_members_of_one_first_name_and_initials_are_told_apart_by_their_last_names() -> None:
    """Anna Berg and Anna Björk: neither first names nor initials tell them apart, so the sheet
    stayed wider than a phone; the first letters of their last names that differ do."""
    text, sheet = _seats_sheet(["Anna Berg", "Anna Björk"])
    assert text.sheet(sheet)[0].split() == ["Anna", "Berg", "Anna", "Björk"]
    narrow = text.sheet(sheet, 27)
    assert narrow[0].split() == ["Anna", "Be", "Anna", "Bj"]
    assert all(columns(line) <= 27 for line in narrow)
    assert short_names(["Anna Berg", "Anna Björk", "Bo Ek"], 8) == ["Anna Be", "Anna Bj", "Bo"]


def test_a_narrow_sheet_tells_members_of_one_first_name_and_initials_apart_by_initials() -> None:
    """Five seats, two of them Anna B: first names with what tells them apart are too wide for
    a phone and initials are not told apart, so the sheet stayed as wide as the whole names;
    initials with the letters of a last name that differ fit."""
    names = ["Anna Berg", "Anna Björk", "Cilla Dahl", "Dag Ek", "Eva Fors"]
    text = TextRenderer(catalog("sv"), names)
    sheet = ScoreSheet(
        tuple(Msg.of("piquet.sheet.seat", seat=s) for s in range(len(names))),
        (SheetRow(Msg.of("piquet.sheet.repique_others"), (100, 101, 102, 103, 104)),),
    )
    narrow = text.sheet(sheet, 27)
    assert narrow[0].split() == ["ABe", "ABj", "CD", "DE", "EF"]
    assert all(columns(line) <= 27 for line in narrow)
    assert short_names(["Erik Svensson", "Erik Sandberg", "Bo Ek"], 5) == ["ESv", "ESa", "BE"]


def test_a_sheet_stays_wide_where_no_short_names_tell_its_columns_apart() -> None:
    text, sheet = _seats_sheet(["Anna Berg", "Anna Berg"])  # two members of one name
    assert text.sheet(sheet, 27) == text.sheet(sheet)


def test_a_code_block_counts_an_emoji_as_two_columns_and_a_mark_on_a_letter_as_none() -> None:
    assert columns("Cilla 🎲") == 8
    assert columns("Åsa Öberg") == columns("A\u030asa O\u0308berg") == 9  # composed or not
    assert columns("♥️") == 2  # the suit as an emoji
    assert columns("♡") == 1  # the white suit a code block draws
    assert columns("👍🏽") == columns("👨\u200d👩\u200d👧") == columns("🇸🇪") == 2  # one picture
    assert columns("漢字") == 4
    assert columns("a`\u200b`b") == 4  # a fence broken by a zero-width space
    assert columns("Bo\u00adEk") == 4  # a soft hyphen, drawn as nothing


def _columns_of_numbers(line: str) -> list[int]:
    """The column (:func:`columns`) where each number on a line of a code block ends."""
    return [columns(line[: m.end()]) for m in re.finditer(r"\d+", line)]


def test_a_sheet_with_an_emoji_in_a_name_keeps_its_numbers_under_their_columns() -> None:
    """A phone draws an emoji two columns wide: a label or a head holding one is padded by the
    columns it takes, not by its characters, so the numbers still line up."""
    text = TextRenderer(catalog("sv"), ["Cilla 🎲", "Bo 🃏🃏"])
    sheet = ScoreSheet(
        (Msg.of("piquet.sheet.seat", seat=0), Msg.of("piquet.sheet.seat", seat=1)),
        (
            SheetRow(Msg.of("view.deal", deal=1), (60, 1500)),
            SheetRow(Msg.of("piquet.sheet.repique_others"), (7, 12)),
        ),
    )
    head, rows = text.sheet_rows(sheet)
    ends = [columns(head[: head.index("🎲") + 1]), columns(head)]
    assert [_columns_of_numbers(row[0])[-2:] for row in rows] == [ends, ends]
    narrow, rows = text.sheet_rows(sheet, 20)
    assert all(columns(line) <= 20 for line in [narrow, *(x for row in rows for x in row)])


def test_names_cut_for_a_phone_fit_its_columns_with_an_emoji_in_them() -> None:
    initials = short_names(["🎲🎲🎲🎲🎲 Åsa", "🎲🎲🎲🎲🎲 Bo"], 8)
    assert initials == ["🎲Å", "🎲B"]
    cut = short_names(["🎲🎲🎲🎲🎲Åsa", "🎲🎲🎲🎲🎲Bo"], 8)  # one word each, one initial
    assert [columns(n) for n in cut] == [8, 7]
    assert cut == ["🎲🎲…Åsa", "🎲…🎲Bo"]
    assert short_names(["Åsa 🎲", "Bo"], 6) == ["Åsa 🎲", "Bo"]  # six columns: whole


def test_several_cards_played_at_once_are_labelled_as_their_faces() -> None:
    assert _render("sv").action("skitgubbe", "QC KC AC") == "D♣ K♣ E♣"
    assert _render("en").action("skitgubbe", "7H") == "7♥"


def test_a_variant_is_named_in_the_table_language_when_the_game_names_it() -> None:
    named = catalog("sv").with_entries({"toy.variant.fast": "Snabbt"})
    assert variant_name(named, "toy", "fast") == "Snabbt"
    assert variant_name(named, "toy", "slow") == "slow"
    assert variant_name(catalog("en"), "piquet", "classic") == "Classic Piquet"


def test_a_game_may_name_a_whole_action() -> None:
    sv = TextRenderer(
        catalog("sv").with_entries({"toy.notation.bid_misere": "Bjud misär"}), ["Anna", "Bo"]
    )
    assert sv.action("toy", "bid misere") == "Bjud misär"
    assert sv.action("toy", "bid 7NT") == "Bjud 7 sang"
