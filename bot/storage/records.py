"""The typed values that the storage reads and writes: frozen dataclasses, no SQL, no I/O.

Callers change a record with ``dataclasses.replace`` and hand it back to ``Storage`` to save.
Ids are Discord snowflakes (``guild_id``, ``channel_id``, ``user_id``...) or the storage's own
``table_id``; a ``seat`` is a game seat number (0..n-1), never a user.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, get_args

Language = Literal["sv", "en"]
TableStatus = Literal["lobby", "playing", "paused", "finished", "ended"]
ActionBy = Literal["member", "computer", "timeout"]
MemberChoice = Literal["hand_pictures", "turn_notices", "forced_cards"]
"""A member's own choices, each on until the member turns it off: the picture of their hand,
being told of their turn, and their only legal card played for them at once."""

LANGUAGES: frozenset[str] = frozenset(get_args(Language))
TABLE_STATUSES: frozenset[str] = frozenset(get_args(TableStatus))
LIVE_STATUSES: frozenset[str] = frozenset({"lobby", "playing", "paused"})
ACTION_BY: frozenset[str] = frozenset(get_args(ActionBy))
MEMBER_CHOICES: frozenset[str] = frozenset(get_args(MemberChoice))


@dataclass(frozen=True)
class GuildSettings:
    """A server's own choices; None means the bot's default from ``Settings``."""

    guild_id: int
    language: Language | None = None
    thread_per_table: bool = False
    turn_seconds: int | None = None
    reaction_seconds: int | None = None
    table_channels: tuple[int, ...] = ()
    """Channels where tables may be opened; empty: any channel."""
    pictures: bool = True
    """Whether the tables show card pictures beside their text."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat at a table: a member (``user_id``) or a computer player (``user_id`` None)."""

    seat: int
    user_id: int | None
    name: str
    ai: str = "rules"
    """The kind of computer player that plays this seat, or acts for the member."""
    autoplay: bool = False
    """A computer player acts for this member after repeated missed deadlines."""
    strikes: int = 0
    """Missed deadlines in a row."""
    left: bool = False
    """The member left during play; a computer player keeps the seat and they are placed last."""


@dataclass(frozen=True)
class TableRecord:
    """A table and its seats as stored; the game state is rebuilt from the action log."""

    table_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    host_id: int
    game_id: str
    options: tuple[tuple[str, str], ...]
    """Option name -> text value as typed; parsed by ``games.core.apply_option_text``."""
    variant: str
    seed: int
    status: TableStatus
    turn_seconds: int
    language: str
    version: int
    created_at: float
    updated_at: float
    deadline_at: float | None
    seats: tuple[SeatRecord, ...] = field(default=())
    end_reason: str | None = None

    @property
    def live(self) -> bool:
        """Still in the lobby or being played (restored after a restart)."""
        return self.status in LIVE_STATUSES

    def acted(self, version: int, updated_at: float, seats: tuple[SeatRecord, ...]) -> TableRecord:
        """This record after an action: ``dataclasses.replace`` of the three fields an action
        changes, without its work by field name, which every action of every table paid."""
        record = object.__new__(TableRecord)
        fields = record.__dict__
        fields.update(self.__dict__)
        fields["version"], fields["updated_at"], fields["seats"] = version, updated_at, seats
        return record


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One entry of a table's append-only action log, in game notation."""

    seq: int
    seat: int
    notation: str
    at: float
    by: ActionBy


@dataclass(frozen=True)
class Damage:
    """What is wrong with a stored table that cannot go on: a corrupt row of its action log
    (``seq``: the first action not restored) or of the table itself (``seq`` None)."""

    reason: str
    """``notation``, ``seat``, ``gap``, ``row`` (an action), or ``options``, ``variant``,
    ``game``, ``status``, ``seats``, ``table`` (the table): the key of its text in
    ``ui.damage``."""
    detail: str
    """The row and what is wrong with it, in English, for the log and ``kortbord health``."""
    seq: int | None = None


@dataclass(frozen=True)
class StoredTable:
    """A live table as read for a restart: its record, the sound part of its action log, and
    what is wrong with the rest, if anything."""

    record: TableRecord
    actions: list[ActionRecord]
    damage: Damage | None = None


@dataclass(frozen=True)
class Skill:
    """A member's stored skill at one game on one server: two plain numbers, whatever they mean
    to the code that rates (the storage only keeps them)."""

    mu: float
    sigma: float


@dataclass(frozen=True)
class StandingRow:
    """A member's stored standing at one game on one server."""

    user_id: int
    name: str
    games: int
    wins: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class GameRow:
    """A member's stored record in one game on one server (rated tables only)."""

    game_id: str
    games: int
    wins: int
    places: tuple[int, ...]
    """How many times the member came 1st, 2nd, ... (index 0 is 1st)."""
    mu: float
    sigma: float


@dataclass(frozen=True)
class RatedMember:
    """A member whose standing a finished table changes: their seat's user, name and place."""

    user_id: int
    name: str
    place: int


@dataclass(frozen=True)
class Rated:
    """Who a finished table rates and how, decided by the caller (``finish_table``): ``rate``
    is given the members' stored skills (None where a member has none yet), in the order of
    ``members``, and returns their new ones; it runs inside the finishing transaction."""

    members: tuple[RatedMember, ...]
    rate: Callable[[list[Skill | None]], list[Skill]]


@dataclass(frozen=True)
class SkillChange:
    """A member's stored skill before (None: they had none) and after a finished table."""

    user_id: int
    before: Skill | None
    after: Skill


@dataclass(frozen=True)
class Shards:
    """The gateway shards one bot process serves: ``ids`` out of ``count``.

    Discord puts a server on shard ``(guild_id >> 22) % count``; a process restores and
    serves only the tables of its shards' servers.
    """

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError(f"the shard count must be at least 1, not {self.count}")
        if not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {list(self.ids)} are not all in 0..{self.count - 1}")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"shards {list(self.ids)} name a shard twice")

    @classmethod
    def parse(cls, text: str, count: int) -> Shards:
        """``0-3``, ``4,5`` or ``0-1,6``: the shards named, out of ``count``."""
        ids: list[int] = []
        for part in text.replace(" ", "").split(","):
            first, dash, last = part.partition("-")
            if not first.isdigit() or (dash and not last.isdigit()):
                raise ValueError(f"{text!r} is not a shard range such as 0-3 or 4,5")
            low, high = int(first), int(last) if dash else int(first)
            if high < low:
                raise ValueError(f"{part!r} runs backwards")
            ids.extend(range(low, high + 1))
        return cls(count, tuple(ids))

    @classmethod
    def all(cls, count: int = 1) -> Shards:
        return cls(count, tuple(range(count)))

    def of(self, guild_id: int) -> int:
        """The shard of a server (Discord's rule)."""
        return (guild_id >> 22) % self.count

    def serves(self, guild_id: int) -> bool:
        return self.of(guild_id) in self.ids

    @property
    def label(self) -> str:
        """``0-3`` for a run of shards, else ``0,2,5``."""
        ids = sorted(self.ids)
        if ids == list(range(ids[0], ids[-1] + 1)):
            return str(ids[0]) if len(ids) == 1 else f"{ids[0]}-{ids[-1]}"
        return ",".join(map(str, ids))
