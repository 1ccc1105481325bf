"""What the session manager's changes become in Discord: the table message and the DM hands.

Discord's global rate limit is shared by every table a bot serves, so a member's action costs
the interaction's own response and one edit of the table message, and everything else is
refreshed lazily:

- Table edits are coalesced: one edit in flight per table, and the latest state wins, so a burst
  of computer moves costs a few edits, not one per move. The table's picture is drawn on the
  event loop (about 2 ms; a worker thread cost more CPU than the drawing, in hand-offs of the
  interpreter's lock, as ``benchmarks.bot`` showed) and sent with the edit.
- A member's last hand panel is kept current through its interaction token (valid for 15
  minutes), so a member can play a whole deal from one panel without pressing *My hand* again;
  but it is never edited because another seat played a card. Its controls stay valid for its seat
  until the seat acts, and a waiting seat's panel already offers its cards, so when the turn
  comes the member acts in one click on the panel as it is. It is edited at once only when it
  could not serve: a new deal, the table's end, autoplay, a deadline that acted for the seat, or a
  turn whose choices are narrower than the ones it offers (a bid; a suit to follow) or hold more
  than cards (a pass), so on a member's turn it never offers what may not be played. A panel
  that can act but shows an older hand (a card drawn since, not offered yet) is refreshed
  ``PANEL_GRACE`` seconds into the member's turn, if they have not acted by then; a refused
  click is answered with the current panel and the reason.
- When it becomes a member's turn after others have acted and they have not acted within
  ``TURN_NOTICE_GRACE`` seconds, they are told once for that turn by a DM line (Discord notifies
  it); with DMs closed, by a mention in the table's channel that is deleted when the turn ends.
  A member turns this off with ``/spel turpåminnelse``. Quick players cost nothing.
- A card turned in Hej knekt opens its reaction window when Discord has acknowledged the edit
  that shows it (the edited message's time), not when the server turned it: the members can
  react from then (``sight``: what else it waits for, the demo's page showing it).
- A table opened from the web table has no message yet: the table's edit loop posts one in its
  channel and attaches it, as ``/spel ny`` does (``bot.opening``).
- When a deal is over, its result is posted as a message of its own (one per deal), so it stays
  readable while the next deal is played on the table message.
- At each deal every seated member gets their hand by DM. Later changes edit that DM only at the
  end of a trick (in games without tricks: after a short pause, several changes one edit), and
  not while the member has a hand panel open, which shows the hand already. A member whose DMs
  are closed (Discord error 50007) is remembered in storage, told once in the channel to use
  *My hand*, and not written to again; the game goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

import discord

from bot.clock import Timer, TimerCallback
from bot.discord.embeds import (
    DealResult,
    deal_result_embed,
    dm_text,
    renderer,
)
from bot.discord.images import table_png
from bot.discord.messages import Layout, layout_view
from bot.discord.refused import EditRefusals
from bot.discord.replies import with_retries
from bot.discord.views.layout import Draft
from bot.discord.views.panel import hand_picture, panel_for, panel_layout
from bot.discord.views.table import send_table, table_message
from bot.i18n import catalog
from bot.offers import panel_choices
from bot.opening import opened_in_page
from bot.options import game_name
from bot.render.text import trump_line
from bot.sessions import LiveTable
from games.cards import all_card_codes
from games.core import Msg, Seat

if TYPE_CHECKING:
    from bot.discord.services import Services

log = logging.getLogger(__name__)

TABLE_IMAGE = "table.png"
CANNOT_DM = 50007
DM_PAUSE = 1.5  # seconds: DM edits within this pause are merged into one
PANEL_LIFETIME = 14 * 60  # seconds: an interaction token may edit its message for 15 minutes
PANEL_GRACE = 3.0
"""Seconds into a member's turn before a panel that can act but shows an older hand is edited."""
GRACE_BEYOND_SETTLING = 30.0
"""A panel grace for simulated Discord: SimCord waits out timers shorter than its settle timeout
(5 s) in real time, so a longer grace keeps each click instant; advancing time still fires it."""
TURN_NOTICE_GRACE = 10.0
"""Seconds into a member's turn (at most a third of the turn time) before they are notified."""


