"""The web table's WebSocket hub: one socket per open page, and a session-manager listener.

A socket first says hello with a session the bot issued (``bot.web.auth``); from then on it acts
for that member only. It watches one table; on every change of that table (``table_changed``) the
hub sends it a fresh ``state`` with the member's own seat's view, or the spectator's. A move sent
by the page goes to the same session manager, through the same checks, as a button in Discord
(``SessionManager.act``; a Hej knekt press to ``press``, timed by the server's clock when it
arrives), so the channel's table message and the web table always show the same match.

Each socket has its own writer: the session manager is never kept waiting by a slow page. A page
that falls behind gets the newest state in place of the ones it had not been sent yet (a state
is the whole table, so nothing is lost but the steps in between).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from aiohttp import WSCloseCode, WSMsgType, web

from bot.errors import UserError
from bot.i18n import LANGS, Catalog, catalog
from bot.offers import table_act
from bot.render.text import TextRenderer
from bot.sessions import LiveTable, Member, SessionManager
from bot.web import protocol
from bot.web.auth import IssuedSessions, WebUser
from games.core import Seat

if TYPE_CHECKING:
    from collections.abc import Iterable

log = logging.getLogger(__name__)

Json = Mapping[str, object]
HELLO_SECONDS = 30.0
"""How long a new socket may take to say hello before it is closed."""
MAX_MESSAGE = 4096
"""The largest message a page sends (a move is a few dozen bytes)."""


class Refused(Exception):
    """A message the hub will not act on: ``web.error.<code>`` in the member's language."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Watcher:
    """One open page: its member, language, the table it watches, and what waits to be sent."""

    def __init__(self, socket: web.WebSocketResponse, user: WebUser, lang: str | None) -> None:
        self.socket = socket
        self.user = user
        self.lang = lang
        self.table_id: int | None = None
        self.channel_id: int | None = None
        """The channel the page was opened in (the Activity's), whose tables it lists."""
        self._outbox: deque[Json] = deque()
        self._wake = asyncio.Event()
        self.closed = False

    def send(self, frame: Json) -> None:
        """Queue ``frame``; a state replaces a state of the same table not sent yet."""
        if frame.get("type") == "state":
            for i, queued in enumerate(self._outbox):
                if queued.get("type") == "state" and queued.get("table_id") == frame["table_id"]:
                    del self._outbox[i]
                    break
        self._outbox.append(frame)
        self._wake.set()

    def stop(self) -> None:
        self.closed = True
        self._wake.set()

    async def write(self) -> None:
        """Sends what is queued, in order, until the socket closes."""
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox and not self.socket.closed:
                frame = self._outbox.popleft()
                try:
                    await self.socket.send_str(json.dumps(frame, ensure_ascii=False))
                except (ConnectionError, RuntimeError):
                    self.closed = True
                    return


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
    ) -> None:
        """``every_table``: a page that names no channel sees every live table (the demo, where
        the pages run outside Discord); otherwise only its member's own table. ``now``: the
        clock a reaction press is timed by (the session manager's)."""
        self.sessions = sessions
        self.issued = issued
        self.language = language
        self.every_table = every_table
        self.now = now or sessions.clock.now
        self._watchers: dict[int, set[Watcher]] = {}
        self._open: set[Watcher] = set()
        self._entries: dict[int, tuple[str, tuple[int | None, ...]]] = {}
        """What the pages' lists last said of each live table (its status and seats)."""
        self._windows: dict[int, tuple[int, int]] = {}
        """Per table, the open reaction window: its reveal and the table's version when the
        hub first saw it open (a press sent from an older state is too late)."""

    # --- the listener ---------------------------------------------------------------------------

    async def table_changed(self, table: LiveTable, hands: frozenset[Seat]) -> None:
        self._note_window(table)
        for watcher in list(self._watchers.get(table.table_id, ())):
            watcher.send(self.state(watcher, table))
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
        return {
            "type": "tables",
            "tables": [
                protocol.table_entry(texts, t, user_id) for t in self._listed(channel_id, user_id)
            ],
        }

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
        socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_MESSAGE)
        await socket.prepare(request)
        hello = await self._hello(socket)
        if hello is None:
            return socket
        watcher, channel_id, table_id = hello
        writer = asyncio.create_task(watcher.write(), name=f"web socket {watcher.user.user_id}")
        self._open.add(watcher)
        try:
            watcher.send(self.tables(watcher, channel_id))
            if table_id is not None:
                self._answer(watcher, await self._watch(watcher, channel_id, table_id))
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    if message.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                        break
                    watcher.send(self.refusal(watcher, "web.error.bad_message", "bad_message"))
                    continue
                self._answer(watcher, await self._handle(watcher, channel_id, message.data))
        finally:
            self._open.discard(watcher)
            self._unwatch(watcher)
            watcher.stop()
            await writer
        return socket

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
            _json(message.data) if message is not None and message.type == WSMsgType.TEXT else None
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
        watcher = Watcher(socket, user, lang)
        watcher.channel_id = _id(hello.get("channel_id"))
        return watcher, watcher.channel_id, _id(hello.get("table_id"))

    def _answer(self, watcher: Watcher, frame: Json | None) -> None:
        if frame is not None:
            watcher.send(frame)

    async def _handle(self, watcher: Watcher, channel_id: int | None, data: str) -> Json | None:
        message = _json(data)
        kind = message.get("type") if message is not None else None
        if message is None or not isinstance(kind, str):
            return self.refusal(watcher, "web.error.bad_message", "bad_message")
        if kind not in ("watch", "join", "act"):
            return self.refusal(watcher, "web.error.unknown_type", "unknown_type")
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
        if kind == "act" and table is not None:  # then the table as it is now, to act again
            watcher.send(self.state(watcher, table))
        return None

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
        watcher.send(self.state(watcher, table))
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
    except ValueError:
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
