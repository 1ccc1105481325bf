"""The web table's WebSocket hub: one socket per open page, and a session-manager listener.

A socket first says hello with a session the bot issued (``bot.web.auth``); from then on it acts
for that member only. It watches one table; on every change of that table (``table_changed``) the
hub sends it a fresh ``state`` with the member's own seat's view, or the spectator's. A move sent
by the page goes to the same session manager, through the same checks, as a button in Discord
(``SessionManager.act``; a Hej knekt press to ``press``, timed by the server's clock when it
arrives), so the channel's table message and the web table always show the same match. On a
cluster, a page whose table another process holds is relayed there after its hello (``owners``,
the hub's one seam to the other processes; ``bot.web.cluster``).

Each socket has its own writer: the session manager is never kept waiting by a slow page. A page
that falls behind gets the newest state in place of the ones it had not been sent yet (a state
is the whole table, so nothing is lost but the steps in between). On a change of a table the
pages of one seat, or its spectators, in one language share one state frame.

The hub is on the internet and shares its event loop with every table, timer and database write
of the bot, so no page may cost the others much (``Limits``): each socket and each member has a
budget of messages and bytes that refills with time (a message over it is dropped unread; the
first of a burst is refused in words, and a page that goes on regardless is closed), a member
has a few open pages at most, a page's queue of frames is bounded (a page that reads nothing is
closed), a message too large or nested too deep is refused in words, a refused move is answered
by a small ``refused`` frame (a state only when the page has not been sent the table as it is
now), and the hub yields to the event loop after every message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from aiohttp import WSCloseCode, WSMsgType, web

from bot import opening
from bot.errors import UserError
from bot.i18n import LANGS, Catalog, catalog
from bot.offers import table_act
from bot.options import game_name
from bot.render.text import TextRenderer
from bot.sessions import LiveTable, Member, SessionManager
from bot.settings import Settings
from bot.web import protocol
from bot.web.auth import IssuedSessions, WebUser
from games.core import Seat
from games.registry import SPECS

if TYPE_CHECKING:
    from collections.abc import Iterable

log = logging.getLogger(__name__)

Json = Mapping[str, object]
HELLO_SECONDS = 30.0
"""How long a new socket may take to say hello before it is closed."""
MAX_MESSAGE = 4096
"""The largest message a page sends (a move is a few dozen bytes): larger ones are refused."""
FAREWELL_SECONDS = 5.0
"""How long a page being closed may take to be sent its last words."""
MAX_FRAME = 65536
"""The largest message read at all: beyond it the socket is closed (WebSocket code 1009)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one page and one member may cost the hub. A member clicks a few times a second at
    most; the budgets allow bursts well beyond that and refill with time."""

    messages_per_second: float = 8.0
    message_burst: float = 40.0
    bytes_per_second: float = 16_384.0
    byte_burst: float = 65_536.0
    member_share: float = 1.5
    """A member's budget over all their pages, as a multiple of one page's."""
    pages_per_member: int = 5
    dropped_before_close: int = 200
    """Messages dropped in a row (over the budget) before the page is closed."""
    outbox: int = 64
    """Frames waiting for a page that does not read before it is closed."""


class Budget:
    """A token bucket: ``take`` spends from it if it holds enough, refilled at ``rate``."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = now

    def holds(self, amount: float, now: float) -> bool:
        if now > self.at:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
            self.at = now
        return self.tokens >= amount

    def spend(self, amount: float) -> None:
        self.tokens -= amount


class Budgets:
    """A budget of messages and one of bytes."""

    def __init__(self, limits: Limits, share: float, now: float) -> None:
        self.messages = Budget(
            limits.messages_per_second * share, limits.message_burst * share, now
        )
        self.bytes = Budget(limits.bytes_per_second * share, limits.byte_burst * share, now)

    def holds(self, size: int, now: float) -> bool:
        return self.messages.holds(1, now) and self.bytes.holds(size, now)

    def spend(self, size: int) -> None:
        self.messages.spend(1)
        self.bytes.spend(size)


class Owners(Protocol):
    """Where a page's table is served when the bot runs as several processes
    (``bot.web.cluster.ClusterRelay``): the hub's one seam to the other processes."""

    async def relay(self, watcher: Watcher, channel_id: int | None, table_id: int | None) -> bool:
        """Serves the page (just said hello) through the process that holds its table, until
        it closes; False if this process is the one."""
        ...


