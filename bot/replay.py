"""Replays: a match that is over, walked through deal by deal and trick by trick with every hand
face up (``/spel repris``).

A match is rebuilt from its seed and its action log (``bot.sessions.replay``) and cut into
:class:`Frame`\\ s: the start of each deal, then the moment each trick is complete (in a game
without tricks, each move). A frame's view is the spectator's view with every seat's hand laid
face up (``SeatView.shown``) and the trick just completed on the table, so the table picture and
text draw it as they draw any table. Only a match that is over is replayed, and a table of the
day only once its day is over (``bot.verify.seed_secret``): the hands are the day's deal.

No Discord and no SQL here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from bot.sessions import replay
from bot.storage import ActionRecord, TableRecord
from games.cards import cards_tuple, parse_card
from games.core import Game, Seat, View
from games.registry import SPECS


@dataclass(frozen=True)
class Frame:
    """One step of a replay: the deal, the trick just completed (0: the deal's start; in a game
    without tricks, the move), the moves made since the step before, and the table then."""

    deal: int
    trick: int
    moves: tuple[tuple[Seat, str], ...]
    view: View


def _card(notation: str) -> int | None:
    try:
        return parse_card(notation)
    except ValueError:
        return None


def _face_up(game: Game, view: View, hands: Sequence[tuple[int, ...]] | None = None) -> View:
    """``view`` with each seat's hand face up (``hands``, else the hands in ``game``)."""
    seats = len(view.seats)
    held = hands if hands is not None else [game.hand(s) for s in range(seats)]
    shown = tuple(
        dataclasses.replace(info, shown=cards_tuple(held[s])) for s, info in enumerate(view.seats)
    )
    return dataclasses.replace(view, seats=shown)


def frames(record: TableRecord, actions: Sequence[ActionRecord]) -> list[Frame]:
    """Every step of the stored match, from the first deal's start to its end."""
    game = replay(record, [])
    by_trick = SPECS[record.game_id].trick_taking
    view = game.view(None)
    out = [Frame(view.deal, 0, (), _face_up(game, view))]
    moves: list[tuple[Seat, str]] = []
    trick = 0
    for entry in actions:
        before = game.view(None)
        hands: list[list[int]] = [list(game.hand(s)) for s in range(len(before.seats))]
        game.apply(entry.seat, game.parse(entry.notation))
        moves.append((entry.seat, entry.notation))
        after = game.view(None)
        card = _card(entry.notation)
        completed = (
            bool(before.trick) and card is not None and len(after.trick) <= len(before.trick)
        )
        if after.deal != before.deal or completed or not by_trick or game.is_over():
            trick += 1
            shown = after
            if completed and card is not None:
                plays = (*before.trick, (entry.seat, cards_tuple([card])[0]))
                shown = dataclasses.replace(after, trick=plays)
            if after.deal != before.deal or game.is_over():
                # the deal's last move: the hands as they were, less the card just played
                if card is not None and card in hands[entry.seat]:
                    hands[entry.seat].remove(card)
                held = [tuple(h) for h in hands]
                last = dataclasses.replace(shown, deal=before.deal)
                out.append(Frame(before.deal, trick, tuple(moves), _face_up(game, last, held)))
                moves = []
                if not game.is_over():
                    trick = 0
                    out.append(Frame(after.deal, 0, (), _face_up(game, after)))
                continue
            out.append(Frame(after.deal, trick, tuple(moves), _face_up(game, shown)))
            moves = []
    return out


def deal_starts(steps: Sequence[Frame]) -> list[int]:
    """The index of each deal's first frame."""
    return [i for i, frame in enumerate(steps) if frame.trick == 0]
