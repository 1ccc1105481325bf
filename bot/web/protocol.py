"""The web table's protocol, and the JSON of a table as one seat (or a spectator) may see it.

This docstring is the contract between the bot's web server (``bot/web``) and the web client
(``bot/web/client``); the client follows it. Everything is served by the bot process on
``KORTBORD_WEB_PORT`` (default 8080; the demo picks a free port and prints it). Inside Discord
every request comes through Discord's proxy under ``/.proxy/``; the client uses relative paths, and
the server answers both ``/X`` and ``/.proxy/X``.

HTTP
----
- ``GET /`` and ``/assets/*``: the built client (``bot/web/client/dist/``), with a strict Content
  Security Policy (the page's own origin only).
- ``GET /api/config`` -> ``{"client_id": "<application id>", "demo": bool, "members": [{"id": "…",
  "name": "…"}]}`` (``members`` only in the demo: the member picker).
- ``POST /api/token`` ``{"code": "…", "instance_id": "…"}`` -> exchanges the OAuth2 code at
  Discord (the application's id and ``KORTBORD_CLIENT_SECRET``, never logged), fetches the user,
  and answers ``{"access_token": "…", "session": "<kortbord session>", "user": {"id": "…",
  "name": "…"}}``. The session is the bot's own: random, valid for 12 hours, bound to the user's
  id and to the channel of the Activity's instance (``instance_id``, the SDK's ``instanceId``)
  when Discord, asked with the bot's token, lists the member among the instance's users; else to
  no channel. Ids are strings (64-bit).
- ``POST /api/demo/login`` ``{"user_id": "…", "channel_id": "…"|null}`` -> ``{"session": "…",
  "user": {…}}``, only when the server runs in the demo (404 otherwise), for one of the demo's
  members, in the channel named (the demo's stand-in for Discord's context).
- Errors: JSON ``{"error": "<code>", "message": "<text in the member's language>"}`` with a 4xx
  (or a 502 when Discord does not answer the code exchange).

WebSocket ``GET /ws`` (one per open client)
-------------------------------------------
- client -> server, first: ``{"type": "hello", "session": "…", "table_id": int|null,
  "lang": "sv"|"en"|null}``. Anything else first, or a session the bot did
  not issue (or that expired), is answered ``{"type": "error", "code": "no_session", "message": …}``
  and the socket is closed.
- server -> client after hello: ``{"type": "tables", "tables": [{"table_id", "game",
  "game_name", "status", "players": [names], "seated": bool, "can_join": bool}]}``: the live
  table of the session's channel (the Activity's, as Discord told the bot); without one, the
  member's own table (in the demo: every live table). With a ``table_id`` in the hello, the
  server then watches that table for the socket at once, as after ``watch``. A fresh
  ``tables`` list follows whenever what it says changes (a table opens, a member sits down or
  leaves, a match starts or closes), whatever the socket watches.
- client -> server: ``{"type": "watch", "table_id": N}`` (a spectator; a seated member sees
  their own seat) or ``{"type": "join", "table_id": N}`` (take a free seat in a lobby, like the
  *Sätt dig* button; the socket then watches the table). A socket watches one table at a time.
- server -> client on every change of the watched table (and at once on watch):
  ``{"type": "state", "table_id", "version", "status", "seat": int|null, "lang", "game",
  "game_name", "now": s, "deadline": epoch seconds|null, "reaction": {"opened": s, "closes":
  s}|null, "view": VIEW, "actions": [ACTION], "result": RESULT|null}``. ``now`` is the
  server's clock when the frame was made: the deadline and the reaction window are on that
  clock (the demo's simulated time is not the browser's), so the page counts down from
  ``deadline - now``. ``status`` is ``lobby``,
  ``playing``, ``paused``, ``finished`` or ``ended`` (closed without a result: ended by its
  host, idle, abandoned).

  - ``VIEW``: the seat's ``games.core.View`` with every message already in the member's
    language: ``{"phase": text, "deal": n, "dealer": seat|null, "to_act": [seats], "hand":
    ["QS", …] (in the order the panel shows it), "marked": [codes], "trump": "H"|null,
    "trump_text": text|null, "seats": [{"name", "cards", "score": int|null (null in the lobby
    and in a game without points, ``GameSpec.points``), "score_text": text|null (the seat's
    score as the channel words it: ``12 p``, ``2 ritor``; null where nothing is counted),
    "tricks": int|null, "shown": [codes], "notes": [texts],
    "computer": bool (a computer plays the seat now), "you": bool, "team": index|null,
    "dealer": bool, "turn": bool}], "trick": [[seat, "QS"], …], "trick_notes": [text|null]
    (one per card of the trick where the game notes one: played from a träkarl), "joker":
    code|null (the card a joker counts as now), "joker_text": text|null (the same in words),
    "piles": [{"name": text, "key":
    msg key, "cards": [codes], "hidden": n, "seat": seat|null}], "events": [texts] (newest last),
    "notes": [texts], "teams": [[0, 2], [1, 3]], "sheet": {"columns": [texts], "rows":
    [{"label": text, "cells": [int|null], "rule_below": bool}]}|null}``. Cards are notation codes
    (``QS``, ``TH``, ``JK``); the client draws them itself. In the lobby the view has the seats
    (names, no cards), the phase says the table waits for players, and the rest is empty.
  - ``ACTION`` (only for the watcher's own seat, only what the session manager would take now,
    exactly the notations a hand panel offers): ``{"notation": "bid 7D KS TC", "label": text,
    "verb": "bid"|"" (empty for a plain card), "cards": ["7D", "KS", "TC"] (the cards it plays or
    picks; one for a card play; none for a contract such as ``bid 7H``), "help": text|null,
    "confirm": {"text", "label", "notation"}|null}``. ``confirm`` is the question to ask before
    an action that cannot be undone (``bot.offers.question``: starting with empty seats); the
    page then sends its ``notation`` (``startfill``) once the member says yes, never the action
    itself, which is refused while the question stands.
    The client raises the cards of single-card actions; for a verb with several cards it
    offers "pick, then confirm" and enables the confirm button once the picked set equals one
    action's ``cards`` (as a set); everything else is a button with its label.
    In an open reaction window (Hej knekt) the actions are the presses (``whistle``, ``hej``,
    …): the press is timed by the server's clock when the ``act`` arrives. In the lobby a seated
    member's actions are the table's own: ``computer`` (add a computer player), ``start`` (the
    host only) and ``leave``, as ``bot.offers`` decides them for every face.
  - ``RESULT`` at the match's end: ``{"rows": [{"seat", "name", "place", "place_text",
    "score"}], "lines": [texts]}``: the places are the rows; the lines only say what they mean
    (partners share a place, a shared place), never the places again.
- client -> server: ``{"type": "act", "table_id": N, "version": V, "notation": "…"}``: through
  the same session manager and the same checks as a button (the seat's owner, ``member_actions``,
  the version: one older than the table's is still taken while the seat has not acted since and
  no new deal began, ``LiveTable.panel_valid``, so a move is never applied twice; one from the
  future is refused). Answered ``{"type": "ack",
  "version": new}``, or ``{"type": "refused", "code": …, "message": text}`` (in the member's
  language, the panel's words) and nothing changes. Garbage, an unknown ``type`` or a message
  for a table the socket does not watch are refused the same way (codes ``bad_message``,
  ``unknown_type``, ``not_watching``).
- Spectators (no seat) get exactly what the channel's table message shows (``view(None)``); no
  frame ever holds a card hidden from the watcher.
- The hub (``bot.web.hub``) is a session-manager listener: on ``table_changed`` it pushes a fresh
  ``state`` to every socket watching that table, each with its own seat's view.

The page's own words, card indices, suit names and the four-colour deck's colours are served in
the page itself, as ``<script type="application/json" id="kortbord-catalog">`` (``PageCatalog``,
:func:`page_catalog`): from the same catalogs and the same ``bot.render.colours`` as every
other face, in both languages, so the page switches language without asking again.

The shapes of all these values are ``bot.web.frames`` (the client's ``protocol.ts`` is
generated from it). This module builds those JSON values; it sends nothing and changes nothing.
"""