class Refused(Exception):
    """A message the hub will not act on: ``web.error.<code>`` in the member's language."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Watcher:
    """One open page: its member, language, the table it watches, and what waits to be sent.

    The queue holds frames, and tables whose state is to be built when it is sent (``send_state``:
    at most one a table, the newest)."""

    def __init__(
        self,
        socket: web.WebSocketResponse,
        user: WebUser,
        lang: str | None,
        *,
        build: Callable[[Watcher, LiveTable], Json],
        budgets: Budgets,
        room: int = 64,
    ) -> None:
        self.socket = socket
        self.user = user
        self.lang = lang
        self.table_id: int | None = None
        self.hello: Json = {}
        """The page's hello, as it sent it (passed on when the page is relayed)."""
        self.channel_id: int | None = None
        """The channel the page was opened in (the Activity's), whose tables it lists."""
        self.guild_id: int | None = None
        """That channel's server, where known: a table may be opened there from the page."""
        self.budgets = budgets
        self.dropped = 0
        """Messages dropped in a row because the page was over its budget."""
        self.shown: tuple[int, int] | None = None
        """The table and version of the last state queued for the page."""
        self._build = build
        self._room = room
        self._outbox: deque[Json | LiveTable] = deque()
        self._wake = asyncio.Event()
        self.finishing = False
        self._letting_go: asyncio.Task[None] | None = None
        self.closed = False

    def send(self, frame: Json) -> None:
        """Queue ``frame``; a ``tables`` list replaces one not sent yet."""
        if frame.get("type") == "tables":
            for i, queued in enumerate(self._outbox):
                if not isinstance(queued, LiveTable) and queued.get("type") == "tables":
                    del self._outbox[i]
                    break
        self._queue(frame)

    def send_state(self, table: LiveTable, frame: Json | None = None) -> None:
        """Queue the state of ``table``: ``frame``, or one built when it is sent. It replaces
        a state of that table not sent yet."""
        self.shown = (table.table_id, table.version)
        for i, queued in enumerate(self._outbox):
            if queued is table or (
                not isinstance(queued, LiveTable)
                and queued.get("type") == "state"
                and queued.get("table_id") == table.table_id
            ):
                del self._outbox[i]
                break
        self._queue(table if frame is None else frame)

    def finish(self, frame: Json) -> None:
        """Sends what is queued and then ``frame``, and closes the socket."""
        self._queue(frame)
        self.finishing = True
        self._wake.set()

    def _queue(self, item: Json | LiveTable) -> None:
        if self.closed or self.finishing:
            return
        if len(self._outbox) >= self._room:
            self._let_go()
            return
        self._outbox.append(item)
        self._wake.set()

    def _let_go(self) -> None:
        """The page reads nothing (its queue is full): its socket is closed, without waiting
        for the page."""
        log.info("web table: a page of member %d stopped reading", self.user.user_id)
        self.stop()
        self._letting_go = asyncio.get_running_loop().create_task(self.abort())

    async def abort(self) -> None:
        """Closes the socket at once, waiting at most a moment for the page."""
        self.stop()
        with contextlib.suppress(ConnectionError, RuntimeError, TimeoutError):
            await asyncio.wait_for(
                self.socket.close(code=WSCloseCode.POLICY_VIOLATION), FAREWELL_SECONDS
            )

    def stop(self) -> None:
        self.closed = True
        self._outbox.clear()
        self._wake.set()

    async def write(self) -> None:
        """Sends what is queued, in order, until the socket closes."""
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox and not self.socket.closed and not self.closed:
                item = self._outbox.popleft()
                try:
                    frame = self._build(self, item) if isinstance(item, LiveTable) else item
                except Exception:  # a bug: logged; the page gets the next state
                    log.exception("web table: a state for member %d failed", self.user.user_id)
                    continue
                try:
                    await self.socket.send_str(json.dumps(frame, ensure_ascii=False))
                except (ConnectionError, RuntimeError):
                    self.closed = True
                    return
            if self.finishing:
                self.closed = True
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await self.socket.close(code=WSCloseCode.POLICY_VIOLATION)


