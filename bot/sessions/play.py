"""Play: a member's action checked and applied, the one path every move takes to the log, and
the match's end (its result stored, or the table ended).

A member's action is checked (seat, version, autoplay), tried on a copy of the match, written to
the append-only log, and only then becomes the table's state. A panel's controls carry the
version they were built at and stay valid for their seat until that seat acts (or a new deal
starts): other seats' moves do not make a waiting member's panel stale, while a second click on a
panel built before the seat's own move is refused instead of applied twice.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from bot import leaderboard
from bot.errors import UserError
from bot.refusals import refusal
from bot.sessions.moves import only_card
from bot.sessions.rebuild import replay
from bot.sessions.table import ActedBy, LiveTable, require_seat
from bot.storage import DuplicateActionError, StorageError, StorageUnavailable
from bot.storage.records import ActionRecord, SeatRecord
from bot.verify import final_places, fingerprint
from games.core import IllegalActionError, NotationError, Seat

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager

log = logging.getLogger(__name__)

STRIKES_FOR_AUTOPLAY = 2
"""Deadlines missed in a row after which the computer player keeps a member's seat until the
member takes it back."""


class Play:
    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions

    async def act(self, table_id: int, user_id: int, version: int, notation: str) -> LiveTable:
        """A member's action from a panel built at ``version``; refused unless still current."""
        sessions = self.sessions
        table = sessions.require_by_id(table_id)
        async with sessions.changing(table):
            seat = require_seat(table, user_id)
            if not table.panel_valid(seat, version):
                raise UserError("stale_panel")
            game = table.game
            if game is None or table.record.status != "playing":
                raise UserError("not_playing")
            if table.record.seats[seat].autoplay:
                raise UserError("autoplay_on")
            try:
                action = game.parse(notation)
            except NotationError as error:
                raise UserError("bad_action", detail=str(error)) from None
            if seat not in game.to_act() or action not in table.choices(seat):
                # not the seat's turn, a card it may not play, or a forged control (a timed
                # action, the timer's close): refused with the reason, in the game's words
                allowed = table.choices(seat).values()
                raise refusal(game, seat, notation, list(allowed))
            hands_before = sessions.hands(table)
            try:
                await self.apply(table, seat, action, by="member")
            except IllegalActionError as error:
                raise UserError("illegal_action", detail=str(error)) from None
            sessions.deadlines.touch(table)
            hands = sessions.changed_hands(table, hands_before)
        await sessions.tell(table, hands)
        return table

    async def reclaim(self, channel_id: int, user_id: int) -> LiveTable:
        """The member takes their seat back from the computer player."""
        sessions = self.sessions
        table = sessions.require_table(channel_id)
        async with sessions.changing(table):
            seat = require_seat(table, user_id)
            if not table.record.seats[seat].autoplay:
                raise UserError("not_autoplay")
            seats = list(table.record.seats)
            seats[seat] = dataclasses.replace(seats[seat], autoplay=False, strikes=0)
            await sessions.save(table, dataclasses.replace(table.record, seats=tuple(seats)))
            sessions.deadlines.touch(table)
            sessions.deadlines.arm(table)
        await sessions.tell(table, frozenset({seat}))
        return table

    async def apply(
        self, table: LiveTable, seat: Seat, action: int, *, by: ActedBy, chosen: bool = True
    ) -> None:
        """Try ``action`` on a copy, log it, then make the copy the table's match. ``chosen``:
        the seat chose it (False for a forced card), so panels built before it are stale."""
        sessions = self.sessions
        assert table.game is not None
        if table.unsure:
            await self.catch_up(table)
        assert table.game is not None
        trial = table.game.clone()
        trial.apply(seat, action)  # raises IllegalActionError, leaving the table as it was
        seats = table.record.seats
        if seats[seat].user_id is not None:
            if by == "member" and seats[seat].strikes:
                seats = _with_seat(seats, seat, dataclasses.replace(seats[seat], strikes=0))
            elif by == "timeout":
                strikes = seats[seat].strikes + 1
                seats = _with_seat(
                    seats,
                    seat,
                    dataclasses.replace(
                        seats[seat], strikes=strikes, autoplay=strikes >= STRIKES_FOR_AUTOPLAY
                    ),
                )
        now = sessions.clock.now()
        record = table.record.acted(table.version + 1, now, seats)
        entry = ActionRecord(table.seq + 1, seat, trial.notation(action), now, by)
        try:
            await sessions.storage.record_action(
                record, entry, seats=seats is not table.record.seats
            )
        except StorageError as error:
            # a full or failing disk, a database away or too slow: the table stays as it was
            # (nothing half-applied), and a member is told their move was not saved, so they
            # can try again. An outage is logged by the storage, once.
            if isinstance(error, StorageUnavailable | DuplicateActionError):
                table.unsure = True  # it may have been kept: read the log before the next one
            level = logging.DEBUG if isinstance(error, StorageUnavailable) else logging.ERROR
            log.log(level, "table %s: action %s not saved: %s", table.table_id, entry.seq, error)
            raise UserError(self.not_saved_key) from None
        deal = table.deal_number()
        table.record, table.game, table.seq = record, trial, table.seq + 1
        new_deal = table.deal_number() != deal
        if chosen:
            table.acted_version[seat] = record.version
        if new_deal:
            table.deal_version = record.version
            await self.deal_shown(table)
        table.save_failures = 0
        table.turn_deadlines.pop(seat, None)  # a seat that acts again gets a fresh deadline
        if table.timeouts:
            if by == "member":  # the member is back: their timeout notice has been seen
                table.timeouts = [t for t in table.timeouts if t.seat != seat]
            table.timeouts = table.recent_timeouts()
        if trial.is_over():
            try:
                await self.finish(table)
            except StorageError as error:
                # the last move is saved, the result not: the match stays over but live, and
                # the result is tried again later (a restart would finish it too)
                log.warning("table %s: the result was not saved: %s", table.table_id, error)
                table.computer_timer = sessions.clock.call_at(
                    sessions.deadlines.retry_at(table), lambda: self.finish_later(table)
                )
            return
        sessions.reactions.follow(table)
        if not await self.play_forced_card(table):
            sessions.deadlines.arm(table)

    async def deal_shown(self, table: LiveTable) -> None:
        """Keeps the fingerprint the deal starting now shows (``bot.verify``), so that a seed
        changed later no longer matches it. A failing disk loses this line, never the move."""
        game = table.game
        if game is None or game.is_over():
            return
        deal = table.deal_number()
        shown = fingerprint(table.record.seed, table.table_id, deal)
        try:
            await self.sessions.storage.record_deal_print(
                table.table_id, deal, shown, self.sessions.clock.now()
            )
        except StorageError as error:
            log.error("table %s: deal %d's fingerprint not kept: %s", table.table_id, deal, error)

    @property
    def not_saved_key(self) -> str:
        """What a member is told when their move was not saved, in words that fit where the
        storage says its data lives: Kortbord's own disk, or a database server."""
        return f"not_saved_{self.sessions.storage.place}"

    async def catch_up(self, table: LiveTable) -> None:
        """The table after a write that got no answer: if the database kept it after all, the
        table becomes what is stored (its action applied), and the action being tried now was
        chosen on the state before it, so it is refused as stale (a computer player or a
        deadline tries again from the new state). Raises ``UserError`` (not saved) while the
        database is still away."""
        sessions = self.sessions
        assert table.game is not None
        try:
            stored = await sessions.storage.actions(table.table_id)
            record = await sessions.storage.table(table.table_id)
        except StorageError as error:
            log.debug("table %s: the log cannot be read yet: %s", table.table_id, error)
            raise UserError(self.not_saved_key) from None
        table.unsure = False
        if len(stored) <= table.seq or record is None:
            return
        log.warning(
            "table %s: action %d was kept although its write got no answer; the table goes on"
            " from it",
            table.table_id,
            len(stored),
        )
        game = replay(record, stored)
        table.record, table.game, table.seq = record, game, len(stored)
        table.deal_version = record.version
        table.turn_deadlines.clear()
        if game.is_over():
            table.computer_timer = sessions.clock.call_at(
                sessions.clock.now(), lambda: self.finish_later(table)
            )
        else:
            sessions.reactions.follow(table)
            sessions.deadlines.arm(table)
        raise UserError("stale_panel")

    async def play_forced_card(self, table: LiveTable) -> bool:
        """Play a member's only legal card for them, in the same change as the move that led to
        it (one table edit shows both). Their panel stays valid: it made no choice of theirs. A
        card that cannot be saved, or whose member's choice cannot be read, is left for the
        member to play; False when none was played."""
        game = table.game
        if game is None or table.in_window or game.is_over() or self.sessions.closing:
            return False
        for seat in sorted(game.to_act()):
            record = table.record.seats[seat]
            if record.user_id is None or table.by_computer(seat):
                continue
            card = only_card(table.single(seat))
            if card is None:
                continue
            try:
                wanted = await self.sessions.choices.get("forced_cards", record.user_id)
            except StorageError as error:
                # as a forced card that cannot be saved: left for the member to play (the move
                # before it is saved and stands); an outage is logged by the storage, once
                log.debug("table %s: forced card left to seat %d: %s", table.table_id, seat, error)
                return False
            if not wanted:
                continue
            try:
                await self.apply(table, seat, card, by="computer", chosen=False)
            except UserError:
                return False
            return True
        return False

    async def hand_over(self, table: LiveTable, seat: Seat, *, left: bool) -> None:
        """A computer player takes ``seat`` for good (its member left, or was kicked)."""
        seats = list(table.record.seats)
        seats[seat] = dataclasses.replace(seats[seat], autoplay=True, left=left)
        await self.sessions.save(table, dataclasses.replace(table.record, seats=tuple(seats)))
        if not any(not s.autoplay for s in table.members()):
            await self.end(table, "abandoned")
        else:
            self.sessions.deadlines.arm(table)

    # --- the end --------------------------------------------------------------------------------

    async def finish(self, table: LiveTable) -> None:
        """The match is over: its result and places are stored and the table leaves."""
        assert table.game is not None
        # a member who left is placed last, and drags their side down with them
        left = [s.seat for s in table.record.seats if s.left]
        places = final_places(table.game, left)
        table.ratings = await leaderboard.finish_table(
            self.sessions.storage,
            table.record,
            table.game.result().scores,
            places,
            table.view(None).teams,
        )
        table.record = dataclasses.replace(
            table.record, status="finished", version=table.version + 1
        )
        self.sessions.unregister(table)

    async def finish_later(self, table: LiveTable) -> None:
        """The result of a match that is over, stored now: its first write failed."""
        sessions = self.sessions
        table.computer_timer = None
        async with table.lock:
            game = table.game
            if game is None or not game.is_over() or table.record.status != "playing":
                return
            try:
                await self.finish(table)
            except StorageError as error:
                log.debug("table %s: the result was not saved: %s", table.table_id, error)
                table.computer_timer = sessions.clock.call_at(
                    sessions.deadlines.retry_at(table), lambda: self.finish_later(table)
                )
                return
        await sessions.tell(table, frozenset())

    async def end(self, table: LiveTable, reason: str) -> None:
        """The table ends before its match did (``reason``: the host, idleness, abandoned...)."""
        storage = self.sessions.storage
        if table.damage is not None:
            await storage.end_damaged_table(table.record, reason)
        else:
            await storage.end_table(table.record, reason)
        table.record = dataclasses.replace(
            table.record, status="ended", end_reason=reason, version=table.version + 1
        )
        self.sessions.unregister(table)


def _with_seat(
    seats: tuple[SeatRecord, ...], seat: Seat, changed: SeatRecord
) -> tuple[SeatRecord, ...]:
    """``seats`` with ``changed`` at ``seat``."""
    return (*seats[:seat], changed, *seats[seat + 1 :])
