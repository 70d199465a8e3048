"""The match service: creating, joining, reading and playing matches.

Used by the API and the worker alike, so a bot's move is validated exactly like a human's.
It never touches Redis itself (that is :mod:`shared.matches.store`) and never imports Flask
or Celery: bot turns are handed to an ``enqueue(match_id, seat, version)`` callable (a tournament
match's to ``background``), a finished tournament or rated match to ``on_finish(match_id)``.
That send is only the fast path: the write that ends such a match marks it as owing its
finish handling (``MatchRecord.finish_owed``, in the same atomic commit), and the tournament
sweep performs the handling of a mark left behind (a broker that refused the send, a process
that died right after the commit). A send that fails is logged; the mover's answer stands.

Seats are ``human``, ``open``, ``bot`` (a built-in bot) or ``account`` (a registered bot: it
pulls its turns with its API key, or the worker pushes them to its webhook). An account's
seat is taken at once only for an account the creator vouches for (``accepted``: the key's
account, a tournament's entrants); any other is an invitation, and the match waits until
the account accepts (``accept_invitation``) or ends ``aborted`` (a decline, an expiry).
A match may set ``move_deadline``: a person's or pull bot's seat that owes a move past it gets
a fallback move (``shared.bots.deadlines``); after ``forfeit_after`` consecutive timeouts the
seat forfeits and the fallback plays it to the end. A seat may also leave for good
(:meth:`MatchService.resign`; a person's seat idle past ``idle_after`` is abandoned the same
way): ``shared.matches.resignation`` says what that changes. A match may instead have a
``time_control`` (real-time clocks or turn-based play): ``shared.matches.clocks``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from shared.bots import catalogue as bot_catalogue
from shared.domain.errors import (
    Conflict,
    Forbidden,
    Gone,
    NotFound,
    Unauthorized,
    UnderWay,
    Unprocessable,
)
from shared.domain.types import MatchStatus, SeatBot, SeatKind, SeatRecord
from shared.games import all_games, get_game
from shared.infra import jsontext
from shared.infra.secrets import hash_secret
from shared.infra.stats import WorkerStats
from shared.kernel.catalogue import named_seats
from shared.kernel.protocol import Game, IllegalMove, NotYourTurn, State
from shared.matches import carryover, clocks, resignation, retries, summaries
from shared.matches import randomness as match_random
from shared.matches.accounts_port import AccountDirectory
from shared.matches.listing import listed_moves
from shared.matches.moves import move_problem
from shared.matches.randomness import MatchRandom
from shared.matches.record import ENDED, MatchRecord
from shared.matches.store import MatchStore

log = logging.getLogger(__name__)
Enqueue = Callable[[str, int, int], None]
#: How long a turn counts as queued without a worker starting it. Long enough that a
#: backed-up queue is not flooded (a task waits seconds, not tens of them, before a worker
#: starts it); short enough that a task lost with its worker or with Redis itself (taken off
#: the queue, never started) is re-sent by the sweep within half a minute rather than after
#: the broker's 300 s visibility timeout. A duplicate is harmless: the turn's claim and its
#: version check drop it.
QUEUED_TTL = 30.0
LIST_SCAN = 500  # the latest matches not over that a listing looks through
#: Times a move whose compare-and-set lost to another move is judged again on the newer
#: match: at most the other seats of a step can overtake it, so this bounds only a pathology.
REJUDGE_LIMIT = 16
OnFinish = Callable[[str], None]
#: Told of each committed write: the match, the seats that now owe a move they did not owe
#: before it, and whether it started the match (``shared.notifications``).
Committed = Callable[[MatchRecord, list[int], bool], None]
#: Told of each invitation a new match sends an account (account id, the invitation).
Invited = Callable[[str, dict[str, Any]], None]


def _public_seat(seat: Mapping[str, object]) -> dict[str, object]:
    return {key: seat[key] for key in ("seat", "kind", "name", "bot", "account", "joined",
                                       "invited") if key in seat}


#: Seconds a creation under an Idempotency-Key holds the key before its match exists: a
#: process that dies in between leaves the key to a retry this soon (then kept a day).
CREATION_CLAIM = 60


def seat_names(record: MatchRecord) -> list[str]:
    """The seats' names, as labels name them (``shared.kernel.catalogue.named_seats``)."""
    return [str(seat["name"]) for seat in record.seats]


def _seat_to_join(record: MatchRecord, seat: int | None) -> int:
    """The open seat a join takes: ``seat``, or the first open one (409 if none is)."""
    open_seats = [s["seat"] for s in record.seats if is_open(s)]
    if record.status in ENDED:
        raise Conflict(f"this match is {record.status}: its open seats can no longer be "
                       "joined")
    if not open_seats:
        raise Conflict("this match has no open seat left")
    if seat is None:
        return open_seats[0]
    if not 0 <= seat < len(record.seats):
        raise Unprocessable(f"seat must be between 0 and {len(record.seats) - 1}",
                            field="seat")
    if seat not in open_seats:
        raise Conflict(f"seat {seat} is not open")
    return seat


def is_open(seat: Mapping[str, object]) -> bool:
    """Whether ``seat`` is an open seat nobody has joined yet (an invited account's seat is
    not open: only that account may take it, by accepting)."""
    return seat["kind"] == SeatKind.OPEN and not seat["joined"]


def pending_invitations(record: MatchRecord) -> list[str]:
    """The accounts invited to ``record`` that have not accepted yet (in seat order)."""
    return list(dict.fromkeys(str(s["account"]) for s in record.seats
                              if s.get("invited") and "account" in s))


def seed_commitment(match_id: str, seed: int | None) -> str:
    """The hash of a match's seed, published when it starts; the seed is revealed at its end.

    The match id is hashed with the seed so that one seed's hash says nothing about another
    match; a 63-bit server seed cannot be found from its hash in any useful time.
    """
    return hashlib.sha256(f"evo-arena:{match_id}:{seed}".encode()).hexdigest()


def clocked(record: MatchRecord, seat: int) -> bool:
    """Whether ``seat``'s moves run against the deadline: a person's or a pull bot's seat.

    The server's own players (built-in bots, webhook bots, forfeited seats) are not clocked
    here: their time is spent in the queue and the worker, not by the entrant.
    """
    info = record.seats[seat]
    return (record.move_deadline is not None and info["kind"] != SeatKind.BOT
            and not info.get("webhook") and seat not in record.forfeited)


def awaited(record: MatchRecord, seat: int) -> bool:
    """Whether a person or a program plays ``seat`` (it waits while the server's seats move):
    any seat but a built-in bot's or a forfeited one."""
    return record.seats[seat]["kind"] != SeatKind.BOT and seat not in record.forfeited


def owes_finish(record: MatchRecord) -> bool:
    """Whether ``record``, finished, needs handling after its end: a rated match is rated,
    a tournament's match (always rated) moves its tournament on."""
    return record.status == MatchStatus.FINISHED and (record.rated or record.tournament is not None)


def turn_budgeted(record: MatchRecord) -> bool:
    """Whether the bot decisions between two turns of a waiting person or program share a turn
    budget (``shared.bots.turn_budget``): casual matches where one plays. A tournament's or rated
    match's bots keep their levels' budgets, so their strength never depends on the table."""
    return (record.tournament is None and not record.rated
            and any(awaited(record, seat) for seat in range(len(record.seats))))


