"""Contract bidding shared by the games that bid for a contract (Tvåmansbridge, Femhundra).

A :class:`Ladder` is a game's bids from the lowest to the highest: every level in every strain
(``1C`` ... ``7NT``), with named bids such as Femhundra's ``misere`` placed among them. An
:class:`Auction` runs the calls of one deal on a ladder: whose turn it is, which calls are legal,
when the auction is over and what the contract is. The games only choose the rules that differ:

* ``rounds="until_passes"``: the auction goes round until the last bid (or double) has been
  followed by a pass from every other player still bidding; when nobody bids, it ends once all
  have passed (passed out). ``rounds="one"``: every player has exactly one call.
* ``pass_final``: a player who has passed may not bid again (Femhundra with four players).
* ``doubles``: ``double`` a bid of the other side, ``redouble`` the other side's double of a bid
  of your side; a new bid cancels both (Tvåmansbridge).

Calls are ints from ``base`` up (so that they do not collide with the game's card ints):
``base`` is pass, ``base + 1`` double, ``base + 2`` redouble and ``base + 3 + i`` the bid at
ladder position ``i``. Notation: ``pass``, ``double``, ``redouble``, ``bid 7NT``, ``bid misere``.

Pure: standard library only, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from games.core import Action, IllegalActionError, NotationError, Seat

PASS, DOUBLE, REDOUBLE = range(3)
FIRST_BID = 3
WORDS = ("pass", "double", "redouble")


@dataclass(frozen=True)
class Ladder:
    """The bids of a game, lowest first.

    ``strains`` are written lowest first (``("C", "D", "H", "S", "NT")``); ``specials`` are named
    bids, each placed just above the plain bid it names (``("misere", "7NT")``), or at the top
    when that is ``None``.
    """

    levels: tuple[int, ...]
    strains: tuple[str, ...]
    specials: tuple[tuple[str, str | None], ...] = ()
    bids: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        bids = [f"{level}{strain}" for level in self.levels for strain in self.strains]
        for word, after in self.specials:
            bids.insert(len(bids) if after is None else bids.index(after) + 1, word)
        object.__setattr__(self, "bids", tuple(bids))

    def index(self, text: str) -> int:
        """The ladder position of a bid written ``7NT``, ``6s`` or ``misere``; NotationError."""
        wanted = text.strip().upper()
        for i, bid in enumerate(self.bids):
            if bid.upper() == wanted:
                return i
        raise NotationError(f"not a bid: {text!r} (for example {self.bids[0]} or {self.bids[-1]})")

    def level(self, position: int) -> int | None:
        """The level of a plain bid (``7`` for ``7NT``); None for a named bid."""
        bid = self.bids[position]
        digits = len(bid) - len(bid.lstrip("0123456789"))
        return int(bid[:digits]) if digits else None

    def strain(self, position: int) -> str | None:
        """The strain of a plain bid (``NT`` for ``7NT``); None for a named bid."""
        bid = self.bids[position]
        return None if self.level(position) is None else bid.lstrip("0123456789")


@dataclass(frozen=True, slots=True)
class Contract:
    """The result of an auction: the bid's ladder position, who made it, 0/1/2 = -/X/XX."""

    bid: int
    declarer: Seat
    doubled: int = 0


