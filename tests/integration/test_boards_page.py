"""Savanna's and Evolution's boards in headless Chromium on a phone-sized page: a whole match
played by tapping the board, one by keyboard only (Tab, Enter, Space), the focus kept where
the person was after a redraw, other seats' actions announced, and axe-core's accessibility
rules (0 serious or critical violations) on the lobby and on each game's match page.

axe-core comes from tests/js (pinned in its package.json, installed by ``make install``).
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Request, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from shared.games.evolution import EvolutionGame
from tests.integration.browsers import PHONE, serious_violations
from tests.integration.conftest import Client, Worker
from tests.integration.page_language import LANGS, LanguageCheck

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
TURN_TIMEOUT = 60_000  # ms: a bot's turn may wait behind other tests' searches (see test_web_page)
GAMES = ("darwinning", "evolution", "evolution-ns", "savanna")
SHOTS = os.environ.get("EVO_SCREENSHOT_DIR")  # where to save the boards' pictures, if anywhere


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def _focused(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("""() => {
      const e = document.activeElement;
      return {body: e === document.body || e === null, key: e ? e.dataset.focusKey || null : null,
              touch: Boolean(e && e.matches('button.touch-can') && !e.disabled),
              region: e && e.closest('[data-focus-region]')
                ? e.closest('[data-focus-region]').dataset.focusRegion : null};
    }""")
    return found


def _is_move_post(request: Request) -> bool:
    return request.method == "POST" and request.url.endswith("/moves")


def _wait_redrawn(page: Page, posted: Request) -> None:
    """Wait until the page has drawn what the move led to: the version it was applied at (or
    the current one it was refused for), with no control left disabled by the posting. (The
    bot's move may change the version first: that is not yet the move's redraw.)"""
    answer = posted.response()
    assert answer is not None and answer.status in (200, 409), answer
    page.wait_for_function(
        """v => Number(document.body.dataset.version) >= v
            && !document.querySelector('#board button:disabled, #moves button:disabled')""",
        arg=answer.json()["version"], timeout=TURN_TIMEOUT)


def _open(page: Page, api_url: str, match: dict[str, Any], seat: int = 0) -> None:
    token = match["tokens"][seat]["token"]
    page.goto(f"{api_url}/play/{match['id']}#seat={seat}&token={token}")


def test_axe_finds_no_serious_violation_on_the_lobby_and_each_game(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    page.goto(f"{api_url}/")
    expect(page.locator("#game option").first).to_be_attached()
    expect(page.locator("#matches tbody tr").first).to_be_attached()
    assert serious_violations(page) == []
    for game in GAMES:
        match = client.create({"game": game, "seed": 3, "seats": [
            {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
        _open(page, api_url, match)
        # The board is drawn (the game's own or the generic one) and the seat's moves listed.
        expect(page.locator("#board > *").first).to_be_visible(timeout=TURN_TIMEOUT)
        expect(page.locator("#moves-card button.move").first).to_be_visible(timeout=TURN_TIMEOUT)
        assert serious_violations(page) == [], game
        if game in ("evolution", "savanna"):  # a board with a selection or its choices up
            page.locator("#board button.touch-can").first.click()
            assert serious_violations(page) == [], game


@pytest.mark.parametrize("lang", LANGS)
def test_a_person_finishes_savanna_by_tapping_the_board(
        page: Page, api_url: str, client: Client, worker: Worker, lang: str) -> None:
    """From the lobby to the end of the match in the browser's language (page_language.py:
    the board's words, the cards' names and the move list's labels in it, checked along)."""
    page.goto(f"{api_url}/")
    page.select_option("#game", "savanna")
    page.select_option("#seats", "2")
    page.select_option("select[name=seat-0]", "human")
    page.select_option("select[name=seat-1]", "bot:random")
    page.locator("#create-button").tap()
    page.wait_for_url(f"{api_url}/play/*")
    match_id = page.url.rsplit("/", 1)[1]
    token = page.evaluate(f"() => Arena.tokens({json.dumps(match_id)})[0]")
    speaks = LanguageCheck(client, "savanna", lang, match_id, token)
    sent: list[tuple[str, str]] = []  # (the key tapped, the move posted)
    answers: list[int] = []
    finished = page.locator("body[data-status=finished]")
    target = page.locator(".sv-board button.touch-can")
    started = time.monotonic()
    while True:
        expect(finished.or_(target).first).to_be_visible(timeout=TURN_TIMEOUT)
        if finished.count():
            break
        if len(sent) % 8 == 0 and len(sent) // 8 >= speaks.checks:  # now and then
            speaks.check(page)
        try:
            tapped = target.first.element_handle(timeout=1000)
            key = tapped.get_attribute("data-touch")
            with page.expect_request(_is_move_post, timeout=5000) as posted:
                tapped.tap(timeout=2000)
        except PlaywrightError:  # a timeout too
            continue  # the board was redrawn under the finger: tap again on the new one
        assert key is not None
        body = json.loads(posted.value.post_data or "{}")
        sent.append((key, body["move_id"]))
        answer = posted.value.response()
        answers.append(answer.status if answer else 0)
        assert len(sent) < 120
    assert time.monotonic() - started < 60
    # The cells are shown with their coordinates and every tap posted the move it names: a
    # card of the hand its pick, a cell its placement at those coordinates.
    for key, move_id in sent:
        kind, _, what = key.partition(":")
        assert move_id == {"card": "pick:", "cell": "place:"}[kind] + what
    assert sum(1 for _, m in sent if m.startswith("place:")) >= 20
    assert set(answers) <= {200, 409}
    log = client.call("GET", f"/v1/matches/{match_id}/events").json()["events"]
    assert answers.count(200) == sum(1 for e in log if e.get("seat") == 0 and "move" in e)
    expect(page.locator("#scores li")).to_have_count(2)
    expect(page.locator(".sv-grid")).to_have_count(2)
    assert page.locator(".sv-grid").first.locator(".sv-filled").count() == 20
    speaks.check(page)  # the finished match too
    assert speaks.checks >= 5 and speaks.labels_compared >= 1
    _shot(page, "savanna-finished")


