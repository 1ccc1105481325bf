"""What the table message says in the lobby and during play: only what a player needs, in words."""

from __future__ import annotations

import dataclasses
import random

import discord
import pytest

from bot.discord.embeds import (
    DealResult,
    code_block,
    deal_result_embed,
    lobby_lines,
    panel_text,
    renderer,
    table_layout,
    timeout_line,
)
from bot.discord.images import TextOp, table_plan
from bot.discord.messages import PHONE_CODE_COLUMNS, layout_view, texts_of
from bot.i18n import catalog
from bot.render.text import columns
from bot.sessions import LiveTable, TimedOut
from bot.storage import SeatRecord, TableRecord
from games.core import Msg
from games.registry import SPECS


def table(
    game_id: str,
    *,
    status: str = "lobby",
    variant: str = "standard",
    options: tuple[tuple[str, str], ...] = (),
    players: int | None = None,
) -> LiveTable:
    spec = SPECS[game_id]
    count = players or spec.min_players
    computers = [SeatRecord(s, None, "", ai="rules") for s in range(2, count)]
    seats = (SeatRecord(0, 100, "Anna"), SeatRecord(1, 101, "Bo"), *computers)
    record = TableRecord(
        table_id=7,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=3,
        host_id=100,
        game_id=game_id,
        options=options,
        variant=variant,
        seed=1,
        status=status,  # type: ignore[arg-type]
        turn_seconds=60,
        language="sv",
        version=1,
        created_at=0.0,
        updated_at=0.0,
        deadline_at=None,
        seats=seats,
    )
    game = None
    if status != "lobby":
        game = spec.new(count, spec.preset(variant), rng=random.Random(3))
    return LiveTable(record, game)


def lobby_text(live: LiveTable, lang: str = "sv") -> str:
    return "\n".join(texts_of(layout_view(table_layout(catalog(lang), live, None))))


@pytest.mark.parametrize("game_id", ["nittionio", "braus", "femkort", "piquet"])
def test_a_lobby_of_the_standard_game_names_no_variant(game_id: str) -> None:
    for lang in ("sv", "en"):
        assert "Variant" not in lobby_text(table(game_id), lang)
        assert "standard" not in lobby_text(table(game_id), lang)


def test_a_lobby_names_a_chosen_variant_in_the_members_language() -> None:
    variant = next(v for v in SPECS["nittionio"].variants() if v != "standard")
    text = lobby_text(table("nittionio", variant=variant))
    assert "Variant:" in text
    assert variant not in text or catalog("sv").text(f"nittionio.variant.{variant}") in text


def test_a_lobby_shows_the_options_chosen_so_a_new_match_visibly_keeps_them() -> None:
    text = lobby_text(table("hej_knekt", options=(("false_alarm", "yes"), ("_seats", "4"))))
    assert "Valt:" in text
    assert "ja" in text.split("Valt:")[1].splitlines()[0]
    assert "_seats" not in text


def test_hej_knekts_lobby_shows_the_reaction_time_not_the_turn_time() -> None:
    text = lobby_text(table("hej_knekt", options=(("reaction_ms", "7000"),)))
    assert "Reaktionstid: 7 s" in text
    assert "Dragtid" not in text
    assert "Valt:" not in text  # the reaction time is said once, in its own words
    assert "Dragtid" in lobby_text(table("nittionio"))


def test_a_lobby_names_only_the_turn_times_its_game_has() -> None:
    """ "60 s för ett kort, 120 s för bud och val" in a game with neither bids nor cards to
    play was wrong: each game is told the times its turns get."""
    hej = lobby_text(table("hej_knekt"))  # no reaction time chosen: the game's own
    assert "Reaktionstid: 5 s" in hej
    assert "Dragtid" not in hej
    petter = lobby_text(table("svarte_petter"))
    assert "Dragtid: 120 s per drag" in petter
    assert "för ett kort" not in petter
    assert "bud och val" not in lobby_text(table("tvamanswhist"))  # cards only
    assert "Dragtid: 60 s för ett kort, 120 s för bud och val" in lobby_text(table("nittionio"))
    assert "Turn time: 120 s a move" in lobby_text(table("lojliga_familjerna"), "en")


def test_a_lobby_says_the_host_chooses_to_fill_empty_seats_as_starta_asks() -> None:
    # *Starta* asks whether to fill the empty seats: the lobby does not say they are filled
    text = lobby_text(table("braus", players=2))
    assert "värden kan fylla dem med datorspelare vid *Starta*" in text
    assert "tar dem" not in text


