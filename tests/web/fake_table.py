"""A stand-in for the web table's server, for the client's browser tests.

It speaks the web table's protocol (``bot/web/protocol.py``) over the built client in
``bot/web/client/dist``, around real game engines: one member sits at seat 0 of each table and
computer players (random, fixed seeds) at the other seats move at once. It checks what the real
server checks (a session it issued, the seat's owner, the version, an action on offer) and
answers a refusal in words, so the client's handling of every answer is tested. It is not the
real server: that one runs the real session manager and Discord's channel beside the page.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import WSMsgType, web

from bot.i18n import catalog
from bot.render.text import TextRenderer, faces_of_codes
from games import registry
from games.cards import code as card_code
from games.core import Game, Options

DIST = Path(__file__).resolve().parents[2] / "bot" / "web" / "client" / "dist"
NAMES = ("Anna", "Bo", "Cilla", "Dag", "Eva", "Frej")
MEMBER_ID = "101"
ACCESS_TOKEN = "fake-access-token"
Json = dict[str, object]


def _is_card(word: str) -> bool:
    return word == "JK" or (len(word) == 2 and word[0] in "23456789TJQKA" and word[1] in "CDHS")


def action_json(notation: str, text: TextRenderer) -> Json:
    """An action as the protocol writes it: verb, the cards it plays or picks, a label."""
    words = notation.split()
    verb = "" if _is_card(words[0]) else words[0]
    args = words if verb == "" else words[1:]
    # A one-word bid is a contract (``bid 6S``), not a card.
    cards = [] if verb == "bid" and len(args) == 1 else [w for w in args if _is_card(w)]
    label = faces_of_codes(notation, text.faces)
    return {"notation": notation, "label": label, "verb": verb, "cards": cards, "help": None}


@dataclass
class FakeTable:
    table_id: int
    game_id: str
    players: int
    seed: int
    options: Options | None = None
    member_seat: int | None = 0
    version: int = 1
    game: Game = field(init=False)
    rng: random.Random = field(init=False)
    sockets: list[tuple[web.WebSocketResponse, int | None, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        spec = registry.get(self.game_id)
        self.game = spec.new(self.players, self.options, random.Random(self.seed))
        self.rng = random.Random(self.seed + 1)

    def state(self, seat: int | None, lang: str) -> Json:
        texts = catalog(lang)
        text = TextRenderer(texts, NAMES[: self.players])
        view = self.game.view(seat)
        actions: list[Json] = []
        if seat is not None and seat in self.game.to_act():
            actions = [
                action_json(self.game.notation(a), text) for a in self.game.legal_actions(seat)
            ]
        seats: list[Json] = [
            {
                "name": NAMES[i],
                "cards": s.cards,
                "score": s.score,
                "tricks": s.tricks,
                "shown": [card_code(c) for c in s.shown],
                "notes": [text.msg(m) for m in s.notes],
                "computer": i != self.member_seat,
                "you": i == seat,
                "team": next((k for k, team in enumerate(view.teams) if i in team), None),
                "dealer": view.dealer == i,
                "turn": i in view.to_act,
            }
            for i, s in enumerate(view.seats)
        ]
        sheet: Json | None = None
        if view.sheet:
            sheet = {
                "columns": [text.msg(m) for m in view.sheet.columns],
                "rows": [
                    {"label": text.msg(r.label), "cells": list(r.cells), "rule_below": r.rule_below}
                    for r in view.sheet.rows
                ],
            }
        result: Json | None = None
        if self.game.is_over():
            end = self.game.result()
            result = {
                "rows": [
                    {
                        "seat": i,
                        "name": NAMES[i],
                        "place": place,
                        "place_text": text.place(place),
                        "score": end.scores[i],
                    }
                    for i, place in enumerate(end.places)
                ],
                "lines": [],
            }
        name_key = f"games.{self.game_id}.name"
        return {
            "type": "state",
            "table_id": self.table_id,
            "version": self.version,
            "status": "finished" if result else "playing",
            "seat": seat,
            "lang": lang,
            "game": self.game_id,
            "game_name": texts.text(name_key) if texts.has(name_key) else self.game_id,
            "deadline": None,
            "reaction": None,
            "view": {
                "phase": text.msg(view.phase),
                "deal": view.deal,
                "dealer": view.dealer,
                "to_act": sorted(view.to_act),
                "hand": [card_code(c) for c in view.hand],
                "marked": [card_code(c) for c in view.marked],
                "trump": "CDHS"[view.trump] if view.trump is not None else None,
                "trump_text": text.suit(view.trump) if view.trump is not None else None,
                "seats": seats,
                "trick": [[s, card_code(c)] for s, c in view.trick],
                "piles": [
                    {
                        "name": text.t(p.key) if texts.has(p.key) else p.key,
                        "key": p.key,
                        "cards": [card_code(c) for c in p.cards],
                        "hidden": p.hidden,
                        "seat": p.seat,
                    }
                    for p in view.piles
                ],
                "events": [text.msg(m) for m in view.events],
                "notes": [text.msg(m) for m in view.notes],
                "teams": [list(t) for t in view.teams],
                "sheet": sheet,
            },
            "actions": actions,
            "result": result,
        }

    def computers_move(self, most: int = 100_000) -> None:
        """Computer seats to act move at once, until the member is to act or it is over."""
        for _ in range(most):
            acting = sorted(s for s in self.game.to_act() if s != self.member_seat)
            if self.game.is_over() or not acting:
                return
            seat = acting[0]
            self.game.apply(seat, self.rng.choice(self.game.legal_actions(seat)))
            self.version += 1

    async def step(self, moves: int = 1) -> None:
        """Computers make ``moves`` moves, and every watcher is shown the table."""
        self.computers_move(moves)
        await self.push()

    async def push(self) -> None:
        for socket, seat, lang in list(self.sockets):
            if not socket.closed:
                await socket.send_json(self.state(seat, lang))


@dataclass
class FakeServer:
    """The fake's tables and what it saw, read by the tests."""

    tables: dict[int, FakeTable] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)
    codes: list[str] = field(default_factory=list)
    hellos: list[Json] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)
    hold: asyncio.Event | None = None
    port: int = 0
    loop: asyncio.AbstractEventLoop | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def add(self, table: FakeTable) -> FakeTable:
        if table.member_seat is not None:
            table.computers_move()
        self.tables[table.table_id] = table
        return table

    def run(self, step: object) -> None:
        """Runs ``step`` (a coroutine) on the server's loop and waits for it."""
        assert self.loop is not None
        asyncio.run_coroutine_threadsafe(step, self.loop).result(10)  # type: ignore[arg-type]

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/api/config", self.config)
        app.router.add_post("/api/demo/login", self.login)
        app.router.add_post("/api/token", self.token)
        app.router.add_get("/ws", self.socket)
        app.router.add_get("/", self.index)
        app.router.add_static("/", DIST)
        return app

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(DIST / "index.html")

    async def config(self, request: web.Request) -> web.Response:
        members = [{"id": MEMBER_ID, "name": "Anna"}]
        return web.json_response({"client_id": "424242", "demo": True, "members": members})

    def issue(self) -> str:
        session = secrets.token_urlsafe(16)
        self.sessions[session] = MEMBER_ID
        return session

    async def login(self, request: web.Request) -> web.Response:
        body = await request.json()
        if body.get("user_id") != MEMBER_ID:
            return web.json_response({"error": "unknown_member", "message": "Okänd"}, status=400)
        return web.json_response({"session": self.issue(), "user": {"id": MEMBER_ID, "name": "A"}})

    async def token(self, request: web.Request) -> web.Response:
        code = (await request.json()).get("code")
        self.codes.append(str(code))
        if code != "mock_code":
            return web.json_response({"error": "bad_code", "message": "Fel kod"}, status=400)
        user = {"id": MEMBER_ID, "name": "Anna"}
        answer = {"access_token": ACCESS_TOKEN, "session": self.issue(), "user": user}
        return web.json_response(answer)

    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        original = socket.send_str

        async def recorded(data: str, compress: int | None = None) -> None:
            self.frames.append(data)
            await original(data, compress)

        socket.send_str = recorded  # type: ignore[method-assign]
        lang = "sv"
        watched: FakeTable | None = None
        seat: int | None = None
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if data.get("type") == "hello":
                self.hellos.append(data)
                if data.get("session") not in self.sessions:
                    await socket.send_json({"type": "error", "code": "no_session", "message": "!"})
                    await socket.close()
                    break
                lang = data.get("lang") or "sv"
                await socket.send_json({"type": "tables", "tables": self.listing()})
                if data.get("table_id") in self.tables:
                    data = {"type": "watch", "table_id": data["table_id"]}
            if data.get("type") == "watch":
                watched = self.tables[data["table_id"]]
                seat = watched.member_seat
                watched.sockets.append((socket, seat, lang))
                await socket.send_json(watched.state(seat, lang))
            elif data.get("type") == "act" and watched is not None:
                await self.act(socket, watched, seat, data)
        return socket

    def listing(self) -> list[Json]:
        return [
            {
                "table_id": t.table_id,
                "game": t.game_id,
                "game_name": t.game_id,
                "status": "finished" if t.game.is_over() else "playing",
                "players": list(NAMES[: t.players]),
                "seated": t.member_seat is not None,
                "can_join": False,
            }
            for t in self.tables.values()
        ]

    async def act(
        self, socket: web.WebSocketResponse, table: FakeTable, seat: int | None, data: Json
    ) -> None:
        if self.hold is not None:
            await self.hold.wait()
        if seat is None or seat not in table.game.to_act():
            refusal = ("not_your_turn", "Det är inte din tur.")
        elif data.get("version") != table.version:
            refusal = ("stale", "Bordet har ändrats sedan du valde: välj igen.")
        elif data.get("notation") not in [
            table.game.notation(a) for a in table.game.legal_actions(seat)
        ]:
            refusal = ("not_offered", "Det draget finns inte att välja nu.")
        else:
            table.game.apply(seat, table.game.parse(str(data["notation"])))
            table.version += 1
            table.computers_move()
            await socket.send_json({"type": "ack", "version": table.version})
            await table.push()
            return
        await socket.send_json({"type": "refused", "code": refusal[0], "message": refusal[1]})


@contextmanager
def serving() -> Iterator[FakeServer]:
    """The fake server on a free port of 127.0.0.1, on a loop of its own thread."""
    server = FakeServer()
    ready = threading.Event()
    stop: asyncio.Event | None = None

    async def main() -> None:
        nonlocal stop
        stop = asyncio.Event()
        server.loop = asyncio.get_running_loop()
        runner = web.AppRunner(server.app(), shutdown_timeout=1.0)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        server.port = runner.addresses[0][1]
        ready.set()
        await stop.wait()
        await runner.cleanup()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(10), "the fake web table server did not start"
    try:
        yield server
    finally:
        assert server.loop is not None
        assert stop is not None
        server.loop.call_soon_threadsafe(stop.set)
        thread.join(10)
