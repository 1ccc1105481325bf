"""The terminal table: one person against computer players (``kortbord play <game>``).

Works for every registered game through the contract alone. It shows the viewer's table and hand,
whose turn it is, the legal actions numbered with their notation, what the others do and the
games' events as they happen, and the final result. The human types a number, the notation, or for
a choice of several cards just the cards (``7D KS TC``); bad input re-prompts and changes nothing.

Real-time games (Hej knekt) open timed reaction windows: legal actions ``<verb> <ms>`` with a
``close <ms>`` for the timer (see ``games.ai.reaction``). The table opens the window for the phase's
``window_ms``, reads the human's typed reaction with a timeout, applies the computer players'
planned presses as their time comes, in time order with milliseconds since the reveal, and applies
``close`` when the time is up.

All I/O goes through a :class:`Console` (text out, lines in, a clock), so tests drive whole matches
with scripted input and simulated time. Every text comes from the catalogs, through the renderer.

On a colour terminal the cards are the four-colour deck of ``bot.render.colours``: ``♠`` in
the terminal's own text colour, ``♥`` red, ``♦`` blue, ``♣`` green (:func:`colour_suits`). Colour
is used only when the output is a terminal and ``NO_COLOR`` is not set (https://no-color.org).
"""

from __future__ import annotations

import codecs
import logging
import os
import random
import re
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot import options as choices
from bot.errors import UserError
from bot.i18n import catalog
from bot.render.colours import FOUR_COLOUR_DECK, InkName
from bot.render.text import TextRenderer, result_lines, rule_sections, sort_hand
from bot.thinking import SEARCH_KINDS, search_player
from games import registry
from games.ai import (
    PLAYER_KINDS,
    Player,
    choose,
    is_timed_window,
    make_player,
    plan_reaction,
    reaction_of,
    shape_of,
)
from games.cards import JOKER, SUIT_SYMBOLS, parse_card
from games.core import (
    Action,
    Game,
    GameSpec,
    Msg,
    NotationError,
    OptionError,
    Options,
    Seat,
    View,
    apply_option_text,
)

log = logging.getLogger(__name__)

LIST_LIMIT = 30  # more choices than this of one verb: the human types the cards instead
DEFAULT_WINDOW_MS = 5000
# Typing a reaction and Enter takes longer than clicking a button: the computer players' median
# reaction time at the terminal is set to match a quick typist, so the game stays fair.
TERMINAL_REACTION_MEDIAN_MS = 1100.0
TERMINAL_SEARCH_ITERATIONS = 1000
"""A ``hard`` opponent's samples per decision at the terminal: a budget in samples, not time, so
that ``--seed`` replays the same match on any machine (capped at ``TERMINAL_SEARCH_SECONDS``)."""
TERMINAL_SEARCH_SECONDS = 3.0

HELP_WORDS = frozenset({"?", "help", "hjälp", "h"})
QUIT_WORDS = frozenset({"q", "quit", "avsluta", "exit"})
RULES_WORDS = frozenset({"r", "rules", "regler"})
TABLE_WORDS = frozenset({"t", "table", "bord", "bordet"})
YES_WORDS = frozenset({"j", "ja", "y", "yes"})


class Console(Protocol):
    """The table's I/O: text out, lines in (``EOFError`` at the end), and a clock in seconds."""

    def write(self, text: str) -> None: ...

    def read(self, prompt: str) -> str: ...

    def read_within(self, prompt: str, seconds: float) -> str | None:
        """A line typed within ``seconds``, or None when the time runs out."""
        ...

    def discard_pending(self) -> None:
        """Forget whatever was typed but not read yet (late reactions)."""
        ...

    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


