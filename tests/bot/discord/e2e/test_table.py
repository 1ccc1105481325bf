"""The table in the channel: refusals, deadlines, a restart, hands by DM and closed DMs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from members import (
    bot_of,
    dm_texts,
    forge,
    message_text,
    open_hand,
    play_first_legal,
    play_until,
    table_for_two,
    table_in,
)
from members import (
    components as components_of,
)
from simcord import Env

from bot.discord.client import Kortbord
from bot.discord.embeds import renderer
from bot.i18n import catalog
from bot.render.text import card_face
from bot.sessions import DECISION_FACTOR
from games.cards import code, parse_card


async def test_a_spectator_and_a_stale_panel_are_refused_and_change_nothing(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    cilla = env.guild.add_member(env.create_user("cilla"))
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None

    spectator = await cilla.click(message, label="Min hand")
    assert spectator.ephemeral
    assert spectator.response is not None
    assert "sitter inte vid" in message_text(spectator.response)
    assert spectator.response.components == []

    seat = min(table.game.to_act())
    player = anna if table.record.seats[seat].user_id == anna.id else bo
    old_panel = await open_hand(player, message)
    new_panel = await open_hand(player, message)
    await play_first_legal(player, new_panel)
    version, seq = table.version, table.seq
    assert seq == 1

    stale = await play_first_legal(player, old_panel)
    assert stale.response.ephemeral  # the old panel, edited into the current one
    assert "gammal" in message_text(stale.response)
    assert "**Din hand vid Tvåmanswhist**" in message_text(stale.response)
    assert (table.version, table.seq) == (version, seq)
    assert len(await bot_of(env).storage.actions(table.table_id)) == 1


async def test_an_expired_deadline_makes_the_computer_player_act(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, _ = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    seat = min(table.game.to_act())
    deadline = bot_of(env).sessions.deadline(table)
    assert deadline is not None
    shown = message_text(channel.history()[0])
    assert f"<t:{int(deadline)}:R>" in shown

    await env.advance_time(table.record.turn_seconds + 1)

    log = await bot_of(env).storage.actions(table.table_id)
    assert [(a.seat, a.by) for a in log[:1]] == [(seat, "timeout")]
    assert table.record.seats[seat].strikes == 1


async def test_a_member_whose_turns_ran_out_takes_the_seat_back_from_the_hand_panel(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    members = {anna.id: anna, bo.id: bo}
    bo_seat = table.seat_of(bo.id)
    assert bo_seat is not None
    while not table.record.seats[bo_seat].autoplay:  # Bo lets his turns run out
        if bo_seat in table.game.to_act():
            await env.advance_time(table.record.turn_seconds + 1)
        else:
            await play_until(env, channel.id, members, message, 1)

    panel = await open_hand(bo, message)
    reclaim = catalog("sv").text("ui.button.reclaim")
    assert [c.get("label") for c in components_of(panel) if c.get("custom_id")] == [reclaim]
    taken = await bo.click(panel, label=reclaim)

    assert taken.acknowledged
    assert not table.record.seats[bo_seat].autoplay
    assert taken.response is not None
    assert reclaim not in [c.get("label") for c in components_of(taken.response)]
    env.raise_errors()


async def test_a_restart_in_the_middle_of_a_match_resumes_it(
    simcord_env: Env, make_bot: Callable[[], Kortbord]
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    members = {anna.id: anna, bo.id: bo}
    await play_until(env, channel.id, members, message, 5)
    before = table_in(env, channel.id)
    assert before.game is not None
    view = before.game.view(None)

    await env.restart_bot(make_bot())

    after = table_in(env, channel.id)
    assert after is not before
    assert after.game is not None
    assert after.game.view(None) == view
    assert after.seq == before.seq
    # the same message's buttons work after the restart, to the end of the match
    await play_until(env, channel.id, members, message, 200)
    assert after.record.status == "finished"


async def test_hands_arrive_by_dm_and_stay_current(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    for member in (anna, bo):
        seat = table.seat_of(member.id)
        assert seat is not None
        texts = dm_texts(member)
        assert len(texts) == 1
        assert "din hand" in texts[0]
    await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 2)
    # the same DM was edited as the hand changed: still one message, showing the current hand
    for member in (anna, bo):
        texts = dm_texts(member)
        assert len(texts) == 1
        seat = table.seat_of(member.id)
        assert seat is not None
        hand = table.game.view(seat).hand
        assert len(texts[0].splitlines()[1].split()) == len(hand)


async def test_closed_dms_are_remembered_and_the_member_is_told_once(simcord_env: Env) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    bo_dms = bo.user.dm_channel
    env.inject_error("POST", f"/channels/{bo_dms.id}/messages", status=403, code=50007, times=None)
    await anna.click(message, label="Starta")
    notices = [m for m in channel.history() if bo.mention in message_text(m)]
    assert len(notices) == 1
    assert "Min hand" in message_text(notices[0])
    assert await bot_of(env).storage.unreachable(bo.id)
    assert len(dm_texts(anna)) == 1

    await play_until(env, channel.id, {anna.id: anna, bo.id: bo}, message, 6)
    assert table_in(env, channel.id).seq == 6  # the game went on
    assert len([m for m in channel.history() if bo.mention in message_text(m)]) == 1


async def test_an_open_hand_panel_is_kept_current(simcord_env: Env) -> None:
    """A waiting member's panel offers their cards ahead of the turn; when the turn comes it
    offers exactly what may be played (edited at once when that is fewer cards), and a card that
    may not be played is refused with the reason, in the game's words."""
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    leader_seat = min(table.game.to_act())
    leader, follower = (
        (anna, bo) if table.record.seats[leader_seat].user_id == anna.id else (bo, anna)
    )
    waiting = await open_hand(follower, message)
    assert "Vänta på din tur" in message_text(waiting)
    follower_seat = table.seat_of(follower.id)
    assert follower_seat is not None
    ahead = card_controls(waiting)
    assert sorted(ahead) == sorted(code(c) for c in table.game.view(follower_seat).hand)

    requests = len(env.http_requests)
    await play_first_legal(leader, await open_hand(leader, message))
    webhooks = [r for r in env.http_requests[requests:] if str(r.path).startswith("/webhooks/")]
    legal = {table.game.notation(a) for a in table.game.legal_actions(follower_seat)}
    offered = card_controls(waiting)
    assert set(offered) == legal  # never a card that may not be played
    assert bool(webhooks) == (legal != set(ahead))  # edited only when it offered too much

    illegal = [n for n in ahead if n not in legal]
    if illegal:  # must follow suit: a card beside it (an old control) is refused with why
        refused = await forge(follower, waiting, ahead[illegal[0]])
        assert refused.response is not None
        assert "Du måste följa färg" in message_text(refused.response)
        assert table.seq == 1
    await choose(follower, waiting, offered, sorted(legal)[0])
    assert table.seq == 2


