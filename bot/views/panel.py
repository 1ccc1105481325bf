"""The hand panel: a seat's ephemeral message with its hand and its legal actions as controls.

Rebuilt from the server's state on every click. Every control carries the table id and version it
was built for (``kb:a:<table>:<version>:<notation>``, ``kb:s:...``, ``kb:pg:...``); the session
manager refuses a click whose version is no longer current, so a stale panel can never act.
The controls are ``DynamicItem``s, so a panel keeps working across a restart of the bot.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.i18n import Catalog
from bot.render.embeds import panel_text, renderer
from bot.render.images import hand_png
from bot.render.text import sort_hand
from bot.replies import answer_errors, catalog_of, kortbord, send_private
from bot.sessions import LiveTable, member_actions, require_seat
from bot.views.layout import Buttons, Row, Select, Steps, layout, step_page
from games.cards import parse_card
from games.core import Seat

if TYPE_CHECKING:
    from bot.client import Kortbord

MAX_LABEL = 80


def panel_notations(table: LiveTable, seat: Seat) -> list[str]:
    """The actions a member chooses on the panel: exactly what the session manager takes from a
    member (``member_actions``). A real-time game's timed presses are made with the reaction
    buttons on the table message, which read the press time; ``close`` is the window timer's.
    """
    game = table.game
    if game is None:
        return []
    out = list(member_actions(game, seat).values())
    return sorted(out, key=_hand_order(game.view(seat).hand))


def _hand_order(hand: Sequence[int]) -> Callable[[str], int]:
    """A sort key putting single-card plays in the order the hand picture shows them, after the
    other actions (kept in the game's order: the sort is stable)."""
    position = {c: i for i, c in enumerate(sort_hand(hand))}

    def key(notation: str) -> int:
        try:
            return 1 + position.get(parse_card(notation), len(position))
        except ValueError:
            return 0

    return key


HAND_IMAGE = "hand.png"


async def hand_picture(
    bot: Kortbord, table: LiveTable, seat: Seat, user_id: int
) -> list[discord.File]:
    """The picture of the seat's hand for its panel, in the order of the panel's card buttons,
    the cards it may play now raised; drawn in a worker thread. Empty when it holds no cards,
    or when the server or the member turned pictures off."""
    if table.game is None or not await bot.pictures(table.record.guild_id, user_id):
        return []
    hand = sort_hand(table.game.view(seat).hand)
    if not hand:
        return []
    playable = []
    for notation in panel_notations(table, seat):
        try:
            playable.append(parse_card(notation))
        except ValueError:
            continue
    data = await asyncio.to_thread(hand_png, hand, playable)
    return [discord.File(io.BytesIO(data), HAND_IMAGE)]


def _label(text: str) -> str:
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def encode(notation: str) -> str:
    return notation.replace(" ", "_")


def decode(text: str) -> str:
    return text.replace("_", " ")


class PanelAction(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kb:a:(?P<table>\d+):(?P<version>\d+):(?P<notation>[A-Za-z0-9_]+)",
):
    """One legal action as a button."""

    def __init__(self, table_id: int, version: int, notation: str, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=_label(label),
                style=discord.ButtonStyle.secondary,
                custom_id=f"kb:a:{table_id}:{version}:{encode(notation)}",
            )
        )
        self.table_id, self.version, self.notation = table_id, version, notation

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PanelAction:
        notation = decode(match["notation"])
        return cls(int(match["table"]), int(match["version"]), notation, notation)

    async def callback(self, interaction: discord.Interaction) -> None:
        await act_from_panel(interaction, self.table_id, self.version, self.notation)


class PanelSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=(
        r"kb:s:(?P<table>\d+):(?P<version>\d+):(?P<verb>[a-z_-]+):(?P<pick>\d+)"
        r"(?:-(?P<most>\d+))?:(?P<part>\d+)"
    ),
):
    """A select menu of actions (``pick`` 1) or of the cards of one multi-card action (``pick``
    cards, or any count from ``pick`` to ``most``)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        verb: str,
        pick: int,
        part: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
        most: int = 0,
    ) -> None:
        most = max(most, pick)
        counts = f"{pick}-{most}" if most > pick else str(pick)
        super().__init__(
            discord.ui.Select(
                custom_id=f"kb:s:{table_id}:{version}:{verb or '-'}:{counts}:{part}",
                options=list(options),
                min_values=pick,
                max_values=min(most, max(len(options), 1)),
                placeholder=placeholder,
            )
        )
        self.table_id, self.version, self.verb, self.pick = table_id, version, verb, pick
        self.most = most

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PanelSelect:
        verb = "" if match["verb"] == "-" else match["verb"]
        pick = int(match["pick"])
        most = int(match["most"]) if match["most"] else pick
        return cls(
            int(match["table"]), int(match["version"]), verb, pick, int(match["part"]), most=most
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        notation = None
        async with answer_errors(interaction, texts):
            notation = self.notation(list(self.item.values))
        if notation is not None:
            await act_from_panel(interaction, self.table_id, self.version, notation)

    def notation(self, values: list[str]) -> str | None:
        """The action the chosen values make; ``UserError`` for values the menu cannot have
        sent (the session manager then refuses anything the panel did not offer)."""
        if self.most > 1:
            if not self.pick <= len(values) <= self.most or len(set(values)) != len(values):
                raise UserError("not_offered")
            try:
                cards = sorted(values, key=parse_card)
            except ValueError:
                raise UserError("not_offered") from None
            return " ".join([self.verb, *cards] if self.verb else cards)
        if len(values) != 1:
            raise UserError("not_offered")
        return values[0]


class PanelPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kb:pg:(?P<table>\d+):(?P<version>\d+):(?P<page>\d+)",
):
    """Turns the panel to another page of controls (when they need more than five rows)."""

    def __init__(self, table_id: int, version: int, page: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page + 1),
                style=discord.ButtonStyle.primary,
                custom_id=f"kb:pg:{table_id}:{version}:{page}",
            )
        )
        self.table_id, self.version, self.page = table_id, version, page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PanelPage:
        return cls(int(match["table"]), int(match["version"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            table, seat = seated_table(interaction, self.table_id)
            content, view = build_panel(texts, table, seat, page=self.page)
            await respond_with_panel(interaction, table, seat, content, view, self.page)


class PanelStep(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kb:st:(?P<table>\d+):(?P<version>\d+):(?P<verb>[a-z_]+):(?P<first>[A-Za-z0-9]*)",
):
    """The first part of a two-part choice (``bid`` ``7``): opens the page of the choices that
    start with it. An empty first part goes back to the panel's first page."""

    def __init__(self, table_id: int, version: int, verb: str, first: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=_label(label or first or "<"),
                style=discord.ButtonStyle.primary if first else discord.ButtonStyle.secondary,
                custom_id=f"kb:st:{table_id}:{version}:{verb}:{first}",
            )
        )
        self.table_id, self.version, self.verb, self.first = table_id, version, verb, first

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PanelStep:
        return cls(int(match["table"]), int(match["version"]), match["verb"], match["first"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await show_step(interaction, self.table_id, self.verb, self.first)


class PanelStepSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"kb:sts:(?P<table>\d+):(?P<version>\d+):(?P<verb>[a-z_]+):(?P<part>\d+)",
):
    """The first parts of a two-part choice as a select, when there are more than five."""

    def __init__(
        self,
        table_id: int,
        version: int,
        verb: str,
        part: int,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"kb:sts:{table_id}:{version}:{verb}:{part}",
                options=list(options),
                placeholder=placeholder,
            )
        )
        self.table_id, self.verb = table_id, verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> PanelStepSelect:
        return cls(int(match["table"]), int(match["version"]), match["verb"], int(match["part"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        if len(values) != 1:
            async with answer_errors(interaction):
                raise UserError("not_offered")
            return
        await show_step(interaction, self.table_id, self.verb, values[0])


async def show_step(interaction: discord.Interaction, table_id: int, verb: str, first: str) -> None:
    """Show the page of a two-part choice's first part (or the first page, for ``first=""``)."""
    texts = catalog_of(interaction)
    async with answer_errors(interaction, texts):
        table, seat = seated_table(interaction, table_id)
        step = f"{verb} {first}" if first else None
        content, view = build_panel(texts, table, seat, step=step)
        await respond_with_panel(interaction, table, seat, content, view)


def seated_table(interaction: discord.Interaction, table_id: int) -> tuple[LiveTable, Seat]:
    """The live table and the clicking member's seat at it; refused to anyone not seated."""
    table = kortbord(interaction).sessions.table_by_id(table_id)
    if table is None:
        raise UserError("table_gone")
    return table, require_seat(table, interaction.user.id)


async def act_from_panel(
    interaction: discord.Interaction, table_id: int, version: int, notation: str
) -> None:
    """Apply a panel's action, then show the panel rebuilt for the new state."""
    texts = catalog_of(interaction)
    async with answer_errors(interaction, texts):
        sessions = kortbord(interaction).sessions
        table = await sessions.act(table_id, interaction.user.id, version, notation)
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.game is None:
            await send_private(interaction, texts.text("ui.reply.left"))
            return
        content, view = build_panel(texts, table, seat, done=notation)
        await respond_with_panel(interaction, table, seat, content, view)


def on_own_panel(interaction: discord.Interaction) -> bool:
    """Whether the control was clicked on an ephemeral message: one only the clicker sees, so
    their own panel. A control from anywhere else (the public table message, a forged click)
    must never have that message edited into a hand."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


async def respond_with_panel(
    interaction: discord.Interaction,
    table: LiveTable,
    seat: Seat,
    content: str,
    view: discord.ui.View,
    page: int = 0,
) -> None:
    """Show the panel: in place on the clicker's own ephemeral panel, else as a new ephemeral
    message. Either way the listener keeps only that ephemeral panel current."""
    bot = kortbord(interaction)
    bot.listener.panel_shown(table, interaction, page)
    files = await hand_picture(bot, table, seat, interaction.user.id)
    if on_own_panel(interaction):
        await interaction.response.edit_message(content=content, view=view, attachments=files)
    else:
        await interaction.response.send_message(content, view=view, files=files, ephemeral=True)


def controls() -> discord.ui.View:
    """A container for DynamicItems that discord.py will not keep listening on.

    Every control here is a registered DynamicItem, dispatched by its custom id alone; a stopped
    view is sent as components but never stored, so panels do not pile up in memory.
    """
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


def build_panel(
    texts: Catalog,
    table: LiveTable,
    seat: Seat,
    *,
    page: int = 0,
    done: str | None = None,
    step: str | None = None,
) -> tuple[str, discord.ui.View]:
    """The panel's text and controls for ``seat`` at the table's current version; ``step``
    (``"bid 7"``) shows the choices of one first part of a two-part choice, with a way back."""
    from bot.views.table import TableButton

    content = panel_text(texts, table, seat, done=done)
    view = controls()
    if table.record.seats[seat].autoplay:
        view.add_item(TableButton(table.table_id, "reclaim", texts.text("ui.button.reclaim")))
        return content, view
    if table.spec.realtime and table.reveal_at is not None:
        content += "\n" + texts.text("ui.panel.reaction_hint")
    notations = panel_notations(table, seat)
    if step is not None and (rows := step_page(notations, step)):
        for row_number, row in enumerate(rows):
            for item in _row_items(texts, table, row):
                item.item.row = row_number
                view.add_item(item)
        back = PanelStep(table.table_id, table.version, step.split()[0], "")
        back.item.label = _label(texts.text("ui.button.back"))
        back.item.row = min(len(rows), 4)
        view.add_item(back)
        return content, view
    pages = layout(notations)
    page = min(page, len(pages) - 1)
    for row_number, row in enumerate(pages[page]):
        for item in _row_items(texts, table, row):
            item.item.row = row_number
            view.add_item(item)
    if len(pages) > 1:
        for number in range(len(pages)):
            button = PanelPage(
                table.table_id, table.version, number, texts.text("ui.button.page", page=number + 1)
            )
            button.item.disabled = number == page
            button.item.row = 4
            view.add_item(button)
    return content, view


PanelItem = PanelAction | PanelSelect | PanelStep | PanelStepSelect


def _row_items(texts: Catalog, table: LiveTable, row: Row) -> Sequence[PanelItem]:
    text = renderer(texts, table)
    game_id = table.record.game_id
    if isinstance(row, Steps):
        labels = [text.step(game_id, row.verb, first) for first in row.firsts]
        if len(row.firsts) <= 5:
            return [
                PanelStep(table.table_id, table.version, row.verb, first, label)
                for first, label in zip(row.firsts, labels, strict=True)
            ]
        options = [
            discord.SelectOption(label=_label(label), value=first)
            for first, label in zip(row.firsts, labels, strict=True)
        ]
        verb_label = text.verb(game_id, row.verb)
        placeholder = texts.text("ui.panel.choose_verb", verb=verb_label)
        return [PanelStepSelect(table.table_id, table.version, row.verb, 0, options, placeholder)]
    if isinstance(row, Buttons):
        return [
            PanelAction(table.table_id, table.version, c.notation, text.action(game_id, c.notation))
            for c in row.choices
        ]
    assert isinstance(row, Select)
    if row.most_values > 1:
        options = [
            discord.SelectOption(label=text.face(parse_card(c.notation)), value=c.notation)
            for c in row.choices
        ]
        count = f"{row.pick}–{row.most}" if row.most > row.pick else str(row.pick)
        if row.verb:
            verb_label = text.verb(game_id, row.verb)
            placeholder = texts.text("ui.panel.choose_many", count=count, verb=verb_label)
        else:  # several cards played at once (``QC KC AC``)
            placeholder = texts.text("ui.panel.choose_cards", count=count)
    else:
        options = [
            discord.SelectOption(label=_label(text.action(game_id, c.notation)), value=c.notation)
            for c in row.choices
        ]
        placeholder = (
            texts.text("ui.panel.choose")
            if not row.verb
            else texts.text("ui.panel.choose_verb", verb=text.verb(game_id, row.verb))
        )
    return [
        PanelSelect(
            table.table_id,
            table.version,
            row.verb,
            row.pick,
            row.part,
            options,
            _label(placeholder),
            row.most,
        )
    ]
