"""Headless Chromium on a 390 px phone: a person plays Darwinning! and Evolution (North Star)
against a random bot by touching the board (cards, places, species), not the list of moves.

Each step reads the seat's view and legal moves from the API, checks that the board shows
what the view says, picks a legal move at random and touches what the move names; the page
must then post exactly that move (every fourth move is made with the keyboard instead: the
same things focused and pressed). The page never scrolls sideways.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.integration import test_web_page as web_page
from tests.integration.conftest import Client, Worker
from tests.integration.page_language import LANGS, LanguageCheck

# The phone-sized page and its browser, as the web page's tests have them.
SCREENSHOT = web_page.SCREENSHOT

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
WAIT = 30_000  # ms: one bot decision may wait in a shared queue on a loaded machine

Taps = list[str]  # the data-key of each board element to touch, "go:<move id>" for a button


def _no_sideways_scroll(page: Page) -> None:
    """Nothing on the page reaches past the phone's right edge. Measured against the screen
    itself: a mobile browser widens its layout viewport (``innerWidth``) to fit what
    overflows, and #board may scroll by itself."""
    screen = web_page.PHONE["width"]
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= screen, f"the page is {width} px wide on a {screen} px screen"
    wide = page.evaluate("""(screen) => [...document.querySelectorAll('#board *')]
      .filter(e => e.getBoundingClientRect().right > screen + 0.5)
      .map(e => e.outerHTML.slice(0, 80))""", screen)
    assert wide == [], wide[:3]


def _touch(page: Page, taps: Taps, move_id: str, keyboard: bool = False) -> None:
    """Touch each thing in turn (or, with ``keyboard``, focus it and press Enter, as a
    person without a pointer); the last touch posts ``move_id`` (and nothing else)."""
    with page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/moves"),
                             timeout=WAIT) as posted:
        for tap in taps:
            if tap.startswith("go:"):
                target = page.locator(f'.touch-bar button[data-move="{tap[3:]}"]')
            elif tap == "go":
                target = page.locator(".touch-bar button.touch-go")
            else:
                target = page.locator(f'#board button.can[data-key="{tap}"]')
            expect(target).to_have_count(1, timeout=WAIT)
            if keyboard:
                target.focus()
                page.keyboard.press("Enter")
            else:
                target.tap()
    assert json.loads(posted.value.post_data or "{}")["move_id"] == move_id


def _play_by_touch(page: Page, speaks: LanguageCheck, moves_cap: int,
                   taps_of: Callable[[dict[str, Any], dict[str, Any], Any], Taps],
                   check: Callable[[Page, dict[str, Any], int], None], seed: int) -> int:
    """Play seat 0 by touch until the match ends or ``moves_cap`` moves; the moves made.
    Every few moves the page's language is checked too (``speaks``)."""
    client, match_id, token = speaks.client, speaks.match_id, speaks.token
    rng = random.Random(seed)
    made = 0
    while made < moves_cap:
        match = client.match(match_id, token)
        if match["status"] == "finished":
            break
        if 0 not in match["to_move"]:
            time.sleep(0.05)
            continue
        moves = speaks.moves()  # labelled in the page's language
        if not moves or moves["version"] != match["version"] or not moves["moves"]:
            continue
        expect(page.locator("body")).to_have_attribute("data-version", str(match["version"]),
                                                       timeout=WAIT)
        check(page, match["view"], match["version"])
        if made % 6 == 0:
            speaks.check(page, moves)
        _no_sideways_scroll(page)
        if SCREENSHOT and made % 10 == 5:  # a few pages along the way, to look at
            page.locator("#board").screenshot(path=f"{SCREENSHOT}.{match['game']}.{made}.png")
        touchable = [m for m in moves["moves"] if m["move"]["type"] not in ("done", "pass")]
        chosen = rng.choice(touchable or moves["moves"])
        _touch(page, taps_of(chosen["move"], match["view"], chosen["id"]), chosen["id"],
               keyboard=made % 4 == 3)
        expect(page.locator("body")).not_to_have_attribute(
            "data-version", str(match["version"]), timeout=WAIT)
        made += 1
    return made