async def test_a_waiting_panel_is_edited_only_when_the_turn_narrows_its_choices(
    simcord_env: Env,
) -> None:
    """An action costs the other member's open panel an edit only when that panel now offers a
    card that may not be played (a suit to follow). When it offers fewer than may be played (a
    card drawn since), or when the other member waits, it is left as it is: they act on it in
    one click, and it is refreshed after the panel's grace if they have not."""
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    members = {anna.id: anna, bo.id: bo}
    for member in members.values():  # every card is clicked, none played for them
        await bot_of(env).sessions.choices.set("forced_cards", member.id, False)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    panels = {m.id: await open_hand(m, message) for m in members.values()}
    narrowed = widened = waited = 0
    assert table.game is not None
    deal = table.view(None).deal
    while not table.game.is_over() and table.view(None).deal == deal:
        seat = min(table.game.to_act())
        user_id = table.record.seats[seat].user_id
        other = bo.id if user_id == anna.id else anna.id
        other_seat = table.seat_of(other)
        assert user_id is not None
        assert other_seat is not None
        offered = set(card_controls(panels[other]))
        before = len(env.http_requests)
        played = await play_first_legal(members[user_id], panels[user_id])
        await env.settle()
        panels[user_id] = played.response or panels[user_id]
        if table.game.is_over() or table.view(None).deal != deal:
            break  # a new deal or the end: every panel shows it at once
        edits = [
            r
            for r in env.http_requests[before:]
            if r.method == "PATCH" and str(r.path).startswith("/webhooks/")
        ]
        legal = {table.game.notation(a) for a in table.game.legal_actions(other_seat)}
        if legal and not offered <= legal:
            narrowed += 1
            assert len(edits) == 1, "the waiting panel offered a card that may not be played"
            assert set(card_controls(panels[other])) == legal
            continue
        assert edits == [], f"the panel was edited though it could serve: {offered} ⊆ {legal}"
        widened += bool(legal) and offered != legal
        waited += not legal
    assert narrowed, "no turn narrowed a waiting panel's choices"
    assert widened, "no turn found a waiting panel offering fewer than may be played"
    assert waited, "no action left the other member waiting"


