"""``kortbord demo``: the same bot against SimCord's simulated Discord, in a local browser page.

No token and no network: SimCord runs discord.py against an in-memory Discord, and its preview
serves the channel on 127.0.0.1 with a few simulated members you can switch between. The web table
(the Discord Activity's page) is served beside it on a free local port, with a member picker in
place of Discord's sign-in (the demo only): a move in either shows in both. Simulated
time follows the wall clock here (a tick every half second), so turn deadlines, computer players
and Hej knekt's reaction times behave as on Discord; the bot's timers run on the simulated clock
alone (``SimulatedClock``), so however busy the machine, a step waits for the bot's work and a
timer falls due only when the clock reaches it. A card turned in Hej knekt opens its reaction
window when the page shows it (``PageSight``). The page keeps the pictures of the states it has
read while the bot edits on (``_KeptPictures``), and has each at once (``_decoded_at_once``). The
database is a temporary file.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import logging
import sys
import tempfile
import time
import webbrowser
from collections import deque
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.discord.client import Kortbord
from bot.discord.clock import SimulatedClock
from bot.settings import Settings
from bot.web.auth import WebUser
from bot.web.server import WebFace

if TYPE_CHECKING:
    from simcord import ChannelHandle, Env, MemberActor, Preview
    from simcord.preview._media import MediaWorker
    from simcord.preview._pages import _Page

log = logging.getLogger(__name__)

MEMBERS = ("Anna", "Bo", "Cilla", "Dag")
TICK = 0.5  # seconds of wall-clock time between moves of the simulated clock
SETTLE = 60.0
"""Seconds SimCord gives the bot's work after a click or a step of the clock (its
``settle_timeout``): a bound for a bot that hangs, not a pace. The bot's timers wait for the
simulated clock (``SimulatedClock``), so settling waits for the work alone, and a busy machine
makes a click slower, never refused. Below the libraries' own housekeeping timers (a database
connection idle for 300 s), which SimCord would wait out by the wall clock."""

KEPT_READS = 4
"""How many of a page's latest reads of the channel keep their pictures fetchable
(``_KeptPictures``): the page fetches a picture after it read the state that names it, reads again
half a second after its last read, and a fetch may wait for the picture's decoding; four reads
leave a slow fetch its time, and a page keeps a few pictures, not a match's."""

ON_THE_PAGE_AS_IT_IS = frozenset(
    (
        "click",
        "select",
        "modal_submit",
        "configure_presentation",
        "run_command",
        "autocomplete_command",
        "history",
        "browse_messages",
        "browse_candidates",
    )
)
"""The page's actions that the demo makes on the page as it is (``_Shown.current``)."""

MISSING = """\
The demo needs SimCord's preview, which is not installed here.
Run it with `./dev demo`, which installs everything it needs."""


