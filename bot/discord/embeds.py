"""Embeds and message texts for Discord: the table message, the hand panel, the DM hand, rules,
leaderboards, statistics and settings. Every string comes from the catalogs.

Pure: it reads a table's record and a game's views and returns text, ``discord.Embed`` values (a
deal's result, rules, leaderboards, statistics, settings) or the table message's ``Layout`` (its
texts, picture and controls, which ``messages.py`` makes into layout components); it sends nothing
and changes nothing. Everything it builds stays within Discord's limits (titles
256, descriptions 4,096, field values 1,024, 25 fields, 6,000 characters an embed, 2,000 a
message): long parts are cut from the top, so the latest events stay visible.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.discord.images import table_untold
from bot.discord.messages import PHONE_CODE_COLUMNS, Layout, text_lines
from bot.discord.views.layout import choice_of
from bot.i18n import Catalog
from bot.leaderboard import GameStats, RatingChange, Standing
from bot.options import describe, game_name, variant_name
from bot.render.text import (
    DISCORD,
    TextRenderer,
    columns,
    deal_summary,
    faces_of_codes,
    hand_faces,
    pad_end,
    pad_start,
    place_name,
    result_lines,
    rule_sections,
    seat_score,
    short_names,
    sort_hand,
    table_piles,
    trick_text,
    trump_line,
)
from bot.render.text import (
    seat_names as names_of_seats,
)
from bot.sessions import (
    DECISION_FACTOR,
    LiveTable,
    TimedOut,
    game_options,
    seats_wanted,
    turn_time,
)
from bot.storage import GuildSettings, TableRecord
from bot.verify import fingerprint, seed_secret
from games.ai import level_of
from games.core import Msg, Seat, View
from games.registry import SPECS

MAX_CONTENT = 2000
MAX_DESCRIPTION = 4096
MAX_FIELD = 1024
MAX_TITLE = 256
EVENTS_SHOWN = 5
PICTURED_EVENTS_SHOWN = 3
PICTURED_EVENT_LINES = 6
"""Below the picture the latest events are shown as far as they fill this many lines of a phone
(the latest always), so that *Min hand* stays on a phone's first screen: three that take a line or
two each (Hej knekt's presses and who was last), two where each takes three (Löjliga familjerna's
asks, each saying who asks next: three took nine lines)."""
REACTION_OPTION = "reaction_ms"  # a real-time game's reaction time, in ms
PRIVATE_EVENTS_SHOWN = 3
COLOUR = discord.Colour.dark_green()


def clip(text: str, limit: int, *, keep_end: bool = False) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis where it was cut."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1) :] if keep_end else text[: limit - 1] + "…"


def _lobby_lines(catalog: Catalog, table: LiveTable) -> list[str]:
    """What a member deciding to sit down wants to know: the variant (when it is not the
    standard game), the options chosen in ``/spel ny``, the time a move has (a real-time game's
    reaction time), the seats."""
    record = table.record
    empty = max(0, seats_wanted(record) - len(record.seats))
    seconds = record.turn_seconds
    lines = [catalog.text("ui.table.lobby")]
    if record.variant != "standard":
        name = variant_name(catalog, record.game_id, record.variant)
        lines.append(catalog.text("ui.lobby.variant", variant=name))
    chosen = {
        name: value
        for name, value in game_options(dict(record.options)).items()
        if not (table.spec.realtime and name == REACTION_OPTION)
    }
    if chosen:
        options = describe(catalog, record.game_id, chosen)
        lines.append(catalog.text("layout.lobby.options", options=options))
    reaction = dict(record.options).get(REACTION_OPTION, "")
    if table.spec.realtime:
        ms = int(reaction) if reaction.isdigit() else _default_reaction_ms(record.game_id)
        lines.append(catalog.text("layout.lobby.reaction_time", seconds=ms // 1000))
    else:
        cards, decisions = _kinds_of_turns(record.game_id)
        decision = seconds * DECISION_FACTOR
        key = "turn_time_cards" if not decisions else "turn_time" if cards else "turn_time_moves"
        lines.append(catalog.text(f"ui.lobby.{key}", seconds=seconds, decision=decision))
    lines.append(
        catalog.text("ui.lobby.empty_one" if empty == 1 else "ui.lobby.empty", count=empty)
        if empty
        else catalog.text("ui.lobby.full")
        if len(record.seats) >= table.spec.max_players
        else catalog.text("ui.lobby.ready")
    )
    return lines


def seat_names(catalog: Catalog, table: LiveTable) -> list[str]:
    """A name per seat: the member's, or "Computer 2" for a computer seat."""
    return names_of_seats(
        catalog, [None if s.user_id is None else s.name for s in table.record.seats]
    )


