"""How legal actions become panel controls: buttons, selects, multi-selects, two-step choices."""

from __future__ import annotations

from itertools import combinations

from bot.discord.views.layout import Buttons, Select, Steps, layout, step_page, two_parts
from bot.discord.views.layout import choice_of as c

BRIDGE_BIDS = [
    f"bid {level}{strain}" for level in range(1, 8) for strain in ("C", "D", "H", "S", "NT")
]


def test_two_part_arguments_are_split_into_their_parts() -> None:
    assert two_parts(c("bid 7NT")) == ("7", "NT")
    assert two_parts(c("bid 10H")) == ("10", "H")
    assert two_parts(c("ask 2 K")) == ("2", "K")
    assert two_parts(c("bid misere")) is None
    assert two_parts(c("discard 7C 8D")) is None
    assert two_parts(c("draw 3")) is None


def test_a_bid_takes_two_clicks_level_then_strain() -> None:
    pages = layout(["pass", "double", *BRIDGE_BIDS])
    assert len(pages) == 1
    steps = [row for row in pages[0] if isinstance(row, Steps)]
    assert [s.firsts for s in steps] == [("1", "2", "3", "4", "5"), ("6", "7")]
    buttons = [ch.notation for row in pages[0] if isinstance(row, Buttons) for ch in row.choices]
    assert buttons == ["pass", "double"]
    seven = step_page(["pass", *BRIDGE_BIDS], "bid 7")
    assert [ch.notation for row in seven if isinstance(row, Buttons) for ch in row.choices] == [
        "bid 7C",
        "bid 7D",
        "bid 7H",
        "bid 7S",
        "bid 7NT",
    ]
    assert step_page(["pass"], "bid 7") == []  # a stale step leads nowhere


def test_few_two_part_choices_are_plain_buttons() -> None:
    rows = layout(["pass", "bid 7H", "bid 7S", "bid 7NT"])[0]
    assert rows == [Buttons(tuple(c(n) for n in ("pass", "bid 7H", "bid 7S", "bid 7NT")))]


def test_asking_goes_whom_then_which_rank() -> None:
    asks = [f"ask {seat} {rank}" for seat in (1, 2, 3) for rank in ("K", "7", "A")]
    rows = layout(asks)[0]
    assert rows == [Steps("ask", ("1", "2", "3"))]
    page = step_page(asks, "ask 2")
    assert [ch.notation for ch in page[0].choices] == ["ask 2 K", "ask 2 7", "ask 2 A"]  # type: ignore[union-attr]


def test_a_choice_of_several_card_counts_is_one_multi_select_with_a_range() -> None:
    hand = ["7C", "8C", "9D", "TH", "JS", "QS"]
    exchanges = [
        "exchange " + " ".join(combo) for k in (1, 2, 3) for combo in combinations(hand, k)
    ]
    rows = layout(exchanges)[0]
    assert len(rows) == 1
    select = rows[0]
    assert isinstance(select, Select)
    assert (select.pick, select.most, select.most_values) == (1, 3, 3)
    # in the order the hand is shown: ♠ ♥ ♣ ♦, high cards first
    assert [ch.notation for ch in select.choices] == ["QS", "JS", "TH", "8C", "7C", "9D"]
    exact = layout(["discard " + " ".join(combo) for combo in combinations(hand, 2)])[0][0]
    assert isinstance(exact, Select)
    assert (exact.pick, exact.most_values) == (2, 2)


def _runs(*suits_and_ranks: tuple[str, str]) -> list[str]:
    """Every card and every group of consecutive cards of each run (Skitgubbe's plays)."""
    out = []
    for suit, ranks in suits_and_ranks:
        for i in range(len(ranks)):
            for j in range(i, len(ranks)):
                out.append(" ".join(f"{r}{suit}" for r in ranks[i : j + 1]))
    return out


def test_cards_played_at_once_without_a_verb_are_a_multi_select_beside_single_cards() -> None:
    rows = layout([*_runs(("C", "789"), ("H", "Q")), "pickup"])[0]
    groups = [r for r in rows if isinstance(r, Select)]
    assert len(groups) == 1
    assert (groups[0].verb, groups[0].pick, groups[0].most) == ("", 2, 3)
    assert [ch.notation for ch in groups[0].choices] == ["9C", "8C", "7C"]  # as the hand shows
    assert c("7C").is_card
    assert not c("7C 8C").is_card
    buttons = [ch.notation for r in rows if isinstance(r, Buttons) for ch in r.choices]
    assert buttons == ["QH", "9C", "8C", "7C", "pickup"]  # every single card one click away


def test_a_multi_select_keeps_cards_chosen_together_in_one_menu() -> None:
    # 2..K of clubs (12 cards) then 2..A of hearts (13) and 2..4 of spades: 28 cards in groups
    notations = _runs(("C", "23456789TJQK"), ("H", "23456789TJQKA"), ("S", "234"))
    groups = [r for r in layout(notations)[0] if isinstance(r, Select) and r.pick > 1]
    menus = [[ch.notation[-1] for ch in r.choices] for r in groups]
    assert all(len(m) <= 25 for m in menus)
    for suit in "CHS":  # every run lies whole in one menu
        assert sum(1 for m in menus if suit in m) == 1


def test_a_verb_with_one_card_is_a_select_when_there_are_many() -> None:
    calls = [f"call {rank}{suit}" for suit in "CDHS" for rank in "AKQJT9"]
    rows = layout(["solo", *calls])[0]
    selects = [row for row in rows if isinstance(row, Select)]
    assert [len(s.choices) for s in selects] == [24]
    assert selects[0].verb == "call"
    assert selects[0].pick == 1
    assert rows[-1] == Buttons((c("solo"),))
    assert layout(["solo", "call AC", "call KD"])[0] == [
        Buttons((c("call AC"), c("call KD"), c("solo")))
    ]
