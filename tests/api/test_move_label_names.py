"""Legal moves and the log name other seats as the players know them: "+1 body size on Bo's
species #1", not "seat 1's"; where two seats share a name, by number, so that no two moves
read alike."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def bearer(token: str, lang: str = "en") -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Accept-Language": lang}


def play_cards(client: FlaskClient, names: list[str]
               ) -> tuple[str, str, int, dict[str, Any]]:
    """An Evolution (North Star) match of two seats named ``names``, both food cards down:
    its id, the token of the seat to play cards, the other seat, and the legal moves of the
    first (growing the other's species among them)."""
    created = client.post("/v1/matches", json={"game": "evolution-ns", "seed": 1, "seats": [
        {"kind": "human", "name": name} for name in names]}).get_json()
    tokens = [t["token"] for t in created["tokens"]]
    for token in tokens:
        moves = client.get(f"/v1/matches/{created['id']}/moves", headers=bearer(token))
        food = next(m for m in moves.get_json()["moves"] if m["move"]["type"] == "food")
        client.post(f"/v1/matches/{created['id']}/moves", headers=bearer(token),
                    json={"version": moves.get_json()["version"], "move_id": food["id"]})
    (seat,) = client.get(f"/v1/matches/{created['id']}").get_json()["to_move"]
    moves = client.get(f"/v1/matches/{created['id']}/moves", headers=bearer(tokens[seat]))
    return created["id"], tokens[seat], 1 - seat, moves.get_json()


def grown(moves: dict[str, Any], other: int) -> list[dict[str, Any]]:
    return [m for m in moves["moves"] if m["move"]["type"] == "grow"
            and m["move"]["seat"] == other]


def test_other_seats_are_named_in_labels_and_the_log(client: FlaskClient) -> None:
    names = ["Ada", "Bo"]
    match_id, token, other, moves = play_cards(client, names)
    theirs = grown(moves, other)
    assert theirs and all(f"{names[other]}'s species #1" in m["label"] for m in theirs), theirs
    assert not any(f"seat {other}" in m["label"] for m in moves["moves"])
    czech = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token, "cs"))
    assert any(f"hráče {names[other]}" in m["label"] for m in czech.get_json()["moves"])
    played = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(token),
                         json={"version": moves["version"], "move_id": theirs[0]["id"]})
    assert played.status_code == 200, played.get_json()
    log = client.get(f"/v1/matches/{match_id}/events", headers=bearer(token)).get_json()
    assert log["events"][-1]["label"] == theirs[0]["label"]  # the log keeps it as offered


def test_seats_of_one_name_are_told_apart_by_number(client: FlaskClient) -> None:
    _, _, other, moves = play_cards(client, ["Sam", "sam"])
    theirs = grown(moves, other)
    assert theirs and all(f"seat {other}'s species #1" in m["label"] for m in theirs), theirs
