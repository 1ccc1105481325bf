"""When a member's open hand panel is edited on their turn: at once when it could not serve them
(it offers nothing, or a card that may not be played, or lacks a choice besides the cards);
after the panel's grace when it lacks only a card drawn since (they may act on it as it is);
not at all when it offers just what may be played."""

from __future__ import annotations

import random
from typing import cast

import discord
from test_limits import live_table

from bot.discord.listener import Panel, PanelNeed, panel_need, panel_shows
from bot.sessions import LiveTable, member_actions
from games.cards import code, is_card_code
from games.core import Seat
from games.registry import SPECS


def turn_where(game_id: str, wanted: str) -> tuple[LiveTable, Seat, set[str]]:
    """A table where the seat to act has several choices, all cards (``"cards"``) or none a
    card (``"others"``), and that seat and its choices."""
    spec = SPECS[game_id]
    rng = random.Random(34)
    game = spec.new(spec.min_players, rng=random.Random(34))
    for _ in range(500):
        seat = min(game.to_act())
        legal = set(member_actions(game, seat).values())
        cards = sum(map(is_card_code, legal))
        if len(legal) >= 2 and cards == (len(legal) if wanted == "cards" else 0):
            return live_table(game_id, game, members_only=True), seat, legal
        actions = game.legal_actions(seat)
        game.apply(seat, actions[rng.randrange(len(actions))])
    raise AssertionError(f"no such turn in {game_id}")


def need(table: LiveTable, seat: Seat, offers: set[str]) -> PanelNeed:
    hand = tuple(sorted(table.view(seat).hand))
    panel = Panel(
        cast(discord.Interaction, object()),
        page=0,
        version=table.version,
        opened=0.0,
        shows=panel_shows(table, seat),
        offers=frozenset(offers),
        hand=hand,
    )
    return panel_need(panel, table, seat)


def test_a_panel_lacking_only_a_card_serves_and_one_offering_too_much_is_edited_at_once() -> None:
    table, seat, legal = turn_where("tvamanswhist", "cards")
    in_hand = {code(c) for c in table.view(seat).hand}
    assert need(table, seat, legal) is None
    assert need(table, seat, legal - {min(legal)}) == "later"
    assert need(table, seat, set()) == "now"
    outside = next(c for c in sorted(in_hand | {"2C", "2D", "2H", "2S", "3C"}) if c not in legal)
    assert need(table, seat, legal | {outside}) == "now"


def test_a_panel_lacking_a_choice_besides_the_cards_is_edited_at_once() -> None:
    table, seat, legal = turn_where("tvamansbridge", "others")
    assert need(table, seat, legal) is None
    assert need(table, seat, legal - {min(legal)}) == "now"
