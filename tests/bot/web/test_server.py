"""The web table's server against the real session manager (a simulated clock, SQLite): who may
connect, what every page is sent when a table changes, what a forged message gets (a refusal
in words, and no change), and that no page can hurt the others (a flood, a message nested too
deep or too large, too many pages, a page that reads nothing; the budgets refill on the simulated
clock). Discord is never contacted: the code exchange talks to a fake Discord.
"""

from __future__ import annotations

import ast
import asyncio
import dataclasses
import json
import logging
import random
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.clock import ManualClock
from bot.i18n import catalog
from bot.options import game_name
from bot.render.colours import FOUR_COLOUR_DECK
from bot.render.text import PLAIN, TextRenderer, seat_score
from bot.sessions import LiveTable, Member, SessionManager, correct_press
from bot.storage import Storage, open_storage
from bot.web import frames, protocol
from bot.web.auth import SESSION_SECONDS, DiscordLogin, IssuedSessions, WebUser
from bot.web.hub import Budgets, Limits, Watcher, WebHub
from bot.web.server import CSP, WebApp
from games.cards import JOKER, SUITS, Card, code, parse_card
from games.core import Msg
from games.registry import SPECS

CHANNEL, GUILD = 100, 1
ANNA, BO, CILLA = Member(11, "Anna"), Member(12, "Bo"), Member(13, "Cilla")
SECRET = "the-client-secret-of-kortbord"
Json = dict[str, Any]
RECEIVE_SECONDS = 5.0  # a bound on a frame that must come, never a pause


class FakeDiscord:
    """Discord's token endpoint and ``/users/@me`` for one good code."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, dict[str, str], dict[str, str] | None]] = []

    async def fetch(
        self, method: str, url: str, headers: Mapping[str, str], form: Mapping[str, str] | None
    ) -> tuple[int, object]:
        self.calls.append((method, url, dict(headers), dict(form) if form is not None else None))
        if url.endswith("/oauth2/token"):
            assert form is not None
            if form.get("code") != "good-code" or form.get("client_secret") != SECRET:
                return 400, {"error": "invalid_grant"}
            return 200, {"access_token": "discord-access", "token_type": "Bearer"}
        if headers.get("Authorization") == "Bearer discord-access":
            return 200, {"id": str(CILLA.user_id), "username": "cilla", "global_name": "Cilla"}
        return 401, {"message": "401: Unauthorized"}


@dataclass
class Web:
    sessions: SessionManager
    clock: ManualClock
    issued: IssuedSessions
    client: TestClient[Any, Any]
    discord: FakeDiscord
    dist: Path
    sockets: list[object] = field(default_factory=list)

    def session(self, member: Member, channel_id: int | None = CHANNEL) -> str:
        """A session the bot issued to ``member``, in the Activity's channel ``channel_id``."""
        return self.issued.issue(WebUser(member.user_id, member.name), channel_id)

    async def page(self, member: Member, *, lang: str = "en", table_id: int | None = None) -> Page:
        """A page signed in as ``member`` in the table's channel, having read the table list."""
        socket = await self.client.ws_connect("/ws")
        page = Page(socket)
        await page.send(
            {
                "type": "hello",
                "session": self.session(member),
                "table_id": table_id,
                "lang": lang,
            }
        )
        page.tables = await page.next("tables")
        return page


class Page:
    """One open page's socket."""

    def __init__(self, socket: ClientWebSocketResponse) -> None:
        self.socket = socket
        self.tables: Json = {}
        self.frames: list[Json] = []
        self.unread: list[Json] = []

    async def send(self, message: object) -> None:
        await self.socket.send_json(message)

    async def receive(self) -> Json:
        frame: Json = await self.socket.receive_json(timeout=RECEIVE_SECONDS)
        self.frames.append(frame)
        self.unread.append(frame)
        return frame

    async def next(self, *kinds: str, version: int = 0) -> Json:
        """The first frame not read yet of one of these kinds (a state: at ``version`` or
        later); the frames before it stay unread."""
        while True:
            for i, frame in enumerate(self.unread):
                if frame["type"] in kinds and int(frame.get("version", version)) >= version:
                    del self.unread[i]
                    return frame
            await self.receive()

    async def state(self, version: int) -> Json:
        """The first state at ``version`` or later."""
        return await self.next("state", version=version)

    async def watch(self, table: LiveTable) -> Json:
        await self.send({"type": "watch", "table_id": table.table_id})
        return await self.next("state")

    async def act(self, table: LiveTable, version: int, notation: str) -> Json:
        """Sends a move; the answer (``ack`` or ``refused``)."""
        await self.send(
            {"type": "act", "table_id": table.table_id, "version": version, "notation": notation}
        )
        return await self.next("ack", "refused")


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await open_storage(tmp_path / "kortbord.sqlite3")
    yield store
    await store.close()