def test_a_computer_seat_has_one_clean_label_with_its_marks() -> None:
    live = table("nittionio", status="playing")
    assert live.game is not None
    text = lobby_text(live)
    assert ") (" not in text
    dealer = live.game.view(None).dealer
    if dealer == 2:
        assert "**Dator 1** (giver, normal)" in text
    else:
        assert "**Dator 1** (normal)" in text
    assert lobby_lines(catalog("sv"), table("nittionio"))[2] == "Dator 1 (normal)"


def test_a_timeout_is_said_in_words_and_hides_face_down_cards() -> None:
    live = table("nittionio", status="playing")
    sv, en = catalog("sv"), catalog("en")
    bid = TimedOut(1, "bid 7D KS TC", 4, public=False)
    assert timeout_line(sv, live, bid, None) == "⏰ Tiden gick ut för Bo: datorn lade budkort."
    assert (
        timeout_line(en, live, bid, None) == "⏰ Time ran out for Bo: the computer laid bid cards."
    )
    mine = timeout_line(sv, live, bid, 1)
    assert mine.startswith("⏰ Tiden gick ut för dig: datorn lade budkort 7🔷 K♤ 10☘️")
    played = TimedOut(1, "7H", 5)
    assert "datorn spelade 7♥️" in timeout_line(sv, live, played, None)
    passed = TimedOut(0, "pass", 6)
    assert timeout_line(sv, live, passed, None) == "⏰ Tiden gick ut för Anna: datorn passade."


def test_an_unknown_variant_is_refused_without_the_word_standard() -> None:
    from bot.errors import UserError
    from bot.options import parse_variant

    for game_id in ("svarte_petter", "femkort", "hej_knekt"):
        with pytest.raises(UserError) as refused:
            parse_variant(catalog("sv"), game_id, "turbo")
        assert "standard" not in str(dict(refused.value.msg.args)["variants"])


def test_beside_the_picture_the_message_lists_what_the_picture_had_no_room_for() -> None:
    live = table("svarte_petter", status="playing", players=6)
    assert live.game is not None
    rng = random.Random(3)
    shown = False
    for _ in range(30):  # pairs are laid at a crowded table
        seat = min(live.game.to_act())
        live.game.apply(seat, rng.choice(live.game.legal_actions(seat)))
        layout = table_layout(catalog("sv"), live, None, picture="attachment://table.png")
        text = "\n".join(texts_of(layout_view(layout)))
        pairs = [p for p in live.game.view(None).piles if p.key.endswith(".pairs") and p.cards]
        for pile in pairs:
            if f"({renderer(catalog('sv'), live).seat(pile.seat or 0)})" in text:
                shown = True
    assert shown
    plain = table("tvamanswhist", status="playing")
    layout = table_layout(catalog("sv"), plain, None, picture="attachment://table.png")
    assert "På bordet" not in "\n".join(texts_of(layout_view(layout)))  # all of it in the picture


def test_a_deals_result_says_its_points_with_their_unit() -> None:
    # Femkort's summary said "+1" with no unit
    live = table("femkort", status="playing")
    embed = deal_result_embed(catalog("sv"), live, DealResult(1, (10, 10), (11, 9)))
    rows = (embed.description or "").strip("`\n").splitlines()
    assert rows[1].split()[1:] == ["+1", "p", "11", "p"]
    assert rows[2].split()[1:] == ["-1", "p", "9", "p"]


@pytest.mark.parametrize(
    "names",
    [
        ("Åsa Öberg", "Bo Ek"),
        ("Åsa-Britt Långnamnsdotter-Ek", "Åsa-Britt Långnamnsdotter-Dahl"),
        ("Åsa🎲🎲", "Bo🃏"),  # a phone draws an emoji two columns wide
    ],
)
def test_a_deals_result_fits_a_phones_code_block_with_the_names_told_apart(
    names: tuple[str, str],
) -> None:
    # Bräus's "Spelare  Given  Totalt" with "+1 rita" scrolled sideways on a phone
    live = table("braus", status="playing", players=4)
    seats = (
        *(dataclasses.replace(s, name=n) for s, n in zip(live.record.seats, names, strict=False)),
        *live.record.seats[2:],
    )
    live.record = dataclasses.replace(live.record, seats=seats)
    embed = deal_result_embed(catalog("sv"), live, DealResult(3, (2, 1, 2, 1), (3, 1, 3, 1)))
    (block,) = code_blocks(embed.description or "")
    lines = block.strip("\n").splitlines()
    assert all(columns(line) <= PHONE_CODE_COLUMNS for line in lines), lines
    assert len({columns(line) for line in lines}) == 1  # the totals' column ends in one place
    shown = [line.split("  ")[0].strip() for line in lines[1:]]
    assert len(set(shown)) == 4  # the members' names cut, still told apart
    assert [line.split()[-2:] for line in lines[1:]] == [["3", "ritor"], ["1", "rita"]] * 2


