"""The hand panel: a seat's ephemeral message with its hand and its legal actions as controls.

Rebuilt from the server's state on every click. Every control carries the table id and version it
was built for (``kb:a:<table>:<version>:<notation>``, ``kb:s:...``, ``kb:pg:...``); the session
manager refuses a click from a panel built before its seat's last action, so a stale panel can
never act twice, while other seats' moves leave a waiting panel valid. A waiting seat's panel
offers its cards ahead of its turn (``cards_ahead``), so it need not be edited when the turn
comes; a refused click is answered with the current panel and the reason.
Every control is answered by a registered ``DynamicItem`` by its custom id alone (the panel's
take-the-seat-back button by the table's, made in ``table_button.py``), so a panel keeps working
across a restart of the bot. What a panel offers is decided for every face in the core
(``bot.offers.panel_choices``), which the listener reads too.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.actions import verb_help
from bot.discord.embeds import MAX_CONTENT, clip, panel_text, renderer
from bot.discord.images import hand_png
from bot.discord.messages import (
    BUTTON_GAP_PX,
    PACK_PX,
    Layout,
    button_px,
    buttons_px,
    fit_label,
    layout_view,
)
from bot.discord.replies import (
    answer,
    answer_errors,
    catalog_of,
    error_text,
    kortbord,
    send_private,
)
from bot.discord.views.layout import (
    MAX_ROWS,
    Buttons,
    Draft,
    Row,
    Select,
    Steps,
    Widths,
    card_order,
    choice_of,
    layout,
    page_buttons,
    step_page,
    two_parts,
)
from bot.discord.views.table_button import table_button
from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.offers import panel_choices
from bot.render.text import DISCORD, TextRenderer, hand_order_of, mark_label, sort_hand
from bot.sessions import LiveTable, require_seat
from games.cards import RANKS, SUITS, all_card_codes, is_card_code, parse_card
from games.core import Seat

if TYPE_CHECKING:
    from bot.discord.services import Services

MAX_LABEL = 80


def panel_rows(texts: Catalog, table: LiveTable, seat: Seat) -> list[list[Row]]:
    """The pages of rows of the seat's panel, as it lays them out (by the width of each control
    in the table's words)."""
    notations = panel_choices(table, seat)
    return _Parts(texts, table, seat, renderer(texts, table).plain(), None, notations).pages


def pick_options(notations: Sequence[str], verb: str) -> list[str]:
    """The cards a member may pick for ``verb``: those of its choices of several cards."""
    out: dict[str, None] = {}
    for notation in notations:
        choice = choice_of(notation)
        several = bool(verb) or len(choice.args) > 1  # with no verb: cards played together
        if choice.verb == verb and several and choice.args and all_card_codes(choice.args):
            out.update(dict.fromkeys(choice.args))
    return sorted(out, key=card_order)


def picked_action(notations: Sequence[str], verb: str, cards: Sequence[str]) -> str | None:
    """The legal action that lays exactly these cards with ``verb``, if there is one."""
    wanted = sorted(cards)
    for notation in notations:
        choice = choice_of(notation)
        if choice.verb == verb and sorted(choice.args) == wanted:
            return notation
    return None


def _most_picked(notations: Sequence[str], verb: str) -> tuple[int, int]:
    """The fewest and the most cards ``verb`` takes."""
    counts = [
        len(c.args)
        for n in notations
        if (c := choice_of(n)).verb == verb and (verb or len(c.args) > 1)  # not single cards
    ]
    return (min(counts), max(counts)) if counts else (0, 0)


def kept_draft(notations: Sequence[str], draft: Draft | None) -> Draft | None:
    """What of a half-made choice still leads to a legal action now."""
    if not draft:
        return None
    assert draft is not None
    step = draft.step if draft.step and step_page(notations, draft.step) else None
    cards = draft.cards
    if cards:
        options = set(pick_options(notations, draft.verb))
        if not set(cards) <= options or len(cards) > _most_picked(notations, draft.verb)[1]:
            cards = ()
    kept = Draft(step, draft.verb if cards else "", cards)
    return kept or None