def build(
    storage: Storage, tmp_path: Path, demo: list[WebUser] | None = None
) -> tuple[SessionManager, ManualClock, IssuedSessions, WebApp, FakeDiscord]:
    clock = ManualClock()
    sessions = SessionManager(
        storage, clock, turn_seconds=60, idle_seconds=600, rng=random.Random(1)
    )
    issued = IssuedSessions(clock.now)
    hub = WebHub(
        sessions, issued, language="sv", every_table=demo is not None, budget_clock=clock.now
    )
    sessions.add_listener(hub)
    discord = FakeDiscord()
    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>Kortbord</title>", encoding="utf-8")
    (dist / "assets" / "table-1a2b.js").write_text("console.log(1)", encoding="utf-8")
    app = WebApp(
        hub,
        issued,
        client_id="4242",
        login=DiscordLogin("4242", SECRET, discord.fetch),
        demo_members=demo,
        dist=dist,
    )
    return sessions, clock, issued, app, discord


@pytest.fixture
async def web(storage: Storage, tmp_path: Path) -> AsyncIterator[Web]:
    sessions, clock, issued, app, discord = build(storage, tmp_path)
    client = TestClient(TestServer(app.application()))
    await client.start_server()
    yield Web(sessions, clock, issued, client, discord, tmp_path / "dist")
    await client.close()


async def whist(sessions: SessionManager) -> LiveTable:
    """Tvåmanswhist between Anna and Bo, dealt from a fixed seed."""
    await sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist")
    await sessions.join(CHANNEL, BO)
    return await sessions.start(CHANNEL, ANNA.user_id)


def to_act(table: LiveTable) -> tuple[Member, int]:
    assert table.game is not None
    seat = min(table.game.to_act())
    return (ANNA if table.record.seats[seat].user_id == ANNA.user_id else BO), seat


def hidden_from_spectators(table: LiveTable) -> set[str]:
    """Every card in a hand that the spectator's view does not show."""
    assert table.game is not None
    public = table.game.view(None)
    shown = {code(c) for info in public.seats for c in info.shown}
    held = {code(c) for s in range(len(public.seats)) for c in table.game.view(s).hand}
    return held - shown


def codes_in(frame: object) -> set[str]:
    """Every card code a frame holds anywhere in its JSON."""
    found: set[str] = set()
    if isinstance(frame, dict):
        for item in frame.values():
            found |= codes_in(item)
    elif isinstance(frame, list):
        for item in frame:
            found |= codes_in(item)
    elif isinstance(frame, str):
        for word in frame.split():
            if word == "JK" or (
                len(word) == 2 and word[0] in "23456789TJQKA" and word[1] in "CDHS"
            ):
                found.add(word)
    return found


# --- who may connect ----------------------------------------------------------------------------


@pytest.mark.parametrize("first", ["nothing", "forged", "expired", "garbage", "watch"])
async def test_a_socket_without_a_session_the_bot_issued_is_answered_in_words_and_closed(
    web: Web, first: str
) -> None:
    socket = await web.client.ws_connect("/ws")
    issued = web.session(ANNA)
    if first == "expired":
        await web.clock.advance(SESSION_SECONDS + 1)
    if first == "garbage":
        await socket.send_str("{not json")
    elif first == "watch":
        await socket.send_json({"type": "watch", "table_id": 1, "session": issued})
    else:
        session = {"nothing": None, "forged": "x" * 43, "expired": issued}[first]
        await socket.send_json({"type": "hello", "session": session, "lang": "en"})
    frame = await socket.receive_json(timeout=RECEIVE_SECONDS)
    assert frame["type"] == "error"
    assert frame["code"] == "no_session"
    assert frame["message"] == catalog("sv" if first in ("garbage", "watch") else "en").text(
        "web.error.no_session"
    )
    closing = await socket.receive(timeout=RECEIVE_SECONDS)
    assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)


