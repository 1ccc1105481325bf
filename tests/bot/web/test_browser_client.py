"""The web table in a real browser (Debian's Chromium, headless, through Playwright) against the
demo's real stack: the bot on SimCord, its web server and its one session manager
(``real_table.py``). What is tested is what a member sees and does in the page, and that the page
and the channel's table message always show the same table. Computer players move without a
pause; simulated time moves only when a test moves it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocket, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from real_table import ACCESS_TOKEN, DIST, MOCK_CODE, Stack, serving

from bot.discord.embeds import renderer
from bot.i18n import catalog
from bot.render.colours import FOUR_COLOUR_DECK
from bot.render.text import PLAIN
from bot.web.auth import WebUser
from games import registry
from games.cards import code as card_code
from games.cards import parse_card

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SHOTS = os.environ.get("KORTBORD_WEB_SHOTS")  # a folder: the layout test saves its pictures there
MOVES = 3000  # a bound on a whole match's moves in the page
CLICK_MS = 3000  # a bound on one click, never a pause
PAGE_MS = 30_000  # a bound on the page showing what the bot did, never a pause

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium (./dev test)"),
    pytest.mark.skipif(
        not (DIST / "index.html").exists(), reason="needs the built client (./dev test builds it)"
    ),
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with serving(tmp_path) as running:
        yield running


@pytest.fixture
def page(browser: Browser, stack: Stack) -> Iterator[Page]:
    """A tab at 1280×800, closed before the stack stops."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    tab = context.new_page()
    tab.set_default_timeout(PAGE_MS)
    yield tab
    context.close()


RESTART_MS = 60_000
"""A bound on the page noticing a restart and signing in again: waited for, never a pause."""


def open_page(
    page: Page, stack: Stack, member: str | None, table_id: int, lang: str = "sv"
) -> None:
    """The page signed in as ``member`` with the demo's picker (None: Cilla, who sits nowhere),
    showing table ``table_id``."""
    who = stack.member_id(member or "Cilla")
    page.goto(f"{stack.url}?member={who}&table={table_id}&lang={lang}")
    page.wait_for_selector(f".table-screen[data-table='{table_id}']")


def version(page: Page) -> int:
    return int(page.get_attribute(".table-screen", "data-version") or 0)


def wait_past(page: Page, seen: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('.table-screen')?.dataset.version) > {seen}"
    )


def hand_codes(page: Page) -> list[str]:
    return [
        str(c) for c in page.locator(".hand .card").evaluate_all("e => e.map(c => c.dataset.card)")
    ]


def frames_of(page: Page) -> list[str]:
    """Every WebSocket frame the page receives from now on."""
    frames: list[str] = []

    def record(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(str(payload)))

    page.on("websocket", record)
    return frames


# --- signing in -------------------------------------------------------------------------------


def test_demo_member_picker_signs_in_and_lists_the_channels_tables(
    page: Page, stack: Stack
) -> None:
    mine = stack.open_table("braus")
    theirs = stack.open_table("piquet", ("Bo",))
    page.goto(f"{stack.url}?lang=sv")
    page.get_by_role("button", name="Anna").click()
    # The member's only seat opens at once; back at the list, another table can be watched.
    page.wait_for_selector(f".table-screen[data-table='{mine.table_id}'] .seat.you")
    page.get_by_role("button", name="Alla bord").click()
    entry = page.locator(f".table-entry[data-table='{mine.table_id}']")
    assert entry.locator("button", has_text="Till din plats").count() == 1
    assert "Anna" in entry.inner_text()
    page.locator(f".table-entry[data-table='{theirs.table_id}'] button", has_text="Titta").click()
    page.wait_for_selector(f".table-screen[data-table='{theirs.table_id}']")
    assert page.locator(".seat.you").count() == 0
    assert page.locator(".hand .card").count() == 0