def test_a_name_with_backticks_cannot_end_a_code_block_early() -> None:
    # a member named with three backticks closed the deal's table early, and the rest of the
    # message became code
    block = code_block(["Spelare", "a```b", "````", "c``d"])
    assert block.startswith("```\n")
    assert block.endswith("\n```")
    assert "```" not in block[4:-4]
    assert block[4:-4].replace("\u200b", "") == "Spelare\na```b\n````\nc``d"  # as written
    live = table("braus", status="playing", players=4)
    seats = (dataclasses.replace(live.record.seats[0], name="a```b"), *live.record.seats[1:])
    live.record = dataclasses.replace(live.record, seats=seats)
    embed = deal_result_embed(catalog("sv"), live, DealResult(2, (0, 1, 0, 1), (1, 1, 1, 1)))
    shown = embed.description or ""
    assert shown.count("```") == 2
    assert "a```b" in shown.replace("\u200b", "")


STYLED = "*Åsa* ~~Ek~~ ||x|| [gratis](https://e.example) a_b"
"""A member's name that Discord's markdown would show italic, struck through, hidden as a
spoiler and as a link, were it written as it is."""


def test_a_name_with_markdown_reads_as_written_in_every_part_of_the_table() -> None:
    live = table("braus", status="playing", players=4)
    seats = (dataclasses.replace(live.record.seats[0], name=STYLED), *live.record.seats[1:])
    live.record = dataclasses.replace(live.record, seats=seats, host_id=100)
    game = live.game
    assert game is not None
    rng = random.Random(2)
    while game.view(None).deal < 2:  # a deal's result on the sheet
        game.apply(min(game.to_act()), rng.choice(game.legal_actions(min(game.to_act()))))
    live.game = game.clone()  # a new state: the table works its views out again
    written = discord.utils.escape_markdown(STYLED)
    for picture in (None, "attachment://table.png"):
        view = layout_view(table_layout(catalog("sv"), live, None, picture=picture))
        shown = "\n".join(texts_of(view))
        outside = "".join(shown.split("```")[0::2])  # the markdown, code blocks left out
        assert written in outside  # the host line, the seats, whose turn it is
        assert STYLED not in outside.replace(written, "")
        for block in shown.split("```")[1::2]:  # a code block shows names as they are
            assert "\\" not in block
    # the deal's result: its code block as written, any text around it escaped
    embed = deal_result_embed(catalog("sv"), live, DealResult(1, (0, 1, 0, 1), (1, 1, 1, 1)))
    assert "\\" not in "".join((embed.description or "").split("```")[1::2])
    # the picture draws the name as it is: no backslash among its words
    plan = table_plan(live.view(None), renderer(catalog("sv"), live), None)
    drawn = [op.text for op in plan.ops if isinstance(op, TextOp)]
    assert any("Åsa" in t for t in drawn)
    assert not any("\\" in t for t in drawn)


def test_a_game_that_counts_on_its_sheet_shows_no_table_of_zeros() -> None:
    # Reunion's Protokoll showed a totals table of +0 under its sheet of ögon
    live = table("reunion", status="playing")
    embed = deal_result_embed(catalog("sv"), live, DealResult(1, (0, 0, 0), (0, 0, 0)))
    assert "+0" not in (embed.description or "")


def code_blocks(text: str) -> list[str]:
    return text.split("```")[1::2]


def emoji_in(text: str) -> list[str]:
    """What Discord draws as an emoji (a box in a code block's monospace font): the emoji
    variation selector, the pictographs, and the suits that turn into emoji on some clients."""
    return [c for c in text if c == "\ufe0f" or ord(c) >= 0x1F000 or c in "♠♣♥♦☘🃏"]


def test_reunions_protokoll_shows_no_emoji_in_its_code_block() -> None:
    # a laid-away 10🔷 D♥️ showed as boxes in the sheet's code block
    live = table("reunion", status="playing")
    game = live.game
    assert game is not None
    rng = random.Random(4)
    while game.view(None).deal < 3:
        seat = min(game.to_act())
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    view = game.view(None)
    embed = deal_result_embed(catalog("sv"), live, DealResult(2, (0, 0, 0), (0, 0, 0), (), view))
    (sheet,) = [f.value or "" for f in embed.fields if f.name == "Protokoll"]
    shown = table_layout(catalog("sv"), live, None, picture="table.png")
    blocks = code_blocks(sheet) + code_blocks("\n".join(texts_of(layout_view(shown))))
    assert len(blocks) == 2
    laid_away = [line for block in blocks for line in block.splitlines() if "bortlagt" in line]
    assert laid_away
    assert all(any(s in line for s in "♤♡♢♧") for line in laid_away)
    assert [emoji_in(block) for block in blocks] == [[], []]
    # the columns line up: every row of a block as long as its rule, at most
    for block in blocks:
        rule = max(len(line) for line in block.splitlines() if line.startswith("─"))
        assert all(len(line) <= rule for line in block.splitlines())


