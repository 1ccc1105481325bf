"""Counts read right in both languages: "1 vinst på 1 parti", "2 vinster på 3 partier",
"1 win in 1 match", in every text of the catalogs."""

from __future__ import annotations

import re
import string

import pytest

from bot.i18n import LANGS, catalog, load_entries

# Nouns (and noun phrases) whose plural differs from the singular, as the catalogs use them.
PLURALS = {
    "sv": "ögon insatser prickar vinster partier ritor matadorer potter omgångar stänger sekunder "
    "platser dragningar dolda vända möjliga givar utgångar",
    "en": "points cards tricks eyes stakes pips wins matches choices players seats seconds pots "
    "matadors stångs moves draws games deals pts",
}
# Arguments that are not counts: names, cards, suits and the like (games.core's convention).
NOT_A_COUNT = re.compile(
    r"^(seat|.*_seat|card|cards|.*_card|.*_cards|suit|.*_suit|level|name|game|names|player|"
    r"mention|label|action|verb|text|first|contract|.*_contract|guild|link|channels|choices|"
    r"example|buttons|rank|ranks|.*_rank|phase|detail|variants|value|language|reason|sides|"
    r"places|deadline|trick|kinds|kind|seats|variant|word|bid|[CDHS])$"
)


def _filled(template: str, count: int) -> str:
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    args = {f: "Anna" if NOT_A_COUNT.match(f) else str(count) for f in fields}
    return catalog("sv").__class__("x", {"k": template}).text("k", **args)


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_says_one_of_a_plural(lang: str) -> None:
    plural = "|".join(PLURALS[lang].split())
    between = r"(?!(?:in|i|for|för|of|av|to|till|mot|on|på) )\w+ "  # "1 empty seats"
    wrong = re.compile(rf"(?<![\d,.])\b1 ({between})?({plural})\b")
    entries = load_entries(lang)
    found = []
    for key, template in sorted(entries.items()):
        if ".rules." in key or f"{key}_one" in entries:
            continue  # prose; or a text with its own form for one (``Catalog.counted``)
        text = _filled(template, 1)
        if wrong.search(text) and not wrong.search(template):
            found.append(f"{key}: {text}")
    assert not found, "\n".join(found)


def test_wins_and_matches_are_counted_in_both_languages() -> None:
    sv, en = catalog("sv"), catalog("en")
    line = "ui.stats.line"
    assert "1 vinst på 1 parti" in sv.text(line, rating=1500, wins=1, games=1, places="1")
    assert "2 vinster på 3 partier" in sv.text(line, rating=1500, wins=2, games=3, places="1")
    assert "0 vinster på 1 parti" in sv.text(line, rating=1500, wins=0, games=1, places="1")
    assert "1 win in 1 match" in en.text(line, rating=1500, wins=1, games=1, places="1")
    assert "2 wins in 3 matches" in en.text(line, rating=1500, wins=2, games=3, places="1")
    assert en.text("view.cards", count=1) == "1 card"
    assert en.text("view.cards", count=3) == "3 cards"
    assert sv.text("view.cards", count=3) == "3 kort"
    assert en.text("view.tricks", count=1) == "1 trick"
    assert sv.text("view.tricks", count=1) == "1 stick"
    assert sv.text("view.hidden_cards", count=1) == "1 dold"
    assert sv.text("view.hidden_cards", count=4) == "4 dolda"