def level_name(catalog: Catalog, kind: str) -> str:
    """A computer player's level in the table's language ("svår"), or its kind as stored."""
    key = f"ui.level.{level_of(kind)}"
    return catalog.text(key).lower() if catalog.has(key) else kind


def lobby_lines(catalog: Catalog, table: LiveTable) -> list[str]:
    """The seats in the lobby: names, with the level of each computer player."""
    names = seat_names(catalog, table)
    return [seat_label(catalog, table, seat, markdown(names[seat])) for seat in range(len(names))]


def seat_label(
    catalog: Catalog, table: LiveTable, seat: Seat, name: str, dealer: bool = False
) -> str:
    """One label per seat: the name, then its small marks in one bracket (the dealer; a
    computer player's level, or a member who left or whose seat the computer plays):
    ``Dator 1 (giver, normal)``."""
    marks = [catalog.text("view.dealer_mark")] if dealer else []
    record = table.record.seats[seat]
    if record.left:
        marks.append(catalog.text("ui.table.left"))
    elif record.user_id is not None and record.autoplay:
        marks.append(catalog.text("ui.table.autoplay"))
    elif record.user_id is None:
        marks.append(level_name(catalog, record.ai))
    if not marks:
        return name
    return f"{name} {catalog.text('layout.seat.marks', marks=', '.join(marks))}"


def renderer(catalog: Catalog, table: LiveTable) -> TextRenderer:
    """The table's renderer for Discord: its names written for markdown (:func:`markdown`)."""
    return TextRenderer(catalog, seat_names(catalog, table), DISCORD, markdown)


@functools.lru_cache(maxsize=4096)  # a table writes its few names again at every action
def markdown(name: str) -> str:
    """A member's name as Discord's markdown shows it as written: a name with ``*…*``, ``~~``,
    ``||``, a backtick or ``[text](address)`` in it is not read as styling, a spoiler or a link
    (discord.py's ``escape_markdown``). A code block, a picture and a control's label show
    names as they are."""
    return discord.utils.escape_markdown(name)


def timestamp(seconds: float) -> str:
    """A Discord timestamp shown relative to now (``in 40 seconds``), live in every client."""
    return f"<t:{int(seconds)}:R>"


# --- the public table message ---------------------------------------------------------------------


