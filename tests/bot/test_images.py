"""Card pictures: every registered game's table and hand images, in both languages, stay within
their size limits, and a seat's pictures never depend on cards hidden from it."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.i18n import catalog
from bot.render.images import MAX_BYTES, WIDTH, card_image, hand_png, table_png
from bot.render.text import DISCORD, TextRenderer, sort_hand, trump_line
from games.cards import JOKER, card, parse_card
from games.core import Game, GameSpec, Options, Seat, View
from games.registry import SPECS

NAMES = ["Åsa Öberg", "Bo", "Cilla 🎲", "Dag", "Eva", "Fia", "Gun", "Hans", "Ines", "Jan"]
MAX_HEIGHT = 2400  # an embed image taller than this is unreadable on a phone


def _states(spec: GameSpec[Options], seed: int) -> list[Game]:
    """Matches at a few points of play: just dealt, a few moves in, well into a deal."""
    rng = random.Random(seed)
    players = rng.randint(spec.min_players, spec.max_players)
    game = spec.new(players, rng=random.Random(seed))
    states = [game.clone()]
    for moves in (3, 17):
        while moves and not game.is_over():
            seat = min(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
            moves -= 1
        states.append(game.clone())
    return states


def _table(game: Game, view: View, lang: str) -> bytes:
    text = TextRenderer(catalog(lang), NAMES[: game.players], DISCORD)
    spec = SPECS[view.game]
    return table_png(view, text, trump_line(text, view, spec.trick_taking))


def _hand(game: Game, seat: Seat) -> bytes:
    hand = sort_hand(game.view(seat).hand)
    playable = [a for a in game.legal_actions(seat) if a in hand]
    return hand_png(hand, playable)


def _check(png: bytes) -> None:
    assert len(png) <= MAX_BYTES
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.width <= WIDTH
    assert image.height <= MAX_HEIGHT


@pytest.mark.parametrize("game_id", sorted(SPECS))
@pytest.mark.parametrize("lang", ["sv", "en"])
def test_table_and_hand_images_of_every_game_fit_their_limits(game_id: str, lang: str) -> None:
    for seed in (1, 2):
        for game in _states(SPECS[game_id], seed):
            _check(_table(game, game.view(None), lang))
            for seat in range(game.players):
                _check(_hand(game, seat))


@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_a_seats_images_never_depend_on_cards_hidden_from_it(game_id: str) -> None:
    for game in _states(SPECS[game_id], 3)[1:]:
        for seat in range(game.players):
            table = _table(game, game.view(seat), "sv")
            public = _table(game, game.view(None), "sv")
            hand = _hand(game, seat)
            for redeal in range(2):
                other = game.determinize(seat, random.Random(redeal))
                assert _table(other, other.view(seat), "sv") == table
                assert _table(other, other.view(None), "sv") == public
                assert _hand(other, seat) == hand


def test_cards_are_drawn_once_and_reused() -> None:
    assert card_image(card(12, 3)) is card_image(card(12, 3))
    assert card_image(JOKER) is not card_image(card(12, 3))


def test_the_four_colour_deck_gives_each_suit_its_own_colour() -> None:
    def ink(c: int, four: bool) -> tuple[int, ...]:
        # the big suit in the lower right: its most common colour is the suit's
        image = card_image(c, 100, four).convert("RGB").crop((45, 75, 85, 115))
        counts = image.getcolors(maxcolors=40 * 40) or []
        inks = [(n, c) for n, c in counts if isinstance(c, tuple) and sum(c) < 600]
        return max(inks)[1]

    fours = {ink(card(9, suit), True) for suit in range(4)}
    twos = {ink(card(9, suit), False) for suit in range(4)}
    assert len(fours) == 4
    assert len(twos) == 2


def test_pictured_cards_carry_the_ranks_of_the_tables_language() -> None:
    swedish = DISCORD.speaking(catalog("sv")).ranks
    queen = parse_card("QS")
    assert card_image(queen, 100, True, "D") is not card_image(queen, 100, True)
    assert card_image(queen, 100, True, "D").tobytes() != card_image(queen, 100).tobytes()
    assert hand_png([queen], ranks=swedish) != hand_png([queen])
    seven = parse_card("7S")  # a seven reads the same in both languages
    assert hand_png([seven], ranks=swedish) == hand_png([seven])