def test_discord_handshake_with_the_sdks_own_mock(page: Page, stack: Stack) -> None:
    """ready, authorize (identify), the code exchanged at the bot for Discord's token, authenticate
    with the access token, then the socket says hello with the bot's session: Anna at her seat."""
    table = stack.open_table("piquet")
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    page.goto(f"{stack.url}sdk-mock.html?channel_id={stack.channel.id}&lang=en")
    page.wait_for_selector(f".table-screen[data-table='{table.table_id}'] .seat.you")
    assert stack.exchanged == [MOCK_CODE]
    authorize = next(line for line in said if "authorize(" in line)
    assert '"identify"' in authorize
    assert any("authenticate(" in line and ACCESS_TOKEN in line for line in said)
    assert page.locator(".seat.you .seat-name").inner_text() == "Anna"


def test_a_session_the_bot_did_not_issue_is_answered_in_words(page: Page, stack: Stack) -> None:
    page.route("**/api/demo/login", lambda route: route.fulfill(json={"session": "forged"}))
    page.goto(f"{stack.url}?member={stack.member_id('Anna')}&lang=sv")
    text = catalog("sv").text("web.error.no_session")
    page.wait_for_selector(f".status-text:has-text('{text}')")
    assert page.locator(".table-screen").count() == 0


def test_after_the_server_restarts_the_demo_page_signs_in_again_at_the_same_seat(
    page: Page, stack: Stack
) -> None:
    table = stack.open_table("piquet")
    open_page(page, stack, "Anna", table.table_id)
    before = version(page)
    # The page reconnects, is told its session is unknown, signs in again as the member it
    # picked, and shows the same table at the same seat: no click, no words of failure. Waited
    # for by its new sign-in (the page still shows the old table until it notices the restart).
    with page.expect_request("**/api/demo/login", timeout=RESTART_MS):
        stack.restart_web()
    page.wait_for_function(
        "() => !document.querySelector('.banner.shown')"
        f" && document.querySelector(\".table-screen[data-table='{table.table_id}'] .seat.you\")"
    )
    assert page.locator(".status-text").count() == 0
    assert page.locator(".seat.you .seat-name").inner_text() == "Anna"
    assert version(page) >= before
    if page.locator(".hand .card.playable").count():  # and it still plays
        page.locator(".hand .card.playable").first.click()
        wait_past(page, version(page))


def test_after_the_server_restarts_discords_page_authorizes_again(page: Page, stack: Stack) -> None:
    table = stack.open_table("piquet")
    page.goto(f"{stack.url}sdk-mock.html?channel_id={stack.channel.id}&lang=en")
    page.wait_for_selector(f".table-screen[data-table='{table.table_id}'] .seat.you")
    with page.expect_request("**/api/token", timeout=RESTART_MS):  # Discord's authorize again
        stack.restart_web()
    page.wait_for_function(
        "() => !document.querySelector('.banner.shown')"
        f" && document.querySelector(\".table-screen[data-table='{table.table_id}'] .seat.you\")"
    )
    assert stack.exchanged == [MOCK_CODE, MOCK_CODE]  # Discord's authorize, asked again
    assert page.locator(".status-text").count() == 0


# --- the lobby and playing ----------------------------------------------------------------------


def test_the_lobby_adds_a_computer_and_starts_from_the_page(page: Page, stack: Stack) -> None:
    table = stack.open_table("hej_knekt", started=False)
    open_page(page, stack, "Anna", table.table_id)
    labels = page.locator(".actions button.action").all_inner_texts()
    sv = catalog("sv")
    # The lobby's buttons are offers, not a turn: the page says the table waits.
    assert page.locator(".prompt").inner_text() == sv.text("web.page.lobby_waiting")
    assert page.locator(".prompt.your-turn").count() == 0
    assert labels == [sv.text(f"ui.button.{op}") for op in ("computer", "start", "leave")]
    seen = version(page)
    page.locator(".actions button.action[data-notation='computer']").click()
    wait_past(page, seen)
    assert page.locator(".seat").count() == 2
    # A seat is still empty: the page asks first, as Discord does, in Discord's words.
    page.locator(".actions button.action[data-notation='start']").click()
    question = page.locator(".question")
    assert question.locator(".question-text").inner_text() == sv.counted("ui.confirm.start", 1)
    question.locator("button.cancel").click()
    assert page.locator(".question").count() == 0
    assert stack.live(table.table_id).record.status == "lobby"
    page.locator(".actions button.action[data-notation='start']").click()
    yes = page.locator(".question button.yes")
    assert yes.inner_text() == sv.text("ui.button.startfill")
    seen = version(page)
    yes.click()
    wait_past(page, seen)
    page.wait_for_selector(".table-screen[data-status='playing']")
    assert stack.live(table.table_id).record.status == "playing"
    assert "Lägg till datorspelare" not in stack.table_message_text()


