"""Every game's variants and options have names in both languages, and whatever is offered while
typing reads back as the same settings, in either language."""

from __future__ import annotations

import dataclasses
import re
import typing
from typing import Literal

import pytest

from bot import options as choices
from bot.errors import UserError
from bot.i18n import LANGS, catalog
from games.core import OptionError, Options, apply_option_text, bounds, option_infos
from games.registry import SPECS


@pytest.mark.parametrize("lang", LANGS)
def test_every_variant_option_and_value_of_every_game_has_a_name(lang: str) -> None:
    texts = catalog(lang)
    for game_id, spec in SPECS.items():
        for variant in spec.variants():
            if variant != "standard":
                assert texts.has(f"{game_id}.variant.{variant}"), (lang, game_id, variant)
        for info in option_infos(spec.options_type):
            key = f"{game_id}.option.{info.name}"
            assert texts.has(key), (lang, key)
            assert not re.search("[=·;,]", texts.text(key)), key  # they separate settings
            for value in info.choices:
                if not isinstance(value, bool) and not isinstance(value, int):
                    key = f"{game_id}.choice.{info.name}.{value}"
                    assert texts.has(key), (lang, key)
                    assert not re.search("[=·;,]", texts.text(key)), key


@pytest.mark.parametrize("lang", LANGS)
def test_what_is_offered_reads_back_as_the_same_settings(lang: str) -> None:
    texts = catalog(lang)
    for game_id in SPECS:
        offered = choices.option_choices(texts, game_id, "")
        assert 0 < len(offered) <= 25 or not option_infos(SPECS[game_id].options_type)
        for label, value in offered:
            settings = choices.parse_settings(texts, game_id, value)
            assert choices.parse_settings(texts, game_id, label) == settings
            # what a member of the other language types reads the same
            other = catalog("en" if lang == "sv" else "sv")
            shown = choices.describe(other, game_id, settings)
            assert choices.parse_settings(texts, game_id, shown) == settings
            assert re.search(r"[a-z]+_[a-z]+", label) is None, label  # no ids shown


def test_every_named_variant_opens_with_default_options() -> None:
    for game_id, spec in SPECS.items():
        for variant in spec.variants():
            choices.check(catalog("sv"), game_id, variant, {})


def test_a_variant_is_read_by_its_id_or_its_name_in_either_language() -> None:
    sv = catalog("sv")
    assert choices.parse_variant(sv, "svarte_petter", None) == "standard"
    assert choices.parse_variant(sv, "svarte_petter", "old_maid") == "old_maid"
    assert choices.parse_variant(sv, "svarte_petter", "en dam tas bort") == "old_maid"
    assert choices.parse_variant(sv, "svarte_petter", "A queen set aside") == "old_maid"
    with pytest.raises(UserError) as refused:
        choices.parse_variant(sv, "svarte_petter", "poker")
    assert refused.value.msg.key == "errors.variant_unknown"


def test_settings_written_as_words_may_have_names_and_values_of_several_words() -> None:
    sv = catalog("sv")
    read = choices.parse_settings(sv, "femkort", "given=tre och sedan två insats=2")
    assert read == {"deal": "three_two", "ante": "2"}
    read = choices.parse_settings(sv, "hej_knekt", "falskt alarm=ja reaction_ms=4000")
    assert read == {"false_alarm": "yes", "reaction_ms": "4000"}


@dataclasses.dataclass(frozen=True)
class _Rules(Options):
    jokers: bool = False
    target: int = dataclasses.field(default=50, metadata=bounds(10, 100))
    deck: Literal["short", "long"] = "short"


def test_a_restart_resolves_each_options_types_annotations_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a restart rebuilds the options of thousands of tables; resolving annotations compiles
    # each one anew and cost most of a 10,000-table restore
    resolved = []
    real = typing.get_type_hints

    def counted(kind: object) -> dict[str, object]:
        resolved.append(kind)
        return real(kind)

    monkeypatch.setattr(typing, "get_type_hints", counted)
    tables = [
        apply_option_text(_Rules(), {"target": str(10 + n % 90), "jokers": "ja", "deck": "long"})
        for n in range(1000)
    ]
    assert resolved == [_Rules]
    assert tables[7] == _Rules(jokers=True, target=17, deck="long")
    with pytest.raises(OptionError, match="target is 10–100, not 5"):
        apply_option_text(_Rules(), {"target": "5"})
    with pytest.raises(OptionError, match=r"unknown option 'trumps' \(options: deck, jokers"):
        apply_option_text(_Rules(), {"trumps": "1"})
    assert [info.name for info in option_infos(_Rules)] == ["jokers", "target", "deck"]
    assert resolved == [_Rules]