def table_layout(
    catalog: Catalog,
    table: LiveTable,
    deadline: float | None,
    ratings: Sequence[RatingChange] = (),
    *,
    picture: str | None = None,
    controls: discord.ui.View | None = None,
) -> Layout:
    """The table message as everyone may see it, never a seat's private cards. With its
    ``picture`` (the table drawn) the text says only what the picture cannot: whose turn and
    until when, the deal and its stage, what just happened, the result; without it the text
    carries the table too (the trick, the seats, the piles)."""
    text = renderer(catalog, table)
    record = table.record
    head = [f"### {catalog.text('ui.table.title', game=game_name(catalog, record.game_id))}"]
    foot = [catalog.text("ui.table.host", name=markdown(_host_name(table)))]
    if record.variant != "standard":
        name = variant_name(catalog, record.game_id, record.variant)
        foot.append(catalog.text("ui.table.variant", variant=name))
    body: list[str] = []
    parts: list[str] = []
    game = table.game
    shown = functools.partial(Layout, controls=controls, foot=" · ".join(foot))
    if table.damage is not None and table.live:
        head.append(damage_text(catalog, table))
    if table.damage is not None and game is None:
        if not table.live:
            head.append(_ended_line(catalog, table))
        body += [f"**{catalog.text('ui.table.seats')}**", *lobby_lines(catalog, table)]
        return shown(head=head, body=body)
    if record.status == "lobby" or game is None:
        head += _lobby_lines(catalog, table)
        if record.status == "ended":
            head = [head[0], _ended_line(catalog, table)]
        players = table.spec.min_players, table.spec.max_players
        span = str(players[0]) if players[0] == players[1] else f"{players[0]}–{players[1]}"
        needed = catalog.text("ui.table.seats_needed", players=span)
        body += [f"**{catalog.text('ui.table.seats')}** ({needed})", *lobby_lines(catalog, table)]
        return shown(head=head, body=body)

    # in play the picture comes first, the game's name and the deal's fingerprint go to the
    # small foot line, so the table and *Min hand* fit a phone's screen
    view = table.view(None)
    shown_deal = fingerprint(record.seed, record.table_id, view.deal)
    foot = [head[0].removeprefix("### "), *foot]
    foot.append(catalog.text("verify.fingerprint", fingerprint=shown_deal))
    shown = functools.partial(Layout, controls=controls, foot=" · ".join(foot))
    head = head[1:]
    if table.damage is None or not table.live:
        body.append(_status_lines(catalog, table, view, deadline, trump=picture is None))
    if picture is None:  # the text is the table
        trick = trick_text(text, view)
        if trick is not None:
            body += [f"**{trick[0]}**", trick[1]]
        body += [f"**{catalog.text('ui.table.seats')}**", *_seat_lines(catalog, table, view)]
        piles = [text.pile(p) for p in table_piles(view)]
        if piles:
            body += [f"**{catalog.text('ui.table.piles')}**", *piles]
    else:  # what a crowded table's picture had no room for
        trump = trump_line(text, view, table.spec.trick_taking)
        untold = table_untold(view, text, trump, table.table_id)
        if untold:
            body += [f"**{catalog.text('ui.table.piles')}**", *untold]
    if view.teams:
        body.append(f"**{catalog.text('ui.table.sides')}:** " + " · ".join(text.sides(view)))
    if picture is None:
        events = [text.msg(m) for m in view.events[-EVENTS_SHOWN:]]
    else:
        events = phone_events([text.msg(m) for m in view.events[-PICTURED_EVENTS_SHOWN:]])
    if events:
        body += [f"**{catalog.text('ui.table.events')}**", *events]
    if record.status == "finished" and game.is_over():
        body += [f"**{catalog.text('ui.table.result')}**", _result_lines(catalog, table, ratings)]
    if view.sheet is not None and view.sheet.rows:
        parts.append(f"**{catalog.text('ui.table.sheet')}**\n{sheet_block(text, view)}")
    if not table.live and table.damage is None:
        body.append(f"**{catalog.text('verify.check_title')}**\n{seed_line(catalog, record)}")
    return shown(head=head, picture=picture, body=body, parts=parts)


def phone_events(events: Sequence[str], lines: int = PICTURED_EVENT_LINES) -> list[str]:
    """The latest of ``events`` that fill at most ``lines`` lines of a phone, the latest always."""
    kept: list[str] = []
    for event in reversed(events):
        lines -= text_lines(event)
        if kept and lines < 0:
            break
        kept.insert(0, event)
    return kept


def seed_line(catalog: Catalog, record: TableRecord) -> str:
    """The revealed seed of a match that is over, or when it will be (a table of the day)."""
    if seed_secret(record, discord.utils.utcnow().timestamp()):
        return catalog.text("verify.seed_later")
    return catalog.text("verify.seed", seed=record.seed)


@dataclass(frozen=True, slots=True)
class DealResult:
    """What the listener saw of a deal that is over: the scores when it started and now, the
    events of its end, and the score sheet (for games that keep one)."""

    deal: int
    before: tuple[int, ...]
    after: tuple[int, ...]
    events: tuple[Msg, ...] = ()
    view: View | None = None
    """The spectator's view after the deal, for its score sheet."""


