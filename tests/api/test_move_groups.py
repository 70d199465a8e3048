"""A long list of legal moves comes grouped for people: each move of one card carries its
``group`` (the card, in the answer's language), and a group's moves come one after another,
even where copies of one card lie apart in the hand; a game that groups nothing (Savanna)
sends no ``group``."""

from __future__ import annotations

import random
from typing import Any

from flask.testing import FlaskClient

from tests.api.test_openapi import check

MOVES = "/v1/matches/{match_id}/moves"


def bearer(token: str, lang: str = "en") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept-Language": lang}


def long_lists(client: FlaskClient, game: str, seed: int, wanted: int = 3
               ) -> list[tuple[str, str, dict[str, Any]]]:
    """Play seeded random moves of a two-seat ``game`` until ``wanted`` answers of at least
    12 moves are seen: (match id, token, answer) each."""
    created = client.post("/v1/matches", json={"game": game, "seed": seed, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    tokens = [t["token"] for t in created["tokens"]]
    rng, found = random.Random(seed), []
    for _ in range(400):
        match = client.get(f"/v1/matches/{created['id']}").get_json()
        if match["status"] != "running" or len(found) >= wanted:
            break
        token = tokens[rng.choice(match["to_move"])]
        answer = check(client.get(f"/v1/matches/{created['id']}/moves",
                                  headers=bearer(token)), MOVES, "GET")
        if len(answer["moves"]) >= 12:
            found.append((created["id"], token, answer))
        chosen = rng.choice(answer["moves"])
        posted = client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(token),
                             json={"version": answer["version"], "move_id": chosen["id"]})
        assert posted.status_code in (200, 409), posted.get_json()
    return found


def runs(moves: list[dict[str, Any]]) -> list[str | None]:
    groups = [m.get("group") for m in moves]
    return [g for i, g in enumerate(groups) if i == 0 or g != groups[i - 1]]


def test_a_cards_moves_come_together_under_its_name(client: FlaskClient) -> None:
    lists = [hit for seed in (1, 2) for hit in long_lists(client, "evolution-ns", seed)]
    assert lists
    for match_id, token, answer in lists:
        grouped = [m for m in answer["moves"] if "group" in m]
        assert grouped and all(isinstance(m["move"].get("card"), int) for m in grouped)
        assert all("group" in m for m in answer["moves"]
                   if isinstance(m["move"].get("card"), int))
        named = [g for g in runs(answer["moves"]) if g is not None]
        assert len(named) == len(set(named)), named  # one run a group
        assert any(sum(m.get("group") == g for m in answer["moves"]) > 1 for g in named)
        czech = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token, "cs"))
        if czech.get_json()["version"] == answer["version"]:
            assert [m["id"] for m in czech.get_json()["moves"]] == [
                m["id"] for m in answer["moves"]]
            assert {m.get("group") for m in czech.get_json()["moves"]} != set(named) | {None}


def test_copies_of_one_card_are_listed_together(client: FlaskClient) -> None:
    """Evolution's hands hold copies of a card apart (seeded: the lists below have them)."""
    together = 0
    for seed in range(1, 6):
        for _, _, answer in long_lists(client, "evolution", seed, wanted=5):
            named = [g for g in runs(answer["moves"]) if g is not None]
            assert len(named) == len(set(named)), named
            cards: dict[str, set[int]] = {}
            for move in answer["moves"]:
                if "group" in move:
                    cards.setdefault(move["group"], set()).add(move["move"]["card"])
            together += any(len(ids) > 1 for ids in cards.values())
    assert together, "no list with two copies of a card: pick other seeds"


def test_savanna_groups_nothing(client: FlaskClient) -> None:
    created = client.post("/v1/matches", json={"game": "savanna", "seed": 1, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).get_json()
    answer = client.get(f"/v1/matches/{created['id']}/moves",
                        headers=bearer(created["tokens"][0]["token"])).get_json()
    assert answer["moves"] and not any("group" in m for m in answer["moves"])