def test_a_table_opened_in_the_page_shows_in_both_tabs_and_in_the_channel(
    browser: Browser, stack: Stack
) -> None:
    """In a channel with no table the page offers the games; Anna opens Femkort in one tab, and
    that tab and her other one both go to her seat, and the channel gets the table message."""
    channel = stack.fresh_channel("tom")
    assert channel.guild is not None
    url = (
        f"{stack.url}?member={stack.member_id('Anna')}&channel_id={channel.id}"
        f"&guild_id={channel.guild.id}&lang=sv"
    )
    context = browser.new_context(viewport={"width": 360, "height": 740})
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.set_default_timeout(PAGE_MS)
        tab.goto(url)
        tab.wait_for_selector(".games button[data-game='femkort']")
    first.click(".games button[data-game='femkort']")
    for tab in (first, second):
        tab.wait_for_selector(".table-screen[data-status='lobby'][data-game='femkort']")
    table = stack.table()
    assert table is not None
    assert table.record.channel_id == channel.id
    assert table.record.host_id == stack.member_id("Anna")
    assert "Femkort" in stack.table_message_text()
    assert "Sätt dig" in stack.channel_buttons()
    context.close()
    stack.end_table()


def test_the_page_words_cards_and_buttons_as_the_channel_does(page: Page, stack: Stack) -> None:
    """The join button, the cards' indices, the suits' names and the four-colour deck are the
    catalogs' and ``bot.render.colours``'s, the same as in Discord and the terminal."""
    lobby = stack.open_table("piquet", ("Bo",), started=False)
    page.goto(f"{stack.url}?member={stack.member_id('Cilla')}&lang=sv")
    join = page.locator(f".table-entry[data-table='{lobby.table_id}'] button.join")
    assert join.inner_text() == catalog("sv").text("ui.button.join") == "Sätt dig"
    table = stack.open_table("braus")
    for lang in ("sv", "en"):
        texts = catalog(lang)
        faces = PLAIN.speaking(texts)
        open_page(page, stack, "Anna", table.table_id, lang)
        cards = page.locator(".hand .card.face")
        cards.first.wait_for()
        shown = cards.evaluate_all(
            """e => e.map(c => [c.dataset.card, c.querySelector('.index').textContent,
                c.getAttribute('aria-label'), getComputedStyle(c).color,
                getComputedStyle(c.querySelector('.middle path')).fill])"""
        )
        assert shown
        for card, index, label, colour, fill in shown:
            suit = parse_card(card) // 13
            r, g, b = FOUR_COLOUR_DECK[suit].rgb
            assert index == faces.ranks[card[0]]
            assert label == f"{index} {texts.text(f'table.suit.{card[1]}')}"
            assert colour == fill == f"rgb({r}, {g}, {b})"


def test_only_playable_cards_are_raised_and_one_click_plays(page: Page, stack: Stack) -> None:
    table = stack.open_table("braus")
    open_page(page, stack, "Anna", table.table_id)
    game = table.game
    assert game is not None
    legal = {game.notation(a) for a in game.legal_actions(0)}
    raised = page.locator(".hand .card.playable")
    raised.first.wait_for()
    codes = set(raised.evaluate_all("e => e.map(c => c.dataset.card)"))
    assert codes == {n for n in legal if len(n) == 2}
    seen = version(page)
    played = sorted(codes)[0]
    page.locator(f".hand .card[data-card='{played}']").click()
    wait_past(page, seen)
    assert played not in hand_codes(page)
    log = stack.run(stack.bot.storage.actions(table.table_id))
    assert [a.notation for a in log if a.by == "member"] == [played]
    # Bräus counts ritor, not points: the seats say so in its words
    scores = page.locator(".seat .score").all_inner_texts()
    assert scores
    assert all(re.fullmatch(r"\d+ ritor?", s) for s in scores)


