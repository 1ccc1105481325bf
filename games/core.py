"""The game contract: what every rules engine offers, so the bot, the terminal table, the computer
players, the conformance tests and the benchmarks treat all games alike.

A match is created by ``spec.new(players, options, rng, decks)`` and then driven through
``to_act`` / ``legal_actions`` / ``apply``. Everything a seat may know is in ``view(seat)``; a
spectator's view is ``view(None)``. A match is fully described by
``(game id, options, seed or decks, [(seat, notation), ...])``: replaying it rebuilds the same
state.

Actions are ints (a card int when one card is played); ``notation`` / ``parse`` give their stable
text form. Games emit language-neutral messages (:class:`Msg`: a key plus arguments); the bot turns
them into Swedish or English. Argument naming convention, relied on by every renderer: an argument
named ``seat`` or ending in ``_seat`` is a seat number; one named ``card``/``cards`` or ending in
``_card``/``_cards`` holds space-separated card codes; one named ``contract`` or ending in
``_contract`` holds a contract (``4S``, ``7NT``, doubled ``4SX``, redoubled ``4SXX``); anything
else is shown as it is.

What every engine would otherwise write for itself is here once: :meth:`Game.clone` (an engine
only names the attributes ``apply`` changes in place) and :func:`parse_card_notation`.

This module must not import anything outside the standard library, read a clock or do I/O.
"""

from __future__ import annotations

import dataclasses
import random
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Generic, Literal, Self, TypeVar

from games.cards import Card, copy_rng, fork_rng, parse_card, parse_deck, shared_rng

Seat = int
Action = int
ArgValue = int | str


class IllegalActionError(ValueError):
    """The action is well formed but not allowed now. The message can be shown to the player."""


class NotationError(ValueError):
    """The text is not an action of this game at all (malformed). Shown to the player as is."""


def parse_card_notation(text: str) -> int:
    """The card a code in a move's notation names (``QS``, ``10h``, ``JK``); NotationError, with
    what to write instead, when it names none."""
    try:
        return parse_card(text)
    except ValueError as error:
        raise NotationError(str(error)) from None


class OptionError(ValueError):
    """An option name or value that the game does not have. Shown to the player as is.

    ``msg``, when set, says the same language-neutrally, for the bot to answer in the member's
    language: ``options.error.<kind>`` with the option's ``name`` and the ``value`` given, and
    ``low``/``high`` (a number out of range), ``choices`` (space-separated allowed values),
    ``names`` (the options there are) or ``variants`` (the game's named variants); a game's own
    check of options together uses its own key (``<game>.options_error.<kind>``).
    """

    def __init__(self, text: str, msg: Msg | None = None) -> None:
        super().__init__(text)
        self.msg = msg


# --- language-neutral messages --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Msg:
    """A message key with arguments, e.g. ``Msg.of("trick.won", seat=1, cards="QS 7S 9S")``."""

    key: str
    args: tuple[tuple[str, ArgValue], ...] = ()

    @classmethod
    def of(cls, key: str, **args: ArgValue) -> Msg:
        return cls(key, tuple(args.items()))

    def arg(self, name: str) -> ArgValue:
        for k, v in self.args:
            if k == name:
                return v
        raise KeyError(name)


class EventLog:
    """Recent events with who may see each: ``None`` means everyone, else a set of seats.

    Games append as play goes on; ``for_viewer`` gives a view the last events its viewer may see.
    """

    __slots__ = ("_events", "_keep")

    def __init__(self, keep: int = 12) -> None:
        self._events: list[tuple[Msg, frozenset[Seat] | None]] = []
        self._keep = keep

    def add(self, msg: Msg, visible_to: Iterable[Seat] | None = None) -> None:
        self._events.append((msg, None if visible_to is None else frozenset(visible_to)))
        if len(self._events) > 4 * self._keep:
            del self._events[: -self._keep]

    def for_viewer(self, seat: Seat | None) -> tuple[Msg, ...]:
        shown = [m for m, who in self._events if who is None or (seat is not None and seat in who)]
        return tuple(shown[-self._keep :])

    def copy(self) -> EventLog:
        other = EventLog(self._keep)
        other._events = list(self._events)
        return other

    def copy_for(self, seat: Seat) -> EventLog:
        """A copy holding only what ``seat`` may see (for ``determinize``: no other seat's
        private news survives into a copy that a search may read)."""
        other = EventLog(self._keep)
        other._events = [(m, who) for m, who in self._events if who is None or seat in who]
        return other