async def test_a_page_of_the_channel_lists_its_table_to_join_or_watch(web: Web) -> None:
    await web.sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio"
    )
    anna, cilla = await web.page(ANNA), await web.page(CILLA, lang="sv")
    [mine] = anna.tables["tables"]
    [theirs] = cilla.tables["tables"]
    assert mine["game_name"] == game_name(catalog("en"), "nittionio")
    assert theirs["game_name"] == "Nittionio"
    assert (mine["seated"], mine["can_join"]) == (True, False)
    assert (theirs["seated"], theirs["can_join"]) == (False, True)
    assert theirs["players"] == ["Anna"]
    assert theirs["status"] == "lobby"

    await web.sessions.join(CHANNEL, BO)  # a seat taken in Discord: the lists follow
    relisted = await cilla.next("tables")
    assert relisted["tables"][0]["players"] == ["Anna", "Bo"]
    await web.sessions.add_computer(CHANNEL, ANNA.user_id)
    await cilla.next("tables")
    await web.sessions.start(CHANNEL, ANNA.user_id)
    started = await cilla.next("tables")
    assert started["tables"][0]["status"] == "playing"
    assert started["tables"][0]["can_join"] is False
    await web.sessions.end(CHANNEL, ANNA.user_id)
    assert (await cilla.next("tables"))["tables"] == []
    for _ in range(4):  # Anna's page saw the same four changes; the last list is empty
        last = await anna.next("tables")
    assert last["tables"] == []


# --- moves and what every page sees -------------------------------------------------------------


async def test_a_seated_members_move_is_applied_and_pushed_to_every_page_of_the_table(
    web: Web,
) -> None:
    table = await whist(web.sessions)
    member, seat = to_act(table)
    other = BO if member == ANNA else ANNA
    mover, partner, onlooker = await web.page(member), await web.page(other), await web.page(CILLA)
    first = await mover.watch(table)
    await partner.watch(table)
    await onlooker.watch(table)
    assert first["seat"] == seat
    move = first["actions"][0]
    assert move["notation"] in first["view"]["hand"]
    assert move["cards"] == [move["notation"]]
    assert move["verb"] == ""

    answer = await mover.act(table, int(first["version"]), move["notation"])

    assert answer == {"type": "ack", "version": table.version}
    assert table.seq == 1
    seen = [await page.state(table.version) for page in (mover, partner, onlooker)]
    for frame in seen:
        assert frame["view"]["trick"] == [[seat, move["notation"]]]
    assert move["notation"] not in seen[0]["view"]["hand"]
    assert [frame["seat"] for frame in seen] == [seat, 1 - seat, None]


async def test_a_move_made_in_discord_shows_on_every_web_page(web: Web) -> None:
    table = await whist(web.sessions)
    member, seat = to_act(table)
    page = await web.page(CILLA)
    before = await page.watch(table)
    assert table.game is not None
    notation = table.game.notation(table.game.legal_actions(seat)[0])

    await web.sessions.act(table.table_id, member.user_id, table.version, notation)  # a button

    after = await page.state(int(before["version"]) + 1)
    assert after["view"]["trick"] == [[seat, notation]]
    assert after["actions"] == []


async def test_a_computer_players_move_and_the_deadline_reach_the_page(web: Web) -> None:
    await web.sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="tvamanswhist"
    )
    table = await web.sessions.start(CHANNEL, ANNA.user_id)  # Anna against a computer
    page = await web.page(ANNA)
    shown = await page.watch(table)
    assert shown["seat"] == 0
    assert [s["computer"] for s in shown["view"]["seats"]] == [False, True]
    assert table.game is not None
    if 0 in table.game.to_act():
        assert shown["deadline"] == web.sessions.deadline(table)
        frame = await page.act(table, int(shown["version"]), shown["actions"][0]["notation"])
        assert frame["type"] == "ack"
    version = table.version
    await web.clock.advance(1.0)  # the computer's pause
    assert table.version > version
    frame = await page.state(table.version)
    assert frame["view"]["to_act"] == [0]
    assert frame["actions"]
    assert frame["deadline"] == web.sessions.deadline(table)


# --- forged and stale messages -------------------------------------------------------------------