def test_the_deadline_counts_down_on_the_servers_clock(page: Page, stack: Stack) -> None:
    table = stack.open_table("piquet")
    open_page(page, stack, "Anna", table.table_id)

    async def left() -> float:  # on the bot's clock (Stack.run): SimCord's simulated time
        deadline = stack.bot.sessions.deadline(table)
        assert deadline is not None
        return deadline - stack.bot.sessions.clock.now()

    seconds = stack.run(left())
    assert seconds > 30
    shown = page.locator(".bar .deadline").inner_text()
    minutes, secs = shown.split(":")
    assert abs(int(minutes) * 60 + int(secs) - seconds) <= 2  # not the browser's own clock


def test_pick_then_confirm_lays_nittionios_three_bid_cards(page: Page, stack: Stack) -> None:
    table = stack.open_table("nittionio")
    open_page(page, stack, "Anna", table.table_id)
    confirm = page.locator(".confirm-row .confirm")
    assert confirm.is_disabled()
    cards = page.locator(".hand .card.pickable")
    for i in range(3):
        cards.nth(i).click()
    assert page.locator(".hand .card.picked").count() == 3
    ready = page.locator(".confirm-row .confirm[data-notation^='bid ']")
    assert ready.is_enabled()
    seen = version(page)
    ready.click()
    wait_past(page, seen)
    assert len(hand_codes(page)) == 9  # twelve dealt, three laid as bid cards
    log = stack.run(stack.bot.storage.actions(table.table_id))
    assert any(a.notation.startswith("bid ") and a.seat == 0 for a in log)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("nittionio", None),
        ("piquet", None),
        ("femhundra", None),
        ("braus", None),
        ("hej_knekt", "max_turns=60"),
    ],
)
def test_a_whole_match_is_played_in_the_web_table(
    page: Page, stack: Stack, game_id: str, options: str | None
) -> None:
    table = stack.open_table(game_id, options=options)
    open_page(page, stack, "Anna", table.table_id)
    taken = 0
    for _ in range(MOVES):
        if page.locator(".result-overlay").count():
            break
        seen = version(page)
        if not move(page):
            stack.run(stack.settle())
            if table.version == seen and table.record.status == "playing":
                stack.advance(1.0)  # a reaction window closes, or a turn's time runs out
            if table.version == seen:
                continue
        wait_past(page, seen)
        taken += page.locator(".ghosts .taken").count()
    result = page.locator(".result-overlay")
    result.wait_for()
    assert table.record.status == "finished"
    assert result.locator(".places li").count() == len(table.record.seats)
    log = stack.run(stack.bot.storage.actions(table.table_id))
    assert any(a.by == "member" for a in log)
    assert any(a.by == "computer" for a in log)
    if game_id in ("nittionio", "piquet"):
        assert taken > 0, "no trick was seen going to its winner"


def move(page: Page) -> bool:
    """One move as a member makes it: a raised card, else cards picked and confirmed, else the
    first button; False when the page offers nothing."""
    try:
        return press(page)
    except PlaywrightTimeout:  # the table moved on meanwhile (a forced pass played for you)
        return False


def press(page: Page) -> bool:
    raised = page.locator(".hand .card.playable")
    if raised.count():
        raised.first.click(timeout=CLICK_MS)
        return True
    pickable = page.locator(".hand .card.pickable")
    ready = page.locator(".confirm-row .confirm[data-notation]")
    for i in range(pickable.count()):
        if ready.count():
            break
        pickable.nth(i).click(timeout=CLICK_MS)
    if ready.count():
        ready.first.click(timeout=CLICK_MS)
        return True
    buttons = page.locator(".actions button.action:not([disabled])")
    if buttons.count():
        buttons.first.click(timeout=CLICK_MS)
        return True
    return False


