"""Deals anyone can check: a match's record, dealt again from its seed, holds exactly when the
seed, the fingerprints shown and the moves are those that were played."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import os
import random
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.i18n import catalog
from bot.storage import SeatRecord, open_storage
from bot.verify import MatchRecord, check, fingerprint, verdict_lines
from games.core import Game
from games.registry import SPECS

TABLE = 41
SEED = 123_456_789


def _played(game_id: str, players: int, seed: int = SEED) -> MatchRecord:
    """A whole match of random legal moves from ``seed``, recorded as the table records it:
    the fingerprint of each deal as it starts, every move, the result."""
    game: Game = SPECS[game_id].new(players, rng=random.Random(seed))
    moves = random.Random(7)
    prints = {game.view(None).deal: fingerprint(seed, TABLE, game.view(None).deal)}
    actions = []
    while not game.is_over():
        seat = min(game.to_act())
        action = moves.choice(game.legal_actions(seat))
        actions.append((seat, game.notation(action)))
        game.apply(seat, action)
        deal = game.view(None).deal
        if not game.is_over():
            prints.setdefault(deal, fingerprint(seed, TABLE, deal))
    result = game.result()
    return MatchRecord(
        table_id=TABLE,
        game_id=game_id,
        variant="standard",
        options=(("_seats", str(players)),),
        names=("Anna", "")[:players] + ("",) * max(0, players - 2),
        seed=seed,
        prints=tuple(sorted(prints.items())),
        actions=tuple(actions),
        result=tuple(zip(result.scores, result.places, strict=True)),
    )


def test_the_fingerprint_is_the_sha256_of_the_seed_with_the_table_and_deal() -> None:
    whole = hashlib.sha256(b"kortbord:41:3:123456789").hexdigest()
    assert fingerprint(SEED, TABLE, 3) == whole[:16]
    assert fingerprint(SEED, TABLE, 3) != fingerprint(SEED, TABLE, 4)
    assert fingerprint(SEED, TABLE, 3) != fingerprint(SEED, 42, 3)


@pytest.mark.parametrize(("game_id", "players"), [("tvamanswhist", 2), ("nittionio", 3)])
def test_a_match_as_played_passes_and_every_deal_is_dealt_again(game_id: str, players: int) -> None:
    record = _played(game_id, players)
    verdict = check(record)
    assert verdict.sound, verdict.problems
    assert [d.deal for d in verdict.deals] == [deal for deal, _ in record.prints]
    assert all(d.matches for d in verdict.deals)
    assert sum(d.moves for d in verdict.deals) == len(record.actions)
    first = SPECS[game_id].new(players, rng=random.Random(SEED))
    assert verdict.deals[0].hands[0] == " ".join(str(c) for c in first.view(0).hand)
    lines = verdict_lines(catalog("sv"), record, verdict)
    assert lines[-1].startswith("Kontrollen stämmer:")


def test_a_tampered_seed_fails() -> None:
    record = _played("tvamanswhist", 2)
    verdict = check(dataclasses.replace(record, seed=SEED + 1))
    assert not verdict.sound
    keys = {key for key, _ in verdict.problems}
    assert "illegal" in keys or "print" in keys
    lines = verdict_lines(catalog("en"), record, verdict)
    assert lines[-1] == "The check does NOT hold: the record is not what was played."


def test_a_fingerprint_that_differs_from_the_one_shown_fails() -> None:
    record = _played("tvamanswhist", 2)
    (deal, shown), *rest = record.prints
    wrong = ((deal, "0" * 16 if shown != "0" * 16 else "1" * 16), *rest)
    verdict = check(dataclasses.replace(record, prints=wrong))
    assert [key for key, _ in verdict.problems] == ["print"]
    assert not verdict.deals[0].matches


def test_a_move_the_dealt_cards_do_not_allow_fails() -> None:
    record = _played("tvamanswhist", 2)
    seat, played = record.actions[0]
    game = SPECS["tvamanswhist"].new(2, rng=random.Random(SEED))
    other = next(
        str(c) for c in game.view(1 - seat).hand if str(c) != played
    )  # a card the seat never held
    moves = ((seat, other), *record.actions[1:])
    verdict = check(dataclasses.replace(record, actions=moves))
    assert [key for key, _ in verdict.problems] == ["illegal"]


def test_a_stored_result_the_moves_do_not_give_fails() -> None:
    record = _played("tvamanswhist", 2)
    (score, place), *rest = record.result
    verdict = check(dataclasses.replace(record, result=((score + 1, place), *rest)))
    assert [key for key, _ in verdict.problems] == ["result"]


def test_the_record_file_round_trips() -> None:
    record = _played("nittionio", 3)
    assert MatchRecord.from_json(record.to_json()) == record
    with pytest.raises(ValueError, match="not a Kortbord match record"):
        MatchRecord.from_json('{"format": 9}')


def test_a_stored_table_whose_options_cannot_be_read_is_not_said_to_be_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in list(os.environ):
        if name.upper().startswith("KORTBORD_") and not name.upper().startswith("KORTBORD_TEST_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "kortbord.sqlite3"
    monkeypatch.setenv("KORTBORD_DATABASE", str(path))

    async def stored() -> int:
        storage = await open_storage(path)
        try:
            table = await storage.create_table(
                guild_id=1,
                channel_id=2,
                host_id=3,
                game_id="bondtolva",
                variant="standard",
                seed=SEED,
                turn_seconds=60,
                language="sv",
                created_at=0.0,
                status="playing",
                seats=(SeatRecord(0, 3, "Anna"), SeatRecord(1, None, "")),
            )
            return table.table_id
        finally:
            await storage.close()

    table_id = asyncio.run(stored())
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tables SET options = '{not json' WHERE table_id = ?", (table_id,))

    assert main(["verify", "--table", str(table_id)]) == 2
    said = capsys.readouterr().err.strip()
    assert said.startswith(f"table {table_id} cannot be read")
    assert "no table" not in said
    assert main(["verify", "--table", str(table_id + 1)]) == 2
    assert capsys.readouterr().err.strip() == f"no table {table_id + 1} in the database"
