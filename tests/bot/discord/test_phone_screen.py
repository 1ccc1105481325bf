"""The table message on a phone (360×740): the picture first, the fingerprint in the small foot
line, the lobby's controls in three rows and every row of controls within a phone's width."""

from __future__ import annotations

import discord
import pytest
from test_table_message import table

from bot.discord.messages import PHONE_ROW_PX, row_px
from bot.discord.views.table import table_message
from bot.i18n import catalog
from bot.verify import fingerprint

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
    assert texts[0].count("\n") <= 8  # turn, deal, sides, three events; a score sheet follows
    first = rows(message)[0]
    assert label(first.children[0]) == catalog(lang).text("ui.button.hand")
    for row in rows(message)[:2]:  # the table's own; Hej knekt's presses follow
        assert row_px(list(row.children)) <= PHONE_ROW_PX
