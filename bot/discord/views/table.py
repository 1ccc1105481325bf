"""The buttons of the public table message: ``kb:t:<table>:<op>`` (made in ``table_button.py``,
which a hand panel uses too), the lobby's select of a computer player's level ``kb:c:<table>``,
and for real-time games the reaction buttons ``kb:r:<table>:<reveal>:<verb>``.

They are ``DynamicItem``s registered in ``setup_hook``, so a table message keeps working after a
restart. A click only calls the session manager (the table's own actions, and the question
before those that cannot be undone, through ``bot.offers``, as the web table's do); the table
message itself is edited by the listener (``bot.discord.listener``) when the table changes, so a
click costs one response and one edit.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.discord.embeds import rules_embed, table_layout
from bot.discord.messages import BUTTON_GAP_PX, PACK_PX, button_px, layout_view
from bot.discord.replies import answer, answer_errors, catalog_of, kortbord, with_retries
from bot.discord.views.activity import ActivityButton
from bot.discord.views.layout import rows_of_buttons
from bot.discord.views.panel import controls, seated_table, show_panel
from bot.discord.views.table_button import TEMPLATE, table_button
from bot.errors import UserError
from bot.i18n import Catalog, catalog
from bot.leaderboard import RatingChange
from bot.offers import TABLE_ACTIONS, Question, question, table_act
from bot.sessions import LiveTable, Member, require_seat
from games.ai import LEVELS

# Hej knekt's presses (rules/party.md 1.2), in the order of its table; the buttons are on the table
# message for every turned card, so their presence gives nothing away (1.5). Each is labelled by
# the game's short ``button.<verb>`` word, so the five fit two rows of a phone.
REACTIONS: dict[str, tuple[str, ...]] = {
    "hej_knekt": ("whistle", "hej", "goddag", "salute", "slap"),
}

# The rows of controls, each within a phone's row (``messages.PHONE_ROW_PX``) in either language;
# "web" is the web table's button. The lobby's computer players are added with its level menu,
# a third row, alone (one control for one choice).
LOBBY_ROWS = (("join", "leave", "end"), ("start", "rules", "web"))
PLAY_ROWS = (("hand", "web"), ("rules", "leave", "end"))
ANSWERS = {"startfill": "ui.confirm.started", "endok": "ui.reply.ended"}
"""What the question's message says once its yes is done."""
ASKED_BY = {"startfill": "start", "endok": "end"}
"""The button whose question each yes answers."""


