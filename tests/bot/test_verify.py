"""Deals anyone can check: a match's record, dealt again from its seed, holds exactly when the
seed, the fingerprints shown, the moves, who sat where, the end and the result are those that were
played; any other file is refused in one line."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import hashlib
import io
import json
import os
import random
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.__main__ import main
from bot.i18n import catalog
from bot.record import RecordResult, RecordSeat
from bot.storage import SeatRecord, open_storage
from bot.verify import MatchRecord, check, fingerprint, verdict_lines
from games.core import Game
from games.registry import SPECS

TABLE = 41
SEED = 123_456_789
ANNA = 1_000_000_000_000_000_001
BO = 1_000_000_000_000_000_002


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
    members = (ANNA, BO, None, None, None)[:players]
    names = ("Anna", "Bo", "", "", "")[:players]
    return MatchRecord(
        table_id=TABLE,
        game_id=game_id,
        variant="standard",
        options=(("_seats", str(players)),),
        seats=tuple(
            RecordSeat(seat, member, name)
            for seat, (member, name) in enumerate(zip(members, names, strict=True))
        ),
        seed=seed,
        prints=tuple(sorted(prints.items())),
        actions=tuple(actions),
        status="finished",
        result=tuple(
            RecordResult(seat, member, score, place)
            for seat, (member, score, place) in enumerate(
                zip(members, result.scores, result.places, strict=True)
            )
        ),
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
    first, *rest = record.result
    changed = dataclasses.replace(first, score=first.score + 1)
    verdict = check(dataclasses.replace(record, result=(changed, *rest)))
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


# --- a record that verifies is complete: every tampering is caught, in one line ---------------


def _edited(record: MatchRecord, edit: Callable[[dict[str, Any]], None]) -> MatchRecord:
    """``record`` as a file edited by hand: ``edit`` changes its JSON, which is read back."""
    data = json.loads(record.to_json())
    edit(data)
    return MatchRecord.from_json(json.dumps(data))


def _swap(items: list[Any], key: str) -> None:
    items[0][key], items[1][key] = items[1][key], items[0][key]


def _cut_the_end(data: dict[str, Any]) -> None:
    data["actions"] = data["actions"][:-3]
    data["result"] = []


def _move_the_result(data: dict[str, Any]) -> None:
    data["result"][0]["member"] = str(BO)


def _swap_the_seats(data: dict[str, Any]) -> None:
    data["seats"].reverse()


def _swap_who_sat(data: dict[str, Any]) -> None:
    _swap(data["seats"], "member")
    _swap(data["seats"], "name")


def _everyone_first(data: dict[str, Any]) -> None:
    for entry in data["result"]:
        entry["place"] = 1


def _say_it_ended(data: dict[str, Any]) -> None:
    data["status"] = "ended"


def _ended_with_a_result(data: dict[str, Any]) -> None:
    data["actions"] = data["actions"][:-3]
    data["status"] = "ended"


def _one_member_twice(data: dict[str, Any]) -> None:
    data["seats"][1]["member"] = data["seats"][0]["member"]


TAMPERINGS: list[tuple[Callable[[dict[str, Any]], None], str, str]] = [
    (
        lambda d: _swap(d["result"], "place"),
        "places",
        "The stored places (1 2) are not those the moves give (2 1).",
    ),
    (_everyone_first, "places", "The stored places (1 1) are not those the moves give (2 1)."),
    (lambda d: d.update(result=[]), "no_result", "has no result for seat 0 1."),
    (lambda d: d["result"].pop(), "no_result", "has no result for seat 1."),
    (_move_the_result, "result_members", f"credited to members {BO} {BO}, but the seats"),
    (lambda d: _swap(d["result"], "member"), "result_members", f"members {BO} {ANNA}"),
    (_swap_the_seats, "seat_numbers", "The seats are numbered 1 0, not 0 to 1 in order."),
    (_swap_who_sat, "result_members", f"but the seats were {BO} {ANNA}."),
    (_cut_the_end, "not_over", "The record says the match finished, but its moves stop"),
    (_say_it_ended, "over_not_finished", "says it did not finish (ended)."),
    (_ended_with_a_result, "result_unfinished", "did not finish (ended), yet it has a result."),
    (_one_member_twice, "member_twice", f"Member {ANNA} sits in more than one seat."),
]


@pytest.mark.parametrize(("edit", "key", "said"), TAMPERINGS, ids=[key for _, key, _ in TAMPERINGS])
def test_a_tampered_record_fails_with_one_line_saying_what_differs(
    edit: Callable[[dict[str, Any]], None], key: str, said: str
) -> None:
    record = _played("tvamanswhist", 2)
    assert [r.place for r in record.result] == [2, 1]  # the tamperings below change something
    tampered = _edited(record, edit)

    verdict = check(tampered)

    assert [k for k, _ in verdict.problems] == [key]
    lines = verdict_lines(catalog("en"), tampered, verdict)
    assert said in lines[-2]
    assert lines[-1] == "The check does NOT hold: the record is not what was played."


def test_a_member_who_left_is_placed_last_and_the_check_knows_it() -> None:
    record = _played("tvamanswhist", 2)
    winner = next(r.seat for r in record.result if r.place == 1)
    left = tuple(dataclasses.replace(s, left=s.seat == winner) for s in record.seats)
    as_stored = tuple(dataclasses.replace(r, place=2) for r in record.result)

    assert check(dataclasses.replace(record, seats=left, result=as_stored)).sound
    assert [k for k, _ in check(dataclasses.replace(record, seats=left)).problems] == ["places"]


def test_the_check_says_who_sat_where_and_how_the_match_ended(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _played("tvamanswhist", 2)
    file = tmp_path / "kortbord-41.json"
    file.write_text(record.to_json(), encoding="utf-8")

    assert main(["verify", str(file), "--lang", "en"]) == 0

    said = capsys.readouterr().out.splitlines()
    assert said[1] == f"Seat 0: Anna (member {ANNA})"
    assert said[2] == f"Seat 1: Bo (member {BO})"
    winner, loser = sorted(record.result, key=lambda r: r.place)
    names = {0: "Anna", 1: "Bo"}
    assert said[-2] == (
        f"Finished: 1st {names[winner.seat]}, {winner.score} pts"
        f" · 2nd {names[loser.seat]}, {loser.score} pts"
    )


def test_a_tampered_file_exits_1_with_the_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "kortbord-41.json"
    file.write_text(_edited(_played("tvamanswhist", 2), _everyone_first).to_json(), "utf-8")

    assert main(["verify", str(file), "--lang", "en"]) == 1

    said = capsys.readouterr().out.splitlines()
    assert said[-2] == "The stored places (1 1) are not those the moves give (2 1)."


# --- malformed input: exit 2, one line, whatever its shape ------------------------------------


def _verify_text(text: str) -> tuple[int, str, str]:
    """``kortbord verify`` on a file holding ``text``: the exit code, stdout and stderr."""
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "record.json"
        file.write_text(text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["verify", str(file), "--lang", "en"])
    return code, out.getvalue(), err.getvalue()


VALID = json.loads(_played("tvamanswhist", 2).to_json())


def _valid_but(**changed: str) -> str:
    """The valid record's text with fields' values replaced by raw JSON text."""
    text = json.dumps(VALID)
    for name, raw in changed.items():
        text = text.replace(f'"{name}": {json.dumps(VALID[name])}', f'"{name}": {raw}')
    return text


def test_a_record_of_the_old_format_is_refused_as_incomplete() -> None:
    old = json.loads(_played("tvamanswhist", 2).to_json())
    old.update(format=1, seats=["Anna", "Bo"], result=[[7, 1], [6, 2]])
    del old["status"]

    code, out, err = _verify_text(json.dumps(old))

    assert (code, out) == (2, "")
    assert err.startswith("The record is incomplete (format 1): it does not say who sat where")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[" * 100_000 + "]" * 100_000, "the file is not JSON (nested too deeply)"),
        (_valid_but(table="9" * 5000), "the file is not JSON"),
        (_valid_but(table="1e999"), "table must be a whole number"),
        (_valid_but(seed=str(2**64)), "seed is out of range"),
        (_valid_but(seed="-1"), "seed is out of range"),
        (_valid_but(seats="{}"), "seats must be a list"),
        (_valid_but(status='"won"'), 'status must be "finished" or "ended"'),
        (_valid_but(actions='[[0, "QS"], [9, "QS"]]'), "actions[1][0] is out of range"),
        ("[1, 2]", "Not a Kortbord match record."),
        ('{"format": true}', "unknown format true"),
        ("\u00ff{", "the file is not JSON"),
    ],
)
def test_malformed_files_exit_2_with_one_line(text: str, said: str) -> None:
    code, out, err = _verify_text(text)

    assert (code, out) == (2, "")
    assert said in err
    assert err.count("\n") == 1


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value, of any shape."""


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, as the keys and indexes leading to it."""
    found = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:6]):
            found += _paths(inner, (*path, index))
    return found


PATHS = _paths(VALID)[1:]


@st.composite
def _damaged(draw: st.DrawFn) -> str:
    """The valid record with one place replaced by any JSON value, or deleted, or any JSON."""
    if draw(st.booleans()) and draw(st.booleans()):
        return json.dumps(draw(JSON))
    data = copy.deepcopy(VALID)
    *parents, last = draw(st.sampled_from(PATHS))
    holder = data
    for step in parents:
        holder = holder[step]
    if isinstance(holder, dict) and draw(st.booleans()):
        del holder[last]
    else:
        holder[last] = draw(JSON)
    return json.dumps(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_damaged())
def test_any_shape_of_file_is_checked_or_refused_in_one_line(text: str) -> None:
    code, out, err = _verify_text(text)

    assert code in (0, 1, 2)
    if code == 2:
        assert (out, err.count("\n")) == ("", 1)
        assert "Traceback" not in err
    else:
        assert err == ""
        assert out.splitlines()[-1].startswith(("The check holds", "The check does NOT hold"))