def deal_result_embed(catalog: Catalog, table: LiveTable, result: DealResult) -> discord.Embed:
    """A deal's result as a small score table (each seat's points in the deal and its total),
    the game's own score sheet where it keeps one, and how the deal ended: posted when a deal is
    over, so it stays readable while the next deal is played on the table message."""
    text = renderer(catalog, table)
    game_id = table.record.game_id
    heads = [catalog.text(f"ui.deal_result.{k}") for k in ("player", "deal", "total")]

    def worth(score: int, sign: str = "") -> str:
        """A score with its unit ("+1 p", "2 ritor"), as the seats show it."""
        shown = abs(score) if sign else score
        said = seat_score(catalog, game_id, shown) or str(shown)
        return f"{'-' if score < 0 else '+'}{said}" if sign else said

    changes = [worth(a - b, "+") for a, b in zip(result.after, result.before, strict=True)]
    totals = [worth(a) for a in result.after]
    # the names as a phone's code block has room for them beside the scores
    scores = max(map(columns, [heads[1], *changes])) + max(map(columns, [heads[2], *totals]))
    room = max(PHONE_CODE_COLUMNS - scores - 4, columns(heads[0]))
    names = short_names([text.plain_seat(s) for s in range(len(result.after))], room)
    cells = ([heads[0], *names], [heads[1], *changes], [heads[2], *totals])
    widths = [max(map(columns, column)) for column in cells]
    rows = [(heads[0], heads[1], heads[2]), *zip(names, changes, totals, strict=True)]
    lines = [
        f"{pad_end(a, widths[0])}  {pad_start(b, widths[1])}  {pad_start(c, widths[2])}"
        for a, b, c in rows
    ]
    # a game that keeps its count elsewhere (Reunion's ögon on its sheet) has nothing here
    counted = any(result.after) or result.after != result.before
    embed = discord.Embed(
        title=clip(catalog.text("ui.deal_result.title", deal=result.deal), MAX_TITLE),
        description=clip(code_block(lines), MAX_DESCRIPTION) if counted else None,
        colour=COLOUR,
    )
    if result.view is not None and result.view.sheet is not None and result.view.sheet.rows:
        embed.add_field(
            name=catalog.text("ui.table.sheet"), value=sheet_block(text, result.view), inline=False
        )
    events = [text.msg(m) for m in deal_summary(result.events)]
    if events:
        embed.add_field(
            name=catalog.text("ui.deal_result.events"),
            value=clip("\n".join(events), MAX_FIELD, keep_end=True),
            inline=False,
        )
    return embed


def sheet_block(text: TextRenderer, view: View, limit: int = MAX_FIELD) -> str:
    """The score sheet as a code block (so its columns line up) at a phone's width
    (:data:`PHONE_CODE_COLUMNS`), its header and latest rows, each row whole; its cards in faces
    the code block's font draws (no emoji)."""
    assert view.sheet is not None
    head, rows = text.in_code_block().sheet_rows(view.sheet, PHONE_CODE_COLUMNS)
    room = limit - len(code_block([head]))
    kept: list[str] = []
    for row in reversed(rows):
        room -= sum(len(_unfenced(line)) + 1 for line in row)
        if room < 0:
            break
        kept[:0] = row
    return clip(code_block([head, *kept]), limit)


def code_block(lines: Sequence[str]) -> str:
    """``lines`` in a code block, each :func:`_unfenced`."""
    return "```\n" + "\n".join(map(_unfenced, lines)) + "\n```"


def _unfenced(line: str) -> str:
    """A code block's line with any run of backticks (in a member's name) broken by a zero-width
    space, which the block shows as nothing, so that it cannot end the block early and turn the
    rest of the message into code and the code into text."""
    return line.replace("``", "`\u200b`")


def damage_text(catalog: Catalog, table: LiveTable) -> str:
    """What is wrong with a damaged table, what it shows, and who can end it."""
    damage = table.damage
    assert damage is not None
    key = f"ui.damage.{damage.reason}"
    what = catalog.text(key, seq=damage.seq or 0) if catalog.has(key) else damage.reason
    lines = [catalog.text("ui.damage.notice", what=what)]
    if table.game is not None:
        lines.append(catalog.text("ui.damage.kept", moves=table.seq))
    lines.append(catalog.text("ui.damage.end"))
    return "\n".join(lines)


def _host_name(table: LiveTable) -> str:
    for s in table.record.seats:
        if s.user_id == table.record.host_id:
            return s.name
    return "–"


def _ended_line(catalog: Catalog, table: LiveTable) -> str:
    reason = table.record.end_reason or "idle"
    key = f"ui.end_reason.{reason}"
    return catalog.text("ui.table.ended", reason=catalog.text(key) if catalog.has(key) else reason)