async def test_forged_messages_are_refused_in_words_and_change_nothing(web: Web) -> None:
    table = await whist(web.sessions)
    member, seat = to_act(table)
    other = BO if member == ANNA else ANNA
    mover, waiting = await web.page(member), await web.page(other)
    shown = await mover.watch(table)
    await waiting.watch(table)
    version = int(shown["version"])
    notation = str(shown["actions"][0]["notation"])
    assert table.game is not None
    own_hand = {code(c) for c in table.game.view(seat).hand}
    not_held = next(
        code(c) for c in range(52) if code(c) not in own_hand and code(c) not in ("JK",)
    )
    texts = catalog("en")

    cases: list[tuple[Page, object, str]] = [
        (
            waiting,
            {"type": "act", "table_id": table.table_id, "version": version, "notation": notation},
            "not_your_turn",
        ),  # another seat's move
        (
            mover,
            {
                "type": "act",
                "table_id": table.table_id,
                "version": version + 5,
                "notation": notation,
            },
            "stale_panel",
        ),  # a version from the future
        (
            mover,
            {"type": "act", "table_id": table.table_id, "version": version, "notation": not_held},
            "refused.not_in_hand",
        ),  # a card not offered: the member is told why
        (
            mover,
            {
                "type": "act",
                "table_id": table.table_id + 1,
                "version": version,
                "notation": notation,
            },
            "not_watching",
        ),
        (
            mover,
            {"type": "act", "table_id": table.table_id, "version": "1", "notation": notation},
            "bad_message",
        ),
        (mover, {"type": "teleport", "table_id": table.table_id}, "unknown_type"),
        (mover, [1, 2, 3], "bad_message"),
        (mover, "{garbage", "bad_message"),
    ]
    for page, message, expected in cases:
        if isinstance(message, str):
            await page.socket.send_str(message)
        else:
            await page.send(message)
        answer = await page.next("refused")
        assert answer["code"] == expected, message
        key = f"errors.{expected}" if texts.has(f"errors.{expected}") else f"web.error.{expected}"
        if expected == "refused.not_in_hand":
            assert answer["message"] == texts.text(
                key, card=TextRenderer(texts, ()).arg("card", not_held)
            )
        else:
            assert answer["message"] == texts.text(key), message
        assert (table.version, table.seq) == (version, 0), message

    # and the move itself still goes through, once: the same move again is stale
    assert (await mover.act(table, version, notation))["type"] == "ack"
    again = await mover.act(table, version, notation)
    assert again["code"] == "stale_panel"
    assert again["message"] == texts.text("errors.stale_panel")
    assert table.seq == 1


async def test_a_spectators_frames_hold_only_what_the_channel_shows(web: Web) -> None:
    table = await whist(web.sessions)
    page = await web.page(CILLA)
    frames = [await page.watch(table)]
    for _ in range(6):  # a few moves, each pushed
        member, seat = to_act(table)
        assert table.game is not None
        notation = table.game.notation(table.game.legal_actions(seat)[0])
        await web.sessions.act(table.table_id, member.user_id, table.version, notation)
        frames.append(await page.state(table.version))
    assert table.game is not None
    hidden = hidden_from_spectators(table)
    assert hidden
    last = frames[-1]
    text = protocol.renderer(catalog("en"), table)
    assert last["view"] == protocol.view_of(text, table, table.game.view(None), None)
    for frame in page.frames:
        assert frame.get("seat") is None
        assert frame.get("actions", []) == []
    for frame in frames:
        assert frame["view"]["hand"] == []
    assert not codes_in(frames[-1]) & hidden


# --- the lobby from the web --------------------------------------------------------------------


async def test_a_member_joins_adds_a_computer_and_starts_from_the_web(web: Web) -> None:
    table = await web.sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio"
    )
    bo = await web.page(BO)
    await bo.send({"type": "join", "table_id": table.table_id})
    joined = await bo.next("state")
    assert joined["seat"] == 1
    assert [a["notation"] for a in joined["actions"]] == ["computer", "leave"]
    anna = await web.page(ANNA)
    lobby = await anna.watch(table)
    assert [a["notation"] for a in lobby["actions"]] == ["computer", "start", "leave"]
    assert [a["label"] for a in lobby["actions"]] == ["Add computer player", "Start", "Leave"]
    version = int(lobby["version"])
    assert (await anna.act(table, version, "computer"))["type"] == "ack"
    double = await anna.act(table, version, "computer")  # the same click twice
    assert double["code"] == "stale_panel"
    assert len(table.record.seats) == 3
    assert (await bo.act(table, table.version, "start"))["code"] == "illegal_action"  # not host
    assert (await anna.act(table, table.version, "start"))["type"] == "ack"
    assert table.record.status == "playing"
    playing = await bo.state(table.version)
    assert playing["status"] == "playing"
    assert len(playing["view"]["hand"]) > 0


async def test_the_host_is_asked_before_computers_take_empty_seats_as_in_discord(
    web: Web,
) -> None:
    table = await web.sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="nittionio"
    )
    anna = await web.page(ANNA, lang="sv")
    lobby = await anna.watch(table)
    sv = catalog("sv")
    start = next(a for a in lobby["actions"] if a["notation"] == "start")
    assert start["confirm"] == {
        "text": sv.counted("ui.confirm.start", 2),
        "label": sv.text("ui.button.startfill"),
        "notation": "startfill",
    }
    version = int(lobby["version"])
    refused = await anna.act(table, version, "start")  # a page that did not ask
    assert refused["message"] == sv.text("errors.ask_first")
    assert table.version == version  # nothing changed
    assert (await anna.act(table, version, "startfill"))["type"] == "ack"
    assert table.record.status == "playing"
    assert [s.user_id for s in table.record.seats] == [ANNA.user_id, None, None]