from __future__ import annotations

import functools
import json
from typing import cast

from bot.actions import choice_cards, choice_of, verb_help
from bot.i18n import DEFAULT_LANG, LANGS, Catalog, catalog
from bot.offers import lobby_actions, question, sendable
from bot.options import game_name
from bot.render.colours import FOUR_COLOUR_DECK
from bot.render.text import (
    PLAIN,
    TextRenderer,
    card_face,
    hand_order_of,
    place_name,
    result_lines,
    seat_names,
    seat_score,
    sort_hand,
    trump_line,
)
from bot.sessions import LiveTable, SessionManager, window_ms
from bot.web.frames import (
    ActionState,
    Lang,
    PageCatalog,
    PageWords,
    Question,
    Reaction,
    ResultRow,
    ResultState,
    SeatState,
    Sheet,
    Status,
    TableEntry,
    TableState,
    ViewState,
)
from games.cards import SUITS, code
from games.core import Game, Msg, Seat, View

SUIT_TEXTS = {letter: PLAIN.suits[i] for i, letter in enumerate(SUITS)}
"""The suits as a game's help names them (``{S}``), drawn as on the client's cards."""

STATUSES: tuple[Status, ...] = ("lobby", "playing", "paused", "finished", "ended")
DISCORD_WORDS = {"join": "ui.button.join"}
"""The page's words that are Discord's own: a button that does the same reads the same."""


