"""Places explained wherever results are shown: "1:a plats", "delad 2:a plats", partners on one
line with what a side's place means, in both languages; statistics count places in words."""

from __future__ import annotations

from bot.discord.embeds import leaderboard_embed, stats_embed
from bot.i18n import catalog
from bot.leaderboard import GameStats
from bot.render.text import TextRenderer, result_lines
from games.core import Msg, Result

NAMES = ["Anna", "Bo", "Cilla", "Dan"]


def _lines(lang: str, result: Result, teams: tuple[tuple[int, ...], ...] = ()) -> list[str]:
    return result_lines(TextRenderer(catalog(lang), NAMES), result, teams)


def test_ordinals_in_both_languages() -> None:
    sv, en = catalog("sv"), catalog("en")
    assert [sv.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 21, 22, 23)] == [
        "1:a", "2:a", "3:e", "4:e", "11:e", "12:e", "21:a", "22:a", "23:e"
    ]  # fmt: skip
    assert [en.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd"
    ]  # fmt: skip


def test_places_are_named_and_a_tie_is_a_shared_place() -> None:
    result = Result(scores=(52, 30, 30, 10), places=(1, 2, 2, 4))
    assert _lines("sv", result) == [
        "1:a plats: Anna, 52 p",
        "delad 2:a plats: Bo, 30 p",
        "delad 2:a plats: Cilla, 30 p",
        "4:e plats: Dan, 10 p",
        "1:a plats vinner. Lika resultat ger delad plats, och nästa plats hoppas över.",
    ]
    assert _lines("en", result)[1] == "shared 2nd place: Bo, 30 pts"
    assert _lines("en", Result((3, 1), (1, 2))) == [
        "1st place: Anna, 3 pts",
        "2nd place: Bo, 1 pt",
    ]


def test_partners_share_their_sides_place_on_one_line() -> None:
    result = Result(scores=(6, 2, 6, 2), places=(1, 2, 1, 2))
    lines = _lines("sv", result, ((0, 2), (1, 3)))
    assert lines == [
        "1:a plats: Anna & Cilla, 6 p",
        "2:a plats: Bo & Dan, 2 p",
        "Lagspel: båda i ett lag får lagets plats och poäng.",
    ]
    assert _lines("en", result, ((0, 2), (1, 3)))[2].startswith("Partnership game:")


def test_a_place_in_a_games_message_is_named() -> None:
    sv = TextRenderer(catalog("sv"), NAMES)
    en = TextRenderer(catalog("en"), NAMES)
    out = Msg.of("hej_knekt.event.finished", seat=1, place=2)
    assert sv.msg(out) == "Bo är av med alla kort: 2:a plats"
    assert en.msg(out) == "Bo is rid of all cards: 2nd place"
    assert sv.msg(Msg.of("skitgubbe.event.out", seat=0, place=1)).endswith("går ut på 1:a plats")


def test_statistics_count_places_in_words() -> None:
    stats = [GameStats("tvamanswhist", games=3, wins=1, places=(1, 2), rating=1510.0)]
    field = stats_embed(catalog("sv"), "Anna", stats).fields[0].value
    assert (
        field
        == "rating 1510 · 1 vinst på 3 partier · placeringar: 1:a plats 1 gång, 2:a plats 2 gånger"
    )
    field = stats_embed(catalog("en"), "Anna", stats).fields[0].value
    assert field == (
        "rating 1510 · 1 win in 3 matches · places: 1st place 1 time, 2nd place 2 times"
    )


def test_the_rating_is_called_a_rating_in_swedish_too() -> None:
    # "betyg" is a school mark; Swedish players call the number a rating
    sv = catalog("sv")
    change = sv.text("ui.table.rating", name="Anna", before="1000", after="1016")
    line = sv.text("ui.leaderboard.line", rank=1, name="Anna", rating="1016", wins=1, games=1)
    assert change == "Anna: rating 1000 → 1016"
    assert line == "1. Anna: rating 1016 · 1 vinst på 1 parti"


def test_the_leaderboard_says_how_places_against_computer_players_count() -> None:
    for lang, words in (("sv", "datorspelare"), ("en", "computer player")):
        embed = leaderboard_embed(catalog(lang), "nittionio", [])
        assert embed.footer.text is not None
        assert words in embed.footer.text
