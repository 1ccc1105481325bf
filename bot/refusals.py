"""Why a move a member tried may not be made now, in the game's words, for any game.

The game alone says what is legal (``legal_actions``); this only explains a refusal from what the
seat may see (its view) and from the legal actions, so a refused click says "Du måste följa färg"
rather than "not allowed". The reasons, most particular first:

- it is not the seat's turn (or the seat has nothing to choose now);
- a card it does not hold;
- a card beside a led suit that every legal card follows: it must follow suit;
- following suit, but only higher cards of it are legal: it must go over the highest on the trick;
- only trumps are legal: it must trump;
- otherwise: what it may do now, listed (``cards``: codes, shown as faces).

Pure: no Discord, no storage. The result is a ``UserError`` the faces translate like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.errors import UserError
from games.cards import JOKER, code, parse_card, rank_of, suit_of
from games.core import Game, NotationError, Seat

LISTED = 8  # legal actions named in the fallback reason, at most


def refusal(game: Game, seat: Seat, notation: str, allowed: Sequence[str]) -> UserError:
    """The reason ``seat`` may not make ``notation`` now, as an error to show the member;
    ``allowed``: what the member may choose now (a real-time window's presses are not theirs
    to type, so with nothing allowed nothing is listed)."""
    if seat not in game.to_act():
        return UserError("not_your_turn")
    legal = list(allowed)
    if not legal:
        return UserError("illegal_action")
    card = _card(notation)
    if card is not None:
        view = game.view(seat)
        if card not in view.hand:
            return UserError("refused.not_in_hand", card=notation)
        legal_cards = [c for c in map(_card, legal) if c is not None and c != JOKER]
        reason = _card_reason(card, legal_cards, view.trick, view.trump)
        if reason is not None:
            return reason
    shown = " ".join(legal[:LISTED]) + (" …" if len(legal) > LISTED else "")
    return UserError("refused.allowed", cards=shown)


def _card_reason(
    card: int, legal: list[int], trick: tuple[tuple[Seat, int], ...], trump: int | None
) -> UserError | None:
    if not legal:
        return None
    led = next((suit_of(c) for _, c in trick if c != JOKER), None)
    suits = {suit_of(c) for c in legal}
    if led is not None and suits == {led}:
        if suit_of(card) != led:
            return UserError("refused.follow_suit", suit=led)
        on_trick = [c for _, c in trick if c != JOKER and suit_of(c) == led]
        if on_trick and rank_of(card) < min(rank_of(c) for c in legal):
            best = max(on_trick, key=rank_of)
            return UserError("refused.go_over", card=code(best))
    if trump is not None and suits == {trump} and suit_of(card) != trump:
        return UserError("refused.trump", suit=trump)
    return None


def _card(notation: str) -> int | None:
    try:
        return parse_card(notation)
    except (ValueError, NotationError):
        return None