def _status_lines(
    catalog: Catalog, table: LiveTable, view: View, deadline: float | None, *, trump: bool = True
) -> str:
    """Whose turn and the deadline first, then the deal and its stage, then the trump (unless
    the picture shows it); the deal's fingerprint is in the message's foot."""
    text = renderer(catalog, table)
    record = table.record
    if record.status == "ended":
        return _ended_line(catalog, table)
    if record.status == "finished":
        return catalog.text("ui.table.finished")
    lines = []
    if record.status == "paused":
        # the shutdown before a restart; the deadline is given afresh when play resumes
        lines.append(catalog.text("ui.table.paused"))
    lines += [timeout_line(catalog, table, t, None) for t in table.recent_timeouts()]
    if view.to_act:
        names = ", ".join(f"**{text.seat(s)}**" for s in sorted(view.to_act))
        if deadline is not None:
            lines.append(
                catalog.text("ui.table.turn_deadline", names=names, deadline=timestamp(deadline))
            )
        else:
            lines.append(catalog.text("ui.table.turn", names=names))
    lines.append(f"{catalog.text('ui.table.deal', deal=view.deal)} · {text.msg(view.phase)}")
    trump_text = trump_line(text, view, table.spec.trick_taking) if trump else None
    if trump_text is not None:
        lines.append(trump_text)
    return "\n".join(lines)


def timeout_line(catalog: Catalog, table: LiveTable, timed_out: TimedOut, seat: Seat | None) -> str:
    """What the computer did for a seat whose time ran out, in words: "Tiden gick ut för Bo:
    datorn lade budkort" (``seat``: the reader's own seat, "för dig"). Cards laid face down are
    never named to the others."""
    text = renderer(catalog, table)
    game_id = table.record.game_id
    choice = choice_of(timed_out.notation)
    own = seat == timed_out.seat
    name = catalog.text("layout.timeout.you") if own else text.seat(timed_out.seat)
    hidden = not own and not timed_out.public  # the others learn what was done, never which cards
    if not choice.verb:
        if hidden:
            return catalog.text("layout.timeout.played_hidden", name=name)
        cards = text.action(game_id, timed_out.notation)
        return catalog.text("layout.timeout.played", name=name, cards=cards)
    what = "" if hidden else " ".join(faces_of_codes(a, text.faces) for a in choice.args)
    for key in (f"layout.did.{game_id}.{choice.verb}", f"layout.did.{choice.verb}"):
        if catalog.has(key):
            did = catalog.text(key, what=what).strip()
            return catalog.text("layout.timeout.did", name=name, did=did)
    action = text.action(game_id, choice.verb if hidden else timed_out.notation)
    return catalog.text("layout.timeout.chose", name=name, action=action)


def _seat_lines(catalog: Catalog, table: LiveTable, view: View) -> list[str]:
    """One short line per seat: name, cards in hand, tricks, score, cards shown, public notes."""
    text = renderer(catalog, table)
    lines = []
    for seat, info in enumerate(view.seats):
        parts = [catalog.text("view.cards", count=info.cards)]
        if info.tricks is not None:
            parts.append(catalog.text("view.tricks", count=info.tricks))
        if (score := seat_score(catalog, view.game, info.score)) is not None:
            parts.append(score)
        if info.shown:
            parts.append(catalog.text("view.shown", cards=text.faces_of(sort_hand(info.shown))))
        parts.extend(text.msg(n) for n in info.notes)
        name = f"**{text.seat(seat)}**"
        name = seat_label(catalog, table, seat, name, dealer=seat == view.dealer)
        if seat in view.to_act:
            name = f"▶ {name}"
        lines.append(f"{name}: {' · '.join(parts)}")
    return lines


def _result_lines(catalog: Catalog, table: LiveTable, ratings: Sequence[RatingChange]) -> str:
    assert table.game is not None
    text = renderer(catalog, table)
    lines = result_lines(text, table.game.result(), table.view(None).teams)
    by_user = {s.user_id: markdown(s.name) for s in table.record.seats if s.user_id is not None}
    lines += [
        catalog.text(
            "ui.table.rating",
            name=by_user.get(change.user_id, "?"),
            before=f"{change.before:.0f}",
            after=f"{change.after:.0f}",
        )
        for change in ratings
    ]
    return "\n".join(lines)


# --- private texts: the hand panel and the DM -----------------------------------------------------


def hand_line(catalog: Catalog, view: View, game_id: str = "") -> str:
    if not view.hand:
        return no_hand(catalog, view, game_id)
    return catalog.text("ui.panel.hand", cards=hand_faces(catalog, view, DISCORD.speaking(catalog)))