@dataclass
class Panel:
    """A member's open hand panel: the interaction that shows it, and what it shows."""

    interaction: discord.Interaction
    page: int
    version: int
    opened: float
    shows: tuple[object, ...] = ()
    draft: Draft | None = None  # a choice begun on the panel, kept while it stays valid
    offers: frozenset[str] = frozenset()
    hand: tuple[int, ...] = ()
    picture: str | None = None  # the file name of the hand picture it shows


@dataclass
class TurnNotice:
    """A member's turn being watched for a notice: which turn (``turn``), its timer, and the
    channel mention sent for it (to delete when the turn ends)."""

    turn: tuple[int, int]
    timer: Timer | None = None
    sent: bool = False
    mention: tuple[int, int] | None = None


@dataclass
class DealSeen:
    """The deal a table is in, as the listener last saw it: its number, the scores when it
    started, and the latest public events."""

    deal: int
    before: tuple[int, ...]
    events: tuple[Msg, ...]
    over: bool = False


def new_events(old: tuple[Msg, ...], new: tuple[Msg, ...]) -> tuple[Msg, ...]:
    """The events of ``new`` that came after those of ``old`` (both are windows of one log)."""
    for k in range(min(len(old), len(new)), 0, -1):
        if old[-k:] == new[:k]:
            return new[k:]
    return new


def panel_shows(table: LiveTable, seat: Seat) -> tuple[object, ...]:
    """What a seat's panel must show right: when this changes, the panel needs an edit at once."""
    game = table.game
    if game is None:
        return (table.record.status,)
    return (table.record.status, table.record.seats[seat].autoplay, table.view(seat).deal)


PanelNeed = Literal["now", "later"] | None


Kept = TypeVar("Kept")