def test_a_person_plays_savanna_with_the_keyboard_only(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    match = client.create({"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    _open(page, api_url, match)
    finished = page.locator("body[data-status=finished]")
    ready = page.locator(".sv-board button.touch-can")
    keys = ["Enter", " "]
    moves = 0
    started = time.monotonic()
    while True:
        expect(finished.or_(ready).first).to_be_visible(timeout=TURN_TIMEOUT)
        if finished.count():
            break
        tabs = 0
        while not _focused(page)["touch"]:  # Tab to a thing of the board that may be touched
            page.keyboard.press("Tab")
            tabs += 1
            assert tabs < 80, _focused(page)
        key = _focused(page)["key"]
        try:
            with page.expect_request(_is_move_post, timeout=3000) as posted:
                page.keyboard.press(keys[moves % 2])
        except PlaywrightTimeout:
            continue  # the board was redrawn as the key went down: look again
        moves += 1
        _wait_redrawn(page, posted.value)
        # After the move and the redraw the focus is on the board, never the body.
        focus = _focused(page)
        assert not focus["body"] and focus["region"] == "board", (key, focus)
        assert moves < 120
    assert time.monotonic() - started < 60
    assert moves >= 40
    expect(page.locator("#scores li")).to_have_count(2)
    assert client.match(match["id"])["status"] == "finished"


def test_the_focus_stays_put_when_another_seat_moves_and_it_is_announced(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    match = client.create({"game": "savanna", "seed": 4, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    theirs = match["tokens"][1]["token"]
    _open(page, api_url, match)
    cards = page.locator(".sv-hand button.touch-can")
    expect(cards.first).to_be_visible(timeout=TURN_TIMEOUT)

    def other_seat_picks() -> None:
        version = page.get_attribute("body", "data-version")
        moves = client.call("GET", f"/v1/matches/{match['id']}/moves", theirs).json()
        picked = client.call("POST", f"/v1/matches/{match['id']}/moves", theirs, json={
            "version": moves["version"], "move_id": moves["moves"][0]["id"]})
        assert picked.status_code == 200, picked.text
        expect(page.locator("body")).not_to_have_attribute("data-version", version or "")

    cards.nth(2).focus()  # a card of the hand on the board...
    key = _focused(page)["key"]
    other_seat_picks()
    assert _focused(page)["key"] == key  # ...is focused again once redrawn
    expect(page.locator("#announce")).to_contain_text(f"{match['seats'][1]['name']} picked a card")
    # A move of the list: the same move is focused after the list is drawn again.
    button = page.locator("#moves button.move").nth(1)
    button.focus()
    key = _focused(page)["key"]
    assert key and key.startswith("move:")
    # The other seat placed too (both cards revealed, both placed): a new step, new hands.
    mine = match["tokens"][0]["token"]
    moves = client.call("GET", f"/v1/matches/{match['id']}/moves", mine).json()
    assert client.call("POST", f"/v1/matches/{match['id']}/moves", mine, json={
        "version": moves["version"], "move_id": moves["moves"][1]["id"]}).status_code == 200
    expect(page.locator(".sv-grid .sv-open").first).to_be_visible(timeout=TURN_TIMEOUT)
    _shot(page, "savanna-place")
    # The picked card is gone from the list: the focus goes to the list's first move.
    focus = _focused(page)
    assert not focus["body"] and focus["region"] == "moves", focus
    expect(page.locator("#announce")).to_contain_text("Picks revealed")
    # The person places with the cell on the board; the other seat's placement is announced.
    page.locator(".sv-grid .sv-open").first.click()
    expect(page.locator("#announce")).to_contain_text("You: Place", timeout=TURN_TIMEOUT)
    focus = _focused(page)
    assert not focus["body"] and focus["region"] == "board", focus
    version = page.get_attribute("body", "data-version")
    moves = client.call("GET", f"/v1/matches/{match['id']}/moves", theirs).json()
    assert client.call("POST", f"/v1/matches/{match['id']}/moves", theirs, json={
        "version": moves["version"], "move_id": moves["moves"][0]["id"]}).status_code == 200
    expect(page.locator("body")).not_to_have_attribute("data-version", version or "")
    expect(page.locator("#announce")).to_contain_text(f"{match['seats'][1]['name']} placed")


EVOLUTION_MOVES = 300  # a bound: a whole match is ~90 of the person's moves (~25 s)


@pytest.mark.parametrize("lang", LANGS)
def test_a_person_finishes_evolution_by_tapping_the_board(
        page: Page, api_url: str, client: Client, worker: Worker, lang: str) -> None:
    """Every move by touching what it names (a card, then an animal or the place of a new
    one; the food bank, then an animal; a carnivore, then its prey…), or a panel button for
    the moves that name nothing (pass), to the end of the match; in the browser's language
    (page_language.py: the board's words, the traits' names and the move list's labels in
    it, checked along)."""
    match = client.create({"game": "evolution", "seed": 11, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    speaks = LanguageCheck(client, "evolution", lang, match["id"], match["tokens"][0]["token"])
    _open(page, api_url, match)
    board = page.locator(".ev-board")
    finished = page.locator("body[data-status=finished]")
    ready = board.locator("button.touch-can, button.touch-choice, button.touch-action")
    rng = random.Random(5)
    posts: list[Request] = []
    page.on("request", lambda r: posts.append(r) if _is_move_post(r) else None)
    started = time.monotonic()
    while len(posts) < EVOLUTION_MOVES:
        expect(finished.or_(ready).first).to_be_visible(timeout=TURN_TIMEOUT)
        if finished.count():
            break
        if len(posts) % 15 == 0 and len(posts) // 15 >= speaks.checks:  # now and then
            speaks.check(page)
        # Mostly a thing of the board; a panel button (pass) now and then, so phases move on.
        things = board.locator("button.touch-choice")
        if not things.count():
            things = board.locator("button.touch-can")
            if not things.count() or rng.random() < 0.12:
                things = board.locator("button.touch-action, button.touch-can")
        before = len(posts)
        try:
            things.nth(rng.randrange(max(things.count(), 1))).tap(timeout=2000)
            # A first touch is drawn as chosen at once; a last one posts its move (and the
            # board's controls are disabled until the page has drawn what it led to).
            page.wait_for_function(
                "() => document.querySelector('#board :is(.touch-selected, .touch-choice, "
                "button:disabled)')", timeout=2000)
        except PlaywrightError:  # a timeout too
            continue  # the board was redrawn under the finger: look again
        if not page.locator("#board button:disabled").count() and len(posts) == before:
            continue  # a thing chosen: touch the next one
        deadline = time.monotonic() + 10
        while len(posts) == before and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        assert len(posts) == before + 1
        _wait_redrawn(page, posts[-1])
    assert time.monotonic() - started < 60
    assert finished.count() == 1
    expect(page.locator("#scores li")).to_have_count(2)
    log = client.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
    made = [e["move"] for e in log if e.get("seat") == 0 and "move" in e]
    answers = [r.response() for r in posts]
    statuses = [a.status if a else 0 for a in answers]
    assert set(statuses) <= {200, 409} and statuses.count(200) == len(made)
    kinds = {move["type"] for move in made}
    # Cards played as animals and traits (a card, then a place), food taken (the bank, then
    # an animal), passes (a panel button).
    assert kinds >= {"play_animal", "play_trait", "take_food", "pass"}, kinds
    speaks.check(page)  # the finished match too
    assert speaks.checks >= 4 and speaks.labels_compared >= 1


def _evolution_view_with(wanted: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A seat's view and moves of a real Evolution position (random play from a seed) where
    ``wanted`` holds: ``pairs`` (paired traits between seat 0's animals, which may play one
    more) or ``defence`` (seat 0 chooses a defence against a pending attack)."""
    game = EvolutionGame()
    for seed in range(400):
        rng = random.Random(seed)
        state = game.new_state(2, game.resolve_options(None), rng)
        while not state.is_over():
            seat = state.to_move()[0]
            view = state.view(0)
            moves = state.legal_moves(0) if 0 in state.to_move() else []
            own_pairs = [p for p in view["pairs"] if any(
                a["id"] == p[2] and a["owner"] == 0 for a in view["animals"])]
            defence = [m for m in moves if m["type"] == "defend"]
            pairing = any(m["type"] == "play_pair" for m in moves)
            if (wanted == "pairs" and len(own_pairs) >= 2 and pairing) or (
                    wanted == "defence" and defence):
                listed = [{"id": state.move_id(m), "label": state.move_label(m), "move": m}
                          for m in moves]
                return view, {"version": 1, "moves": listed}
            state.apply(seat, rng.choice(state.legal_moves(seat)), rng)
    raise AssertionError(f"no seed gave a position with {wanted}")


DRAW_EVOLUTION = """async ([view, moves, explore]) => {
  const body = await (await fetch("/v1/games/evolution/components")).json();
  const components = new Map(body.components.map((c) => [c.id, c]));
  const chosen = [];
  let drawn = 0;
  const draw = () => {  // a board of its own (a selection starts empty); `choose` records
    drawn += 1;
    const match = {id: `drawn-${drawn}`, game: "evolution", to_move: view.to_move,
                   seats: [{seat: 0, name: "Me"}, {seat: 1, name: "Bot"}]};
    const play = {moves, components, choose: (id) => { chosen.push(id); }};
    document.getElementById("board").replaceChildren(window.EvoBoards.evolution(view, match, play));
  };
  draw();
  if (!explore) return [];
  // Every sequence of touches (things of the board that may be touched, choices, panel
  // buttons), each from a fresh board: the moves they lead to.
  const steps = () => [...document.querySelectorAll(
    "#board :is(button.touch-can, button.touch-choice, button.touch-action)")];
  const reached = new Set();
  const walk = (prefix) => {
    draw();
    prefix.forEach((i) => steps()[i].click());
    const count = steps().length;
    for (let i = 0; i < count; i += 1) {
      draw();
      prefix.forEach((j) => steps()[j].click());
      const before = chosen.length;
      steps()[i].click();
      if (chosen.length > before) reached.add(chosen[chosen.length - 1]);
      else if (prefix.length < 4) walk([...prefix, i]);
    }
  };
  walk([]);
  draw();
  return [...reached];
}"""


def _draw_evolution(page: Page, api_url: str, client: Client, view: dict[str, Any],
                    moves: dict[str, Any], explore: bool = False) -> list[str]:
    """Evolution's board drawn in the match page from a given view and moves (with
    ``explore``, after trying every sequence of touches: the move ids they chose)."""
    spectated = client.create({"game": "evolution", "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    page.goto(f"{api_url}/play/{spectated['id']}")
    expect(page.locator(".ev-board")).to_be_visible(timeout=TURN_TIMEOUT)
    page.evaluate("() => { if (page.stream) page.stream.close(); }")  # nothing redraws it
    reached: list[str] = page.evaluate(DRAW_EVOLUTION, [view, moves, explore])
    return reached


@pytest.mark.parametrize("wanted", ["pairs", "defence"])
def test_every_evolution_move_is_made_by_touching_what_it_names(
        page: Page, api_url: str, client: Client, worker: Worker, wanted: str) -> None:
    view, moves = _evolution_view_with(wanted)
    reached = _draw_evolution(page, api_url, client, view, moves, explore=True)
    assert sorted(reached) == sorted(m["id"] for m in moves["moves"])
    kinds = {m["move"]["type"] for m in moves["moves"]}
    assert kinds >= ({"play_pair", "play_trait"} if wanted == "pairs" else {"defend", "decline"})


def test_evolution_draws_paired_traits_joining_their_animals(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    view, moves = _evolution_view_with("pairs")
    _draw_evolution(page, api_url, client, view, moves)
    mine = page.locator(".ev-player").first
    own = {a["id"] for a in view["animals"] if a["owner"] == 0}
    pairs = [p for p in view["pairs"] if p[2] in own]
    expect(mine.locator(".ev-link")).to_have_count(len(pairs))
    for _, trait, a, b in pairs:
        ends = [mine.locator(f".ev-animal[data-animal='{x}']").bounding_box() for x in (a, b)]
        assert ends[0] and ends[1]
        top = min(e["y"] for e in ends if e)
        bottom = max(e["y"] + e["height"] for e in ends if e)
        # A bracket at their left spans from the first animal of the pair to the second.
        links = [mine.locator(".ev-link").nth(i).bounding_box() for i in range(len(pairs))]
        assert any(link and top <= link["y"] <= top + 40
                   and bottom - 40 <= link["y"] + link["height"] <= bottom
                   and all(link["x"] + link["width"] <= e["x"] + 2 for e in ends if e)
                   for link in links), (a, b, trait)
        # The paired trait is named on both its animals, with the other one.
        expect(mine.locator(f".ev-animal[data-animal='{a}'] .ev-paired")).to_contain_text(
            [f"Animal {b}"])
        expect(mine.locator(f".ev-animal[data-animal='{b}'] .ev-paired")).to_contain_text(
            [f"Animal {a}"])
    _shot(page, "evolution-pairs")
    # Phone first: nothing is wider than the screen.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_evolution_shows_the_pending_attack(
        page: Page, api_url: str, client: Client, worker: Worker) -> None:
    view, moves = _evolution_view_with("defence")
    _draw_evolution(page, api_url, client, view, moves)
    board = page.locator(".ev-board")
    pending = view["pending"]
    panel = board.locator(".ev-attack")
    owner = {a["id"]: ("Me", "Bot")[a["owner"]] for a in view["animals"]}
    expect(panel).to_contain_text(
        f"Animal {pending['carnivore']} of {owner[pending['carnivore']]} attacks "
        f"Animal {pending['target']} of {owner[pending['target']]}")
    expect(panel).to_contain_text("Your defence:")
    target = board.locator(f".ev-animal.ev-attacked[data-animal='{pending['target']}']")
    expect(target).to_have_count(1)
    expect(board.locator(f".ev-animal.ev-attacker[data-animal='{pending['carnivore']}']")
           ).to_have_count(1)
    # The defence traits of the attacked animal are what may be touched, and the panel lets
    # the attack go ahead.
    expect(target.locator("button.touch-can").first).to_be_visible()
    expect(board.locator("button.touch-action")).to_have_count(1)  # the only move naming nothing
    _shot(page, "evolution-attack")


def test_no_board_is_drawn_before_its_stylesheet_arrives(page: Page, api_url: str,
                                                         client: Client) -> None:
    """A game's styles come from its own ``board.css`` (loaded with its ``board.js``): on a
    slow network the board still waits for them, rather than showing unstyled cards that
    overflow the phone for a moment (and fail the cut-off checks of the full matches)."""
    match = client.create({"game": "savanna", "seed": 7, "seats": [
        {"kind": "human"}, {"kind": "human"}]})

    def late(route: Any) -> None:
        time.sleep(1.5)
        route.continue_()

    page.route("**/boards/savanna.css", late)
    _open(page, api_url, match)
    expect(page.locator(".sv-board .sv-hand").first).to_be_attached(timeout=TURN_TIMEOUT)
    # Read at once, the first moment the board is there: its own rules already apply (the
    # hand is a flex row of cards; unstyled, a plain block).
    shown = page.evaluate("() => getComputedStyle(document.querySelector('.sv-hand')).display")
    assert shown == "flex", shown


def test_a_long_name_in_a_narrow_savanna_cell_is_not_cut_off(page: Page, api_url: str,
                                                             client: Client) -> None:
    """The board itself, drawn for a savanna five cards wide with the cells a placement may
    go to on either side (seven narrow columns on a 390 px phone): "Watering Hole" in every
    cell, each a cell that may be touched, is shown whole (the cell grows a line taller
    rather than cutting the name off; random deals met it now and then in the full match)."""
    match = client.create({"game": "savanna", "seed": 7, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    _open(page, api_url, match)
    expect(page.locator(".sv-board").first).to_be_visible(timeout=TURN_TIMEOUT)
    clipped = page.evaluate("""async () => {
      const draw = await Arena.board("savanna", null);
      const cards = [-2, -1, 0, 1, 2].map((col) => ({ row: 0, col, card: "watering_hole" }));
      const open = [[0, -3], [0, 3], [-1, 0], [1, 0]];
      const moves = [...cards.map((c) => [c.row, c.col]), ...open].map(([row, col], i) => (
        { id: `m${i}`, label: `place ${row},${col}`, move: { type: "place", row, col } }));
      const play = { moves: { version: 1, moves }, components: null, choose: () => {} };
      const view = { seat: 0, savannas: [cards, []], hand_sizes: [1, 1], revealed: ["grass", null],
        picked: [], removed: [], stage: "place", pass_direction: "left", over: false, phase: 1,
        step: 1, deck_size: 10, hand: ["grass"] };
      const match = { id: "drawn", seats: [{ name: "A" }, { name: "B" }], to_move: [0] };
      document.querySelector("#board").replaceChildren(draw(view, match, play));
      const cells = [...document.querySelectorAll("#board .sv-cell.sv-filled")];
      if (cells.length !== 5) return [`${cells.length} filled cells drawn`];
      const cut = (e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1;
      return cells.filter(cut).map((e) =>
        `${e.textContent}: ${e.scrollHeight} px high in ${e.clientHeight}`);
    }""")
    assert clipped == []


def test_another_seats_evolution_ns_moves_are_announced_in_words(
        page: Page, api_url: str, client: Client) -> None:
    """A screen reader hears what the other seat did, not only that it moved: its secret food
    card, a trait played face down on which species (the card stays unsaid), in the page's
    language (the board's ``describe``)."""
    match = client.create({"game": "evolution-ns", "seed": 2, "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    mine, theirs = (t["token"] for t in match["tokens"])
    other = match["seats"][1]["name"]
    _open(page, api_url, match)
    expect(page.locator("#moves-card button.move").first).to_be_visible(timeout=TURN_TIMEOUT)

    def post(token: str, wanted: str) -> None:
        version = page.get_attribute("body", "data-version")
        moves = client.call("GET", f"/v1/matches/{match['id']}/moves", token).json()
        chosen = next(m for m in moves["moves"] if m["move"]["type"] == wanted)
        answer = client.call("POST", f"/v1/matches/{match['id']}/moves", token, json={
            "version": moves["version"], "move_id": chosen["id"]})
        assert answer.status_code == 200, answer.text
        expect(page.locator("body")).not_to_have_attribute("data-version", version or "")

    post(theirs, "food")
    expect(page.locator("#announce")).to_contain_text(f"{other} put a food card face down.")
    post(mine, "food")
    for _ in range(4):  # the play phase: the other seat plays a trait when it is its turn
        now = client.match(match["id"])
        if 1 in now["to_move"]:
            post(theirs, "trait")
            break
        post(mine, "done")
    expect(page.locator("#announce")).to_contain_text(
        f"{other} played a trait face down on species 1.")
    expect(page.locator("#announce")).not_to_contain_text(f"{other} moved.")


#: What seats and rules do that a listener must hear in words, by game (the games whose
#: boards describe their events: Evolution and Savanna have their own tests above).
SAID = {
    "evolution-ns": {
        "food_card_chosen", "trait_played", "new_species", "grown", "done", "traits_revealed",
        "food_revealed", "effect", "ate", "intelligence_food", "attack_declared", "negated",
        "attack", "meat", "scavenged", "cooperation", "pass", "feeding_ended", "extinct",
        "round_started", "plays_revealed"},
    "darwinning": {
        "leader_chosen", "era_started", "discarded", "kept", "survival_started",
        "metamorphosis", "upgraded", "trick_started", "played", "announced", "trick_won",
        "dummy_climbed", "stole", "stolen_card_discarded", "no_upgrade", "no_pick", "no_steal",
        "symbiosis", "ate", "stopped_eating", "fed", "bitten"},
}


@pytest.mark.parametrize(("game", "options", "players"), [
    ("evolution-ns", {"quick": False}, 3), ("evolution-ns", {"quick": True}, 3),
    ("darwinning", {}, 3), ("darwinning", {}, 2)],
    ids=["ns-standard", "ns-quick", "darwinning-3", "darwinning-2"])
def test_every_event_a_seat_sees_has_words(page: Page, api_url: str, client: Client,
                                           worker: Worker, game: str,
                                           options: dict[str, Any], players: int) -> None:
    """Whole seeded bot matches: each event as a seat saw it while the match ran gets words
    from the board's ``describe`` without failing (no field it reads is missing), and every
    kind a listener must hear gets some."""
    match = client.create({"game": game, "seed": 6, "options": options,
                           "seats": [{"kind": "bot", "bot": {"kind": "random"}}] * players})
    client.wait_finished(match["id"], timeout=120)
    page.goto(f"{api_url}/play/{match['id']}")
    expect(page.locator(".player").first).to_be_visible(timeout=TURN_TIMEOUT)
    events = client.call("GET", f"/v1/matches/{match['id']}/events").json()["events"]
    # As seat 1 saw them while the match ran: its own secrets and the public counterparts.
    seen = [e for entry in events for e in entry["events"]
            if ("audience" not in e or 1 in e["audience"]) and 1 not in e.get("exclude", [])]
    said = page.evaluate("""async ([events, game]) => {
        const match = await Arena.api("GET", location.pathname.replace("/play/", "/v1/matches/"));
        const comps = await catalogue(match.game);
        const describe = window.EvoBoards[game].describe;
        return events.map((e) => [e.type, describe(e, match, comps)]);
    }""", [seen, game])
    broken = [(kind, text) for kind, text in said
              if text is not None and any(bad in text for bad in ("{", "undefined", "NaN"))]
    assert broken == [], broken
    # Seat 1's own secret events (a food card, a face-down trait, its discards) are its
    # moves, said by their labels: the rest must have words.
    mine = [("audience" in e and e.get("seat") == 1) for e in seen]
    others = {e["type"] for e, own in zip(seen, mine, strict=True) if not own}
    worded = {kind for (kind, text), own in zip(said, mine, strict=True) if text and not own}
    wanted = SAID[game] & others
    assert wanted - worded == set(), sorted(wanted - worded)
    assert len(wanted) >= 8, sorted(wanted)