async def test_every_frame_has_exactly_the_fields_its_type_declares(web: Web) -> None:
    """The TypeScript is generated from ``bot.web.frames``; the frames the server sends are held to
    it here as well as by mypy."""
    table = await whist(web.sessions)
    member, _ = to_act(table)
    page = await web.page(member, table_id=table.table_id)
    state = await page.next("state")

    def fields(shape: type) -> set[str]:
        return set(shape.__annotations__)

    assert set(page.tables) == fields(frames.TablesMessage)
    assert {frozenset(t) for t in page.tables["tables"]} == {frozenset(fields(frames.TableEntry))}
    assert set(state) == fields(frames.TableState)
    assert set(state["view"]) == fields(frames.ViewState)
    assert all(set(s) == fields(frames.SeatState) for s in state["view"]["seats"])
    assert state["actions"]
    assert all(set(a) == fields(frames.ActionState) for a in state["actions"])
    ack = await page.act(table, table.version, state["actions"][0]["notation"])
    assert set(ack) == fields(frames.Ack)


async def test_the_page_carries_the_catalogs_words_indices_suits_and_colours(web: Web) -> None:
    (web.dist / "index.html").write_text(
        "<!doctype html><html><head><title>Kortbord</title></head><body></body></html>",
        encoding="utf-8",
    )
    html = await (await web.client.get("/.proxy/")).text()
    start = html.index('<script type="application/json" id="kortbord-catalog">')
    block = html[html.index(">", start) + 1 : html.index("</script>", start)]
    assert html.index("</script>", start) < html.index("</head>")
    served = json.loads(block)
    for lang in ("sv", "en"):
        texts = catalog(lang)
        words = served["langs"][lang]
        assert words["words"]["join"] == texts.text("ui.button.join")  # Discord's join button
        assert words["words"]["connecting"] == texts.text("web.page.connecting")
        assert words["ranks"] == dict(PLAIN.speaking(texts).ranks)
        assert words["suits"] == {s: texts.text(f"table.suit.{s}") for s in SUITS}
    assert served["langs"]["sv"]["words"]["join"] == "Sätt dig"
    assert served["langs"]["sv"]["ranks"]["Q"] == "D"
    assert served["colours"] == {
        SUITS[suit]: {"ink": colour.name, "css": colour.css}
        for suit, colour in FOUR_COLOUR_DECK.items()
    }


# --- sign-in ------------------------------------------------------------------------------------