ANSI: dict[InkName, str] = {"red": "\x1b[31m", "blue": "\x1b[94m", "green": "\x1b[32m"}
"""The terminal's colour for each of the deck's; black is none: it keeps the terminal's text
colour, so it reads on a dark and a light background alike."""
SUIT_COLOURS = {
    SUIT_SYMBOLS[suit]: ANSI[colour.name]
    for suit, colour in FOUR_COLOUR_DECK.items()
    if colour.name in ANSI
}
"""ANSI colours of the four-colour deck (``bot.render.colours``), by suit symbol: hearts red,
diamonds (bright) blue, clubs green; spades in the text colour."""
DEFAULT_COLOUR = "\x1b[39m"
_CARD = re.compile(r"(?:10|Kn|[2-9A-Za-z])?([♠♥♦♣])\ufe0f?")


def colour_suits(text: str) -> str:
    """Each card face (``Q♥``, ``10♦``, ``Kn♣``) and lone suit symbol in the colour of its suit."""

    def paint(match: re.Match[str]) -> str:
        colour = SUIT_COLOURS.get(match[1])
        return match[0] if colour is None else f"{colour}{match[0]}{DEFAULT_COLOUR}"

    return _CARD.sub(paint, text)


def wants_colour(stream: object, environ: Mapping[str, str]) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set to anything but empty."""
    if environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except ValueError:  # a closed stream
        return False


class StdConsole:
    """The real terminal: stdout, stdin read line by line with ``select`` timeouts on POSIX.

    ``colour`` (by default: whether stdout is a terminal and ``NO_COLOR`` is unset) paints the
    suits of the cards it writes."""

    def __init__(self, colour: bool | None = None) -> None:
        self._buffer = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._eof = False
        self.colour = wants_colour(sys.stdout, os.environ) if colour is None else colour

    def write(self, text: str) -> None:
        sys.stdout.write((colour_suits(text) if self.colour else text) + "\n")
        sys.stdout.flush()

    @property
    def _fd(self) -> int:
        return sys.stdin.fileno()

    def _take_line(self) -> str | None:
        if "\n" in self._buffer:
            line, self._buffer = self._buffer.split("\n", 1)
            return line.rstrip("\r")
        if self._eof:
            if self._buffer:
                line, self._buffer = self._buffer, ""
                return line
            raise EOFError
        return None

    def _fill(self) -> None:
        chunk = os.read(self._fd, 4096)
        if not chunk:
            self._eof = True
        self._buffer += self._decoder.decode(chunk, final=not chunk)

    def read(self, prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        while (line := self._take_line()) is None:
            self._fill()
        return line

    def read_within(self, prompt: str, seconds: float) -> str | None:
        if os.name != "posix":  # no select on a console handle: no timeout there
            return self.read(prompt)
        import select

        sys.stdout.write(prompt)
        sys.stdout.flush()
        deadline = time.monotonic() + max(seconds, 0.0)
        while (line := self._take_line()) is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._fd], [], [], left)
            if ready:
                self._fill()
        return line

    def discard_pending(self) -> None:
        self._buffer = ""
        if os.name == "posix" and os.isatty(self._fd):
            import termios

            termios.tcflush(self._fd, termios.TCIFLUSH)

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class Quit(Exception):
    """The human left the table."""


def _normal(text: str) -> str:
    """Lower case, letters, digits and single spaces only: ``"Hej knekt!"`` -> ``"hej knekt"``."""
    return " ".join(re.sub(r"[^\w ]+", " ", text.lower()).split())


@dataclass
class TerminalTable:
    """One match at the terminal: ``human`` plays, computer players of ``kinds`` take the others."""

    spec: GameSpec[Options]
    game: Game
    human: Seat
    render: TextRenderer
    console: Console
    rng: random.Random
    kinds: Mapping[Seat, str]
    pace: float = 0.0
    reaction_median_ms: float = TERMINAL_REACTION_MEDIAN_MS

    def __post_init__(self) -> None:
        self._seen: tuple[Msg, ...] = ()

    # --- the match ----------------------------------------------------------------------------

    def run(self) -> bool:
        """Play the match; True when it was played to the end, False when the human quit."""
        self._say("terminal.welcome", game=self.render.t(f"terminal.game.{self.spec.id}"))
        self._say("terminal.seated", number=self.human, players=self.game.players)
        self._say("terminal.help_hint")
        try:
            while not self.game.is_over():
                self._show_events()
                acting = self.game.to_act()
                if self._in_window(acting):
                    self._window()
                elif self.human in acting:
                    self._human_turn()
                else:
                    self._computer_turn(min(acting))
        except Quit:
            self._say("terminal.bye")
            return False
        self._show_events()
        self._final()
        return True

    def _say(self, key: str, /, **args: object) -> None:
        self.console.write(self.render.t(key, **args))

    def _view(self) -> View:
        return self.game.view(self.human)

    def _show_events(self) -> None:
        events = self._view().events
        for m in _new_events(self._seen, events):
            self.console.write(f"  » {self.render.msg(m)}")
        self._seen = events

    def _final(self) -> None:
        result = self.game.result()
        self.console.write("")
        self._say("terminal.result")
        for line in result_lines(self.render, result, self.game.view(None).teams):
            self.console.write(f"  {line}")
        self._say("terminal.you_won" if result.places[self.human] == 1 else "terminal.you_lost")

    # --- computer players ---------------------------------------------------------------------

    def _computer_turn(self, seat: Seat) -> None:
        acting = self.game.to_act()
        self.console.sleep(self.pace)
        action = choose(self.game, seat, self._player(seat), self.rng)
        text = self.game.notation(action)
        before = self._view().events
        self.game.apply(seat, action)
        if _new_events(before, self._view().events):
            return  # the game's own events tell what happened
        if len(acting) > 1:
            self._say("terminal.chose", seat=self.render.seat(seat))
        else:
            self.console.write(f"{self.render.seat(seat)}: {self._public_label(text)}")

    def _public_label(self, notation: str) -> str:
        """The label of an action everyone saw; cards named only if the viewer can see them."""
        shape = shape_of(-1, notation)
        if (
            shape.cards
            and shape.verb is not None
            and not set(shape.cards) <= _visible(self._view())
        ):
            return self.render.t(self.render.verb_key(self.game.game_id, shape.verb))
        return self.render.action(self.game.game_id, notation)

    # --- the human ----------------------------------------------------------------------------

    def _human_turn(self) -> None:
        view = self._view()
        self.console.write("")
        for line in self.render.table(view):
            self.console.write(line)
        self.console.write(self.render.turn(view))
        legal = self.game.legal_actions(self.human)
        notations = [self.game.notation(a) for a in legal]
        listed = self._list_actions(legal, notations)
        while True:
            try:
                text = self.console.read(self.render.t("terminal.prompt")).strip()
            except EOFError:
                raise Quit from None
            action = self._understand(text, legal, notations, listed)
            if action is None:
                continue
            before = self._view().events
            self.game.apply(self.human, action)
            if not _new_events(before, self._view().events):
                label = self.render.action(self.game.game_id, self.game.notation(action))
                self.console.write(f"{self.render.seat(self.human)}: {label}")
            return

    def _list_actions(self, legal: Sequence[Action], notations: Sequence[str]) -> list[Action]:
        """Print the choices; returns the numbered ones (a big group of card choices is not)."""
        groups: dict[str, list[int]] = {}
        for i, text in enumerate(notations):
            groups.setdefault(shape_of(legal[i], text).verb or "", []).append(i)
        big = {v for v, idx in groups.items() if len(idx) > LIST_LIMIT and len(legal) > LIST_LIMIT}
        # Cards in the order the hand is shown, then the other moves in the game's order.
        order = {c: i for i, c in enumerate(sort_hand(c for c in legal if 0 <= c <= JOKER))}
        listed = sorted(
            (
                legal[i]
                for i in range(len(legal))
                if (shape_of(legal[i], notations[i]).verb or "") not in big
            ),
            key=lambda a: (
                (0, order[a])
                if shape_of(a, self.game.notation(a)).plays_one_card
                else (1, legal.index(a))
            ),
        )
        self._say("terminal.choices")
        for number, action in enumerate(listed, 1):
            text = notations[legal.index(action)]
            label = self.render.action(self.game.game_id, text)
            self.console.write(f"  {number:>2}. {label}  ({text})")
        for verb in sorted(big):
            example = notations[groups[verb][0]]
            first = shape_of(legal[groups[verb][0]], example)
            self._say(
                "terminal.type_cards" if first.cards else "terminal.type_choice",
                label=self.render.t(self.render.verb_key(self.game.game_id, verb)) if verb else "",
                count=len(groups[verb]),
                example=" ".join(example.split()[1:]) if verb else example,
            )
        return listed

    def _understand(
        self, text: str, legal: Sequence[Action], notations: Sequence[str], listed: Sequence[Action]
    ) -> Action | None:
        """The action the human typed, or None after saying what is wrong (or doing a command)."""
        word = text.lower()
        if not word:
            if len(legal) == 1:
                return legal[0]
            self._say("terminal.empty")
            return None
        if word in HELP_WORDS:
            self._say("terminal.help")
            return None
        if word in RULES_WORDS:
            for heading, text in rule_sections(self.render.catalog, self.game.game_id):
                self.console.write(f"{heading}\n{text}\n")
            return None
        if word in TABLE_WORDS:
            for line in self.render.table(self._view()):
                self.console.write(line)
            return None
        if word in QUIT_WORDS:
            self._confirm_quit()
            return None
        if word.isdigit():
            number = int(word)
            if 1 <= number <= len(listed):
                return listed[number - 1]
            if listed:
                self._say("terminal.bad_number", count=len(listed))
            else:
                self._say("terminal.no_numbers")
            return None
        try:
            action = self.game.parse(text)
        except NotationError:
            action = None
        if action is not None and action in legal:
            return action
        by_cards = _by_cards(text, legal, notations)
        if by_cards is not None:
            return by_cards
        by_arguments = _by_arguments(text, legal, notations)
        if by_arguments is not None:
            return by_arguments
        if action is not None:
            label = self.render.action(self.game.game_id, self.game.notation(action))
            self._say("terminal.not_allowed", action=label)
        else:
            self._say("terminal.not_understood", text=text)
        return None

    def _confirm_quit(self) -> None:
        try:
            answer = self.console.read(self.render.t("terminal.confirm_quit"))
        except EOFError:
            raise Quit from None
        if answer.strip().lower() in YES_WORDS:
            raise Quit

    # --- real-time reaction windows -------------------------------------------------------------

    def _in_window(self, acting: frozenset[Seat]) -> bool:
        if not self.spec.realtime or not acting:
            return False
        seat = min(acting)
        return is_timed_window([self.game.notation(a) for a in self.game.legal_actions(seat)])

    def _player(self, seat: Seat) -> Player:
        """The computer player of ``seat`` for one decision (a search gets a fresh time cap)."""
        kind = self.kinds.get(seat, "normal")
        if kind in SEARCH_KINDS:
            return search_player(TERMINAL_SEARCH_SECONDS, TERMINAL_SEARCH_ITERATIONS)
        return make_player(kind)

    def _reaction_median_ms(self, seat: Seat) -> float:
        """The terminal's reaction median, scaled for the level of ``seat``'s computer player."""
        normal = reaction_of("normal").median_ms
        return (
            self.reaction_median_ms * reaction_of(self.kinds.get(seat, "normal")).median_ms / normal
        )

    def _window(self) -> None:
        view = self._view()
        window_ms = _window_ms(view.phase)
        self.console.write("")
        self.console.write(f"*** {self.render.msg(view.phase)} ***")
        start = self.console.now()
        plans = sorted(
            (press.at_ms, seat, press.action)
            for seat in sorted(self.game.to_act() - {self.human})
            for press in plan_reaction(
                self.game,
                seat,
                self._player(seat),
                self.rng,
                self._reaction_median_ms(seat),
                reaction_of(self.kinds.get(seat, "normal")).wrong_rate,
            )
        )
        presses = self._press_words() if self.human in self.game.to_act() else {}
        if presses:
            self._say(
                "terminal.react", choices=self._press_menu(presses), seconds=f"{window_ms / 1000:g}"
            )
        while self._in_window(self.game.to_act()):
            elapsed = int((self.console.now() - start) * 1000)
            while plans and plans[0][0] <= elapsed and self._in_window(self.game.to_act()):
                at_ms, seat, action = plans.pop(0)
                if seat in self.game.to_act():
                    self._timed_apply(seat, action, at_ms)
            if not self._in_window(self.game.to_act()):
                break
            # the window ends at its timeout, or earlier once the game says the loser is certain
            close_ms = min(window_ms, _decided_ms(self._view().phase) or window_ms)
            if elapsed >= close_ms:
                seat = min(self.game.to_act())
                self.game.apply(seat, self._timed(seat, "close", close_ms))
                if close_ms == window_ms:
                    self._say("terminal.time_up")
                break
            wait = (min([p[0] for p in plans] + [close_ms]) - elapsed) / 1000
            if self.human not in self.game.to_act():
                self.console.sleep(wait)
                continue
            typed = self.console.read_within("", wait)
            if typed is None:
                continue
            ms = int((self.console.now() - start) * 1000)
            verb = presses.get(_normal(typed))
            if verb is None:
                self._say("terminal.bad_reaction", choices=self._press_menu(presses))
                continue
            self._timed_apply(self.human, self._timed(self.human, verb, ms), ms)
        self.console.discard_pending()

    def _press_words(self) -> dict[str, str]:
        """What the human may type for each press: its number, its verb or its label."""
        verbs = [
            t.split()[0]
            for t in (self.game.notation(a) for a in self.game.legal_actions(self.human))
            if t.split()[0] != "close"
        ]
        words: dict[str, str] = {}
        for number, verb in enumerate(verbs, 1):
            label = self.render.t(self.render.verb_key(self.game.game_id, verb))
            words[str(number)] = verb
            words[verb] = verb
            words[_normal(label)] = verb
        return words

    def _press_menu(self, words: Mapping[str, str]) -> str:
        numbered = [(w, v) for w, v in words.items() if w.isdigit()]
        return "  ".join(
            f"{w}. {self.render.t(self.render.verb_key(self.game.game_id, v))}" for w, v in numbered
        )

    def _timed(self, seat: Seat, verb: str, ms: int) -> Action:
        floor = max(
            shape_of(a, self.game.notation(a)).numbers[0] for a in self.game.legal_actions(seat)
        )
        return self.game.parse(f"{verb} {max(ms, floor)}")

    def _timed_apply(self, seat: Seat, action: Action, at_ms: int) -> None:
        text = self.game.notation(action)
        verb = text.split()[0]
        action = self._timed(seat, verb, at_ms)
        self.game.apply(seat, action)
        label = self.render.t(self.render.verb_key(self.game.game_id, verb))
        self._say("terminal.pressed", seat=self.render.seat(seat), label=label, ms=at_ms)


# --- helpers ------------------------------------------------------------------------------------


def _new_events(seen: Sequence[Msg], now: Sequence[Msg]) -> Sequence[Msg]:
    """The events of ``now`` that came after ``seen`` (both are the tail of the same log)."""
    for k in range(min(len(seen), len(now)), 0, -1):
        if tuple(seen[len(seen) - k :]) == tuple(now[:k]):
            return now[k:]
    return now


def _visible(view: View) -> set[int]:
    """Every card the viewer can see now."""
    cards: set[int] = {int(c) for c in view.hand}
    cards.update(int(c) for _, c in view.trick)
    for pile in view.piles:
        cards.update(int(c) for c in pile.cards)
    for seat in view.seats:
        cards.update(int(c) for c in seat.shown)
    return cards


def _by_cards(text: str, legal: Sequence[Action], notations: Sequence[str]) -> Action | None:
    """The one legal action whose cards are exactly the typed cards (any order), if any."""
    try:
        typed = sorted(parse_card(token) for token in text.replace(",", " ").split())
    except ValueError:
        return None
    if not typed:
        return None
    found = [
        a for a, n in zip(legal, notations, strict=True) if sorted(shape_of(a, n).cards) == typed
    ]
    return found[0] if len(found) == 1 else None


def _by_arguments(text: str, legal: Sequence[Action], notations: Sequence[str]) -> Action | None:
    """The one legal action whose arguments are the typed words, without its verb (``1C`` for
    ``bid 1C``), as the hint for a big group of choices shows them, if any."""
    typed = text.lower().split()
    found = [a for a, n in zip(legal, notations, strict=True) if n.lower().split()[1:] == typed]
    return found[0] if typed and len(found) == 1 else None


def _window_ms(phase: Msg) -> int:
    try:
        return int(phase.arg("window_ms"))
    except (KeyError, ValueError):
        return DEFAULT_WINDOW_MS


def _decided_ms(phase: Msg) -> int | None:
    """When the open window's loser becomes certain, if the game says so (a pending penalty)."""
    try:
        return int(phase.arg("decided_ms"))
    except (KeyError, ValueError):
        return None