# --- one table, two ways to sit at it -----------------------------------------------------------


def test_a_move_in_the_page_shows_on_the_table_message_and_the_other_way(
    page: Page, stack: Stack
) -> None:
    table = stack.open_table("tvamanswhist", ("Anna", "Bo"))
    game = table.game
    assert game is not None
    mover = (
        "Anna"
        if table.record.seats[min(game.to_act())].user_id == stack.member_id("Anna")
        else "Bo"
    )
    other = "Bo" if mover == "Anna" else "Anna"
    stack.pictures_off(table.record.guild_id)  # the message's text then shows the trick
    open_page(page, stack, mover, table.table_id)
    card = page.locator(".hand .card.playable").first
    played = str(card.get_attribute("data-card"))
    face = renderer(catalog("sv"), table).face(parse_card(played))
    assert face not in stack.table_message_text()
    seen = version(page)
    card.click()
    wait_past(page, seen)
    assert face in stack.table_message_text()  # the channel shows the page's move

    # now a move with the channel's buttons, shown in the page
    seen = version(page)
    answer = stack.click_in_channel(other, label="Min hand")
    panel = answer.response
    assert panel is not None
    stack.run(_play_first(stack, other, panel))
    wait_past(page, seen)
    last = stack.run(stack.bot.storage.actions(table.table_id))[-1]
    assert last.by == "member"
    on_felt = page.locator(".trick .card, .pile .card").evaluate_all(
        "e => e.map(c => c.dataset.card)"
    )
    assert last.notation in on_felt


async def _play_first(stack: Stack, name: str, panel: object) -> None:
    from members import play_first_legal

    await play_first_legal(stack.members[name], panel)
    await stack.settle()


def test_forged_messages_change_nothing_and_are_answered(page: Page, stack: Stack) -> None:
    table = stack.open_table("tvamanswhist", ("Anna", "Bo"))
    open_page(page, stack, "Cilla", table.table_id)  # any page: the socket is opened below
    assert stack.web.hub is not None
    session = stack.web.hub.issued.issue(WebUser(stack.member_id("Anna"), "Anna"))
    game = table.game
    assert game is not None
    anna_seat = next(s.seat for s in table.record.seats if s.user_id == stack.member_id("Anna"))
    other = 1 - anna_seat
    mine = [game.notation(a) for a in game.legal_actions(anna_seat)]
    theirs = [game.notation(a) for a in game.legal_actions(other)]
    version_now = table.version
    tid = table.table_id
    forged = [
        ("hello-less", None),
        ("garbage", "{not json"),
        ("unknown", json.dumps({"type": "shuffle", "table_id": tid})),
        (
            "elsewhere",
            json.dumps(
                {"type": "act", "table_id": tid + 99, "version": version_now, "notation": "x"}
            ),
        ),
        (
            "stale",
            json.dumps(
                {
                    "type": "act",
                    "table_id": tid,
                    "version": version_now - 1,
                    "notation": (mine or theirs)[0],
                }
            ),
        ),
        (
            "not offered",
            json.dumps(
                {"type": "act", "table_id": tid, "version": version_now, "notation": "AS AS"}
            ),
        ),
        (
            "other seat",
            json.dumps(
                {
                    "type": "act",
                    "table_id": tid,
                    "version": version_now,
                    "notation": (theirs or ["2C"])[0],
                }
            ),
        ),
    ]
    answers = page.evaluate(
        """async ([session, tid, forged]) => {
          const url = location.origin.replace('http', 'ws') + '/ws';
          const talk = (socket, text) => new Promise((done) => {
            const seen = [];
            socket.onmessage = (e) => {
              const m = JSON.parse(e.data);
              seen.push(m);
              if (['refused', 'error', 'ack'].includes(m.type)) done(seen);
            };
            socket.send(text);
          });
          const open = () => new Promise((done) => {
            const s = new WebSocket(url);
            s.onopen = () => done(s);
          });
          const out = {};
          const bare = await open();
          const watch = JSON.stringify({type: 'watch', table_id: tid});
          out['no session'] = (await talk(bare, watch)).pop();
          const socket = await open();
          await new Promise((done) => {
            socket.onmessage = (e) => {
              if (JSON.parse(e.data).type === 'state') done();
            };
            const hello = {type: 'hello', session, channel_id: null, table_id: tid, lang: 'sv'};
            socket.send(JSON.stringify(hello));
          });
          for (const [name, text] of forged) {
            if (text !== null) out[name] = (await talk(socket, text)).pop();
          }
          return out;
        }""",
        [session, tid, forged],
    )
    sv = catalog("sv")
    assert answers["no session"]["type"] == "error"
    assert answers["no session"]["message"] == sv.text("web.error.no_session")
    for name in ("garbage", "unknown", "elsewhere", "stale", "not offered", "other seat"):
        answer = answers[name]
        assert answer["type"] == "refused", name
        assert answer["message"], name  # answered in words
    assert answers["garbage"]["message"] == sv.text("web.error.bad_message")
    assert answers["unknown"]["message"] == sv.text("web.error.unknown_type")
    assert answers["elsewhere"]["message"] == sv.text("web.error.not_watching")
    assert table.version == version_now
    assert table.seq == 0
    assert stack.run(stack.bot.storage.actions(tid)) == []


