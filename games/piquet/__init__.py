"""Piquet for 2, 3 and 4 players: rules engine (rules/two-player.md §3, RULINGS 1).

Rules implemented (the Swedish text is the authority; decisions D-PQ-0..19 of the spec):

* 32 cards, A K Q J 10 9 8 7 in each suit, no trumps ever. The first dealer is drawn at random
  (D-PQ-10); the deal passes clockwise (alternates with two). Elder (förhand) is the dealer's
  left. Cards are dealt two at a time from elder.
* Two players: 12 cards each; the other 8 are the talon, elder's 5 on top, the dealer's 3 below.
  Elder exchanges first, then younger (the dealer): each lays cards away face down and takes as
  many from the top of his part of the talon. Profile ``seed`` (S2): elder 3, 4 or 5, the rest of
  his five set aside (he alone has seen them); younger 2 or 3 from his own three, the rest set
  aside unseen. Profile ``classic``: elder 1 to 5; younger 0 up to every card left (elder's
  leftovers first); younger then exposes the cards still left (he sees them now, elder after
  leading to trick 1, then everyone) or hides them.
* Carte blanche: a dealt hand without K, Q or J scores 10 when shown at the player's first
  decision of the deal (D-PQ-18): before his exchange, or (3p non-dealers, 4p) at his first card.
* Declarations, computed and announced for the players in the Swedish order (§3.4, D-PQ-7):
  point (number of cards, then pip total: A 11, K Q J 10 ten, others their number), sequence
  (length, then top card), sets of three or four of a rank above nine (quatorze beats trio, then
  the rank). Elder calls, the others answer "räcker" (good), "lika" (equal) or call a bigger size;
  after "lika" the tie-break is called and answered "räcker inte", "lika" or "räcker". The single
  best holder scores: the point 1 (seed, S1) or 1 per card (classic); every sequence he holds
  (3, 4, 15, 16, 17, 18 for 3 to 8 cards); every trio (3) and quatorze (14). The winner's scoring
  cards are shown. An equal best scores nothing (D-PQ-16).
* Play: elder leads; follow suit if able, else any card; the highest card of the suit led wins.
  The leader scores 1 and a player who wins a trick another led scores 1: with ``seed`` (S3) only
  for a card above nine. The last trick scores 1. Most tricks 10 (three players: 5 each to two
  tied for most); all tricks (capot) 40 instead, and with ``seed`` (S4) no last-trick point.
* Repique and pique (§3.7, D-PQ-3..5): scoring items are taken in the fixed order carte blanche,
  point, sequences, sets, play; a party reaching 30 (3p/4p: 20) from combinations while every
  other party is at 0 gets +60 (3p/4p: +90), or, reaching it with the play points, +30 (3p/4p:
  +60). The cards/capot never count. With ``seed`` (S5) an equal best point or sequence (any
  class tied between parties) blocks both bonuses for the deal.
* Partie: six deals; two players equal after six deal twice more, then it is a draw (D-PQ-9). The
  Rubicon margin is shown for the winner (display only). Three players: 10 cards each, a talon of
  2 that only the dealer may use (0, 1 or 2 cards, D-PQ-11); the settlement is shown (the winner
  receives the difference plus 100 from each, the second the difference plus 50 from the last).
* Four players: partners opposite (0 & 2 against 1 & 3), 8 cards, no talon, ``four_player_deals``
  4 or 8. Elder announces his combinations and leads; each other player announces, as he plays
  his first card, every class where he holds better than announced so far (D-PQ-19). After
  trick 1 each class scores for the side of its best holder, with the partner's combinations of
  the same class (D-PQ-17); a best held equally by both sides scores nothing. Each side earns at
  most one point per trick for the lead and the win together (D-PQ-15).

Options: ``profile`` (``seed`` or ``classic``), each flag of the seed profile on its own
(``point_flat_1`` S1, ``seed_exchange`` S2, ``ten_plus`` S3, ``capot_no_last`` S4,
``equality_blocks`` S5: ``profile``, ``on`` or ``off``) and ``four_player_deals`` (4 or 8).
Presets: ``classic`` and ``eight_deals``.

Notation: a card played is its code (``KS``, ``TH``). ``exchange 7C 8D 9H`` lays those cards away
and takes as many from the talon (``exchange`` alone takes none, where 0 is allowed);
``blanche`` claims carte blanche; ``expose`` / ``hide`` decide the talon cards left over (classic).
Everything else (the declarations, every score, the next deal) is automatic.

This package is a pure rules engine: standard library only, no I/O, no clock.
"""

from __future__ import annotations

import random

from games.core import Game, GameSpec
from games.piquet.match import GAME_ID, Piquet, PiquetOptions


def _factory(
    players: int, options: PiquetOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Piquet(players, options, rng, decks)


SPEC = GameSpec(
    id=GAME_ID,
    min_players=2,
    max_players=4,
    options_type=PiquetOptions,
    factory=_factory,
    presets={
        "classic": PiquetOptions(profile="classic"),  # D-PQ-0: Cavendish / Parlett
        "eight_deals": PiquetOptions(four_player_deals=8),  # §3.10.2: four players, 8 deals
    },
)

__all__ = ["SPEC", "Piquet", "PiquetOptions"]
