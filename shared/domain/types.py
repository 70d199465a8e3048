"""The domain's closed vocabularies and record shapes: match statuses, seat kinds, the stored
seat and bot records, and the few-valued fields of matches and tournaments.

``MatchStatus`` and ``SeatKind`` are ``StrEnum``s: a member *is* its string
(``MatchStatus.RUNNING == "running"``, same hash; ``json.dumps``, Flask and redis-py write
``running``), so code may compare stored strings with members and store members where strings
were stored, without a change of behaviour. What is read back from JSON or Redis is the plain
string, not the member: compare it (``==``, ``in``), do not call member-only attributes
(``.value``, ``.name``) on it, or convert it first (``MatchStatus(text)``).

This module imports nothing else of Evo Arena, so every layer above the engines may use it.
"""

# No ``from __future__ import annotations``: on Python 3.11 a TypedDict's postponed annotations
# hide ``NotRequired`` at run time (``__required_keys__`` would list every key).
from enum import StrEnum
from typing import Literal, NotRequired, TypedDict


class MatchStatus(StrEnum):
    """Where a match is in its life (the ``status`` of a match record and of the API)."""

    WAITING = "waiting"  # an open seat is not joined yet, or an invited account has not accepted
    RUNNING = "running"
    FINISHED = "finished"  # over, with a result
    EXPIRED = "expired"  # ended without a result: its open seats were never joined
    ABORTED = "aborted"  # ended without a result: its tournament was cancelled, or an
    # invited account declined (or let the invitation expire)


#: The statuses of a match that has ended (with a result, or without: expired, aborted).
ENDED: frozenset[MatchStatus] = frozenset(
    {MatchStatus.FINISHED, MatchStatus.EXPIRED, MatchStatus.ABORTED})
#: The statuses of a match that has not ended (it may still be joined or played).
LIVE: frozenset[MatchStatus] = frozenset({MatchStatus.WAITING, MatchStatus.RUNNING})


class SeatKind(StrEnum):
    """Who plays a seat (in the order the API lists them)."""

    HUMAN = "human"  # a person or program holding the seat's token
    OPEN = "open"  # joined later by whoever asks (``joined`` is false until then)
    BOT = "bot"  # one of the server's bots (``bot``: its ``SeatBot``)
    ACCOUNT = "account"  # an account's bot, by pull or by webhook (``account``: its id)


#: The built-in bots (``shared.bots.catalogue.BOT_KINDS`` describes each).
BotKind = Literal["random", "greedy", "ismcts"]
#: The search levels of ``ismcts`` (``shared.bots.catalogue.LEVELS``).
LevelName = Literal["easy", "medium", "hard"]
#: A stored ``ismcts`` bot's budget: a level, a custom number of simulations (``custom``) or a
#: time budget in seconds (``timed``).
BotLevel = Literal[LevelName, "custom", "timed"]


class SeatBot(TypedDict):
    """A stored bot seat's bot (built by ``MatchService._bot_spec``; the contract's
    ``SeatBot``): only ``ismcts`` has a budget."""

    kind: BotKind
    level: NotRequired[BotLevel]
    simulations: NotRequired[int]  # with level "custom"
    seconds: NotRequired[float]  # with level "timed"


class SeatRecord(TypedDict):
    """One seat of a stored match (``MatchRecord.seats``, built by ``create_match``): the
    contract's ``Seat`` and, not shown to clients, ``webhook``."""

    seat: int  # its index, the order of play
    kind: SeatKind
    name: str
    joined: bool  # false for an open seat nobody has joined yet and an invited account's seat
    invited: NotRequired[bool]  # kind "account" only: true until the account accepts
    bot: NotRequired[SeatBot]  # kind "bot" only
    account: NotRequired[str]  # kind "account" only: the account's id
    webhook: NotRequired[bool]  # kind "account" only: its moves are asked for by webhook


class BotSpec(TypedDict):
    """A bot as a client asks for it (the contract's ``BotSpec``, a ``SeatSpec``'s ``bot``): at
    most one of ``level``, ``simulations`` and ``seconds``, for ``ismcts`` only."""

    kind: BotKind
    level: NotRequired[LevelName]
    simulations: NotRequired[int]
    seconds: NotRequired[float]


class SeatSpec(TypedDict):
    """A seat as a client asks for it (the contract's ``SeatSpec``, ``POST /v1/matches``'
    ``seats[]``)."""

    kind: SeatKind
    name: NotRequired[str]
    bot: NotRequired[BotSpec]  # kind "bot" only
    account: NotRequired[str]  # kind "account" only


#: A tournament's status: waiting while an invited account has not accepted, then running
#: until all its matches ended or it was cancelled; aborted if an invited account declined
#: or let the invitation expire.
TournamentStatus = Literal["waiting", "running", "finished", "cancelled", "aborted"]
#: A tournament slot's status: its match not created yet, playing, finished, or aborted (its
#: tournament was cancelled while it ran).
SlotStatus = Literal["planned", "running", "finished", "aborted"]
#: How a tournament pairs its entrants.
TournamentFormat = Literal["round_robin", "swiss", "pods"]
