"""Skitgubbe, Sweden's three-hander in two phases: the rules engine
(rules/three-to-five-player.md §4 with its audit 2026-11 corrections; the Swedish text in seeds/
is the authority).

Rules implemented:

* Three players, clockwise, 52 cards, ace high, 2 low. The dealer is drawn at random and deals
  three cards each, one at a time from forehand; the other 43 cards are the face-down stock
  (*talong*). A match is one game of both phases (S12).
* Phase 1, collecting cards: tricks between two players only, suits do not matter. Forehand
  leads against the player on his left; the trick's winner leads the next against his own left
  neighbour (forehand against efterhand, efterhand against the dealer, the dealer against
  forehand). A play is a card from the hand, after which the player draws at once from the
  stock, or a chance (*våga*): the top stock card turned face up onto the trick unseen, with no
  draw (only while the stock holds two cards or more, S3). The higher card takes the trick face
  down. Equal ranks bounce (*stunsa*): the leader, then the other, play again on the same trick
  until one card is higher, so a trick always holds an even number of cards (S2). The player due
  to draw the last stock card lays it face down in front of him, unseen even by himself; from
  then on nobody draws or chances. Players out of cards are passed for the lead and the answer
  (S4). Phase 1 ends when fewer than two players hold cards; a bounce that cannot go on ends it
  at once and each takes back the cards he played to it, a chanced card counting as his (S5,
  S14). Then the set-aside card is turned up for all to see and taken into its holder's hand:
  its suit is trump.
* Phase 2, shedding: everyone takes up his won tricks. The holder of the last stock card leads.
  A play is a group: one card, or several of one suit in unbroken sequence (no wrap-around). The
  groups lie separately on the table, so everyone sees who played what. On a trick the player
  must beat the top group: holding the led suit, with led-suit cards all higher than its highest
  card (a trump on top cannot be beaten by a player holding the led suit, S6); void in the led
  suit, with trumps (any trump group over a plain top, higher trumps over a trump top). Playing
  lower (*krypa*) or another suit (*saka*) is never allowed. Instead of beating, he may pick up
  the top group (*supa*, S8); it leaves the trick and the turn passes on, a trick emptied this
  way being led afresh by the next player (S10). Three groups lying in the trick close it: they
  are turned away and the player who played last leads (S9). A player with no cards is out at
  once; the last one holding cards is the *skitgubbe*.
* Places follow the order of going out; players who start phase 2 without cards share the best
  place; the skitgubbe is last. Scores: minus the cards held at the end (S12). After 2,000
  phase-2 actions (S13, a safety cap that no game between computer players reaches) the game
  stops: those still holding cards rank after those out, fewer cards first.
* The same position again (S15, this implementation's rule; the Swedish text has none): under
  *överstickstvång* play can go round for ever with every move forced, cards passing from the
  player who must beat to the one who must pick up (three players holding 2♠, 3♠ 5♠ K♠ and
  4♠ A♠: after 5♠ is led the king and the ace go round, a circle of twelve forced moves). So
  when the position on the table stands again since cards were last turned away (the cards
  each player has been seen to hold, how many cards each holds, the groups in the trick and
  the player to move), the player to move may pick up although he can beat, as in the base
  game, and an event says so. Only a circle can bring a position back: cards leave play only
  when a trick is turned away. Computer players vary their play where a position stands
  again, in every variant (``View.repeated``, ``games.ai.base.vary_on_repeat``).
* Variants (§4.4): ``single_card_only`` (preset ``one_card``): every phase-2 play is one card;
  ``must_beat`` (preset ``must_beat``, *överstickstvång*): picking up only when no beat is
  possible.
* What a seat sees: its own hand; counts of every hand, the stock and the won piles; the trick;
  the set-aside card face down (hidden from its holder too until it is turned up); in phase 2
  the cards each player picked up (and the turned-up trump card) while he holds them. Every card
  of a phase-1 trick lay face up, so ``determinize`` keeps the won piles with their winners.

Decisions beyond the spec:

* A bounce goes on only if both its players can still play (a card, or a chance); otherwise
  phase 1 ends before either plays again (S5 read at the start of each bounce round).
* The phase-2 trick is shown as separate piles, ``group1`` to ``group3`` (lead, second and
  third play) with the seat that played each, and the groups turned away as a face-down count;
  the phase-1 trick is the view's ``trick``. Each phase-1 trick's cards are named in the event
  of its winner. Scores show 0 until the end.
* ``loser_deals`` (S11) is not an option: a match is one game (S12), so no second deal exists.
* Several cards that are not one group (``7H 9H``) are malformed notation (``NotationError``),
  as no action stands for them; a group that exists but may not be played now is refused by
  ``apply`` (``IllegalActionError``).

Notation of actions:

* ``7C``: play one card (phase 1), or lead or beat with that one card (phase 2).
* ``QC KC AC``: lead or beat with a group, its cards low to high, separated by spaces (any order
  is read, ``,`` too).
* ``chance``: turn the top stock card onto the trick (phase 1; ``våga`` is read too).
* ``pickup``: take the top group of the trick into the hand (phase 2; ``supa`` is read too).

Modules: ``groups`` (action ints, notation, groups and the beating rule) and ``game`` (the
state). Rules only: no I/O, no clock, standard library only.
"""

from __future__ import annotations

import random

from games.core import Game, GameSpec
from games.skitgubbe.game import PHASE2_CAP, PLAYERS, Skitgubbe, SkitgubbeOptions
from games.skitgubbe.groups import CHANCE, PICKUP, group_action

__all__ = [
    "CHANCE",
    "PHASE2_CAP",
    "PICKUP",
    "SPEC",
    "Skitgubbe",
    "SkitgubbeOptions",
    "group_action",
]


def _factory(
    players: int, options: SkitgubbeOptions, rng: random.Random, decks: list[list[int]] | None
) -> Game:
    return Skitgubbe(options, rng, decks)


SPEC = GameSpec(
    id="skitgubbe",
    min_players=PLAYERS,
    max_players=PLAYERS,
    options_type=SkitgubbeOptions,
    factory=_factory,
    presets={
        "one_card": SkitgubbeOptions(single_card_only=True),
        "must_beat": SkitgubbeOptions(must_beat=True),
    },
    points=False,
)
