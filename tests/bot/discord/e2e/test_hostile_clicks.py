"""Hostile clicks through SimCord: controls forged by a modified client, clicked on the wrong
message, or sent by members who may no longer act. Each is answered in words, changes nothing it
must not, and no hand ever reaches a public message."""

from __future__ import annotations

from typing import Any

from members import (
    bot_of,
    components,
    forge,
    message_text,
    open_hand,
    play_until,
    sync_commands,
    table_for_two,
    table_in,
)
from simcord import Env, InteractionResult, MemberActor, ResponseMessage

from bot.i18n import catalog
from bot.render.text import DISCORD, card_face
from bot.sessions import LiveTable

SHOWN = DISCORD.speaking(catalog("sv"))  # cards as the Swedish tables show them


def hand_faces(table: LiveTable, seat: int) -> list[str]:
    assert table.game is not None
    return [card_face(c, SHOWN) for c in table.game.view(seat).hand]


def public_text(message: Any) -> str:
    return message_text(message)


def table_message(channel: Any, message_id: int) -> Any:
    return next(m for m in channel.history() if m.id == message_id)


def assert_still_the_table(message: Any) -> None:
    """The public message is the table: its layout and only the table's own buttons."""
    assert message.flags.components_v2, "the table message lost its layout"
    assert "Hand:" not in public_text(message)
    for c in components(message):
        assert str(c.get("custom_id", "")).startswith(("kb:t:", "kb:r:", "kb:w:")), c


async def started_for_two(env: Env) -> tuple[Any, Any, MemberActor, MemberActor, LiveTable]:
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    return channel, message, anna, bo, table_in(env, channel.id)


def to_act(table: LiveTable, anna: MemberActor, bo: MemberActor) -> tuple[int, MemberActor]:
    assert table.game is not None
    seat = min(table.game.to_act())
    return seat, anna if table.record.seats[seat].user_id == anna.id else bo


def private(result: InteractionResult) -> ResponseMessage:
    """The interaction was answered, with a message only the clicker sees."""
    assert result.acknowledged
    response = result.response
    assert response is not None
    assert response.ephemeral
    return response


def panel_ids(panel: Any) -> list[str]:
    return [str(c["custom_id"]) for c in components(panel) if c.get("custom_id")]


async def test_a_panel_control_on_the_public_message_answers_privately(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo, table = await started_for_two(env)
    seat, member = to_act(table, anna, bo)
    panel = await open_hand(member, message)
    forged = [
        f"kb:pg:{table.table_id}:{table.version}:0",
        f"kb:st:{table.table_id}:{table.version}:bid:",
        f"kb:t:{table.table_id}:reclaim",
        *(cid for cid in panel_ids(panel) if cid.startswith("kb:a:")),
    ]
    for cid in forged:
        result = await forge(member, message, cid)
        private(result)
        public = table_message(channel, message.id)
        assert_still_the_table(public)
        for face in hand_faces(table, seat):
            assert face not in public_text(public), (cid, face)
    # a panel action clicked on the public message is played, answered with a new private panel,
    # and only that private panel is kept current from then on
    if table.game is not None and table.game.to_act():
        seat, member = to_act(table, anna, bo)
        legal = table.game.notation(table.game.legal_actions(seat)[0]).replace(" ", "_")
        before = table.seq
        played = await forge(member, message, f"kb:a:{table.table_id}:{table.version}:{legal}")
        private(played)
        assert table.seq > before
    # play goes on: the listener refreshes panels, and the public message stays the table
    await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 3)
    public = table_message(channel, message.id)
    assert_still_the_table(public)
    for panel_shown in bot_of(env).listener._panels.values():
        source = panel_shown.interaction.message
        assert source is None or source.id != message.id
    env.raise_errors()


