"""The request's language (docs/languages.md): ``Accept-Language`` or a ``lang`` query
parameter choose the language of an error's detail, the legal moves' labels, the component
catalogue and the pages; ``Content-Language`` says which one an answer is in."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import create_app
from tests.api.test_openapi import check

ROOT = Path(__file__).resolve().parents[2]

TWO_HUMANS = {"game": "savanna", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 3}


@pytest.fixture
def seat(client: FlaskClient) -> dict[str, Any]:
    body = client.post("/v1/matches", json=TWO_HUMANS).get_json()
    return {"id": body["id"], "auth": {"Authorization": f"Bearer {body['tokens'][0]['token']}"}}


def test_accept_language_words_an_error_detail(client: FlaskClient) -> None:
    english = client.get("/v1/matches/no-such-match")
    czech = client.get("/v1/matches/no-such-match",
                       headers={"Accept-Language": "cs-CZ, en;q=0.5"})
    assert english.status_code == czech.status_code == 404
    assert english.get_json()["detail"] == "no match with id 'no-such-match'"
    assert czech.get_json()["detail"] == "žádná partie s id 'no-such-match'"
    assert czech.headers["Content-Language"] == "cs"
    assert english.headers["Content-Language"] == "en"
    # The problem's type and title are codes: the same in every language.
    assert {k: v for k, v in czech.get_json().items() if k != "detail"} == {
        k: v for k, v in english.get_json().items() if k != "detail"}


def test_a_nested_detail_is_translated_part_by_part(client: FlaskClient,
                                                    seat: dict[str, Any]) -> None:
    stale = client.post(f"/v1/matches/{seat['id']}/moves",
                        json={"version": 99, "move_id": "pick:zebra"},
                        headers={**seat["auth"], "Accept-Language": "fi"})
    assert stale.status_code == 409
    assert stale.get_json()["detail"] == (
        "vanhentunut versio 99: ottelu on versiossa 1; lue se uudelleen")
    assert stale.headers["Content-Language"] == "fi"


def test_a_reason_inside_a_detail_is_translated_too_or_the_detail_stays_english(
        client: FlaskClient, seat: dict[str, Any]) -> None:
    unknown = client.post("/v1/matches", headers={"Accept-Language": "pl"}, json={
        "game": "savanna", "seats": [{"kind": "human"},
                                     {"kind": "account", "account": "0123456789abcdef"}]})
    assert unknown.status_code == 422
    assert unknown.get_json()["detail"] == "miejsce 1: brak konta o id '0123456789abcdef'"
    assert unknown.headers["Content-Language"] == "pl"
    # An engine's reason the catalogue lacks: English as a whole, and said so.
    illegal = client.post(f"/v1/matches/{seat['id']}/moves",
                          json={"version": 1, "move": {"type": "place", "row": 0, "col": 0}},
                          headers={**seat["auth"], "Accept-Language": "pl"})
    assert illegal.status_code == 422
    assert illegal.get_json()["detail"].startswith("illegal move: ")
    assert illegal.headers["Content-Language"] == "en"


def test_a_refused_language_is_not_chosen(client: FlaskClient) -> None:
    response = client.get("/v1/games/no-such-game", headers={"Accept-Language": "fi;q=0, pl"})
    assert response.headers["Content-Language"] == "pl"
    refused = client.get("/v1/games/no-such-game", headers={"Accept-Language": "fi;q=0"})
    assert refused.headers["Content-Language"] == "en"


def test_a_persons_sign_in_and_sign_up_errors_come_in_the_asked_language(
        client: FlaskClient) -> None:
    """What the lobby shows a person signing in or up (they were English on a Czech page)."""
    wrong = client.post("/v1/sessions", json={"name": "nobody here", "password": "not a pass"},
                        headers={"Accept-Language": "cs"})
    assert wrong.status_code == 401
    assert wrong.get_json()["detail"] == "žádný účet osoby nemá toto jméno a heslo"
    assert wrong.headers["Content-Language"] == "cs"
    short = client.post("/v1/people", json={"name": "Shorty", "password": "short"},
                        headers={"Accept-Language": "fi"})
    assert short.status_code == 422
    assert short.get_json()["detail"] == "salasanan on oltava 8\u2013256 merkkiä pitkä"
    spaced = client.post("/v1/people", json={"name": " Spaced", "password": "long enough x"},
                         headers={"Accept-Language": "pl"})
    assert spaced.get_json()["detail"] == "nazwa nie może zaczynać się ani kończyć spacją"


def test_a_detail_without_translation_says_it_is_english(client: FlaskClient) -> None:
    response = client.post("/v1/matches", json={"game": "savanna", "seats": []},
                           headers={"Accept-Language": "pl"})
    assert response.status_code == 422
    assert response.headers["Content-Language"] == "en"


def test_lang_words_the_move_labels_and_wins_over_the_header(
        client: FlaskClient, seat: dict[str, Any]) -> None:
    url = f"/v1/matches/{seat['id']}/moves"
    english = client.get(url, headers=seat["auth"])
    polish = client.get(url, headers={**seat["auth"], "Accept-Language": "pl"})
    czech = client.get(f"{url}?lang=cs", headers={**seat["auth"], "Accept-Language": "pl"})
    for response, lang in ((english, "en"), (polish, "pl"), (czech, "cs")):
        assert response.status_code == 200
        assert response.headers["Content-Language"] == lang
        assert "Accept-Language" in response.headers["Vary"]
        check(response, "/v1/matches/{match_id}/moves", "GET")
    ids = [m["id"] for m in english.get_json()["moves"]]
    assert ids == [m["id"] for m in polish.get_json()["moves"]]  # ids never change
    labels = {lang: {m["id"]: m["label"] for m in response.get_json()["moves"]}
              for lang, response in (("en", english), ("pl", polish), ("cs", czech))}
    assert labels["en"]["pick:zebra"].startswith("Pick Zebra")
    assert labels["pl"]["pick:zebra"].startswith("Wybierz Zebra")
    assert labels["cs"]["pick:zebra"].startswith("Vybrat Zebra")
    assert labels["cs"]["pick:grass"].startswith("Vybrat Tráva")  # the seed's name


def test_the_catalogue_comes_in_the_asked_language(client: FlaskClient) -> None:
    url = "/v1/games/savanna/components"
    english = client.get(url)
    finnish = client.get(url, headers={"Accept-Language": "fi"})
    czech = client.get(f"{url}?lang=cs")
    names = {response.headers["Content-Language"]: {
        c["id"]: c["name"] for c in check(response, url.replace("savanna", "{game_id}"),
                                          "GET")["components"]}
        for response in (english, finnish, czech)}
    assert names["en"]["card:grass"] == "Grass"
    assert names["fi"]["card:grass"] == "Ruoho"
    assert names["cs"]["card:grass"] == "Tráva"
    assert czech.get_json()["lang"] == "cs"
    # Each language is its own body, so its own ETag, and a cache keys on the language.
    assert len({r.headers["ETag"] for r in (english, finnish, czech)}) == 3
    assert "Accept-Language" in czech.headers["Vary"]


def test_the_pages_come_in_the_asked_language(client: FlaskClient,
                                              seat: dict[str, Any]) -> None:
    polish = client.get("/", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert '<html lang="pl">' in polish and "Nowa partia" in polish
    czech = client.get("/?lang=cs").get_data(as_text=True)
    assert '<html lang="cs">' in czech and "Nová partie" in czech
    assert '"Seat {seat}": "M\\u00edsto {seat}"' in czech  # the page's catalogue
    english = client.get("/").get_data(as_text=True)
    assert '<html lang="en">' in english and "New match" in english
    match = client.get(f"/play/{seat['id']}?lang=fi").get_data(as_text=True)
    assert "Sinun siirtosi" in match and 'value="fi" lang="fi" selected' in match
    # The replay page too: a person who picked a language is sent to it with ``?lang=``.
    replay = client.get(f"/replay/{seat['id']}?lang=cs")
    assert replay.status_code == 200 and replay.mimetype == "text/html"
    html = replay.get_data(as_text=True)
    assert '<html lang="cs">' in html and f"<title>Záznam {seat['id']} · Evo Arena</title>" in html
    assert 'value="cs" lang="cs" selected' in html and '"Z\\u00e1znam: {game}' in html


def test_every_page_for_people_has_the_language_picker_and_its_memory() -> None:
    """Every page for people (a scripted one, and the leaderboard and player pages) draws
    the language picker, whose script remembers a pick and passes it on with ``?lang=``: the
    replay page once had neither, and the server refused the ``?lang=`` the other pages'
    script sent it to; the leaderboard's picker did nothing."""
    templates = ROOT / "api" / "templates"
    pages = [path for path in templates.glob("*.html")
             if "filename='arena.js'" in path.read_text(encoding="utf-8")
             or path.name in ("leaderboard.html", "player.html")]
    assert len(pages) == 5
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert '<html lang="{{ evo_lang }}">' in text, path.name
        assert '{% include "_language.html" %}' in text, path.name
    assert "filename='language.js'" in (templates / "_language.html").read_text(encoding="utf-8")


def test_a_hint_still_searched_says_so_in_the_asked_language(app: Flask) -> None:
    settings = dataclasses.replace(app.extensions["evo.settings"], hint_wait_seconds=0.3)
    with create_app(settings).test_client() as client:  # no worker runs: it waits 0.3 s
        created = client.post("/v1/matches", json={**TWO_HUMANS, "game": "evolution"})
        body = created.get_json()
        token = {t["seat"]: t["token"] for t in body["tokens"]}[body["to_move"][0]]
        waited = client.get(f"/v1/matches/{body['id']}/hint", headers={
            "Authorization": f"Bearer {token}", "Accept-Language": "fi"})
        assert waited.status_code == 202
        assert waited.get_json()["detail"].startswith("yksikään bottityöntekijä ei vastannut")
        assert waited.headers["Content-Language"] == "fi"
