"""Every message and panel the bot builds fits Discord's limits, for random states of every
registered game: 5 rows of components, 25 options a select, 100-character custom ids, 80-character
labels, 2,000 characters of content, and the embed limits. Long member names on purpose."""

from __future__ import annotations

import random
from collections.abc import Iterator

import discord
import pytest

from bot.discord.embeds import DealResult, deal_result_embed, dm_text, table_layout
from bot.discord.messages import MAX_COMPONENTS, MAX_TEXT, Layout, count_components, layout_view
from bot.discord.views.layout import Steps, layout
from bot.discord.views.panel import build_panel, hand_image_name
from bot.discord.views.table import table_view
from bot.i18n import catalog
from bot.offers import panel_choices
from bot.sessions import LiveTable
from bot.storage import SeatRecord, TableRecord
from games.core import Game
from games.registry import SPECS

LONG_NAME = "Åsa-Britt Långnamnsdotter-Ek"[:32]
SAMPLE_RATE = 0.25


def live_table(
    game_id: str, game: Game, table_id: int = 123456789, *, members_only: bool = False
) -> LiveTable:
    """A live table of ``game``: members with the longest names in the even seats and computer
    players in the odd ones, or members in every seat (``members_only``)."""
    seats = tuple(
        SeatRecord(s, 10**17 + s, f"{LONG_NAME}{s}")
        if members_only or s % 2 == 0
        else SeatRecord(s, None, "")
        for s in range(game.players)
    )
    record = TableRecord(
        table_id=table_id,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=3,
        host_id=10**17,
        game_id=game_id,
        options=(),
        variant="standard",
        seed=1,
        status="playing",
        turn_seconds=60,
        language="sv",
        version=987654,
        created_at=0.0,
        updated_at=0.0,
        deadline_at=None,
        seats=seats,
    )
    return LiveTable(record, game, seq=0)


def states(game_id: str, seed: int) -> Iterator[Game]:
    """Random states along random playouts, at both ends of the seat range."""
    spec = SPECS[game_id]
    rng = random.Random(seed)
    for players in sorted({spec.min_players, spec.max_players}):
        game = spec.new(players, rng=random.Random(seed))
        steps = 0
        while not game.is_over() and steps < 3000:
            if rng.random() < SAMPLE_RATE:
                yield game
            seat = sorted(game.to_act())[0]
            legal = game.legal_actions(seat)
            game.apply(seat, legal[rng.randrange(len(legal))])
            steps += 1
        yield game


def check_embed(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for f in embed.fields:
        assert len(f.name or "") <= 256
        assert 0 < len(f.value or "") <= 1024
    assert len(embed.footer.text or "") <= 2048
    assert len(embed) <= 6000


def check_view(view: discord.ui.View) -> None:
    rows: dict[int, int] = {}
    for item in view.children:
        assert item.row is None or item.row < 5
        if isinstance(item, discord.ui.Button):
            assert len(item.custom_id or "") <= 100
            assert len(item.label or "") <= 80
        elif isinstance(item, discord.ui.Select):
            assert len(item.custom_id) <= 100
            assert 1 <= len(item.options) <= 25
            assert item.min_values <= len(item.options)
            assert len(item.placeholder or "") <= 150
            for option in item.options:
                assert len(option.label) <= 100
                assert len(option.value) <= 100
        rows[item.row or 0] = rows.get(item.row or 0, 0) + 1
    assert len(view.to_components()) <= 5


def check_layout(view: discord.ui.LayoutView) -> None:
    """A layout message as Discord takes it: one container, at most 40 components in all, at
    most 4,000 characters of text, rows of at most five buttons or one select."""
    assert len(view.children) == 1
    assert count_components(view) <= MAX_COMPONENTS
    assert view.content_length() <= MAX_TEXT
    for item in view.walk_children():
        if isinstance(item, discord.ui.ActionRow):
            assert sum(child.width for child in item.children) <= 5
        elif isinstance(item, discord.ui.Button):
            assert len(item.custom_id or "") <= 100
            assert len(item.label or "") <= 80


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_message_and_panel_fits_discord(game_id: str) -> None:
    checked = 0
    for lang in ("sv", "en"):
        texts = catalog(lang)
        for game in states(game_id, seed=7):
            checked += 1
            table = live_table(game_id, game)
            for picture in (None, "table.png"):  # the server's pictures on and off
                controls = table_view(texts, table)
                shown = table_layout(
                    texts, table, 1_800_000_000.0, picture=picture, controls=controls
                )
                check_layout(layout_view(shown))
            public = game.view(None)
            scores = tuple(s.score for s in public.seats)
            over = DealResult(public.deal, (0,) * game.players, scores, public.events, public)
            check_embed(deal_result_embed(texts, table, over))
            view = table_view(texts, table)
            assert view is not None
            check_view(view)
            for seat in range(game.players):
                dm = dm_text(texts, table, seat, "Servern med ett långt namn")
                check_layout(layout_view(Layout(head=[dm])))
                pages = layout(panel_choices(table, seat))
                for page in range(len(pages)):
                    content, panel = build_panel(texts, table, seat, page=page)
                    assert len(content) <= 2000
                    check_view(panel)
                    check_layout(
                        layout_view(Layout([content], hand_image_name(()), controls=panel))
                    )
                steps = [row for rows in pages for row in rows if isinstance(row, Steps)]
                for row in steps:
                    for first in row.firsts:
                        step = f"{row.verb} {first}"
                        content, panel = build_panel(texts, table, seat, step=step)
                        assert len(content) <= 2000
                        check_view(panel)
                        check_layout(
                            layout_view(Layout([content], hand_image_name(()), controls=panel))
                        )
    assert checked >= 20
