"""Headless Chromium (Debian's, driven by Playwright) plays a whole Savanna match on the page.

The browser comes from ``scripts/install_chromium.sh`` (run by ``make test``); Playwright is
told its path, so it downloads nothing.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    Dialog,
    ElementHandle,
    Page,
    Response,
    Route,
    expect,
)
from playwright.sync_api import Error as PlaywrightError

from tests.integration.browsers import PHONE
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
SCREENSHOT = os.environ.get("EVO_SCREENSHOT")  # where to save the finished page, if anywhere
# Milliseconds to wait for the page to show the next step: generous, as one bot decision waits
# in the shared Celery queue behind other tests' searches on a loaded 2-core machine (a wait
# ends as soon as its condition holds, so a long one costs nothing when all is well).
TURN_TIMEOUT = 60_000


class _MissedTap(Exception):
    """The page redrew its moves under the pointer: the click reached no move button."""


def _is_move_post(response: Response) -> bool:
    return response.request.method == "POST" and response.url.endswith("/moves")


def _tap(page: Page, button: ElementHandle) -> int | None:
    """Click a move as a person would; the status the API answered its POST with, or None
    when the tap missed. Savanna's seats choose at once, so the page redraws the person's
    list when the bot's move lands: a redraw before the press leaves a detached button, one
    between the press and the release sends the click to no button, and nothing is posted.
    A click that reached its button disabled it (the page disables every move while one is
    posted), so a button still enabled afterwards was missed: tap again on the new list.
    Waiting for the POST's answer here also means every answer is counted by the end."""
    try:
        with page.expect_response(_is_move_post, timeout=TURN_TIMEOUT) as answer:
            try:
                button.click()
            except PlaywrightError:
                if button.evaluate("b => b.isConnected"):
                    raise
                raise _MissedTap from None  # redrawn before the press
            if not button.evaluate("b => b.disabled"):
                raise _MissedTap
    except _MissedTap:
        return None
    return answer.value.status


def test_a_person_plays_a_whole_savanna_match_against_a_bot(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    page.goto(f"{api_url}/")
    page.select_option("#game", "savanna")
    page.select_option("#seats", "2")
    page.select_option("select[name=seat-0]", "human")
    page.select_option("select[name=seat-1]", "bot:random")
    # The creation's own answer first: a failure then says what the API answered, not only
    # that the page never moved on (a fresh-clone run under load once timed out here).
    with page.expect_response(lambda r: r.request.method == "POST"
                              and r.url == f"{api_url}/v1/matches") as created:
        page.click("#create-button")
    assert created.value.status == 201, (created.value.status, created.value.text())
    page.wait_for_url(f"{api_url}/play/*")
    match_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(".player").first).to_be_visible(timeout=TURN_TIMEOUT)  # the board

    answers: list[int] = []  # the status of every move the page submitted
    page.on("response", lambda r: answers.append(r.status) if _is_move_post(r) else None)
    finished = page.locator("body[data-status=finished]")
    offered = page.locator("#moves-card:not([hidden]) button.move:not([disabled])")
    clicks = 0  # clicks that reached a move button
    while True:
        # One wait for whichever comes first: a move to click, or the end (the bot's move may
        # end the match, and its turn may take long on a loaded machine).
        step = finished.or_(offered).first
        expect(step).to_be_visible(timeout=TURN_TIMEOUT)
        target = step.element_handle(timeout=TURN_TIMEOUT)
        if target.evaluate("e => e === document.body"):
            break
        # A tab left in the background says whose move it is in its title.
        expect(page).to_have_title(f"Your turn · Match {match_id} · Evo Arena",
                                   timeout=TURN_TIMEOUT)
        version = page.get_attribute("body", "data-version")
        status = _tap(page, target)
        if status is None:
            continue  # the list changed under the pointer: tap again on the new one
        clicks += 1
        # The page shows the news: the move's version, or the newer one it was refused for.
        expect(page.locator("body")).not_to_have_attribute(
            "data-version", version or "", timeout=TURN_TIMEOUT)
        assert clicks < 200

    expect(page.locator("#result")).to_be_visible()
    expect(page).to_have_title(f"Match {match_id} · Evo Arena")  # nobody's move any more
    expect(page.locator("#scores li")).to_have_count(2)
    expect(page.locator(".player .grid")).to_have_count(2)  # both savannas drawn as grids
    finished = client.match(match_id)
    assert finished["status"] == "finished" and finished["result"] is not None
    # Every move of seat 0 was made by clicking in the page (a click on a list the bot's
    # visible move had just made stale is refused with 409 and the page shows the news).
    log = client.call("GET", f"/v1/matches/{match_id}/events").json()["events"]
    assert len(answers) == clicks and set(answers) <= {200, 409}
    assert answers.count(200) == sum(1 for e in log if e.get("seat") == 0 and "move" in e)
    scores = page.locator("#scores").inner_text()
    for seat in finished["seats"]:
        assert f"{seat['name']}: {finished['result']['scores'][seat['seat']]}" in scores
    if SCREENSHOT:
        Path(SCREENSHOT).parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOT, full_page=True)