def test_hej_knekts_turn_button_is_live_only_while_a_card_may_be_turned() -> None:
    # green and pressable while the reactions to a card still ran, it invited a refused press
    from bot.discord.views.table import table_view

    live = table("hej_knekt", status="playing", players=3)
    assert live.game is not None

    def turn_button() -> dict[str, object]:
        view = table_view(catalog("sv"), live)
        assert view is not None
        return next(
            button
            for row in view.to_components()
            for button in row["components"]
            if str(button.get("custom_id", "")).endswith(":turn")
        )

    assert not turn_button().get("disabled")
    game = live.game
    for _ in range(60):  # turned until a card asks for a reaction
        offered = {game.notation(a) for s in game.to_act() for a in game.legal_actions(s)}
        if "turn" not in offered:
            break
        game.apply(min(game.to_act()), game.parse("turn"))
    assert offered
    assert "turn" not in offered
    assert turn_button().get("disabled")


def test_hej_knekts_panel_says_the_cards_lie_face_down_in_a_pile_not_that_there_are_none() -> None:
    live = table("hej_knekt", status="playing", players=3)
    assert live.game is not None
    held = live.game.view(0).seats[0].cards
    assert held > 0
    for lang, said in (("sv", f"Din hög: {held} kort"), ("en", f"Your pile: {held} cards")):
        text = panel_text(catalog(lang), live, 0)
        assert said in text
        assert catalog(lang).text("ui.panel.no_hand") not in text
    # a game with a hand still says the hand
    petter = table("svarte_petter", status="playing", players=3)
    assert "Hand:" in panel_text(catalog("sv"), petter, 0)


def test_a_help_line_names_its_action_without_the_exclamation() -> None:
    # "Bättre kort!: Föreslå nya kort …" read as a typo
    from bot.discord.views.panel import build_panel

    live = table("femkort", status="playing")
    assert live.game is not None
    seat = min(live.game.to_act())
    assert "better" in {live.game.notation(a) for a in live.game.legal_actions(seat)}
    text, _ = build_panel(catalog("sv"), live, seat)
    assert "Bättre kort: Föreslå nya kort" in text
    assert "!:" not in text


def test_a_card_drawn_unseen_is_told_once_on_the_panel() -> None:
    # Tvåmanswhist's panel read "Du drog 2♦ osett · Du drog 2♦": the note and the private event
    live = table("tvamanswhist", status="playing")
    game = live.game
    assert game is not None
    while not game.view(0).notes and not game.view(1).notes:
        seat = min(game.to_act())
        game.apply(seat, game.legal_actions(seat)[0])
    loser = 0 if game.view(0).notes else 1
    for lang in ("sv", "en"):
        text = panel_text(catalog(lang), live, loser)
        notes = text.split(f"*{catalog(lang).text('ui.panel.notes')}:* ")[1]
        assert notes.split(" · ") == [renderer(catalog(lang), live).msg(game.view(loser).notes[0])]


def test_hej_knekts_turn_and_reactions_come_first_so_a_phone_shows_them_without_scrolling() -> None:
    # under Min hand and the table's own buttons they were below a phone's fold, in a game of speed
    from bot.discord.views.table import REACTIONS, table_view

    live = table("hej_knekt", status="playing", players=3)
    view = table_view(catalog("sv"), live)
    assert view is not None
    ids = [
        str(button.get("custom_id", "")).rsplit(":", 1)[-1]
        for row in view.to_components()
        for button in row["components"]
    ]
    playing = ["turn", *REACTIONS["hej_knekt"]]
    assert ids[: len(playing)] == playing
    assert ids.index("hand") > len(playing) - 1
    # another game keeps Min hand first
    other = table_view(catalog("sv"), table("nittionio", status="playing"))
    assert other is not None
    assert str(other.to_components()[0]["components"][0]["custom_id"]).endswith(":hand")


def test_a_note_every_seat_sees_is_not_said_to_be_only_for_you() -> None:
    # Hej knekt's panel read "Bara för dig: Reaktionstid: 5000 ms", a time the same for everyone
    live = table("hej_knekt", status="playing", players=3)
    for lang in ("sv", "en"):
        texts = catalog(lang)
        time = renderer(texts, live).msg(Msg.of("hej_knekt.note.reaction_ms", ms=5000))
        text = panel_text(texts, live, 0)
        assert time in text.splitlines()
        assert f"*{texts.text('ui.panel.notes')}:*" not in text
