"""Clients generated from openapi.yaml compile and play a whole match against the real stack.

Python: openapi-python-client generates a package that plays with its models, and parses
every game's views and moves into that game's models. TypeScript:
types from openapi-typescript, requests through openapi-fetch, compiled with
``tsc --strict`` (no casts in ``tests/js/play_match.ts``) and run under node. The generator
versions are pinned in ``tests/js/package.json`` (installed by ``make test``).
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
import yaml

from scripts.openapi_games import pascal
from shared.games import all_games
from shared.kernel.protocol import Game
from tests.integration.conftest import Client, Worker

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("integration")]
JS = Path(__file__).resolve().parents[1] / "js"
SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def _cross_game_twins() -> dict[str, str]:
    """Each per-game move schema left out of ``Move`` (spelled alike in an earlier game) → the
    one listed in its stead."""
    schemas = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["components"]["schemas"]
    listed = [one["$ref"].rsplit("/", 1)[1] for one in schemas["Move"]["oneOf"]]
    shape = {name: {k: v for k, v in schema.items() if k != "description"}
             for name, schema in schemas.items()}
    return {name: next(twin for twin in listed if shape[twin] == shape[name])
            for name, schema in schemas.items() if name.endswith("Move") and name not in listed
            and schema.get("properties", {}).get("type", {}).get("const")}


CROSS_GAME_MOVE = _cross_game_twins()


def npx(*args: str) -> None:
    if shutil.which("npx") is None or not (JS / "node_modules" / "typescript").is_dir():
        pytest.fail("node and tests/js/node_modules are needed: run `make test` (npm ci)")
    done = subprocess.run(["npx", "--no-install", *args], cwd=JS, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_typescript_client_compiles_strictly_and_plays_a_match(
        api_url: str, client: Client, worker: Worker) -> None:
    # Defaults describe what the server fills in, not what a request must send.
    npx("openapi-typescript", str(SPEC), "--default-non-nullable", "false",
        "-o", "generated/api.d.ts")
    npx("tsc", "-p", "tsconfig.json")
    done = subprocess.run(["node", str(JS / "build" / "play_match.js"), api_url],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    assert outcome["status"] == "finished" and outcome["played"] > 0
    assert outcome["opponent"] == "none"  # the random bot, narrowed on `kind`
    names = {c["key"]: c["name"] for c in client.call(
        "GET", "/v1/games/savanna/components").json()["components"]}
    assert outcome["pickedNames"] == [names[card] for card in outcome["picked"]]
    assert all(outcome["pickedNames"])
    match = client.match(outcome["id"])
    assert match["result"]["scores"] == outcome["scores"]
    log = client.call("GET", f"/v1/matches/{outcome['id']}/events").json()["events"]
    assert outcome["played"] == sum(1 for e in log if e.get("seat") == 0 and "move" in e)


@pytest.fixture(scope="module")
def evo_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """The package openapi-python-client (pinned in requirements-dev.txt) generates, imported:
    ``package``, ``models`` and ``matches`` (the match operations)."""
    out = tmp_path_factory.mktemp("python-client")
    generator = Path(sys.executable).parent / "openapi-python-client"
    env = dict(os.environ, PATH=f"{generator.parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run([str(generator), "generate", "--path", str(SPEC), "--meta", "none",
                           "--output-path", str(out / "evo_client")],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(out))
    try:
        for name in ("create_match", "get_match", "list_legal_moves", "submit_move",
                     "list_events"):
            importlib.import_module(f"evo_client.api.matches.{name}")
        yield SimpleNamespace(package=importlib.import_module("evo_client"),
                              models=importlib.import_module("evo_client.models"),
                              matches=importlib.import_module("evo_client.api.matches"))
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == "evo_client" or m.startswith("evo_client.")]:
            del sys.modules[name]


def test_a_generated_python_client_parses_every_answer_and_plays_a_match(
        api_url: str, evo_client: SimpleNamespace, worker: Worker) -> None:
    """Every response of a whole match parses into its model (never ``parsed=None``), the
    view and the moves into Savanna's own models."""
    play_with_generated_client(api_url, evo_client)


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_the_generated_python_client_types_every_game(evo_client: SimpleNamespace,
                                                      game: Game) -> None:
    """Random play of each game, as the API would answer it, parses into that game's models:
    the view in a match, the legal-move list and each move (by the discriminated unions), and
    a move round-trips through its model unchanged. In ``Move`` (no game at hand, so no
    discriminator, a flat oneOf) a move parses into its own game's model, or the twin listed
    for a move two games spell alike."""
    models = evo_client.models
    prefix = pascal(game.id)
    parse_legal_moves = evo_client.matches.list_legal_moves._parse_response
    checked = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(game.min_players + seed, game.resolve_options({}), rng)
        while not state.is_over():
            seat = state.to_move()[0]
            match = models.MatchFields.from_dict({
                "id": "m", "game": game.id, "rules_version": game.version, "options": {},
                "status": "running", "version": 1, "seats": [], "to_move": state.to_move(),
                "you": seat, "view": state.view(seat), "result": None, "seed": None,
                "seeded": False, "seed_commitment": "0" * 64, "created_at": 0.0,
                "updated_at": 0.0})
            assert type(match.view).__name__ == f"{prefix}View"
            legal = state.legal_moves(seat)
            listed = parse_legal_moves(client=None, response=httpx.Response(200, json={
                "game": game.id, "version": 1, "seat": seat, "status": "running",
                "to_move": state.to_move(),
                "moves": [{"id": state.move_id(m), "label": "", "move": m} for m in legal]}))
            assert type(listed).__name__ == f"{prefix}LegalMoves"
            for item, move in zip(listed.moves, legal, strict=True):
                assert type(item.move).__name__ == f"{prefix}{pascal(move['type'])}Move"
                assert item.move.to_dict() == move
                accepted = models.MoveAccepted.from_dict({
                    "version": 2, "applied_at": 1, "status": "running", "to_move": [],
                    "move": move, "label": "", "events": []})
                # Move is a flat oneOf whose members no move fits twice: its own model (or
                # the one listed for a move two games spell alike).
                own = f"{prefix}{pascal(move['type'])}Move"
                assert type(accepted.move).__name__ == CROSS_GAME_MOVE.get(own, own)
                assert accepted.move.to_dict() == move
                checked += 1
            state.apply(seat, rng.choice(legal), rng)
    assert checked >= 50


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.id)
def test_the_generated_python_client_types_the_component_catalogue(
        evo_client: SimpleNamespace, game: Game) -> None:
    """A game's component catalogue, as the API answers it, parses into ``GameComponents``
    whose components are typed ``Component`` models and round-trip unchanged."""
    catalogue = importlib.import_module("evo_client.api.catalogue.get_game_components")
    body = game.components()
    parsed = catalogue._parse_response(client=None, response=httpx.Response(200, json=body))
    assert isinstance(parsed, evo_client.models.GameComponents)
    assert all(isinstance(c, evo_client.models.Component) for c in parsed.components)
    assert [c.key for c in parsed.components] == [c["key"] for c in body["components"]]
    assert parsed.to_dict() == body


