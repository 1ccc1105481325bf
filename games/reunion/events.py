"""Reunion's events: compact tuples while playing, messages (``Msg``) only when a view is built.

An event is ``(kind, visible_to, *ints)``; ``visible_to`` is a seat, or -1 for everyone. Pure.
"""

from __future__ import annotations

from games.cards import code, codes
from games.core import Msg

EVERYONE = -1
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

E_PARTIE, E_DEAL, E_TURN_UP, E_LAST_CARD, E_DISCARDED, E_YOU_DISCARDED = range(6)
E_PLAYED, E_TRICK, E_TAKES_TURN_UP, E_CAPTURE, E_DISCARDS_SHOWN, E_DEAL_SCORE = range(6, 12)
E_STANG, E_PARTIE_WON, E_PARTIE_TIED, E_EVEN, E_LOSS, E_STANG_PAID, E_ALL_EVEN = range(12, 19)
E_PARTIE_NET, E_SESSION_WON = range(19, 21)
Event = tuple[int, ...]
LOSS_NAMES = {1: "simple", 2: "match", 3: "triple", 4: "quadruple"}


def suit_name(suit: int) -> str:
    return SUIT_NAMES[suit]


def message(event: Event) -> Msg:
    kind, _, *a = event
    k = "reunion.event."
    if kind == E_PLAYED:
        return Msg.of(k + "played", seat=a[0], card=code(a[1]))
    if kind == E_TRICK:
        return Msg.of("table.event.trick_won", seat=a[0], card=code(a[1]))
    if kind == E_DEAL:
        return Msg.of("table.event.deal_started", deal=a[0], seat=a[1])
    if kind == E_TURN_UP:
        return Msg.of(k + "turn_up", card=code(a[0]), suit="CDHS"[a[0] // 13])
    if kind == E_PARTIE:
        return Msg.of(k + "partie_started", partie=a[0])
    if kind == E_LAST_CARD:
        return Msg.of(k + "you_took_last_card", card=code(a[0]))
    if kind == E_DISCARDED:
        return Msg.of(k + "discarded", seat=a[0])
    if kind == E_YOU_DISCARDED:
        return Msg.of(k + "you_discarded", cards=codes(a[:2]), eyes=a[2])
    if kind == E_TAKES_TURN_UP:
        return Msg.of(k + "takes_turn_up", seat=a[0], card=code(a[1]))
    if kind == E_CAPTURE:
        return Msg.of(k + "capture", seat=a[0], winner_seat=a[1])
    if kind == E_DISCARDS_SHOWN:
        return Msg.of(k + "discards_shown", seat=a[0], cards=codes(a[1:3]), eyes=a[3])
    if kind == E_DEAL_SCORE:
        return Msg.of(k + "deal_score", seat=a[0], tricks=a[1], last=a[2], discards=a[3], eyes=a[4])
    if kind == E_STANG:
        return Msg.of(k + "stang", seat=a[0])
    if kind == E_PARTIE_WON:
        return Msg.of(k + "partie_won", seat=a[0], eyes=a[1])
    if kind == E_PARTIE_TIED:
        return Msg.of(k + "partie_shared", seat=a[0], eyes=a[1])
    if kind == E_EVEN:
        return Msg.of(k + "even", seat=a[0], eyes=a[1])
    if kind == E_LOSS:
        name = LOSS_NAMES[a[2]]
        return Msg.of(k + f"loss_{name}", seat=a[0], winner_seat=a[1], stakes=a[2], eyes=a[3])
    if kind == E_STANG_PAID:
        return Msg.of(k + "stangs_paid", seat=a[0], other_seat=a[1], stakes=a[2])
    if kind == E_ALL_EVEN:
        return Msg.of(k + "all_even")
    if kind == E_PARTIE_NET:
        return Msg.of(k + "partie_settled", partie=a[0])
    if a[0] < 0:
        return Msg.of(k + "session_even")
    return Msg.of(k + "session_won", seat=a[0], stakes=a[1])