# --- what a spectator sees --------------------------------------------------------------------


def test_a_spectators_page_and_frames_never_hold_a_hidden_card(page: Page, stack: Stack) -> None:
    frames = frames_of(page)
    table = stack.open_table("nittionio", ("Anna", "Bo", "Dag"))
    open_page(page, stack, None, table.table_id)
    members = {stack.member_id(n): n for n in ("Anna", "Bo", "Dag")}
    for _ in range(40):
        game = table.game
        assert game is not None
        public = game.view(None)
        shown = {card_code(c) for s in public.seats for c in s.shown}
        hidden: set[str] = set()
        for seat in range(len(public.seats)):
            hidden |= {card_code(c) for c in game.view(seat).hand} - shown
        # (the last trick's cards flying to their winner are left out: they were played face up)
        on_page = set(
            page.locator(".screen [data-card]").evaluate_all("e => e.map(c => c.dataset.card)")
        )
        assert not on_page & hidden
        assert frames, "no frame was seen"
        assert not [c for c in hidden if f'"{c}"' in frames[-1] or f" {c}" in frames[-1]]
        assert page.locator(".hand .card").count() == 0
        if game.is_over():
            break
        seen = version(page)

        async def act() -> None:
            await stack.settle()
            game = table.game
            assert game is not None
            seat = min(game.to_act())
            user_id = table.record.seats[seat].user_id
            assert user_id in members
            notation = game.notation(game.legal_actions(seat)[0])
            await stack.bot.sessions.act(table.table_id, user_id, table.version, notation)
            await stack.settle()

        stack.run(act())
        wait_past(page, seen)
    assert len(frames) > 10


def test_a_table_ended_by_its_host_says_so_plainly(page: Page, stack: Stack) -> None:
    table = stack.open_table("piquet", ("Anna", "Bo"))
    open_page(page, stack, "Bo", table.table_id)
    stack.end_table()
    sv = catalog("sv")
    notice = page.locator(".ended-overlay")
    notice.wait_for()
    assert sv.text("web.page.table_ended") in notice.inner_text()
    assert sv.text("web.page.table_ended_note") in notice.inner_text()
    notice.get_by_role("button", name=sv.text("web.page.back")).click()
    page.wait_for_selector(".panel.tables")


def boxes_of(page: Page, selector: str) -> list[dict[str, float]]:
    return [
        {str(k): float(v) for k, v in box.items()}
        for box in page.locator(selector).evaluate_all(
            "e => e.map(n => { const r = n.getBoundingClientRect();"
            " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })"
        )
    ]