def _fields(cls: type) -> dict[str, set[str]]:
    """The generated model's fields: each annotation's types (``A | B | Unset`` → {A, B, Unset})."""
    return {name: {part.strip() for part in re.split(r"[|\[\]]", str(hint)) if part.strip()}
            for name, hint in inspect.get_annotations(cls).items()}


def test_the_generated_python_client_types_bots_seats_and_extended_answers(
        evo_client: SimpleNamespace) -> None:
    """The schemas other generators misread are real models here: ``BotSpec`` is a union of
    the three bot models (not ``Any``), seats and entrants unions of their kinds, the time
    control of its two; ``CreatedAccount``, ``CreatedApiKey`` and ``SignedIn`` carry their
    own fields beside the extended ones (not the base model with the rest untyped). Each
    parses into its model and back unchanged."""
    models = evo_client.models
    bots = {"GreedyBotSpec", "RandomBotSpec", "SearchBotSpec"}
    assert _fields(models.BotSeatSpec)["bot"] == bots
    assert _fields(models.BotEntrant)["bot"] == bots
    assert _fields(models.CreateMatch)["seats"] == {
        "list", "AccountSeatSpec", "BotSeatSpec", "HumanSeatSpec", "OpenSeatSpec"}
    assert _fields(models.CreateTournament)["entrants"] == {"list", "AccountEntrant",
                                                            "BotEntrant"}
    assert _fields(models.SearchBotSpec)["level"] == {"SearchLevel", "Unset"}
    assert _fields(models.JoinPool)["bot_fill"] == {"SearchLevel", "None", "Unset"}
    assert "Any" not in set().union(*(_fields(getattr(models, name)).get(field, set())
                                      for name in dir(models) if name[:1].isupper()
                                      for field in ("bot", "seats", "entrants", "move",
                                                    "time_control")))
    body = {"game": "savanna", "time_control": {"kind": "turn_based", "per_move": 30},
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "open"},
                      {"kind": "bot", "bot": {"kind": "ismcts", "level": "easy"}},
                      {"kind": "bot", "bot": {"kind": "random"}},
                      {"kind": "account", "account": "a1"}]}
    create = models.CreateMatch.from_dict(body)
    assert [type(seat).__name__ for seat in create.seats] == [
        "HumanSeatSpec", "OpenSeatSpec", "BotSeatSpec", "BotSeatSpec", "AccountSeatSpec"]
    assert isinstance(create.seats[2].bot, models.SearchBotSpec)
    assert create.seats[2].bot.level == models.SearchLevel.EASY
    assert isinstance(create.seats[3].bot, models.RandomBotSpec)
    assert isinstance(create.time_control, models.TurnBasedControl)
    assert create.to_dict() == body
    entrants = [{"bot": {"kind": "greedy"}, "name": "G"}, {"account": "a1"}]
    tournament = models.CreateTournament.from_dict({"game": "savanna", "format": "swiss",
                                                    "entrants": entrants})
    assert [type(e).__name__ for e in tournament.entrants] == ["BotEntrant", "AccountEntrant"]
    assert [e.to_dict() for e in tournament.entrants] == entrants
    account = {"id": "a1", "name": "Bot", "kind": "bot", "webhook": None, "created_at": 1.0,
               "key": "evk_x", "webhook_secret": "whsec_y"}
    created = models.CreatedAccount.from_dict(account)
    assert (created.key, created.webhook_secret) == ("evk_x", "whsec_y")
    assert created.additional_properties == {} and created.to_dict() == account
    key = {"name": "ci", "created_at": 1.0, "last_used": None, "key": "evk_z"}
    assert models.CreatedApiKey.from_dict(key).key == "evk_z"
    signed = models.SignedIn.from_dict({
        "access_token": "eva_1", "token_type": "Bearer", "expires_in": 60, "expires_at": 2.0,
        "refresh_token": "evr_1", "refresh_expires_in": 600, "session": "s1",
        "account": {k: v for k, v in account.items() if k not in ("key", "webhook_secret")}})
    assert isinstance(signed.account, models.AccountFields) and signed.account.id == "a1"