class ByTable(MutableMapping[tuple[int, int], Kept], Generic[Kept]):
    """What is kept per member at a table (``(table_id, user_id)``: an open panel, a turn
    notice), found by its table too: a table's change visits its own members' entries, never
    every table's (at ten thousand tables, two scans of every entry cost more than the edit)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[int, int], Kept] = {}
        self._users: dict[int, dict[int, None]] = {}  # by table, in the order kept

    def __getitem__(self, key: tuple[int, int]) -> Kept:
        return self._kept[key]

    def __setitem__(self, key: tuple[int, int], value: Kept) -> None:
        self._kept[key] = value
        self._users.setdefault(key[0], {})[key[1]] = None

    def __delitem__(self, key: tuple[int, int]) -> None:
        del self._kept[key]
        users = self._users[key[0]]
        del users[key[1]]
        if not users:
            del self._users[key[0]]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)

    def at(self, table_id: int) -> list[tuple[int, int]]:
        """The keys kept at one table."""
        return [(table_id, user_id) for user_id in self._users.get(table_id, ())]


def panel_need(panel: Panel, table: LiveTable, seat: Seat) -> PanelNeed:
    """Whether the panel must be edited ``now`` (it could not serve the member: it offers
    nothing, something that may not be chosen now, or lacks a choice other than a card),
    ``later`` (all it offers may be chosen, but it lacks a card drawn since, or shows an older
    hand), or not at all."""
    if panel_shows(table, seat) != panel.shows:
        return "now"
    game = table.game
    if game is None:
        return None
    if not table.panel_valid(seat, panel.version):
        return "now"  # the seat acted since it was built (a deadline): its controls are stale
    legal = set(table.choices(seat).values())
    if not legal:
        return None  # waiting, or a reaction window: nothing to choose on the panel now
    if not panel.offers or not panel.offers <= legal:
        return "now"  # the choices narrowed (a suit to follow, a bid): it never offers more
    if not all_card_codes(legal - panel.offers):
        return "now"  # a choice besides the cards (to pass, to take the pile) is shown at once
    if legal != panel.offers or tuple(sorted(table.hand(seat))) != panel.hand:
        return "later"  # the member may act on it as it is meanwhile
    return None


def turn_of(table: LiveTable, seat: Seat) -> tuple[int, int] | None:
    """The member's turn now, as something that changes when they act or a deal starts; None
    when they have nothing to choose, or when the turn follows their own move (nobody else has
    acted since: they know it is theirs)."""
    game = table.game
    if (
        game is None
        or table.record.status != "playing"
        or table.record.seats[seat].autoplay
        or not table.choices(seat)
    ):
        return None
    acted = table.acted_version.get(seat, 0)
    if acted == table.version:
        return None
    return (table.deal_version, acted)


@contextlib.asynccontextmanager
async def _logged(what: str, *args: object) -> AsyncIterator[None]:
    """A failed update is logged with its traceback; the next change tries again."""
    try:
        yield
    except Exception:
        log.exception("failed: " + what, *args)


class DiscordListener:
    def __init__(
        self,
        bot: Services,
        *,
        dm_pause: float = DM_PAUSE,
        panel_grace: float = PANEL_GRACE,
        sight: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.bot = bot
        self.dm_pause = dm_pause
        self.panel_grace = panel_grace
        self.sight = sight
        """What a turned card's reaction window waits for after Discord acknowledged the edit
        that shows it, if anything (the demo: its page showing the card); the window opens then."""
        self._latest: dict[int, LiveTable] = {}
        self._editing: dict[int, asyncio.Task[None]] = {}
        self._dm_pending: dict[tuple[int, int], LiveTable] = {}
        self._dm_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._dm_deal: dict[tuple[int, int], int] = {}
        self._dm_closed: dict[int, bool] = {}
        self._panels: ByTable[Panel] = ByTable()
        self._panel_pending: dict[tuple[int, int], LiveTable] = {}
        self._panel_tasks: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._dm_stale: set[tuple[int, int]] = set()
        self._deals: dict[int, DealSeen] = {}
        self._deal_results: dict[int, list[DealResult]] = {}
        self._panel_timers: dict[tuple[int, int], Timer] = {}
        self._notices: ByTable[TurnNotice] = ByTable()
        self._tasks: set[asyncio.Task[None]] = set()
        self.refusals = EditRefusals(bot)

    # --- the table message ----------------------------------------------------------------------

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        self._follow_deal(table)
        self._latest[table.table_id] = table
        if table.table_id not in self._editing:
            task = asyncio.get_running_loop().create_task(self._edit_loop(table.table_id))
            self._editing[table.table_id] = task
        for seat in sorted(hands):
            user_id = table.record.seats[seat].user_id
            if user_id is not None:
                self._dm_stale.add((table.table_id, user_id))
        trick_over = table.game is None or not table.view(None).trick
        members = {s.user_id for s in table.members()}
        for key in self._panels.at(table.table_id):
            if key[1] not in members:
                del self._panels[key]  # left or kicked: that panel is never rewritten again
        for s in table.members():
            assert s.user_id is not None
            key = (table.table_id, s.user_id)
            panel = self._panels.get(key)
            need = panel_need(panel, table, s.seat) if panel is not None else None
            if need == "now":
                self._schedule_panel(table, s.user_id)
            elif need == "later" and key not in self._panel_timers:
                when = self.bot.clock.now() + self.panel_grace
                self._panel_timers[key] = self.bot.clock.call_at(
                    when, self._panel_grace_callback(key)
                )
            if key in self._dm_stale and (trick_over or self._new_deal(table, s.user_id)):
                self._dm_stale.discard(key)
                if self._new_deal(table, s.user_id) or not self._panel_open(key):
                    self._schedule_dm(table, s.user_id)
            self._follow_turn(table, s.seat, s.user_id)
        for key in [k for k in self._notices.at(table.table_id) if k[1] not in members]:
            self._turn_ended(key)

    def _panel_grace_callback(self, key: tuple[int, int]) -> TimerCallback:
        async def refresh() -> None:
            self._panel_timers.pop(key, None)
            table = self.bot.sessions.table_by_id(key[0])
            panel = self._panels.get(key)
            if table is None or panel is None or (seat := table.seat_of(key[1])) is None:
                return
            if panel_need(panel, table, seat) is not None:
                self._schedule_panel(table, key[1])

        return refresh

    def _new_deal(self, table: LiveTable, user_id: int) -> bool:
        """Whether the member's DM shows an older deal (or none yet)."""
        return self._deal_of(table, user_id) != self._dm_deal.get((table.table_id, user_id))

    def _panel_open(self, key: tuple[int, int]) -> bool:
        """Whether the member has a hand panel whose token can still edit it."""
        panel = self._panels.get(key)
        return panel is not None and self.bot.clock.now() - panel.opened <= PANEL_LIFETIME

    def _follow_deal(self, table: LiveTable) -> None:
        """Notice the end of a deal (a new deal, or the end of the match) and keep its result
        to post; a table restored mid-deal starts following at its current deal."""
        game = table.game
        if game is None or table.record.status not in ("playing", "paused", "finished"):
            self._deals.pop(table.table_id, None)
            return
        view = table.view(None)
        scores = tuple(s.score for s in view.seats)
        seen = self._deals.get(table.table_id)
        if seen is None:
            self._deals[table.table_id] = DealSeen(view.deal, scores, view.events, game.is_over())
            return
        events = new_events(seen.events, view.events)
        if not seen.over and (view.deal != seen.deal or game.is_over()):
            result = DealResult(seen.deal, seen.before, scores, events, view)
            self._deal_results.setdefault(table.table_id, []).append(result)
            self._deals[table.table_id] = DealSeen(view.deal, scores, view.events, game.is_over())
        else:
            seen.events = view.events

    async def _post_deal_results(self, table: LiveTable) -> None:
        record = table.record
        for result in self._deal_results.pop(table.table_id, []):
            if record.message_id is None:
                continue
            channel = self.bot.get_partial_messageable(record.thread_id or record.channel_id)
            embed = deal_result_embed(catalog(record.language), table, result)
            post = functools.partial(channel.send, embed=embed)
            await with_retries(post, f"posting a deal of table {table.table_id}")

    async def _edit_loop(self, table_id: int) -> None:
        try:
            while table_id in self._latest:
                table = self._latest.pop(table_id)
                async with _logged("posting the deal result of table %s", table_id):
                    await self._post_deal_results(table)
                async with _logged("editing the message of table %s", table_id):
                    await self.edit_table_message(table)
        finally:
            del self._editing[table_id]

    async def edit_table_message(self, table: LiveTable) -> None:
        record = table.record
        if record.message_id is None:
            if table.live and opened_in_page(dict(record.options)):
                await self._post_table_message(table)
            return
        if not self.refusals.may_edit(table):
            return
        texts = catalog(record.language)
        files = await self.table_picture(table)
        deadline = self.bot.sessions.deadline(table)
        channel = self.bot.get_partial_messageable(record.thread_id or record.channel_id)
        message = channel.get_partial_message(record.message_id)
        # a card turned for a reaction, drawn in this edit: its window opens once it is seen
        unseen = table.reveal_seq if table.window_unseen else None

        async def edit(files: list[discord.File]) -> discord.Message:
            picture = TABLE_IMAGE if files else None
            shown = table_message(texts, table, deadline, table.ratings, picture)
            for file in files:
                file.reset()  # a try that failed may have read it
            # an older table's message (text and an embed) becomes a layout message here
            return await message.edit(content=None, embeds=[], view=shown, attachments=files)

        what = f"editing the message of table {record.table_id}"
        try:
            try:
                edited = await with_retries(lambda: edit(files), what)
            except discord.HTTPException as error:
                if not self._picture_refused(error, files, f"table {record.table_id}"):
                    raise
                edited = await with_retries(lambda: edit([]), what)  # the text carries the table
        except discord.NotFound:
            log.warning("the message of table %s is gone", record.table_id)
            return
        except discord.Forbidden as error:
            self._spawn(self.refusals.refused(table, error))
            return
        if unseen is not None:
            at = (edited.edited_at or discord.utils.utcnow()).timestamp()
            self._spawn(self._card_seen(table, unseen, at))

    async def _card_seen(self, table: LiveTable, seq: int, acknowledged: float) -> None:
        """The reaction window of the card turned at ``seq`` opens: when Discord acknowledged
        the edit that shows it, or when ``sight`` says it is seen."""
        at: float | None = acknowledged
        if self.sight is not None:
            await self.sight()
            at = None  # seen now
        await self.bot.sessions.reactions.seen(table, seq, at)

    async def _post_table_message(self, table: LiveTable) -> None:
        """The message of a table opened from the web table, posted in its channel and attached
        as ``/spel ny`` does (in the same edit loop, so it is posted once). Where Discord refuses
        it, the table lives on in the page alone."""
        record = table.record
        texts = catalog(record.language)
        shown = table_message(texts, table, self.bot.sessions.deadline(table))
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        try:
            message = await send_table(channel, table, shown)
        except discord.HTTPException as error:
            log.warning("table %s opened in the page has no message: %s", record.table_id, error)
            return
        await self.bot.sessions.attach_message(table, message.id)

    def _picture_refused(
        self, error: discord.HTTPException, files: list[discord.File], what: str
    ) -> bool:
        """Whether an edit that Discord refused may have been refused for its picture (a 400 on
        a request that uploaded one): then it is counted, logged, and tried once without."""
        if error.status != 400 or not files:
            return False
        self.refusals.pictures_dropped += 1
        log.warning(
            "Discord refused the picture of %s (%s %s); edited without it",
            what,
            error.code,
            error.text,
        )
        return True

    async def table_picture(self, table: LiveTable) -> list[discord.File]:
        """The table's picture, from the same spectator view as the text; none in the lobby or
        after the table ended without a result."""
        game = table.game
        if game is None or table.record.status in ("lobby", "ended"):
            return []
        if not await self.bot.pictures(table.record.guild_id):
            return []
        texts = catalog(table.record.language)
        text = renderer(texts, table)
        view = table.view(None)
        trump = trump_line(text, view, table.spec.trick_taking)
        data = table_png(view, text, trump, table=table.table_id)
        return [discord.File(io.BytesIO(data), TABLE_IMAGE)]

    # --- open hand panels -------------------------------------------------------------------------

    def panel_shown(
        self,
        table: LiveTable,
        interaction: discord.Interaction,
        page: int = 0,
        draft: Draft | None = None,
        picture: str | None = None,
    ) -> None:
        """Keep the panel this interaction shows current; call it before responding, and again
        with the ``picture`` (its file name) it is sent with."""
        key = (table.table_id, interaction.user.id)
        seat = table.seat_of(interaction.user.id)
        panel = Panel(
            interaction, page, table.version, self.bot.clock.now(), draft=draft, picture=picture
        )
        if seat is not None:
            self._describe(panel, table, seat)
        self._panels[key] = panel

    def panel_of(self, table_id: int, user_id: int) -> Panel | None:
        """The member's open hand panel at a table, as last shown."""
        return self._panels.get((table_id, user_id))

    @staticmethod
    def _describe(panel: Panel, table: LiveTable, seat: Seat) -> None:
        """Note on ``panel`` what it shows and offers, built now for ``seat``."""
        panel.version = table.version
        panel.shows = panel_shows(table, seat)
        panel.offers = frozenset(panel_choices(table, seat))
        hand = table.hand(seat) if table.game is not None else ()
        panel.hand = tuple(sorted(hand))

    def _schedule_panel(self, table: LiveTable, user_id: int) -> None:
        key = (table.table_id, user_id)
        self._panel_pending[key] = table
        if key not in self._panel_tasks:
            task = asyncio.get_running_loop().create_task(self._panel_loop(key))
            self._panel_tasks[key] = task

    async def _panel_loop(self, key: tuple[int, int]) -> None:
        try:
            while key in self._panel_pending:
                async with _logged("refreshing the panel of %s", key):
                    await self._refresh_panel(self._panel_pending.pop(key), key)
        finally:
            del self._panel_tasks[key]

    async def _refresh_panel(self, table: LiveTable, key: tuple[int, int]) -> None:
        panel = self._panels.get(key)
        seat = table.seat_of(key[1])
        if panel is None:
            return
        if seat is not None and panel_need(panel, table, seat) is None:
            return  # shown meanwhile (the member's own click answered it)
        if seat is None or table.game is None:
            del self._panels[key]  # the member left: the panel stays as it was
            return
        if not table.live:
            del self._panels[key]  # the table is over: one last edit shows the end, no controls
        elif self.bot.clock.now() - panel.opened > PANEL_LIFETIME:
            del self._panels[key]  # its token has expired; My hand opens a new one
            return
        self._describe(panel, table, seat)
        texts = catalog(table.record.language)
        files, picture = await hand_picture(self.bot, table, seat, key[1])
        self._describe(panel, table, seat)  # as built now, should play have moved meanwhile
        draft = panel.draft

        async def edit(picture: str | None, files: list[discord.File]) -> None:
            content, view, panel.draft = panel_for(
                texts, table, seat, page=panel.page, draft=draft, picture=picture is not None
            )
            shown = layout_view(panel_layout(content, view, picture))
            await panel.interaction.edit_original_response(view=shown, attachments=files)
            panel.picture = picture

        try:
            try:
                await edit(picture, files)
            except discord.HTTPException as error:
                if not self._picture_refused(error, files, f"the panel of {key[1]}"):
                    raise
                await edit(None, [])  # its text and buttons carry the hand
        except discord.HTTPException as error:
            log.info("panel of %s at table %s not refreshed: %s", key[1], key[0], error)
            self._panels.pop(key, None)

    # --- turn notices ---------------------------------------------------------------------------

    def _follow_turn(self, table: LiveTable, seat: Seat, user_id: int) -> None:
        """Watch the member's turn: a notice after the grace unless they act first."""
        key = (table.table_id, user_id)
        turn = turn_of(table, seat)
        notice = self._notices.get(key)
        if notice is not None and notice.turn != turn:
            self._turn_ended(key)
            notice = None
        if turn is None or notice is not None:
            return
        grace = min(TURN_NOTICE_GRACE, table.record.turn_seconds / 3)
        notice = TurnNotice(turn)
        notice.timer = self.bot.clock.call_at(
            self.bot.clock.now() + grace, self._notice_callback(key, turn)
        )
        self._notices[key] = notice

    def _turn_ended(self, key: tuple[int, int]) -> None:
        notice = self._notices.pop(key, None)
        if notice is None:
            return
        if notice.timer is not None:
            notice.timer.cancel()
        if notice.mention is not None:
            self._spawn(self._delete_mention(*notice.mention))

    def _notice_callback(self, key: tuple[int, int], turn: tuple[int, int]) -> TimerCallback:
        async def notify() -> None:
            notice = self._notices.get(key)
            if notice is None or notice.turn != turn or notice.sent:
                return
            notice.timer = None
            table = self.bot.sessions.table_by_id(key[0])
            seat = table.seat_of(key[1]) if table is not None else None
            if table is None or seat is None or turn_of(table, seat) != turn:
                return
            if not await self.bot.sessions.choices.get("turn_notices", key[1]):
                return
            notice.sent = True
            async with _logged("telling %s that it is their turn", key):
                await self._send_notice(table, key[1], notice)

        return notify

    async def _send_notice(self, table: LiveTable, user_id: int, notice: TurnNotice) -> None:
        """A DM line (Discord notifies it); with DMs closed, a mention in the table's channel,
        deleted when the turn ends."""
        record = table.record
        texts = catalog(record.language)
        channel_id = record.thread_id or record.channel_id
        link = f"https://discord.com/channels/{record.guild_id}/{channel_id}/{record.message_id}"
        game = game_name(texts, record.game_id)
        if not await self.dm_closed(user_id):
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(texts.text("ui.turn.dm", game=game, link=link))
                return
            except discord.Forbidden as error:
                if error.code != CANNOT_DM:
                    raise
                self._dm_closed[user_id] = True
                await self.bot.storage.set_unreachable(user_id, True)
        channel = self.bot.get_partial_messageable(channel_id)
        sent = await channel.send(
            texts.text("ui.turn.mention", mention=f"<@{user_id}>", game=game),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )
        notice.mention = (channel_id, sent.id)
        if self._notices.get((table.table_id, user_id)) is not notice:  # ended while sending
            await self._delete_mention(channel_id, sent.id)

    async def _delete_mention(self, channel_id: int, message_id: int) -> None:
        async with _logged("deleting the turn mention %s", message_id):
            partial = self.bot.get_partial_messageable(channel_id)
            await partial.get_partial_message(message_id).delete()

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- hands by direct message ----------------------------------------------------------------

    def _schedule_dm(self, table: LiveTable, user_id: int) -> None:
        key = (table.table_id, user_id)
        self._dm_pending[key] = table
        if key not in self._dm_tasks:
            task = asyncio.get_running_loop().create_task(self._dm_loop(key))
            self._dm_tasks[key] = task

    async def _dm_loop(self, key: tuple[int, int]) -> None:
        try:
            while key in self._dm_pending:
                table = self._dm_pending[key]
                new_deal = self._deal_of(table, key[1]) != self._dm_deal.get(key)
                if not new_deal and self.dm_pause > 0:
                    await asyncio.sleep(self.dm_pause)
                table = self._dm_pending.pop(key)
                async with _logged("updating the DM of %s", key):
                    await self._update_dm(table, key[1])
        finally:
            del self._dm_tasks[key]

    def _deal_of(self, table: LiveTable, user_id: int) -> int | None:
        seat = table.seat_of(user_id)
        if seat is None or table.game is None:
            return None
        return table.view(seat).deal

    async def _update_dm(self, table: LiveTable, user_id: int) -> None:
        seat = table.seat_of(user_id)
        if seat is None or table.game is None or await self.dm_closed(user_id):
            return
        key = (table.table_id, user_id)
        texts = catalog(table.record.language)
        guild = self.bot.get_guild(table.record.guild_id)
        content = dm_text(texts, table, seat, guild.name if guild is not None else "")
        shown = layout_view(Layout(head=[content]))
        deal = table.view(seat).deal
        stored = await self.bot.storage.private_copy(table.table_id, user_id)
        try:
            if stored is not None and self._dm_deal.get(key, deal) == deal:
                channel_id, message_id = stored
                partial = self.bot.get_partial_messageable(channel_id)
                dm = partial.get_partial_message(message_id)
                await with_retries(
                    lambda: dm.edit(content=None, view=shown), f"editing the DM of {key}"
                )
            else:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                sent = await with_retries(lambda: user.send(view=shown), f"sending the DM of {key}")
                await self.bot.storage.set_private_copy(
                    table.table_id, user_id, sent.channel.id, sent.id
                )
            self._dm_deal[key] = deal
        except discord.Forbidden as error:
            if error.code != CANNOT_DM:
                raise
            await self._dms_are_closed(table, user_id)

    async def dm_closed(self, user_id: int) -> bool:
        if user_id not in self._dm_closed:
            self._dm_closed[user_id] = await self.bot.storage.unreachable(user_id)
        return self._dm_closed[user_id]

    async def _dms_are_closed(self, table: LiveTable, user_id: int) -> None:
        """Remember it, and tell the member once (in the table's channel) to use My hand."""
        self._dm_closed[user_id] = True
        await self.bot.storage.set_unreachable(user_id, True)
        texts = catalog(table.record.language)
        channel = self.bot.get_partial_messageable(
            table.record.thread_id or table.record.channel_id
        )
        await channel.send(
            texts.text("ui.dm.closed_notice", mention=f"<@{user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
        )

    async def settle(self) -> None:
        """Wait for every edit and DM in flight (used at shutdown)."""
        tasks = [
            *self._editing.values(),
            *self._dm_tasks.values(),
            *self._panel_tasks.values(),
            *self._tasks,
        ]
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