async def test_discords_code_is_exchanged_for_a_session_that_opens_a_socket(
    web: Web, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answer = await web.client.post("/.proxy/api/token", json={"code": "good-code"})
    assert answer.status == 200
    body = await answer.json()
    assert body["access_token"] == "discord-access"
    assert body["user"] == {"id": str(CILLA.user_id), "name": "Cilla"}
    token_call, user_call = web.discord.calls
    assert token_call[1] == "https://discord.com/api/oauth2/token"
    assert token_call[3] == {
        "client_id": "4242",
        "client_secret": SECRET,
        "grant_type": "authorization_code",
        "code": "good-code",
    }
    assert SECRET not in repr(user_call)
    assert SECRET not in caplog.text
    socket = await web.client.ws_connect("/.proxy/ws")
    await socket.send_json({"type": "hello", "session": body["session"]})
    assert (await socket.receive_json(timeout=RECEIVE_SECONDS))["type"] == "tables"
    await socket.close()


async def test_a_refused_code_is_answered_in_the_members_language(web: Web) -> None:
    answer = await web.client.post(
        "/api/token", json={"code": "stolen"}, headers={"Accept-Language": "en-GB,en;q=0.8"}
    )
    assert answer.status == 401
    assert await answer.json() == {
        "error": "bad_code",
        "message": catalog("en").text("web.error.bad_code"),
    }
    nothing = await web.client.post("/api/token", data=b"\xff")
    assert nothing.status == 400
    assert (await nothing.json())["message"] == catalog("sv").text("web.error.bad_request")


async def test_the_demo_login_exists_only_in_the_demo(
    web: Web, storage: Storage, tmp_path: Path
) -> None:
    refused = await web.client.post("/api/demo/login", json={"user_id": str(ANNA.user_id)})
    assert refused.status == 404
    assert (await refused.json())["error"] == "not_demo"
    config = await (await web.client.get("/api/config")).json()
    assert config == {"client_id": "4242", "demo": False}

    members = [WebUser(ANNA.user_id, "Anna"), WebUser(BO.user_id, "Bo")]
    *_, app, _ = build(storage, tmp_path / "demo", demo=members)
    async with TestClient(TestServer(app.application())) as demo:
        config = await (await demo.get("/.proxy/api/config")).json()
        assert config["demo"] is True
        assert config["members"] == [{"id": "11", "name": "Anna"}, {"id": "12", "name": "Bo"}]
        login = await demo.post("/api/demo/login", json={"user_id": "12"})
        assert (await login.json())["user"] == {"id": "12", "name": "Bo"}
        stranger = await demo.post("/api/demo/login", json={"user_id": "99"})
        assert stranger.status == 404


async def test_the_client_is_served_with_and_without_discords_proxy_prefix(web: Web) -> None:
    for path in ("/", "/.proxy/", "/assets/table-1a2b.js", "/.proxy/assets/table-1a2b.js"):
        answer = await web.client.get(path)
        assert answer.status == 200, path
        assert answer.headers["Content-Security-Policy"] == CSP
    assert "script-src 'self'" in CSP
    assert (await web.client.get("/assets/..%2Findex.html")).status == 404
    assert (await web.client.get("/assets/missing.js")).status == 404
    assert (await web.client.get("/favicon.ico")).status == 204  # no error in the page's console
    (web.dist / "sdk-mock.html").write_text("<!doctype html>", encoding="utf-8")
    assert (await web.client.get("/sdk-mock.html")).status == 404  # the demo's only


# --- Hej knekt: a press timed by the server -----------------------------------------------------


async def test_a_hej_knekt_press_from_the_web_is_timed_by_the_servers_clock(web: Web) -> None:
    members = (ANNA, BO, CILLA)
    await web.sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="hej_knekt"
    )
    for member in members[1:]:
        await web.sessions.join(CHANNEL, member)
    table = await web.sessions.start(CHANNEL, ANNA.user_id)
    pages = {m.user_id: await web.page(m) for m in members}
    for page in pages.values():
        await page.watch(table)
    for _ in range(60):  # the members turn cards from the web until one calls for a reaction
        assert table.game is not None
        if table.reveal_at is not None:
            break
        turner = table.record.seats[min(table.game.to_act())].user_id
        assert turner is not None
        assert (await pages[turner].act(table, table.version, "turn"))["type"] == "ack"
    assert table.reveal_at is not None
    assert table.game is not None
    opened = table.version
    seat = min(table.game.to_act())
    page = pages[table.record.seats[seat].user_id or 0]
    shown = await page.state(opened)
    presses = [a["notation"] for a in shown["actions"]]
    assert presses == ["whistle", "hej", "goddag", "salute", "slap"]
    assert shown["reaction"]["opened"] == table.reveal_at
    assert shown["reaction"]["closes"] > table.reveal_at
    right = correct_press(table.game, seat)
    assert right is not None

    await web.clock.advance(0.35)
    answer = await page.act(table, opened, right)

    assert answer["type"] == "ack"
    log = [(a.seat, a.notation) for a in await web.sessions.storage.actions(table.table_id)]
    assert log[-1] == (seat, f"{right} 350")
    again = await page.act(table, table.version, right)
    assert again["code"] == "already_pressed"
    forged = await pages[table.record.seats[(seat + 1) % 3].user_id or 0].act(
        table, table.version, "close"
    )
    assert forged["code"] == "illegal_action"
    assert log == [(a.seat, a.notation) for a in await web.sessions.storage.actions(table.table_id)]


def test_the_web_face_imports_no_other_face() -> None:
    """bot/web knows the core only: Discord's face and the terminal are never imported."""
    folder = Path(__file__).resolve().parents[3] / "bot" / "web"
    imported: set[str] = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    assert "bot.sessions" in imported
    assert not {m for m in imported if m.startswith(("bot.discord", "bot.terminal", "discord"))}