def snowflake_ms(snowflake: int) -> int:
    """Discord's creation time of an id, in Unix milliseconds (rules/party.md 1.5)."""
    return (snowflake >> 22) + 1420070400000


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=TEMPLATE,
):
    def __init__(self, table_id: int, op: str, label: str = "") -> None:
        super().__init__(table_button(table_id, op, label))
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> TableButton:
        return cls(int(match["table"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            await self._run(interaction, texts)

    async def _run(self, interaction: discord.Interaction, texts: Catalog) -> None:
        sessions = kortbord(interaction).sessions
        if self.op == "rematch":
            await rematch(interaction, self.table_id)
            return
        table = sessions.table_by_id(self.table_id)
        if table is None:
            raise UserError("table_gone")
        channel_id = table.record.channel_id
        user_id = interaction.user.id
        op = self.op
        if op == "rules":
            embed = rules_embed(texts, table.record.game_id)
            await answer(interaction).send_message(embed=embed, ephemeral=True)
            return
        if op == "hand":
            await show_hand(interaction, texts, table)
            return
        if op == "reclaim":
            await sessions.reclaim(channel_id, user_id)
            _, seat = seated_table(interaction, self.table_id)
            await show_panel(interaction, texts, table, seat)
            return
        if op in ASKED_BY and not on_question(interaction):
            op = ASKED_BY[op]  # a yes forged onto the table message: the question is asked
        if op in TABLE_ACTIONS:
            asked = question(table, user_id, op)
            if asked is not None:
                await ask(interaction, texts, table, asked)
                return
            member = Member(user_id, interaction.user.display_name)
            await table_act(sessions, table, member, op)
            if op in ANSWERS:  # said on the question's own message, which has done its job
                content = texts.text(ANSWERS[op])
                await answer(interaction).edit_message(content=content, view=None)
                return
        elif op == "turn":
            await sessions.act(self.table_id, user_id, table.version, "turn")
        else:
            raise UserError("table_gone")
        await with_retries(answer(interaction).defer, f"answering interaction {interaction.id}")


def on_question(interaction: discord.Interaction) -> bool:
    """Whether the click came from a question's own message (``ask``: ephemeral), the only
    place its yes is, rather than from the table message it would be edited over."""
    return interaction.message is not None and interaction.message.flags.ephemeral


async def ask(
    interaction: discord.Interaction, texts: Catalog, table: LiveTable, asked: Question
) -> None:
    """An ephemeral question before a step that cannot be undone (``bot.offers.question``:
    ``end``, or ``start`` with empty seats); its button does it."""
    view = controls()
    view.add_item(TableButton(table.table_id, asked.yes, asked.label(texts)))
    await answer(interaction).send_message(asked.text(texts), view=view, ephemeral=True)


async def rematch(interaction: discord.Interaction, table_id: int) -> None:
    """*Ny match* under a finished table: the same players at a new table, posted below."""
    bot = kortbord(interaction)
    member = Member(interaction.user.id, interaction.user.display_name)
    admin = isinstance(interaction.user, discord.Member) and (
        interaction.user.guild_permissions.manage_guild
    )
    table = await bot.sessions.rematch(table_id, member, admin=admin)
    message = table_message(catalog(table.record.language), table)
    await post_table(interaction, table, lambda: answer_with_table(interaction, table, message))


def table_message(
    texts: Catalog,
    table: LiveTable,
    deadline: float | None = None,
    ratings: Sequence[RatingChange] = (),
    picture: str | None = None,
) -> discord.ui.LayoutView:
    """The table message: its text, its ``picture`` (an attachment's file name) and its
    controls, in one container."""
    controls = table_view(texts, table)
    shown = table_layout(texts, table, deadline, ratings, picture=picture, controls=controls)
    return layout_view(shown)


async def answer_with_table(
    interaction: discord.Interaction, table: LiveTable, message: discord.ui.LayoutView
) -> discord.Message:
    """The table's message posted as the interaction's answer (tried again on a Discord 5xx)."""
    await with_retries(
        lambda: answer(interaction).send_message(view=message),
        f"posting table {table.table_id}",
    )
    return await with_retries(interaction.original_response, f"reading table {table.table_id}")


async def send_table(
    channel: discord.abc.Messageable, table: LiveTable, message: discord.ui.LayoutView
) -> discord.Message:
    """The table's message sent in ``channel`` or a thread (tried again on a Discord 5xx)."""
    return await with_retries(lambda: channel.send(view=message), f"posting table {table.table_id}")


async def post_table(
    interaction: discord.Interaction,
    table: LiveTable,
    post: Callable[[], Awaitable[discord.Message]],
) -> discord.Message:
    """Posts a new table's message and attaches it. A table Discord never showed (it failed
    even when tried again) could be reached by nobody: it is ended at once, its channel and host
    free, and the member is told."""
    bot = kortbord(interaction)
    try:
        message = await post()
    except discord.HTTPException:
        await bot.sessions.discard(table, "no_message")
        raise UserError("not_posted") from None
    await bot.sessions.attach_message(table, message.id)
    return message


async def show_hand(interaction: discord.Interaction, texts: Catalog, table: LiveTable) -> None:
    """The member's ephemeral hand panel; refused to anyone not seated (spectators see no hand)."""
    seat = require_seat(table, interaction.user.id)
    if table.game is None:
        raise UserError("not_playing")
    shown = kortbord(interaction).listener.panel_of(table.table_id, interaction.user.id)
    draft = shown.draft if shown is not None else None  # a choice begun on an earlier panel
    await show_panel(interaction, texts, table, seat, draft=draft)


class ReactionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"kb:r:(?P<table>\d+):(?P<reveal>\d+):(?P<verb>[a-z]+)",
):
    """A reaction press; its time is Discord's creation time of the click, not the bot's."""

    def __init__(self, table_id: int, reveal_seq: int, verb: str, label: str = ""):
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=discord.ButtonStyle.secondary,
                custom_id=f"kb:r:{table_id}:{reveal_seq}:{verb}",
            )
        )
        self.table_id, self.reveal_seq, self.verb = table_id, reveal_seq, verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> ReactionButton:
        return cls(int(match["table"]), int(match["reveal"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        pressed_at = snowflake_ms(interaction.id) / 1000
        async with answer_errors(interaction):
            await kortbord(interaction).sessions.press(
                self.table_id, interaction.user.id, self.reveal_seq, self.verb, pressed_at
            )
            await with_retries(answer(interaction).defer, f"answering press {interaction.id}")


class LevelSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"kb:c:(?P<table>\d+)",
):
    """The lobby's select: add a computer player of the chosen level (the button adds a
    ``normal`` one)."""

    def __init__(self, table_id: int, texts: Catalog | None = None) -> None:
        options = [
            discord.SelectOption(
                label=texts.text(f"ui.level.{level}") if texts else level,
                value=level,
                description=texts.text(f"ui.level_hint.{level}") if texts else None,
            )
            for level in LEVELS
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"kb:c:{table_id}",
                options=options,
                placeholder=texts.text("ui.select.computer_level") if texts else None,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[discord.ui.View],
        match: re.Match[str],
    ) -> LevelSelect:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        texts = catalog_of(interaction)
        async with answer_errors(interaction, texts):
            table = kortbord(interaction).sessions.table_by_id(self.table_id)
            if table is None:
                raise UserError("table_gone")
            member = Member(interaction.user.id, interaction.user.display_name)
            await table_act(
                kortbord(interaction).sessions, table, member, "computer", self.item.values[0]
            )
            await with_retries(answer(interaction).defer, f"answering select {interaction.id}")


def table_view(texts: Catalog, table: LiveTable) -> discord.ui.View | None:
    """The controls of the table message now; None once the table is closed."""
    status = table.record.status
    if table.damage is not None:  # nothing to do at a damaged table but end it
        if not table.live:
            return None
        view = controls()
        view.add_item(TableButton(table.table_id, "end", texts.text("ui.button.end")))
        return view
    if status == "finished":
        view = controls()
        view.add_item(TableButton(table.table_id, "rematch", texts.text("ui.button.rematch")))
        return view
    if status not in ("lobby", "playing", "paused"):
        return None
    view = controls()
    lobby = status == "lobby"
    full = len(table.record.seats) >= table.spec.max_players
    first = 0 if lobby else reaction_rows(view, texts, table)
    for row, ops in enumerate(LOBBY_ROWS if lobby else PLAY_ROWS, start=first):
        for op in ops:
            if op == "web":
                button: TableButton | ActivityButton = ActivityButton(
                    table.table_id, texts.text("web.button.open")
                )
            else:
                button = TableButton(table.table_id, op, texts.text(f"ui.button.{op}"))
                button.item.disabled = lobby and op == "join" and full
            button.item.row = row
            view.add_item(button)
    if lobby:
        levels = LevelSelect(table.table_id, texts)
        levels.item.row = len(LOBBY_ROWS)
        levels.item.disabled = full
        view.add_item(levels)
    return view


def reaction_rows(view: discord.ui.View, texts: Catalog, table: LiveTable) -> int:
    """A game played on the table message (Hej knekt) has its turn and its reactions first, above
    the table's own controls, so a phone shows them without scrolling; the rows they take."""
    reactions = REACTIONS.get(table.record.game_id)
    if not reactions:
        return 0
    turn = TableButton(table.table_id, "turn", texts.text("ui.button.turn"))
    turn.item.row = 0
    turn.item.disabled = not may_turn(table)
    view.add_item(turn)
    labelled = [(verb, reaction_label(texts, table.record.game_id, verb)) for verb in reactions]
    # a row holds what fits a phone's
    rows = rows_of_buttons(labelled, lambda v: button_px(v[1]), PACK_PX, BUTTON_GAP_PX)
    for row, presses in enumerate(rows, start=1):
        for verb, label in presses:
            press = ReactionButton(table.table_id, table.reaction_seq, verb, label)
            press.item.row = row
            view.add_item(press)
    return 1 + len(rows)


def may_turn(table: LiveTable) -> bool:
    """Whether a card may be turned now: not while the table waits for the reactions to one
    (then *Vänd kort*, green, would invite a press that is refused)."""
    game = table.game
    if game is None:
        return False
    return any(game.notation(a) == "turn" for s in game.to_act() for a in game.legal_actions(s))


def reaction_label(texts: Catalog, game_id: str, verb: str) -> str:
    """A reaction's button label: the game's short word (``Hej!``), else the action's name."""
    short = f"{game_id}.button.{verb}"
    return texts.text(short if texts.has(short) else f"{game_id}.action.{verb}")
