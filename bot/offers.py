"""What a member may do at a table, decided once for every face.

- The table's own actions (join, leave, add a computer player, start, end) are done here, for the
  Discord table message's buttons and the web table alike; :func:`question` says which of them
  a face must ask about first (starting with empty seats: computer players take them; ending:
  the match is lost), and :func:`table_act` refuses such an action until the member said yes
  (its ``yes`` action, ``startfill`` or ``endok``), so no face can skip the question.
- :func:`sendable` is what the member at a seat may send now, exactly what the session manager
  takes; :func:`panel_choices` is what a hand panel offers (the same moves, and while others play
  single cards the seat's own cards ahead of its turn).

It changes a table only through the session manager, and knows no face.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.actions import in_hand_order
from bot.errors import UserError
from bot.i18n import Catalog
from bot.sessions import LiveTable, Member, SessionManager, cards_ahead, press_verbs, seats_wanted
from games.core import Game, Seat

SEATED_LOBBY_ACTIONS = ("computer", "start", "leave")
"""What a seated member does in the lobby from a page of their own, in the order shown."""

TABLE_ACTIONS = ("join", "leave", "computer", "start", "startfill", "end", "endok")
"""Every action :func:`table_act` does."""


@dataclass(frozen=True, slots=True)
class Question:
    """What a face asks before a table action: ``key`` (counted by ``count``, if any) in the
    member's language, and ``yes``, the action that does it once the member agrees."""

    key: str
    count: int | None
    yes: str

    def text(self, texts: Catalog) -> str:
        """The question in ``texts``'s language."""
        return texts.text(self.key) if self.count is None else texts.counted(self.key, self.count)

    def label(self, texts: Catalog) -> str:
        """The words of the button that says yes."""
        return texts.text(f"ui.button.{self.yes}")


def question(table: LiveTable, user_id: int, action: str) -> Question | None:
    """The question before ``action`` by ``user_id``, or None when it is done at once."""
    record = table.record
    if record.host_id != user_id:
        return None
    if action == "start" and record.status == "lobby":
        empty = seats_wanted(record) - len(record.seats)
        return Question("ui.confirm.start", empty, "startfill") if empty > 0 else None
    if action == "end":
        status = "lobby" if record.status == "lobby" else "playing"
        return Question(f"ui.confirm.end_{status}", None, "endok")
    return None


async def table_act(
    sessions: SessionManager,
    table: LiveTable,
    member: Member,
    action: str,
    level: str | None = None,
) -> None:
    """Does the table action ``action`` for ``member`` (``level``: a computer player's, for
    ``computer``); refused while its :func:`question` has not been answered."""
    if action not in TABLE_ACTIONS:
        raise UserError("illegal_action")
    if question(table, member.user_id, action) is not None:
        raise UserError("ask_first")
    channel_id, user_id = table.record.channel_id, member.user_id
    if action == "join":
        await sessions.join(channel_id, member)
    elif action == "leave":
        await sessions.leave(channel_id, user_id)
    elif action == "computer":
        if level is None:
            await sessions.add_computer(channel_id, user_id)
        else:
            await sessions.add_computer(channel_id, user_id, level)
    elif action in ("start", "startfill"):
        await sessions.start(channel_id, user_id)
    else:
        await sessions.end(channel_id, user_id)


def lobby_actions(table: LiveTable, seat: Seat) -> list[str]:
    """The lobby's actions the member at ``seat`` may take now, in the order shown: a computer
    player while a seat is free, start for the host, leave."""
    record = table.record
    actions = list(SEATED_LOBBY_ACTIONS)
    if record.host_id != record.seats[seat].user_id:
        actions.remove("start")
    if len(record.seats) >= table.spec.max_players:
        actions.remove("computer")
    return actions


def moves(table: LiveTable, seat: Seat) -> list[str]:
    """The moves the member at ``seat`` may make now (``member_actions``), in hand order."""
    return in_hand_order(table.choices(seat).values())


def sendable(table: LiveTable, seat: Seat) -> list[str]:
    """Every notation the member at ``seat`` may send now, exactly what is taken: in the lobby
    its actions and the yes to their questions; in play the moves, or in an open reaction window
    (Hej knekt) the presses."""
    record = table.record
    if table.damage is not None or not table.live:
        return []
    if record.status == "lobby":
        actions = lobby_actions(table, seat)
        user_id = record.seats[seat].user_id
        asked = [question(table, user_id, a) if user_id is not None else None for a in actions]
        return actions + [q.yes for q in asked if q is not None]
    game = table.game
    if game is None or record.status != "playing" or table.by_computer(seat):
        return []
    if table.reveal_at is not None:
        verbs = press_verbs(game, seat)
        order = [game.notation(a).split()[0] for a in game.legal_actions(seat)]
        return [verb for verb in dict.fromkeys(order) if verb in verbs]
    return moves(table, seat)


def panel_choices(table: LiveTable, seat: Seat) -> list[str]:
    """What the hand panel of ``seat`` offers: its moves, or while the seats to act play single
    cards its own cards ahead of its turn (``cards_ahead``: a click is still checked when it
    comes). A real-time game's presses are on the table message, not the panel."""
    if table.game is None:
        return []
    return list(table.worked_out("panel", seat, lambda game: _panel(table, game, seat)))


def _panel(table: LiveTable, game: Game, seat: Seat) -> tuple[str, ...]:
    return tuple(in_hand_order(list(table.choices(seat).values()) or cards_ahead(game, seat)))