# --- setting up a table -------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayRequest:
    """What ``kortbord play`` was asked for."""

    game_id: str
    players: int | None = None
    seed: int | None = None
    options: Sequence[str] = ()
    variant: str | None = None
    lang: str = "sv"
    seat: Seat = 0
    pace: float = 0.7
    opponents: str = "normal"
    name: str | None = None


class SetupError(ValueError):
    """The request names no game, a bad option or a bad seat; the message is for the player."""


def seat_names(lang: str, players: int, human: Seat, name: str | None = None) -> list[str]:
    """The human's name (``name``, else "Du"/"You") and the computer players' names by seat."""
    cat = catalog(lang)
    computers = iter(n.strip() for n in cat.text("terminal.computer_names").split(","))
    own = name or cat.text("terminal.human_name")
    return [own if s == human else next(computers, f"#{s + 1}") for s in range(players)]


def build_table(request: PlayRequest, console: Console) -> TerminalTable:
    """The table for ``request``; SetupError (already in the player's language) when it is wrong."""
    cat = catalog(request.lang)
    spec = registry.SPECS.get(request.game_id)
    if spec is None:
        raise SetupError(
            cat.text(
                "terminal.error.unknown_game", game=request.game_id, games=", ".join(registry.SPECS)
            )
        )
    players = request.players if request.players is not None else spec.usual_players
    try:  # variants and options by id or by name, refused in the player's language
        variant = choices.parse_variant(cat, request.game_id, request.variant)
        settings: dict[str, str] = {}
        for item in request.options:
            name, value = choices.parse_setting(cat, request.game_id, item)
            settings[name] = value
        choices.check(cat, request.game_id, variant, settings)
    except UserError as error:
        raise SetupError(cat.text(error.msg.key, **dict(error.msg.args))) from None
    try:
        options = apply_option_text(spec.preset(variant), settings)
        rng = random.Random(request.seed)
        game = spec.new(players, options, rng=rng)
    except OptionError as exc:
        raise SetupError(cat.text("terminal.error.bad_option", detail=str(exc))) from None
    if not 0 <= request.seat < players:
        raise SetupError(cat.text("terminal.error.bad_seat", seat=request.seat, last=players - 1))
    if request.opponents not in PLAYER_KINDS:
        raise SetupError(
            cat.text(
                "terminal.error.bad_opponents",
                kind=request.opponents,
                kinds=", ".join(PLAYER_KINDS),
            )
        )
    human = request.seat
    ai_rng = random.Random(None if request.seed is None else request.seed + 1)
    return TerminalTable(
        spec=spec,
        game=game,
        human=human,
        render=TextRenderer(cat, seat_names(request.lang, players, human, request.name)),
        console=console,
        rng=ai_rng,
        kinds={s: request.opponents for s in range(players) if s != human},
        pace=request.pace,
    )
