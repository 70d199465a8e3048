"""Headless Chromium steps through a finished match on the replay page: forward and back
with the buttons and the arrow keys, a seat's point of view and a spectator's, and a shared
link that opens at its step and seat; the match page links to the replay."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.integration.conftest import Client, Worker
from tests.integration.test_analysis_http import analysis_worker, finished_match

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
__all__ = ["analysis_worker"]  # the tournament-queue worker of the analysis test, a fixture here
WAIT = 15_000  # milliseconds: the page asks the API (no worker) once per step
SCREENSHOT = os.environ.get("EVO_REPLAY_SCREENSHOT")  # where to save the page, if anywhere


def at_step(page: Page, step: int, seat: str = "") -> None:
    expect(page.locator(f'body[data-step="{step}"][data-seat="{seat}"]')).to_have_count(
        1, timeout=WAIT)


def test_a_replay_steps_back_and_forward_and_opens_from_a_shared_link(
        page: Page, api_url: str, client: Client) -> None:
    match_id, _ = finished_match(client, 616)
    moves = client.call("GET", f"/v1/matches/{match_id}/replay").json()["moves"]

    page.goto(f"{api_url}/play/{match_id}")  # the match page links to its replay
    link = page.locator("#replay-link")
    expect(link).to_be_visible(timeout=WAIT)
    link.click()
    page.wait_for_url(f"{api_url}/replay/{match_id}")
    at_step(page, 0)
    expect(page.locator("#board .player")).to_have_count(2)  # the game's own board
    expect(page.locator("#back")).to_be_disabled()

    page.click("#forward")
    at_step(page, 1)
    expect(page.locator("#step-move")).to_contain_text(moves[0]["label"])
    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    page.keyboard.press("ArrowLeft")
    at_step(page, 1)
    page.click("#back")
    at_step(page, 0)
    page.keyboard.press("End")
    at_step(page, len(moves))
    expect(page.locator("#forward")).to_be_disabled()
    page.locator(f'#replay-moves button[data-step="{3}"]').click()  # a move of the list
    at_step(page, 3)
    expect(page.locator("#board")).not_to_contain_text("Your hand")  # a spectator's view

    page.select_option("#pov", "0")  # seat 0's point of view: its hand shows
    at_step(page, 3, "0")
    expect(page.locator("#board")).to_contain_text("Your hand")
    page.keyboard.press("ArrowRight")
    at_step(page, 4, "0")
    shared = page.locator("#share").get_attribute("href")
    assert shared == f"/replay/{match_id}#step=4&seat=0"
    assert page.url.endswith("#step=4&seat=0")

    other = page.context.new_page()  # someone opens the shared link
    other.goto(f"{api_url}{shared}")
    at_step(other, 4, "0")
    expect(other.locator("#pov")).to_have_value("0")
    expect(other.locator("#step-move")).to_contain_text(moves[3]["label"])
    expect(other.locator("#board")).to_contain_text("Your hand")
    wrong = page.context.new_page()  # a link naming a seat and a step the match has not
    wrong.goto(f"{api_url}/replay/{match_id}#step=9999&seat=7")
    at_step(wrong, 0)  # the deal, as a spectator
    if SCREENSHOT:
        Path(SCREENSHOT).parent.mkdir(parents=True, exist_ok=True)
        other.screenshot(path=SCREENSHOT, full_page=True)


def test_a_language_picked_on_one_page_holds_on_the_replay_and_leaderboard_pages(
        page: Page, api_url: str, client: Client) -> None:
    """The picker's choice is remembered on every page: the replay page once answered the
    remembered ``?lang=`` with a 422 (it took no language), and the leaderboard's picker did
    nothing (it had no script)."""
    match_id, _ = finished_match(client, 617)
    page.goto(f"{api_url}/play/{match_id}")
    page.select_option("#lang-picker", "cs")
    page.wait_for_url("**lang=cs")
    link = page.locator("#replay-link")
    expect(link).to_be_visible(timeout=WAIT)
    link.click()
    page.wait_for_url(f"{api_url}/replay/{match_id}?lang=cs")
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("#title")).to_contain_text("Záznam: Ecosystem: Savanna", timeout=WAIT)
    page.goto(f"{api_url}/leaderboard/savanna")  # no lang: the remembered one is passed on
    page.wait_for_url("**/leaderboard/savanna?lang=cs")
    page.select_option("#lang-picker", "pl")  # and its own picker switches it
    page.wait_for_url("**/leaderboard/savanna?lang=pl")
    expect(page.locator("html")).to_have_attribute("lang", "pl")


def test_the_page_marks_where_a_seat_lost_most(
        page: Page, api_url: str, client: Client, analysis_worker: Worker) -> None:
    match_id, _ = finished_match(client, 515)
    page.goto(f"{api_url}/replay/{match_id}#step=0&seat=1")
    at_step(page, 0, "1")
    page.click("#analyse")
    expect(page.locator("#analysis-text")).to_contain_text("lost most", timeout=60_000)
    analysis = client.call("GET", f"/v1/matches/{match_id}/analysis?seat=1").json()
    assert analysis["marked"]  # random play gives some of its estimate away
    expect(page.locator("#analysis li")).to_have_count(len(analysis["marked"]))
    expect(page.locator("#replay-moves button.lost")).to_have_count(len(analysis["marked"]))
    worst = next(d for d in analysis["decisions"] if d["step"] == analysis["marked"][0])
    expect(page.locator("#analysis li").first).to_contain_text(worst["best_label"])
    page.locator("#analysis button").first.click()  # to the position of that decision
    at_step(page, worst["step"] - 1, "1")
