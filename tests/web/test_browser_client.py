"""The web table's client in a real browser (Debian's Chromium, headless, through Playwright).

The page is the built client (``bot/web/client/dist``, built by ``./dev``) served by a stand-in
for the server that speaks the web table's protocol around real game engines
(``fake_table.py``): what is tested here is what a member sees and does in the page. Computer
players move at once; matches are played to their result by clicking what the page offers.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_table import ACCESS_TOKEN, DIST, MEMBER_ID, FakeServer, FakeTable, serving
from playwright.sync_api import Browser, Page, sync_playwright

from games import registry
from games.cards import code as card_code

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
def server() -> Iterator[FakeServer]:
    with serving() as fake:
        yield fake


@pytest.fixture
def page(browser: Browser, server: FakeServer) -> Iterator[Page]:
    """A tab at 1280×800, closed before the server stops."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    yield tab
    context.close()


def open_table(page: Page, server: FakeServer, table_id: int, lang: str = "sv") -> None:
    page.goto(f"{server.url}?member={MEMBER_ID}&table={table_id}&lang={lang}")
    page.wait_for_selector(f".table-screen[data-table='{table_id}']")


def version(page: Page) -> int:
    return int(page.get_attribute(".table-screen", "data-version") or 0)


def wait_past(page: Page, seen: int) -> None:
    page.wait_for_function(
        f"() => Number(document.querySelector('.table-screen')?.dataset.version) > {seen}"
    )


def hand_codes(page: Page) -> list[str]:
    cards = page.locator(".hand .card")
    return [str(c) for c in cards.evaluate_all("e => e.map(c => c.dataset.card)")]


# --- signing in -------------------------------------------------------------------------------


def test_demo_member_picker_signs_in_and_lists_the_channels_tables(
    page: Page, server: FakeServer
) -> None:
    server.add(FakeTable(1, "braus", 4, seed=3))
    server.add(FakeTable(2, "piquet", 2, seed=3, member_seat=None))
    page.goto(f"{server.url}?lang=sv")
    page.get_by_role("button", name="Anna").click()
    # The member's only seat opens at once; back at the list, another table can be watched.
    page.wait_for_selector(".table-screen[data-table='1'] .seat.you")
    assert server.hellos[-1]["session"] in server.sessions
    page.get_by_role("button", name="Alla bord").click()
    entry = page.locator(".table-entry[data-table='1']")
    assert "Anna, Bo, Cilla, Dag" in entry.inner_text()
    assert entry.locator("button", has_text="Till din plats").count() == 1
    page.locator(".table-entry[data-table='2'] button", has_text="Titta").click()
    page.wait_for_selector(".table-screen[data-table='2']")
    assert page.locator(".seat.you").count() == 0


def test_discord_handshake_with_the_sdks_own_mock(page: Page, server: FakeServer) -> None:
    """ready, authorize (identify), the code exchanged at the bot, authenticate with the access
    token, then the socket says hello with the bot's session and the Activity's channel."""
    server.add(FakeTable(1, "piquet", 2, seed=1))
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    page.goto(f"{server.url}sdk-mock.html?channel_id=777000111222333444&lang=en")
    page.wait_for_selector(".table-screen[data-table='1']")
    assert server.codes == ["mock_code"]
    hello = server.hellos[-1]
    assert hello["channel_id"] == "777000111222333444"
    assert hello["session"] in server.sessions
    assert hello["lang"] == "en"
    authorize = next(line for line in said if "authorize(" in line)
    assert '"identify"' in authorize
    assert any("authenticate(" in line and ACCESS_TOKEN in line for line in said)


def test_a_session_the_bot_did_not_issue_is_answered_in_words(
    page: Page, server: FakeServer
) -> None:
    page.route("**/api/demo/login", lambda route: route.fulfill(json={"session": "forged"}))
    page.goto(f"{server.url}?member={MEMBER_ID}")
    page.wait_for_selector(".status-text:has-text('!')")
    assert page.locator(".table-screen").count() == 0


# --- playing ----------------------------------------------------------------------------------


def test_only_playable_cards_are_raised_and_one_click_plays(page: Page, server: FakeServer) -> None:
    table = server.add(FakeTable(1, "braus", 4, seed=5))
    open_table(page, server, 1)
    legal = {table.game.notation(a) for a in table.game.legal_actions(0)}
    raised = page.locator(".hand .card.playable")
    raised.first.wait_for()
    codes = set(raised.evaluate_all("e => e.map(c => c.dataset.card)"))
    assert codes == {n for n in legal if len(n) == 2}
    before = hand_codes(page)
    seen = version(page)
    played = next(iter(sorted(codes)))
    page.locator(f".hand .card[data-card='{played}']").click()
    wait_past(page, seen)
    assert played not in hand_codes(page)
    assert len(hand_codes(page)) == len(before) - 1


def test_pick_then_confirm_lays_nittionios_three_bid_cards(page: Page, server: FakeServer) -> None:
    server.add(FakeTable(1, "nittionio", 3, seed=2))
    open_table(page, server, 1)
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