class Auction:
    """The calls of one deal. ``order`` is the seats in bidding order, the first caller first."""

    __slots__ = (
        "base",
        "calls",
        "doubled",
        "doubles",
        "high",
        "high_seat",
        "ladder",
        "last_mover",
        "order",
        "out",
        "pass_final",
        "passes",
        "rounds",
        "sides",
        "turn",
    )

    def __init__(
        self,
        ladder: Ladder,
        order: Sequence[Seat],
        *,
        base: int,
        rounds: Literal["until_passes", "one"] = "until_passes",
        pass_final: bool = False,
        doubles: bool = False,
        sides: Sequence[int] | None = None,
    ) -> None:
        self.ladder = ladder
        self.order = tuple(order)
        self.base = base
        self.rounds = rounds
        self.pass_final = pass_final
        self.doubles = doubles
        # side of each seat (by seat number); by default every seat is a side of its own
        self.sides = tuple(sides) if sides is not None else tuple(range(max(self.order) + 1))
        self.calls: list[tuple[Seat, int]] = []  # (seat, call) with calls relative to base
        self.high = -1  # ladder position of the highest bid, -1 before any
        self.high_seat = -1
        self.doubled = 0
        self.last_mover = -1  # seat of the last bid, double or redouble
        self.passes = 0  # passes since the last bid, double or redouble
        self.out: set[Seat] = set()
        self.turn = 0  # index into order of the seat to call, -1 when over

    # --- reading --------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.turn < 0

    def to_call(self) -> Seat | None:
        return None if self.turn < 0 else self.order[self.turn]

    def contract(self) -> Contract | None:
        """The contract once the auction is over; None while it runs or when all passed."""
        if self.turn >= 0 or self.high < 0:
            return None
        return Contract(self.high, self.high_seat, self.doubled)

    def legal(self, seat: Seat) -> list[Action]:
        if seat != self.to_call():
            return []
        out = [self.base + PASS]
        if self.doubles and self.last_mover >= 0 and self._opponent(seat, self.last_mover):
            if self.doubled == 0 and self._opponent(seat, self.high_seat):
                out.append(self.base + DOUBLE)
            elif self.doubled == 1 and not self._opponent(seat, self.high_seat):
                out.append(self.base + REDOUBLE)
        out.extend(range(self.base + FIRST_BID + self.high + 1, self.end()))
        return out

    def end(self) -> int:
        """One past the last action int of this auction."""
        return self.base + FIRST_BID + len(self.ladder.bids)

    def owns(self, action: Action) -> bool:
        """Whether ``action`` is one of this auction's calls (any, legal now or not)."""
        return self.base <= action < self.end()

    def _opponent(self, seat: Seat, other: Seat) -> bool:
        return other >= 0 and self.sides[seat] != self.sides[other]

    # --- calling --------------------------------------------------------------------------------

    def call(self, seat: Seat, action: Action) -> None:
        """Make a call, or raise IllegalActionError and change nothing."""
        if self.turn < 0:
            raise IllegalActionError("the bidding is over")
        if seat != self.to_call():
            raise IllegalActionError("it is not your turn to bid")
        if action not in self.legal(seat):
            raise IllegalActionError(self._refusal(action))
        call = action - self.base
        self.calls.append((seat, call))
        if call == PASS:
            self.passes += 1
            if self.pass_final:
                self.out.add(seat)
        else:
            if call >= FIRST_BID:
                self.high, self.high_seat, self.doubled = call - FIRST_BID, seat, 0
            else:
                self.doubled = call  # DOUBLE = 1, REDOUBLE = 2
            self.last_mover, self.passes = seat, 0
        self._advance()

    def _refusal(self, action: Action) -> str:
        call = action - self.base
        if call == DOUBLE:
            return "you may double only the other side's bid, once"
        if call == REDOUBLE:
            return "you may redouble only the other side's double of your bid"
        if FIRST_BID <= call < FIRST_BID + len(self.ladder.bids) and self.high >= 0:
            return f"a bid must be higher than {self.ladder.bids[self.high]}"
        return "that is not a call of this auction"

    def _advance(self) -> None:
        players = len(self.order)
        if self.rounds == "one":
            self.turn = self.turn + 1 if len(self.calls) < players else -1
            return
        bidding = players - len(self.out)
        if self.high < 0:
            finished = self.passes >= players or bidding == 0
        elif self.pass_final:
            finished = bidding == 0 or (bidding == 1 and self.high_seat not in self.out)
        else:
            finished = self.passes >= players - 1
        if finished:
            self.turn = -1
            return
        nxt = self.turn
        for _ in range(players):
            nxt = (nxt + 1) % players
            if self.order[nxt] not in self.out:
                break
        self.turn = nxt

    # --- notation and copies --------------------------------------------------------------------

    def notation(self, action: Action) -> str:
        call = action - self.base
        if not 0 <= call < FIRST_BID + len(self.ladder.bids):
            raise ValueError(f"not a call: {action}")
        return WORDS[call] if call < FIRST_BID else f"bid {self.ladder.bids[call - FIRST_BID]}"

    def parse(self, text: str) -> Action:
        """The call a text names (``pass``, ``double``, ``bid 7NT``...); NotationError."""
        words = text.strip().lower().split()
        if len(words) == 1 and words[0] in WORDS:
            return self.base + WORDS.index(words[0])
        if len(words) == 2 and words[0] == "bid":
            return self.base + FIRST_BID + self.ladder.index(words[1])
        raise NotationError(f"not a call: {text!r} (pass, double, redouble or bid 1C)")

    def copy(self) -> Auction:
        other = object.__new__(Auction)
        for name in Auction.__slots__:
            setattr(other, name, getattr(self, name))
        other.calls = list(self.calls)
        other.out = set(self.out)
        return other
