"""Femkort through SimCord: a whole match of two members and computer players, with a member
asking for better cards from the hand panel, ending on the leaderboard; a member whose time runs
out refusing better cards; the table message of a full table of ten, which lists every seat; and
the terminal table to the end of a match for every player count."""

from __future__ import annotations

import itertools
import random

import pytest
from fakeconsole import FakeConsole
from members import (
    bot_of,
    components,
    message_text,
    open_hand,
    play_until,
    start,
    sync_commands,
    table_for_two,
    table_in,
)
from simcord import Env

from bot.discord.embeds import table_layout
from bot.discord.messages import MAX_TEXT, layout_view, texts_of
from bot.i18n import catalog
from bot.sessions import DECISION_FACTOR, LiveTable
from bot.storage import SeatRecord, TableRecord
from bot.terminal.table import PlayRequest, build_table
from games.ai import choose
from games.core import Game
from games.femkort import BETTER
from games.registry import SPECS

LONG_NAME = "Åsa-Britt Långnamnsdotter-Ek"  # 28 characters, and a seat number: near Discord's 32


async def test_femkort_two_members_and_two_computers_to_the_leaderboard(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    bo = guild.add_member(env.create_user("bo"))
    opened = await anna.slash(channel, "spel ny", spel="femkort")
    message = opened.response
    assert message is not None
    await bo.click(message, label="Sätt dig")
    await anna.select(message, ["normal"])
    await anna.select(message, ["normal"])
    await start(anna, message)
    table = table_in(env, channel.id)
    members = {anna.id: anna, bo.id: bo}
    assert [s.user_id is None for s in table.record.seats] == [False, False, True, True]

    # the first member on turn asks for better cards from the hand panel; a computer may have
    # asked first (the seed of a table is random), and then the members answer it before
    answered = 0
    game = table.game
    assert game is not None
    seat = min(s for s in game.to_act() if not table.by_computer(s))
    while BETTER not in game.legal_actions(seat):
        answered += await play_until(env, channel.id, members, message, 1)
        game = table.game
        assert game is not None
        seat = min(s for s in game.to_act() if not table.by_computer(s))
    member = members[table.record.seats[seat].user_id or 0]
    panel = await open_hand(member, message)
    labels = [c.get("label") for c in components(panel)]
    assert "Bättre kort!" in labels
    await member.click(panel, label="Bättre kort!")

    played = await play_until(env, channel.id, members, message, 2000)

    assert table.record.status == "finished"
    log = await bot_of(env).storage.actions(table.table_id)
    assert any(a.notation == "better" and a.by == "member" for a in log)
    assert any(a.notation in ("accept", "refuse") for a in log)
    assert sum(1 for a in log if a.by == "computer") > 0
    assert answered + played + 1 == sum(1 for a in log if a.by == "member")
    assert "**Resultat**" in message_text(channel.history()[0])
    board = await bo.slash(channel, "topplista", spel="femkort")
    assert board.response is not None
    names = [
        line.split(":")[0][3:] for line in (board.response.embeds[0].description or "").splitlines()
    ]
    assert sorted(names) == ["anna", "bo"]  # computer players are not on the leaderboard


async def test_a_member_whose_time_runs_out_refuses_better_cards(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env, "femkort")
    await start(anna, message)
    table = table_in(env, channel.id)
    assert table.game is not None
    (seat,) = table.game.to_act()
    asker = anna if table.record.seats[seat].user_id == anna.id else bo
    await asker.click(await open_hand(asker, message), label="Bättre kort!")
    assert table.game.to_act() == {1 - seat}

    await env.advance_time(DECISION_FACTOR * table.record.turn_seconds + 1)  # a decision

    log = await bot_of(env).storage.actions(table.table_id)
    assert [(a.seat, a.notation, a.by) for a in log] == [
        (seat, "better", "member"),
        (1 - seat, "refuse", "timeout"),
    ]
    assert table.game.to_act() == {seat}  # play goes on: the asker plays a card
    assert table.record.seats[1 - seat].strikes == 1


def full_table(game: Game) -> LiveTable:
    """Members with long names in the even seats, computer players in the odd ones."""
    seats = tuple(
        SeatRecord(s, 10**17 + s if s % 2 == 0 else None, f"{LONG_NAME}{s}" if s % 2 == 0 else "")
        for s in range(game.players)
    )
    record = TableRecord(
        table_id=1,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        message_id=3,
        host_id=10**17,
        game_id="femkort",
        options=(),
        variant="standard",
        seed=1,
        status="playing",
        turn_seconds=60,
        language="sv",
        version=1,
        created_at=0.0,
        updated_at=0.0,
        deadline_at=None,
        seats=seats,
    )
    return LiveTable(record, game, seq=0)


def test_the_table_message_lists_all_ten_seats_in_both_languages() -> None:
    game = SPECS["femkort"].new(10, rng=random.Random(1))
    rng = random.Random(2)
    for _ in range(40):  # into the deal, with a proposal of better cards open
        (seat,) = game.to_act()
        legal = game.legal_actions(seat)
        game.apply(seat, BETTER if BETTER in legal else legal[rng.randrange(len(legal))])
    for lang in ("sv", "en"):
        shown = layout_view(table_layout(catalog(lang), full_table(game), 1_800_000_000.0))
        text = "\n".join(texts_of(shown))
        assert len(text) <= MAX_TEXT
        seats_heading = f"**{catalog(lang).text('ui.table.seats')}**\n"
        below = text.split(seats_heading)[1].splitlines()
        seats = list(itertools.takewhile(lambda line: not line.endswith("**"), below))
        assert len(seats) == 10  # one line per seat, up to the next heading
        assert "…" not in "".join(seats)
        assert all(f"{LONG_NAME}{s}" in "".join(seats) for s in range(0, 10, 2))


class TypedMoves(FakeConsole):
    """Types the rule-based player's move for the human seat, as its notation."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.rng = random.Random(3)

    def read(self, prompt: str) -> str:
        assert self.game is not None
        return self.game.notation(choose(self.game, 0, "rules", self.rng))


@pytest.mark.parametrize("players", range(2, 11))
def test_the_terminal_plays_a_whole_match_for_every_player_count(players: int) -> None:
    console = TypedMoves()
    table = build_table(PlayRequest("femkort", players=players, seed=players, pace=0.0), console)
    console.game = table.game
    assert table.run()
    assert table.game.is_over()
    assert "Slutresultat:" in console.text
    assert console.text.count("vinner potten") >= 3