def demo(settings: Settings, *, port: int | None, open_browser: bool) -> int:
    if importlib.util.find_spec("simcord") is None or importlib.util.find_spec("aiohttp") is None:
        print(MISSING, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C is how the demo is stopped
        asyncio.run(_demo(settings, port, open_browser))
    return 0


@dataclass
class Simulated:
    """The demo's simulated Discord with the bot on it, before its page is served."""

    env: Env
    bot: Kortbord
    channel: ChannelHandle
    members: list[MemberActor]
    web: WebFace
    sight: PageSight


class PageSight:
    """When the page has shown the channel as it is: a turned card's reaction window waits for
    it (the bot's ``sight``), so the member has the whole window from when the card is on the
    page, however long the machine took to show it."""

    def __init__(self) -> None:
        self.env: Env | None = None
        self._waiting: list[asyncio.Future[None]] = []

    async def wait(self) -> None:
        """Until the page is next brought up to date with the channel."""
        seen = asyncio.get_running_loop().create_future()
        self._waiting.append(seen)
        if self.env is None:
            await seen
        else:
            await self.env.external_wait(seen, reason="the demo's page showing the card")

    def shown(self) -> None:
        """The page shows the channel as it is now: what waited for it goes on."""
        waiting, self._waiting = self._waiting, []
        for seen in waiting:
            if not seen.done():
                seen.set_result(None)


@contextlib.asynccontextmanager
async def simulated(settings: Settings, **bot_options: Any) -> AsyncIterator[Simulated]:
    """The bot on SimCord as the demo runs it (``bot_options`` go to the bot: a test's seeded
    source of deals): a guild with a channel and the members, the web table beside it, a
    temporary database."""
    import simcord

    with tempfile.TemporaryDirectory(prefix="kortbord-demo-") as folder:
        demo_settings = settings.model_copy(
            update={"database": Path(folder) / "demo.sqlite3", "token": None}
        )
        members_shown: list[WebUser] = []
        web = WebFace(demo_settings, port=0, host="127.0.0.1", demo_members=members_shown)
        clock, sight = SimulatedClock(), PageSight()
        # no pause between DM edits: the simulated Discord has no rate limit to spare
        options: dict[str, Any] = {"clock": clock, "sight": sight.wait, "dm_pause": 0.0}
        bot = Kortbord(demo_settings, **{**options, **bot_options})
        try:
            async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE) as env:
                clock.attach(env)
                sight.env = env
                populated = await _populated(env, bot, web, members_shown, sight)
                try:
                    yield populated
                finally:
                    await web.stop()
        finally:
            # the database's thread ends before its folder goes, however the demo stopped
            if hasattr(bot, "storage"):
                await bot.storage.close()


async def _populated(
    env: Env, bot: Kortbord, web: WebFace, members_shown: list[WebUser], sight: PageSight
) -> Simulated:
    """The guild, its channel and members, and the web table serving them."""
    await bot.tree.sync()
    guild = env.create_guild(name="Kortbord")
    channel = guild.create_text_channel("kortbord")
    members = [
        guild.add_member(env.create_user(name.lower(), global_name=name)) for name in MEMBERS
    ]
    members_shown.extend(WebUser(m.id, name) for m, name in zip(members, MEMBERS, strict=True))
    # Started from outside the bot's own work, on the simulated clock: a page's socket waits for
    # the page, which SimCord must not wait for, and presses and deadlines are timed on the
    # channel's clock.
    with env.time_context():
        await web.start(bot.sessions, bot.application_id)
    return Simulated(env, bot, channel, members, web, sight)


async def _demo(settings: Settings, port: int | None, open_browser: bool) -> None:
    async with simulated(settings) as demo:
        preview = demo.env.preview(demo.channel, viewers=demo.members, layout="channel", port=port)
        async with preview:
            print(f"Kortbord demo: open {preview.url}")
            guild = demo.channel.guild
            where = f"?channel_id={demo.channel.id}"
            if guild is not None:
                where += f"&guild_id={guild.id}"
            print(f"The web table: http://127.0.0.1:{demo.web.port}/{where}")
            print("Type /spel ny in the channel, pick a game, add computer players, start;")
            print("then Min hand opens your cards and choices.")
            print("Switch between the simulated members at the top of the page. Ctrl-C stops.")
            if open_browser:
                webbrowser.open(preview.url)
            await _follow_the_clock(demo.env, preview, demo.channel, sight=demo.sight)


async def _follow_the_clock(
    env: Env,
    preview: Preview,
    channel: ChannelHandle,
    *,
    tick: float = TICK,
    now: Callable[[], float] = time.monotonic,
    sight: PageSight | None = None,
) -> None:
    """Move simulated time with the wall clock, and show the page what the bot did meanwhile.

    The page's actions and the steps take turns (``_Shown``). A step that does not settle in
    time (SimCord's ``TimeoutError``: the bot busy for longer than ``SETTLE``) is retried at the
    next tick: the demo goes on, with the time
    it missed caught up then. That is no fault, so it is not shown among the demo's warnings.
    """
    from simcord import SetupError

    shown = _Shown(preview, channel, sight)
    last = now()
    while True:
        try:
            await asyncio.wait_for(preview.wait_closed(), tick)
            return
        except TimeoutError:
            pass
        moment = now()
        try:
            async with shown.turn:
                await env.advance_time(moment - last)
                last = moment
                await shown.catch_up()
        except SetupError:
            continue  # SimCord is busy with something else: try again at the next tick
        except TimeoutError:
            log.info("the bot was busy beyond the settle time; the clock catches up next tick")
            continue