def _finish_by_touch(page: Page, api_url: str, client: Client, lang: str, game: str,
                     seed: int, board: str, moves_cap: int,
                     taps_of: Callable[[dict[str, Any], dict[str, Any], Any], Taps],
                     check: Callable[[Page, dict[str, Any], int], None]) -> None:
    """A whole seeded 2-player match against the random bot, played by touch on the page of
    seat 0 in ``lang`` (``_play_by_touch``), the page checked in its language along the way
    and once finished."""
    created = client.create({"game": game, "seed": seed, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    match_id, token = created["id"], created["tokens"][0]["token"]
    speaks = LanguageCheck(client, game, lang, match_id, token)
    page.goto(f"{api_url}/play/{match_id}#seat=0&token={token}")
    expect(page.locator(board).first).to_be_visible(timeout=WAIT)
    made = _play_by_touch(page, speaks, moves_cap, taps_of, check, seed=seed)
    expect(page.locator("body")).to_have_attribute("data-status", "finished", timeout=WAIT)
    log = client.call("GET", f"/v1/matches/{match_id}/events", token).json()["events"]
    assert sum(1 for e in log if e.get("seat") == 0 and "move" in e) == made > 20
    expect(page.locator("#scores li")).to_have_count(2)
    _no_sideways_scroll(page)
    speaks.check(page)  # the finished match too
    assert speaks.labels_compared >= 3


# -- Darwinning! ------------------------------------------------------------------------------

def _dw_taps(move: dict[str, Any], view: dict[str, Any], move_id: str) -> Taps:
    cards = lambda ids: [f"card:{c}" for c in ids]  # noqa: E731
    me = view["seat"]
    places = {"chain": "chain:{s}", "chain_down": "chaindown:{s}", "eggs": "pop:{s}",
              "environment": "envs:{s}"}
    kind = move["type"]
    if kind in ("play", "announce", "discard", "keep"):
        chosen = move.get("cards", []) + move.get("dummy", [])
        return [*cards(chosen), f"go:{move_id}"]
    if kind in ("upgrade", "pick"):
        seat = view["queue"][0]["target"] if kind == "pick" else me
        place = places.get(move["use"], "slot:{s}:" + str(move.get("slot")))
        return [f"card:{move['card']}", place.format(s=seat)]
    simple = {"lead": lambda: f"species:{move['seat']}", "steal": lambda: f"card:{move['card']}",
              "metamorphosis": lambda: f"slot:{me}:{move['slot']}",
              "symbiosis": lambda: f"env:{move['environment']}",
              "eat": lambda: f"species:{move['target']}"}
    return [simple[kind]()] if kind in simple else [f"go:{move_id}"]


_DW_SHOWN = """() => ({
  version: document.body.dataset.version,
  hand: [...document.querySelectorAll('.dw-hand .dw-card')].map(c => c.dataset.key),
  trick: [...document.querySelectorAll('.dw-trick .dw-card')].map(c => c.dataset.key),
  envs: document.querySelectorAll('.dw-env').length,
  boards: [...document.querySelectorAll('.dw-board')].map(b => [
    b.querySelector('[data-key^="chain:"]').dataset.key,
    b.querySelector('[data-key^="chain:"] strong').textContent,
    b.querySelector('[data-key^="pop:"] strong').textContent,
    b.querySelectorAll('.dw-slot').length]),
})"""


def _dw_check(page: Page, view: dict[str, Any], version: int) -> None:
    """The hand, the species boards, the environments and the trick are those of the view
    (read at once; skipped if the other seat's move was drawn meanwhile)."""
    shown = page.evaluate(_DW_SHOWN)
    if shown["version"] != str(version):
        return
    assert sorted(shown["hand"]) == sorted(f"card:{c}" for c in view["hand"])
    assert sorted(shown["trick"]) == sorted(f"card:{c}" for p in view["trick"]
                                            for c in p["cards"] + p["dummy"])
    assert shown["envs"] == len(view["envs"])
    assert sorted(shown["boards"]) == sorted(
        [f"chain:{seat}", str(b["position"]), str(b["population"]), len(b["slots"])]
        for seat, b in enumerate(view["boards"]))


@pytest.mark.parametrize("lang", LANGS)
def test_a_person_plays_darwinning_by_touching_the_board(
        page: Page, api_url: str, client: Client, worker: Worker, lang: str) -> None:
    """A whole two-player match: about 55 moves of the person, some 15 s on a quiet machine;
    in the browser's language (page_language.py: the board's words, the abilities' and
    environments' names and the move list's labels in it, checked along)."""
    _finish_by_touch(page, api_url, client, lang, "darwinning", 5, ".dw-board",
                     200, _dw_taps, _dw_check)


# -- Evolution (North Star) -------------------------------------------------------------------

def _ns_taps(move: dict[str, Any], view: dict[str, Any], move_id: str) -> Taps:
    me = view["seat"]
    card = f"card:{move.get('card')}"
    mine = f"sp:{me}:{move.get('species')}"
    kind = move["type"]
    if kind == "effect":  # the card on the species that carries the trait
        sp = view["species"][me][move["species"]]
        carriers = [c for c in sp["traits"] + sp.get("down_cards", [])
                    if _NS_TRAIT_OF[c] == move["trait"]]
        return [f"card:{carriers[0]}"]
    taps = {
        "food": lambda: [card, "hole"],
        "trait": lambda: [card, mine] + ([f"card:{move['replace']}"]
                                         if move.get("replace") is not None else []),
        "new_species": lambda: [card, f"end:{move['side']}"],
        "grow": lambda: [card, f"{move['what']}:{move['seat']}:{move['species']}"],
        "eat": lambda: [mine],
        "intelligence": lambda: [card, mine],
        "attack": lambda: [mine, f"sp:{move['target_seat']}:{move['target']}"],
        "negate": lambda: [card, f"negate:{move['trait']}"],
    }
    return taps[kind]() if kind in taps else [f"go:{move_id}"]


_NS_SHOWN = """() => ({
  version: document.body.dataset.version,
  hand: [...document.querySelectorAll('.ns-hand > .ns-cards .ns-card')].map(c => c.dataset.key),
  hole: document.querySelector('.ns-hole').textContent,
  players: document.querySelectorAll('.ns-player').length,
  pending: document.querySelectorAll('.ns-pending').length,
  species: Object.fromEntries([...document.querySelectorAll('.ns-species')].map(li => [
    li.querySelector('[data-key^="sp:"]').dataset.key, [
      li.querySelector('[data-key^="body:"] strong').textContent,
      li.querySelector('[data-key^="pop:"] strong').textContent,
      [...li.querySelectorAll(':scope > .ns-cards .ns-card')].map(c => c.dataset.key)]])),
})"""


def _ns_check(page: Page, view: dict[str, Any], version: int) -> None:
    """The hand, the watering hole, every species' numbers and face-up traits are the view's
    (read at once; skipped if the other seat's move was drawn meanwhile)."""
    shown = page.evaluate(_NS_SHOWN)
    if shown["version"] != str(version):
        return
    assert sorted(shown["hand"]) == sorted(f"card:{c}" for c in view["hand"])
    assert f"{view['hole']} " in shown["hole"]
    assert shown["players"] == view["players"]
    assert shown["pending"] == (1 if view["pending"] else 0)
    assert shown["species"] == {
        f"sp:{seat}:{index}": [str(sp["body"]), str(sp["pop"]), [f"card:{c}" for c in sp["traits"]]]
        for seat, row in enumerate(view["species"]) for index, sp in enumerate(row)}


_NS_TRAIT_OF: list[str] = []


@pytest.mark.parametrize("lang", LANGS)
def test_a_person_plays_evolution_ns_by_touching_the_board(
        page: Page, api_url: str, client: Client, worker: Worker, lang: str) -> None:
    """A whole two-player match: some 70-90 moves of the person, about 30 s on a quiet
    machine (food cards, cards played as traits, growths and new species, feedings); in the
    browser's language (page_language.py: the board's words, the cards' names and the move
    list's labels in it, checked along)."""
    catalogue = client.call("GET", "/v1/games/evolution-ns/components").json()["components"]
    _NS_TRAIT_OF[:] = [c["icons"][0] for c in sorted(
        (c for c in catalogue if c["category"] == "card"), key=lambda c: c["key"])]
    _finish_by_touch(page, api_url, client, lang, "evolution-ns", 7, ".ns-player",
                     300, _ns_taps, _ns_check)


@pytest.mark.parametrize(("game", "options", "players"), [
    ("darwinning", {"edition": "1.7"}, 3), ("evolution-ns", {"quick": True}, 3)])
def test_a_spectator_sees_a_bigger_table_on_a_phone(
        page: Page, api_url: str, client: Client, worker: Worker, game: str,
        options: dict[str, Any], players: int) -> None:
    """Three random bots, the other edition or variant: every seat's board is drawn from the
    view as the match goes on (no script error, nothing past the phone's edge), and a
    spectator is offered nothing to touch."""
    created = client.create({"game": game, "seed": 3, "options": options, "seats": [
        {"kind": "bot", "bot": {"kind": "random"}} for _ in range(players)]})
    page.goto(f"{api_url}/play/{created['id']}")
    boards = page.locator(".dw-board" if game == "darwinning" else ".ns-player")
    expect(boards).to_have_count(players, timeout=WAIT)
    for _ in range(5):  # a few moments of the match as it is played
        _no_sideways_scroll(page)
        expect(page.locator("#board button.can")).to_have_count(0)
        page.wait_for_timeout(300)
    expect(boards).to_have_count(players)
