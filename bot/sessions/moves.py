"""What a seat may do now, asked of the game: a member's choices on a panel, the cards a waiting
panel offers ahead of its turn, a forced pass or card, a turn's time, and a reaction window's
presses. Pure functions of a match; nothing here changes a table.
"""

from __future__ import annotations

from games.ai import is_timed_window
from games.cards import all_card_codes, code, is_card_code
from games.core import Action, Game, Seat, View

DECISION_FACTOR = 2
"""A decision (a bid, bid cards, a declaration: anything but playing one card) gets this many
times the table's turn time: choosing takes longer than following suit."""


Legal = tuple[tuple[Action, ...], tuple[str, ...]]
"""A seat's legal actions and their notations, in the game's order, side by side: what every
question below reads, so that a live table asks the game once per state (``LiveTable.legal``).
Two tuples rather than a pair for each action: a live table keeps these for every seat of every
table, and the collector goes through each object kept."""

NONE_LEGAL: Legal = ((), ())


def legal_of(game: Game, seat: Seat) -> Legal:
    """The seat's legal actions with their notations."""
    actions = tuple(game.legal_actions(seat))
    return actions, tuple(map(game.notation, actions))


def single_of(game: Game, seat: Seat) -> Legal:
    """The seat's one legal action with its notation, when it has exactly one (else none): all
    that :func:`only_pass` and :func:`only_card` read, without the other notations."""
    legal = game.legal_actions(seat)
    return ((legal[0],), (game.notation(legal[0]),)) if len(legal) == 1 else NONE_LEGAL


def card_turn_legal(game: Game, seat: Seat) -> Legal | None:
    """The seat's legal actions with their notations (:func:`legal_of`) where the first is a
    single card; else None, without spelling out the rest: the seat has a decision to make, and
    a decision may offer many moves (a Piquet exchange 1,507, whose notations take milliseconds
    to spell out), which are spelled out only where a panel asks for them."""
    actions = tuple(game.legal_actions(seat))
    if actions and not is_card_code(game.notation(actions[0])):
        return None
    return actions, tuple(map(game.notation, actions))


def plays_cards(game: Game, seat: Seat) -> bool:
    """Whether each of the seat's legal actions is a single card (:func:`time_for`)."""
    return only_cards(card_turn_legal(game, seat))


def only_cards(legal: Legal | None) -> bool:
    """:func:`plays_cards`, of what :func:`card_turn_legal` gave."""
    return legal is not None and all_card_codes(legal[1])


def forced_pass(game: Game, seat: Seat) -> Action | None:
    """The seat's ``pass`` when it is the only thing it may do (Jig, Bräus): the table plays it
    at once for a member, as a player at a real table says "pass" without being asked."""
    return only_pass(single_of(game, seat))


def only_pass(legal: Legal) -> Action | None:
    """:func:`forced_pass`, of the seat's ``legal`` actions."""
    actions, notations = legal
    return actions[0] if len(actions) == 1 and notations[0] == "pass" else None


def forced_card(game: Game, seat: Seat) -> Action | None:
    """The seat's card when it is the only thing it may do (it must follow suit with its one
    card of the suit, say): played for a member at once unless they turned that off."""
    return only_card(single_of(game, seat))


def only_card(legal: Legal) -> Action | None:
    """:func:`forced_card`, of the seat's ``legal`` actions."""
    actions, notations = legal
    return actions[0] if len(actions) == 1 and is_card_code(notations[0]) else None


def member_actions(game: Game, seat: Seat) -> dict[Action, str]:
    """What a member may choose for ``seat`` from a panel: its legal actions with their notations.

    Nothing else the engine would take is a member's to send. A timed window's actions
    (``is_timed_window``: ``<verb> <ms>`` and the timer's ``close <ms>``) carry a time, which
    only the server's clock may set: a press comes from a reaction button, stamped by the
    interaction's id (``press``), and ``close`` only from the window's timer.
    """
    if seat not in game.to_act():
        return {}
    return choices_of(legal_of(game, seat))


def choices_of(legal: Legal) -> dict[Action, str]:
    """:func:`member_actions`, of the legal actions of a seat that is to act."""
    actions, notations = legal
    if is_timed_window(notations):
        return {}
    return dict(zip(actions, notations, strict=True))


def cards_ahead(game: Game, seat: Seat) -> list[str]:
    """The cards a waiting seat's panel offers ahead of its turn: while the seats to act play
    single cards, the seat's own hand, so that its panel already holds the controls it will need
    and is not edited when the turn comes (a click before the turn is refused and answered with
    the current panel; ``act`` checks every click). Nothing for a seat to act, or in a phase of
    other choices (bids, reactions)."""
    acting = game.to_act()
    if not acting or seat in acting:
        return []
    for other in acting:
        notations = [game.notation(action) for action in game.legal_actions(other)]
        if not notations or not all_card_codes(notations):
            return []
    return [code(c) for c in game.hand(seat)]


def press_verbs(game: Game, seat: Seat) -> frozenset[str]:
    """The reactions ``seat`` may press in the open timed window (never the timer's ``close``)."""
    if seat not in game.to_act():
        return frozenset()
    notations = [game.notation(action) for action in game.legal_actions(seat)]
    if not is_timed_window(notations):
        return frozenset()
    return frozenset(n.split()[0] for n in notations) - {"close"}


def window_ms(view: View) -> int | None:
    """The length of the open reaction window, or None when none is open."""
    return _phase_int(view, "window_ms")


def decided_ms(view: View) -> int | None:
    """When the open window's outcome becomes certain (after the reveal), if the game says so:
    all but one have reacted, and a penalty on a corrected press is still running."""
    return _phase_int(view, "decided_ms")


def _phase_int(view: View, name: str) -> int | None:
    for arg, value in view.phase.args:
        if arg == name and isinstance(value, int):
            return value
    return None


def press_floor(game: Game, seat: Seat) -> int | None:
    """The earliest press time ``seat`` may use now (the window's latest applied time)."""
    for action in game.legal_actions(seat):
        words = game.notation(action).split()
        if len(words) == 2 and words[1].isdigit():
            return int(words[1])
    return None


def correct_press(game: Game, seat: Seat) -> str | None:
    """The press verb that settles ``seat``'s reaction, found by trying each on a copy.

    A correct press takes the seat out of ``to_act``; a wrong one leaves it in. When every press
    would (a false-alarm window) there is no right thing to do and None is returned.
    """
    floor = press_floor(game, seat)
    settling = []
    for action in game.legal_actions(seat):
        verb = game.notation(action).split()[0]
        if verb == "close":
            continue
        trial = game.clone()
        trial.apply(seat, game.parse(f"{verb} {floor}"))
        if seat not in trial.to_act():
            settling.append(verb)
    presses = [a for a in game.legal_actions(seat) if not game.notation(a).startswith("close")]
    return settling[0] if len(settling) == 1 and len(presses) > 1 else None


def turn_time(turn_seconds: int, game: Game, seat: Seat) -> float:
    """The time ``seat`` gets for its choice now: the table's turn time to play a card, and
    ``DECISION_FACTOR`` times that for a decision (a bid, bid cards, a declaration)."""
    return time_for(turn_seconds, plays_cards(game, seat))


def time_for(turn_seconds: int, cards: bool) -> float:
    """:func:`turn_time`, of whether each of the seat's legal actions is a card
    (:func:`plays_cards`)."""
    if cards:
        return turn_seconds
    return turn_seconds * DECISION_FACTOR  # a word, or several, among them: ``pass``, ``bid 3``
