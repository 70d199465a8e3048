"""The site's icon: every page links it, and browsers asking ``/favicon.ico`` unasked get it
too (without it each page a browser shows logs a failed request)."""

from __future__ import annotations

import re
from pathlib import Path

from flask.testing import FlaskClient

API = Path(__file__).resolve().parents[2] / "api"
ICON = (API / "static" / "icon.svg").read_bytes()
LINK = re.compile(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">')


def test_every_page_links_the_icon() -> None:
    pages = [path for path in (API / "templates").glob("*.html")
             if "<head>" in path.read_text(encoding="utf-8")]
    assert len(pages) >= 6
    unlinked = [path.name for path in pages
                if "filename='icon.svg'" not in path.read_text(encoding="utf-8")]
    assert unlinked == []


def test_the_icon_is_served_where_the_pages_link_it_and_where_browsers_look(
        client: FlaskClient) -> None:
    lobby = client.get("/").get_data(as_text=True)
    linked = LINK.search(lobby)
    assert linked is not None
    for path in (linked.group(1), "/favicon.ico"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.mimetype == "image/svg+xml", path
        assert answer.get_data() == ICON, path