def no_hand(catalog: Catalog, view: View, game_id: str) -> str:
    """What a seat without cards in hand is told: where its cards lie, in its game's words,
    when they lie face down before it (Hej knekt's pile), else that it holds none."""
    own = f"{game_id}.panel.pile"
    held = view.seats[view.seat].cards if view.seat is not None else 0
    if held and catalog.has(own):
        return catalog.text(own, count=held)
    return catalog.text("ui.panel.no_hand")


def panel_text(
    catalog: Catalog,
    table: LiveTable,
    seat: Seat,
    *,
    done: str | None = None,
    picture: bool = False,
) -> str:
    """The text of a seat's ephemeral panel: hand (unless its ``picture`` shows it), stage,
    whose turn, private notes."""
    assert table.game is not None
    text = renderer(catalog, table)
    view = table.view(seat)
    lines = [f"**{catalog.text('ui.panel.title', game=game_name(catalog, table.record.game_id))}**"]
    if done is not None:
        lines.append(catalog.text("ui.panel.taken", action=text.action(table.record.game_id, done)))
    if not picture or not view.hand:
        lines.append(hand_line(catalog, view, table.record.game_id))
    lines.append(text.msg(view.phase))
    lines += [
        timeout_line(catalog, table, t, seat) for t in table.recent_timeouts() if t.seat == seat
    ]
    if table.taken_over(seat):
        lines.append(catalog.text("ui.panel.autoplay"))
    elif seat in view.to_act:
        lines.append(catalog.text("ui.panel.your_turn"))
    elif view.to_act:
        lines.append(catalog.text("ui.panel.wait"))
    if table.record.status == "finished" and table.game.is_over():
        lines.append(f"**{catalog.text('ui.table.result')}**")
        lines.append(_result_lines(catalog, table, table.ratings))
    public = table.view(None)
    shared = [n for n in view.notes if n in public.notes]  # a rule of the table, such as a time
    lines += [text.msg(n) for n in shared]
    private = [m for m in view.events if m not in public.events][-PRIVATE_EVENTS_SHOWN:]
    notes = [n for n in view.notes if n not in shared]
    mine = list(dict.fromkeys(text.msg(m) for m in (*notes, *private)))
    if mine:
        lines.append(f"*{catalog.text('ui.panel.notes')}:* " + " · ".join(mine))
    return clip("\n".join(lines), MAX_CONTENT, keep_end=True)


def dm_text(catalog: Catalog, table: LiveTable, seat: Seat, guild_name: str) -> str:
    """The DM a seated member gets at each deal, kept current: the hand and nothing else."""
    assert table.game is not None
    view = table.view(seat)
    if view.hand:
        cards = hand_faces(catalog, view, DISCORD.speaking(catalog))
    else:
        cards = no_hand(catalog, view, table.record.game_id)
    body = catalog.text(
        "ui.dm.hand",
        game=game_name(catalog, table.record.game_id),
        guild=guild_name,
        cards=cards,
    )
    return clip(f"{body}\n-# {catalog.text('ui.dm.deal', deal=view.deal)}", MAX_CONTENT)


# --- information commands -------------------------------------------------------------------------


def _field_parts(text: str, limit: int = MAX_FIELD) -> list[str]:
    """``text`` in parts that fit a field, cut between sentences."""
    parts: list[str] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if parts and len(parts[-1]) + 1 + len(sentence) <= limit:
            parts[-1] += " " + sentence
        else:
            parts.append(clip(sentence, limit))
    return parts


def rules_embed(catalog: Catalog, game_id: str) -> discord.Embed:
    """A game's rules, one field per section (deck, deal, play, scoring, variants)."""
    name = game_name(catalog, game_id)
    embed = discord.Embed(
        title=clip(catalog.text("ui.rules.title", game=name), MAX_TITLE), colour=COLOUR
    )
    sections = rule_sections(catalog, game_id)
    for heading, text in sections:
        for number, part in enumerate(_field_parts(text)):  # a long section goes on unnamed
            embed.add_field(name=heading if number == 0 else "\u200b", value=part, inline=False)
    if not sections:
        embed.description = catalog.text("ui.rules.none", game=name)
    # what every game's computer players may know, and how anyone checks the deals (bot/verify.py)
    embed.add_field(
        name=catalog.text("verify.computers_title"),
        value=clip(catalog.text("verify.computers"), MAX_FIELD),
        inline=False,
    )
    return embed


