"""The shared contract-bidding ladder and auction (games/bidding.py)."""

from __future__ import annotations

import pytest

from games.bidding import Auction, Contract, Ladder
from games.core import IllegalActionError, NotationError

BRIDGE = Ladder(tuple(range(1, 8)), ("C", "D", "H", "S", "NT"))
FIVE_HUNDRED = Ladder(
    tuple(range(6, 11)), ("S", "C", "D", "H", "NT"), (("misere", "7NT"), ("openmisere", None))
)


def _run(auction: Auction, *calls: str) -> None:
    for text in calls:
        seat = auction.to_call()
        assert seat is not None, f"the auction is over before {text}"
        auction.call(seat, auction.parse(text))


def _legal(auction: Auction) -> list[str]:
    seat = auction.to_call()
    assert seat is not None
    return [auction.notation(a) for a in auction.legal(seat)]


def test_ladders_order_levels_then_strains_with_named_bids_in_place() -> None:
    assert BRIDGE.bids[:6] == ("1C", "1D", "1H", "1S", "1NT", "2C")
    assert len(BRIDGE.bids) == 35
    i = FIVE_HUNDRED.index("misere")
    assert FIVE_HUNDRED.bids[i - 1 : i + 2] == ("7NT", "misere", "8S")
    assert FIVE_HUNDRED.bids[-1] == "openmisere"
    assert FIVE_HUNDRED.level(FIVE_HUNDRED.index("10nt")) == 10
    assert FIVE_HUNDRED.strain(FIVE_HUNDRED.index("10NT")) == "NT"
    assert FIVE_HUNDRED.level(i) is None
    with pytest.raises(NotationError):
        BRIDGE.index("8C")


def test_two_player_bridge_auction_with_double_and_redouble() -> None:
    auction = Auction(BRIDGE, (1, 0), base=100, doubles=True)
    assert "double" not in _legal(auction)
    _run(auction, "bid 1S")
    assert _legal(auction)[:2] == ["pass", "double"]
    assert "bid 1NT" in _legal(auction)
    assert "bid 1S" not in _legal(auction)
    _run(auction, "double")
    assert "redouble" in _legal(auction)
    _run(auction, "redouble", "pass")
    assert auction.is_over()
    assert auction.contract() == Contract(BRIDGE.index("1S"), 1, 2)


def test_a_new_bid_cancels_the_double_and_two_passes_pass_out() -> None:
    auction = Auction(BRIDGE, (1, 0), base=100, doubles=True)
    _run(auction, "bid 2H", "double", "bid 3C", "pass")
    assert auction.contract() == Contract(BRIDGE.index("3C"), 1, 0)
    passed_out = Auction(BRIDGE, (1, 0), base=100, doubles=True)
    _run(passed_out, "pass", "pass")
    assert passed_out.is_over()
    assert passed_out.contract() is None


def test_refusals_change_nothing() -> None:
    auction = Auction(BRIDGE, (1, 0), base=100, doubles=True)
    _run(auction, "bid 2H")
    with pytest.raises(IllegalActionError, match="higher than 2H"):
        auction.call(0, auction.parse("bid 1NT"))
    with pytest.raises(IllegalActionError, match="not your turn"):
        auction.call(1, auction.parse("pass"))
    with pytest.raises(IllegalActionError):
        auction.call(0, auction.parse("redouble"))
    assert auction.calls == [(1, 3 + BRIDGE.index("2H"))]
    assert auction.to_call() == 0


def test_one_round_gives_every_player_exactly_one_call() -> None:
    auction = Auction(FIVE_HUNDRED, (1, 2, 0), base=60, rounds="one")
    _run(auction, "bid 6S", "pass", "bid 7H")
    assert auction.contract() == Contract(FIVE_HUNDRED.index("7H"), 0, 0)
    all_pass = Auction(FIVE_HUNDRED, (1, 2, 0), base=60, rounds="one")
    _run(all_pass, "pass", "pass", "pass")
    assert all_pass.is_over()
    assert all_pass.contract() is None


def test_until_passes_lets_a_passed_player_bid_again_unless_a_pass_is_final() -> None:
    again = Auction(FIVE_HUNDRED, (1, 2, 0), base=60)
    _run(again, "pass", "bid 6S", "pass", "bid 6C", "pass")
    assert not again.is_over()
    _run(again, "pass")
    assert again.contract() == Contract(FIVE_HUNDRED.index("6C"), 1, 0)

    final = Auction(FIVE_HUNDRED, (1, 2, 3, 0), base=60, pass_final=True, sides=(0, 1, 0, 1))
    _run(final, "pass", "bid 6S", "bid 7S", "pass")
    assert final.to_call() == 2  # seat 1 passed for good and is skipped
    _run(final, "bid 8S", "pass")
    assert final.is_over()
    assert final.contract() == Contract(FIVE_HUNDRED.index("8S"), 2, 0)


def test_copy_is_independent() -> None:
    auction = Auction(BRIDGE, (1, 0), base=100, doubles=True)
    copy = auction.copy()
    _run(copy, "bid 1C", "pass")
    assert not auction.is_over()
    assert auction.calls == []
