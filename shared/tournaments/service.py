"""Tournaments: creation, the scheduler step, standings, the exported results, ratings.

The scheduler (:meth:`TournamentService.tick`) runs in any worker, one at a time per
tournament (a short lease in Redis); it records finished matches (those the finish handling
noted as ended: a tick never reloads the running ones), rates them, plans the next Swiss
round and starts matches up to the tournament's concurrency. A slot's match id is
derived from the slot and claimed before the match is created, and creating a match that
exists changes nothing: a scheduler killed half-way is simply run again, and no match is
ever played twice. The matches' bot turns run on every worker consuming the tournament queue.

A rated or tournament match's end is handled (:meth:`TournamentService.match_finished`: rate
it, tick its tournament) when the API or worker that ended it sends the task; the write that
ended it also marked it as owing that handling (``MatchRecord.finish_owed``, indexed in
``evo:finishing``), and :meth:`TournamentService.sweep` handles every mark older than a few
seconds, so no broker failure and no crash after the commit loses a rating.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from shared.domain.errors import Conflict, NotFound, TooManyRequests, Unprocessable
from shared.domain.types import MatchStatus, SeatKind
from shared.games import all_games, get_game
from shared.matches.record import ENDED, MatchRecord
from shared.matches.service import MatchService
from shared.ratings import model as ratings
from shared.ratings.store import RatingStore
from shared.tournaments import formats
from shared.tournaments.limits import TournamentLimits, check_budget
from shared.tournaments.listing import list_tournaments
from shared.tournaments.standings import match_points, standings
from shared.tournaments.store import Snapshot, TournamentStore

log = logging.getLogger(__name__)
LOCK_SECONDS = 10.0  # the scheduler's lease; a step takes milliseconds
SWEPT_FINISHES = 100  # owed finishes one sweep handles (the next sweep takes the rest)
BYE_POINTS = 2.0  # a Swiss bye scores as a won duplicate pair (two won matches)


class TournamentService:
    def __init__(self, matches: MatchService, store: TournamentStore, ratings: RatingStore,
                 max_matches: int = 5000, max_entrants: int = 64, max_concurrency: int = 32,
                 start: Callable[[str], None] | None = None,
                 limits: TournamentLimits | None = None,
                 invite: Callable[[str, dict[str, Any]], None] | None = None,
                 invitation_ttl: float = 600.0) -> None:
        # Matches only through their service; the tournaments' and ratings' own keys through
        # the stores ``shared.services`` builds on the same client (one door per store).
        self.matches = matches
        self.start = start or self.tick  # the worker's tick task, sent by the API
        self.store = store
        self.ratings = ratings
        self.max_matches = max_matches
        self.max_entrants = max_entrants
        self.max_concurrency = max_concurrency
        self.limits = limits or TournamentLimits()
        # Notes an invitation in the invited account's list (``AccountStore.add_invitation``,
        # given by ``shared.services``); how long the account has to accept it.
        self.invite = invite
        self.invitation_ttl = invitation_ttl

    # -- creation ---------------------------------------------------------------------------
    def create(self, spec: dict[str, Any], owner_hash: str = "", client: str = "",
               accepted: Collection[str] = ()) -> dict[str, Any]:
        """Validate ``spec``, plan the matches, store the tournament and start it.

        ``owner_hash`` is the hash of the token that may cancel it; ``client`` the address
        it counts against (its cap of running tournaments; "": none). An account entrant not
        in ``accepted`` (the creator's own account, given its key) is invited: the tournament
        waits until every invited account accepts (``accept_invitation``).
        """
        try:
            game = get_game(spec["game"])
        except KeyError:
            raise Unprocessable(f"unknown game {spec['game']!r}", field="game") from None
        try:
            options = game.resolve_options(spec.get("options") or {})
        except ValueError as exc:
            raise Unprocessable(str(exc), field="options") from None
        entrants = [self._entrant(index, e) for index, e in enumerate(spec["entrants"])]
        self._check_size(spec, game.min_players, game.max_players, len(entrants))
        check_budget(spec, entrants, self.limits)
        seed = spec.get("seed")
        seed = secrets.randbits(63) if seed is None else seed
        seats, rounds, count = spec["seats"], spec.get("rounds", 1), len(entrants)
        if spec["format"] == "round_robin":
            slots, total = formats.round_robin(count, rounds, seed), None
        elif spec["format"] == "pods":
            slots, total = formats.pods(count, seats, spec.get("deals", count), seed), None
        else:
            slots, total = [], rounds * (count // 2) * 2
        tournament_id = secrets.token_hex(8)
        meta = {
            "id": tournament_id, "name": spec.get("name") or f"{game.name} {spec['format']}",
            "game": game.id, "options": options, "format": spec["format"], "seats": seats,
            "rounds": rounds, "deals": spec.get("deals"), "seed": seed,
            "seeded": spec.get("seed") is not None,
            "move_deadline": spec["move_deadline"], "forfeit_after": spec["forfeit_after"],
            "concurrency": spec["concurrency"], "entrants": entrants, "status": "running",
            "total": total if total is not None else len(slots), "done": 0,
            "created_at": time.time(), "finished_at": None, "byes": {}, "swiss_round": 0,
            "note": None, "owner_hash": owner_hash}
        self._admit(client, tournament_id)
        invited = self._mark_invited(meta, accepted)
        self.store.create(meta, {slot["slot"]: slot for slot in slots})
        if invited:
            self._send_invitations(meta, invited)
        else:
            self.start(tournament_id)
        return self.load(tournament_id)

    def _admit(self, client: str, tournament_id: str) -> None:
        """Count the tournament against its client's running ones, or refuse it (429)."""
        cap = self.limits.running_per_client
        if not client or cap <= 0:
            return
        running = self.store.reserve_running(client, tournament_id, cap)
        if running is not None:
            raise TooManyRequests(f"at most {cap} running tournaments per address; you have "
                                  f"{running}: retry when one ends", retry_after=60)

    def _entrant(self, index: int, spec: dict[str, Any]) -> dict[str, Any]:
        if ("bot" in spec) == ("account" in spec):
            raise Unprocessable(f"entrant {index}: give exactly one of 'bot' or 'account'",
                                field="entrants")
        if "bot" in spec:
            bot = MatchService._bot_spec(spec["bot"], index)
            # Matches are created from the spec as given (the stored form says "custom").
            seat = {"kind": SeatKind.BOT, "bot": bot, "request": spec["bot"]}
        else:
            account = self.matches.account(str(spec["account"]))
            if account is None:
                raise Unprocessable(f"entrant {index}: no account with id "
                                    f"{spec['account']!r}", field="entrants")
            seat = {"kind": SeatKind.ACCOUNT, "account": account["id"], "name": account["name"]}
        # An account plays under its own name (an entrant's never renames it).
        name = seat["name"] if "account" in seat else (
            spec.get("name") or ratings.player_name(seat))
        return {**seat, "index": index, "name": name, "player": ratings.player_key(seat)}

    def _check_size(self, spec: dict[str, Any], least: int, most: int, entrants: int) -> None:
        seats, fmt, rounds = spec["seats"], spec["format"], spec.get("rounds", 1)
        if not least <= seats <= most:
            raise Unprocessable(f"this game takes {least}-{most} seats, not {seats}",
                                field="seats")
        if fmt in ("round_robin", "swiss") and seats != 2:
            raise Unprocessable(f"{fmt} is for 2-seat matches; use pods for {seats} seats",
                                field="format")
        if fmt == "pods" and not 3 <= seats <= 6:
            raise Unprocessable("pods take 3-6 seats per match", field="seats")
        if not max(2, seats) <= entrants <= self.max_entrants:
            raise Unprocessable(f"a tournament takes {max(2, seats)}-{self.max_entrants} "
                                f"entrants here, not {entrants}", field="entrants")
        if fmt == "swiss" and rounds > formats.swiss_max_rounds(entrants):
            raise Unprocessable(f"{entrants} entrants allow at most "
                                f"{formats.swiss_max_rounds(entrants)} Swiss rounds (so that "
                                "every round pairs without a rematch)", field="rounds")
        if spec["concurrency"] > self.max_concurrency:
            raise Unprocessable(f"at most {self.max_concurrency} matches may run at once",
                                field="concurrency")
        total = {"round_robin": formats.round_robin_size(entrants, rounds),
                 "swiss": rounds * (entrants // 2) * 2,
                 "pods": spec.get("deals", entrants) * seats}[fmt]
        if total > self.max_matches:
            raise Unprocessable(f"this tournament would play {total} matches; the limit here "
                                f"is {self.max_matches}", field="entrants")

    # -- reading ----------------------------------------------------------------------------
    def load(self, tournament_id: str) -> dict[str, Any]:
        meta = self.store.load(tournament_id)
        if meta is None:
            raise NotFound(f"no tournament with id {tournament_id!r}")
        return meta

    def listing(self, status: str | None, game: str | None, limit: int,
                before: int | None) -> dict[str, Any]:
        """``GET /v1/tournaments``: see :func:`shared.tournaments.listing.list_tournaments`."""
        return list_tournaments(self.store, status, game, limit, before)

    def wait_for_change(self, tournament_id: str, seen_version: int,
                        timeout: float) -> int | None:
        """Block until the tournament's version is not ``seen_version`` or ``timeout``
        passes; the version then (None: no such tournament). Woken by its publish."""
        return self.store.wait_for_change(tournament_id, seen_version, timeout)

    def describe(self, tournament_id: str) -> dict[str, Any]:
        meta = self.load(tournament_id)
        slots, results = self.store.slots(tournament_id), self.store.results(tournament_id)
        rows = _standings(meta, slots, results)
        found = self.ratings.ratings(meta["game"], [row["player"] for row in rows])
        for row in rows:
            rating = found.get(row["player"])
            row["rating"] = None if rating is None else {
                "mu": rating["mu"], "sigma": rating["sigma"],
                "conservative": ratings.conservative(rating), "matches": rating["matches"]}
        unfinished = len(self.store.match_ids(tournament_id)) - len(results)
        return {**self._public(meta), "progress": self._progress(meta, unfinished),
                "standings": rows}

    @staticmethod
    def _public(meta: dict[str, Any]) -> dict[str, Any]:
        entrants = [{key: e[key] for key in ("index", "name", "kind", "bot", "account", "player",
                                             "invited") if key in e} for e in meta["entrants"]]
        public = {key: meta[key] for key in (
            "id", "name", "game", "options", "format", "seats", "rounds", "deals", "seed",
            "move_deadline", "forfeit_after", "concurrency", "status", "created_at",
            "finished_at", "note", "version")}
        if not TournamentService._seed_shown(meta):
            public["seed"] = None  # every deal derives from it: shown once the tournament ends
        return {**public, "seeded": meta.get("seeded", True), "entrants": entrants}

    @staticmethod
    def _seed_shown(meta: dict[str, Any]) -> bool:
        """The seed stays secret while matches dealt from it run or wait to (an entrant who
        knew it could foresee hidden cards), even one the creator chose (``seeded`` says so):
        the creator is not every entrant."""
        return meta["status"] not in ("running", "waiting")

    @staticmethod
    def _progress(meta: dict[str, Any], unfinished: int) -> dict[str, Any]:
        """``unfinished``: started matches without a result, running while the tournament
        runs; once it is over (cancelled) they were aborted."""
        done, total = meta["done"], meta["total"]
        live = meta["status"] == "running"
        elapsed = (meta["finished_at"] or time.time()) - meta["created_at"]
        eta = None
        if meta["status"] == "running" and done:
            eta = round(elapsed / done * (total - done), 1)
        return {"done": done, "total": total, "running": max(0, unfinished) if live else 0,
                "aborted": 0 if live else max(0, unfinished),
                "elapsed_seconds": round(elapsed, 1), "eta_seconds": eta}

    def match_list(self, tournament_id: str) -> list[dict[str, Any]]:
        """Every planned match: its slot, entrants, seed, match id and outcome so far.

        A deal's seed is shown once every match of the deal is over (duplicate play: the
        seed of a finished match deals its twin still running)."""
        meta = self.load(tournament_id)
        ids, results = self.store.match_ids(tournament_id), self.store.results(tournament_id)
        rated = self.ratings.rated(meta["game"], [ids[s] for s in sorted(results)])
        slots = self.store.slots(tournament_id)
        over = _deals_over(slots, results) if meta["status"] == "running" else None
        out = []
        for slot, plan in sorted(slots.items()):
            match_id = ids.get(slot)
            outcome = results.get(slot)
            shown = over is None or plan["deal"] in over
            out.append({
                "slot": slot, "round": plan["round"], "deal": plan["deal"],
                "seed": plan["seed"] if shown else None,
                "match": match_id, "status": "finished" if outcome else "planned"
                if not match_id else "running" if meta["status"] == "running" else "aborted",
                "seats": [{"seat": seat, "entrant": e, "name": meta["entrants"][e]["name"],
                           "player": meta["entrants"][e]["player"]}
                          for seat, e in enumerate(plan["entrants"])],
                "result": outcome, "rating": rated.get(match_id or "")})
        return out

    # -- changes ----------------------------------------------------------------------------
    def cancel(self, tournament_id: str) -> dict[str, Any]:
        """Start no more matches and abort the running ones (finished ones stay rated)."""
        meta = self.load(tournament_id)
        if meta["status"] not in ("running", "waiting"):
            raise Conflict(f"the tournament is already {meta['status']}")
        meta.update(status="cancelled", finished_at=time.time())
        self.store.save_meta(meta)
        results = self.store.results(tournament_id)
        ids = self.store.match_ids(tournament_id)
        for slot, match_id in sorted(ids.items()):
            if slot in results or self.matches.abort(match_id, "the tournament was cancelled"):
                continue
            outcome = self._finished_outcome(match_id)  # it ended first: scored, not aborted
            if outcome is not None:
                self.store.record_result(tournament_id, slot, outcome)
                results[slot] = outcome
        meta.update(done=len(results))
        self.store.save_meta(meta)
        for match_id in ids.values():  # every match is over: every deal may be shown
            self.matches.unseal(match_id)
        return self.describe(tournament_id)

    def tick(self, tournament_id: str) -> None:
        """Run the scheduler step; if another worker runs it, make sure it runs once more.

        An idle tick costs the same few round trips whatever the number of running matches:
        the step reads the tournament in one pipeline and learns which matches ended from
        the ends the finish handling noted (``match_finished``), loading only those."""
        if not self.store.dirty_and_lock(tournament_id, LOCK_SECONDS):
            return
        while True:
            try:
                while self.store.take_dirty(tournament_id):
                    self._step(tournament_id)
            except BaseException:
                self.store.unlock(tournament_id)
                raise
            # News may have arrived between the last check and the unlock.
            if (not self.store.unlock_and_is_dirty(tournament_id)
                    or not self.store.lock(tournament_id, LOCK_SECONDS)):
                return

    def _step(self, tournament_id: str) -> None:
        read = self.store.snapshot(tournament_id)
        meta = read.meta
        if meta is None or meta["status"] != "running":
            return
        before = json.dumps(meta, sort_keys=True)
        slots, ids, results = read.slots, read.ids, read.results
        self._record_ended(tournament_id, read.ended, ids, results)
        self._adopt_unstarted(meta, read, results)
        self._unseal_over(meta, slots, ids, results)
        if meta["format"] == "swiss" and len(results) == len(slots):
            slots.update(self._next_swiss_round(meta, slots, results))
        running = [slot for slot in ids if slot not in results]
        for slot in sorted(set(slots) - set(ids)):
            if len(running) >= meta["concurrency"]:
                break
            match_id = self.store.claim_match_id(tournament_id, slot, f"{tournament_id}-{slot}")
            self._start(meta, slots[slot], match_id)
            self.store.note_started(tournament_id, slot)
            running.append(slot)
        meta["done"] = len(results)
        if len(results) == len(slots) and (meta["format"] != "swiss"
                                           or meta["swiss_round"] >= meta["rounds"]
                                           or meta["note"]):
            meta.update(status="finished", finished_at=time.time(), total=len(results))
        if json.dumps(meta, sort_keys=True) != before:  # the periodic tick often finds no news
            self.store.save_meta(meta)

    def _unseal_over(self, meta: dict[str, Any], slots: dict[int, dict[str, Any]],
                     ids: dict[int, str], results: dict[int, dict[str, Any]]) -> None:
        """Unseal the matches of every deal all of whose matches are over, once (noted in
        ``meta["unsealed"]``, saved after: a step that dies in between unseals again)."""
        unsealed = set(meta.get("unsealed", []))
        for deal in sorted(_deals_over(slots, results) - unsealed):
            for slot, plan in slots.items():
                if plan["deal"] == deal and slot in ids:
                    self.matches.unseal(ids[slot])
            unsealed.add(deal)
        if unsealed != set(meta.get("unsealed", [])):
            meta["unsealed"] = sorted(unsealed)

    def _record_ended(self, tournament_id: str, ended: set[str], ids: dict[int, str],
                      results: dict[int, dict[str, Any]]) -> None:
        """Record the outcome of every noted end (updating ``results``), then drop the notes
        that are done with (recorded now or before; a note of no slot of ours is dropped)."""
        slot_of = {match_id: slot for slot, match_id in ids.items()}
        done = []
        for match_id in sorted(ended):
            slot = slot_of.get(match_id)
            if slot is not None and slot not in results:
                outcome = self._finished_outcome(match_id)
                if outcome is None:
                    continue  # not finished (aborted): kept, looked at again
                self.store.record_result(tournament_id, slot, outcome)
                results[slot] = outcome
            done.append(match_id)
        self.store.forget_ended(tournament_id, done)

    def _adopt_unstarted(self, meta: dict[str, Any], read: Snapshot,
                         results: dict[int, dict[str, Any]]) -> None:
        """Claimed slots not noted as started: a scheduler died between the claim and the
        match's creation (create it: creating an existing match changes nothing), or the
        tournament predates the notes (record the outcome of a match already over). Each is
        looked at once, then noted; an idle tick meets none."""
        for slot, match_id in sorted(read.ids.items()):
            if slot in results or slot in read.started:
                continue
            outcome = self._finished_outcome(match_id)
            if outcome is not None:
                self.store.record_result(meta["id"], slot, outcome)
                results[slot] = outcome
            elif (self.matches.version(match_id) is None
                  and self.matches.kept_result(match_id) is None):
                self._start(meta, read.slots[slot], match_id)
            self.store.note_started(meta["id"], slot)

    def _finished_outcome(self, match_id: str) -> dict[str, Any] | None:
        """The outcome of ``match_id`` if it has finished, rated once; None while it runs.

        A match whose state has expired (its tick came more than ``ENDED_TTL`` after its
        end, e.g. with every worker down) is scored from what is kept of it, never played
        again."""
        record = self.matches.peek(match_id)
        if record is not None:
            if record.status != "finished":
                return None
            self.rate(record)
            return _outcome(record.id, record.result, record.forfeited, record.updated_at)
        kept = self.matches.kept_result(match_id)
        if kept is None or kept["status"] != "finished" or kept["result"] is None:
            return None
        self.rate_kept(kept)
        return _outcome(match_id, kept["result"], kept.get("forfeited", []),
                        kept["updated_at"])

    def _next_swiss_round(self, meta: dict[str, Any], slots: dict[int, dict[str, Any]],
                          results: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
        """Plan the next Swiss round (updating ``meta``); none once all rounds are planned."""
        if meta["swiss_round"] >= meta["rounds"] or meta["note"]:
            return {}
        count = len(meta["entrants"])
        rows = _standings(meta, slots, results)
        scores = [0.0] * count
        for row in rows:
            scores[row["entrant"]] = row["points"]
        met = {frozenset(plan["entrants"]) for plan in slots.values()}
        byes = Counter({int(e): n for e, n in meta["byes"].items()})
        try:
            planned, bye = formats.swiss_round(meta["swiss_round"], count, scores, met, byes,
                                               len(slots), meta["seed"])
        except ValueError as exc:  # cannot happen within the validated rounds; kept safe
            meta["note"] = str(exc)
            return {}
        meta["swiss_round"] += 1
        if bye is not None:
            meta["byes"][str(bye)] = meta["byes"].get(str(bye), 0) + 1
        new = {plan["slot"]: plan for plan in planned}
        self.store.add_slots(meta["id"], new)
        return new

    def _start(self, meta: dict[str, Any], plan: dict[str, Any], match_id: str) -> None:
        seats = []
        for entrant_index in plan["entrants"]:
            entrant = meta["entrants"][entrant_index]
            seat = {"kind": entrant["kind"], "name": entrant["name"]}
            seat.update({"bot": entrant["request"]} if entrant["kind"] == SeatKind.BOT
                        else {"account": entrant["account"]})
            seats.append(seat)
        self.matches.create_match(
            meta["game"], meta["options"], plan["seed"], seats,
            move_deadline=meta["move_deadline"], rated=True, tournament=meta["id"],
            forfeit_after=meta["forfeit_after"], match_id=match_id, sealed=True,
            accepted=[s["account"] for s in seats if "account" in s])  # entered: accepted

    # -- ratings ----------------------------------------------------------------------------
    def rate(self, record: MatchRecord) -> dict[str, Any] | None:
        """Update the seats' ratings with this finished rated match, exactly once."""
        if not record.rated or record.status != MatchStatus.FINISHED or record.result is None:
            return None
        return self._rate_once(record.game, record.id, record.seats, record.result,
                               record.forfeited)

    def rate_kept(self, kept: dict[str, Any]) -> dict[str, Any] | None:
        """``rate`` for a match as kept after its end (``MatchService.describe``), once its
        state has expired: the same seats, result and forfeits."""
        if (not kept.get("rated") or kept["status"] != MatchStatus.FINISHED
                or kept["result"] is None):
            return None
        return self._rate_once(kept["game"], kept["id"], kept["seats"], kept["result"],
                               kept.get("forfeited", []))

    def _rate_once(self, game: str, match_id: str, seats: Sequence[Mapping[str, Any]],
                   result: dict[str, Any], forfeited: list[int]) -> dict[str, Any] | None:
        if forfeited and len(set(forfeited)) >= len(seats):  # nobody played: nothing learnt
            return None
        players = [(ratings.player_key(seat) or "", ratings.player_name(seat)) for seat in seats]
        places = ratings.placings(result["ranking"], forfeited)
        return self.ratings.rate_once(game, match_id, players,
                                      lambda current: ratings.rate(current, places))

    def match_finished(self, match_id: str) -> None:
        """A rated or tournament match ended: rate it, let its tournament go on, then clear
        its ``finish_owed`` mark. Idempotent: the fast path and the sweep may both run it.

        A match still live is left alone (its ``evo:finishing`` entry is a write's that lost
        its compare-and-set, or one about to land). A match whose state has expired is rated
        from what is kept of it. A tournament's match is noted as ended in its tournament's
        keys before the tick, so the tick reads what ended instead of every running match.
        """
        record = self.matches.peek(match_id)
        if record is None:
            kept = self.matches.kept_result(match_id)
            if kept is not None:
                self.rate_kept(kept)
            tournament = None if kept is None else kept.get("tournament")
        elif record.status not in ENDED:
            return
        else:
            self.rate(record)
            tournament = record.tournament
        if tournament:  # noted first: the tick records the ends it is told of
            self.store.note_ended(tournament, match_id)
            self.tick(tournament)
        self.matches.finish_handled(match_id)

    def sweep_finished(self, ended_before: float, now: float | None = None) -> int:
        """Handle the finish of every match marked as owing it since before ``ended_before``
        (its task lost with the broker, or never sent); returns how many were handled."""
        now = time.time() if now is None else now
        handled = 0
        for match_id in self.matches.owed_finishes(ended_before, SWEPT_FINISHES):
            status = self.matches.statuses([match_id])[0]
            if status is not None and status not in ENDED:
                self.matches.touch_finishing(match_id, now)
                continue
            try:
                self.match_finished(match_id)
            except Exception:  # one bad match must not hold up the others or the ticks
                log.exception("the end of match %s could not be handled; tried again later",
                              match_id)
                self.matches.touch_finishing(match_id, now)
                continue
            handled += 1
        if handled:  # its task was lost, or has waited longer than that in its queue
            log.info("sweep: handled the end of %d match(es) still owing it", handled)
        return handled

    def sweep(self, finish_grace: float, now: float | None = None) -> int:
        """The periodic backstop: handle the lost ends of matches that finished more than
        ``finish_grace`` seconds ago, then run every running tournament's scheduler. Returns
        the number of ends handled."""
        now = time.time() if now is None else now
        handled = self.sweep_finished(now - finish_grace, now)
        self.expire_invitations(now)
        for tournament_id in self.store.running():
            self.tick(tournament_id)
        return handled

    def running_with_account(self, account_id: str) -> list[str]:
        """The running tournaments ``account_id`` is an entrant of (it cannot be deleted
        while one runs: the tournament's later matches seat it)."""
        return [tournament_id for tournament_id in self.store.running()
                if any(entrant.get("account") == account_id
                       for entrant in (self.store.load(tournament_id) or {}).get("entrants", []))]

    def forget_account(self, account_id: str, name: str) -> None:
        """A deleted account's leaderboard rows show ``name``; their numbers stay, so the
        rating history of the players it met is unchanged."""
        key = f"account:{account_id}"  # ratings.player_key of the account's seats
        for game in all_games():
            self.ratings.rename(game.id, key, name)

    def leaderboard(self, game_id: str, limit: int) -> list[dict[str, Any]]:
        rows = []
        for rank, (key, rating) in enumerate(self.ratings.leaderboard(game_id, limit), 1):
            kind, _, ident = key.partition(":")
            rows.append({"rank": rank, "player": key, "kind": kind, "name": rating["name"],
                         "account": ident if kind == "account" else None,
                         "mu": rating["mu"], "sigma": rating["sigma"],
                         "conservative": ratings.conservative(rating),
                         "matches": rating["matches"], "anchor": rating["anchor"]})
        return rows

    def rating_history(self, game_id: str, player: str, limit: int) -> dict[str, Any]:
        """``player``'s rating now and after each of its last ``limit`` rated matches."""
        found = self.ratings.ratings(game_id, [player]).get(player)
        if found is None:
            raise NotFound(f"{player!r} has no rating in {game_id!r}")
        current = {**found, **self.ratings.anchors.fixed(game_id, [player]).get(player, {})}
        kind, _, ident = player.partition(":")
        return {"game": game_id, "player": player, "kind": kind, "name": current["name"],
                "account": ident if kind == "account" else None,
                "anchor": self.ratings.anchors.is_anchor(game_id, player),
                "rating": {"mu": current["mu"], "sigma": current["sigma"],
                           "conservative": ratings.conservative(current),
                           "matches": current["matches"]},
                "history": self.ratings.history(game_id, player, limit)}


    # -- invitations: an account entrant is seated only once it accepts --------------------
    # Kept apart from the scheduler: a waiting tournament is never stepped (``_step`` runs
    # only a running one); these change its status under the scheduler's lease.
    @staticmethod
    def _mark_invited(meta: dict[str, Any], accepted: Collection[str]) -> list[str]:
        """Mark the entrants of accounts not in ``accepted`` as invited; the tournament then
        waits. Returns the invited accounts."""
        invited: list[str] = []
        for entrant in meta["entrants"]:
            if "account" in entrant and entrant["account"] not in accepted:
                entrant["invited"] = True
                invited.append(entrant["account"])
        if invited:
            meta["status"] = "waiting"
        return list(dict.fromkeys(invited))

    def _send_invitations(self, meta: dict[str, Any], accounts: Sequence[str]) -> None:
        if self.invite is None:
            return
        for account_id in accounts:
            self.invite(account_id, {
                "id": f"tournament-{meta['id']}", "kind": "tournament",
                "tournament": meta["id"], "game": meta["game"], "name": meta["name"],
                "format": meta["format"], "move_deadline": meta["move_deadline"],
                "entrants": [e["index"] for e in meta["entrants"]
                             if e.get("account") == account_id],
                "created_at": meta["created_at"],
                "expires_at": meta["created_at"] + self.invitation_ttl})

    def accept_invitation(self, tournament_id: str, account_id: str) -> dict[str, Any]:
        """``account_id`` takes its entries; the tournament starts once none is pending.
        Accepting again changes nothing; 404 if no entrant is the account's, 409 once the
        tournament was aborted or cancelled."""
        with self._leased(tournament_id):
            meta = self._invited_meta(tournament_id, account_id)
            if meta["status"] == "waiting":
                for entrant in meta["entrants"]:
                    if entrant.get("account") == account_id:
                        entrant.pop("invited", None)
                if not any(e.get("invited") for e in meta["entrants"]):
                    meta["status"] = "running"
                self.store.save_meta(meta)
        if meta["status"] == "running":
            self.start(tournament_id)
        return self.describe(tournament_id)

    def decline_invitation(self, tournament_id: str, account_id: str) -> dict[str, Any]:
        """``account_id`` declines: the tournament is aborted before any match (409 if it is
        no longer waiting)."""
        with self._leased(tournament_id):
            meta = self._invited_meta(tournament_id, account_id)
            if meta["status"] != "waiting":
                raise Conflict(f"the tournament is {meta['status']}: too late to decline")
            meta.update(status="aborted", finished_at=time.time(),
                        note=f"account {account_id} declined the invitation")
            self.store.save_meta(meta)
        return self.describe(tournament_id)

    def _invited_meta(self, tournament_id: str, account_id: str) -> dict[str, Any]:
        meta = self.load(tournament_id)
        if not any(e.get("account") == account_id for e in meta["entrants"]):
            raise NotFound(f"tournament {tournament_id!r} has no entrant for this account")
        if meta["status"] not in ("running", "waiting"):
            raise Conflict(f"the tournament is {meta['status']}")
        return meta

    def expire_invitations(self, now: float) -> int:
        """Abort every tournament still waiting ``invitation_ttl`` seconds after its
        creation; returns how many."""
        aborted = 0
        for tournament_id in self.store.running():
            meta = self.store.load(tournament_id)
            if (meta is None or meta["status"] != "waiting"
                    or meta["created_at"] + self.invitation_ttl > now
                    or not self.store.lock(tournament_id, LOCK_SECONDS)):
                continue
            try:
                meta = self.store.load(tournament_id)
                if meta is not None and meta["status"] == "waiting":
                    late = sorted({e["account"] for e in meta["entrants"] if e.get("invited")})
                    meta.update(status="aborted", finished_at=now, note=(
                        f"the invitation of account(s) {', '.join(late)} expired unanswered"))
                    self.store.save_meta(meta)
                    aborted += 1
            finally:
                self.store.unlock(tournament_id)
        return aborted

    @contextmanager
    def _leased(self, tournament_id: str) -> Iterator[None]:
        """Hold the scheduler's lease on ``tournament_id`` (a tick holds it for milliseconds:
        wait up to a few seconds for it, then 409)."""
        for _ in range(100):
            if self.store.lock(tournament_id, LOCK_SECONDS):
                break
            time.sleep(0.03)
        else:
            raise Conflict("the tournament is busy; try again")
        try:
            yield
        finally:
            self.store.unlock(tournament_id)

def _standings(meta: dict[str, Any], slots: dict[int, dict[str, Any]],
               results: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The standings; pods rank by points per match (see ``standings``)."""
    return standings(meta["entrants"], slots, results, meta["byes"], BYE_POINTS,
                     by_average=meta["format"] == "pods")


def _deals_over(slots: dict[int, dict[str, Any]], results: dict[int, Any]) -> set[int]:
    """The deals every planned match of which has a result."""
    pending = {plan["deal"] for slot, plan in slots.items() if slot not in results}
    return {plan["deal"] for plan in slots.values()} - pending


def _outcome(match_id: str, result: dict[str, Any] | None, forfeited: list[int],
             finished_at: float) -> dict[str, Any]:
    """A finished match as the tournament scores it: a forfeited seat ranks last and scores
    nothing; when every seat forfeited, all are last and nobody wins."""
    assert result is not None
    places = ratings.placings(result["ranking"], forfeited)
    if forfeited and len(set(forfeited)) >= len(places):
        places = [len(places)] * len(places)
    return {"match": match_id, "places": places,
            "points": match_points(places, forfeited),
            "scores": result["scores"], "ranking": result["ranking"],
            "forfeited": forfeited, "finished_at": finished_at}