@functools.cache
def _kinds_of_turns(game_id: str) -> tuple[bool, bool]:
    """Whether the game's turns play cards, and whether they make other choices (bids, draws,
    declarations), as ``turn_time`` times them: read from a sample match, once per game."""
    game = SPECS[game_id].new(SPECS[game_id].min_players, None, random.Random(0))
    rng = random.Random(0)
    kinds: set[bool] = set()
    for _ in range(400):
        if game.is_over() or len(kinds) == 2:
            break
        seat = min(game.to_act())
        legal = game.legal_actions(seat)
        kinds.add(turn_time(1, game, seat) == 1)
        game.apply(seat, rng.choice(legal))
    return True in kinds, False in kinds


def _default_reaction_ms(game_id: str) -> int:
    """The reaction time a realtime game's options give when the table chose none."""
    value = getattr(SPECS[game_id].options_type(), REACTION_OPTION, 5000)
    return int(value) if isinstance(value, int) else 5000


def help_embed(catalog: Catalog) -> discord.Embed:
    """How to play with Kortbord: a table, a hand, the commands and the games."""
    games = ", ".join(game_name(catalog, game_id) for game_id in sorted(SPECS))
    lines = [catalog.text(f"ui.help.{part}") for part in ("start", "play", "commands")]
    lines.append(catalog.text("ui.help.games", games=games))
    return discord.Embed(
        title=catalog.text("ui.help.title"), description="\n\n".join(lines), colour=COLOUR
    )


def leaderboard_embed(
    catalog: Catalog, game_id: str, standings: Sequence[Standing]
) -> discord.Embed:
    name = game_name(catalog, game_id)
    lines = [
        catalog.text(
            "ui.leaderboard.line",
            rank=rank,
            name=markdown(s.name),
            rating=f"{s.rating:.0f}",
            wins=s.wins,
            games=s.games,
        )
        for rank, s in enumerate(standings, start=1)
    ]
    return discord.Embed(
        title=clip(catalog.text("ui.leaderboard.title", game=name), MAX_TITLE),
        description=clip("\n".join(lines) or catalog.text("ui.leaderboard.empty", game=name), 4096),
        colour=COLOUR,
    ).set_footer(text=catalog.text("ui.leaderboard.how"))


def stats_embed(catalog: Catalog, member_name: str, stats: Sequence[GameStats]) -> discord.Embed:
    member_name = markdown(member_name)
    embed = discord.Embed(
        title=clip(catalog.text("ui.stats.title", name=member_name), MAX_TITLE), colour=COLOUR
    )
    if not stats:
        embed.description = catalog.text("ui.stats.empty", name=member_name)
    for s in stats[:25]:
        places = (
            ", ".join(
                catalog.text("place.times", place=place_name(catalog, number), count=times)
                for number, times in enumerate(s.places, 1)
                if times
            )
            or "–"
        )
        embed.add_field(
            name=game_name(catalog, s.game_id),
            value=catalog.text(
                "ui.stats.line", rating=f"{s.rating:.0f}", wins=s.wins, games=s.games, places=places
            ),
            inline=False,
        )
    return embed


def settings_embed(
    catalog: Catalog, settings: GuildSettings, language: str, turn_seconds: int, reaction: int
) -> discord.Embed:
    channels = ", ".join(f"<#{c}>" for c in settings.table_channels)
    yes_no = catalog.text("ui.settings.yes" if settings.thread_per_table else "ui.settings.no")
    lines = [
        catalog.text("ui.settings.language", language=catalog.text(f"commands.choice.{language}")),
        catalog.text("ui.settings.thread", value=yes_no),
        catalog.text("ui.settings.turn_seconds", seconds=turn_seconds),
        catalog.text("ui.settings.reaction_seconds", seconds=reaction),
        catalog.text(
            "ui.settings.channels", channels=channels or catalog.text("ui.settings.any_channel")
        ),
        catalog.text(
            "ui.settings.pictures",
            value=catalog.text("ui.settings.yes" if settings.pictures else "ui.settings.no"),
        ),
    ]
    return discord.Embed(
        title=catalog.text("ui.settings.title"), description="\n".join(lines), colour=COLOUR
    )
