"""Computer players at a table: a computer seat's move, a forced pass played for a member, and the
move made for a member whose deadline passed. They move after a short pause and think outside the
table's lock (``bot.thinking``), on a copy of the match, so members' clicks are taken meanwhile;
if the table moved on while one thought, it thinks again from there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.sessions.deadlines import played_by_table
from bot.sessions.moves import forced_pass
from bot.sessions.table import ActedBy, LiveTable
from games import ai
from games.core import Action, Seat

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager


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
            forced = None if table.by_computer(seat) else forced_pass(game, seat)
            if forced is not None:
                hands_before = sessions.hands(table)
                if not await self.applies(table, seat, forced):
                    return
                hands = sessions.changed_hands(table, hands_before)
            else:
                seq, snapshot, kind = table.seq, game.clone(), self.kind_of(table, seat)
                table.thinking = True
        if forced is None:
            try:
                action = await sessions.thinker.choose(
                    snapshot, seat, kind, sessions.rng.getrandbits(64)
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
        snapshot = table.game.clone()
        kind = self.kind_of(table, seat)
        action = await sessions.thinker.choose(snapshot, seat, kind, sessions.rng.getrandbits(64))
        notation = table.game.notation(action)
        await sessions.play.apply(table, seat, action, by=by)
        return notation

    @staticmethod
    def kind_of(table: LiveTable, seat: Seat) -> str:
        """The kind of computer player that moves for ``seat``: the level the host chose for a
        computer seat; ``normal`` for a member's seat taken over after missed turns."""
        record = table.record.seats[seat]
        return record.ai if record.user_id is None else ai.TAKEOVER_LEVEL