async def test_a_failure_inside_the_bot_is_answered_and_the_page_stays_connected(
    web: Web, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await whist(web.sessions)
    member, _ = to_act(table)
    page = await web.page(member)
    shown = await page.watch(table)

    async def broken(*_: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(web.sessions, "act", broken)
    answer = await page.act(table, shown["version"], shown["actions"][0]["notation"])
    assert answer["code"] == "internal"
    assert answer["message"] == catalog("en").text("errors.internal")
    monkeypatch.undo()
    assert (await page.act(table, shown["version"], shown["actions"][0]["notation"]))[
        "type"
    ] == "ack"


# --- what a seat's line and the trick say --------------------------------------------------------


async def test_a_seat_shows_points_only_where_the_game_counts_them_in_its_own_words(
    web: Web,
) -> None:
    await web.sessions.open_table(guild_id=GUILD, channel_id=CHANNEL, host=ANNA, game_id="braus")
    await web.sessions.add_computer(CHANNEL, ANNA.user_id)
    braus = await web.sessions.start(CHANNEL, ANNA.user_id)
    page = await web.page(ANNA, lang="sv")
    seats = (await page.watch(braus))["view"]["seats"]
    assert [s["score"] for s in seats] == [None] * len(seats)  # Bräus counts no points
    assert braus.game is not None
    ritor = [info.score for info in braus.game.view(0).seats]
    assert [s["score_text"] for s in seats] == [
        seat_score(catalog("sv"), "braus", n) for n in ritor
    ]
    assert "ritor" in seats[0]["score_text"] or "rita" in seats[0]["score_text"]

    whist_table = await web.sessions.open_table(
        guild_id=GUILD, channel_id=CHANNEL + 1, host=BO, game_id="tvamanswhist"
    )
    await web.sessions.add_computer(CHANNEL + 1, BO.user_id)
    whist_table = await web.sessions.start(CHANNEL + 1, BO.user_id)
    text = protocol.renderer(catalog("en"), whist_table)
    assert whist_table.game is not None
    shown = protocol.view_of(text, whist_table, whist_table.game.view(0), 0)
    seats_json: list[Json] = shown["seats"]  # type: ignore[assignment]
    assert [s["score"] for s in seats_json] == [0, 0]
    assert [s["score_text"] for s in seats_json] == ["0 pts", "0 pts"]


async def test_the_jokers_worth_and_the_tricks_notes_reach_the_page_as_words(web: Web) -> None:
    table = await whist(web.sessions)
    assert table.game is not None
    plain = table.game.view(None)
    nine = Card(parse_card("9C"))
    view = dataclasses.replace(
        plain,
        trick=((0, Card(JOKER)), (1, Card(parse_card("7H")))),
        joker=nine,
        trick_notes=(None, Msg.of("tvamansbridge.trick_note.dummy")),
    )
    sv = protocol.view_of(protocol.renderer(catalog("sv"), table), table, view, None)
    en = protocol.view_of(protocol.renderer(catalog("en"), table), table, view, None)
    assert sv["joker"] == "9C"
    assert sv["joker_text"] == catalog("sv").text("web.table.joker_as", card="9♣")
    assert en["joker_text"] == catalog("en").text("web.table.joker_as", card="9♣")
    assert sv["trick_notes"] == [None, catalog("sv").text("tvamansbridge.trick_note.dummy")]
    assert en["trick_notes"] == [None, catalog("en").text("tvamansbridge.trick_note.dummy")]
    none = protocol.view_of(protocol.renderer(catalog("sv"), table), table, plain, None)
    assert (none["joker"], none["joker_text"], none["trick_notes"]) == (None, None, [])


# --- no page can hurt the others -----------------------------------------------------------------

LIMITS = Limits()


async def closed(page: Page) -> None:
    """Reads until the server closes the page's socket."""
    while True:
        message = await page.socket.receive(timeout=RECEIVE_SECONDS)
        if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING):
            return
        if message.type == WSMsgType.TEXT:
            page.frames.append(message.json())


async def test_a_flooding_page_is_refused_once_in_words_then_closed_and_the_table_plays_on(
    web: Web,
) -> None:
    table = await whist(web.sessions)
    member, _ = to_act(table)
    player, flooder = await web.page(member), await web.page(CILLA)
    shown = await player.watch(table)
    await flooder.watch(table)
    before = len(flooder.frames)
    bad = {"type": "act", "table_id": table.table_id, "version": table.version, "notation": "QS"}
    sent = int(LIMITS.message_burst) + LIMITS.dropped_before_close + 10
    for _ in range(sent):
        await flooder.send(bad)
    await closed(flooder)

    answers = flooder.frames[before:]
    kinds = [frame["type"] for frame in answers]
    assert "state" not in kinds  # a refusal costs a few words, never a whole table
    refusals = [frame for frame in answers if frame["type"] == "refused"]
    # each move the budget held (the burst, less the page's watch), then "too fast" once
    assert len(refusals) == int(LIMITS.message_burst) - 1 + 1
    assert refusals[-1]["code"] == "too_fast"
    assert refusals[-1]["message"] == catalog("en").text("web.error.too_fast")
    assert answers[-1] == {
        "type": "error",
        "code": "too_fast",
        "message": catalog("en").text("web.error.too_fast"),
    }
    # The player at the table was not held up: the move goes through, once.
    answer = await player.act(table, int(shown["version"]), shown["actions"][0]["notation"])
    assert answer["type"] == "ack"
    assert table.seq == 1


async def test_a_page_over_its_budget_may_act_again_once_it_waited(web: Web) -> None:
    table = await whist(web.sessions)
    member, _ = to_act(table)
    page = await web.page(member)
    shown = await page.watch(table)
    version = int(shown["version"])
    for _ in range(int(LIMITS.message_burst)):  # stale moves, each refused for what it is
        await page.send({"type": "act", "table_id": table.table_id, "version": version + 9})
    move = shown["actions"][0]["notation"]
    refused = await page.act(table, version, move)
    while refused["code"] != "too_fast":
        refused = await page.next("refused")
    assert table.seq == 0  # the move over the budget was not made

    await web.clock.advance(LIMITS.message_burst / LIMITS.messages_per_second)
    assert (await page.act(table, version, move))["type"] == "ack"
    assert table.seq == 1


async def test_nested_or_oversized_messages_are_refused_in_words_and_the_page_goes_on(
    web: Web,
) -> None:
    table = await whist(web.sessions)
    member, _ = to_act(table)
    page = await web.page(member)
    shown = await page.watch(table)
    texts = catalog("en")

    await page.socket.send_str("[" * 2000 + "]" * 2000)  # deeper than Python's json goes
    nested = await page.next("refused", "error")
    assert nested == {
        "type": "refused",
        "code": "bad_message",
        "message": texts.text("web.error.bad_message"),
    }
    large = {"type": "act", "table_id": table.table_id, "version": 1, "notation": "x" * 5000}
    await page.send(large)
    too_big = await page.next("refused", "error")
    assert too_big == {
        "type": "refused",
        "code": "too_big",
        "message": texts.text("web.error.too_big"),
    }
    answer = await page.act(table, int(shown["version"]), shown["actions"][0]["notation"])
    assert answer["type"] == "ack"


async def test_a_member_has_at_most_a_few_pages_open(web: Web) -> None:
    pages = [await web.page(BO) for _ in range(LIMITS.pages_per_member)]
    socket = await web.client.ws_connect("/ws")
    session = web.issued.issue(WebUser(BO.user_id, BO.name))
    await socket.send_json({"type": "hello", "session": session, "lang": "en"})
    refused = await socket.receive_json(timeout=RECEIVE_SECONDS)
    assert refused == {
        "type": "error",
        "code": "too_many_pages",
        "message": catalog("en").text("web.error.too_many_pages"),
    }
    assert (await socket.receive(timeout=RECEIVE_SECONDS)).type in (
        WSMsgType.CLOSE,
        WSMsgType.CLOSED,
        WSMsgType.CLOSING,
    )
    assert (await web.page(ANNA)).tables["type"] == "tables"  # another member is not counted
    await pages[0].socket.close()
    again = await web.page(BO)  # a page closed makes room
    assert again.tables["type"] == "tables"


class _Socket:
    """A socket that takes nothing: its page reads nothing."""

    closed = False

    async def send_str(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, **_: object) -> None:
        self.closed = True


async def test_a_page_that_reads_nothing_is_let_go_when_its_queue_is_full() -> None:
    socket = _Socket()
    watcher = Watcher(
        cast(Any, socket),
        WebUser(1, "Anna"),
        "en",
        build=lambda *_: {},
        budgets=Budgets(LIMITS, 1.0, 0.0),
        room=LIMITS.outbox,
    )
    for i in range(LIMITS.outbox + 1):
        watcher.send({"type": "ack", "version": i})
    assert watcher.closed


async def test_two_tabs_of_one_member_stay_in_step_and_a_click_counts_once(web: Web) -> None:
    table = await whist(web.sessions)
    member, seat = to_act(table)
    first, second = await web.page(member), await web.page(member)
    shown = await first.watch(table)
    also = await second.watch(table)
    assert (also["seat"], also["version"], also["actions"]) == (
        seat,
        shown["version"],
        shown["actions"],
    )
    move = shown["actions"][0]["notation"]
    version = int(shown["version"])

    assert (await first.act(table, version, move))["type"] == "ack"
    again = await second.act(table, version, move)  # the same click in the other tab

    assert again["code"] == "stale_panel"
    assert table.seq == 1
    after = [await page.state(table.version) for page in (first, second)]
    assert after[0]["view"] == after[1]["view"]
    assert after[0]["view"]["trick"] == [[seat, move]]


@pytest.mark.parametrize("game_id", ["braus", "svarte_petter"])
def test_the_result_names_each_place_once(game_id: str) -> None:
    spec = SPECS[game_id]
    players = spec.min_players if game_id != "braus" else 4
    game = spec.new(players, spec.preset("standard"), rng=random.Random(3))
    while not game.is_over():
        seat = min(game.to_act())
        game.apply(seat, game.legal_actions(seat)[0])
    names = ["Anna", "Bo", "Cilla", "Dag"][:players]
    text = TextRenderer(catalog("sv"), names, PLAIN)
    shown = protocol.result(text, game)
    assert shown is not None
    assert sorted(row["name"] for row in shown["rows"]) == sorted(names)
    for line in shown["lines"]:  # what the places mean, never a place again
        assert not any(name in line for name in names), line
