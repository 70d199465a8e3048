"""Replays and analyses of finished matches.

A replay is rebuilt, never stored: the match's revealed seed deals it again through the
``Game`` protocol and its logged moves are applied in order, so the state after any step is
exactly the state the live match had then, and the view of any seat (or a spectator's) at
that step is what that seat was served at that version. Only a *finished* match whose seed
is revealed replays: a running one's log and deal are secret, an aborted or expired one's
log stays redacted, and a sealed tournament match (its deal replayed by another match of the
tournament) waits until its tournament unseals it.

An analysis (``shared.replays.analysis``) costs a search per decision, so a worker computes
it (``send(match_id, seat)``, on the tournament queue: nobody waits at a table for it); it is
kept in this feature's store and asked for again until it is there.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from shared.domain.errors import Conflict, Gone, Unavailable, Unprocessable
from shared.domain.types import MatchStatus
from shared.games import get_game
from shared.kernel.budget import SearchBudget
from shared.kernel.protocol import Game
from shared.matches.record import MatchRecord
from shared.matches.service import MatchService, redact
from shared.replays.analysis import analyse
from shared.replays.store import AnalysisStore

#: ``send(match_id, seat)``: ask a worker for that seat's analysis.
Send = Callable[[str, int], None]
#: Seconds a client asking for an analysis under way is told to wait before asking again.
ANALYSIS_RETRY = 5
#: Seconds an asked analysis counts as under way (queued behind tournament turns, then its
#: searches): past this a lost task is sent again by the next ask.
ANALYSIS_ASKED = 900.0
#: The worker's soft time limit on one analysis (its searches are bounded by the budget).
ANALYSIS_TIME_LIMIT = 600


class ReplayService:
    def __init__(self, matches: MatchService, store: AnalysisStore, send: Send,
                 budget: SearchBudget) -> None:
        self.matches = matches
        self.store = store
        self.send = send
        self.budget = budget  # each decision's search in an analysis

    # -- the finished match ----------------------------------------------------------------
    def finished(self, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The match as kept at its end (seats, options, revealed seed, result) and its whole
        log; 404 unknown, 409 not finished or sealed, 410 its log or its rules are gone."""
        found = self.matches.read(match_id)  # 404; 410 for a live match of retired rules
        if isinstance(found, MatchRecord):
            _check_replayable(found.status, found.sealed, found.version)
            match = self.matches.kept_form(found)
            assert match is not None  # ended, and of rules this server plays (read checked)
            return match, self.matches.entries(match_id)
        _check_replayable(found["status"], bool(found.get("sealed")), found["version"])
        _game_of(found)  # 410 before the log is read: nothing of it could be replayed
        return found, self.matches.kept_events(found)["events"]  # whole: finished, unsealed

    def replay(self, match_id: str, seat: int | None, step: int) -> dict[str, Any]:
        """The move log (with labels) and the state after ``step`` moves as ``seat`` (None:
        a spectator) sees it; 422 for a seat or step the match does not have."""
        match, entries = self.finished(match_id)
        game = _game_of(match)
        seats = len(match["seats"])
        _check_seat(seat, seats)
        moves = [entry for entry in entries if "move" in entry]
        if not 0 <= step <= len(moves):
            raise Unprocessable(f"step must be between 0 and {len(moves)}", field="step")
        rng = random.Random(match["seed"])  # the match's own source: the same draws
        state = game.new_state(seats, match["options"], rng)
        for entry in moves[:step]:
            state.apply(entry["seat"], entry["move"], rng)
        # The version the step's state was served at: right after its move; before the first
        # move, the version that move was made at.
        version = (moves[step - 1]["version"] if step else
                   moves[0]["version"] - 1 if moves else match["version"])
        return {
            "id": match["id"], "game": match["game"], "rules_version": match["rules_version"],
            "seat": seat, "step": step, "steps": len(moves), "version": version,
            "seats": match["seats"], "seed": match["seed"], "result": match["result"],
            "to_move": [] if state.is_over() else state.to_move(),
            "view": state.view(seat),
            "events": redact(moves[step - 1], seat)["events"] if step else [],
            "moves": [_logged(number, entry) for number, entry in enumerate(moves, 1)],
        }

    # -- analyses ----------------------------------------------------------------------------
    def analysis(self, match_id: str, seat: int) -> dict[str, Any] | None:
        """``seat``'s analysis if it is done; else None, once a worker has it to compute
        (asked once however often this is called; 503 if the queue refuses it)."""
        match, _ = self.finished(match_id)
        _check_seat(seat, len(match["seats"]))
        kept = self.store.kept(match_id, seat)
        if kept is not None:
            return {"id": match_id, **kept}
        if self.store.claim(match_id, seat, ANALYSIS_ASKED):
            try:
                self.send(match_id, seat)
            except Exception as exc:  # the broker is away: not asked after all
                self.store.release(match_id, seat)
                raise Unavailable(f"the analysis could not be queued ({type(exc).__name__}); "
                                  "retry later", retry_after=ANALYSIS_RETRY) from None
        return None

    def compute(self, match_id: str, seat: int) -> dict[str, Any]:
        """The worker's side: analyse ``seat``'s decisions and keep the answer. A failure
        (the task's time limit too) releases the ask, so the next ask sends another."""
        try:
            match, entries = self.finished(match_id)
            found = analyse(_game_of(match), len(match["seats"]), match["options"],
                            match["seed"], entries, seat, self.budget)
        except BaseException:
            self.store.release(match_id, seat)
            raise
        self.store.keep(match_id, seat, found)
        return found


def _check_replayable(status: str, sealed: bool, version: int) -> None:
    if status != MatchStatus.FINISHED:
        why = ("is not over yet" if status in (MatchStatus.WAITING, MatchStatus.RUNNING)
               else f"ended {status}, without a result: its log stays redacted")
        raise Conflict(f"the match {why}; only a finished match is replayed",
                       match_status=status, version=version)
    if sealed:
        raise Conflict("the match is sealed: its deal is played by another match of its "
                       "tournament, and it is replayed once every match of that deal is over",
                       match_status=status, sealed=True, version=version)


def _check_seat(seat: int | None, seats: int) -> None:
    if seat is not None and not 0 <= seat < seats:
        raise Unprocessable(f"seat must be between 0 and {seats - 1}", field="seat")


def _game_of(match: dict[str, Any]) -> Game:
    """The engine that replays ``match``; 410 if this server no longer plays its rules."""
    try:
        game = get_game(match["game"])
    except KeyError:
        raise Gone(f"this server no longer has the game {match['game']!r}") from None
    if game.version != match["rules_version"]:
        raise Gone(f"this match was played under {match['game']} rules "
                   f"{match['rules_version']!r}; this server plays {game.version!r} and "
                   "cannot replay it", rules_version=match["rules_version"])
    return game


def _logged(step: int, entry: dict[str, Any]) -> dict[str, Any]:
    """A move of the log as a replay lists it."""
    out = {"step": step, "version": entry["version"], "seat": entry["seat"],
           "move": entry["move"], "label": entry.get("label"), "at": entry.get("at")}
    for key in ("bot", "timeout"):
        if key in entry:
            out[key] = entry[key]
    return out