def card_controls(panel: object) -> dict[str, str]:
    """The cards the panel offers (buttons, or options of select menus): notation -> custom id."""
    out = {}
    for c in components_of(panel):
        cid = str(c.get("custom_id", ""))
        if cid.startswith("kb:a:"):
            out[cid.rsplit(":", 1)[1]] = cid
        elif cid.startswith("kb:s:"):
            out |= {str(o["value"]): cid for o in c["options"]}
    return out


async def choose(member: Any, panel: Any, offered: dict[str, str], notation: str) -> Any:
    cid = offered[notation]
    if cid.startswith("kb:s:"):
        return await member.select(panel, [notation], custom_id=cid)
    return await member.click(panel, custom_id=cid)


async def test_a_passed_deadline_is_announced_on_the_table_and_in_the_panel(
    simcord_env: Env,
) -> None:
    env = simcord_env
    channel, message, anna, bo = await table_for_two(env)
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None
    seat = min(table.game.to_act())
    late, other = (anna, bo) if table.record.seats[seat].user_id == anna.id else (bo, anna)
    panel = await open_hand(late, message)
    assert "Tiden gick ut" not in message_text(panel)

    await env.advance_time(table.record.turn_seconds + 1)  # playing a card: the table's time

    played = (await bot_of(env).storage.actions(table.table_id))[0]
    assert played.by == "timeout"
    shown = message_text(channel.history()[0])
    assert f"Tiden gick ut för {table.record.seats[seat].name}: datorn spelade" in shown
    refreshed = await open_hand(late, message)
    assert "Tiden gick ut för dig: datorn spelade" in message_text(refreshed)
    assert "Tiden gick ut" not in message_text(await open_hand(other, message))


async def test_a_decision_gets_more_time_than_playing_a_card() -> None:
    from bot.sessions import DECISION_FACTOR, turn_time
    from games.registry import SPECS

    bidding = SPECS["nittionio"].new(3, SPECS["nittionio"].default_options())
    seat = min(bidding.to_act())
    assert not all(len(bidding.notation(a).split()) == 1 for a in bidding.legal_actions(seat))
    assert turn_time(30, bidding, seat) == 30 * DECISION_FACTOR
    playing = SPECS["tvamanswhist"].new(2, SPECS["tvamanswhist"].default_options())
    seat = min(playing.to_act())
    assert all(len(playing.notation(a).split()) == 1 for a in playing.legal_actions(seat))
    assert turn_time(30, playing, seat) == 30


async def test_a_deadline_announcement_never_shows_cards_laid_face_down(simcord_env: Env) -> None:
    """Bid cards are laid face down: when the computer lays them for a late member, the table
    says that it did, not which cards; the member's own panel names them."""
    env = simcord_env
    channel, message, anna, _bo = await table_for_two(env, "nittionio")
    await anna.select(message, ["normal"])
    await anna.click(message, label="Starta")
    table = table_in(env, channel.id)
    assert table.game is not None

    await env.advance_time(table.record.turn_seconds * DECISION_FACTOR + 1)

    laid = [
        a
        for a in await bot_of(env).storage.actions(table.table_id)
        if a.by == "timeout" and a.seat == table.seat_of(anna.id)
    ]
    assert laid
    assert laid[0].notation.startswith("bid ")
    text = renderer(catalog("sv"), table)
    faces = {card_face(parse_card(c), text.faces) for c in laid[0].notation.split()[1:]}
    shown = message_text(channel.history()[0])
    name = table.record.seats[table.seat_of(anna.id) or 0].name
    assert f"Tiden gick ut för {name}: datorn lade budkort." in shown
    assert not [f for f in faces if f in shown]
    own = message_text(await open_hand(anna, message))
    assert "Tiden gick ut för dig: datorn lade budkort" in own
    assert all(f in own for f in faces)
