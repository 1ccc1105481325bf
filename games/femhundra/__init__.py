"""Femhundra (Five Hundred) for 2 to 5 players, with the misère and bidding variants.

Rules implemented (rules/three-to-five-player.md §5 with its audit 2026-11 corrections; the Swedish
text in seeds/ is the authority):

* Three players (the main game), clockwise, each for himself. 33 cards: A K Q J T 9 8 7 of each
  suit and a joker. The deal passes to the left. The dealer deals 3 cards to each player from
  forehand, 3 face down to the talong, then 4 and 3 to each: 10 cards each.
* Bidding, forehand first: one round in which each player passes or bids higher: a number of
  tricks (6-10) and spades, clubs, diamonds, hearts or no trumps (``6S`` lowest, ``10NT``
  highest). The bid table: 100 x (tricks - 6) + 40/60/80/100/120 for S/C/D/H/NT. The highest
  bidder is the declarer. All pass: no declarer, no trumps, the talong set aside, forehand leads.
* The declarer takes the talong and discards any three cards face down, then leads.
* Trump contracts: the joker is the highest trump, then the jack of trumps (right bower) and the
  other jack of the same colour (left bower, a trump for every purpose), then A K Q T 9 8 7.
  Leading the joker leads trumps. Follow suit if able, otherwise play anything.
* No trumps (also misère and all-pass deals): the joker belongs to no suit in hand; played, it is
  the highest card of the led suit and wins the trick. It may be played on any trick (F6; option
  ``nt_joker="void_only"``: only when void in the led suit). Leading it, the player names a suit
  he has not shown void in this deal (any suit if he has shown void in all four).
* Scoring: a declarer who takes at least his bid scores the bid's value (250 instead when he takes
  all ten tricks with a bid worth less, only with one round of bidding); otherwise he loses the
  value. Each opponent scores 10 per trick he took; all passed: everyone 10 per trick.
* Game end after each deal: someone at 500 or more: the highest score wins; equal highest scores
  go to the declarer, else (five players) his partner, else whoever reached 500 first in the order
  the tricks were played. Else someone at -500 or less: the highest score wins "by the back door"
  (equal highest share). Places: the winner first, the others by score.
* ``misere`` (the Anglo-Saxon variant): misère (250; no trumps, take no trick; ranks between 7NT
  and 8S) and open misère (520, the highest bid; the hand is laid face up after the discard).
  Misère: the joker must be played by a holder who cannot follow suit. Made: the declarer scores
  the value and the others nothing; failed: he loses it and each other player scores 10 per trick
  the declarer took. All ten tricks are played.
* ``auction="multi"`` (the bidding variant): the bidding goes round until a bid is followed by
  passes from all the others; a pass is final; no 250 for ten tricks (``slam_bonus`` overrides).
* Two players: 24 cards (A K Q J T 9, no joker), 4 cards in the talong, the declarer discards 4.
* Five players: 53 cards (the full deck and the joker), 3 in the talong. Before taking the talong
  the declarer plays ``solo`` or calls a card he lacks that is not a trump in the contract; its
  holder becomes his partner at once and is shown to all (in the talong: nobody, he plays alone).
  Declarer and partner each score or lose the value on their joint tricks. Misère is played alone.
* Four players: partners sit opposite; 43 cards (no 2s, 3s or black 4s, and the joker); bidding in
  several rounds, a pass is final; scores per side, no 250 for ten tricks (F9). A defending side
  that would reach 500 by trick points on a failed contract stays on 490 (``strict_bid_out``:
  whenever it scores trick points). With ``misere`` (V5a): no misère bid until someone has bid at
  least seven, open misère is worth 500, and the declarer's partner lays his cards aside while
  the declarer plays alone (tricks of three cards).

Decisions beyond the spec:

* The compulsory misère joker is offered as the only legal card rather than played by the engine,
  so that every seat in ``to_act`` acts (§6, rule 2 of the game contract).
* A player shows a void by playing another suit on a lead (not the joker, which counts as the
  led suit); with ``nt_joker="void_only"`` the joker played on another lead shows the void too,
  since only a player who cannot follow may play it there.
* ``auction`` applies to two, three and five players; four players always bid in several rounds.
  ``misere`` is offered with every player count (with two players there is no joker to force).
* A four-player side held at 490 keeps at least what it had; the cap also holds for the trick
  points of a failed misère. ``strict_bid_out`` caps both sides of an all-pass deal as well.
* Five players: the partnership is shown (``View.teams``) from the call to the end of the deal;
  the match itself is every player for himself, so a finished match has no teams.
* The score sheet has a row per deal (its contract and whether it was made) with the running
  totals; with four players one column per side.

Notation of actions:

* ``QS``, ``TH``, ``JK``: play that card.
* ``JK H``: lead the joker in a no-trump, misère or all-pass deal, naming hearts (``C D H S``).
* ``pass``, ``bid 6S`` ... ``bid 10NT`` (strains ``S C D H NT``), ``bid misere``,
  ``bid openmisere``: bidding.
* ``solo``, ``call AC``: five players, the declarer plays alone or calls the holder of a card.
* ``discard 7C 8D 9H``: the declarer's discard after taking the talong (4 cards with 2 players);
  any order is read, it is written lowest card first.

Modules: ``rules`` (decks, bid table, options, notation, and scoring functions),
``events`` (the events and their messages), ``match`` (the game state). Rules only: standard
library, no I/O, no clock.
"""

from __future__ import annotations

from games.core import GameSpec
from games.femhundra.match import Femhundra, new_match
from games.femhundra.rules import FemhundraOptions, bid_words

__all__ = ["SPEC", "Femhundra", "FemhundraOptions"]

SPEC = GameSpec(
    id="femhundra",
    min_players=2,
    max_players=5,
    options_type=FemhundraOptions,
    factory=new_match,
    presets={
        "standard": FemhundraOptions(),
        "misere": FemhundraOptions(misere=True),  # V1, with four players V5a
        "multi_round": FemhundraOptions(auction="multi"),  # V2
    },
    words=bid_words,
    best_players=3,  # rules 5.1: the main game is for three
)