def dropped_part(draft: Draft | None, kept: Draft | None) -> Draft | None:
    """The part of ``draft`` that ``kept`` no longer holds."""
    if not draft:
        return None
    assert draft is not None
    step = draft.step if kept is None or kept.step != draft.step else None
    cards = draft.cards if kept is None or kept.cards != draft.cards else ()
    dropped = Draft(step, draft.verb if cards else "", cards)
    return dropped or None


SUIT_FACES = {letter: DISCORD.suits[i] for i, letter in enumerate(SUITS)}


def hand_image_name(shown: object) -> str:
    """The file name of a hand picture: named by what it shows."""
    digest = hashlib.blake2s(repr(shown).encode(), digest_size=6).hexdigest()
    return f"hand-{digest}.png"


async def hand_picture(
    bot: Services, table: LiveTable, seat: Seat, user_id: int
) -> tuple[list[discord.File], str | None]:
    """The picture of the seat's hand for its panel, in the order of the panel's card buttons
    (the buttons are what may be played now), and its file name; None when it holds no cards,
    or when the server or the member turned pictures off. Sent with every request that shows
    it: Discord finds an ``attachment://`` picture only among the files uploaded with the same
    request, so a panel edit never names a picture it does not send. Drawn (about 1 ms) once
    per hand shown (:data:`HANDS_KEPT`): a waiting member's panel edited because their choices
    narrowed shows the hand it showed before."""
    if table.game is None or not await bot.pictures(table.record.guild_id, user_id):
        return [], None
    view = table.view(seat)
    hand = sort_hand(view.hand, hand_order_of(view.game))
    if not hand:
        return [], None
    mark = mark_label(catalog_for(table), view.game) if view.marked else ""
    ranks = DISCORD.speaking(catalog_for(table)).ranks  # the cards' indices in its language
    name = hand_image_name((hand, view.marked, mark, sorted(ranks.items())))
    shown = (tuple(hand), view.marked, mark, tuple(sorted(ranks.items())))
    data = _HANDS_DRAWN.pop(shown, None)
    if data is None:
        data = hand_png(hand, (), view.marked, mark, ranks=ranks)
        if len(_HANDS_DRAWN) >= HANDS_KEPT:
            del _HANDS_DRAWN[next(iter(_HANDS_DRAWN))]  # the longest unshown
    _HANDS_DRAWN[shown] = data  # the latest shown last
    return [discord.File(io.BytesIO(data), name)], name


_HANDS_DRAWN: dict[tuple[object, ...], bytes] = {}
HANDS_KEPT = 1024
"""Hand pictures kept drawn, the latest shown: about 8 kB each."""


def catalog_for(table: LiveTable) -> Catalog:
    """The table's language: the words drawn in a picture of its hand."""
    return catalog(table.record.language)


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
        self.most, self.part = most, part

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
        if self.most > 1:  # cards picked together: shown, then sent with a button (Skicka)
            values = list(self.item.values)
            await pick_cards(interaction, self.table_id, self.verb, self.part, values)
            return
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
            draft = Draft(None, *_shown_draft(interaction, table)[1:])
            await show_panel(interaction, texts, table, seat, page=self.page, draft=draft)


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
        _, picked_verb, cards = _shown_draft(interaction, table)
        if step is not None and not step_page(panel_choices(table, seat), step):
            raise UserError("not_offered")
        draft = Draft(step, picked_verb, cards)
        await show_panel(interaction, texts, table, seat, draft=draft)


def _shown_draft(
    interaction: discord.Interaction, table: LiveTable
) -> tuple[str | None, str, tuple[str, ...]]:
    """The half-made choice of the panel the member has open at this table (step, verb, cards)."""
    shown = kortbord(interaction).listener.panel_of(table.table_id, interaction.user.id)
    draft = shown.draft if shown is not None else None
    if draft is None:
        return None, "", ()
    return draft.step, draft.verb, draft.cards


