"""The match service: creating, joining, reading and playing matches.

Used by the API and the worker alike, so a bot's move is validated exactly like a human's.
It never touches Redis itself (that is :mod:`shared.store`) and never imports Flask or Celery:
bot turns are handed to an ``enqueue(match_id, seat, version)`` callable.
"""

from __future__ import annotations

import hmac
import json
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from shared import bot_catalogue
from shared.errors import Conflict, Forbidden, NotFound, Unauthorized, Unprocessable
from shared.games import get_game
from shared.protocol import Game, IllegalMove, NotYourTurn, State
from shared.store import MatchRecord, MatchStore, hash_secret

Enqueue = Callable[[str, int, int], None]


def _rng_from(record: MatchRecord) -> random.Random:
    version, internal, gauss = json.loads(record.rng)
    rng = random.Random()
    rng.setstate((version, tuple(internal), gauss))
    return rng


def _public_seat(seat: dict[str, Any]) -> dict[str, Any]:
    return {key: seat[key] for key in ("seat", "kind", "name", "bot", "joined") if key in seat}


class MatchService:
    def __init__(self, store: MatchStore, enqueue: Enqueue, idempotency_ttl: int = 86400):
        self.store = store
        self.enqueue = enqueue
        self.idempotency_ttl = idempotency_ttl

    # -- creation ---------------------------------------------------------------------------
    def create_match(self, game_id: str, options: dict[str, Any] | None, seed: int | None,
                     seats: list[dict[str, Any]]) -> tuple[MatchRecord, dict[int, str]]:
        """Create a match; returns it and the tokens of its human seats (shown only now)."""
        try:
            game = get_game(game_id)
        except KeyError:
            raise Unprocessable(f"unknown game {game_id!r}", field="game") from None
        if not game.min_players <= len(seats) <= game.max_players:
            raise Unprocessable(f"{game.name} takes {game.min_players}-{game.max_players} "
                                f"seats, not {len(seats)}", field="seats")
        try:
            resolved = game.resolve_options(options)
        except ValueError as exc:
            raise Unprocessable(str(exc), field="options") from None
        stored_seats, tokens = [], {}
        for index, spec in enumerate(seats):
            seat = {"seat": index, "kind": spec["kind"], "name": spec.get("name")
                    or f"{spec['kind']}-{index}", "joined": spec["kind"] != "open"}
            if spec["kind"] == "bot":
                seat["bot"] = self._bot_spec(spec.get("bot") or {}, index)
            if spec["kind"] == "human":
                tokens[index] = secrets.token_urlsafe(32)
            stored_seats.append(seat)
        if seed is None:
            seed = secrets.randbits(63)
        rng = random.Random(seed)
        state = game.new_state(len(seats), resolved, rng)
        now = time.time()
        all_joined = all(s["joined"] for s in stored_seats)
        record = MatchRecord(
            id=secrets.token_hex(8), game=game.id, rules_version=game.version,
            options=resolved, seed=seed, seats=stored_seats,
            status="running" if all_joined else "waiting", version=1,
            state=json.dumps(state.to_json()), rng=json.dumps(rng.getstate()), result=None,
            to_move=state.to_move(), created_at=now, updated_at=now)
        if state.is_over():  # a game with no decisions at all; kept for completeness
            record.status, record.result = "finished", state.result().to_json()
        self.store.create(record, {seat: hash_secret(tok) for seat, tok in tokens.items()})
        self.enqueue_bot_turns(record)
        return record, tokens

    @staticmethod
    def _bot_spec(spec: dict[str, Any], index: int) -> dict[str, Any]:
        kind = spec.get("kind", "ismcts")
        if kind not in bot_catalogue.BOT_KINDS:
            raise Unprocessable(f"seat {index}: unknown bot kind {kind!r}; known: "
                                f"{', '.join(bot_catalogue.BOT_KINDS)}", field="seats")
        out: dict[str, Any] = {"kind": kind}
        if kind == "ismcts":
            level, sims = spec.get("level"), spec.get("simulations")
            if level is not None and level not in bot_catalogue.LEVELS:
                raise Unprocessable(f"seat {index}: unknown level {level!r}; known: "
                                    f"{', '.join(bot_catalogue.LEVELS)}", field="seats")
            try:
                bot_catalogue.budget_for(level, sims)
            except ValueError as exc:
                raise Unprocessable(f"seat {index}: {exc}", field="seats") from None
            if sims is None:
                out["level"] = level or "medium"
            else:
                out.update(level="custom", simulations=sims)
        elif spec.get("level") is not None or spec.get("simulations") is not None:
            raise Unprocessable(f"seat {index}: bot kind {kind!r} has no levels",
                                field="seats")
        return out

    # -- reading ----------------------------------------------------------------------------
    def load(self, match_id: str) -> MatchRecord:
        record = self.store.load(match_id)
        if record is None:
            raise NotFound(f"no match with id {match_id!r}")
        return record

    def authenticate(self, match_id: str, token: str | None, required: bool) -> int | None:
        """The seat a bearer token belongs to; None for a spectator when not ``required``."""
        if token is None:
            if required:
                raise Unauthorized("this call needs a seat token: send 'Authorization: "
                                   "Bearer <token>'")
            return None
        seat = self.store.seat_for_token(match_id, token)
        if seat is None:
            raise Forbidden("the token does not belong to any seat of this match")
        return seat

    def describe(self, record: MatchRecord, seat: int | None) -> dict[str, Any]:
        """The match as ``seat`` (None: a spectator) may see it."""
        game = get_game(record.game)
        state = game.state_from_json(json.loads(record.state))
        finished = record.status == "finished"
        return {
            "id": record.id, "game": record.game, "rules_version": record.rules_version,
            "options": record.options, "status": record.status, "version": record.version,
            "seats": [_public_seat(s) for s in record.seats], "to_move": record.to_move,
            "you": seat, "view": state.view(seat), "result": record.result,
            "seed": record.seed if finished else None,
            "created_at": record.created_at, "updated_at": record.updated_at,
        }

    def legal_moves(self, record: MatchRecord, seat: int) -> list[dict[str, Any]]:
        if record.status != "running" or seat not in record.to_move:
            return []
        state = get_game(record.game).state_from_json(json.loads(record.state))
        return [{"id": state.move_id(m), "label": state.move_label(m), "move": m}
                for m in state.legal_moves(seat)]

    def events(self, record: MatchRecord, seat: int | None, since: int = 0
               ) -> list[dict[str, Any]]:
        """The log after version ``since``, redacted for ``seat`` while the match runs."""
        entries = [e for e in self.store.log(record.id) if e["version"] > since]
        if record.status == "finished":
            return entries
        return [redact(e, seat) for e in entries]

    # -- joining ----------------------------------------------------------------------------
    def join(self, match_id: str, seat: int | None, name: str | None
             ) -> tuple[MatchRecord, int, str]:
        for _ in range(10):  # retry a lost compare-and-set against other joiners
            record = self.load(match_id)
            open_seats = [s["seat"] for s in record.seats if not s["joined"]]
            if not open_seats:
                raise Conflict("this match has no open seat left")
            if seat is None:
                chosen = open_seats[0]
            elif not 0 <= seat < len(record.seats):
                raise Unprocessable(f"seat must be between 0 and {len(record.seats) - 1}",
                                    field="seat")
            elif seat not in open_seats:
                raise Conflict(f"seat {seat} is not open")
            else:
                chosen = seat
            expected = record.version
            record.seats[chosen].update(joined=True, name=name or record.seats[chosen]["name"])
            if all(s["joined"] for s in record.seats):
                record.status = "running"
            record.version += 1
            record.updated_at = time.time()
            token = secrets.token_urlsafe(32)
            entry = {"version": record.version, "seat": chosen, "at": record.updated_at,
                     "events": [{"type": "seat_joined", "seat": chosen,
                                 "name": record.seats[chosen]["name"]}]}
            if self.store.commit(record, expected, [entry],
                                 new_token=(chosen, hash_secret(token))):
                self.enqueue_bot_turns(record)
                return record, chosen, token
        raise Conflict("too many concurrent joins; try again")

    # -- playing ----------------------------------------------------------------------------
    def submit_move(self, match_id: str, seat: int, expected_version: int,
                    move: dict[str, Any] | str, idempotency_key: str | None = None,
                    bot: dict[str, Any] | None = None) -> dict[str, Any]:
        """Validate and apply one move with a compare-and-set on ``expected_version``.

        ``bot`` (kind, thinking time) is recorded in the log entry of a bot's move.
        """
        fingerprint = hash_secret(json.dumps([seat, expected_version, move], sort_keys=True))
        if idempotency_key is not None:
            earlier = self._earlier_answer(match_id, idempotency_key, fingerprint)
            if earlier is not None:
                return earlier
        record = self.load(match_id)
        if record.status == "waiting":
            raise Conflict("the match is waiting for its open seats to be joined",
                           version=record.version)
        if record.status == "finished":
            raise Conflict("the match is over", version=record.version)
        if expected_version != record.version:
            raise Conflict(f"stale version {expected_version}: the match is at version "
                           f"{record.version}; read it again", version=record.version)
        game = get_game(record.game)
        state = game.state_from_json(json.loads(record.state))
        try:
            canonical = state.find_move(seat, move)
            rng = _rng_from(record)
            label = state.move_label(canonical)
            events = state.apply(seat, canonical, rng)
        except NotYourTurn as exc:
            raise Conflict(f"seat {seat} owes no move now ({exc})", version=record.version,
                           to_move=record.to_move) from None
        except IllegalMove as exc:
            raise Unprocessable(f"illegal move: {exc}", version=record.version) from None
        self._advance(record, game, state, rng)
        entry = {"version": record.version, "seat": seat, "move": canonical, "label": label,
                 "events": events, "at": record.updated_at}
        if bot is not None:
            entry["bot"] = bot
        answer = {"version": record.version, "status": record.status,
                  "to_move": record.to_move, "move": canonical, "label": label,
                  "events": redact(entry, seat)["events"]}
        idem = None
        if idempotency_key is not None:
            idem = (idempotency_key, {"fingerprint": fingerprint, "answer": answer},
                    self.idempotency_ttl)
        if not self.store.commit(record, expected_version, [entry], idempotency=idem):
            if idempotency_key is not None:
                earlier = self._earlier_answer(match_id, idempotency_key, fingerprint)
                if earlier is not None:
                    return earlier
            raise Conflict("another move was accepted first; read the match again",
                           version=self.store.version(match_id))
        self.enqueue_bot_turns(record)
        return answer

    def _earlier_answer(self, match_id: str, key: str, fingerprint: str
                        ) -> dict[str, Any] | None:
        stored = self.store.idempotent_answer(match_id, key)
        if stored is None:
            return None
        if not hmac.compare_digest(stored["fingerprint"], fingerprint):
            raise Unprocessable("this Idempotency-Key was already used for a different "
                                "request")
        return stored["answer"]

    @staticmethod
    def _advance(record: MatchRecord, game: Game, state: State, rng: random.Random) -> None:
        record.state = json.dumps(state.to_json())
        record.rng = json.dumps(rng.getstate())
        record.to_move = state.to_move()
        record.version += 1
        record.updated_at = time.time()
        if state.is_over():
            record.status = "finished"
            record.result = state.result().to_json()

    # -- bots -------------------------------------------------------------------------------
    def bot_seats_due(self, record: MatchRecord) -> list[int]:
        if record.status != "running":
            return []
        return [s for s in record.to_move if record.seats[s]["kind"] == "bot"]

    def enqueue_bot_turns(self, record: MatchRecord) -> None:
        for seat in self.bot_seats_due(record):
            self.enqueue(record.id, seat, record.version)


def redact(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """A log entry as ``seat`` may see it while the match runs.

    The move itself is shown only to the seat that made it (a draft pick is secret); others
    learn what the engine's public events say. Events with an ``audience`` reach only it;
    a public counterpart with ``exclude`` skips the seats that got the private event.
    """
    out = {key: value for key, value in entry.items() if key not in ("move", "label", "events")}
    if seat is not None and entry.get("seat") == seat:
        for key in ("move", "label"):
            if key in entry:
                out[key] = entry[key]
    out["events"] = [e for e in entry["events"]
                     if ("audience" not in e or (seat is not None and seat in e["audience"]))
                     and seat not in e.get("exclude", ())]
    return out
