"""Reaction windows, for real-time games (Hej knekt): a phase whose message carries ``window_ms``.

A window opens when its turned card can be seen, not when the server turned it: where a face
shows the table (``waits_for_sight``: the Discord face, once Discord has acknowledged the edit
that shows the card; the demo, once its page shows it) the face says so (:meth:`seen`), and the
window's length and the computer players' reactions count from then. A face that cannot show it
leaves the window to open by itself after ``SIGHT_PATIENCE`` seconds, so a match never stalls.
Presses are stamped in milliseconds since the opening (:meth:`ReactionWindows.press`), computer
players press at human-like delays, and a timer applies ``close`` when the window's time is up
(or as soon as its outcome is certain). A window runs on its own timers: no turn deadlines run
while one is open or waits to be seen.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bot.clock import TimerCallback
from bot.errors import UserError
from bot.sessions.moves import correct_press, decided_ms, press_floor, press_verbs, window_ms
from bot.sessions.table import LiveTable, require_seat
from games import ai
from games.core import IllegalActionError, NotationError, Seat

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager


SIGHT_PATIENCE = 10.0
"""Seconds a turned card waits to be seen before its window opens anyway (a face that failed)."""


class ReactionWindows:
    def __init__(self, sessions: SessionManager, *, waits_for_sight: bool = False) -> None:
        self.sessions = sessions
        self.waits_for_sight = waits_for_sight
        """Whether a face says when a turned card is seen (:meth:`seen`); else the window opens
        when the card is turned."""

    async def press(
        self, table_id: int, user_id: int, reveal_seq: int, verb: str, pressed_at: float
    ) -> LiveTable:
        """A member's reaction press on the card revealed at ``reveal_seq``.

        ``pressed_at`` is Discord's time of the click (from the interaction's id), so the bot's
        own delays do not count against the member; a press is stamped no earlier than what the
        window has already seen (rules/party.md 1.5: receive order breaks the tie).
        """
        sessions = self.sessions
        table = sessions.require_by_id(table_id)
        async with sessions.changing(table):
            seat = require_seat(table, user_id)
            game = table.game
            if game is None or table.record.status != "playing":
                raise UserError("not_playing")
            if table.window_unseen and table.reveal_seq == reveal_seq:
                self.open_now(table)  # a member pressed on it: the card was seen
            length = window_ms(table.view(None))
            now_ms = (
                round((sessions.clock.now() - table.reveal_at) * 1000)
                if table.reveal_at is not None
                else 0
            )
            if (
                table.reveal_at is None
                or table.reveal_seq != reveal_seq
                or length is None
                or now_ms >= length
            ):
                # the window of that card has closed (or its time is up by the server's clock,
                # its timer about to run): "För sent", also on buttons drawn after the close
                # while no card was turned since; a press when no card called for one is told so
                late = reveal_seq < table.seq or reveal_seq == table.window_closed_seq
                raise UserError("too_late" if late or table.reveal_at else "no_reaction_needed")
            if seat not in game.to_act():
                raise UserError("already_pressed")
            if verb not in press_verbs(game, seat):
                raise UserError("illegal_action")  # a forged button: no such press, or close
            floor = press_floor(game, seat) or 0
            # rules/party.md 1.5: the press's time is Discord's time of the click; it counts
            # while the window is open by the server's clock, within the window's length
            ms = min(max(floor, round((pressed_at - table.reveal_at) * 1000)), length - 1)
            ms = max(ms, floor)
            try:
                action = game.parse(f"{verb} {ms}")
                hands_before = sessions.hands(table)
                await sessions.play.apply(table, seat, action, by="member")
            except (NotationError, IllegalActionError) as error:
                raise UserError("illegal_action", detail=str(error)) from None
            sessions.deadlines.touch(table)
            hands = sessions.changed_hands(table, hands_before)
        await sessions.tell(table, hands)
        return table

    def follow(self, table: LiveTable) -> None:
        """Open or close the table's reaction window to match the match's phase. Only a
        realtime game opens one: another is not asked (its view is not worked out for it)."""
        assert table.game is not None
        if not table.spec.realtime and not table.in_window:
            return
        length = window_ms(table.view(None))
        if length is None and table.in_window:
            table.reveal_at = None
            table.window_unseen = False
            table.window_closed_seq = table.seq
            table.cancel_window()
        elif length is not None and not table.in_window:
            if not self.waits_for_sight:
                self.open(table, self.sessions.clock.now(), length)
                return
            # the card is turned; the window opens when a face has shown it (seen)
            table.window_unseen, table.reveal_seq = True, table.seq
            seq = table.seq
            table.window_timers.append(
                self.sessions.clock.call_at(
                    self.sessions.clock.now() + SIGHT_PATIENCE, lambda: self.seen(table, seq)
                )
            )
        elif length is not None and table.reveal_at is not None:
            decided = decided_ms(table.view(None))
            if decided is not None and decided < length:
                # the loser is certain from then on: close then rather than at the timeout
                seq = table.reveal_seq
                table.window_timers.append(
                    self.sessions.clock.call_at(
                        table.reveal_at + decided / 1000,
                        lambda: self.close(table, seq, decided),
                    )
                )

    async def seen(self, table: LiveTable, seq: int, at: float | None = None) -> None:
        """The card turned at action ``seq`` is shown to the members, at ``at`` (seconds since
        the epoch; now if None): its window opens then, if it still waits for that."""
        async with table.lock:
            if table.window_unseen and table.reveal_seq == seq and table.game is not None:
                self.open_now(table, at)

    def open_now(self, table: LiveTable, at: float | None = None) -> None:
        """Open the window that waits to be seen, at ``at`` (never later than now)."""
        length = window_ms(table.view(None))
        table.window_unseen = False
        table.cancel_window()
        if length is not None:
            now = self.sessions.clock.now()
            self.open(table, now if at is None else min(at, now), length)

    def open(self, table: LiveTable, revealed: float, length_ms: int) -> None:
        """The window of the card seen at ``revealed``: its close, and the computer players'
        presses, each at a human-like delay from then."""
        sessions = self.sessions
        game = table.game
        assert game is not None
        table.reveal_at, table.reveal_seq = revealed, table.seq
        seq = table.seq
        close_at = revealed + length_ms / 1000
        table.window_timers.append(
            sessions.clock.call_at(close_at, lambda: self.close(table, seq, length_ms))
        )
        for seat in sorted(game.to_act()):
            if not table.by_computer(seat):
                continue
            right = correct_press(game, seat)
            if right is None:
                continue
            wrong = [
                verb
                for verb in (game.notation(a).split()[0] for a in game.legal_actions(seat))
                if verb not in (right, "close")
            ]
            rng = random.Random(sessions.rng.getrandbits(64))
            reaction = ai.reaction_of(sessions.computers.kind_of(table, seat))
            presses = ai.reaction_presses(
                rng, median_ms=reaction.median_ms, wrong_rate=reaction.wrong_rate
            )
            for planned in presses:
                verb = right if planned.correct or not wrong else wrong[0]
                table.window_timers.append(
                    sessions.clock.call_at(
                        revealed + planned.at_ms / 1000,
                        self.timed_callback(table, seq, seat, verb, planned.at_ms),
                    )
                )

    async def close(self, table: LiveTable, seq: int, length_ms: int) -> None:
        game = table.game
        if game is None or not game.to_act():
            return
        await self.timed_action(table, seq, min(game.to_act()), "close", length_ms)

    async def timed_action(
        self, table: LiveTable, seq: int, seat: Seat, verb: str, at_ms: int
    ) -> None:
        """A press or the close of the window revealed at ``seq``, if it is still open."""
        sessions = self.sessions
        async with table.lock:
            game = table.game
            if (
                game is None
                or table.record.status != "playing"
                or table.reveal_at is None
                or table.reveal_seq != seq
                or seat not in game.to_act()
            ):
                return
            ms = max(at_ms, press_floor(game, seat) or 0)
            hands_before = sessions.hands(table)
            try:
                await sessions.play.apply(table, seat, game.parse(f"{verb} {ms}"), by="computer")
            except UserError:  # not saved (a failing disk): the window stays open until it is
                retry = self.timed_callback(table, seq, seat, verb, at_ms)
                table.window_timers.append(
                    sessions.clock.call_at(sessions.deadlines.retry_at(table), retry)
                )
                return
            hands = sessions.changed_hands(table, hands_before)
        await sessions.tell(table, hands)

    def timed_callback(
        self, table: LiveTable, seq: int, seat: Seat, verb: str, at_ms: int
    ) -> TimerCallback:
        async def timed() -> None:
            await self.timed_action(table, seq, seat, verb, at_ms)

        return timed
