"""Headless Chromium: quick play and challenges on the lobby. Two people, each in a browser
context of its own, sign up, join the Savanna pool for two, are matched into one match, finish
it by tapping the board and see it finished in "My matches"; a challenge declined from the page
aborts its match."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, expect
from playwright.sync_api import Error as PlaywrightError

from tests.integration.browsers import PHONE, serious_violations
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
PASSWORD = "correct horse battery"


@pytest.fixture
def two(browser: Browser, api_url: str) -> Iterator[list[Page]]:
    """Two phone-sized pages, each in its own context (its own localStorage), on the lobby,
    each signed up as a new person; no page error allowed."""
    contexts: list[BrowserContext] = [
        browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(2)]
    errors: list[str] = []
    try:
        pages = [context.new_page() for context in contexts]
        for page, name in zip(pages, ("Ada", "Bob"), strict=True):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{api_url}/")
            page.fill("#person-name", f"{name} {secrets.token_hex(3)}")
            page.fill("#person-password", PASSWORD)
            page.click("#sign-up")
            expect(page.locator("#signed-in-as")).to_be_visible()
            expect(page.locator("#quick-join")).to_be_visible()
        yield pages
        assert errors == [], errors
    finally:
        for context in contexts:
            context.close()


def _is_move_post(request: Request) -> bool:
    return request.method == "POST" and request.url.endswith("/moves")


def _tap_once(page: Page) -> bool:
    """Tap one touchable thing of the Savanna board, if any; whether a move was posted."""
    target = page.locator(".sv-board button.touch-can")
    try:
        tapped = target.first.element_handle(timeout=300)
        with page.expect_request(_is_move_post, timeout=3000):
            tapped.tap(timeout=2000)
    except PlaywrightError:  # a timeout too: nothing to tap now, or redrawn under the finger
        return False
    return True


def test_two_people_quick_play_savanna_and_finish_it(
        two: list[Page], api_url: str, client: Client, worker: Worker) -> None:
    started = time.monotonic()
    for page in two:
        page.select_option("#quick-game", "savanna")
        page.select_option("#quick-players", "2")
        page.select_option("#quick-bots", "")
        page.click("#quick-join")
    # The first waits (two fresh people have the same rating: matched at the second's join).
    for page in two:
        page.wait_for_url(f"{api_url}/play/*", timeout=20_000)
    ids = {page.url.rsplit("/", 1)[1] for page in two}
    assert len(ids) == 1, ids
    match_id = ids.pop()
    match = client.match(match_id)
    assert match["rated"] and [s["kind"] for s in match["seats"]] == ["account", "account"]
    finished = [page.locator("body[data-status=finished]") for page in two]
    moves = 0
    while not all(done.count() for done in finished):
        for page, done in zip(two, finished, strict=True):
            if not done.count() and _tap_once(page):
                moves += 1
        assert time.monotonic() - started < 55, moves
    assert client.match(match_id)["status"] == "finished"
    # Every move was a tap on one of the two pages, each playing its own account seat.
    log = client.call("GET", f"/v1/matches/{match_id}/events").json()["events"]
    assert {e["seat"] for e in log if "move" in e} == {0, 1}
    for page in two:
        page.goto(f"{api_url}/")
        row = page.locator(f"tr.my-match[data-match='{match_id}']")
        expect(row).to_be_visible(timeout=10_000)
        expect(row).to_contain_text("finished")
        expect(row.locator("a")).to_have_text("replay")


def test_a_challenge_declined_on_the_page_aborts_its_match(
        two: list[Page], api_url: str, client: Client) -> None:
    challenger, challenged = two
    their_id = challenged.locator("#my-account-id").inner_text()
    challenger.fill("#challenge-account", their_id)
    challenger.select_option("#challenge-game", "savanna")
    challenger.check("#challenge-rated")
    challenger.select_option("#challenge-clock", "daily")
    challenger.click("#challenge-send")
    link = challenger.locator("#challenge-match")
    expect(link).to_be_visible()
    match_id = (link.get_attribute("href") or "").rsplit("/", 1)[1]
    match = client.match(match_id)
    assert match["status"] == "waiting" and match["rated"]
    assert match["time_control"]["kind"] == "turn_based"
    invitation = challenged.locator(f"li.invitation[data-invitation='match-{match_id}']")
    expect(invitation).to_be_visible(timeout=10_000)
    # What a person decides on: the game, rated, the clock, and who challenges.
    challenger_name = challenger.evaluate("People.session().account.name")
    expect(invitation).to_contain_text(
        f"Ecosystem: Savanna, rated · 1 day per move (turn-based) · against {challenger_name}")
    # The cards are as accessible as the rest of the lobby (axe-core, as the lobby's own test).
    assert serious_violations(challenged) == []
    assert serious_violations(challenger) == []
    invitation.get_by_role("button",
                           name="Decline the challenge: Ecosystem: Savanna, rated").click()
    expect(invitation).to_have_count(0)
    assert client.match(match_id)["status"] == "aborted"
    link.click()
    expect(challenger.locator("body[data-status=aborted]")).to_be_attached(timeout=10_000)


def test_waiting_shows_the_time_waited_and_leaving_ends_the_ticket(
        two: list[Page], api_url: str, client: Client) -> None:
    page = two[0]
    page.select_option("#quick-game", "evolution-ns")
    most = page.locator("#quick-players option").last.get_attribute("value")
    page.select_option("#quick-players", most or "")
    page.select_option("#quick-bots", "hard")
    page.click("#quick-join")
    status = page.locator("#quick-status")
    name = page.locator("#quick-game option:checked").inner_text()
    expect(status).to_have_text(re.compile(rf"Waiting for players in {re.escape(name)}… [01] s"))
    expect(status).to_contain_text("… 2 s", timeout=5000)  # ticking while the long-poll waits
    token = page.evaluate("People.session().access_token")
    ticket = client.call("GET", "/v1/me/pool", token).json()
    assert ticket["status"] == "waiting" and ticket["bot_fill"] == "hard"
    page.click("#quick-leave")
    expect(status).to_have_text("")
    expect(page.locator("#quick-leave")).to_be_hidden()
    expect(page.locator("#quick-join")).to_be_enabled()
    after = client.call("GET", "/v1/me/pool", token)  # no ticket now (or one that says so)
    assert after.status_code == 404 or after.json()["status"] == "left", after.text


def test_an_accepted_challenge_opens_its_match(
        two: list[Page], api_url: str, client: Client) -> None:
    challenger, challenged = two
    challenger.fill("#challenge-account", challenged.locator("#my-account-id").inner_text())
    challenger.select_option("#challenge-game", "savanna")
    challenger.click("#challenge-send")  # casual, no clock
    link = challenger.locator("#challenge-match")
    expect(link).to_be_visible()
    match_id = (link.get_attribute("href") or "").rsplit("/", 1)[1]
    invitation = challenged.locator(f"li.invitation[data-invitation='match-{match_id}']")
    expect(invitation).to_contain_text("Ecosystem: Savanna, casual", timeout=10_000)
    invitation.get_by_role("button",
                           name="Accept the challenge: Ecosystem: Savanna, casual").click()
    challenged.wait_for_url(f"{api_url}/play/{match_id}")
    match = client.match(match_id)
    assert match["status"] == "running" and not match["rated"] and match.get("time_control") is None
    # The accepted seat is played with the person's access token: its moves are offered.
    expect(challenged.locator(".sv-board button.touch-can").first).to_be_visible(timeout=20_000)
