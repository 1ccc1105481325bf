"""The web table's JSON, typed: the one definition of every value the server and the page trade.

The server builds these values (``bot.web.protocol``, ``bot.web.hub``, ``bot.web.server``) and
mypy holds it to them; the client's ``src/protocol.ts`` is generated from them
(``python -m bot.web.typescript``), and a test fails when that file differs from what this
module says. What the values mean is written in ``bot.web.protocol``'s docstring.

A field's note (``Annotated[..., "note"]``) is carried to the TypeScript as its comment.
This module only declares shapes; it builds and sends nothing.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

Lang = Literal["sv", "en"]
Status = Literal["lobby", "playing", "paused", "finished", "ended"]
Ink = Literal["black", "red", "blue", "green"]


# --- HTTP -----------------------------------------------------------------------------------


class Member(TypedDict):
    id: str
    name: str


class Config(TypedDict):
    """``GET /api/config``."""

    client_id: str
    demo: bool
    members: NotRequired[Annotated[list[Member], "Only in the demo: its member picker."]]


class TokenAnswer(TypedDict):
    """``POST /api/token``."""

    access_token: str
    session: str
    user: Member


class LoginAnswer(TypedDict):
    """``POST /api/demo/login``."""

    session: str
    user: Member


# --- the page's words and the deck's colours --------------------------------------------------


class SuitColour(TypedDict):
    ink: Annotated[Ink, "The colour's name (a class of the card)."]
    css: Annotated[str, "The colour on a white card: #rrggbb."]


class PageWords(TypedDict):
    """One language's words of the page, from the server's catalogs."""

    words: Annotated[
        dict[str, str], "The page's own words (``web.page.*``; ``join`` is Discord's)."
    ]
    ranks: Annotated[
        dict[str, str], "The index printed on each rank (``T``: ``10``, Swedish ``Q``: ``D``)."
    ]
    suits: Annotated[dict[str, str], "Each suit's name by its letter (``C D H S``)."]
    joker: Annotated[str, "The word printed on the joker."]
    joker_name: str


class PageCatalog(TypedDict):
    """Served in the page itself (``<script type="application/json" id="kortbord-catalog">``)."""

    langs: dict[Lang, PageWords]
    colours: Annotated[dict[str, SuitColour], "The four-colour deck, by suit letter."]


# --- the WebSocket: server -> client ----------------------------------------------------------


class TableEntry(TypedDict):
    table_id: int
    game: str
    game_name: str
    status: Status
    players: list[str]
    seated: bool
    can_join: bool


class SeatState(TypedDict):
    name: str
    cards: int
    score: Annotated[
        int | None, "Null in the lobby and in a game without points; its words are in score_text."
    ]
    score_text: Annotated[
        str | None, "The score as the channel words it (12 p, 2 ritor); null where nothing counts."
    ]
    tricks: int | None
    shown: list[str]
    notes: list[str]
    computer: bool
    you: bool
    team: int | None
    dealer: bool
    turn: bool


class PileState(TypedDict):
    name: str
    key: str
    cards: list[str]
    hidden: int
    seat: int | None


class SheetRow(TypedDict):
    label: str
    cells: list[int | None]
    rule_below: bool


class Sheet(TypedDict):
    columns: list[str]
    rows: list[SheetRow]


class ViewState(TypedDict):
    phase: str
    deal: int
    dealer: int | None
    to_act: list[int]
    hand: list[str]
    marked: list[str]
    trump: str | None
    trump_text: str | None
    seats: list[SeatState]
    trick: list[tuple[int, str]]
    trick_notes: Annotated[
        list[str | None], "One per card of the trick: what the game notes on it, or null."
    ]
    joker: Annotated[str | None, "The card a joker counts as now (and in words: joker_text)."]
    joker_text: str | None
    piles: list[PileState]
    events: list[str]
    notes: list[str]
    teams: list[list[int]]
    sheet: Sheet | None


class Question(TypedDict):
    """What the page asks before an action that cannot be undone, and how it then says yes."""

    text: str
    label: Annotated[str, "The button that says yes."]
    notation: Annotated[str, "What the page sends when the member says yes."]


class ActionState(TypedDict):
    notation: str
    label: str
    verb: str
    cards: list[str]
    help: str | None
    confirm: Annotated[Question | None, "Asked before the action is sent; null: sent at once."]


class ResultRow(TypedDict):
    seat: int
    name: str
    place: int
    place_text: str
    score: int


class ResultState(TypedDict):
    rows: list[ResultRow]
    lines: list[str]


class Reaction(TypedDict):
    opened: float
    closes: float


class TableState(TypedDict):
    type: Literal["state"]
    table_id: int
    version: int
    status: Status
    seat: int | None
    lang: Lang
    game: str
    game_name: str
    now: Annotated[
        float, "The server's clock when the frame was made: deadlines count down from it."
    ]
    deadline: float | None
    reaction: Reaction | None
    view: ViewState
    actions: list[ActionState]
    result: ResultState | None


class TablesMessage(TypedDict):
    type: Literal["tables"]
    tables: list[TableEntry]


class Ack(TypedDict):
    type: Literal["ack"]
    version: int


class Refusal(TypedDict):
    type: Literal["refused"]
    code: str
    message: str


class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str


ServerMessage = TablesMessage | TableState | Ack | Refusal | ErrorMessage


# --- the WebSocket: client -> server ----------------------------------------------------------


class Hello(TypedDict):
    type: Literal["hello"]
    session: str
    table_id: int | None
    lang: Lang | None


class Watch(TypedDict):
    type: Literal["watch"]
    table_id: int


class Join(TypedDict):
    type: Literal["join"]
    table_id: int


class Act(TypedDict):
    type: Literal["act"]
    table_id: int
    version: int
    notation: str


ClientMessage = Hello | Watch | Join | Act

ALIASES: dict[str, object] = {
    "Lang": Lang,
    "Status": Status,
    "Ink": Ink,
    "ServerMessage": ServerMessage,
    "ClientMessage": ClientMessage,
}
"""The named types that are not objects, by the name the TypeScript gives them."""

SHAPES: tuple[type, ...] = (
    Member,
    Config,
    TokenAnswer,
    LoginAnswer,
    SuitColour,
    PageWords,
    PageCatalog,
    TableEntry,
    SeatState,
    PileState,
    SheetRow,
    Sheet,
    ViewState,
    Question,
    ActionState,
    ResultRow,
    ResultState,
    Reaction,
    TableState,
    TablesMessage,
    Ack,
    Refusal,
    ErrorMessage,
    Hello,
    Watch,
    Join,
    Act,
)
"""Every object of the protocol, in the order the TypeScript declares them."""
