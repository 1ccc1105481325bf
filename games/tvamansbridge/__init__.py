"""Tvåmansbridge (Gubb-bridge): contract bridge for two, each player with his own dummy.

Rules implemented (rules/two-player.md §2 with its "audit 2026-11" corrections, and RULINGS 2;
the Swedish text in seeds/ is the authority):

* Two players, 52 cards, ace high. The first dealer is drawn at random; the deal alternates every
  deal, passed-out deals included. Each player has a dummy (träkarl) lying to his right, so the
  four places clockwise are: Elder's dummy (ED), Elder, Dealer's dummy (DD), Dealer (D-BR-1).
* The deal: one card at a time to ED, Elder, DD, Dealer, thirteen rounds. Hands are private. A
  dummy gets six cards face down, then six face up on top of them, then one lone card face down
  beside them. Every face-up dummy card is public; the seven face-down cards of each dummy are
  hidden from both players, the owner too.
* The auction: the dealer calls first, then the players alternate. A call is a bid (1♣ … 7NT,
  each higher than the last bid: higher level, or the same level in a higher strain ♣ ♦ ♥ ♠ NT),
  pass, double (the opponent's bid, not yet doubled) or redouble (the opponent's double of your
  bid). A new bid cancels any double. A pass after a bid ends the auction (D-BR-4, D-BR-5); two
  passes without a bid pass the deal out and the other player deals. The last bid is the
  contract; whoever made it is the declarer, who must take 6 + level tricks with hand and dummy.
* The play: 13 tricks of four cards. The defender's dummy leads to trick 1, then the defender's
  hand, the declarer's dummy and the declarer's hand; later the winner of a trick leads, from
  the hand or the dummy that won it, and the others follow clockwise. Each player plays for his
  own dummy, and from a dummy only its face-up cards. Follow suit if able; for a dummy only its
  face-up cards count (D-BR-2). The highest trump wins, else the highest card of the led suit.
  A card uncovered in a dummy turns face up only after the trick (D-BR-3); the lone card turns
  up when it is the dummy's last card, for trick 13. Tricks of a dummy count for its owner.
* Scoring (the seed's tables, ``scoring``): a made contract writes its trick value below the line
  for the declarer (♣♦ 20, ♥♠ 30, NT 40 then 30; doubled x2, redoubled x4); overtricks,
  the 50 bonus for a made doubled or redoubled contract (D-BR-7), slams and undertricks go above.
  Undertricks score for the defender, by the declarer's zone (D-BR-8, D-BR-12). Slam bonus
  (``slam_bonus``): by default (RULINGS 2) a made contract with 12 tricks taken scores the small
  slam (500, vulnerable 750) and with 13 the grand slam (1000 / 1500), whatever the level;
  ``slam_bonus="bid"`` (preset ``bid_slam``) pays only bid slams. 100 below the line in one game
  wins a game: a new line is drawn and both start again from 0 below it; a player with a game is
  vulnerable (riskzon). The second game ends the rubber (the match, D-BR-11) with a bonus of 700,
  or 500 if the opponent has a game. The higher total of all points wins, by the difference;
  equal totals are a draw (D-BR-10).
* Shown as a score sheet (``View.sheet``): above the line, newest on top, each entry with its
  deal; the line; below it each made contract, with a new line after every game; the totals.
  Each entry is a contract's own points (the seed's running subtotal below the line is the
  players' ``part_score`` note).

Notation of actions:

* ``QS``, ``TH``, ``2C``: play that card, from the hand or (when the dummy is due to play) from
  the dummy's face-up cards; the code names the card, so it also says where it comes from.
* ``bid 1C`` … ``bid 7NT`` (strains ``C D H S NT``), ``pass``, ``double``, ``redouble``: calls.
  On the Discord panel a bid takes two clicks: the level, then the strain.

Modules: ``scoring`` (pure scoring tables), ``match`` (the game state). Rules only: no I/O, no
clock, standard library only.
"""

from __future__ import annotations

from games.core import GameSpec
from games.tvamansbridge.match import (
    CALL_BASE,
    LADDER,
    Tvamansbridge,
    TvamansbridgeOptions,
    contract_text,
    new_match,
)
from games.tvamansbridge.scoring import score_deal

__all__ = [
    "CALL_BASE",
    "LADDER",
    "SPEC",
    "Tvamansbridge",
    "TvamansbridgeOptions",
    "contract_text",
    "score_deal",
]

SPEC = GameSpec(
    id="tvamansbridge",
    min_players=2,
    max_players=2,
    options_type=TvamansbridgeOptions,
    factory=new_match,
    presets={"bid_slam": TvamansbridgeOptions(slam_bonus="bid")},
)