async def pick_cards(
    interaction: discord.Interaction, table_id: int, verb: str, part: int, values: list[str]
) -> None:
    """Cards picked in a menu of a verb of several cards: kept with the picks of its other menus
    and shown with what they make, to be sent with the panel's send button."""
    texts = catalog_of(interaction)
    async with answer_errors(interaction, texts):
        table, seat = seated_table(interaction, table_id)
        notations = panel_choices(table, seat)
        menu = _menu_of(notations, verb, part)
        if not menu or not set(values) <= menu or len(set(values)) != len(values):
            raise UserError("not_offered")
        step, picked_verb, cards = _shown_draft(interaction, table)
        kept = [c for c in cards if picked_verb == verb and c not in menu]
        chosen = sorted({*kept, *values}, key=card_order)
        if len(chosen) > _most_picked(notations, verb)[1]:
            raise UserError("not_offered")
        shown = kortbord(interaction).listener.panel_of(table.table_id, interaction.user.id)
        page = shown.page if shown is not None else 0
        draft = Draft(step, verb if chosen else "", tuple(chosen))
        await show_panel(interaction, texts, table, seat, page=page, draft=draft)


def _menu_of(notations: Sequence[str], verb: str, part: int) -> set[str]:
    """The cards of the menu ``part`` of ``verb``: what a pick in it replaces."""
    for page in layout(notations):
        for row in page:
            if isinstance(row, Select) and row.verb == verb and row.part == part:
                return {c.notation for c in row.choices}
    return set()


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
        try:
            table = await sessions.act(table_id, interaction.user.id, version, notation)
        except UserError as error:
            answered = error.msg.key in ANSWERED_WITH_PANEL or error.msg.key.startswith(REFUSED)
            if not answered or not on_own_panel(interaction):
                raise
            await refused_with_panel(interaction, texts, table_id, error)
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.game is None:
            await send_private(interaction, texts.text("ui.reply.left"))
            return
        await show_panel(interaction, texts, table, seat, done=notation)


ANSWERED_WITH_PANEL = frozenset(
    {"errors.stale_panel", "errors.not_your_turn", "errors.illegal_action"}
)
REFUSED = "errors.refused."  # why a card may not be played (``bot.refusals``): with the panel
"""Refusals of a click on one's own panel that are answered with the current panel (in place,
the reason on top): a panel is not edited at every move, so it may show an older hand or turn."""


async def refused_with_panel(
    interaction: discord.Interaction, texts: Catalog, table_id: int, error: UserError
) -> None:
    table, seat = seated_table(interaction, table_id)
    if table.game is None or not table.live:
        raise error
    await show_panel(interaction, texts, table, seat, notice=error_text(texts, error))


def on_own_panel(interaction: discord.Interaction) -> bool:
    """Whether the control was clicked on an ephemeral message: one only the clicker sees, so
    their own panel. A control from anywhere else (the public table message, a forged click)
    must never have that message edited into a hand."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def panel_layout(content: str, controls: discord.ui.View, picture: str | None) -> Layout:
    """The panel as one container: its text, the hand's picture (when drawn), its controls."""
    return Layout(head=[content], picture=picture, controls=controls)


async def show_panel(
    interaction: discord.Interaction,
    texts: Catalog,
    table: LiveTable,
    seat: Seat,
    *,
    page: int = 0,
    draft: Draft | None = None,
    done: str | None = None,
    notice: str | None = None,
) -> None:
    """Build the panel (keeping what of ``draft`` is still valid, saying what was dropped,
    ``notice`` on top) and show it: in place on the clicker's own ephemeral panel, else as a new
    ephemeral message. Either way the listener keeps only that ephemeral panel current (with its
    page and its half-made choice)."""
    bot = kortbord(interaction)
    # noted as shown before anything is awaited, so the listener does not edit it meanwhile
    bot.listener.panel_shown(
        table, interaction, page, kept_draft(panel_choices(table, seat), draft)
    )
    own = on_own_panel(interaction)
    files, picture = await hand_picture(bot, table, seat, interaction.user.id)
    content, view, kept = panel_for(
        texts, table, seat, page=page, draft=draft, done=done, picture=picture is not None
    )
    if notice is not None:
        content = clip(f"{notice}\n{content}", MAX_CONTENT, keep_end=True)
    bot.listener.panel_shown(table, interaction, page, kept, picture)  # as built
    message = layout_view(panel_layout(content, view, picture))
    if not own:
        await answer(interaction).send_message(view=message, files=files, ephemeral=True)
    else:
        await answer(interaction).edit_message(view=message, attachments=files)