class _Shown:
    """What the page has been shown of the channel, and the turn that the page's actions and the
    steps of the clock take.

    SimCord carries out one operation at a time (a click, a step of the clock, a refresh) and
    refuses one that comes during another; the page takes a refused action's outcome as
    uncertain and takes no more clicks until it is reloaded. So an action the page sends during
    a step waits for the step to end (the bot's work that the step set off, and no timer beyond it).
    Once the page shows the channel as it is, what waits for that (``PageSight``) goes on.

    The page is republished only when the channel changed: every publication makes the page's
    previous revision stale, and a click on a stale revision is not carried out. An action that
    changed the channel republishes the page before it is answered, so the page reads the new
    revision at once: republished at the next tick instead, it would refuse the member's next
    click, made on the revision the action left.
    """

    def __init__(
        self, preview: Preview, channel: ChannelHandle, sight: PageSight | None = None
    ) -> None:
        self.preview, self.channel, self.sight = preview, channel, sight
        self.turn = asyncio.Lock()
        self.fingerprint = _fingerprint(channel)
        self.pictures = _KeptPictures(preview)
        preview._media_worker = _decoded_at_once()
        act = preview._action  # what the page's server calls for every action it is sent

        from simcord import SetupError

        async def in_turn(context_id: str | None, body: Mapping[str, Any]) -> dict[str, Any]:
            async with self.turn:
                answer = await act(context_id, self.current(context_id, body))
                with contextlib.suppress(SetupError, TimeoutError):  # the next tick tries again
                    await self.catch_up()
                return answer

        preview._action = in_turn  # type: ignore[method-assign]

    def current(self, context_id: str | None, body: Mapping[str, Any]) -> Mapping[str, Any]:
        """An action made on the page as it was a moment before a republication is made on the
        page as it is: computer players republish it all the time, and SimCord would refuse the
        action as made on an old page.

        - A click: in Hej knekt the presses republish the page while the member reaches for the
          button. Each button's id carries the table's version or the card it answers, so the
          bot itself refuses one that no longer applies, and says why.
        - The page's own setting of its width, its first action: refused, a phone was shown the
          channel 960 px wide.
        - A slash command typed, earlier messages loaded: neither depends on what the page
          showed."""
        from simcord import SetupError

        if body.get("kind") not in ON_THE_PAGE_AS_IT_IS:
            return body
        try:
            revision = self.preview._get_page(context_id).revision
        except SetupError:
            return body  # an unknown page: SimCord answers it as such
        return {**body, "published_revision": revision}

    async def catch_up(self) -> None:
        """Republish the page if the channel changed since the page was last shown it."""
        if _fingerprint(self.channel) != self.fingerprint:
            await self.preview.refresh()
            self.fingerprint = _fingerprint(self.channel)
        if self.sight is not None:
            self.sight.shown()


