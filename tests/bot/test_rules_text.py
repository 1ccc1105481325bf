"""``/regler`` and the terminal's ``r``: every registered game's rules in sections (deck, deal,
play, scoring, variants) in both languages, each a paragraph never broken inside a sentence."""

from __future__ import annotations

import itertools
import re

import pytest
from fakeconsole import FakeConsole

from bot.discord.embeds import MAX_FIELD, rules_embed
from bot.i18n import LANGS, catalog
from bot.render.text import RULE_SECTIONS, rule_sections
from bot.terminal.table import PlayRequest, build_table
from games.registry import SPECS

HEADINGS = {
    "sv": ["Kortlek", "Given", "Spelet", "Poäng", "Varianter"],
    "en": ["Deck", "Deal", "Play", "Scoring", "Variants"],
}
# A line may end a sentence, introduce a list (":") or be an item of it ("• ...").
LINE_END = re.compile(r"[.!?:”)]$")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game_id", sorted(SPECS))
def test_every_game_has_every_section_in_both_languages(game_id: str, lang: str) -> None:
    texts = catalog(lang)
    sections = rule_sections(texts, game_id)
    assert [heading for heading, _ in sections] == HEADINGS[lang]
    for (_, text), section in zip(sections, RULE_SECTIONS, strict=True):
        assert len(text) >= 20, (game_id, section)
        lines = text.split("\n")
        for line, following in itertools.pairwise(lines):
            ends = LINE_END.search(line) or line.startswith("• ") or following.startswith("• ")
            assert ends, f"{lang} {game_id}.{section}: a line breaks inside a sentence: {line!r}"
        assert not texts.has(f"{game_id}.rules.summary")  # one text of the rules, in sections


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_embed_shows_the_sections_as_fields(lang: str) -> None:
    texts = catalog(lang)
    checking = texts.text("verify.computers_title"), texts.text("verify.computers")
    embed = rules_embed(texts, "nittionio")
    assert [f.name for f in embed.fields] == [*HEADINGS[lang], checking[0]]
    assert all(f.value and "\n" not in f.value for f in embed.fields)
    for game_id in SPECS:  # a long section goes on in an unnamed field, cut between sentences
        embed = rules_embed(texts, game_id)
        named = [f.name for f in embed.fields if f.name != "\u200b"]
        assert named == [*HEADINGS[lang], checking[0]]
        assert all(len(f.value or "") <= MAX_FIELD for f in embed.fields)
        assert len(embed) <= 6000
        shown = " ".join(f.value or "" for f in embed.fields)
        sections = [text for _, text in rule_sections(texts, game_id)]
        assert shown == " ".join([*sections, checking[1]])


def test_the_rules_say_that_computer_players_never_see_hidden_cards() -> None:
    for lang, said in (("sv", "Datorspelarna ser aldrig dolda kort"), ("en", "never see hidden")):
        embed = rules_embed(catalog(lang), "femhundra")
        assert said in (embed.fields[-1].value or "")


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_shows_the_same_sections(lang: str) -> None:
    console = FakeConsole(["r"])
    table = build_table(PlayRequest("svarte_petter", seed=1, lang=lang), console)
    assert not table.run()
    for heading, text in rule_sections(catalog(lang), "svarte_petter"):
        assert f"{heading}\n{text}" in console.text


@pytest.mark.parametrize(
    ("lang", "four", "no_bonus"),
    [
        ("sv", "Fyra spelare", "ingen 250 för tio stick"),
        ("en", "Four players", "no 250 for ten tricks"),
    ],
)
def test_femhundra_rules_say_four_players_earn_no_250_for_ten_tricks(
    lang: str, four: str, no_bonus: str
) -> None:
    variants = catalog(lang).text("femhundra.rules.variants")
    assert no_bonus in variants[variants.index(four) :]