def play_with_generated_client(api_url: str, evo_client: SimpleNamespace) -> None:
    package, matches, models = evo_client.package, evo_client.matches, evo_client.models
    anonymous = package.Client(base_url=api_url)
    body = models.CreateMatch.from_dict({"game": "savanna", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": {"kind": "random"}}]})
    created = matches.create_match.sync_detailed(client=anonymous, body=body)
    assert isinstance(created.parsed, models.CreatedMatch), created.content
    match_id, token = created.parsed.id, created.parsed.tokens[0].token
    seat = package.AuthenticatedClient(base_url=api_url, token=token)
    match = created.parsed
    assert isinstance(match.view, models.SavannaView)  # View is discriminated on `game`
    answers = 0
    while match.status.value == "running":
        if match.you in match.to_move:
            listed = matches.list_legal_moves.sync_detailed(match_id, client=seat)
            # LegalMoves is discriminated on `game`, each move on its `type`: typed models.
            assert isinstance(listed.parsed, models.SavannaLegalMoves), listed.content
            move = listed.parsed.moves[0].move
            assert isinstance(move, models.SavannaPickMove | models.SavannaPlaceMove), move
            if isinstance(move, models.SavannaPickMove):
                assert isinstance(move.card, models.SavannaCard)
            answer = matches.submit_move.sync_detailed(match_id, client=seat,
                                                       body=models.MoveByObject(
                version=listed.parsed.version, move=move))
            assert isinstance(answer.parsed, models.MoveAccepted | models.Problem), answer.content
            if isinstance(answer.parsed, models.Problem):
                assert answer.status_code == 409
            else:
                assert answer.parsed.move == move  # parsed back into the same typed model
                answers += 1
        read = matches.get_match.sync_detailed(match_id, client=seat, version=match.version,
                                               wait=5.0)
        assert isinstance(read.parsed, models.MatchFields), read.content
        match = read.parsed
        assert isinstance(match.view, models.SavannaView) and match.view.seat == 0
        assert all(isinstance(card, models.SavannaCard) for card in match.view.hand)
    assert match.status.value == "finished" and answers > 0
    assert isinstance(match.result, models.Result) and len(match.result.scores) == 2
    log = matches.list_events.sync_detailed(match_id, client=anonymous)
    assert isinstance(log.parsed, models.EventLog), log.content
    assert answers == sum(1 for e in log.parsed.events if e.seat == 0 and e.move)
    # The catalogue over HTTP, typed: every card the typed view can carry has a name.
    catalogue = importlib.import_module("evo_client.api.catalogue.get_game_components")
    listed = catalogue.sync_detailed("savanna", client=anonymous, lang="en")
    assert isinstance(listed.parsed, models.GameComponents), listed.content
    names = {c.key: c.name for c in listed.parsed.components if c.category == "card"}
    assert all(isinstance(c, models.Component) for c in listed.parsed.components)
    assert all(names.get(card.value) for card in models.SavannaCard)