# --- views and results ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Pile:
    """A public place on the table: the turn-up, the stock, a revealed hand, laid pairs, the center.

    ``cards`` are face up; ``hidden`` counts face-down cards in it. ``key`` names it (message key).
    """

    key: str
    cards: tuple[Card, ...] = ()
    hidden: int = 0
    seat: Seat | None = None


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everyone may know of one seat.

    ``cards`` counts the cards in its hand (or pile); ``shown`` are those of them everyone has
    seen (a revealed hand, a card drawn face up); ``notes`` are public marks such as a declared bid.
    """

    cards: int
    score: int = 0
    tricks: int | None = None
    shown: tuple[Card, ...] = ()
    notes: tuple[Msg, ...] = ()


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One line of a score sheet: a label and one cell per column (``None``: left blank).

    ``rule_below`` draws a line under the row: bridge's "line" between the points above and below
    it, or the rule above a total.
    """

    label: Msg
    cells: tuple[int | None, ...]
    rule_below: bool = False


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A game's score sheet (protokoll) as a table: column headers, then rows, oldest first.

    A header ``Msg`` with only a ``seat`` argument names that seat; the renderers draw the same
    sheet in the embed, the terminal and the pictures, so every game's sheet looks alike.
    """

    columns: tuple[Msg, ...]
    rows: tuple[SheetRow, ...]


@dataclass(frozen=True, slots=True)
class View:
    """Exactly what one seat (``None``: a spectator) may know of the match now.

    Every card of the match is accounted for in every view: the seats' ``cards`` counts, plus the
    face-up and face-down cards of the ``piles`` (won tricks, stock, bid cards...), plus the
    ``trick`` on the table, always add up to the same number. ``phase`` names the stage of play,
    ``notes`` are facts private to the viewer (its bid, the card it just drew).

    ``teams`` are the partnerships of a partnership game (``((0, 2), (1, 3))``), empty when every
    seat plays for itself; the table shows the sides and the ratings rate them as teams, so the
    game must give partners the same place in its :class:`Result`. ``sheet`` is the score sheet,
    for games that keep one.

    ``trump`` is the trump suit where there is one now; ``no_trump`` says that the cards are
    being played without one in a game that has trumps (a no-trump contract, a turn-up that
    names none, trumps not yet made). Both unset: trumps are no part of this game or phase (an
    auction, a game without trumps), and nothing is said about them. ``joker`` is the card a
    joker counts as now, where the game makes it one (Nittionio: a copy of the turn-up).
    ``trick_notes``, where given, is a note per card of ``trick`` (None: nothing to say), such as
    where it was played from (Tvåmansbridge: a träkarl).

    ``repeated`` says how many times before the position on the table (all that every seat has
    seen, and whose turn it is) stood exactly as it does now, in a game whose play can go round
    in circles (Skitgubbe's second phase); 0 in every other game. Computer players then play
    otherwise (:mod:`games.ai.base`, :func:`vary_on_repeat`).
    """

    game: str
    seat: Seat | None
    phase: Msg
    to_act: frozenset[Seat]
    hand: tuple[Card, ...]
    seats: tuple[SeatView, ...]
    trick: tuple[tuple[Seat, Card], ...] = ()
    trump: int | None = None
    piles: tuple[Pile, ...] = ()
    events: tuple[Msg, ...] = ()
    notes: tuple[Msg, ...] = ()
    deal: int = 1
    dealer: Seat | None = None
    teams: tuple[tuple[Seat, ...], ...] = ()
    sheet: ScoreSheet | None = None
    marked: tuple[Card, ...] = ()
    no_trump: bool = False
    joker: Card | None = None
    trick_notes: tuple[Msg | None, ...] = ()
    repeated: int = 0


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a match: a score per seat and a place per seat (1 = best; ties share a place)."""

    scores: tuple[int, ...]
    places: tuple[int, ...]

    @classmethod
    def by_score(cls, scores: Sequence[int], higher_wins: bool = True) -> Result:
        keys = [-s if higher_wins else s for s in scores]
        return cls(tuple(scores), competition_places(keys))


def competition_places(keys: Sequence[int | float]) -> tuple[int, ...]:
    """Standard competition ranking, smaller key = better: keys 3, 5, 3 give places 1, 3, 1."""
    return tuple(1 + sum(1 for other in keys if other < k) for k in keys)


# --- options --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Options:
    """Base of every game's frozen options dataclass. Fields are bool, int, str or a Literal."""


OptionsT = TypeVar("OptionsT", bound=Options)


INT_BOUNDS = (0, 1_000_000)
"""The range of a whole-number option that declares none: every int option is bounded."""


def bounds(low: int, high: int) -> dict[str, object]:
    """Field metadata giving a whole-number option its allowed range, both ends included:
    ``reaction_ms: int = field(default=5000, metadata=bounds(3000, 15000))``."""
    return {"bounds": (low, high)}


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    default: object
    choices: tuple[object, ...]  # () for a free int
    low: int | None = None
    high: int | None = None
    """A whole-number option's range (``bounds``, else ``INT_BOUNDS``); None for the others."""


def _bounds(f: dataclasses.Field[object]) -> tuple[int, int]:
    found = f.metadata.get("bounds", INT_BOUNDS)
    low, high = found
    return int(low), int(high)


@dataclass(frozen=True, slots=True)
class _OptionFields:
    """An options type's fields by name, and each one's type with its annotation resolved."""

    fields: Mapping[str, dataclasses.Field[object]]
    types: Mapping[str, object]


_OPTION_FIELDS: dict[type[Options], _OptionFields] = {}


def _option_fields(options_type: type[Options]) -> _OptionFields:
    """Worked out once per options type: resolving annotations (``typing.get_type_hints``)
    compiles each one anew, and a restart rebuilds the options of thousands of tables."""
    known = _OPTION_FIELDS.get(options_type)
    if known is None:
        hints = typing.get_type_hints(options_type)
        fields = {f.name: f for f in dataclasses.fields(options_type)}
        known = _OPTION_FIELDS[options_type] = _OptionFields(
            fields, {name: hints[name] for name in fields}
        )
    return known


def option_infos(options_type: type[Options]) -> tuple[OptionInfo, ...]:
    """The options a table creator can set, with their defaults and allowed values."""
    known = _option_fields(options_type)
    out = []
    for f in known.fields.values():
        t = known.types[f.name]
        choices: tuple[object, ...]
        if typing.get_origin(t) is Literal:
            choices = typing.get_args(t)
        elif t is bool:
            choices = (False, True)
        else:
            choices = ()
        low, high = _bounds(f) if t is int else (None, None)
        out.append(OptionInfo(f.name, f.default, choices, low, high))
    return tuple(out)


def _convert(name: str, t: object, text: str) -> object:
    if t is bool:
        low = text.strip().lower()
        if low in ("1", "true", "yes", "on", "ja", "sant"):
            return True
        if low in ("0", "false", "no", "off", "nej", "falskt"):
            return False
        raise OptionError(
            f"{name} takes yes or no, not {text!r}",
            Msg.of("options.error.not_bool", name=name, value=text),
        )
    if t is int:
        try:
            return int(text)
        except ValueError:
            raise OptionError(
                f"{name} takes a whole number, not {text!r}",
                Msg.of("options.error.not_int", name=name, value=text),
            ) from None
    if typing.get_origin(t) is Literal:
        allowed = typing.get_args(t)
        for a in allowed:
            if str(a) == text.strip():
                return a
        raise OptionError(
            f"{name} takes one of {', '.join(map(str, allowed))}, not {text!r}",
            Msg.of(
                "options.error.not_choice",
                name=name,
                value=text,
                choices=" ".join(map(str, allowed)),
            ),
        )
    if t is str:
        return text
    raise OptionError(f"{name} cannot be set")


def apply_option_text(base: OptionsT, settings: Mapping[str, str]) -> OptionsT:
    """``base`` with ``name=value`` settings applied; OptionError names what is wrong."""
    if not settings:
        return base
    found = _option_fields(type(base))
    hints, fields = found.types, found.fields
    changes: dict[str, object] = {}
    for name, text in settings.items():
        if name not in fields:
            names = sorted(fields)
            known = ", ".join(names) or "none"
            raise OptionError(
                f"unknown option {name!r} (options: {known})",
                Msg.of("options.error.unknown", name=name, names=" ".join(names)),
            )
        value = _convert(name, hints[name], text)
        if hints[name] is int:
            low, high = _bounds(fields[name])
            assert isinstance(value, int)
            if not low <= value <= high:
                raise OptionError(
                    f"{name} is {low}–{high}, not {value}",
                    Msg.of(
                        "options.error.out_of_range", name=name, low=low, high=high, value=value
                    ),
                )
        changes[name] = value
    return dataclasses.replace(base, **changes)


# --- the game -------------------------------------------------------------------------------------


class Game(ABC):
    """One match in progress. ``apply`` changes it in place; everything else only reads.

    Every engine shares :meth:`clone`: a copy holds the same attributes, with those named in
    :attr:`copied` (and :attr:`copied_nested`) copied so that ``apply`` on one leaves the other as
    it was, and a generator of its own. An engine declares which attributes ``apply`` changes in
    place; every other attribute is shared, so it must be immutable or only ever replaced.
    """

    game_id: ClassVar[str]
    rng: random.Random
    """The match's generator: every deal and every random rule draws from it."""
    copied: ClassVar[tuple[str, ...]] = ()
    """The attributes ``apply`` changes in place (lists, dicts, event logs): a clone copies each
    one level deep, with its ``copy()``."""
    copied_nested: ClassVar[tuple[str, ...]] = ()
    """The attributes that are lists of lists (or of dicts) changed in place: a clone copies the
    outer list and each item."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._copy = _written_copy(cls)  # type: ignore[method-assign, assignment]

    @property
    @abstractmethod
    def players(self) -> int:
        """Number of seats."""

    @abstractmethod
    def to_act(self) -> frozenset[Seat]:
        """Seats that may act now: several in simultaneous phases, none when the match is over."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now (empty if it may not act). The source of legality."""

    @abstractmethod
    def apply(self, seat: Seat, action: Action) -> None:
        """Perform ``action`` for ``seat``, or raise IllegalActionError and change nothing."""

    @abstractmethod
    def view(self, seat: Seat | None) -> View:
        """What ``seat`` (None: a spectator) may know now."""

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """``view(seat).hand``: the seat's own cards. The bot asks it of every member after each
        action (whose hand changed): an engine gives it directly, without the rest of the view,
        as every registered game does (``tests/games/test_conformance.py``)."""
        return self.view(seat).hand

    def deal_number(self) -> int:
        """``view(None).deal``: the number of the deal being played. The bot asks it after every
        action (whether a new deal began); an engine gives it directly, without the view."""
        return self.view(None).deal

    def clone(self, rng: random.Random | None = None) -> Self:
        """An independent copy: its generator a copy of this one's (the copy deals what this
        match would), or ``rng`` itself (a determinized world, whose future is not this one's).
        The copy of the generator is a fork (:func:`fork_rng`): its state is copied only if the
        copy of the match draws from it, at a new deal, and a trial move costs no copy."""
        other = self._copy()
        if rng is None:
            self.rng = shared_rng(self.rng)  # shared, not copied, until one of them draws
            rng = fork_rng(self.rng)
        other.rng = rng
        return other

    def detached(self) -> Self:
        """An independent copy to hand to another thread (a computer player thinking there): its
        generator copied now, so that it shares no fork with this match. Forks count who holds
        their generator without a lock, safe within one thread only: a count lost between two
        threads would let one fork draw from a generator others still hold, and change the deals
        the seed promised this match."""
        return self.clone(copy_rng(self.rng))

    def _copy(self) -> Self:
        """A copy that still shares the generator: every attribute shared but those named in
        :attr:`copied` and :attr:`copied_nested`. Each engine gets it written out for its own
        attributes when its class is made (:func:`_written_copy`); an engine with state of
        another shape extends :meth:`clone`."""
        raise NotImplementedError  # replaced in every engine by __init_subclass__

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """Scores and places; only when ``is_over()`` (ValueError before)."""

    @abstractmethod
    def notation(self, action: Action) -> str:
        """The action's stable text form (a card code when one card is played)."""

    @abstractmethod
    def parse(self, text: str) -> Action:
        """The action a text names; NotationError if malformed. Legality is ``apply``'s business."""

    @abstractmethod
    def determinize(self, seat: Seat, rng: random.Random) -> Game:
        """A copy where every card hidden from ``seat`` is re-dealt consistently with what it knows,
        and whose future deals come from ``rng`` (so a search cannot see the real future)."""

    def timeout_action(self, seat: Seat) -> Action | None:
        """The action ``seat`` takes when its turn time runs out, where the rules name one
        (Femkort's answer to "better cards": refuse); None lets the computer player decide."""
        return None

    def worth(self, seat: Seat, verb: str, cards: Sequence[int]) -> Msg | None:
        """What ``cards`` count for in a choice of several cards with ``verb``, in the game's
        words, from what ``seat`` knows (Nittionio's bid cards: the bid they make); shown beside
        each card and the cards picked before a member sends them. None: nothing to say."""
        return None

    def check_turn(self, seat: Seat, action: Action) -> None:
        """Raise IllegalActionError unless ``action`` is legal for ``seat`` now."""
        if seat not in self.to_act():
            raise IllegalActionError(
                "the match is over" if self.is_over() else f"seat {seat} may not act now"
            )
        if action not in self.legal_actions(seat):
            raise IllegalActionError(f"{self.notation_or_raw(action)} is not allowed now")

    def notation_or_raw(self, action: Action) -> str:
        try:
            return self.notation(action)
        except (ValueError, IndexError):
            return f"#{action}"


GameT = TypeVar("GameT", bound=Game)


def _written_copy(cls: type[GameT]) -> Callable[[GameT], GameT]:
    """``cls._copy`` written out, one line per attribute, as :mod:`dataclasses` writes an
    ``__init__``: a search clones thousands of times a second, and a loop of ``getattr`` and
    ``setattr`` would cost it a fifth more.

    An engine with ``__slots__`` has its slots copied (and nothing else); one without has its
    ``__dict__`` copied. Then each attribute named in ``copied`` is copied with its ``copy()``, and
    each named in ``copied_nested`` as a new list of its items' copies.
    """
    slots = [
        name
        for klass in cls.__mro__
        for name in klass.__dict__.get("__slots__", ())
        if name not in ("__dict__", "__weakref__")
    ]
    lines = ["def _copy(self):", "    other = new(cls)"]
    if not slots:
        lines.append("    other.__dict__.update(self.__dict__)")
    own = set(cls.copied) | set(cls.copied_nested)
    lines += [f"    other.{name} = self.{name}" for name in slots if name not in own]
    lines += [f"    other.{name} = self.{name}.copy()" for name in cls.copied]
    lines += [
        f"    other.{name} = [item.copy() for item in self.{name}]" for name in cls.copied_nested
    ]
    lines.append("    return other")
    namespace: dict[str, object] = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), namespace)  # names from the class's own declarations only
    return typing.cast(Callable[[GameT], GameT], namespace["_copy"])