def test_a_button_shows_pressed_at_once_while_the_server_answers(
    page: Page, server: FakeServer
) -> None:
    server.add(FakeTable(1, "hej_knekt", 3, seed=4))
    open_table(page, server, 1)

    async def hold() -> None:
        server.hold = asyncio.Event()

    server.run(hold())
    turn = page.locator(".actions button.action").first
    seen = version(page)
    turn.click()
    assert "pressed" in (turn.get_attribute("class") or "")
    assert version(page) == seen

    async def release() -> None:
        assert server.hold is not None
        server.hold.set()

    server.run(release())
    wait_past(page, seen)


def test_a_stale_move_is_refused_in_words_and_changes_nothing(
    page: Page, server: FakeServer
) -> None:
    table = server.add(FakeTable(1, "braus", 4, seed=5))
    open_table(page, server, 1)
    before = table.game.view(0).hand

    async def behind_the_pages_back() -> None:
        table.version += 1

    server.run(behind_the_pages_back())
    page.locator(".hand .card.playable").first.click()
    toast = page.locator(".toast.shown")
    toast.wait_for()
    assert "Bordet har ändrats" in toast.inner_text()
    assert table.game.view(0).hand == before
    assert page.locator(".hand .card.playable").count() > 0  # the cards can be played again


@pytest.mark.parametrize(
    ("game_id", "players"),
    [("nittionio", 3), ("piquet", 2), ("femhundra", 3), ("braus", 4)],
)
def test_a_whole_match_is_played_in_the_web_table(
    page: Page, server: FakeServer, game_id: str, players: int
) -> None:
    server.add(FakeTable(1, game_id, players, seed=11))
    open_table(page, server, 1)
    taken = 0
    for _ in range(1500):
        if page.locator(".result-overlay").count():
            break
        seen = version(page)
        move(page)
        wait_past(page, seen)
        taken += page.locator(".ghosts .taken").count()
    result = page.locator(".result-overlay")
    assert result.count() == 1, "the match did not end in the web table"
    places = result.locator(".places li")
    assert places.count() == players
    if game_id in ("nittionio", "piquet"):
        assert taken > 0, "no trick was seen going to its winner"


def move(page: Page) -> None:
    """One move as a member makes it: a raised card, else cards picked and confirmed, else the
    first button."""
    raised = page.locator(".hand .card.playable")
    if raised.count():
        raised.first.click()
        return
    pickable = page.locator(".hand .card.pickable")
    ready = page.locator(".confirm-row .confirm[data-notation]")
    for i in range(pickable.count()):
        if ready.count():
            break
        pickable.nth(i).click()
    if ready.count():
        ready.first.click()
        return
    page.locator(".actions button.action").first.click()


# --- what a spectator sees --------------------------------------------------------------------


def test_a_spectators_page_and_frames_never_hold_a_hidden_card(
    page: Page, server: FakeServer
) -> None:
    table = server.add(FakeTable(1, "nittionio", 3, seed=7, member_seat=None))
    open_table(page, server, 1)
    for _ in range(40):
        hidden = set()
        public = table.game.view(None)
        shown = {card_code(c) for s in public.seats for c in s.shown}
        for seat in range(3):
            hidden |= {card_code(c) for c in table.game.view(seat).hand} - shown
        on_page = set(page.locator("[data-card]").evaluate_all("e => e.map(c => c.dataset.card)"))
        assert not on_page & hidden
        frame = server.frames[-1]
        assert not [code for code in hidden if f'"{code}"' in frame]
        assert page.locator(".hand .card").count() == 0
        if table.game.is_over():
            break
        seen = version(page)
        server.run(table.step(3))
        wait_past(page, seen)


# --- the layout -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(registry.SPECS))
def test_every_game_fits_a_phone_and_a_desktop(
    browser: Browser, server: FakeServer, game_id: str
) -> None:
    """At 360×740 and 1280×800 nothing runs off the sides: seats, trick and the whole hand."""
    spec = registry.SPECS[game_id]
    players = max(spec.min_players, min(4, spec.max_players))
    server.add(FakeTable(1, game_id, players, seed=21))
    for width, height, tag in ((360, 740, "phone"), (1280, 800, "desktop")):
        context = browser.new_context(viewport={"width": width, "height": height})
        tab = context.new_page()
        open_table(tab, server, 1)
        tab.wait_for_function("() => document.getAnimations().length === 0")
        boxes = tab.locator(".seat, .hand .card, .trick .card").evaluate_all(
            "e => e.map(n => { const r = n.getBoundingClientRect(); return [r.left, r.right]; })"
        )
        assert all(left >= -1 and right <= width + 1 for left, right in boxes)
        assert tab.evaluate("document.documentElement.scrollWidth") <= width
        if SHOTS:
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            tab.screenshot(path=str(Path(SHOTS) / f"{game_id}-{tag}.png"))
        context.close()
