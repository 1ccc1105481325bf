"""The lobby: a table opened, members and computer players seated or leaving, the match started
or ended by its host, and a rematch of a finished table in the same channel.

During play, leaving hands the seat to a computer player for good (:meth:`Play.hand_over`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.errors import UserError
from bot.sessions.rebuild import game_options, replay, seats_wanted
from bot.sessions.table import ENDS_AT, LiveTable, Member, require_seat
from bot.storage.records import SeatRecord
from bot.thinking import SEARCH_KINDS
from games import ai
from games.core import OptionError, apply_option_text
from games.registry import SPECS

if TYPE_CHECKING:
    from bot.sessions.manager import SessionManager


class Lobby:
    def __init__(self, sessions: SessionManager) -> None:
        self.sessions = sessions

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host: Member,
        game_id: str,
        variant: str = "standard",
        options: Mapping[str, str] | None = None,
        turn_seconds: int | None = None,
        language: str = "sv",
        thread_id: int | None = None,
        seed: int | None = None,
    ) -> LiveTable:
        """A new table in its lobby, hosted by ``host``. ``seed`` deals its cards (a table of the
        day's, the same for every member); a fresh one is drawn when None."""
        sessions = self.sessions
        sessions.require_open()
        if game_id not in SPECS:
            raise UserError("unknown_game", game=game_id)
        if sessions.channel_taken(channel_id):
            raise UserError("channel_busy")
        sessions.check_free(host.user_id)
        spec = SPECS[game_id]
        option_text = dict(options or {})
        try:
            apply_option_text(spec.preset(variant), game_options(option_text))
        except OptionError as error:
            if error.msg is not None and error.msg.key == "options.error.out_of_range":
                raise UserError("option_range", **dict(error.msg.args)) from None
            raise UserError("bad_option", detail=str(error)) from None
        now = sessions.clock.now()
        record = await sessions.storage.create_table(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            message_id=None,
            host_id=host.user_id,
            game_id=game_id,
            options=tuple(sorted(option_text.items())),
            variant=variant,
            seed=sessions.rng.getrandbits(62) if seed is None else seed,
            status="lobby",
            turn_seconds=turn_seconds or sessions.turn_seconds,
            language=language,
            version=1,
            created_at=now,
            updated_at=now,
            deadline_at=None,
            seats=(SeatRecord(seat=0, user_id=host.user_id, name=host.name),),
            end_reason=None,
        )
        table = LiveTable(record, last_member_action=now)
        sessions.register(table)
        sessions.deadlines.arm_idle(table)
        return table

    async def discard(self, table: LiveTable, reason: str) -> None:
        """Ends a new table whose message could not be posted: nobody can reach it, and it must
        not hold its channel and host."""
        async with table.lock:
            if table.live:
                await self.sessions.play.end(table, reason)

    async def attach_message(self, table: LiveTable, message_id: int) -> None:
        """Remember the public table message, so it can be edited after a restart."""
        async with table.lock:
            await self.sessions.save(
                table, dataclasses.replace(table.record, message_id=message_id), bump=False
            )

    async def join(self, channel_id: int, member: Member) -> LiveTable:
        sessions = self.sessions
        table = sessions.require_table(channel_id)
        async with sessions.changing(table):
            require_lobby(table)
            if table.seat_of(member.user_id) is not None:
                raise UserError("already_at_this_table")
            sessions.check_free(member.user_id)
            if len(table.record.seats) >= table.spec.max_players:
                raise UserError("table_full", players=table.spec.max_players)
            seats = (
                *table.record.seats,
                SeatRecord(len(table.record.seats), member.user_id, member.name),
            )
            await sessions.save(table, dataclasses.replace(table.record, seats=seats))
            sessions.seat_member(member.user_id, table)
            sessions.deadlines.touch(table)
        await sessions.tell(table, frozenset())
        return table

    async def add_computer(
        self, channel_id: int, user_id: int, level: str = ai.DEFAULT_LEVEL
    ) -> LiveTable:
        """A computer player of ``level`` (``easy``, ``normal`` or ``hard``) takes the next seat."""
        sessions = self.sessions
        table = sessions.require_table(channel_id)
        if level not in ai.LEVELS:
            raise UserError("bad_level")
        async with sessions.changing(table):
            require_lobby(table)
            require_seat(table, user_id)
            if len(table.record.seats) >= table.spec.max_players:
                raise UserError("table_full", players=table.spec.max_players)
            seat = SeatRecord(len(table.record.seats), None, "", ai=level)
            seats = (*table.record.seats, seat)
            await sessions.save(table, dataclasses.replace(table.record, seats=seats))
            sessions.deadlines.touch(table)
        if level in SEARCH_KINDS:
            sessions.thinker.warm()
        await sessions.tell(table, frozenset())
        return table

    async def leave(self, channel_id: int, user_id: int) -> LiveTable:
        """In the lobby the seat is freed; during play a computer player takes it over for good."""
        sessions = self.sessions
        table = sessions.require_table(channel_id)
        async with sessions.changing(table):
            seat = require_seat(table, user_id)
            if table.record.status == "lobby":
                remaining = [s for s in table.record.seats if s.seat != seat]
                if not any(s.user_id is not None for s in remaining):
                    await sessions.play.end(table, "empty")
                    return table
                seats = tuple(dataclasses.replace(s, seat=i) for i, s in enumerate(remaining))
                host = table.record.host_id
                if host == user_id:
                    host = next(s.user_id for s in seats if s.user_id is not None)
                await sessions.save(
                    table, dataclasses.replace(table.record, seats=seats, host_id=host)
                )
            else:
                await sessions.play.hand_over(table, seat, left=True)
            sessions.unseat_member(user_id)
        await sessions.tell(table, frozenset())
        return table

    async def kick(self, channel_id: int, host_id: int, target_id: int) -> LiveTable:
        table = self.sessions.require_table(channel_id)
        if table.record.host_id != host_id:
            raise UserError("host_only")
        if target_id == host_id:
            raise UserError("cannot_kick_self")
        if table.seat_of(target_id) is None:
            raise UserError("not_at_table")
        return await self.leave(channel_id, target_id)

    async def start(self, channel_id: int, user_id: int) -> LiveTable:
        sessions = self.sessions
        table = sessions.require_table(channel_id)
        async with sessions.changing(table):
            require_lobby(table)
            if table.record.host_id != user_id:
                raise UserError("host_only")
            seats = list(table.record.seats)
            while len(seats) < seats_wanted(table.record):
                seats.append(SeatRecord(len(seats), None, ""))
            record = dataclasses.replace(table.record, seats=tuple(seats), status="playing")
            try:
                game = replay(record, [])
            except ValueError as error:
                raise UserError("cannot_start", detail=str(error)) from None
            table.game = game
            table.seq = 0
            await sessions.save(table, record)
            await sessions.play.deal_shown(table)
            sessions.deadlines.touch(table)
            sessions.deadlines.arm(table)
        await sessions.tell(table, sessions.member_seats(table))
        return table

    async def end(self, channel_id: int, user_id: int, *, admin: bool = False) -> LiveTable:
        sessions = self.sessions
        table = sessions.require_table(channel_id)
        if not admin and table.record.host_id != user_id:
            raise UserError("host_only")
        async with table.lock:  # a damaged table too: ending it is what is left to do
            sessions.require_open()
            if not table.live:
                raise UserError("table_gone")
            await sessions.play.end(table, "ended_by_host" if not admin else "ended_by_admin")
        await sessions.tell(table, frozenset())
        return table

    async def rematch(self, table_id: int, member: Member, *, admin: bool = False) -> LiveTable:
        """A new match of a finished table, in the same channel: the same members and computer
        players in the same seats, the same game, variant, options and turn time. It opens as a
        lobby so that anyone may still leave. Only a member seated at the end of the finished
        match (not one who left or was kicked) or an administrator starts it, and its host is
        seated: ``member``, or for an administrator not seated, the first member seated."""
        sessions = self.sessions
        sessions.require_open()
        old = await sessions.storage.table(table_id)
        if old is None or old.status != "finished":
            raise UserError("table_gone")
        if ENDS_AT in dict(old.options):
            raise UserError("no_rematch")  # a table of the day: its deal is played once
        members = [s for s in old.seats if s.user_id is not None and not s.left]
        if not admin and not any(s.user_id == member.user_id for s in members):
            raise UserError("not_seated")
        if not members:
            raise UserError("table_gone")  # only computer players are left to play again
        host_id = next(
            (s.user_id for s in members if s.user_id == member.user_id), members[0].user_id
        )
        assert host_id is not None
        if sessions.channel_taken(old.channel_id):
            raise UserError("channel_busy")
        for s in members:
            assert s.user_id is not None
            sessions.check_free(s.user_id)
        now = sessions.clock.now()
        seats = tuple(
            SeatRecord(
                seat=s.seat,
                user_id=None if s.left else s.user_id,
                name="" if s.left else s.name,
                ai=s.ai,
            )
            for s in old.seats
        )
        record = await sessions.storage.create_table(
            guild_id=old.guild_id,
            channel_id=old.channel_id,
            thread_id=old.thread_id,
            message_id=None,
            host_id=host_id,
            game_id=old.game_id,
            options=old.options,
            variant=old.variant,
            seed=sessions.rng.getrandbits(62),
            status="lobby",
            turn_seconds=old.turn_seconds,
            language=old.language,
            version=1,
            created_at=now,
            updated_at=now,
            deadline_at=None,
            seats=seats,
            end_reason=None,
        )
        table = LiveTable(record, last_member_action=now)
        sessions.register(table)
        sessions.deadlines.arm_idle(table)
        return table


def require_lobby(table: LiveTable) -> None:
    if table.record.status != "lobby":
        raise UserError("already_started")
