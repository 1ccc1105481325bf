"""Computer players at a table: a computer seat's move, a forced pass played for a member, and the
move made for a member whose deadline passed. They move after a short pause and think outside the
table's lock (``bot.thinking``), on a copy of the match, so members' clicks are taken meanwhile;
if the table moved on while one thought, it thinks again from there.

At a table whose members compare results (a table of the day, ``DAY_OPTION``), every decision
is a function of the deal's seed, the position and the level (:func:`fixed_position`): it is
made on the match as it stood when the seat's turn began (so a member's choice made meanwhile in
a simultaneous phase, sooner or later, changes nothing), with a seed drawn from the deal's seed,
the level, the seat and the log up to there, and a search bounded by a count of playouts, never
by the clock (``Thinker.counted_playouts``). Two members who make the same moves meet the same
moves, whatever the machine's load.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.sessions.deadlines import played_by_table
from bot.sessions.moves import only_pass
from bot.sessions.rebuild import replay
from bot.sessions.table import DAY_OPTION, ActedBy, LiveTable
from bot.storage import StorageError
from bot.storage.records import ActionRecord, TableRecord
from games import ai
from games.core import Action, Game, Seat

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager


@dataclass(frozen=True)
class Position:
    """What a computer player decides on: a copy of the match, the decision's seed, and its
    budget in playouts (None: the thinker's time budget)."""

    game: Game
    seed: int
    playouts: int | None = None


def fixed_position(
    record: TableRecord, actions: Sequence[ActionRecord], seat: Seat, level: str
) -> tuple[Game, int]:
    """The match as it stood when ``seat``'s turn began (after the last action that made it due,
    its own or another's) and a seed from the deal's seed, the level, the seat and the log up
    to there: what a table of the day's computer player decides on. Where the seat's choices
    then differ from its choices now, the match as it stands now."""
    game = replay(record, [])
    due = seat in game.to_act()
    start, snapshot = 0, game.clone()
    for done, entry in enumerate(actions, start=1):
        game.apply(entry.seat, game.parse(entry.notation))
        now_due = seat in game.to_act()
        if now_due and (not due or entry.seat == seat):
            start, snapshot = done, game.clone()
        due = now_due
    if snapshot.legal_actions(seat) != game.legal_actions(seat):
        start, snapshot = len(actions), game
    log = "".join(f"|{a.seat}:{a.notation}" for a in actions[:start])
    text = f"kortbord-computer:{record.seed}:{level}:{seat}:{log}"
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    return snapshot, seed


class ComputerPlayers:
    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions

    async def move(self, table: LiveTable) -> None:
        """The next computer move at ``table`` (the first seat the table moves for)."""
        sessions = self.sessions
        table.computer_timer = None
        if table.thinking:
            return  # the computer player thinking now moves, or asks again, when it is done
        async with table.lock:
            game = table.game
            if game is None or table.record.status != "playing" or table.in_window:
                return
            seats = sorted(s for s in game.to_act() if played_by_table(table, s))
            if not seats:
                return
            seat = seats[0]
            forced = None if table.by_computer(seat) else only_pass(table.single(seat))
            position: Position | None = None
            if forced is not None:
                hands_before = sessions.hands(table)
                if not await self.applies(table, seat, forced):
                    return
                hands = sessions.changed_hands(table, hands_before)
            else:
                seq, kind = table.seq, self.kind_of(table, seat)
                position = await self.position(table, seat, kind)
                if position is None:
                    return  # the log cannot be read now: tried again later
                table.thinking = True
        if forced is None:
            assert position is not None
            try:
                action = await sessions.thinker.choose(
                    position.game, seat, kind, position.seed, playouts=position.playouts
                )
            finally:
                table.thinking = False
            async with table.lock:
                if (
                    table.game is None
                    or table.record.status != "playing"
                    or table.seq != seq
                    or not table.by_computer(seat)
                ):
                    sessions.deadlines.arm(table)  # the table moved on: think again from there
                    return
                hands_before = sessions.hands(table)
                if not await self.applies(table, seat, action):
                    return
                hands = sessions.changed_hands(table, hands_before)
        await sessions.tell(table, hands)

    async def applies(self, table: LiveTable, seat: Seat, action: Action) -> bool:
        """A computer player's move applied; when it cannot be saved (a failing disk), it is tried
        again later, waiting longer each time, and False says so."""
        sessions = self.sessions
        try:
            await sessions.play.apply(table, seat, action, by="computer")
        except UserError:
            table.computer_timer = sessions.clock.call_at(
                sessions.deadlines.retry_at(table), lambda: self.move(table)
            )
            return False
        return True

    async def act(self, table: LiveTable, seat: Seat, *, by: ActedBy) -> str:
        """A computer player's move for ``seat`` (under the table's lock); returns its notation."""
        sessions = self.sessions
        assert table.game is not None
        kind = self.kind_of(table, seat)
        position = await self.position(table, seat, kind)
        if position is None:
            raise UserError(sessions.not_saved_key)
        action = await sessions.thinker.choose(
            position.game, seat, kind, position.seed, playouts=position.playouts
        )
        notation = table.game.notation(action)
        await sessions.play.apply(table, seat, action, by=by)
        return notation

    async def position(self, table: LiveTable, seat: Seat, kind: str) -> Position | None:
        """What the computer player of ``seat`` decides on (under the table's lock): a copy of
        the match and a fresh seed; at a table of the day, :func:`fixed_position` and a count of
        playouts. None (and a try later) when the log of a table of the day cannot be read."""
        sessions = self.sessions
        assert table.game is not None
        if DAY_OPTION not in dict(table.record.options):
            return Position(table.game.detached(), sessions.rng.getrandbits(64))
        try:
            actions = await sessions.storage.actions(table.table_id)
        except StorageError:
            table.computer_timer = sessions.clock.call_at(
                sessions.deadlines.retry_at(table), lambda: self.move(table)
            )
            return None
        if len(actions) != table.seq:  # a write that got no answer: decide on the table's own
            return Position(table.game.detached(), sessions.rng.getrandbits(64))
        game, seed = fixed_position(table.record, actions, seat, kind)
        return Position(game, seed, sessions.thinker.counted_playouts)

    @staticmethod
    def kind_of(table: LiveTable, seat: Seat) -> str:
        """The kind of computer player that moves for ``seat``: the level the host chose for a
        computer seat; ``normal`` for a member's seat taken over after missed turns."""
        record = table.record.seats[seat]
        return record.ai if record.user_id is None else ai.TAKEOVER_LEVEL