async def test_a_kicked_member_no_longer_sees_the_hand_nor_gets_the_seat_back(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo, table = await started_for_two(env)
    bo_seat = table.seat_of(bo.id)
    assert bo_seat is not None
    old_panel = await open_hand(bo, message)
    dms = len(bo.user.dm_channel.history())
    last_dm = message_text(bo.user.dm_channel.history()[-1])
    kicked = await anna.slash(channel, "spel sparka", medlem=bo)
    assert kicked.acknowledged
    assert table.record.seats[bo_seat].autoplay
    assert table.record.seats[bo_seat].left

    hand = private(await bo.click(message, label="Min hand"))
    assert "lämnat" in message_text(hand)
    assert hand.components == []
    for face in hand_faces(table, bo_seat):
        assert face not in message_text(hand)
    # the reclaim button is the seated member's only: forged on the table message or the old panel
    for source in (message, old_panel):
        reclaim = await forge(bo, source, f"kb:t:{table.table_id}:reclaim")
        assert reclaim.acknowledged
        assert table.record.seats[bo_seat].autoplay
    # play goes on without Bo: his old panel and his DM are not kept current any more
    await play_until(env, channel.id, {anna.id: anna}, message, 4)
    assert len(bo.user.dm_channel.history()) == dms
    assert message_text(bo.user.dm_channel.history()[-1]) == last_dm
    assert all(key[1] != bo.id for key in bot_of(env).listener._panels)
    env.raise_errors()


async def test_select_values_the_panel_did_not_offer_are_refused_in_words(
    simcord_env: Env,
) -> None:
    env = simcord_env
    _, message, anna, bo, table = await started_for_two(env)
    _, member = to_act(table, anna, bo)
    panel = await open_hand(member, message)
    assert not [cid for cid in panel_ids(panel) if cid.startswith("kb:s:")], (
        "a thirteen-card hand is a button per card"
    )
    version, seq = table.version, table.seq
    forged_selects = [
        f"kb:s:{table.table_id}:{version}:-:1:0",
        f"kb:s:{table.table_id}:{version}:discard:2-3:0",
        f"kb:sts:{table.table_id}:{version}:bid:0",
    ]
    for cid in forged_selects:
        for values in ([], ["ZZ"], ["2C", "2C"], ["pass", "QS", "KS", "AS"], ["x" * 100]):
            private(await forge(member, panel, cid, values))
    assert (table.version, table.seq) == (version, seq)
    env.raise_errors()


async def test_a_control_on_no_message_is_answered_not_left_failing(simcord_env: Env) -> None:
    env = simcord_env
    _, message, anna, _, table = await started_for_two(env)
    seq = table.seq
    for cid in (
        f"kb:a:{table.table_id}:{table.version}:9C",
        f"kb:t:{table.table_id}:start",
        f"kb:r:{table.table_id}:0:close",
        "kb:zz:1",
        f"kb:a:{table.table_id}:{table.version}:hej_1079!",
    ):
        answer = private(await forge(anna, message, cid, on_message=False))
        assert "fanns inte" in message_text(answer)
    assert table.seq == seq
    env.raise_errors()


async def test_spel_ny_refuses_an_option_out_of_range_with_the_range(simcord_env: Env) -> None:
    env = simcord_env
    await sync_commands(env)
    guild = env.create_guild()
    channel = guild.create_text_channel("kortbord")
    anna = guild.add_member(env.create_user("anna"))
    for value in ("0", "-5000", "999999999999"):
        refused = await anna.slash(
            channel, "spel ny", spel="hej_knekt", alternativ=f"reaction_ms={value}"
        )
        answer = private(refused)
        assert "från 3000 till 15000" in message_text(answer)
    assert bot_of(env).sessions.table_in(channel.id) is None


async def test_a_yes_forged_onto_the_table_message_asks_the_question_and_does_nothing_yet(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, _ = await table_for_two(env, "nittionio")  # one seat empty
    table = table_in(env, channel.id)
    for yes, asked in (
        (f"kb:t:{table.table_id}:startfill", "tom plats"),
        (f"kb:t:{table.table_id}:endok", "stänga bordet"),
    ):
        result = await forge(anna, message, yes)
        question = private(result)
        assert asked in message_text(question)
        assert table.live
        assert table.record.status == "lobby"
        assert table_message(channel, message.id).flags.components_v2  # not edited over
    # the question's own yes does it, and says so on the question
    done = private(await anna.click(question, label=catalog("sv").text("ui.button.endok")))
    assert not table.live
    assert done is not None
    env.raise_errors()