class WebHub:
    """The sockets of every open web table, told of every change by the session manager."""

    def __init__(
        self,
        sessions: SessionManager,
        issued: IssuedSessions,
        *,
        language: str = "sv",
        every_table: bool = False,
        now: Callable[[], float] | None = None,
        limits: Limits | None = None,
        budget_clock: Callable[[], float] = time.monotonic,
        defaults: Settings | None = None,
        owners: Owners | None = None,
    ) -> None:
        """``every_table``: a page that names no channel sees every live table (the demo, where
        the pages run outside Discord); otherwise only its member's own table. ``now``: the
        clock a reaction press is timed by (the session manager's). ``limits``: what a page and
        a member may cost; ``budget_clock``: the clock their budgets refill by (seconds).
        ``defaults``: the bot's settings, whose defaults a table opened from a page takes where
        its server set none (None: no table is opened from a page). ``owners``: on a cluster,
        where each page's table is served (None: here)."""
        self.sessions = sessions
        self.issued = issued
        self.language = language
        self.every_table = every_table
        self.now = now or sessions.clock.now
        self.limits = limits or Limits()
        self.budget_clock = budget_clock
        self.defaults = defaults
        self.owners = owners
        self._watchers: dict[int, set[Watcher]] = {}
        self._open: set[Watcher] = set()
        self._pages: dict[int, int] = {}
        """Open pages per member."""
        self._member_budgets: dict[int, Budgets] = {}
        self._entries: dict[int, tuple[str, tuple[int | None, ...]]] = {}
        """What the pages' lists last said of each live table (its status and seats)."""
        self._windows: dict[int, tuple[int, int]] = {}
        """Per table, the open reaction window: its reveal and the table's version when the
        hub first saw it open (a press sent from an older state is too late)."""

    # --- the listener ---------------------------------------------------------------------------

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        """Every page of the table is sent its state, built now: the pages of one seat (or of
        spectators) in one language share one frame."""
        self._note_window(table)
        frames: dict[tuple[Seat | None, str], Json] = {}
        for watcher in list(self._watchers.get(table.table_id, ())):
            _, lang = self.texts_for(watcher, table)
            key = (table.seat_of(watcher.user.user_id), lang)
            frame = frames.get(key)
            if frame is None:
                frame = frames[key] = self.state(watcher, table)
            watcher.send_state(table, frame)
        self._relist(table)

    def _relist(self, table: LiveTable) -> None:
        """A fresh ``tables`` list to the pages that list ``table``, when what the list says of
        it changed: it opened, someone sat down or left, it started, it closed."""
        record = table.record
        entry = (record.status, tuple(s.user_id for s in record.seats))
        if self._entries.get(table.table_id) == entry:
            return
        if table.live:
            self._entries[table.table_id] = entry
        else:
            self._entries.pop(table.table_id, None)
        members = {s.user_id for s in record.seats}
        for watcher in list(self._open):
            if watcher.channel_id == record.channel_id or (
                watcher.channel_id is None and (self.every_table or watcher.user.user_id in members)
            ):
                watcher.send(self.tables(watcher, watcher.channel_id))

    def watching(self, table_id: int) -> int:
        """How many pages watch the table."""
        return len(self._watchers.get(table_id, ()))

    async def close(self) -> None:
        """Closes every open socket: the bot is stopping (the pages come back by themselves)."""
        for watcher in list(self._open):
            await watcher.socket.close(code=WSCloseCode.GOING_AWAY)

    def _note_window(self, table: LiveTable) -> None:
        if table.reveal_at is None:
            self._windows.pop(table.table_id, None)
            return
        seen = self._windows.get(table.table_id)
        if seen is None or seen[0] != table.reveal_seq:
            self._windows[table.table_id] = (table.reveal_seq, table.version)

    # --- frames ---------------------------------------------------------------------------------

    def texts_for(self, watcher: Watcher, table: LiveTable | None = None) -> tuple[Catalog, str]:
        """The member's language: the one the page asked for, else the table's, else the bot's."""
        lang = watcher.lang or (table.record.language if table is not None else self.language)
        if lang not in LANGS:
            lang = self.language
        return catalog(lang), lang

    def state(self, watcher: Watcher, table: LiveTable) -> Json:
        texts, lang = self.texts_for(watcher, table)
        return protocol.state(self.sessions, table, watcher.user.user_id, texts, lang)

    def refusal(self, watcher: Watcher, key: str, code: str, **args: object) -> Json:
        table = self._table(watcher.table_id)
        texts, _ = self.texts_for(watcher, table)
        return {"type": "refused", "code": code, "message": texts.text(key, **args)}

    def refused(self, watcher: Watcher, error: UserError) -> Json:
        """A refusal in the member's language, in the panel's words (why a move may not be made,
        its cards written as cards)."""
        table = self._table(watcher.table_id)
        texts, _ = self.texts_for(watcher, table)
        code = error.msg.key.removeprefix("errors.")
        return {"type": "refused", "code": code, "message": TextRenderer(texts, ()).msg(error.msg)}

    def tables(self, watcher: Watcher, channel_id: int | None) -> Json:
        texts, _ = self.texts_for(watcher)
        user_id = watcher.user.user_id
        listed = [
            protocol.table_entry(texts, t, user_id) for t in self._listed(channel_id, user_id)
        ]
        return {"type": "tables", "tables": listed, "games": self._games(watcher, texts)}

    def _games(self, watcher: Watcher, texts: Catalog) -> list[dict[str, str]]:
        """The games the page may open a table for: in its own channel of a known server, while
        that channel has no table."""
        if (
            self.defaults is None
            or watcher.channel_id is None
            or watcher.guild_id is None
            or self.sessions.table_in(watcher.channel_id) is not None
        ):
            return []
        named = ((game_name(texts, game_id), game_id) for game_id in SPECS)
        return [{"id": game_id, "name": name} for name, game_id in sorted(named)]

    def _listed(self, channel_id: int | None, user_id: int) -> Iterable[LiveTable]:
        if channel_id is not None:
            table = self.sessions.table_in(channel_id)
            return [table] if table is not None else []
        if self.every_table:
            return sorted(self.sessions.live_tables(), key=lambda t: t.table_id)
        own = self.sessions.table_of(user_id)
        return [own] if own is not None else []

    def _table(self, table_id: int | None) -> LiveTable | None:
        return self.sessions.table_by_id(table_id) if table_id is not None else None

    # --- a socket -------------------------------------------------------------------------------

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """The life of one socket: hello, then messages until the page goes."""
        socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME)
        await socket.prepare(request)
        hello = await self._hello(socket)
        if hello is None:
            return socket
        watcher, channel_id, table_id = hello
        if self.owners is not None and await self.owners.relay(watcher, channel_id, table_id):
            return socket  # served by the process that holds the table
        user_id = watcher.user.user_id
        if self._pages.get(user_id, 0) >= self.limits.pages_per_member:
            self._close(watcher, "too_many_pages")
            await watcher.write()
            return socket
        self._pages[user_id] = self._pages.get(user_id, 0) + 1
        writer = asyncio.create_task(watcher.write(), name=f"web socket {user_id}")
        self._open.add(watcher)
        try:
            watcher.send(self.tables(watcher, channel_id))
            if table_id is not None:
                self._answer(watcher, await self._watch(watcher, channel_id, table_id))
            async for message in socket:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    break  # an error or the page's close
                if watcher.closed:
                    break
                data = message.data
                if not self._admit(watcher, len(data)):
                    if watcher.dropped > self.limits.dropped_before_close:
                        self._close(watcher, "too_fast")
                        break
                    continue
                if not isinstance(data, str):
                    watcher.send(self.refusal(watcher, "web.error.bad_message", "bad_message"))
                elif len(data) > MAX_MESSAGE:
                    watcher.send(self.refusal(watcher, "web.error.too_big", "too_big"))
                else:
                    self._answer(watcher, await self._handle(watcher, channel_id, data))
                await asyncio.sleep(0)  # the other pages and tables go on between messages
        finally:
            self._open.discard(watcher)
            self._unwatch(watcher)
            self._pages[user_id] -= 1
            if not self._pages[user_id]:
                del self._pages[user_id]
            if not watcher.finishing:
                watcher.stop()
            try:  # a page being closed is sent its last words, unless it reads nothing
                await asyncio.wait_for(writer, FAREWELL_SECONDS)
            except TimeoutError:
                await watcher.abort()
        return socket

    def _admit(self, watcher: Watcher, size: int) -> bool:
        """Whether a message of ``size`` bytes fits the page's budget and its member's; spent
        from both if so. The first message of a burst over it is refused in words; the rest
        are dropped unread."""
        now = self.budget_clock()
        member = self._member_budgets.get(watcher.user.user_id)
        if member is None:
            if len(self._member_budgets) > 4 * len(self._open) + 1024:
                self._forget_budgets()
            member = Budgets(self.limits, self.limits.member_share, now)
            self._member_budgets[watcher.user.user_id] = member
        if watcher.budgets.holds(size, now) and member.holds(size, now):
            watcher.budgets.spend(size)
            member.spend(size)
            watcher.dropped = 0
            return True
        watcher.dropped += 1
        if watcher.dropped == 1:
            watcher.send(self.refusal(watcher, "web.error.too_fast", "too_fast"))
        return False

    def _forget_budgets(self) -> None:
        """Drops the budgets of members with no open page."""
        for user_id in [u for u in self._member_budgets if u not in self._pages]:
            del self._member_budgets[user_id]

    def _close(self, watcher: Watcher, code: str) -> None:
        """Tells the page why in words, after what it was sent already, and closes its socket."""
        texts, _ = self.texts_for(watcher, self._table(watcher.table_id))
        watcher.finish({"type": "error", "code": code, "message": texts.text(f"web.error.{code}")})

    async def _hello(
        self, socket: web.WebSocketResponse
    ) -> tuple[Watcher, int | None, int | None] | None:
        """The socket's hello, checked; None (the socket answered and closed) if it is not one
        with a session the bot issued."""
        try:
            message = await socket.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            message = None
        hello = (
            _json(message.data)
            if message is not None
            and message.type == WSMsgType.TEXT
            and len(message.data) <= MAX_MESSAGE
            else None
        )
        lang = hello.get("lang") if hello is not None else None
        lang = lang if isinstance(lang, str) and lang in LANGS else None
        user = self.issued.user_of(hello.get("session")) if hello is not None else None
        if hello is None or hello.get("type") != "hello" or user is None:
            texts = catalog(lang or self.language)
            error = {
                "type": "error",
                "code": "no_session",
                "message": texts.text("web.error.no_session"),
            }
            if not socket.closed:
                with contextlib.suppress(ConnectionError):
                    await socket.send_str(json.dumps(error, ensure_ascii=False))
                await socket.close()
            return None
        now = self.budget_clock()
        watcher = Watcher(
            socket,
            user,
            lang,
            build=self.state,
            budgets=Budgets(self.limits, 1.0, now),
            room=self.limits.outbox,
        )
        # the channel the session was issued in (Discord's word, or the demo's), never the page's
        place = self.issued.place_of(hello.get("session"))
        if place is not None:
            watcher.channel_id, watcher.guild_id = place.channel_id, place.guild_id
        watcher.hello = hello
        return watcher, watcher.channel_id, _id(hello.get("table_id"))

    def _answer(self, watcher: Watcher, frame: Json | None) -> None:
        if frame is not None:
            watcher.send(frame)

    async def _handle(self, watcher: Watcher, channel_id: int | None, data: str) -> Json | None:
        message = _json(data)
        kind = message.get("type") if message is not None else None
        if message is None or not isinstance(kind, str):
            return self.refusal(watcher, "web.error.bad_message", "bad_message")
        if kind not in ("watch", "join", "act", "open"):
            return self.refusal(watcher, "web.error.unknown_type", "unknown_type")
        if kind == "open":
            return await self._opening(watcher, message)
        table_id = _id(message.get("table_id"))
        if table_id is None:
            return self.refusal(watcher, "web.error.bad_message", "bad_message")
        try:
            if kind == "watch":
                return await self._watch(watcher, channel_id, table_id)
            if kind == "join":
                return await self._join(watcher, channel_id, table_id)
            return await self._act(watcher, table_id, message)
        except Refused as refused:
            watcher.send(self.refusal(watcher, f"web.error.{refused.code}", refused.code))
        except UserError as error:
            watcher.send(self.refused(watcher, error))
        except Exception:  # a bug: logged, and the page is still answered
            log.exception("web table: a %s from member %d failed", kind, watcher.user.user_id)
            watcher.send(self.refusal(watcher, "errors.internal", "internal"))
        table = self._table(watcher.table_id)
        if kind == "act" and table is not None and watcher.shown != (table.table_id, table.version):
            watcher.send_state(table)  # the page had not been sent the table as it is now
        return None

    async def _opening(self, watcher: Watcher, message: Json) -> Json | None:
        """``open``: a table in the page's own channel, refused in words where it may not be."""
        try:
            return await self._open_table(watcher, message.get("game"))
        except Refused as refused:
            return self.refusal(watcher, f"web.error.{refused.code}", refused.code)
        except UserError as error:
            return self.refused(watcher, error)

    async def _open_table(self, watcher: Watcher, game_id: object) -> Json | None:
        """A table opened as ``/spel ny`` opens it (``bot.opening``), in the channel Discord
        bound the page's session to, never one the page names; the page then watches it."""
        if not isinstance(game_id, str) or len(game_id) > 100:
            raise Refused("bad_message")
        if self.defaults is None or watcher.channel_id is None or watcher.guild_id is None:
            raise Refused("no_channel")
        texts, _ = self.texts_for(watcher)
        server = await self.sessions.storage.guild_settings(watcher.guild_id)
        request = opening.check_request(
            self.defaults, server, texts, channel_id=watcher.channel_id, game_id=game_id
        )
        host = Member(watcher.user.user_id, watcher.user.name)
        table = await opening.open_requested(self.sessions, request, host, from_page=True)
        return await self._watch(watcher, watcher.channel_id, table.table_id)

    def _reachable(self, watcher: Watcher, channel_id: int | None, table_id: int) -> LiveTable:
        """The table, if this page may see it: a table of its channel, the member's own table,
        or in the demo any table."""
        table = self.sessions.table_by_id(table_id)
        if table is None:
            raise UserError("table_gone")
        user_id = watcher.user.user_id
        if (
            table.record.channel_id != channel_id
            and table.seat_of(user_id) is None
            and not self.every_table
        ):
            raise Refused("not_here")
        return table

    async def _watch(self, watcher: Watcher, channel_id: int | None, table_id: int) -> Json | None:
        try:
            table = self._reachable(watcher, channel_id, table_id)
        except Refused as refused:
            return self.refusal(watcher, f"web.error.{refused.code}", refused.code)
        except UserError as error:
            return self.refused(watcher, error)
        self._unwatch(watcher)
        watcher.table_id = table.table_id
        self._watchers.setdefault(table.table_id, set()).add(watcher)
        self._note_window(table)
        watcher.send_state(table)
        return None

    async def _join(self, watcher: Watcher, channel_id: int | None, table_id: int) -> Json | None:
        table = self._reachable(watcher, channel_id, table_id)
        member = Member(watcher.user.user_id, watcher.user.name)
        await table_act(self.sessions, table, member, "join")
        return await self._watch(watcher, channel_id, table_id)

    async def _act(self, watcher: Watcher, table_id: int, message: Json) -> Json:
        if table_id != watcher.table_id:
            raise Refused("not_watching")
        version, notation = message.get("version"), message.get("notation")
        if (
            not isinstance(version, int)
            or isinstance(version, bool)
            or not isinstance(notation, str)
            or not notation.strip()
            or len(notation) > 200
        ):
            raise Refused("bad_message")
        table = self.sessions.table_by_id(table_id)
        if table is None:
            raise UserError("table_gone")
        user_id = watcher.user.user_id
        notation = " ".join(notation.split())
        if table.record.status == "lobby":
            await self._lobby_act(table, watcher.user, version, notation)
        elif table.reveal_at is not None and " " not in notation:  # a press (Hej knekt)
            await self._press(table, user_id, version, notation)
        else:
            await self.sessions.act(table_id, user_id, version, notation)
        return {"type": "ack", "version": table.version}

    async def _lobby_act(self, table: LiveTable, user: WebUser, version: int, op: str) -> None:
        """The lobby's own actions, done as the table message's buttons do them
        (``bot.offers.table_act``); from the state the member saw (``version``), so a second
        click is refused, never done twice."""
        seat = table.seat_of(user.user_id)
        if seat is None:
            raise UserError("not_seated")
        if version != table.version:
            raise UserError("stale_panel")
        if op not in protocol.offered(table, seat):
            raise UserError("illegal_action")
        await table_act(self.sessions, table, Member(user.user_id, user.name), op)

    async def _press(self, table: LiveTable, user_id: int, version: int, verb: str) -> None:
        """A reaction press, timed now by the server's clock (rules/party.md 1.5). A press sent
        from a state older than the window's opening belongs to an earlier card: too late."""
        if version > table.version:
            raise UserError("stale_panel")  # a version from the future is forged
        self._note_window(table)
        reveal_seq, opened = self._windows.get(table.table_id, (table.reveal_seq, table.version))
        if version < opened:
            reveal_seq -= 1
        await self.sessions.press(table.table_id, user_id, reveal_seq, verb, self.now())

    def _unwatch(self, watcher: Watcher) -> None:
        if watcher.table_id is None:
            return
        watchers = self._watchers.get(watcher.table_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[watcher.table_id]
        watcher.table_id = None


def _json(data: object) -> Json | None:
    """A JSON object sent by a page, or None for anything else."""
    if not isinstance(data, str):
        return None
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than Python goes
        return None
    return value if isinstance(value, dict) else None


def _id(value: object) -> int | None:
    """An id as a page sends it: a whole number, or a string of digits (Discord's 64-bit ids)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) <= 20:
        return int(value)
    return None
