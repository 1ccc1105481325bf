"""A storm of hostile interactions through SimCord, at two tables at once.

Seated members, a spectator and a kicked member send 2,000+ interactions: honest plays and
presses, forged and replayed custom ids, select values never offered, controls clicked on the
wrong message, and double clicks sent at the same moment. Every one is answered; no member's
action is taken that their panel did not offer (checked by replaying the stored action logs);
no public message ever shows a card hidden from the table.
"""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from members import (
    bot_of,
    components,
    forge,
    message_text,
    play_first_legal,
    sync_commands,
    table_in,
)
from simcord import Env, InteractionResult, MemberActor, ResponseMessage

from bot.i18n import catalog
from bot.render.text import DISCORD, card_face
from bot.sessions import LiveTable, member_actions, press_verbs, replay
from games.core import Game

INTERACTIONS = 2_000
SEED = 16


SHOWN = DISCORD.speaking(catalog("sv"))  # cards as the Swedish tables show them


def public_text(message: Any) -> str:
    return message_text(message)


def hidden_faces(game: Game) -> set[str]:
    """Faces of cards in a seat's hand that nothing public shows or names."""
    public = game.view(None)
    shown = {c for s in public.seats for c in s.shown}
    shown |= {c for p in public.piles for c in p.cards} | {c for _, c in public.trick}
    named = " ".join(str(v) for m in public.events for _, v in m.args)
    faces = set()
    for seat in range(game.players):
        for card in game.view(seat).hand:
            if card not in shown:
                faces.add(card_face(card, SHOWN))
    return {f for f in faces if f not in named}


class Storm:
    def __init__(self, env: Env, rng: random.Random) -> None:
        self.env = env
        self.rng = rng
        self.count = 0
        self.seen_ids: list[tuple[int | None, Any, str]] = []  # (whose panel, message, id)
        self.panels: dict[int, Any] = {}

    async def send(self, result: Any) -> InteractionResult:
        assert isinstance(result, InteractionResult)
        self.count += 1
        assert result.acknowledged, f"interaction {self.count} was not answered"
        response = result.response
        if response is not None and not response.ephemeral:
            for c in components(response):
                assert str(c.get("custom_id", "")).startswith(("kb:t:", "kb:r:", "kb:w:")), c
        return result

    def remember(self, message: Any, owner: int | None = None) -> None:
        for c in components(message):
            cid = str(c.get("custom_id", ""))
            if cid and len(self.seen_ids) < 5_000:
                self.seen_ids.append((owner, message, cid))

    def replayed(self, actor: MemberActor, live: Any) -> tuple[Any, str]:
        """A custom id seen before, on the message it came from if the actor can see that
        message (their own panel or a public one), else on ``live``."""
        owner, source, cid = self.rng.choice(self.seen_ids)
        return (source if owner in (None, actor.id) else live), cid


def forged_ids(table: LiveTable, rng: random.Random) -> list[str]:
    t, v = table.table_id, table.version
    old = max(1, v - rng.randrange(1, 4))
    return [
        f"kb:a:{t}:{v}:{rng.choice(['hej_1079', 'close_600', 'slap_0', 'turn', 'pass', '9C'])}",
        f"kb:a:{t}:{old}:turn",
        f"kb:r:{t}:{table.reaction_seq}:close",
        f"kb:r:{t}:{table.reaction_seq}:{rng.choice(['hej', 'slap', 'turn', 'pass'])}",
        f"kb:r:{t}:{table.reaction_seq + 7}:hej",
        f"kb:t:{t}:{rng.choice(['start', 'join', 'computer', 'reclaim', 'turn', 'nope'])}",
        f"kb:pg:{t}:{v}:{rng.randrange(0, 9)}",
        f"kb:st:{t}:{v}:bid:{rng.choice(['7', '', 'ZZ'])}",
        f"kb:a:{t + 1000}:{v}:turn",
    ]