def renderer(texts: Catalog, table: LiveTable) -> TextRenderer:
    """The table's texts in one language, with the seats' names as the channel shows them."""
    members = [None if s.user_id is None else s.name for s in table.record.seats]
    return TextRenderer(texts, seat_names(texts, members), PLAIN)


def status_of(table: LiveTable) -> Status:
    status = table.record.status
    return next((s for s in STATUSES if s == status), "ended")


def table_entry(texts: Catalog, table: LiveTable, user_id: int) -> TableEntry:
    """One line of the ``tables`` list: what a member deciding to join or watch wants to know."""
    record = table.record
    text = renderer(texts, table)
    seated = table.seat_of(user_id) is not None
    return {
        "table_id": table.table_id,
        "game": record.game_id,
        "game_name": game_name(texts, record.game_id),
        "status": status_of(table),
        "players": [text.seat(s.seat) for s in record.seats],
        "seated": seated,
        "can_join": record.status == "lobby"
        and not seated
        and len(record.seats) < table.spec.max_players,
    }


def state(
    sessions: SessionManager, table: LiveTable, user_id: int, texts: Catalog, lang: str
) -> TableState:
    """The ``state`` frame of ``table`` for the member ``user_id``: their seat's view, or the
    spectator's when they hold no seat (or left it)."""
    record = table.record
    text = renderer(texts, table)
    seat = table.seat_of(user_id)
    game = table.game
    if game is None:
        view_json = lobby_view(texts, text, table, seat)
    else:
        view_json = view_of(text, table, table.view(seat), seat)
    return {
        "type": "state",
        "table_id": table.table_id,
        "version": table.version,
        "status": status_of(table),
        "seat": seat,
        "lang": as_lang(lang),
        "game": record.game_id,
        "game_name": game_name(texts, record.game_id),
        "now": sessions.clock.now(),
        "deadline": sessions.deadline(table) if table.live and game is not None else None,
        "reaction": reaction(table),
        "view": view_json,
        "actions": actions(texts, text, table, seat) if seat is not None else [],
        "result": result(text, game) if game is not None and record.status == "finished" else None,
    }


def reaction(table: LiveTable) -> Reaction | None:
    """The open reaction window (Hej knekt): when its card was turned and when it closes."""
    game = table.game
    if table.reveal_at is None or game is None:
        return None
    length = window_ms(table.view(None))
    if length is None:
        return None
    return {"opened": table.reveal_at, "closes": table.reveal_at + length / 1000}


def lobby_view(
    texts: Catalog, text: TextRenderer, table: LiveTable, seat: Seat | None
) -> ViewState:
    """A lobby as a view: the seats taken so far and a phase saying the table waits."""
    return {
        "phase": texts.text("ui.table.lobby"),
        "deal": 0,
        "dealer": None,
        "to_act": [],
        "hand": [],
        "marked": [],
        "trump": None,
        "trump_text": None,
        "seats": [
            {
                "name": text.seat(s.seat),
                "cards": 0,
                "score": None,
                "score_text": None,
                "tricks": None,
                "shown": [],
                "notes": [],
                "computer": s.user_id is None,
                "you": s.seat == seat,
                "team": None,
                "dealer": False,
                "turn": False,
            }
            for s in table.record.seats
        ],
        "trick": [],
        "trick_notes": [],
        "joker": None,
        "joker_text": None,
        "piles": [],
        "events": [],
        "notes": [],
        "teams": [],
        "sheet": None,
    }


