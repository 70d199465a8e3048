"""Headless Chromium: two people sign up and in on the lobby, each in a browser context of
its own, and each sees the match they play together in "My matches", with whose turn it is;
signing out forgets the tokens."""

from __future__ import annotations

import secrets

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.integration.conftest import Client

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
PASSWORD = "correct horse battery"


def enter(page: Page, name: str, button: str) -> dict[str, str]:
    """Fill the lobby's account form and press ``button``; the kept session."""
    page.fill("#person-name", name)
    page.fill("#person-password", PASSWORD)
    page.click(button)
    expect(page.locator("#signed-in-as")).to_contain_text(name)
    kept = page.evaluate("JSON.parse(localStorage.getItem('evo:person'))")
    assert kept["access_token"].startswith("eva_")
    return kept  # type: ignore[no-any-return]


def test_two_people_sign_in_and_see_their_match(browser: Browser, api_url: str) -> None:
    ada, bob = f"Ada {secrets.token_hex(3)}", f"Bob {secrets.token_hex(3)}"
    contexts = [browser.new_context(), browser.new_context()]
    errors: list[str] = []
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{api_url}/")
        first = enter(pages[0], ada, "#sign-up")
        enter(pages[1], bob, "#sign-up")
        pages[1].click("#sign-out")  # then back in with the password
        expect(pages[1].locator("#sign-in")).to_be_visible()
        assert pages[1].evaluate("localStorage.getItem('evo:person')") is None
        second = enter(pages[1], bob, "#sign-in")
        with Client(api_url) as client:
            created = client.call("POST", "/v1/matches", first["access_token"], json={
                "game": "darwinning", "seed": 7, "seats": [
                    {"kind": "account", "account": first["account"]["id"]},
                    {"kind": "account", "account": second["account"]["id"]}]}).json()
            accepted = client.call("POST", f"/v1/me/invitations/match-{created['id']}/accept",
                                   second["access_token"])
            assert accepted.status_code == 200, accepted.text
            match = client.call("GET", f"/v1/matches/{created['id']}").json()
        assert match["status"] == "running" and len(match["to_move"]) == 1
        mover = match["seats"][match["to_move"][0]]["name"]
        for page, name in zip(pages, (ada, bob), strict=True):
            row = page.locator(f"tr.my-match[data-match='{created['id']}']")
            expect(row).to_be_visible(timeout=10_000)
            expect(row.locator(".turn")).to_contain_text(
                "your turn" if name == mover else f"{mover} to move")
        # The one to move opens the match from the list and plays with its access token.
        mover_page = pages[[ada, bob].index(mover)]
        mover_page.click(f"tr.my-match[data-match='{created['id']}'] a")
        mover_page.wait_for_url(f"{api_url}/play/{created['id']}")
        offered = mover_page.locator("#moves-card:not([hidden]) button.move:not([disabled])")
        expect(offered.first).to_be_visible(timeout=20_000)
        with mover_page.expect_response(
                lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as posted:
            offered.first.click()
        assert posted.value.status == 200
        assert posted.value.request.headers["authorization"].startswith("Bearer eva_")
        with Client(api_url) as client:
            assert client.match(created["id"])["version"] > match["version"]
        # The access token is refreshed before it expires: the page's timer did it already
        # if the server's tokens are short; here we call it as the timer would.
        pages[0].goto(f"{api_url}/")  # the session outlives the page
        # Two refreshes at once (two tabs, or a timer and a 401): one spends the refresh
        # token, the other finds the new pair; the session is not taken for a stolen one.
        renewed = pages[0].evaluate("""async () => {
            const stale = People.session().access_token;
            const both = await Promise.all([People.refresh(stale), People.refresh(stale)]);
            return both.map((kept) => kept.access_token);
        }""")
        assert renewed[0] == renewed[1] != first["access_token"]
        with Client(api_url) as client:
            assert client.call("GET", "/v1/me", renewed[0]).status_code == 200
        expect(pages[0].locator("tr.my-match")).to_have_count(1)
        expect(pages[0].locator("#signed-in-as")).to_contain_text(ada)
    finally:
        for context in contexts:
            context.close()
    assert errors == [], errors


def test_a_match_a_signed_in_person_creates_is_theirs(browser: Browser, api_url: str) -> None:
    """Signed in, the lobby's "New match" seats the person's account by default (the choice
    appears on signing in, no reload needed), so the match is in "My matches"; signed out,
    the seat is this browser's again."""
    context = browser.new_context()
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{api_url}/")
        seat = page.locator("select[name=seat-0]")
        expect(seat).to_have_value("human")
        enter(page, f"Cy {secrets.token_hex(3)}", "#sign-up")
        expect(seat).to_have_value("account")
        page.select_option("#game", "savanna")
        expect(seat).to_have_value("account")  # a redraw keeps the default
        page.click("#create-button")
        page.wait_for_url(f"{api_url}/play/*")
        match_id = page.url.rsplit("/", 1)[1]
        expect(page.locator("#moves-card button.move").first).to_be_visible(timeout=20_000)
        page.goto(f"{api_url}/")
        expect(page.locator(f"tr.my-match[data-match='{match_id}']")).to_be_visible(
            timeout=10_000)
        page.click("#sign-out")
        expect(seat).to_have_value("human")
    finally:
        context.close()
    assert errors == [], errors


def test_a_signed_in_person_joins_an_open_seat_as_themself(browser: Browser,
                                                            api_url: str) -> None:
    """"Join an open seat" on the match page, signed in, takes the seat as the person's
    account: it bears their name, the match is in their "My matches" and their access token
    plays it."""
    context = browser.new_context()
    errors: list[str] = []
    name = f"Dee {secrets.token_hex(3)}"
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{api_url}/")
        enter(page, name, "#sign-up")
        with Client(api_url) as client:
            created = client.call("POST", "/v1/matches", None, json={
                "game": "savanna", "seed": 5, "seats": [{"kind": "open"}, {"kind": "human"}]}
                ).json()
        page.goto(f"{api_url}/play/{created['id']}")
        page.click("#join")
        offered = page.locator("#moves-card:not([hidden]) button.move:not([disabled])")
        expect(offered.first).to_be_visible(timeout=20_000)
        with Client(api_url) as client:
            seat = client.match(created["id"])["seats"][0]
        assert (seat["kind"], seat["name"]) == ("account", name)
        with page.expect_response(
                lambda r: r.request.method == "POST" and r.url.endswith("/moves")) as posted:
            offered.first.click()
        assert posted.value.status == 200
        assert posted.value.request.headers["authorization"].startswith("Bearer eva_")
        page.goto(f"{api_url}/")
        expect(page.locator(f"tr.my-match[data-match='{created['id']}']")).to_be_visible(
            timeout=10_000)
    finally:
        context.close()
    assert errors == [], errors