async def test_a_storm_of_hostile_interactions_changes_nothing_it_must_not(
    simcord_env: Env,
) -> None:
    env = simcord_env
    rng = random.Random(SEED)
    storm = Storm(env, rng)
    await sync_commands(env)
    guild = env.create_guild()
    names = ("anna", "bo", "cilla", "dan", "eva", "gustav", "frida")
    anna, bo, cilla, dan, eva, gustav, frida = (guild.add_member(env.create_user(n)) for n in names)
    finished: list[LiveTable] = []

    async def families() -> tuple[LiveTable, Any, Any]:
        """Löjliga familjerna (hidden hands, two-step asks): Anna, Bo, and Gustav, kicked."""
        channel = guild.create_text_channel("familjer")
        message = (await anna.slash(channel, "spel ny", spel="lojliga_familjerna")).response
        assert message is not None
        await bo.click(message, label="Sätt dig")
        await gustav.click(message, label="Sätt dig")
        await anna.click(message, label="Starta")
        await anna.slash(channel, "spel sparka", medlem=gustav)
        return table_in(env, channel.id), message, channel

    async def hej_knekt() -> tuple[LiveTable, Any, Any]:
        """Hej knekt (timed presses): Cilla, Dan and Eva."""
        channel = guild.create_text_channel("hej")
        opened = await cilla.slash(
            channel, "spel ny", spel="hej_knekt", alternativ="reaction_ms=15000"
        )
        message = opened.response
        assert message is not None
        for member in (dan, eva):
            await member.click(message, label="Sätt dig")
        await cilla.click(message, label="Starta")
        return table_in(env, channel.id), message, channel

    openers = {"lojliga_familjerna": families, "hej_knekt": hej_knekt}
    tables = {"lojliga_familjerna": await families(), "hej_knekt": await hej_knekt()}
    everyone: list[MemberActor] = [anna, bo, cilla, dan, eva, gustav, frida]
    by_id = {m.id: m for m in everyone}

    def current(message: Any, channel: Any) -> Any:
        return ResponseMessage(env, env.backend.get_message(channel.id, message.id))

    async def honest(table: LiveTable, message: Any, channel: Any) -> None:
        """The member to act plays something their panel offers, or presses the right reaction."""
        game = table.game
        if game is None or not table.live or not game.to_act():
            return
        seat = rng.choice(sorted(game.to_act()))
        member = by_id.get(table.record.seats[seat].user_id or 0)
        if member is None or table.record.seats[seat].autoplay:
            return
        verbs = sorted(press_verbs(game, seat))
        if verbs:
            live = current(message, channel)
            verb = rng.choice(verbs)
            found = [
                str(c["custom_id"])
                for c in components(live)
                if str(c.get("custom_id", "")).endswith(":" + verb)
            ]
            if not found:  # the table message is being edited: its buttons come back at once
                return
            await storm.send(await member.click(live, custom_id=found[0]))
            return
        hand = await storm.send(await member.click(current(message, channel), label="Min hand"))
        panel = hand.response
        assert panel is not None
        storm.panels[member.id] = panel
        storm.remember(panel, member.id)
        offered = member_actions(game, seat)
        if not offered:
            return
        await storm.send(await play_first_legal(member, panel, rng.choice([0, -1])))

    while storm.count < INTERACTIONS:
        game_id = rng.choice(sorted(tables))
        if not tables[game_id][0].live:  # over: a new table of the same game
            finished.append(tables[game_id][0])
            tables[game_id] = await openers[game_id]()
        table, message, channel = tables[game_id]
        live = current(message, channel)
        storm.remember(live)
        actor = rng.choice(everyone)
        kind = rng.randrange(10)
        if kind < 3:
            await honest(table, message, channel)
        elif kind == 3:  # a replayed custom id, on the message it came from or the table message
            source, cid = storm.replayed(actor, live)
            target = source if rng.random() < 0.5 else live
            if cid.endswith((":end", ":leave")):
                continue
            await storm.send(await forge(actor, target, cid))
        elif kind in (4, 5):  # a crafted custom id, on the public message or the actor's panel
            cid = rng.choice(forged_ids(table, rng))
            target = storm.panels.get(actor.id, live) if rng.random() < 0.3 else live
            await storm.send(await forge(actor, target, cid, on_message=rng.random() < 0.8))
        elif kind == 6:  # select values the panel never offered
            t, v = table.table_id, table.version
            cid = rng.choice(
                [f"kb:s:{t}:{v}:-:1:0", f"kb:s:{t}:{v}:discard:2-3:0", f"kb:sts:{t}:{v}:bid:0"]
            )
            values = rng.choice(
                [[], ["ZZ"], ["2C", "2C"], ["hej 0"], ["close 1"], ["QS", "KS", "AS", "2D"]]
            )
            target = storm.panels.get(actor.id, live)
            await storm.send(await forge(actor, target, cid, values))
        elif kind == 7:  # a double click: the same control twice at the same moment
            source, cid = storm.replayed(actor, live)
            if cid.endswith((":end", ":leave")):
                continue
            first, second = await asyncio.gather(
                forge(actor, source, cid), forge(actor, source, cid)
            )
            await storm.send(first)
            await storm.send(second)
        elif kind == 8:  # a table button or a reaction of the other table, on this message
            other = next(t for t in tables.values() if t[0] is not table)[0]
            cid = rng.choice(
                [f"kb:t:{other.table_id}:hand", f"kb:r:{other.table_id}:{other.reaction_seq}:hej"]
            )
            await storm.send(await forge(actor, live, cid))
        else:  # the public buttons as anyone may press them
            label = rng.choice(["Min hand", "Regler"])
            await storm.send(await actor.click(live, label=label))
        if rng.random() < 0.1:
            # reaction windows close, turn deadlines pass
            await env.advance_time(rng.choice([0.5, 2, 16]))
        for shown, public, where in tables.values():
            if shown.game is not None:
                text = public_text(current(public, where))
                for face in hidden_faces(shown.game):
                    assert face not in text, (face, text)

    assert storm.count >= INTERACTIONS
    await legal_logs(env, [*finished, *(t for t, _, _ in tables.values())])
    env.raise_errors()


async def legal_logs(env: Env, tables: list[LiveTable]) -> None:
    """Replaying each log: every member's action was offered to that seat when it was taken
    (a reaction press: a press verb of the open window); gustav, kicked, acted no more."""
    storage = bot_of(env).storage
    for table in tables:
        record = await storage.table(table.table_id)
        assert record is not None
        actions = await storage.actions(table.table_id)
        members = [a for a in actions if a.by == "member"]
        assert members, "the storm let nobody play"
        game = replay(record, [])
        for entry in actions:
            action = game.parse(entry.notation)
            if entry.by == "member":
                word = entry.notation.split()[0]
                assert action in member_actions(game, entry.seat) or (
                    word in press_verbs(game, entry.seat)
                    and re.fullmatch(r"\w+ \d+", entry.notation)
                ), (table.record.game_id, entry)
            game.apply(entry.seat, action)