def panel_for(
    texts: Catalog,
    table: LiveTable,
    seat: Seat,
    *,
    page: int = 0,
    draft: Draft | None = None,
    done: str | None = None,
    picture: bool = False,
) -> tuple[str, discord.ui.View, Draft | None]:
    """The panel with what of a half-made choice is still valid, and that part: a refreshed
    panel keeps the member's picks and opened step, and says so when it has to drop them (the
    state changed, or the time ran out and the computer acted)."""
    kept = kept_draft(panel_choices(table, seat), draft)
    dropped = dropped_part(draft, kept)
    content, view = build_panel(
        texts, table, seat, page=page, done=done, draft=kept, dropped=dropped, picture=picture
    )
    return content, view, kept


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
    draft: Draft | None = None,
    dropped: Draft | None = None,
    picture: bool = False,
) -> tuple[str, discord.ui.View]:
    """The panel's text and controls for ``seat`` at the table's current version; ``step``
    (``"bid 7"``) shows the choices of one first part of a two-part choice, with a way back.
    ``draft``: the member's half-made choice (a step, cards picked), ``dropped``: the part of one
    that no longer applies, which the panel says; ``picture``: the hand is shown drawn, so the
    text need not list it."""
    content = panel_text(texts, table, seat, done=done, picture=picture)
    view = controls()
    text = renderer(texts, table)
    game_id = table.record.game_id
    lines = [content]
    if dropped:
        assert dropped is not None
        lines.append(texts.text("ui.panel.dropped", choice=_draft_text(text, game_id, dropped)))
    if table.taken_over(seat):
        view.add_item(table_button(table.table_id, "reclaim", texts.text("ui.button.reclaim")))
        return clip("\n".join(lines), MAX_CONTENT, keep_end=True), view
    if table.spec.realtime and table.in_window:
        lines.append(texts.text("ui.panel.reaction_hint"))
    notations = panel_choices(table, seat)
    if table.game is not None and notations and not table.choices(seat):
        lines.append(texts.text("ui.panel.ahead"))
    if step is None and draft is not None:
        step = draft.step
    parts = _Parts(texts, table, seat, text.plain(), draft, notations)  # labels: names as written
    lines += parts.pick_lines()
    parts.on_step = step is not None  # the first part is chosen: a choice is named by its second
    if step is not None and (rows := step_page(notations, step, parts.widths)):
        verb, _, first = step.partition(" ")
        lines.append(f"**{text.step_heading(game_id, verb, first)}**")  # whom you ask, say
        lines += parts.help_lines([verb])
        for row_number, row in enumerate(rows):
            for item in parts.items(row):
                item.item.row = row_number
                view.add_item(item)
        back = PanelStep(table.table_id, table.version, step.split()[0], "")
        back.item.label = _label(texts.text("ui.button.back"))
        back.item.row = min(len(rows), MAX_ROWS - 1)
        view.add_item(back)
        return clip("\n".join(lines), MAX_CONTENT, keep_end=True), view
    parts.on_step = False
    lines += parts.help_lines(list(dict.fromkeys(c.verb for c in map(choice_of, notations))))
    pages = parts.pages
    page = min(page, len(pages) - 1)
    nav_row = MAX_ROWS - 1
    row_number = 0
    for row in pages[page]:
        on_nav = len(pages) > 1 and isinstance(row, Buttons) and row.nav
        for item in parts.items(row):
            item.item.row = nav_row if on_nav else row_number
            view.add_item(item)
        row_number += 0 if on_nav else 1
    if len(pages) > 1:
        for button in _page_buttons(texts, table, page, len(pages)):
            button.item.row = nav_row
            view.add_item(button)
    return clip("\n".join(lines), MAX_CONTENT, keep_end=True), view


