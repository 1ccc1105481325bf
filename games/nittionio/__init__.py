"""Nittionio (David Parlett's Ninety-Nine): three players bid exact trick counts with three cards.

Rules implemented (rules/three-to-five-player.md §2; the Swedish text in seeds/ is the authority):

* Three players, clockwise. 37 cards: A K Q J T 9 8 7 6 in each suit and a joker. The first dealer
  is drawn at random; the deal passes to the left. Twelve cards each, one at a time from forehand;
  the 37th card is the turn-up. Its suit is trump, unless it is a nine or the joker (no trumps).
  The joker is an exact copy of the turn-up card: same suit and rank for following suit, trumping,
  winning tricks and bidding (N1, N2); when the turn-up is the joker, no joker is in play.
* Bid cards: every player at once lays 3 of his 12 cards face down. Each diamond means 0 tricks,
  spade 1, heart 2, club 3; the bid (0..9) is the sum. The other 9 cards are played.
* Premium round (one pass from forehand, dealer last, N3): pass, declare (the bid cards go face up
  when the round ends) or reveal (the bid cards and the whole hand go face up before the first
  lead, N4). Only one premium bid stands: a later player may only raise a declaration to a reveal;
  after a reveal the others pass automatically; a superseded declaration stays face down (N-Ex4).
* Nine tricks: forehand leads, follow suit if able, else play anything; the highest trump wins,
  else the highest card of the led suit.
* Scoring per deal: 1 point per trick. Whoever took exactly his bid succeeds and scores 30, 20 or
  10 more when one, two or three players succeeded. A premium bidder who succeeds scores 30
  (declare) or 60 (reveal); if he fails, each other player scores that amount (N5). The bid cards
  of those who succeeded are shown; those of the others stay hidden, as the Swedish text allows.
* Main game: 9 deals, the highest total wins, ties share (N7). Variants (options):
  ``scoring="rubber"`` (V1): a game ends after the first deal where someone has 100 or more; the
  game winner and everyone else with 100 or more score 100 more; the first to win three games wins
  the rubber and scores 100 for every game under eight (N10); each player in turn deals the first
  deal of a game. The rubber winner is placed first, the others by their ledger.
  ``variant="pennycook"`` (V2): no premium round, the game ends at 150 (no rubber form).
  ``variant="trump_by_success"`` (V3): 36 cards, no joker and no turn-up; no trumps in the first
  deal of a game (N11), then diamonds, spades, hearts or clubs when 0, 1, 2 or 3 players
  succeeded in the previous deal; the game ends at 100. A game to a target ends only when one
  player is alone on top with at least the target (§2.4 tie rule, N9).

Notation of actions:

* ``QS``, ``TH``, ``JK``: play that card.
* ``bid 7D KS TC``: lay these three cards as bid cards. Any order is read; it is written
  diamonds, spades, hearts, clubs (the order of their trick values), low to high, the joker last.
* ``pass``, ``declare``, ``reveal``: the premium round.

Modules: ``deck`` (cards and per-deal tables), ``actions`` (action ints and notation),
``scoring`` (pure scoring functions), ``match`` (the game state). Rules only: no I/O, no clock,
standard library only.
"""

from __future__ import annotations

from games.core import GameSpec
from games.nittionio.actions import BID, DECLARE, PASS, REVEAL, bid_action
from games.nittionio.deck import PLAYERS, bid_value
from games.nittionio.match import Nittionio, NittionioOptions, new_match
from games.nittionio.scoring import deal_points, game_bonuses, game_winner, rubber_bonus

__all__ = [
    "BID",
    "DECLARE",
    "PASS",
    "REVEAL",
    "SPEC",
    "Nittionio",
    "NittionioOptions",
    "bid_action",
    "bid_value",
    "deal_points",
    "game_bonuses",
    "game_winner",
    "rubber_bonus",
]

SPEC = GameSpec(
    id="nittionio",
    min_players=PLAYERS,
    max_players=PLAYERS,
    options_type=NittionioOptions,
    factory=new_match,
    presets={
        "standard": NittionioOptions(),
        "rubber": NittionioOptions(scoring="rubber"),
        "pennycook": NittionioOptions(variant="pennycook"),
        "trump_by_success": NittionioOptions(variant="trump_by_success"),
    },
)