class MatchService:
    def __init__(self, store: MatchStore, enqueue: Enqueue, idempotency_ttl: int = 86400,
                 background: Enqueue | None = None, on_finish: OnFinish | None = None,
                 stats: WorkerStats | None = None, *, accounts: AccountDirectory,
                 invitation_ttl: float = 600.0, human_idle_seconds: float | None = None):
        self.store = store
        # Seconds a person's seat of a new match may owe a move before it is abandoned
        # (``shared.matches.resignation``; None: never).
        self.human_idle_seconds = human_idle_seconds
        # How long an invited account has to accept before the match is aborted.
        self.invitation_ttl = invitation_ttl
        # The accounts' store, given by the composition root (``shared.services``), which hands
        # the same one to the accounts service: a match's seats name accounts and index the
        # account's matches. Typed by its protocol: accounts depend on matches, not back.
        self.accounts = accounts
        # The worker's counters (bot searches and moves): given by ``shared.services``.
        self.stats = stats or WorkerStats(store.redis)
        # The most seats any game has: how far back a bot turn looks for an earlier search.
        self.max_seats = max(game.max_players for game in all_games())
        self.enqueue = enqueue
        self.background = background or enqueue
        self.on_finish = on_finish
        self.idempotency_ttl = idempotency_ttl
        self.committed: list[Committed] = []  # set by shared.services
        self.invited: list[Invited] = []

    # -- creation ---------------------------------------------------------------------------
    def create_match(self, game_id: str, options: dict[str, Any] | None, seed: int | None,
                     seats: list[dict[str, Any]], *, move_deadline: float | None = None,
                     rated: bool = False, tournament: str | None = None,
                     forfeit_after: int | None = None, match_id: str | None = None,
                     accepted: Collection[str] = (), sealed: bool = False,
                     time_control: dict[str, Any] | None = None,
                     retry: tuple[str, str] | None = None
                     ) -> tuple[MatchRecord, dict[int, str]]:
        """Create a match; returns it and the tokens of its human seats (shown only now).

        The seats of the accounts in ``accepted`` (the creator's own, given its key; every
        entrant of a tournament, which accepted it) are taken at once; every other account's
        seat is an invitation: the match waits until that account accepts
        (:meth:`accept_invitation`) and is aborted if it declines or lets it expire.

        A tournament names the ``match_id`` it claimed; creating it again returns the stored
        match unchanged (and no token). A ``sealed`` match (a tournament's, whose deal other
        matches replay) shows nothing derived from its seed but a seat's own view while it
        runs, even once over, until :meth:`unseal`. A ``time_control``
        (``shared.matches.clocks``) replaces the idle limit: the clock keeps the seats moving.
        ``retry`` (an Idempotency-Key and the request's fingerprint) makes a lost answer
        safe to ask for again (:meth:`created_under`; a 409 while another request with the
        key is under way).
        """
        game, resolved = self.game_for(game_id, options, len(seats))
        salt = "" if retry is None else retries.new_salt()
        stored_seats, tokens = self._seats(seats, accepted, None if retry is None else (
            lambda index: retries.seat_token(salt, retry[0], index)))
        accounts = [s["account"] for s in stored_seats if s["kind"] == SeatKind.ACCOUNT]
        if rated and any(s["kind"] not in (SeatKind.BOT, SeatKind.ACCOUNT) for s in stored_seats):
            raise Unprocessable("a rated match needs every seat to be a bot or an account",
                                field="rated")
        # A seed the creator chose deals what the creator can foresee: it is for replays and
        # tests, and the match says so to everyone. Otherwise the deal comes from the
        # server's own CSPRNG, and nothing a client knows before the end reveals it.
        seeded = seed is not None
        if seed is None:
            seed = secrets.randbits(63)
        rng = MatchRandom(seed)
        state = game.new_state(len(seats), resolved, rng)
        now = time.time()
        all_joined = all(s["joined"] for s in stored_seats)
        record = MatchRecord(
            id=match_id or secrets.token_hex(8), game=game.id, rules_version=game.version,
            options=resolved, seed=seed, seats=stored_seats,
            status=MatchStatus.RUNNING if all_joined else MatchStatus.WAITING, version=1,
            state=jsontext.dumps(state.to_json()), rng=match_random.dump(rng), result=None,
            to_move=state.to_move(), created_at=now, updated_at=now, tournament=tournament,
            rated=rated, move_deadline=move_deadline, forfeit_after=forfeit_after,
            seeded=seeded, sealed=sealed,
            idle_after=(None if tournament is not None or time_control is not None
                        else self.human_idle_seconds),
            time_control=clocks.normalised(time_control),
            clock=clocks.start(time_control, len(seats)))
        if state.is_over():  # a game with no decisions at all; kept for completeness
            record.status, record.result = MatchStatus.FINISHED, state.result().to_json()
            record.finish_owed = owes_finish(record)
        self._restart_clocks(record, None)
        created = self._store_new(record, tokens, retry, salt)
        if not self._after_create(record, accounts, created):
            return self.load(record.id), {}
        return record, tokens

    def _store_new(self, record: MatchRecord, tokens: dict[int, str],
                   retry: tuple[str, str] | None, salt: str) -> bool:
        """Store a new match (False: its id exists); under an Idempotency-Key, claim the key
        first (409 if another request holds it) and keep it a day once the match exists."""
        if retry is not None and not self.store.claim_creation(retry[0], {
                "fingerprint": retry[1], "match": record.id, "salt": salt}, CREATION_CLAIM):
            raise UnderWay()
        try:
            created = self.store.create(record, {s: hash_secret(t) for s, t in tokens.items()})
        except Exception:
            if retry is not None:
                self.store.release_creation(retry[0])
            raise
        if retry is not None:
            self.store.settle_creation(retry[0], self.idempotency_ttl)
        return created

    def created_under(self, key: str, fingerprint: str
                      ) -> tuple[MatchRecord, dict[int, str]] | None:
        """The match an earlier request with Idempotency-Key ``key`` created, with the same
        seat tokens (None: no such request). 422 for a key used with another request, 409
        while that request is still under way."""
        claim = self.store.creation(key)
        if claim is None:
            return None
        if not retries.same_request(claim, fingerprint):
            raise Unprocessable("this Idempotency-Key was already used for a different request")
        record = self.store.load(str(claim["match"]))
        if record is None:
            raise UnderWay()
        return record, {s["seat"]: retries.seat_token(str(claim["salt"]), key, s["seat"])
                        for s in record.seats if s["kind"] == SeatKind.HUMAN}

    def _after_create(self, record: MatchRecord, accounts: list[str], created: bool) -> bool:
        """Note the match for its accounts; if this call ``created`` it, tell the invited,
        announce it and start its bots. Returns ``created``."""
        # Noting the seats again is harmless, and needed if a creator died half-way (its bot
        # turns are re-enqueued by the sweep).
        invited = set(pending_invitations(record))
        for account_id in dict.fromkeys(accounts):
            self.accounts.add_match(account_id, record.id, self._invitation(
                record, account_id) if account_id in invited and created else None)
        if not created:
            return False
        for account_id in dict.fromkeys(a for a in accounts if a in invited):
            self._tell(self.invited, account_id, self._invitation(record, account_id))
        self.announce(record, list(record.to_move), False)
        self.enqueue_bot_turns(record)
        if record.finish_owed:
            self.send_finish(record.id)
        return True

    @staticmethod
    def game_for(game_id: str, options: dict[str, Any] | None, players: int,
                 players_field: str = "seats") -> tuple[Game, dict[str, Any]]:
        """The game and its resolved options for a new match of ``players`` seats (422s,
        naming the request's ``game``, ``players_field`` or ``options``)."""
        try:
            game = get_game(game_id)
        except KeyError:
            raise Unprocessable(f"unknown game {game_id!r}", field="game") from None
        if not game.min_players <= players <= game.max_players:
            raise Unprocessable(f"{game.name} takes {game.min_players}-{game.max_players} "
                                f"seats, not {players}", field=players_field)
        try:
            return game, game.resolve_options(options)
        except ValueError as exc:
            raise Unprocessable(str(exc), field="options") from None

    def _invitation(self, record: MatchRecord, account_id: str) -> dict[str, Any]:
        """What an invited account is shown of the match that names it: enough to decide,
        who plays in it and on what clock included."""
        return {"id": f"match-{record.id}", "kind": "match", "match": record.id,
                "game": record.game, "rated": record.rated,
                "move_deadline": record.move_deadline, "time_control": record.time_control,
                "seats": [s["seat"] for s in record.seats if s.get("account") == account_id],
                "players": [_public_seat(s) for s in record.seats],
                "created_at": record.created_at,
                "expires_at": record.created_at + self.invitation_ttl}

    def _seats(self, seats: list[dict[str, Any]], accepted: Collection[str] = (),
               token_for: Callable[[int], str] | None = None
               ) -> tuple[list[SeatRecord], dict[int, str]]:
        """The seats as stored, and the tokens of the human seats (shown only once; random,
        or ``token_for(seat)``). An account's seat takes the account's own name (a seat never
        renames an account) and is an invitation unless the account is in ``accepted``."""
        stored_seats: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        for index, spec in enumerate(seats):
            seat: SeatRecord = {"seat": index, "kind": spec["kind"], "name": spec.get("name")
                                or f"{spec['kind']}-{index}",
                                "joined": spec["kind"] != SeatKind.OPEN}
            if spec["kind"] == SeatKind.BOT:
                seat["bot"] = self._bot_spec(spec.get("bot") or {}, index)
            if spec["kind"] == SeatKind.ACCOUNT:
                account = self._account(spec.get("account"), index)
                seat["account"] = account["id"]
                seat["name"] = str(account["name"])
                seat["webhook"] = bool(account.get("webhook"))
                if account["id"] not in accepted:
                    seat["joined"], seat["invited"] = False, True
            if spec["kind"] == SeatKind.HUMAN:
                tokens[index] = (secrets.token_urlsafe(32) if token_for is None
                                 else token_for(index))
            stored_seats.append(seat)
        return stored_seats, tokens

    def _account(self, account_id: Any, index: int) -> dict[str, Any]:
        account = self.accounts.load(str(account_id)) if isinstance(account_id, str) else None
        if account is None:
            raise Unprocessable(f"seat {index}: no account with id {account_id!r}",
                                field="seats")
        return account

    @staticmethod
    def _bot_spec(spec: dict[str, Any], index: int) -> SeatBot:
        kind = spec.get("kind", "ismcts")
        if kind not in bot_catalogue.BOT_KINDS:
            raise Unprocessable(f"seat {index}: unknown bot kind {kind!r}; known: "
                                f"{', '.join(bot_catalogue.BOT_KINDS)}", field="seats")
        out: SeatBot = {"kind": kind}  # a known kind (checked above)
        if kind == "ismcts":
            level, sims, secs = spec.get("level"), spec.get("simulations"), spec.get("seconds")
            if level is not None and level not in bot_catalogue.LEVELS:
                raise Unprocessable(f"seat {index}: unknown level {level!r}; known: "
                                    f"{', '.join(bot_catalogue.LEVELS)}", field="seats")
            try:
                bot_catalogue.budget_for(level, sims, secs)
            except (TypeError, ValueError) as exc:
                raise Unprocessable(f"seat {index}: {exc}", field="seats") from None
            if secs is not None:
                out["level"], out["seconds"] = "timed", float(secs)
            elif sims is None:
                out["level"] = level or "medium"
            else:
                out["level"], out["simulations"] = "custom", sims
        elif any(spec.get(key) is not None for key in ("level", "simulations", "seconds")):
            raise Unprocessable(f"seat {index}: bot kind {kind!r} has no levels or budgets",
                                field="seats")
        return out

    # -- reading ----------------------------------------------------------------------------
    def load(self, match_id: str) -> MatchRecord:
        """The match, playable by this server; 404 if unknown, 410 if only its result is
        kept or it was stored under rules this server no longer plays."""
        found = self.read(match_id)
        if not isinstance(found, MatchRecord):
            raise Gone(f"match {match_id!r} has ended and only its result and log are kept: "
                       f"read it with GET /v1/matches/{match_id}", archived=True)
        return found

    def read(self, match_id: str) -> MatchRecord | dict[str, Any]:
        """The match, or once its state has expired the match as kept after its end (the
        spectator's ``describe`` at the end, with ``archived: true``); 404 if neither is
        kept, 410 if it was stored under rules this server no longer plays."""
        record = self.store.load(match_id)
        if record is not None:
            retired = self.retired_rules(record)
            if retired is not None:
                raise Gone(retired, rules_version=record.rules_version)
            return record
        kept = self.store.kept_result(match_id)
        if kept is None:
            raise NotFound(f"no match with id {match_id!r}")
        return {**withheld(kept), "archived": True}

    @staticmethod
    def retired_rules(record: MatchRecord) -> str | None:
        """Why this server cannot play or show ``record`` (None: it can): the match was
        stored under a rules version (or a game) its engines no longer have, so its state
        does not load. Nothing converts such a match; the sweeps skip it."""
        try:
            current = get_game(record.game).version
        except KeyError:
            return f"this server no longer has the game {record.game!r} of this match"
        if record.rules_version == current:
            return None
        return (f"this match was played under {record.game} rules {record.rules_version!r}; "
                f"this server plays {current!r} and cannot load it")

    def kept_events(self, kept: dict[str, Any], since: int = 0) -> dict[str, Any]:
        """The event log of a match kept after its end (``read``), as a spectator sees it;
        410 once the log is no longer kept (``LOG_TTL``)."""
        entries = self.store.kept_log(kept["id"])
        if entries is None:
            raise Gone(f"the log of match {kept['id']!r} is no longer kept; its result is: "
                       f"GET /v1/matches/{kept['id']}")
        finished, sealed = kept["status"] == MatchStatus.FINISHED, bool(kept.get("sealed"))
        return {"version": kept["version"], "status": kept["status"],
                "redacted": sealed or not finished,
                "events": [shown(e, None, finished, sealed) for e in entries
                           if e["version"] > since]}

    def load_as(self, match_id: str, token: str | None, required: bool
                ) -> tuple[MatchRecord, int | None]:
        """``load`` and ``authenticate`` at once: a seat token is checked in the same round
        trip as the read (an unknown match is a 404 before any token check, as ever)."""
        record, seat, account_id = self._load_with_key(match_id, token)
        if record is None or self.retired_rules(record) is not None:
            record = self.load(match_id)  # the 404 or 410 that says why
        if seat is None:  # no token, or not a seat's: an account's key, on the match read
            seat = self._seat_of_key(record, token, required, account_id)
        return record, seat

    def _load_with_key(self, match_id: str, token: str | None
                       ) -> tuple[MatchRecord | None, int | None, str | None]:
        """The match, the seat of ``token`` as a seat token and the account of ``token`` as
        an account's key, in one round trip (the key checked in Redis on every request, so
        a revoked key is refused at once, and a pull bot's move costs no read more)."""
        if token is None:
            return self.store.load(match_id), None, None
        key_hash = hash_secret(token)
        record, seat, (entry,) = self.store.load_with_seat_and(
            match_id, token, lambda pipe: self.accounts.queue_key_lookup(pipe, key_hash))
        account_id = None if seat is not None else self.accounts.key_account(key_hash, entry)
        if seat is None and account_id is None:
            account_id = self.accounts.legacy_account(key_hash)  # a key from before named keys
        return record, seat, account_id

    def _seat_of_key(self, record: MatchRecord, token: str | None, required: bool,
                     account_id: str | None) -> int | None:
        """``authenticate`` for a token already known not to be a seat token of
        ``record``: an account's key holding a seat (``account_id``, the key's account as
        read with the match), else a 401 (none) or 403."""
        if token is None:
            return self.authenticate(record.id, None, required)
        seat = None if account_id is None else self._account_seat_in(record, account_id)
        if seat is None:
            raise Forbidden("the token does not belong to any seat of this match")
        return seat

    def read_as(self, match_id: str, token: str | None
                ) -> tuple[MatchRecord | dict[str, Any], int | None]:
        """``read`` and, for a match still kept whole, ``authenticate`` (not required) at
        once: a seat token is checked in the same round trip as the read. A match kept only
        after its end is read by anyone as a spectator (seat None)."""
        record, seat, account_id = self._load_with_key(match_id, token)
        if record is None or self.retired_rules(record) is not None:
            found = self.read(match_id)  # the kept match, or the 404 or 410 that says why
            if not isinstance(found, MatchRecord):
                return found, None
            record, seat = found, None
        if seat is None and token is not None:  # an account's key, on the match read
            seat = self._seat_of_key(record, token, False, account_id)
        return record, seat

    def peek(self, match_id: str) -> MatchRecord | None:
        """The match as stored now (None: gone), without the checks of :meth:`load`: for a
        reader that already has it (an event stream) and only follows it."""
        return self.store.load(match_id)

    def entries(self, match_id: str, start: int = 0, end: int = -1) -> list[dict[str, Any]]:
        """The raw log entries ``start..end`` (list indices, inclusive; version v's entry is
        at v - 2), from the live log or the kept one (not redacted: see :func:`redact`)."""
        return self.store.log(match_id, start, end)

    def version(self, match_id: str) -> int | None:
        """The match's version now (None: no such match, or only its result is kept)."""
        return self.store.version(match_id)

    def wait_for_change(self, match_id: str, seen_version: int, timeout: float) -> int | None:
        """Block until the match's version is not ``seen_version`` or ``timeout`` passes;
        the version then (None: no such match). Woken by the commit's publish."""
        return self.store.wait_for_change(match_id, seen_version, timeout)

    def authenticate(self, match_id: str, token: str | None, required: bool) -> int | None:
        """The seat a bearer token belongs to; None for a spectator when not ``required``.

        The token is a seat token or an account's API key: an account holding a seat of the
        match plays it (the seat that owes a move first, if it holds several).
        """
        if token is None:
            if required:
                raise Unauthorized("this call needs a seat token: send 'Authorization: "
                                   "Bearer <token>'")
            return None
        seat = self.store.seat_for_token(match_id, token)
        if seat is None:
            seat = self._account_seat(match_id, token)
        if seat is None:
            raise Forbidden("the token does not belong to any seat of this match")
        return seat

    def _account_seat(self, match_id: str, key: str) -> int | None:
        account_id = self.accounts.by_key_hash(hash_secret(key))
        record = self.store.load(match_id) if account_id is not None else None
        if record is None or account_id is None:
            return None
        return self._account_seat_in(record, account_id)

    @staticmethod
    def _account_seat_in(record: MatchRecord, account_id: str) -> int | None:
        """The seat ``account_id`` plays in ``record`` (the one that owes a move first)."""
        held = [s["seat"] for s in record.seats if s.get("account") == account_id]
        owing = [seat for seat in held if seat in record.to_move]
        return next(iter(owing or held), None)

    def describe(self, record: MatchRecord, seat: int | None) -> dict[str, Any]:
        """The match as ``seat`` (None: a spectator) may see it. A sealed match shows no
        view but a seat's own while it runs, and no seed (``MatchRecord.sealed``)."""
        now = time.time()
        shown_clocks = clocks.view(record, now)
        game = get_game(record.game)
        state = game.state_from_json(jsontext.loads(record.state))
        ended = record.status in ENDED
        view = (None if record.sealed and (seat is None or ended) else state.view(seat))
        return {
            "id": record.id, "game": record.game, "rules_version": record.rules_version,
            "options": record.options, "status": record.status, "version": record.version,
            "seats": [_public_seat(s) for s in record.seats], "to_move": record.to_move,
            "you": seat, "view": view, "result": record.result, "sealed": record.sealed,
            "seed": record.seed if ended and not record.sealed else None,
            "seeded": record.seeded,
            "seed_commitment": seed_commitment(record.id, record.seed),
            "created_at": record.created_at, "updated_at": record.updated_at,
            "move_deadline": record.move_deadline, "deadline_at": record.deadline_at(),
            "rated": record.rated, "tournament": record.tournament,
            "forfeited": record.forfeited, "resigned": record.resigned,
            "time_control": record.time_control, "clocks": shown_clocks,
            # Only while a clock runs does the answer depend on the time it is made: any
            # other stays the same between writes (its ETag too).
            "server_time": now if any(c["running"] for c in shown_clocks) else None,
        }

    def list_matches(self, status: str | None, game: str | None, open_seat: bool | None,
                     limit: int) -> list[dict[str, Any]]:
        """Summaries of matches not over (``status``/``game``/``open_seat`` filter them), the
        most recently changed first; at most ``limit``, among the latest few hundred. A
        match stored under retired rules is left out: it can be neither read nor played."""
        out = []
        for record in self.store.active_records(LIST_SCAN):
            seats = [_public_seat(s) for s in record.seats]
            has_open = any(is_open(s) for s in record.seats)
            if ((status is not None and record.status != status)
                    or (game is not None and record.game != game)
                    or (open_seat is not None and has_open != open_seat)
                    or self.retired_rules(record) is not None):  # a 410 on every route
                continue
            out.append({"id": record.id, "game": record.game, "status": record.status,
                        "version": record.version, "seats": seats, "to_move": record.to_move,
                        "open_seats": [s["seat"] for s in seats if is_open(s)],
                        "tournament": record.tournament, "seeded": record.seeded,
                        "created_at": record.created_at, "updated_at": record.updated_at})
            if len(out) == limit:
                break
        return out

    def legal_moves(self, record: MatchRecord, seat: int | None, lang: str = "en"
                    ) -> list[dict[str, Any]]:
        """The moves ``seat`` may make now (none if it owes none or has resigned: the
        fallback plays it; None, a spectator: none), labelled in ``lang``."""
        if (record.status != MatchStatus.RUNNING or seat not in record.to_move
                or seat in record.resigned):
            return []
        state = get_game(record.game).state_from_json(jsontext.loads(record.state))
        with named_seats(seat_names(record)):  # "Bo's species", not "seat 1's"
            return listed_moves(state, seat, lang)

    def events(self, record: MatchRecord, seat: int | None, since: int = 0
               ) -> list[dict[str, Any]]:
        """The log after version ``since``, redacted for ``seat`` while the match runs or is
        sealed (:func:`shown`)."""
        finished = record.status == MatchStatus.FINISHED
        return [shown(e, seat, finished, record.sealed) for e in self.store.log(record.id)
                if e["version"] > since]

    def unseal(self, match_id: str) -> None:
        """Reveal an ended sealed match (seed, log, final view): its tournament calls it once
        every match of its deal is over. Idempotent."""
        self.store.unseal(match_id)

    # -- joining ----------------------------------------------------------------------------
    def join(self, match_id: str, seat: int | None, name: str | None,
             account_id: str | None = None, retry: tuple[str, str] | None = None
             ) -> tuple[MatchRecord, int, str]:
        """Take an open seat (``seat``, or the first open one) and return its token.

        With ``account_id`` (the joiner sent its key) the seat becomes that account's, as an
        account seat of a new match is: it plays under the account's name, is listed among
        the account's matches, its turns are announced to it and the key plays it. With
        ``retry`` (an Idempotency-Key and the request's fingerprint) a request sent again
        gets the seat the first one took, with the same token (``shared.matches.retries``).
        """
        account = None if account_id is None else self.accounts.load(account_id)
        if account_id is not None and account is None:  # deleted since its key was checked
            raise Unauthorized("the key's account no longer exists")
        salt = "" if retry is None else retries.new_salt()
        for _ in range(10):  # retry a lost compare-and-set against other joiners
            record = self.load(match_id)
            earlier = None if retry is None else self.joined_under(match_id, *retry)
            if earlier is not None:  # a request sent again (or twice at once): its seat
                return record, *earlier
            chosen = _seat_to_join(record, seat)
            expected = record.version
            joined = record.seats[chosen]
            joined["joined"], joined["name"] = True, name or joined["name"]
            if account is not None:  # now an account seat, as one it was created as
                joined["kind"], joined["account"] = SeatKind.ACCOUNT, str(account["id"])
                joined["name"], joined["webhook"] = str(account["name"]), bool(
                    account.get("webhook"))
            record.updated_at = time.time()
            if all(s["joined"] for s in record.seats):
                record.status = MatchStatus.RUNNING
                self._restart_clocks(record, None)
            record.version += 1
            token = (secrets.token_urlsafe(32) if retry is None
                     else retries.seat_token(salt, retry[0], chosen))
            entry = {"version": record.version, "seat": chosen, "at": record.updated_at,
                     "events": [{"type": "seat_joined", "seat": chosen,
                                 "name": record.seats[chosen]["name"]}]}
            due = self.bot_seats_due(record)
            kept = None if retry is None else (retry[0], {
                "fingerprint": retry[1], "answer": {"seat": chosen, "salt": salt}},
                self.idempotency_ttl)
            if self.store.commit(record, expected, [entry], idempotency=kept,
                                 new_token=(chosen, hash_secret(token)), queued=due,
                                 queued_ttl=QUEUED_TTL):
                if account is not None:
                    self.accounts.add_match(account["id"], record.id)
                self.send_bot_turns(record, due)
                self._started(record)
                return record, chosen, token
        raise Conflict("too many concurrent joins; try again")

    def joined_under(self, match_id: str, key: str, fingerprint: str
                     ) -> tuple[int, str] | None:
        """The seat and token an earlier join with Idempotency-Key ``key`` got (None: none;
        422 if the key came with another request)."""
        answer = self._earlier_answer(match_id, key, fingerprint)
        if answer is None:
            return None
        return int(answer["seat"]), retries.seat_token(str(answer["salt"]), key,
                                                       int(answer["seat"]))

    # -- invitations: an account's seat is taken only by that account ---------------------
    def accept_invitation(self, match_id: str, account_id: str) -> MatchRecord:
        """``account_id`` takes its invited seats; the match starts once no seat waits.

        Accepting again changes nothing. 404 for an account the match does not name, 409
        once the match has ended (declined, expired, or its open seats never joined)."""
        for _ in range(10):  # retry a lost compare-and-set against other acceptances
            record = self.load(match_id)
            mine = self._invited_seats(record, account_id)
            if not mine:
                return record  # accepted before
            expected = record.version
            for seat in mine:
                record.seats[seat]["joined"] = True
                record.seats[seat].pop("invited", None)
            record.updated_at = time.time()
            if all(s["joined"] for s in record.seats):
                record.status = MatchStatus.RUNNING
                self._restart_clocks(record, None)
            record.version += 1
            entry = {"version": record.version, "at": record.updated_at, "events": [
                {"type": "invitation_accepted", "account": account_id, "seats": mine}]}
            due = self.bot_seats_due(record)
            if self.store.commit(record, expected, [entry], queued=due, queued_ttl=QUEUED_TTL):
                self.send_bot_turns(record, due)
                self._started(record)
                return record
        raise Conflict("too many concurrent changes; try again")

    def decline_invitation(self, match_id: str, account_id: str) -> MatchRecord:
        """``account_id`` declines: the match ends ``aborted`` (nothing is rated). 409 if
        the account has already accepted or the match has ended."""
        for _ in range(10):  # retry a lost compare-and-set against the other seats
            record = self.load(match_id)
            if not self._invited_seats(record, account_id):
                raise Conflict("the invitation was already accepted; the match is on")
            if self._end(record, MatchStatus.ABORTED, {
                    "type": "aborted", "account": account_id,
                    "reason": f"account {account_id} declined the invitation"}):
                return record
        raise Conflict("too many concurrent changes; try again")

    def _invited_seats(self, record: MatchRecord, account_id: str) -> list[int]:
        """The seats ``account_id`` is invited to and has not taken (404 if it holds none,
        409 if the match has ended)."""
        held = [s for s in record.seats if s.get("account") == account_id]
        if not held:
            raise NotFound(f"match {record.id!r} has no seat for this account")
        if record.status in ENDED:
            raise Conflict(f"the match is {record.status}", version=record.version)
        return [s["seat"] for s in held if s.get("invited")]

    def expire_invitations(self, match_id: str, created_before: float) -> bool:
        """Abort a match created before ``created_before`` whose invited accounts have not
        all accepted (``invitation_ttl`` passed); True if this call ended it."""
        record = self.store.load(match_id)
        if (record is None or record.status != MatchStatus.WAITING
                or record.created_at >= created_before):
            return False
        late = pending_invitations(record)
        if not late:
            return False
        return self._end(record, MatchStatus.ABORTED, {
            "type": "aborted", "accounts": late,
            "reason": f"the invitation of account(s) {', '.join(late)} expired unanswered"})

    # -- leaving: resigning, or abandoning by idling (shared.matches.resignation) ----------
    def resign(self, match_id: str, seat: int, idle_by: float | None = None,
               clock_by: float | None = None) -> MatchRecord:
        """``seat`` leaves the match for good: the fallback plays it to the end and it ranks
        last, or the match ends now if nobody is left to play for. 409 if the match is not
        running or the seat has already left or forfeited. ``idle_by``: the seat is
        abandoned, having owed a move past its idle limit by then (409 if it has moved);
        ``clock_by``: its clock ran out by then (``shared.matches.clocks.resigns``)."""
        for _ in range(10):  # retry a lost compare-and-set against the players
            record = self.load(match_id)
            resignation.check(record, seat, idle_by)
            if clock_by is not None and seat not in clocks.overdue(record, clock_by):
                raise Conflict(f"seat {seat} is not out of time: it moved",
                               version=record.version)
            expected = record.version
            reason = (resignation.IDLE if idle_by is not None else resignation.TIMEOUT
                      if clock_by is not None else resignation.RESIGNED)
            event = resignation.leave(record, seat, reason)
            record.version, record.updated_at = expected + 1, time.time()
            record.finish_owed = owes_finish(record)
            self._restart_clocks(record, None)
            entry = {"version": record.version, "at": record.updated_at, "events": [event]}
            due = self.bot_seats_due(record)
            if self.store.commit(record, expected, [entry], ended=self.kept_form(record),
                                 queued=due, queued_ttl=QUEUED_TTL):
                self.send_bot_turns(record, due)
                if record.finish_owed:
                    self.send_finish(record.id)
                return record
        raise Conflict("too many concurrent changes; try again")

    # -- playing ----------------------------------------------------------------------------
    def submit_move(self, match_id: str, seat: int, expected_version: int,
                    move: dict[str, Any] | str, idempotency_key: str | None = None,
                    bot: dict[str, Any] | None = None, timeout: dict[str, Any] | None = None,
                    record: MatchRecord | None = None,
                    answer_checked: bool = False) -> dict[str, Any]:
        """Validate and apply one move with a compare-and-set on ``expected_version``.

        ``bot`` (kind, thinking time) is recorded in the log entry of a bot's move;
        ``timeout`` (why) marks a fallback move played for a seat that did not answer.
        ``record``: the match as the caller has just read it, which saves reading it again.
        ``answer_checked``: the caller has just asked :meth:`stored_answer` for this key (and
        found none), which saves asking again.
        """
        if idempotency_key is None:
            return self._apply_move(match_id, seat, expected_version, move, None, bot, timeout,
                                    record)
        fingerprint = retries.fingerprint(seat, expected_version, move)
        earlier = None if answer_checked else self._earlier_answer(match_id, idempotency_key,
                                                                   fingerprint)
        if earlier is not None:
            return earlier
        try:
            return self._apply_move(match_id, seat, expected_version, move,
                                    (idempotency_key, fingerprint), bot, timeout, record)
        except (Conflict, Unprocessable):
            # A concurrent copy of this request may have won in the meantime: its answer is
            # stored in the same atomic step as its move, so once it is refused as stale (or
            # as no longer legal) the copy's answer is already there. Never "stale" for a
            # move that was applied.
            earlier = self._earlier_answer(match_id, idempotency_key, fingerprint)
            if earlier is not None:
                return earlier
            raise

    def _apply_move(self, match_id: str, seat: int, expected_version: int,
                    move: dict[str, Any] | str, idempotency: tuple[str, str] | None,
                    bot: dict[str, Any] | None, timeout: dict[str, Any] | None,
                    given: MatchRecord | None = None,
                    rejudge: int = REJUDGE_LIMIT) -> dict[str, Any]:
        """Validate and commit one move; ``idempotency`` (key, fingerprint) stores its answer
        with it. ``given``: a record the caller read, used instead of reading it again.
        ``rejudge``: how many more times a lost compare-and-set judges the move again."""
        record = given if given is not None else self.load(match_id)
        self._check_playable(record, seat, bot)
        game = get_game(record.game)
        state = game.state_from_json(jsontext.loads(record.state))
        applied_at = expected_version
        if expected_version != record.version:
            # A move quoting an older version still answers the question it was asked if
            # only other seats of the same simultaneous step moved since and its legal moves
            # are the same: apply it at the current version rather than refuse it
            # (shared.matches.carryover.ask_quoted decides).
            if bot is not None or timeout is not None or not self._quote_holds(
                    record, game, state, seat, expected_version):
                raise Conflict(f"stale version {expected_version}: the match is at version "
                               f"{record.version}; read it again", version=record.version)
            applied_at = record.version
        problem = move_problem(game, move)
        if problem is not None:  # no engine ever sees a move of the wrong shape
            raise Unprocessable(f"malformed move: {problem}", version=record.version)
        try:
            canonical = state.find_move(seat, move)
            rng = match_random.restore(record.rng, record.seed)
            with named_seats(seat_names(record)):
                label = state.move_label(canonical)
            events = state.apply(seat, canonical, rng)
        except NotYourTurn as exc:
            raise Conflict(f"seat {seat} owes no move now ({exc})", version=record.version,
                           to_move=record.to_move) from None
        except IllegalMove as exc:
            raise Unprocessable(f"illegal move: {exc}", version=record.version) from None
        events = events + self._count_timeout(record, seat, timeout)
        owed_before = set(record.to_move)
        self._advance(record, game, state, rng, seat)
        entry = {"version": record.version, "seat": seat, "move": canonical, "label": label,
                 "events": events, "at": record.updated_at}
        if bot is not None:
            entry["bot"] = bot
        if timeout is not None:
            entry["timeout"] = timeout
        answer = {"version": record.version, "applied_at": applied_at,
                  "status": record.status, "to_move": record.to_move, "move": canonical,
                  "label": label, "events": redact(entry, seat)["events"]}
        idem = None
        if idempotency is not None:
            key, fingerprint = idempotency
            idem = (key, {"fingerprint": fingerprint, "answer": answer}, self.idempotency_ttl)
        due = self.bot_seats_due(record)  # handed on: marked queued by the commit itself
        if not self.store.commit(record, applied_at, [entry], idempotency=idem,
                                 ended=self.kept_form(record), queued=due,
                                 queued_ttl=QUEUED_TTL):
            if rejudge > 0:
                # The read was overtaken: judge the move again on the match as it is now (a
                # quoted version may still hold there), as if nothing was given. Each loss
                # means another move was accepted, so several seats moving at once (a
                # simultaneous step) may overtake it more than once without any conflict;
                # a real one is refused by that judgement, not here.
                return self._apply_move(match_id, seat, expected_version, move, idempotency,
                                        bot, timeout, None, rejudge - 1)
            raise Conflict("another move was accepted first; read the match again",
                           version=self.store.version(match_id))
        self._handed_on(record, due, owed_before, seat if timeout is not None else None)
        return answer

    def _handed_on(self, record: MatchRecord, due: list[int], owed_before: set[int],
                   played_for: int | None) -> None:
        """After a committed move: the bot turns it hands on, its finish, its news: the seats
        that owe a move they did not owe before it, and the seat whose move the server played
        (a timeout) if it owes again. A seat that moved itself and owes again is not told:
        its own move's answer says so."""
        self.send_bot_turns(record, due)
        if record.finish_owed:
            self.send_finish(record.id)
        self.announce(record, [s for s in record.to_move
                               if s not in owed_before or s == played_for], False)

    @staticmethod
    def _check_playable(record: MatchRecord, seat: int, bot: dict[str, Any] | None) -> None:
        """409 unless ``seat`` may move in ``record`` now (``bot``: the server plays it)."""
        if record.status == MatchStatus.WAITING:
            raise Conflict("the match is waiting for its open seats to be joined or its "
                           "invited accounts to accept", version=record.version)
        if record.status in ENDED:
            ended = "over" if record.status == MatchStatus.FINISHED else record.status
            raise Conflict(f"the match is {ended}", version=record.version)
        if seat in record.resigned and bot is None:  # only the fallback plays it now
            raise Conflict(f"seat {seat} has left this match: the fallback plays it",
                           version=record.version)
        if bot is None and clocks.flagged(record, seat, time.time()):
            raise Conflict(f"seat {seat}'s clock has run out: the move is too late",
                           version=record.version)

    def question_holds(self, record: MatchRecord, seat: int, question: carryover.Question,
                       state: State | None = None) -> bool:
        """Whether ``question``, asked of ``seat`` at an earlier version (a bot's search, a
        hint's), is still its question in ``record`` (``shared.matches.carryover``)."""
        if (record.status != MatchStatus.RUNNING
                or record.version - question.version >= len(record.seats)):
            return False  # each move since must be a different seat's: at most players - 1
        # A match starts at version 1 and every accepted write adds one log entry, so version
        # v's entry is at index v - 2 (still_open checks the versions, and fails safe if not).
        entries = self.store.log(record.id, question.version - 1, record.version - 2)
        if state is None:
            state = get_game(record.game).state_from_json(jsontext.loads(record.state))
        return carryover.still_open(question, seat, state, record.version, entries)

    def _quote_holds(self, record: MatchRecord, game: Game, state: State, seat: int,
                     quoted: int) -> bool:
        """Whether ``seat``'s question at version ``quoted`` is still its question now."""
        if not 1 <= quoted < record.version or record.version - quoted >= len(record.seats):
            return False  # each move since must be a different seat's: at most players - 1
        # Version v's log entry is at index v - 2 (the match starts at version 1).
        entries = self.store.log(record.id, quoted - 1, record.version - 2)
        if any("move" not in e or e.get("seat") == seat for e in entries):
            return False  # cheap refusals first: a join, an end, this seat's own move
        earlier = self.state_at(record, game, quoted)
        question = carryover.ask_quoted(earlier, seat, quoted)
        return carryover.still_open(question, seat, state, record.version, entries)

    def state_at(self, record: MatchRecord, game: Game, version: int) -> State:
        """The match's state at ``version``, replayed from its seed and logged moves."""
        rng = random.Random(record.seed)
        state = game.new_state(len(record.seats), record.options, rng)
        for entry in self.store.log(record.id, 0, version - 2) if version >= 2 else []:
            if "move" in entry:
                state.apply(entry["seat"], entry["move"], rng)
        return state

    def stored_answer(self, match_id: str, seat: int, expected_version: int,
                      move: dict[str, Any] | str, idempotency_key: str
                      ) -> dict[str, Any] | None:
        """The answer stored for a keyed move already accepted (None: none is stored), so a
        retry gets it before anything else (a rate limit) is judged; a key reused for a
        different move is a 422."""
        return self._earlier_answer(match_id, idempotency_key,
                                    retries.fingerprint(seat, expected_version, move))

    def _earlier_answer(self, match_id: str, key: str, fingerprint: str
                        ) -> dict[str, Any] | None:
        stored = self.store.idempotent_answer(match_id, key)
        if stored is None:
            return None
        if not retries.same_request(stored, fingerprint):
            raise Unprocessable("this Idempotency-Key was already used for a different "
                                "request")
        answer: dict[str, Any] = stored["answer"]
        return answer

    @staticmethod
    def _count_timeout(record: MatchRecord, seat: int, timeout: dict[str, Any] | None
                       ) -> list[dict[str, Any]]:
        """Count a seat's consecutive timeouts; the events of a forfeit it causes."""
        if seat in record.forfeited:
            return []  # the fallback plays a forfeited seat; nothing more to count
        if timeout is None:
            record.timeouts.pop(seat, None)
            return []
        record.timeouts[seat] = record.timeouts.get(seat, 0) + 1
        if record.forfeit_after is None or record.timeouts[seat] < record.forfeit_after:
            return []
        record.forfeited.append(seat)
        return [{"type": "forfeit", "seat": seat, "timeouts": record.timeouts[seat]}]

    def _advance(self, record: MatchRecord, game: Game, state: State, rng: random.Random,
                 mover: int) -> None:
        record.state = jsontext.dumps(state.to_json())
        record.rng = match_random.dump(rng)
        record.to_move = state.to_move()
        record.version += 1
        record.updated_at = time.time()
        if state.is_over():
            record.status = MatchStatus.FINISHED
            record.result = resignation.final_result(state.result().to_json(),
                                                     record.resigned)
            record.finish_owed = owes_finish(record)  # written by the commit that ends it
        self._restart_clocks(record, mover)

    @staticmethod
    def _restart_clocks(record: MatchRecord, mover: int | None) -> None:
        """Seats that start owing a move now (or owe again after moving) start their clock;
        the turn budget starts when the last waiting seat stops owing one (``bots_since``,
        at the write's ``updated_at``, the time its log entry shows)."""
        now = time.time()
        owing = [s for s in record.to_move if record.status == MatchStatus.RUNNING
                 and (clocked(record, s) or record.idles(s) or clocks.timed(record, s))]
        clocks.charge(record, mover, owing, now)  # before the seats' ``owed_since`` restart
        record.owed_since = {s: (record.owed_since.get(s, now) if s != mover else now)
                             for s in owing}
        # The turn budget's start: the write after which no waiting seat owes a move (one
        # moved, or the match began with the server's seats to move), kept until one owes.
        if (record.status != MatchStatus.RUNNING or not turn_budgeted(record)
                or any(awaited(record, s) for s in record.to_move)):
            record.bots_since = None
        elif record.bots_since is None:
            record.bots_since = record.updated_at

    def expire(self, match_id: str, created_before: float) -> bool:
        """End a match still waiting for open seats since before ``created_before``."""
        record = self.store.load(match_id)
        if (record is None or record.status != MatchStatus.WAITING
                or record.created_at >= created_before):
            if record is not None:
                self.store.index_deadlines(record)  # joined or gone: drop it from the index
            return False
        if pending_invitations(record):
            return False  # an invitation's own expiry aborts it (expire_invitations)
        return self._end(record, MatchStatus.EXPIRED, {"type": "expired", "open_seats": [
            s["seat"] for s in record.seats if is_open(s)]})

    def expire_stalled(self, match_id: str, updated_before: float) -> bool:
        """End a running match nobody has moved in since before ``updated_before``.

        A tournament's matches are left to their tournament (it cancels them as a whole).
        """
        record = self.store.load(match_id)
        if (record is None or record.status != MatchStatus.RUNNING or record.tournament is not None
                or record.updated_at >= updated_before):
            return False
        return self._end(record, MatchStatus.EXPIRED, {"type": "expired", "stalled_since":
                                             record.updated_at})

    def abort(self, match_id: str, reason: str) -> bool:
        """End a running match without a result (its tournament was cancelled)."""
        for _ in range(10):  # retry a lost compare-and-set against the players
            record = self.store.load(match_id)
            if record is None or record.status in ENDED:
                return False
            if self._end(record, MatchStatus.ABORTED, {"type": "aborted", "reason": reason}):
                return True
        return False

    def forget_account(self, match_id: str, account_id: str, name: str) -> None:
        """A deleted account's seats in ``match_id`` show ``name``: a live match's forfeit
        (:meth:`release_account`), an ended one's kept records are renamed."""
        if not self.release_account(match_id, account_id, name):
            self.store.rename_kept_seats(match_id, account_id, name)

    def release_account(self, match_id: str, account_id: str, name: str) -> bool:
        """An account was deleted: its seats in a live match forfeit (the fallback bot plays
        them to the end, as after ``forfeit_after`` timeouts) and show ``name``. False if the
        match has ended, is gone or seats no such account."""
        for _ in range(10):  # retry a lost compare-and-set against the players
            record = self.store.load(match_id)
            if record is None or record.status in ENDED:
                return False
            held = [s["seat"] for s in record.seats if s.get("account") == account_id]
            if not held:
                return False
            expected = record.version
            for seat in held:
                record.seats[seat]["name"] = name
                record.seats[seat]["webhook"] = False
            events = [{"type": "forfeit", "seat": seat, "reason": "account deleted"}
                      for seat in held if seat not in record.forfeited]
            record.forfeited.extend(seat for seat in held if seat not in record.forfeited)
            record.version, record.updated_at = expected + 1, time.time()
            self._restart_clocks(record, None)
            entry = {"version": record.version, "at": record.updated_at, "events": events}
            due = self.bot_seats_due(record)
            if self.store.commit(record, expected, [entry], queued=due, queued_ttl=QUEUED_TTL):
                self.send_bot_turns(record, due)
                return True
        return False

    def _end(self, record: MatchRecord, status: MatchStatus, event: dict[str, Any]) -> bool:
        expected = record.version
        record.status, record.version, record.updated_at = status, expected + 1, time.time()
        record.to_move, record.owed_since, record.bots_since = [], {}, None
        entry = {"version": record.version, "at": record.updated_at, "events": [event]}
        if not self.store.commit(record, expected, [entry], ended=self.kept_form(record)):
            return False
        self.announce(record, [], False)
        return True

    def _started(self, record: MatchRecord) -> None:
        """Announce a write that started ``record`` (the last seat joined or accepted)."""
        if record.status == MatchStatus.RUNNING:
            self.announce(record, list(record.to_move), True)

    def announce(self, record: MatchRecord, fresh: list[int], started: bool) -> None:
        """Tell ``committed`` of a committed write. A failure is logged, not raised: the
        write stands (a notification is news, not the match)."""
        self._tell(self.committed, record, fresh, started)

    @staticmethod
    def _tell(hooks: Sequence[Callable[..., None]], *args: Any) -> None:
        for hook in hooks:
            try:
                hook(*args)
            except Exception as exc:  # Redis or the broker away: the match goes on
                log.warning("a notification hook failed: %r", exc)

    def kept_form(self, record: MatchRecord) -> dict[str, Any] | None:
        """What is kept of ``record`` after its end, if it ends with this write: the match as
        a spectator sees it (result, seats, names, seed, commitment, final public view).
        None while it runs, and for a match whose rules this server no longer plays. A sealed
        match's is kept whole, marked ``sealed``: :func:`withheld` hides it until unsealed."""
        if record.status not in ENDED or self.retired_rules(record) is not None:
            return None
        return {**self.describe(dataclasses.replace(record, sealed=False), None),
                "sealed": record.sealed}

    # -- bots -------------------------------------------------------------------------------
    def bot_seats_due(self, record: MatchRecord) -> list[int]:
        """Seats the server plays that owe a move: bots, webhook accounts, forfeited seats."""
        if record.status != MatchStatus.RUNNING:
            return []
        due = [s for s in record.to_move if record.seats[s]["kind"] == SeatKind.BOT
               or record.seats[s].get("webhook") or s in record.forfeited]
        # A tournament's bots take a simultaneous step one at a time, in seat order: each
        # then decides at a version (and from a view) that does not depend on which worker
        # was quicker, so a seeded tournament of deterministic bots replays exactly.
        return due[:1] if record.tournament else due

    def enqueue_bot_turns(self, record: MatchRecord) -> None:
        """Send the bot turns due after a committed write. A failure to send is logged, not
        raised: the write stands, and the sweep re-enqueues a turn that has no queued mark."""
        for seat in self.bot_seats_due(record):
            try:
                self.enqueue_turn(record, seat)
            except Exception as exc:  # the broker is down or full; the sweep recovers it
                log.warning("could not enqueue match %s seat %s v%s: %s", record.id, seat,
                            record.version, exc)

    def send_bot_turns(self, record: MatchRecord, seats: list[int]) -> None:
        """Send the bot turns of ``seats`` that a committed write marked queued (in its own
        atomic step). A failure to send is logged, not raised: the write stands; the mark
        is dropped, so the sweep re-enqueues the turn."""
        send = self.background if record.tournament else self.enqueue
        for seat in seats:
            try:
                send(record.id, seat, record.version)
            except Exception as exc:  # the broker is down or full; the sweep recovers it
                log.warning("could not enqueue match %s seat %s v%s: %s", record.id, seat,
                            record.version, exc)
                try:
                    self.store.unmark_turn_queued(record.id, seat, record.version)
                except Exception as gone:  # the mark then expires by itself (QUEUED_TTL)
                    log.warning("match %s seat %s v%s: its queued mark stays until it "
                                "expires: %r", record.id, seat, record.version, gone)

    def send_finish(self, match_id: str) -> None:
        """Send a committed end's finish handling (``on_finish``). A failure to send is
        logged, not raised: the move that ended the match is committed and its answer must
        say so; its ``finish_owed`` mark makes the tournament sweep do the handling."""
        if self.on_finish is None:
            return
        try:
            self.on_finish(match_id)
        except Exception as exc:  # the broker is down or full; the sweep recovers it
            log.warning("match %s finished; the task that rates it (and moves its tournament "
                        "on) was not sent (%r): the sweep will do it", match_id, exc)

    def claim_bot_turn(self, match_id: str, seat: int, version: int, ttl: float,
                       note: str = "1") -> bool:
        """Take the lease on a bot's turn for ``ttl`` seconds (storing ``note``: the question
        a search answers, ``shared.matches.carryover``); False if another task holds it."""
        return self.store.claim_bot_turn(match_id, seat, version, ttl, note)

    def release_bot_turn(self, match_id: str, seat: int, version: int) -> None:
        self.store.release_bot_turn(match_id, seat, version)

    def enqueue_turn(self, record: MatchRecord, seat: int) -> None:
        """Send a bot turn to its queue (a tournament's go behind people's matches), marked
        queued first so the sweep leaves it alone while it waits."""
        send = self.background if record.tournament else self.enqueue
        self.store.mark_turn_queued(record.id, seat, record.version, QUEUED_TTL)
        try:
            send(record.id, seat, record.version)
        except Exception:
            self.store.unmark_turn_queued(record.id, seat, record.version)
            raise

    # -- accounts: what the accounts service reads of matches --------------------------------
    def account_turns(self, account_id: str, match_ids: Sequence[str]
                      ) -> tuple[list[dict[str, Any]], list[str]]:
        """The turns ``account_id`` owes in ``match_ids`` (the matches read in one pipeline),
        each with what a bot needs to answer it: the seat's ``view``, its legal ``moves``
        (as ``legal_moves`` lists them) and the ``version`` to quote; and the ids of the
        matches that have ended or are gone. Webhook and forfeited seats are the server's
        to play; a match under retired rules is left out (every route of it is a 410)."""
        turns: list[dict[str, Any]] = []
        ended: list[str] = []
        for match_id, record in zip(match_ids, self.store.load_many(match_ids), strict=True):
            if record is None or record.status in ENDED:
                ended.append(match_id)
                continue
            if record.status != MatchStatus.RUNNING or self.retired_rules(record) is not None:
                continue
            turns.extend(self._owed_turns(record, account_id))
        return turns, ended

    def _owed_turns(self, record: MatchRecord, account_id: str) -> list[dict[str, Any]]:
        seats = [seat for seat in record.to_move
                 if record.seats[seat].get("account") == account_id
                 and not record.seats[seat].get("webhook") and seat not in record.forfeited]
        if not seats:
            return []
        state = get_game(record.game).state_from_json(jsontext.loads(record.state))
        return [{"match": record.id, "seat": seat, "version": record.version,
                 "game": record.game,
                 # A time control's clock, else the match's move deadline.
                 "deadline_at": clocks.deadline(record, seat) or record.deadline_at(),
                 "view": state.view(seat),
                 "moves": [{"id": state.move_id(m), "label": state.move_label(m), "move": m}
                           for m in state.legal_moves(seat)]}
                for seat in seats]

    def versions(self, match_ids: Sequence[str]) -> list[int | None]:
        """Each match's version (None: gone), in one round trip."""
        return self.store.versions(match_ids)

    def channels(self, match_ids: Sequence[str]) -> list[str]:
        """The channels announcing each match's changes (for ``shared.infra.notifier``)."""
        return [self.store.channel(match_id) for match_id in match_ids]

    def account(self, account_id: str) -> dict[str, Any] | None:
        """An account as stored (None: none such): what a tournament's entrant or a webhook
        seat reads of it, through this service rather than its store."""
        return self.accounts.load(account_id)

    def webhook_secret(self, account_id: str, new: str) -> str:
        """The key that signs the account's webhook calls (``new`` stored if it has none)."""
        return self.accounts.webhook_secret(account_id, new)

    # -- deadlines: what the deadline sweep (shared.bots.deadlines) reads and writes --------
    def due_deadlines(self, now: float) -> list[str]:
        """Matches where some seat's move deadline has passed by ``now``."""
        return self.store.due_deadlines(now)

    def waiting_since(self, before: float) -> list[str]:
        """Waiting matches created before ``before`` (epoch seconds)."""
        return self.store.waiting_since(before)

    def index_deadlines(self, record: MatchRecord) -> None:
        """Put ``record`` back in the deadline and waiting indexes as it is now."""
        self.store.index_deadlines(record)

    def forget_indexed(self, match_id: str) -> None:
        """Drop a match gone (or unplayable here) from the deadline and waiting indexes."""
        self.store.forget_indexed(match_id)

    # -- hints: what shared.bots.hints (API) and shared.bots.hint_search (worker) keep -------
    def claim_hint(self, match_id: str, seat: int, version: int, ttl: float) -> bool:
        """Mark a hint search for this question as asked; False if one already is."""
        return self.store.claim_hint(match_id, seat, version, ttl)

    def release_hint(self, match_id: str, seat: int, version: int) -> None:
        """Forget an asked search that will not answer (the next ask sends another)."""
        self.store.release_hint(match_id, seat, version)

    def hint_rate_limit(self, match_id: str, seat: int, seconds: float) -> float:
        """0.0 if ``seat`` may start a new hint search now, else the seconds to wait."""
        return self.store.rate_limit(f"hint:{match_id}:{seat}", seconds)

    def note_hint_question(self, match_id: str, seat: int, question: str, ttl: float) -> None:
        """Remember the question of the seat's latest hint search."""
        self.store.note_hint_question(match_id, seat, question, ttl)

    def last_hint_question(self, match_id: str, seat: int) -> str | None:
        return self.store.last_hint_question(match_id, seat)

    def hint_asked(self, match_id: str, seat: int, version: int) -> bool:
        """Whether a hint search at ``version`` is under way or answered."""
        return self.store.hint_asked(match_id, seat, version)

    def keep_hint(self, match_id: str, seat: int, version: int, answer: dict[str, Any],
                  ttl: float) -> None:
        """Keep a hint's answer for ``ttl`` seconds and wake those waiting for it."""
        self.store.keep_hint(match_id, seat, version, answer, ttl)

    def kept_hint(self, match_id: str, seat: int, version: int) -> dict[str, Any] | None:
        return self.store.kept_hint(match_id, seat, version)

    def wait_for_hint(self, match_id: str, seat: int, version: int,
                      timeout: float) -> dict[str, Any] | None:
        """The kept answer to this question, waiting up to ``timeout`` seconds for it."""
        return self.store.wait_for_hint(match_id, seat, version, timeout)

    # -- finishes: what the tournaments service reads of ended matches -----------------------
    def kept_result(self, match_id: str) -> dict[str, Any] | None:
        """The match as kept after its end (None: none kept), without :meth:`read`'s checks."""
        return self.store.kept_result(match_id)

    def statuses(self, match_ids: Sequence[str]) -> list[str | None]:
        """Each match's status (None: gone), in one round trip."""
        return self.store.statuses(match_ids)

    def owed_finishes(self, ended_before: float, limit: int) -> list[str]:
        """Matches owing their finish handling since before ``ended_before``."""
        return self.store.owed_finishes(ended_before, limit)

    def finish_handled(self, match_id: str) -> None:
        """An ended match's finish handling is done: clear its mark and index entry."""
        self.store.finish_handled(match_id)

    def touch_finishing(self, match_id: str, when: float) -> None:
        """Look at a match's owed finish again only after ``when``."""
        self.store.touch_finishing(match_id, when)

    # -- an account's matches, as its owner lists them (``GET /v1/me/matches``) -------------
    def summaries(self, match_ids: Sequence[str], account_id: str
                  ) -> list[dict[str, Any] | None]:
        """Each match as ``account_id`` lists it (``shared.matches.summaries``; None: gone),
        read in one pipeline (and one read per ended match no longer kept whole)."""
        return summaries.summaries(match_ids, self.store.load_many(match_ids),
                                   self.store.kept_result, account_id)


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


def shown(entry: dict[str, Any], seat: int | None, finished: bool, sealed: bool
          ) -> dict[str, Any]:
    """A log entry as ``seat`` may see it: whole once the match finished, else redacted
    (:func:`redact`). A sealed match's entries show a spectator no event at all: the deal is
    replayed elsewhere, where a card public here may be hidden."""
    if finished and not sealed:
        return entry
    if sealed and seat is None:
        return {**{key: value for key, value in entry.items()
                   if key not in ("move", "label", "events")}, "events": []}
    return redact(entry, seat)


def withheld(kept: dict[str, Any]) -> dict[str, Any]:
    """A match as kept after its end (``MatchService.kept_form``), as it may be shown: a
    sealed one without its seed and final view."""
    if not kept.get("sealed"):
        return kept
    return {**kept, "seed": None, "view": None}