def nav_labels(texts: Catalog, page: int, pages: int) -> list[str]:
    """The labels of the buttons that turn the pages: one per page up to five where they fit a
    phone's row, else back, where, forward."""
    each = [texts.text("ui.button.page", page=number + 1) for number in range(pages)]
    if page_buttons(pages) == pages and buttons_px(each) <= PACK_PX:
        return each
    return ["◀", texts.text("ui.button.page", page=f"{page + 1}/{pages}"), "▶"]


def _page_buttons(texts: Catalog, table: LiveTable, page: int, pages: int) -> list[PanelPage]:
    """The buttons that turn the pages (``nav_labels``), the page shown greyed."""
    t, v = table.table_id, table.version
    labels = nav_labels(texts, page, pages)
    if len(labels) == pages:
        buttons = [PanelPage(t, v, number, label) for number, label in enumerate(labels)]
        buttons[page].item.disabled = True
        return buttons
    here = PanelPage(t, v, page, labels[1])
    here.item.disabled = True
    return [
        PanelPage(t, v, (page - 1) % pages, labels[0]),
        here,
        PanelPage(t, v, (page + 1) % pages, labels[2]),
    ]


def _draft_text(text: TextRenderer, game_id: str, draft: Draft) -> str:
    """A half-made choice in words: ``Bud 7…`` or ``Lägg budkort 7♦ K♠``."""
    parts = []
    if draft.step is not None:
        verb, _, first = draft.step.partition(" ")
        parts.append(text.step_heading(game_id, verb, first))
    if draft.cards:
        faces = text.faces_of(parse_card(c) for c in draft.cards)
        parts.append(f"{text.verb(game_id, draft.verb)} {faces}" if draft.verb else faces)
    return ", ".join(parts)


PanelItem = PanelAction | PanelSelect | PanelStep | PanelStepSelect