@dataclass(frozen=True)
class GameSpec(Generic[OptionsT]):
    """A registered game: its id, seat range, options, named presets and constructor."""

    id: str
    min_players: int
    max_players: int
    options_type: type[OptionsT]
    factory: Callable[[int, OptionsT, random.Random, list[list[int]] | None], Game] = field(
        repr=False
    )
    presets: Mapping[str, OptionsT] = field(default_factory=dict)
    trick_taking: bool = True
    realtime: bool = False
    points: bool = True
    """Whether the seats' scores are points ("12 p"). A game without points (Svarte Petter,
    Skitgubbe, Hej knekt, Snipp snapp snorum) shows no score on its seats, or names what it
    counts in its own words (``<game>.seat_score``: Bräus's ritor, Löjliga familjerna's
    families)."""
    words: Callable[[str, int], Msg | None] | None = field(default=None, repr=False)
    """The game's own words for an action whose notation says too little, from the notation and
    the number of players (Femhundra's bids with their values: ``Bjud 7♥ (200)``); None, or a
    None answer, leaves the usual label."""
    hand_order: Literal["suit", "rank"] = "suit"
    """How a hand is laid out: suit by suit, or rank by rank where the game collects ranks
    (Löjliga familjerna's families are the four cards of a rank)."""
    best_players: int | None = None
    """The number of players the game is best played by, seated when none is asked for (the
    fewest allowed when None)."""

    @property
    def usual_players(self) -> int:
        """The players seated when no number is asked for."""
        return self.min_players if self.best_players is None else self.best_players

    def default_options(self) -> OptionsT:
        return self.options_type()

    def variants(self) -> tuple[str, ...]:
        """The named variants a table may be opened with, ``standard`` first."""
        return ("standard", *(name for name in self.presets if name != "standard"))

    def preset(self, name: str) -> OptionsT:
        if name == "standard":
            return self.presets.get("standard", self.default_options())
        try:
            return self.presets[name]
        except KeyError:
            known = ", ".join(["standard", *self.presets]) or "standard"
            raise OptionError(
                f"unknown variant {name!r} (variants: {known})",
                Msg.of(
                    "options.error.unknown_variant", name=name, variants=" ".join(self.variants())
                ),
            ) from None

    def new(
        self,
        players: int,
        options: OptionsT | None = None,
        rng: random.Random | None = None,
        decks: Sequence[Sequence[str]] | None = None,
    ) -> Game:
        """A new match. ``decks``: explicit deck orders (codes, top first) for the first deals."""
        if not self.min_players <= players <= self.max_players:
            span = (
                str(self.min_players)
                if self.min_players == self.max_players
                else f"{self.min_players}–{self.max_players}"
            )
            raise OptionError(f"{self.id} is played by {span} players, not {players}")
        opts = self.default_options() if options is None else options
        parsed = None if decks is None else [parse_deck(d) for d in decks]
        return self.factory(players, opts, rng if rng is not None else random.Random(), parsed)