def test_a_spectator_watches_bots_and_any_game_has_a_board(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    created = client.create({"game": "evolution", "seats": [
        {"kind": "bot", "bot": {"kind": "random"}}, {"kind": "bot", "bot": {"kind": "random"}}]})
    page.goto(f"{api_url}/play/{created['id']}")
    expect(page.locator(".player")).to_have_count(2, timeout=10_000)  # the game's renderer
    expect(page.locator("#moves-card")).to_be_hidden()  # a spectator holds no seat
    # A game without a renderer of its own gets the generic board, drawn from the view JSON.
    page.route("**/boards/*.js", lambda route: route.fulfill(status=404))
    page.reload()
    expect(page.locator("#board dl.generic").first).to_be_visible(timeout=10_000)
    expect(page.locator("#board")).to_contain_text("Animals")


def test_a_person_asks_what_the_bot_would_play(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    created = client.create({"game": "evolution", "seed": 8, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={token}")
    expect(page.locator("#moves-card button.move").first).to_be_visible(timeout=TURN_TIMEOUT)
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("The bot would play:",
                                                       timeout=TURN_TIMEOUT)
    hinted = page.locator("button.move.hinted")
    expect(hinted).to_have_count(1)
    # The page's hint is the API's answer to this question, kept: asking again costs no search
    # and is no 429.
    again = client.call("GET", f"/v1/matches/{match_id}/hint", token)
    assert again.status_code == 200, again.text
    # The hinted button plays the hinted move (or an identical copy's: one button for both).
    assert again.json()["move_id"] in (hinted.get_attribute("data-ids") or "").split()
    assert again.json()["label"] in page.locator("#hint-text").inner_text()
    hinted.click()  # playing it clears the hint with the moves it answered
    expect(page.locator("button.move.hinted")).to_have_count(0, timeout=TURN_TIMEOUT)


def test_a_hint_outlives_another_seats_hidden_pick(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    """A face-down pick of the other seat changes the version, not the person's question:
    the page keeps its hint and asks again, and the API answers from the answer it kept (a
    new search this soon would be a 429, which the page would show instead)."""
    created = client.create({"game": "savanna", "seed": 4, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id = created["id"]
    mine, theirs = (created["tokens"][s]["token"] for s in (0, 1))
    asks: list[int] = []  # the statuses of the page's hint requests
    page.on("response", lambda r: asks.append(r.status) if r.url.endswith("/hint") else None)
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={mine}")
    expect(page.locator("#moves-card button.move").first).to_be_visible(timeout=TURN_TIMEOUT)
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text("The bot would play:",
                                                       timeout=TURN_TIMEOUT)
    assert asks == [200]
    hinted = page.locator("button.move.hinted").get_attribute("data-id")
    said = page.locator("#hint-text").inner_text()
    other = client.call("GET", f"/v1/matches/{match_id}/moves", theirs).json()
    picked = client.call("POST", f"/v1/matches/{match_id}/moves", theirs, json={
        "version": other["version"], "move_id": other["moves"][0]["id"]})
    assert picked.status_code == 200, picked.text
    assert 0 in picked.json()["to_move"]  # the person's pick is still owed
    expect(page.locator("body")).to_have_attribute("data-version",
                                                   str(picked.json()["version"]))
    expect(page.locator("#hint")).to_be_enabled(timeout=TURN_TIMEOUT)  # its ask is answered
    assert asks == [200, 200]
    assert page.locator("#hint-text").inner_text() == said
    expect(page.locator("button.move.hinted")).to_have_attribute("data-id", hinted)


CROSS_ORIGIN_PAGE = """<!doctype html><html><body><script>
window.playWholeMatch = async (api) => {
  const call = async (method, path, token, body) => {
    const headers = body ? {"Content-Type": "application/json"} : {};
    if (token) headers.Authorization = "Bearer " + token;
    const r = await fetch(api + path, {method, headers, body: body && JSON.stringify(body)});
    return {status: r.status, body: await r.json()};
  };
  const made = await call("POST", "/v1/matches", null, {game: "savanna", seats: [
    {kind: "human"}, {kind: "bot", bot: {kind: "random"}}]});
  const id = made.body.id, token = made.body.tokens[0].token;
  const versions = [];
  const ended = new Promise((resolve) => {
    const stream = new EventSource(api + "/v1/matches/" + id + "/stream?since=0");
    stream.addEventListener("version", (e) => versions.push(Number(e.lastEventId)));
    stream.addEventListener("end", () => { stream.close(); resolve(); });
  });
  for (let turn = 0; turn < 500; turn++) {
    const match = (await call("GET", "/v1/matches/" + id + "?version=0", token)).body;
    if (match.status === "finished") break;
    if (!match.to_move.includes(0)) {
      await call("GET", "/v1/matches/" + id + "?version=" + match.version + "&wait=5", token);
      continue;
    }
    const moves = (await call("GET", "/v1/matches/" + id + "/moves", token)).body;
    if (!moves.moves.length) continue;
    await call("POST", "/v1/matches/" + id + "/moves", token,
               {version: moves.version, move_id: moves.moves[0].id});
  }
  await ended;
  const final = (await call("GET", "/v1/matches/" + id, null)).body;
  return {status: final.status, version: final.version, versions};
};
</script></body></html>"""


class _PageHandler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = CROSS_ORIGIN_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def other_origin() -> Iterator[str]:
    """A second web server on loopback: its pages are of another origin than the API's."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _PageHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://localhost:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_on_another_origin_creates_plays_and_follows_a_match(
        page: Page, api_url: str, other_origin: str, worker: Worker) -> None:
    """Chromium enforces CORS for real: the page's origin is not the API's."""
    page.goto(f"{other_origin}/")
    outcome = page.evaluate("api => playWholeMatch(api)", api_url)
    assert outcome["status"] == "finished"
    assert outcome["versions"] == list(range(1, outcome["version"] + 1))


def test_a_seeded_match_is_marked_in_the_lobby_and_on_its_page(
        page: Page, api_url: str, client: Client) -> None:
    """A seed the creator chose foresees every hidden card: nobody should take the match for
    a fair game (issue 39). A server-drawn seed is not marked."""
    seats = [{"kind": "human"}, {"kind": "open"}]
    seeded = client.create({"game": "savanna", "seed": 21, "seats": seats})["id"]
    drawn = client.create({"game": "savanna", "seats": seats})["id"]
    page.goto(f"{api_url}/")
    row = page.locator("#matches tr", has=page.locator(f"a[href='/play/{seeded}']"))
    expect(row.locator(".seeded")).to_have_text("seeded")
    plain = page.locator("#matches tr", has=page.locator(f"a[href='/play/{drawn}']"))
    expect(plain).to_be_visible()
    expect(plain.locator(".seeded")).to_have_count(0)
    page.goto(f"{api_url}/play/{seeded}")
    expect(page.locator("#seeded")).to_be_visible()
    expect(page.locator("#seeded")).to_contain_text("foresee every hidden card")
    page.goto(f"{api_url}/play/{drawn}")
    expect(page.locator("#seats li").first).to_be_visible()
    expect(page.locator("#seeded")).to_be_hidden()


def test_a_page_on_another_origin_revalidates_with_if_none_match(
        page: Page, api_url: str, other_origin: str) -> None:
    """Chromium checks CORS on the 304 too: the page's revalidation of a JSON read (an
    If-None-Match it sends itself) succeeds and reads a 304, not a network error (issue 40)."""
    page.goto(f"{other_origin}/")
    outcome = page.evaluate("""async (api) => {
      const first = await fetch(api + "/v1/games", {cache: "no-store"});
      const tag = first.headers.get("ETag");
      try {
        const again = await fetch(api + "/v1/games",
                                  {cache: "no-store", headers: {"If-None-Match": tag}});
        return {tag, status: again.status, sameTag: again.headers.get("ETag") === tag};
      } catch (failure) {
        return {tag, status: String(failure)};
      }
    }""", api_url)
    assert outcome["tag"], outcome
    assert outcome["status"] == 304 and outcome["sameTag"], outcome


def test_a_person_resigns_on_the_page_after_confirming(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    created = client.create({"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={token}")
    resign = page.locator("#resign")
    expect(resign).to_be_visible(timeout=TURN_TIMEOUT)
    questions: list[str] = []

    def answer(dialog: Dialog, accept: bool) -> None:
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))  # thought better of it
    resign.click()
    assert client.match(match_id)["status"] == "running"
    page.once("dialog", lambda dialog: answer(dialog, True))
    resign.click()
    expect(page.locator("body")).to_have_attribute("data-status", "finished",
                                                   timeout=TURN_TIMEOUT)
    expect(page.locator("#resign-row")).to_be_hidden()
    assert questions == ["Resign this match? It ends now and the other player wins."] * 2
    ended = client.match(match_id)
    assert ended["resigned"] == [0] and ended["result"]["winners"] == [1]


def test_a_czech_person_reads_the_lobby_and_a_match_in_czech_and_picks_finnish(
        browser: Browser, api_url: str, worker: Worker) -> None:
    """The browser's language chooses the page's (docs/languages.md): the templates' strings,
    the page's own (Arena.t, window.EVO_MESSAGES) and the move labels the API words (a hint's
    too); the language picker's choice is remembered and passed on to the next page."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale="cs-CZ")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(f"{api_url}/")
        expect(page.locator("html")).to_have_attribute("lang", "cs")
        new_match = page.locator("section:has(#create) > h2")
        expect(new_match).to_have_text("Nová partie")  # a template string
        page.select_option("#game", "savanna")
        page.select_option("#seats", "2")
        expect(page.locator("#seat-kinds legend")).to_have_text("Kdo hraje na kterém místě")
        expect(page.locator("#seat-kinds label").first).to_contain_text("Místo 0")  # Arena.t
        page.select_option("select[name=seat-0]", "human")
        page.select_option("select[name=seat-1]", "bot:random")
        page.click("#create-button")
        page.wait_for_url(f"{api_url}/play/*")
        expect(page.locator("#moves-card h2")).to_have_text("Váš tah")
        # The labels come from the API in the page's language (Accept-Language).
        expect(page.locator("button.move").first).to_contain_text("Vybrat", timeout=10_000)
        page.click("#hint")  # the worker's search answers; the API words its label
        expect(page.locator("#hint-text")).to_contain_text("Vybrat", timeout=TURN_TIMEOUT)
        page.select_option("#lang-picker", "fi")
        page.wait_for_url("**lang=fi")
        expect(page.locator("#moves-card h2")).to_have_text("Sinun siirtosi")
        expect(page.locator("button.move").first).to_contain_text("Valitse", timeout=10_000)
        page.goto(f"{api_url}/")  # no lang: the remembered choice is passed on
        page.wait_for_url("**/?lang=fi")
        expect(new_match).to_have_text("Uusi ottelu")
        assert errors == [], errors
    finally:
        context.close()


def test_the_match_page_counts_the_clocks_down(page: Page, api_url: str,
                                                client: Client) -> None:
    """A real-time match's page shows each person's clock and counts a running one down
    between answers (docs/api.md "Clocks and turn-based play")."""
    created = client.create({"game": "savanna", "seats": [{"kind": "human"}, {"kind": "human"}],
                             "time_control": {"kind": "realtime", "base": 600}})
    match_id, token = created["id"], created["tokens"][0]["token"]
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={token}")
    clocks = page.locator("#clocks li")
    expect(clocks).to_have_count(2, timeout=TURN_TIMEOUT)
    expect(clocks.first).to_contain_text("(clock): 9:5")  # 600 s, already counting down
    expect(clocks.first).to_contain_text("running")
    first = clocks.first.inner_text()
    expect(clocks.first).not_to_have_text(first, timeout=3000)  # no new answer: it ticks


def _first_moves_until(client: Client, match_id: str, tokens: list[str],
                       wanted: Callable[[list[dict[str, Any]]], bool]) -> list[dict[str, Any]]:
    """Each seat plays its first listed move, step by step, until seat 0's legal moves are
    ``wanted``; those moves."""
    for _ in range(40):
        mine = client.call("GET", f"/v1/matches/{match_id}/moves", tokens[0]).json()["moves"]
        if wanted(mine):
            return mine  # type: ignore[no-any-return]
        for token in tokens:
            moves = client.call("GET", f"/v1/matches/{match_id}/moves", token).json()
            if moves["moves"]:
                client.call("POST", f"/v1/matches/{match_id}/moves", token, json={
                    "version": moves["version"], "move_id": moves["moves"][0]["id"]})
    raise AssertionError("no such list of moves came: pick another seed")


def test_a_long_move_list_is_folded_by_card(page: Page, api_url: str, client: Client) -> None:
    """Evolution (North Star) offers a seat dozens of moves (each card: a trait on each
    species, a new species at either end, growth of every species): the page folds them into
    one section per card, the first open, and keeps the person's open sections across a
    redraw of the same moves; a move in a section opened is played as any other."""
    created = client.create({"game": "evolution-ns", "seed": 1, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id = created["id"]
    tokens = [t["token"] for t in created["tokens"]]
    mine = _first_moves_until(client, match_id, tokens, lambda moves: len(moves) >= 12)
    groups = list(dict.fromkeys(m["group"] for m in mine if "group" in m))
    assert len(groups) > 1, mine
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={tokens[0]}")
    sections = page.locator("#moves details.move-group")
    expect(sections.first).to_be_visible(timeout=TURN_TIMEOUT)
    assert sections.count() == len(groups)
    expect(sections.first.locator("summary")).to_contain_text(groups[0])
    assert [sections.nth(i).evaluate("d => d.open") for i in range(len(groups))] == [
        True] + [False] * (len(groups) - 1)
    # Every move is on the page, in the API's order, sections and all.
    ids = page.eval_on_selector_all("#moves button.move", "bs => bs.map(b => b.dataset.id)")
    assert ids == [m["id"] for m in mine]
    last = sections.nth(len(groups) - 1)
    last.locator("summary").click()
    expect(last.locator("button.move").first).to_be_visible()
    # The same moves drawn again (as on news of another seat): the sections stay as they were.
    page.locator("body").evaluate("() => { page.redraw = true; return refresh(); }")
    expect(page.locator("#moves details.move-group").nth(len(groups) - 1)).to_have_attribute(
        "open", "")
    with page.expect_response(_is_move_post) as posted:
        page.locator("#moves details.move-group").nth(len(groups) - 1).locator(
            "button.move").first.click()
    assert posted.value.status == 200


def test_copies_of_a_card_make_one_button(page: Page, api_url: str, client: Client) -> None:
    """Moves of one label are one choice made with identical copies of a card: the page shows
    one button for them, which plays the first (seeded: this Evolution list has copies)."""
    created = client.create({"game": "evolution", "seed": 3, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id = created["id"]
    tokens = [t["token"] for t in created["tokens"]]
    mine = _first_moves_until(client, match_id, tokens, lambda moves: len(
        {m["label"] for m in moves}) < len(moves))
    by_label: dict[str, list[str]] = {}
    for move in mine:
        by_label.setdefault(move["label"], []).append(move["id"])
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={tokens[0]}")
    buttons = page.locator("#moves button.move")
    expect(buttons.first).to_be_attached(timeout=TURN_TIMEOUT)
    shown = page.eval_on_selector_all("#moves button.move", """bs => bs.map(
        b => [b.textContent, b.dataset.id, b.dataset.ids.split(' ')])""")
    assert shown == [[label, ids[0], ids] for label, ids in by_label.items()]


def test_a_creation_whose_answer_is_lost_makes_one_match(page: Page, api_url: str) -> None:
    """The lobby's "Create" reaches the server but its answer is lost (the phone changed
    networks): the page sends it again with the same Idempotency-Key and opens the match the
    first request created, with its seat token; no second match is made."""
    sent: list[dict[str, str]] = []
    first: dict[str, Any] = {}

    def lose_the_first_answer(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        sent.append(route.request.headers)
        if first:
            route.continue_()
            return
        answer = route.fetch()  # the server creates the match...
        first.update(answer.json())
        route.abort("internetdisconnected")  # ...and the page never hears of it

    page.route(f"{api_url}/v1/matches", lose_the_first_answer)
    page.goto(f"{api_url}/")
    page.select_option("#game", "savanna")
    page.select_option("#seats", "2")
    page.select_option("select[name=seat-0]", "human")
    page.select_option("select[name=seat-1]", "human")
    page.click("#create-button")
    page.wait_for_url(f"{api_url}/play/*")
    assert page.url.rsplit("/", 1)[1] == first["id"]
    assert len(sent) == 2 and sent[0]["idempotency-key"] == sent[1]["idempotency-key"]
    kept = page.evaluate(f"Arena.tokens({first['id']!r})")
    assert kept["0"] == first["tokens"][0]["token"]
    expect(page.locator("#moves-card button.move").first).to_be_visible(timeout=TURN_TIMEOUT)


def test_a_move_whose_answer_is_lost_is_played_once_and_not_reported_failed(
        page: Page, api_url: str, client: Client) -> None:
    """A move reaches the server but its answer is lost: the page sends it again with the same
    Idempotency-Key, gets the first answer, shows no error, and the move counts once."""
    created = client.create({"game": "savanna", "seed": 2, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    sent: list[dict[str, str]] = []

    def lose_the_first_answer(route: Route) -> None:
        sent.append(route.request.headers)
        if len(sent) > 1:
            route.continue_()
            return
        route.fetch()  # the server plays the move...
        route.abort("internetdisconnected")  # ...and the page never hears of it

    page.route(f"{api_url}/v1/matches/{match_id}/moves", lambda route: (
        lose_the_first_answer(route) if route.request.method == "POST" else route.continue_()))
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={token}")
    before = client.match(match_id)["version"]
    offered = page.locator("#moves-card:not([hidden]) button.move:not([disabled])")
    offered.first.click()
    for _ in range(100):  # the page waits a moment before it sends the move again
        if len(sent) == 2:
            break
        page.wait_for_timeout(100)
    assert len(sent) == 2 and sent[0]["idempotency-key"] == sent[1]["idempotency-key"]
    expect(page.locator("body")).not_to_have_attribute("data-version", str(before),
                                                       timeout=TURN_TIMEOUT)
    expect(page.locator("#move-error")).to_be_hidden()
    assert client.match(match_id)["version"] == before + 1  # played once