def test_every_event_line_shows_whole_and_the_banner_leaves_the_header_free(
    browser: Browser, stack: Stack
) -> None:
    table = stack.open_table("skitgubbe")
    context = browser.new_context(viewport={"width": 360, "height": 740})
    tab = context.new_page()
    tab.set_default_timeout(PAGE_MS)
    open_page(tab, stack, "Anna", table.table_id)
    for _ in range(12):  # moves until the events fill their box
        if tab.locator(".events li").count() >= 4:
            break
        playable = tab.locator(".hand .card.playable, .actions button.action")
        seen = version(tab)
        playable.first.click()
        wait_past(tab, seen)
    [box] = boxes_of(tab, ".events")
    lines = boxes_of(tab, ".events li")
    assert len(lines) >= 2
    for line in lines:  # no line is cut at the top or the bottom of the box
        assert line["top"] >= box["top"] - 0.5
        assert line["bottom"] <= box["bottom"] + 0.5

    stack.stop_web()
    tab.wait_for_selector(".banner.shown")
    [banner] = boxes_of(tab, ".banner")
    for part in boxes_of(tab, ".bar button, .bar .title"):
        assert part["top"] >= banner["bottom"] - 0.5, "the banner covers the header"
    stack.start_web()
    tab.wait_for_selector(".banner.shown", state="hidden")
    context.close()


# --- the layout -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shared_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with serving(tmp_path_factory.mktemp("layout")) as running:
        yield running


SCREENS = ((360, 740, "phone"), (768, 1024, "tablet"), (1280, 800, "desktop"))

BOXES = """() => {
  const box = (n) => { const r = n.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const all = (q) => [...document.querySelectorAll(q)].map(box);
  const felt = document.querySelector('.felt');
  return {
    felt: box(felt),
    seats: all('.felt > .seat'),
    middle: all('.table-middle .pile, .table-middle .trick .card'),
    header: all('.bar button, .bar .title'),
    hand: all('.hand .card'),
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's edge."""
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["left"] >= outer["left"] - 1
        and inner["right"] <= outer["right"] + 1
        and inner["top"] >= outer["top"] - 1
        and inner["bottom"] <= outer["bottom"] + 1
    )


@pytest.fixture(scope="module")
def screens(browser: Browser) -> Iterator[list[tuple[Page, int, int, str]]]:
    """One page per screen size, kept for every game and player count of the layout test."""
    contexts = [browser.new_context(viewport={"width": w, "height": h}) for w, h, _ in SCREENS]
    tabs = []
    for context, (width, height, tag) in zip(contexts, SCREENS, strict=True):
        tab = context.new_page()
        tab.set_default_timeout(PAGE_MS)
        tabs.append((tab, width, height, tag))
    yield tabs
    for context in contexts:
        context.close()


def check_layout(tab: Page, width: int, height: int, at: str) -> None:
    """By the elements' boxes: every seat on the felt, no seat over another seat, the trick, a
    pile or the header's buttons, the whole hand on the screen with every card's index showing,
    and nothing wider than the screen."""
    boxes = tab.evaluate(BOXES)
    for i, seat in enumerate(boxes["seats"]):
        assert inside(seat, boxes["felt"]), f"{at}: seat {i} leaves the felt"
        for j, other in enumerate(boxes["seats"][i + 1 :], i + 1):
            assert not overlap(seat, other), f"{at}: seats {i} and {j} overlap"
        for part in boxes["middle"] + boxes["header"]:
            assert not overlap(seat, part), f"{at}: seat {i} covers {part}"
    for card in boxes["hand"]:
        assert card["left"] >= -1, f"{at}: the hand runs off the left"
        assert card["right"] <= width + 1, f"{at}: the hand runs off the right"
        assert card["bottom"] <= height + 1, f"{at}: the hand runs off the bottom"
    for code, shown in tab.evaluate(INDEX_SHOWN):
        assert shown, f"{at}: the index of {code} in the hand is covered"
    assert tab.evaluate("document.documentElement.scrollWidth") <= width