class _Parts:
    """What one panel is built from: its actions laid out, the member's half-made choice, the
    cards its game marks, and the words for them."""

    def __init__(
        self,
        texts: Catalog,
        table: LiveTable,
        seat: Seat,
        text: TextRenderer,
        draft: Draft | None,
        notations: Sequence[str],
    ) -> None:
        assert table.game is not None
        self.texts, self.table, self.seat, self.text = texts, table, seat, text
        self.game = table.game
        self.game_id = table.record.game_id
        view = table.view(seat)
        self.marked = set(view.marked)
        self.mark = mark_label(texts, view.game) if view.marked else ""
        self.picked = draft.cards if draft is not None else ()
        self.picked_verb = draft.verb if draft is not None else ""
        self.send = picked_action(notations, self.picked_verb, self.picked) if self.picked else None
        self.notations = notations
        self.on_step = False
        self._labels: dict[tuple[str, bool], str] = {}
        self.widths = Widths(
            button=lambda choice: button_px(self._full_label(choice.notation)),
            step=self._step_px,
            nav=lambda pages: buttons_px(nav_labels(texts, pages - 1, pages)),
            row=PACK_PX,
            gap=BUTTON_GAP_PX,
        )
        """How wide each control is drawn: the panel's rows hold what fits a phone's row."""
        self.pages = layout(
            notations, send=self.send, order=hand_order_of(self.game_id), widths=self.widths
        )
        menus: dict[str, int] = {}
        for rows in self.pages:
            for row in rows:
                if isinstance(row, Select):
                    menus[row.verb] = menus.get(row.verb, 0) + 1
        self.menus = menus

    def _step_px(self, verb: str, first: str) -> int:
        return button_px(fit_label(self.text.step(self.game_id, verb, first)))

    def pick_lines(self) -> list[str]:
        """The cards picked and what they make (Nittionio: the bid), and how many are missing."""
        if not self.picked:
            return []
        faces = self.text.faces_of(parse_card(c) for c in sorted(self.picked, key=card_order))
        worth = self.game.worth(self.seat, self.picked_verb, [parse_card(c) for c in self.picked])
        lines = [
            self.texts.text("ui.panel.picked", cards=faces)
            if worth is None
            else self.texts.text("ui.panel.picked_worth", cards=faces, worth=self.text.msg(worth))
        ]
        fewest = _most_picked(self.notations, self.picked_verb)[0]
        if self.send is None and fewest > len(self.picked):
            lines.append(self.texts.text("ui.panel.pick_more", count=fewest - len(self.picked)))
        return lines

    def help_lines(self, verbs: Sequence[str]) -> list[str]:
        """One line of help from the game's catalog (``<game>.help.<verb>``) per verb offered."""
        lines = []
        for verb in verbs:
            help_text = verb_help(
                self.texts, self.game_id, verb, SUIT_FACES
            )  # ``{S}``: as on cards
            if help_text is not None:
                # "Bättre kort: Föreslå …", not "Bättre kort!: …"
                name = self.text.verb(self.game_id, verb.lower()).rstrip("!")
                lines.append(self.texts.text("ui.panel.help", verb=name, help=help_text))
        return lines

    def _button_label(self, notation: str) -> str:
        """A button's label, within a phone's row."""
        return fit_label(self._full_label(notation))

    def _full_label(self, notation: str) -> str:
        """A button's whole label, worked out once per panel (the packing of its rows asks for
        each button's width several times)."""
        key = (notation, self.on_step)
        label = self._labels.get(key)
        if label is None:
            label = self._labels[key] = self._label_of(notation)
        return label

    def _label_of(self, notation: str) -> str:
        label = self.text.button(self.game_id, notation)
        parts = two_parts(choice_of(notation)) if self.on_step else None
        if parts is not None and len(parts[1]) == 1 and parts[1].upper() in RANKS:  # ``ask 2 K``
            rank = self.text.rank(parts[1])
            return rank[:1].upper() + rank[1:]
        if notation == self.send:
            return self.texts.text("ui.panel.send", action=label)
        if self.marked and is_card_code(notation) and parse_card(notation) in self.marked:
            return f"{label} ({self.mark})"
        return label

    def items(self, row: Row) -> Sequence[PanelItem]:
        texts, table, text, game_id = self.texts, self.table, self.text, self.game_id
        if isinstance(row, Steps):
            labels = [text.step(game_id, row.verb, first) for first in row.firsts]
            if not row.menu:
                labels = [fit_label(label) for label in labels]
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
            return [
                PanelStepSelect(table.table_id, table.version, row.verb, 0, options, placeholder)
            ]
        if isinstance(row, Buttons):
            buttons = []
            for c in row.choices:
                button = PanelAction(
                    table.table_id, table.version, c.notation, self._button_label(c.notation)
                )
                if c.notation == self.send:
                    button.item.style = discord.ButtonStyle.success
                buttons.append(button)
            return buttons
        assert isinstance(row, Select)
        if row.most_values > 1:
            return [self._card_menu(row)]
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
                table.table_id, table.version, row.verb, row.pick, row.part, options, placeholder
            )
        ]

    def _card_menu(self, row: Select) -> PanelSelect:
        """A menu of cards chosen together, in hand order: the cards picked so far chosen, and
        what each card counts for where the game says (Nittionio's bid cards)."""
        texts, text, game_id = self.texts, self.text, self.game_id
        picked = set(self.picked) if row.verb == self.picked_verb else set()
        options = []
        for c in row.choices:
            card = parse_card(c.notation)
            label = text.face(card)
            if card in self.marked:
                label = f"{label} ({self.mark})"
            worth = self.game.worth(self.seat, row.verb, [card]) if row.verb else None
            options.append(
                discord.SelectOption(
                    label=_label(label),
                    value=c.notation,
                    description=None if worth is None else _label(text.msg(worth)),
                    default=c.notation in picked,
                )
            )
        count = f"{row.pick}–{row.most}" if row.most > row.pick else str(row.pick)
        if row.verb:
            verb_label = text.verb(game_id, row.verb)
            placeholder = texts.text("ui.panel.choose_many", count=count, verb=verb_label)
        else:  # several cards played at once (``QC KC AC``)
            placeholder = texts.text("ui.panel.choose_cards", count=count)
        menu = PanelSelect(
            self.table.table_id,
            self.table.version,
            row.verb,
            row.pick,
            row.part,
            options,
            _label(placeholder),
            row.most,
        )
        if self.menus.get(row.verb, 0) > 1:
            menu.item.min_values = 0  # picks are made across menus: one may be left empty
        return menu
