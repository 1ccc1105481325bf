"""Reunion: three players, 32 cards, the turned trump and two bowers, played for stakes in parties
of three deals (rules/three-to-five-player.md §1; the Swedish text in seeds/ is the authority).

Rules implemented:

* Three players, each for himself. Play and the deal go counter-clockwise. Seats are numbered in
  playing order, as in every game here: seat ``s + 1`` (mod 3) sits on the **right** of seat ``s``
  and plays after it, so "the dealer's right" of the text is ``dealer + 1``, forehand. The first
  dealer is drawn at random (R11); each deal passes to the right.
* 32 cards (A K Q J T 9 8 7). The bottom card is turned up: its suit is trumps. The jack of trumps
  (right bower) is the highest trump, the jack of the same colour (left bower) the next, then
  A T K Q 9 8 7; the left bower is a trump for every purpose. Plain suits rank A T K Q J 9 8 7.
  Eyes: bowers 12, the other jacks 2, aces 11, tens 10, kings 4, queens 3, others 0, and 10 for
  the last trick: 150 a deal.
* The deal: 3, 4 and 3 cards each from forehand, the dealer last. The dealer adds the 31st card
  (face down) to his hand and lays two cards away face down, never an ace or a bower (R3). The
  turn-up stays on the table and joins the dealer's hand after the second trick (R4), shown to
  everyone until he plays it.
* Ten tricks: forehand leads; follow suit, else play a trump, else anything; no duty to beat (R5).
  The highest trump wins, else the highest card of the suit led.
* Capture premium: when the right and the left bower fall in the same trick, the player of the
  left pays the player of the right one stake at once (R8).
* A deal scores each player the eyes of his tricks, 10 for the last trick, and the dealer the eyes
  of his two discards even without a trick (R2). A player with no trick gets a stång.
* A partie is three deals, each player dealing once. The most eyes wins (a tie for first: two
  winners, each paid in full, R7; all at 150: no one wins). Every other player below 150 pays each
  winner: 4 stakes with no trick in the whole partie (quadruple match, R10), 3 below 50 eyes
  (triple match), 2 below 100 (match), 2 from 100 when alone below 150 (match), else 1 (single).
  150 or more: neither pays nor receives. Then each pair settles its stångs: the one with more
  pays one stake per stång more (R9).
* A session is ``parties`` parties (default 3). With ``carry_last_dealer`` (default, the seed's
  tip, R12) whoever dealt the last deal of a partie deals the first of the next; off
  (``plain_rotation``), the deal simply goes on to the right. The result is each player's balance
  of stakes; stakes are points, never money.

Decisions beyond the spec: the preset ``one_partie`` plays a session of a single partie, for a
short table. The score sheet shows earlier parties as one line of stakes each and the partie in
play item by item (eyes in tricks, the last trick, the discards, stångs, the deal's sum, capture
stakes; then the partie's eyes, stångs, win or loss, stång and capture stakes, and its net).
The last completed trick stays face up until the next one is completed (the text is silent on
looking back at tricks); earlier tricks lie face down. The dealer sees his own discards; the
others see them when the deal is scored. Places at the end of a session go by stakes, ties
sharing a place.

Notation of actions:

* ``JH``, ``TC``: play that card.
* ``discard 7C KD``: the dealer lays these two cards away (any order is read; written in card
  order, clubs to spades, low to high).

Modules: ``rules`` (cards, eyes, notation, the partie settlement as pure functions), ``sheet``
(the score sheet), ``events`` (events and their messages) and ``match`` (the state of a session).
Rules only: no I/O, no clock, standard library only.
"""

from __future__ import annotations

from games.core import GameSpec
from games.reunion.match import Reunion, ReunionOptions, new_match
from games.reunion.rules import (
    DISCARD,
    MATCH,
    QUADRUPLE,
    SIMPLE,
    STANG,
    TRIPLE,
    discard_action,
    eyes_of,
    loss_kind,
    net_stakes,
    settle_partie,
)
from games.reunion.sheet import DealRecord, PartieRecord

__all__ = [
    "DISCARD",
    "MATCH",
    "QUADRUPLE",
    "SIMPLE",
    "SPEC",
    "STANG",
    "TRIPLE",
    "DealRecord",
    "PartieRecord",
    "Reunion",
    "ReunionOptions",
    "discard_action",
    "eyes_of",
    "loss_kind",
    "net_stakes",
    "settle_partie",
]

SPEC = GameSpec(
    id="reunion",
    min_players=3,
    max_players=3,
    options_type=ReunionOptions,
    factory=new_match,
    presets={
        "standard": ReunionOptions(),
        "plain_rotation": ReunionOptions(carry_last_dealer=False),
        "one_partie": ReunionOptions(parties=1),
    },
)
