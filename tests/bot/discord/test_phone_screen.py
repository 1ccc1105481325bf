"""The table message on a phone (360×740): the picture first, the fingerprint in the small foot
line, the lobby's controls in three rows and every row of controls within a phone's width."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import discord
import pytest
from test_limits import live_table
from test_table_message import table

from bot.discord.embeds import PICTURED_EVENT_LINES, PICTURED_EVENTS_SHOWN, renderer, sheet_block
from bot.discord.messages import PHONE_CODE_COLUMNS, PHONE_ROW_PX, row_px, rows_of, text_lines
from bot.discord.views.layout import Steps
from bot.discord.views.panel import PanelAction, build_panel, panel_rows
from bot.discord.views.table import table_message
from bot.i18n import catalog
from bot.offers import panel_choices
from bot.render.text import columns
from bot.sessions import LiveTable
from bot.verify import fingerprint
from games.registry import SPECS

GAMES = ("nittionio", "braus", "lojliga_familjerna", "hej_knekt", "svarte_petter")


def parts(message: discord.ui.LayoutView) -> list[discord.ui.Item[discord.ui.LayoutView]]:
    (container,) = message.children
    assert isinstance(container, discord.ui.Container)
    return list(container.children)


def label(item: object) -> str:
    inner = item.item if isinstance(item, discord.ui.DynamicItem) else item
    return str(getattr(inner, "label", "") or "")


def rows(message: discord.ui.LayoutView) -> list[discord.ui.ActionRow[discord.ui.LayoutView]]:
    return [p for p in parts(message) if isinstance(p, discord.ui.ActionRow)]


@pytest.mark.parametrize("lang", ["sv", "en"])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_lobby_is_three_rows_of_controls_each_within_a_phones_width(
    game_id: str, lang: str
) -> None:
    message = table_message(catalog(lang), table(game_id))
    lobby = rows(message)
    assert len(lobby) <= 3
    for row in lobby:
        assert row_px(list(row.children)) <= PHONE_ROW_PX, [label(i) for i in row.children]
    # one control adds a computer player: the level menu, its label whole at a phone's width
    labels = [label(i) for row in lobby for i in row.children]
    computer = catalog(lang).text("ui.button.computer")
    assert computer not in labels
    menus = [i.item for row in lobby for i in row.children if isinstance(i, discord.ui.DynamicItem)]
    (menu,) = [m for m in menus if isinstance(m, discord.ui.Select)]
    assert menu.placeholder == computer


@pytest.mark.parametrize("lang", ["sv", "en"])
@pytest.mark.parametrize("game_id", GAMES)
def test_in_play_the_picture_comes_first_and_the_fingerprint_last_in_the_foot(
    game_id: str, lang: str
) -> None:
    live = table(game_id, status="playing")
    message = table_message(catalog(lang), live, picture="table.png")
    shown = parts(message)
    assert isinstance(shown[0], discord.ui.MediaGallery)  # nothing above the picture
    texts = [p.content for p in shown if isinstance(p, discord.ui.TextDisplay)]
    stamp = catalog(lang).text(
        "verify.fingerprint", fingerprint=fingerprint(live.record.seed, live.table_id, 1)
    )
    assert isinstance(shown[-1], discord.ui.TextDisplay)
    assert shown[-1].content.startswith("-# ")  # the small foot line, below the controls
    assert shown[-1].content.endswith(stamp)
    assert all(stamp not in text for text in texts[:-1])
    # a few lines between the picture and the controls, *Min hand* in the first row of them
    # (Hej knekt, played on the table message, has its turn and presses first)
    assert texts[0].count("\n") <= 8  # turn, deal, sides, three events; a score sheet follows
    first = rows(message)[0]
    lead = "ui.button.turn" if game_id == "hej_knekt" else "ui.button.hand"
    assert label(first.children[0]) == catalog(lang).text(lead)
    for row in rows(message):
        assert row_px(list(row.children)) <= PHONE_ROW_PX


@pytest.mark.parametrize("game_id", ["piquet", "tvamansbridge", "braus", "bondtolva", "reunion"])
def test_a_score_sheet_comes_below_the_controls_so_min_hand_stays_on_the_first_screen(
    game_id: str,
) -> None:
    # a Protokoll as tall as a phone pushed *Min hand* below the fold in Piquet and Tvåmansbridge
    texts = catalog("sv")
    for live, _ in panel_states(game_id, steps=120):
        view = live.view(None)
        if view.sheet is None or not view.sheet.rows:
            continue
        shown = parts(table_message(texts, live, picture="table.png"))
        first_row = next(i for i, p in enumerate(shown) if isinstance(p, discord.ui.ActionRow))
        (sheet,) = [
            i
            for i, p in enumerate(shown)
            if isinstance(p, discord.ui.TextDisplay) and "**Protokoll**" in p.content
        ]
        assert first_row < sheet
        assert label(rows(table_message(texts, live))[0].children[0]) == texts.text(
            "ui.button.hand"
        )
        return
    pytest.fail(f"no state of {game_id} with a score sheet")


MEMBERS = ["Åsa Öberg", "Cilla 🎲 Dahl", "Eva Lind"]
"""Members in the even seats, computer players (Dator 2, Dator 4...) in the odd ones."""


@pytest.mark.parametrize(
    "game_id", ["braus", "piquet", "reunion", "femhundra", "tvamansbridge", "bondtolva"]
)
def test_a_score_sheet_reads_on_a_phone_without_scrolling_sideways(game_id: str) -> None:
    """Every line of the sheet's code block fits a phone's width, every row keeps its numbers
    under its columns, and a sheet too wide for the phone as the game writes it is narrowed."""
    texts = catalog("sv")
    narrowed = 0
    for live, _ in panel_states(game_id, steps=400):
        view = live.view(None)
        if view.sheet is None or not view.sheet.rows:
            continue
        seats = tuple(
            dataclasses.replace(s, name=MEMBERS[s.seat // 2]) if s.user_id is not None else s
            for s in live.record.seats
        )
        live.record = dataclasses.replace(live.record, seats=seats)
        text = renderer(texts, live)
        block = sheet_block(text, view).splitlines()
        assert all(columns(line) <= PHONE_CODE_COLUMNS for line in block[1:-1]), block
        head, rows = text.in_code_block().sheet_rows(view.sheet, PHONE_CODE_COLUMNS)
        narrowed += head != text.in_code_block().sheet_rows(view.sheet)[0]
        drawn = [row for row in rows if set(row[0]) != {"─"}]
        for lines, row in zip(drawn, view.sheet.rows, strict=True):
            values = [str(v) for v in row.cells if v is not None]
            assert lines[-1].split()[len(lines[-1].split()) - len(values) :] == values
    if game_id in ("braus", "piquet", "reunion", "femhundra"):
        assert narrowed, f"no sheet of {game_id} was too wide for a phone"


def panel_states(game_id: str, steps: int = 300) -> Iterator[tuple[LiveTable, int]]:
    """Random states of a match, at both ends of the seat range, with a seat that acts."""
    spec = SPECS[game_id]
    rng = random.Random(7)
    for players in sorted({spec.min_players, spec.max_players}):
        game = spec.new(players, rng=random.Random(players))
        for n in range(steps):
            if game.is_over():
                break
            seat = sorted(game.to_act())[0]
            if n % 4 == 0:
                yield live_table(game_id, game), seat
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])


def control_rows(view: discord.ui.View) -> list[list[discord.ui.Item[discord.ui.View]]]:
    return [list(row) for row in rows_of(view)]


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_row_of_a_panel_fits_a_phones_row(game_id: str) -> None:
    # Svarte Petter's seven "Dra ett kort 1…7" were two rows of 592 and 373 px
    texts = catalog("sv")
    checked = 0
    for live, seat in panel_states(game_id):
        pages = panel_rows(texts, live, seat)
        steps = {f"{r.verb} {f}" for rows in pages for r in rows if isinstance(r, Steps)
                 for f in r.firsts[:1]}  # fmt: skip
        shown = [build_panel(texts, live, seat, page=p) for p in range(len(pages))]
        shown += [build_panel(texts, live, seat, step=step) for step in sorted(steps)]
        for _, view in shown:
            rows = control_rows(view)
            assert len(rows) <= 5
            for row in rows:
                assert len(row) <= 5
                assert row_px(row) <= PHONE_ROW_PX, [label(i) for i in row]
                # no action cut to fit, though every other seat has a name of 32 characters
                actions = [label(i) for i in row if isinstance(i, PanelAction)]
                assert not any(text.endswith("…") for text in actions), actions
            checked += 1
    assert checked


def test_svarte_petters_draws_are_two_rows_of_places() -> None:
    texts = catalog("sv")
    seen = set()
    for live, seat in panel_states("svarte_petter", 600):
        draws = [n for n in panel_choices(live, seat) if n.startswith("draw ")]
        if not 6 <= len(draws) <= 10:
            continue
        _, view = build_panel(texts, live, seat)
        rows = control_rows(view)
        places = [[label(i) for i in row if i.notation.startswith("draw ")] for row in rows]  # type: ignore[attr-defined]
        places = [p for p in places if p]
        assert len(places) == 2
        assert [p for row in places for p in row] == [str(n) for n in range(1, len(draws) + 1)]
        seen.add(len(draws))
    assert seen


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_snipp_snapp_snorum_offers_its_leads_one_way(lang: str) -> None:
    # twos to nines were in a menu and tens to aces buttons beside it
    texts = catalog(lang)
    menus = 0
    for live, seat in panel_states("snipp_snapp_snorum", 600):
        leads = {n for n in panel_choices(live, seat) if n.startswith("lead ")}
        if not leads:
            continue
        _, view = build_panel(texts, live, seat)
        items = [getattr(i, "item", i) for i in view.children]
        buttons = {i.custom_id.split(":", 4)[-1].replace("_", " ") for i in items
                   if isinstance(i, discord.ui.Button) and i.custom_id}  # fmt: skip
        selects = [i for i in items if isinstance(i, discord.ui.Select)]
        in_menus = {o.value for s in selects for o in s.options}
        if in_menus & leads:
            assert len(selects) == 1
            assert in_menus == leads
            assert not buttons & leads
            menus += 1
        else:
            assert leads <= buttons  # every lead a button
    assert menus


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_hej_knekts_reactions_fit_two_rows_of_a_phone(lang: str) -> None:
    # the five reactions were one row of about 618 px, three rows on a phone
    live = table("hej_knekt", status="playing", players=3)
    message = table_message(catalog(lang), live, picture="table.png")
    shown = rows(message)
    assert len(shown) <= 5
    presses = [
        row
        for row in shown
        if any(str(getattr(i.item, "custom_id", "")).startswith("kb:r:") for i in row.children)  # type: ignore[attr-defined]
    ]
    assert 1 <= len(presses) <= 2
    assert sum(len(row.children) for row in presses) == 5  # every reaction, in the table's order
    verbs = [i.item.custom_id.rsplit(":", 1)[-1] for row in presses for i in row.children]  # type: ignore[attr-defined]
    assert verbs == ["whistle", "hej", "goddag", "salute", "slap"]
    for row in shown:
        assert row_px(list(row.children)) <= PHONE_ROW_PX, [label(i) for i in row.children]


def test_an_ask_too_wide_for_a_row_is_made_in_two_steps_not_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # "Fråga Åsa-Britt Långnamnsdotter-Ek2 efter treor" (343 px) was one button wider than a row
    game = SPECS["lojliga_familjerna"].new(3, rng=random.Random(1))
    live = live_table("lojliga_familjerna", game)
    monkeypatch.setattr("bot.discord.views.panel.panel_choices", lambda *_: ["ask 2 3", "ask 2 K"])
    texts = catalog("sv")
    _, first = build_panel(texts, live, 1)
    labels = [label(i) for row in control_rows(first) for i in row]
    assert labels == ["Åsa-Britt Långnamnsdotter-Ek2"]  # whom, then which family
    content, second = build_panel(texts, live, 1, step="ask 2")
    assert [label(i) for row in control_rows(second) for i in row] == [
        "Treor",
        "Kungar",
        "Tillbaka",
    ]
    assert "Du frågar Åsa-Britt Långnamnsdotter-Ek2 efter …" in content


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_below_the_picture_the_events_fill_at_most_six_lines_of_a_phone(game_id: str) -> None:
    # Löjliga familjerna's three asks took nine lines and pushed *Min hand* below the fold
    texts = catalog("sv")
    heading = f"**{texts.text('ui.table.events')}**"
    checked = 0
    for live, _ in panel_states(game_id, steps=120):
        events = live.view(None).events
        if not events:
            continue
        shown = parts(table_message(texts, live, picture="table.png"))
        body = next(p.content for p in shown if isinstance(p, discord.ui.TextDisplay))
        listed = body.split(heading + "\n")[1].split("\n**")[0].splitlines()
        latest = [renderer(texts, live).msg(m) for m in events[-PICTURED_EVENTS_SHOWN:]]
        assert listed == latest[-len(listed) :]  # the latest, in order
        assert len(listed) == 1 or sum(text_lines(e) for e in listed) <= PICTURED_EVENT_LINES
        if len(listed) < len(latest):  # one more would not have fitted
            more = latest[-len(listed) - 1 :]
            assert sum(text_lines(e) for e in more) > PICTURED_EVENT_LINES
        checked += 1
    assert checked
