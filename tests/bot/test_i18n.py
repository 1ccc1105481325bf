"""Message catalogs: both languages hold the same keys; every key a registered game emits exists in
both and formats with the arguments it comes with; missing keys fall back and are logged."""

from __future__ import annotations

import logging
import random
import string
from collections.abc import Iterator

import pytest

from bot.i18n import LANGS, ROOT, Catalog, catalog, fill, load_file
from bot.render.text import TextRenderer
from games.ai import shape_of
from games.core import Msg, View
from games.registry import SPECS

FILES = sorted({p.name for lang in LANGS for p in (ROOT / lang).glob("*.toml")})


@pytest.mark.parametrize("name", FILES)
def test_swedish_and_english_have_the_same_keys(name: str) -> None:
    sv, en = (ROOT / "sv" / name), (ROOT / "en" / name)
    assert sv.exists(), f"{name} is missing in Swedish"
    assert en.exists(), f"{name} is missing in English"
    sv_keys, en_keys = set(load_file(sv)), set(load_file(en))
    assert sorted(sv_keys - en_keys) == [], "only in Swedish"
    assert sorted(en_keys - sv_keys) == [], "only in English"


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_is_well_formed(lang: str) -> None:
    for key in catalog(lang).all_keys():
        fields = [f for _, f, _, _ in string.Formatter().parse(catalog(lang).template(key)) if f]
        assert all(f.isidentifier() for f in fields), f"{key}: positional or odd field {fields}"


def _msgs(view: View) -> Iterator[Msg]:
    yield view.phase
    yield from view.events
    yield from view.notes
    for seat in view.seats:
        yield from seat.notes
    for pile in view.piles:
        yield Msg(pile.key)


def _emitted(game_id: str) -> tuple[set[Msg], set[str]]:
    """Messages seen in any view and action verbs offered during random playouts."""
    spec = SPECS[game_id]
    msgs: set[Msg] = set()
    verbs: set[str] = set()
    for players in sorted({spec.min_players, spec.max_players}):
        for seed in (1, 2):
            game = spec.new(players, rng=random.Random(seed))
            rng = random.Random(seed)
            while True:
                for seat in [*range(players), None]:
                    msgs.update(_msgs(game.view(seat)))
                if game.is_over():
                    break
                acting = sorted(game.to_act())
                seat = acting[rng.randrange(len(acting))]
                legal = game.legal_actions(seat)
                for action in legal:
                    verb = shape_of(action, game.notation(action)).verb
                    if verb:
                        verbs.add(verb)
                game.apply(seat, legal[rng.randrange(len(legal))])
    return msgs, verbs


@pytest.mark.parametrize("game_id", list(SPECS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_emitted_key_exists_and_formats(game_id: str, lang: str) -> None:
    cat = catalog(lang)
    render = TextRenderer(cat, [f"P{s}" for s in range(SPECS[game_id].max_players)])
    msgs, verbs = _emitted(game_id)
    for m in msgs:
        assert cat.has(m.key), f"{lang}: no text for {m.key}"
        args = {name: render.arg(name, value) for name, value in m.args}
        fill(cat.template(m.key), args, strict=True)  # a missing argument raises KeyError
    for verb in verbs:
        assert cat.has(render.verb_key(game_id, verb)), f"{lang}: no label for action {verb}"


@pytest.mark.parametrize("game_id", list(SPECS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_game_has_its_rules_and_a_name(game_id: str, lang: str) -> None:
    cat = catalog(lang)
    assert cat.has(f"{game_id}.rules.play")
    assert cat.has(f"terminal.game.{game_id}")


def test_swedish_is_the_default_and_reads_swedish() -> None:
    assert catalog().lang == "sv"
    assert catalog().text("table.suit.H") == "hjärter"
    assert catalog("en").text("table.suit.H") == "hearts"


def test_a_missing_key_falls_back_to_english_then_to_the_key(
    caplog: pytest.LogCaptureFixture,
) -> None:
    en = Catalog("en", {"x.only_en": "only {thing}"})
    sv = Catalog("sv", {}, fallback=en)
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert sv.text("x.only_en", thing="English") == "only English"
        assert sv.text("x.nowhere") == "x.nowhere"
    assert "x.only_en" in caplog.text
    assert "x.nowhere" in caplog.text


def test_a_missing_argument_stays_visible_instead_of_failing() -> None:
    cat = Catalog("en", {"x.greet": "hello {name}"})
    assert cat.text("x.greet") == "hello {name}"


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="languages: sv, en"):
        catalog("de")


def test_a_swedish_genitive_adds_no_s_to_a_name_that_ends_in_one() -> None:
    """Femhundra with four players: the side held at 490 is named by its player's name."""
    capped = Msg.of("femhundra.event.capped", seat=0, points=490)
    sv = TextRenderer(catalog("sv"), ["Lars", "Anna", "Max", "Bo"])
    assert sv.msg(capped).startswith("Lars sida står kvar på 490")
    assert sv.msg(Msg.of("femhundra.event.capped", seat=1, points=490)).startswith("Annas sida")
    assert sv.msg(Msg.of("femhundra.event.capped", seat=2, points=490)).startswith("Max sida")
    en = TextRenderer(catalog("en"), ["Lars", "Anna", "Max", "Bo"])
    assert en.msg(Msg.of("femhundra.event.capped", seat=1, points=490)).startswith("Anna's side")
