"""Löjliga familjerna asks in two clicks: whom, then which family, named by the family alone."""

from __future__ import annotations

import dataclasses
import random

from discord.utils import escape_markdown

from bot.discord.views.layout import Steps, layout
from bot.discord.views.panel import build_panel
from bot.i18n import catalog
from bot.offers import panel_choices
from bot.sessions import LiveTable
from bot.storage import SeatRecord, TableRecord
from games.registry import SPECS


def families_table() -> LiveTable:
    spec = SPECS["lojliga_familjerna"]
    game = spec.new(4, rng=random.Random(5))
    seats = tuple(
        SeatRecord(s, 100 + s, name) for s, name in enumerate(("Anna", "Bo", "Cilla", "Dag"))
    )
    record = TableRecord(
        table_id=9, guild_id=1, channel_id=2, thread_id=None, message_id=3, host_id=100,
        game_id="lojliga_familjerna", options=(), variant="standard", seed=1, status="playing",
        turn_seconds=60, language="sv", version=1, created_at=0.0, updated_at=0.0,
        deadline_at=None, seats=seats,
    )  # fmt: skip
    return LiveTable(record, game)


def test_the_second_click_names_the_family_only() -> None:
    table = families_table()
    assert table.game is not None
    seat = min(table.game.to_act())
    notations = panel_choices(table, seat)
    steps = [row for rows in layout(notations) for row in rows if isinstance(row, Steps)]
    assert steps  # first click: whom
    first = steps[0].firsts[0]
    _, view = build_panel(catalog("sv"), table, seat, step=f"ask {first}")
    labels = [
        str(button["label"])
        for row in view.to_components()
        for button in row["components"]
        if str(button.get("custom_id", "")).startswith("kb:a:")
    ]
    assert labels
    assert not any("Fråga" in label for label in labels)
    ranks = {catalog("sv").text(f"table.rank.{r}").lower() for r in "23456789TJQKA"}
    assert all(label.lower() in ranks for label in labels)


def test_the_second_click_names_whom_you_are_asking() -> None:
    # the page of families said nothing of whom the member had chosen to ask
    table = families_table()
    assert table.game is not None
    seat = min(table.game.to_act())
    names = {s.seat: s.name for s in table.record.seats}
    first_page, _ = build_panel(catalog("sv"), table, seat)
    steps = [row for rows in layout(panel_choices(table, seat)) for row in rows]
    (whom,) = [row for row in steps if isinstance(row, Steps)]
    assert len(whom.firsts) == 3
    for lang, asking in (("sv", "Du frågar {} efter"), ("en", "You are asking {} for")):
        for first in whom.firsts:
            target = names[int(first)]
            content, _ = build_panel(catalog(lang), table, seat, step=f"ask {first}")
            assert asking.format(target) in content
            others = [names[int(f)] for f in whom.firsts if f != first]
            assert not any(asking.format(name) in content for name in others)
    assert "Du frågar" not in first_page


def test_a_name_is_written_as_it_is_on_a_button_and_escaped_in_the_text() -> None:
    # a name with markdown in it: a control's label shows no markup, the panel's text does
    table = families_table()
    assert table.game is not None
    seat = min(table.game.to_act())
    styled = "*Bo* ||x|| a_b"
    seats = tuple(
        s if s.seat == seat else SeatRecord(s.seat, s.user_id, f"{styled} {s.seat}")
        for s in table.record.seats
    )
    table.record = dataclasses.replace(table.record, seats=seats)
    _, view = build_panel(catalog("sv"), table, seat)
    labels = [
        str(option["label"])
        for row in view.to_components()
        for item in row["components"]
        for option in [item, *item.get("options", [])]
        if "label" in option
    ]
    assert any(label.startswith(styled) for label in labels)  # whom to ask, as written
    (whom,) = [
        row for rows in layout(panel_choices(table, seat)) for row in rows if isinstance(row, Steps)
    ]
    first = whom.firsts[0]
    content, _ = build_panel(catalog("sv"), table, seat, step=f"ask {first}")
    assert f"Du frågar {escape_markdown(f'{styled} {first}')} efter" in content
