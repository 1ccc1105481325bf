"""What a computer player sees, and the one way to ask it for a move.

A computer player never touches the game: it gets a :class:`Decision` built for one seat, holding
that seat's ``view``, its legal actions with their notations, and a ``determinize`` callable that
deals the cards hidden from the seat anew (for search). :func:`choose` builds the Decision and asks
the player; :data:`PLAYER_KINDS` names the kinds of computer player the bot and the terminal seat.

Standard library only; no clock, no I/O.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from games.cards import JOKER, code, parse_card, randbelow
from games.core import Action, Game, Seat, View


@dataclass(frozen=True, slots=True)
class Shape:
    """An action read from its notation: ``verb`` (None when it plays one card) and arguments.

    ``QS`` -> verb None, cards (QS,); ``bid 7D KS TC`` -> verb "bid", cards (7D, KS, TC);
    ``draw 3`` -> verb "draw", numbers (3,); ``trumf H`` -> verb "trumf", words ("H",);
    several cards played at once with no verb (``QC KC AC``) -> verb "", cards (QC, KC, AC).
    """

    action: Action
    text: str
    verb: str | None
    cards: tuple[int, ...] = ()
    numbers: tuple[int, ...] = ()
    words: tuple[str, ...] = ()

    @property
    def plays_one_card(self) -> bool:
        return self.verb is None


_CARD_BY_CODE: dict[str, int] = {code(c): c for c in [*range(52), JOKER]}


def _card_or_none(token: str) -> int | None:
    found = _CARD_BY_CODE.get(token)
    if found is not None:
        return found
    try:
        return parse_card(token)
    except ValueError:
        return None


def shape_of(action: Action, text: str) -> Shape:
    """Read an action's notation into a :class:`Shape` (see its docstring)."""
    tokens = text.split()
    if len(tokens) == 1:
        single = _card_or_none(tokens[0])
        if single is not None and single == action and 0 <= action <= JOKER:
            return Shape(action, text, None, (single,))
    if not tokens:
        return Shape(action, text, "")
    if len(tokens) > 1:
        played = [_card_or_none(token) for token in tokens]
        if all(c is not None for c in played):
            return Shape(action, text, "", tuple(c for c in played if c is not None))
    cards: list[int] = []
    numbers: list[int] = []
    words: list[str] = []
    for token in tokens[1:]:
        c = _card_or_none(token)
        if c is not None:
            cards.append(c)
        elif token.lstrip("-").isdigit():
            numbers.append(int(token))
        else:
            words.append(token)
    return Shape(action, text, tokens[0].lower(), tuple(cards), tuple(numbers), tuple(words))


class Decision:
    """Everything a computer player may use to choose an action for ``seat``.

    ``legal`` are the seat's legal actions; their ``notations`` are computed when first asked for
    (a choice of 220 bid-card triples need not be written out to be decided). ``parse`` reads a
    notation into an action (legality is ``legal``'s business); ``determinize(rng)`` is a copy of
    the match with the cards hidden from the seat dealt anew, for search.
    """

    def __init__(
        self,
        game_id: str,
        seat: Seat,
        view: View,
        legal: Sequence[Action],
        notation: Callable[[Action], str],
        parse: Callable[[str], Action],
        determinize: Callable[[random.Random], Game],
        trick_taking: bool = True,
    ) -> None:
        self.game_id = game_id
        self.seat = seat
        self.view = view
        self.legal = tuple(legal)
        self.parse = parse
        self.determinize = determinize
        self.trick_taking = trick_taking
        self._notation = notation

    @property
    def players(self) -> int:
        return len(self.view.seats)

    @cached_property
    def notations(self) -> tuple[str, ...]:
        return tuple(self._notation(a) for a in self.legal)

    @cached_property
    def shapes(self) -> tuple[Shape, ...]:
        return tuple(shape_of(a, t) for a, t in zip(self.legal, self.notations, strict=True))

    def notation(self, action: Action) -> str:
        return self._notation(action)

    def find(self, text: str) -> Action | None:
        """The legal action that ``text`` names, if any."""
        try:
            action = self.parse(text)
        except ValueError:
            return None
        return action if action in self.legal else None


class Player(Protocol):
    """A computer player: picks one of ``decision.legal``."""

    kind: str

    def choose(self, decision: Decision, rng: random.Random) -> Action: ...


def decision_for(game: Game, seat: Seat, legal: Sequence[Action] | None = None) -> Decision:
    """The Decision of ``seat`` now; ValueError if it has nothing to decide. ``legal``: the
    seat's legal actions when the caller has them already."""
    legal = tuple(game.legal_actions(seat) if legal is None else legal)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    return Decision(
        game_id=game.game_id,
        seat=seat,
        view=game.view(seat),
        legal=legal,
        notation=game.notation,
        parse=game.parse,
        determinize=lambda rng: game.determinize(seat, rng),
        trick_taking=_trick_taking(game.game_id),
    )


_TRICK_TAKING: dict[str, bool] = {}


def _trick_taking(game_id: str) -> bool:
    """Whether a game is a trick-taking game (a game not in the registry counts as one)."""
    found = _TRICK_TAKING.get(game_id)
    if found is None:
        from games.registry import SPECS

        spec = SPECS.get(game_id)
        found = _TRICK_TAKING[game_id] = spec.trick_taking if spec is not None else True
    return found


def choose(game: Game, seat: Seat, player: Player | str, rng: random.Random) -> Action:
    """Ask ``player`` (or a new player of that kind) for ``seat``'s action; always a legal one."""
    if isinstance(player, str):
        player = make_player(player)
    decision = decision_for(game, seat)
    action = player.choose(decision, rng)
    if action not in decision.legal:
        raise AssertionError(f"{player.kind} player chose an illegal action {action!r}")
    return action


def pick(items: Sequence[Action], rng: random.Random) -> Action:
    """A uniformly random item, drawn with the project's stable ``randbelow``."""
    return items[randbelow(rng, len(items))]


def vary_on_repeat(decision: Decision, usual: Action, rng: random.Random) -> Action:
    """Every level's rule against going round in circles: where the position has stood before
    (``View.repeated``), the same choice would most likely bring it round again, so a computer
    player plays a random other legal action instead of its ``usual`` one; once the position
    has stood twice before, any legal action at random (so that no fixed second choice can
    close a circle of its own). Elsewhere it plays ``usual``."""
    repeated = decision.view.repeated
    if not repeated or len(decision.legal) == 1:
        return usual
    if repeated == 1:
        return pick([a for a in decision.legal if a != usual], rng)
    return pick(decision.legal, rng)


PLAYER_KINDS: dict[str, Callable[[], Player]] = {}


def register(kind: str, factory: Callable[[], Player]) -> None:
    PLAYER_KINDS[kind] = factory


def make_player(kind: str) -> Player:
    """A new computer player of ``kind``; KeyError naming the known kinds otherwise."""
    try:
        return PLAYER_KINDS[kind]()
    except KeyError:
        raise KeyError(f"unknown player kind {kind!r} (kinds: {', '.join(PLAYER_KINDS)})") from None