def view_of(text: TextRenderer, table: LiveTable, view: View, seat: Seat | None) -> ViewState:
    """A seat's view (``seat`` None: the spectator's), every message in ``text``'s language."""
    lang, names = text.catalog.lang, tuple(text.names)

    def say(message: Msg) -> str:
        return said(lang, names, message)

    team_of = {s: i for i, team in enumerate(view.teams) for s in team}
    seats: list[SeatState] = [
        {
            "name": text.seat(s),
            "cards": info.cards,
            # GameSpec.points: a game without points shows no number, only its own words.
            "score": info.score if table.spec.points else None,
            "score_text": seat_score(text.catalog, view.game, info.score),
            "tricks": info.tricks,
            "shown": [code(c) for c in sort_hand(info.shown)],
            "notes": [say(n) for n in info.notes],
            "computer": table.by_computer(s) if s < len(table.record.seats) else True,
            "you": s == seat,
            "team": team_of.get(s),
            "dealer": s == view.dealer,
            "turn": s in view.to_act,
        }
        for s, info in enumerate(view.seats)
    ]
    sheet: Sheet | None = None
    if view.sheet is not None:
        sheet = {
            "columns": [say(c) for c in view.sheet.columns],
            "rows": [
                {"label": say(r.label), "cells": list(r.cells), "rule_below": r.rule_below}
                for r in view.sheet.rows
            ],
        }
    return {
        "phase": say(view.phase),
        "deal": view.deal,
        "dealer": view.dealer,
        "to_act": sorted(view.to_act),
        "hand": [code(c) for c in sort_hand(view.hand, hand_order_of(view.game))],
        "marked": [code(c) for c in view.marked],
        "trump": SUITS[view.trump] if view.trump is not None else None,
        "trump_text": trump_line(text, view, table.spec.trick_taking),
        "seats": seats,
        "trick": [(s, code(c)) for s, c in view.trick],
        "trick_notes": [None if n is None else say(n) for n in view.trick_notes],
        "joker": code(view.joker) if view.joker is not None else None,
        "joker_text": None
        if view.joker is None
        else text.t("web.table.joker_as", card=card_face(view.joker, text.faces)),
        "piles": [
            {
                "name": text.t(p.key),
                "key": p.key,
                "cards": [code(c) for c in p.cards],
                "hidden": p.hidden,
                "seat": p.seat,
            }
            for p in view.piles
        ],
        "events": [say(m) for m in view.events],
        "notes": [say(m) for m in view.notes],
        "teams": [list(team) for team in view.teams],
        "sheet": sheet,
    }


@functools.lru_cache(maxsize=1 << 14)
def said(lang: str, names: tuple[str, ...], message: Msg) -> str:
    """A game's message in words (``TextRenderer.msg``), remembered: every page of a table is
    sent the same events, phase and notes again on every change."""
    return _renderer_of(lang, names).msg(message)


def offered(table: LiveTable, seat: Seat) -> list[str]:
    """The notations the member at ``seat`` may send now, exactly what ``act`` takes
    (``bot.offers.sendable``, the same for every face)."""
    return sendable(table, seat)


def actions(texts: Catalog, text: TextRenderer, table: LiveTable, seat: Seat) -> list[ActionState]:
    """The ``ACTION`` values of ``seat``: each notation with its label, verb, cards and help,
    and the question to ask first where one is due."""
    game_id = table.record.game_id
    if table.record.status == "lobby":
        return lobby_states(texts, table, seat) if offered(table, seat) else []
    notations = offered(table, seat)
    if table.reveal_at is not None:
        return [
            {
                "notation": verb,
                "label": text.verb(game_id, verb),
                "verb": verb,
                "cards": [],
                "help": None,
                "confirm": None,
            }
            for verb in notations
        ]
    return list(choice_actions(texts.lang, game_id, tuple(text.names), tuple(notations)))


@functools.lru_cache(maxsize=4096)
def choice_actions(
    lang: str, game_id: str, names: tuple[str, ...], notations: tuple[str, ...]
) -> tuple[ActionState, ...]:
    """The ``ACTION`` values of a seat's choices, remembered: while a seat waits, its choices do
    not change, yet every change of the table sends them again (a bid phase offers hundreds, to
    every seat at once). Read only: they are shared by every frame that sends them."""
    texts = catalog(lang)
    choices = [choice_of(n) for n in notations]
    cards = choice_cards(choices)
    helps = {
        verb: verb_help(texts, game_id, verb, SUIT_TEXTS) for verb in {c.verb for c in choices}
    }
    return tuple(
        {
            "notation": c.notation,
            "label": action_label(lang, game_id, names, c.notation),
            "verb": c.verb,
            "cards": list(cards[c.notation]),
            "help": helps[c.verb],
            "confirm": None,
        }
        for c in choices
    )


def action_label(lang: str, game_id: str, names: tuple[str, ...], notation: str) -> str:
    """An action's label (``TextRenderer.action``), remembered: a bid phase offers hundreds of
    choices of several cards to every seat at every deal. Most labels name no seat, and are
    remembered for every table with as many seats (a new deal at one table then finds the
    labels another table's deals made)."""
    label = _label_naming_nobody(lang, game_id, len(names), notation)
    return label if label is not None else _label_naming(lang, game_id, names, notation)


_NOBODY = "\x00"
"""Stands for a seat's name in a label made for every table: a label that holds it names a seat."""


