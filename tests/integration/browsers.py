"""What the Chromium tests share: the browser, a phone-sized page that fails its test on any
page error, and axe-core's serious and critical violations. ``tests/integration/conftest.py``
makes the fixtures of it (``browser``, ``page``)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

PHONE = {"width": 390, "height": 844}  # a phone-sized screen
AXE = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "axe-core" / "axe.min.js"


def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, headless (installed by `make test`)."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.fail("chromium is needed: run `make test` (scripts/install_chromium.sh)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def phone_page(browser: Browser, locale: str | None = None) -> Iterator[Page]:
    """A page of its own context on a phone-sized touch screen (its browser asking for
    ``locale``'s language, if given); a page error fails the test."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=locale)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield opened
        assert errors == [], errors
    finally:
        context.close()


def serious_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page as it is now."""
    if not AXE.is_file():
        pytest.fail("axe-core is needed: run `make install` (tests/js)")
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))"
        ".slice(0, 5), summary: v.nodes.length ? v.nodes[0].failureSummary : ''}))")
    return found
