"""A refused move says why, in the game's words, for any game."""

from __future__ import annotations

import random

from bot.discord.replies import error_text
from bot.i18n import catalog
from bot.refusals import refusal
from games.cards import code, parse_card, suit_of
from games.core import Game, Seat
from games.registry import SPECS


def legal_of(game: Game, seat: Seat) -> list[str]:
    return [game.notation(a) for a in game.legal_actions(seat)]


def following(game_id: str, seed: int) -> tuple[Game, Seat]:
    """A state where the seat to act must follow a led suit and holds other suits too."""
    spec = SPECS[game_id]
    rng = random.Random(seed)
    game = spec.new(spec.min_players, rng=random.Random(seed))
    for _ in range(2000):
        seat = min(game.to_act())
        view = game.view(seat)
        legal = [game.notation(a) for a in game.legal_actions(seat)]
        cards = [parse_card(n) for n in legal if len(n) == 2 and n[0] in "23456789TJQKA"]
        if view.trick and cards and len(cards) == len(legal) and len(cards) < len(view.hand):
            led = suit_of(view.trick[0][1])
            if {suit_of(c) for c in cards} == {led} and any(suit_of(c) != led for c in view.hand):
                return game, seat
        game.apply(seat, game.legal_actions(seat)[rng.randrange(len(game.legal_actions(seat)))])
    raise AssertionError("no state to follow suit in")


def test_a_card_beside_the_led_suit_is_refused_with_follow_suit_in_both_languages() -> None:
    game, seat = following("tvamanswhist", 4)
    led = suit_of(game.view(seat).trick[0][1])
    wrong = next(c for c in game.view(seat).hand if suit_of(c) != led)
    error = refusal(game, seat, code(wrong), legal_of(game, seat))
    assert error_text(catalog("sv"), error).startswith("⛔ Du måste följa färg")
    assert error_text(catalog("en"), error).startswith("⛔ You must follow suit")


def test_a_click_out_of_turn_says_it_is_not_your_turn() -> None:
    game = SPECS["tvamanswhist"].new(2, rng=random.Random(1))
    waiting = 1 - min(game.to_act())
    card = code(game.view(waiting).hand[0])
    assert error_text(catalog("sv"), refusal(game, waiting, card, [])) == "Det är inte din tur."


def test_a_card_not_held_and_an_unknown_move_are_told_apart() -> None:
    game = SPECS["tvamanswhist"].new(2, rng=random.Random(1))
    seat = min(game.to_act())
    other = next(c for c in game.view(1 - seat).hand)
    assert "inte" in error_text(
        catalog("sv"), refusal(game, seat, code(other), legal_of(game, seat))
    )
    assert "på handen" in error_text(
        catalog("sv"), refusal(game, seat, code(other), legal_of(game, seat))
    )
    listed = error_text(catalog("sv"), refusal(game, seat, "declare", legal_of(game, seat)))
    assert listed.startswith("⛔ Det draget är inte tillåtet nu. Du kan:")