def lobby_states(texts: Catalog, table: LiveTable, seat: Seat) -> list[ActionState]:
    """The lobby's actions of ``seat`` as the page shows them, each with its question."""
    user_id = table.record.seats[seat].user_id
    out: list[ActionState] = []
    for op in lobby_actions(table, seat):
        asked = question(table, user_id, op) if user_id is not None else None
        confirm: Question | None = None
        if asked is not None:
            confirm = {
                "text": asked.text(texts),
                "label": asked.label(texts),
                "notation": asked.yes,
            }
        out.append(
            {
                "notation": op,
                "label": texts.text(f"ui.button.{op}"),
                "verb": op,
                "cards": [],
                "help": None,
                "confirm": confirm,
            }
        )
    return out


@functools.lru_cache(maxsize=1 << 16)
def _label_naming_nobody(lang: str, game_id: str, seats: int, notation: str) -> str | None:
    names = tuple(f"{_NOBODY}{seat}{_NOBODY}" for seat in range(seats))
    label = _renderer_of(lang, names).action(game_id, notation)
    return None if _NOBODY in label else label


@functools.lru_cache(maxsize=1 << 14)
def _label_naming(lang: str, game_id: str, names: tuple[str, ...], notation: str) -> str:
    return _renderer_of(lang, names).action(game_id, notation)


@functools.lru_cache(maxsize=256)
def _renderer_of(lang: str, names: tuple[str, ...]) -> TextRenderer:
    return TextRenderer(catalog(lang), names, PLAIN)


def result(text: TextRenderer, game: Game) -> ResultState | None:
    """The end of the match: each seat's place and score, and what the places mean (the
    result's lines less the places, which the rows are)."""
    if not game.is_over():
        return None
    outcome = game.result()
    taken = [outcome.places.count(p) for p in outcome.places]
    order = sorted(range(len(outcome.places)), key=lambda s: (outcome.places[s], s))
    rows: list[ResultRow] = [
        {
            "seat": s,
            "name": text.seat(s),
            "place": outcome.places[s],
            "place_text": place_name(text.catalog, outcome.places[s], taken[s] > 1),
            "score": outcome.scores[s],
        }
        for s in order
    ]
    notes = {text.t("place.note_teams"), text.t("place.note")}
    lines = result_lines(text, outcome, game.view(None).teams)
    return {"rows": rows, "lines": [line for line in lines if line in notes]}


def page_words(lang: Lang) -> PageWords:
    """The page's words in ``lang``: its own (``web.page.*``), Discord's where a button does the
    same (:data:`DISCORD_WORDS`), the index on each rank, the suits' names and the joker's."""
    texts = catalog(lang)
    prefix = "web.page."
    button = texts.text("web.button.open")  # the page names the button that opens it
    words = {
        key[len(prefix) :]: texts.text(key, open=button)
        for key in sorted(texts.all_keys())
        if key.startswith(prefix)
    }
    words.update({word: texts.text(key) for word, key in DISCORD_WORDS.items()})
    faces = PLAIN.speaking(texts)
    return {
        "words": words,
        "ranks": dict(faces.ranks),
        "suits": {letter: texts.text(f"table.suit.{letter}") for letter in SUITS},
        "joker": texts.text("table.joker.face"),
        "joker_name": texts.text("table.joker.name"),
    }


def page_catalog() -> PageCatalog:
    """Everything the page words or colours itself, in every language (``PageCatalog``)."""
    return {
        "langs": {lang: page_words(lang) for lang in _langs()},
        "colours": {
            SUITS[suit]: {"ink": colour.name, "css": colour.css}
            for suit, colour in FOUR_COLOUR_DECK.items()
        },
    }


def as_lang(lang: str) -> Lang:
    """One of the languages the page knows: ``lang``, else the default."""
    return cast(Lang, lang if lang in LANGS else DEFAULT_LANG)


def _langs() -> tuple[Lang, ...]:
    return tuple(as_lang(lang) for lang in LANGS)


CATALOG_ID = "kortbord-catalog"


def page_with_catalog(html: str) -> str:
    """The built page with :func:`page_catalog` in it, before its ``</head>``: a JSON data block
    (not a script, so the page's Content Security Policy allows it), escaped so that no text in
    it can end the block."""
    if "</head>" not in html:
        return _catalog_block() + html
    return html.replace("</head>", _catalog_block() + "</head>", 1)


@functools.cache
def _catalog_block() -> str:
    data = json.dumps(page_catalog(), ensure_ascii=False).replace("<", "\\u003c")
    return f'<script type="application/json" id="{CATALOG_ID}">{data}</script>'