class _KeptPictures:
    """The pictures a page has read stay fetchable while the channel moves on.

    Every edit of a table message uploads its picture anew, as a new attachment of the message.
    SimCord's preview serves a page an attachment only while the message still carries it and
    while the page's latest publication names it. The page fetches a picture once it has read the
    state that names it, and meanwhile the bot may have edited the message (the picture was gone:
    "Gallery item 1 unavailable"), or the demo republished the page (gone too); a state read
    between an edit and the republication named no picture at all. So a page keeps the pictures
    of the states it read last (``KEPT_READS``), and serves them though the message has a newer
    one since, to a viewer who may still read the message.

    SimCord offers no setting for this: its preview's own steps are wrapped, as ``_Shown`` wraps
    its actions.
    """

    def __init__(self, preview: Preview, reads: int = KEPT_READS) -> None:
        from simcord import SetupError

        self.preview = preview
        self.read: dict[str, deque[frozenset[str]]] = {}
        self.reads = reads
        payload, reconcile = preview._page_payload, preview._reconcile_assets
        authorize = preview._authorize_attachment_source

        def page_read(page: _Page) -> dict[str, Any]:
            shown = payload(page)
            kept = self.read.setdefault(page.id, deque(maxlen=self.reads))
            kept.append(frozenset(shown.get("assets", {})))
            return shown

        def keep_read(page: _Page) -> None:
            for gone in self.read.keys() - preview._pages.keys():
                del self.read[gone]
            for assets in self.read.get(page.id, ()):
                page.referenced_assets.update(a for a in assets if a in page.assets)
            reconcile(page)

        def replaced_too(page: _Page, source: tuple[Any, ...], digest: str | None) -> None:
            try:
                authorize(page, source, digest)
            except SetupError:
                if not self.replaced(page, source):
                    raise

        preview._page_payload = page_read  # type: ignore[method-assign]
        preview._reconcile_assets = keep_read  # type: ignore[method-assign]
        preview._authorize_attachment_source = replaced_too  # type: ignore[method-assign]

    def replaced(self, page: _Page, source: tuple[Any, ...]) -> bool:
        """Whether the attachment of a picture the page keeps was replaced by a newer one on a
        message the page's viewer may still read (a deleted message, or one the viewer may no
        longer read, keeps nothing)."""
        from simcord import BackendError
        from simcord.backend.access import can_access_message

        _, channel_id, message_id, attachment_id, *forwarded = source
        if forwarded:  # a forwarded message's picture is never replaced
            return False
        try:
            message = self.preview.env.backend.get_message(channel_id, message_id)
        except BackendError:
            return False
        readable = can_access_message(
            self.preview.env, channel_id, message, page.viewer, history=True
        )
        carried = {str(a.get("id", "")) for a in message.attachments}
        return readable and attachment_id not in carried


PNG = b"\x89PNG\r\n\x1a\n"


def _decoded_at_once() -> MediaWorker:
    """The preview's media worker, with a PNG (the bot's pictures) decoded in a thread of the demo
    instead of a process started for each picture. SimCord checks each picture before it serves
    it; with a process per picture, one after the other, a busy machine took 0.3 to 2 s a
    picture, and in a game whose table changes every half second (Snipp snapp snorum) the page
    showed a broken image most of the time. The checks are the same (SimCord's own), and any
    other media goes to the process as before.

    The process is held to 512 MiB of memory; a PNG decoded here is held by SimCord's own limit
    of 16 megapixels a frame, decoded one frame at a time (at most 64 MiB), so it is reported as
    held too, and the page raises no warning for each picture."""
    from simcord.preview._media import MediaInfo, MediaWorker, _process_media

    class AtOnce(MediaWorker):
        async def validate(
            self, key: str, blob: bytes, *, media_time: float | None = None
        ) -> MediaInfo:
            if not blob.startswith(PNG):
                return await super().validate(key, blob, media_time=media_time)
            checked = await asyncio.to_thread(_process_media, blob, media_time)
            return replace(checked, memory_limited=True)

    return AtOnce()


def _fingerprint(channel: ChannelHandle) -> int:
    """What the channel shows: each message's text, embeds, layout components (a table message
    is all components) and attachments (a table message's picture is uploaded anew with every
    edit), so any change refreshes the preview."""
    return hash(
        tuple(
            (
                m.id,
                m.content,
                repr([e.to_dict() for e in m.embeds]),
                repr([c.to_dict() for c in m.components]),
                tuple(a.id for a in m.attachments),
            )
            for m in channel.history()
        )
    )