INDEX_SHOWN = """() => [...document.querySelectorAll('.hand .card')].map((card) => {
  const r = card.querySelector('.index, .joker-word').getBoundingClientRect();
  const x = Math.min(r.right - 2, r.left + r.width / 2), y = r.top + Math.min(6, r.height / 2);
  const top = document.elementFromPoint(x, y);
  return [card.dataset.card, top !== null && card.contains(top)];
})"""
"""Whether each card's index in the hand is the topmost thing at its rank's middle."""


def seat_counts(game_id: str) -> list[int]:
    spec = registry.SPECS[game_id]
    return list(range(spec.min_players, spec.max_players + 1))


@pytest.mark.parametrize("game_id", sorted(registry.SPECS))
def test_every_game_and_player_count_fits_a_phone_a_tablet_and_a_desktop(
    screens: list[tuple[Page, int, int, str]], shared_stack: Stack, game_id: str
) -> None:
    """At 360×740, 768×1024 and 1280×800, for every number of players the game allows, by the
    elements' boxes (:func:`check_layout`); one page per size serves every table."""
    stack = shared_stack
    for players in seat_counts(game_id):
        table = stack.open_table(game_id, ("Anna", "Bo")[: min(players, 2)], seats=players)
        try:
            assert len(table.record.seats) == players
            for tab, width, height, tag in screens:
                open_page(tab, stack, "Anna", table.table_id)
                tab.wait_for_function("() => document.getAnimations().length === 0")
                if SHOTS:
                    Path(SHOTS).mkdir(parents=True, exist_ok=True)
                    name = f"{game_id}-{players}-{tag}.png"
                    tab.screenshot(path=str(Path(SHOTS) / name))
                check_layout(tab, width, height, f"{game_id} for {players} at {width}×{height}")
        finally:
            stack.end_table()


def test_every_choice_of_the_lobby_can_be_reached_on_a_phone(
    screens: list[tuple[Page, int, int, str]], shared_stack: Stack
) -> None:
    """The host's lobby at 360×740: every button (a computer player, start, leave, end) lies
    whole on the screen, none cut at its edge."""
    stack = shared_stack
    table = stack.open_table("femkort", ("Anna",), started=False)
    tab, width, _, _ = screens[0]
    try:
        open_page(tab, stack, "Anna", table.table_id)
        labels = tab.locator(".actions button").all_inner_texts()
        assert len(labels) >= 3, labels
        for button in tab.locator(".actions button").all():
            box = button.bounding_box()
            assert box is not None
            assert box["x"] >= 0, f"{button.inner_text()} starts off the screen"
            assert box["x"] + box["width"] <= width + 1, f"{button.inner_text()} is cut"
    finally:
        stack.end_table()


def test_many_choices_on_a_phone_leave_the_felt_readable(browser: Browser, stack: Stack) -> None:
    """Femhundra's bids at 360×740: the choices are one compact row that scrolls sideways, the
    felt keeps its room and the page itself does not scroll."""
    table = stack.open_table("femhundra")
    context = browser.new_context(viewport={"width": 360, "height": 740})
    tab = context.new_page()
    tab.set_default_timeout(PAGE_MS)
    open_page(tab, stack, "Anna", table.table_id)
    buttons = tab.locator(".actions button.action")
    assert buttons.count() > 8  # pass and every bid
    row = tab.locator(".actions").bounding_box()
    felt = tab.locator(".felt").bounding_box()
    assert row is not None
    assert felt is not None
    assert row["height"] <= 60, "the choices take more than one row"
    assert felt["height"] >= 740 * 0.35, "the felt is crushed by the choices"
    assert tab.evaluate("document.scrollingElement.scrollHeight") <= 740
    assert tab.evaluate(
        "(() => { const a = document.querySelector('.actions');"
        " return a.scrollWidth > a.clientWidth; })()"
    )
    last = buttons.last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 361  # every bid can be reached
    context.close()
