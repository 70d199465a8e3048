"""The match state of Darwinning! and the flow of an era (docs/rules/darwinning.md D-2-D-9).

``DarwinningState`` holds the cards (deck, face-up discard pile, face-down discards per seat,
hands, the dummy's cards), the species boards and where the era stands. Phases:
``discard`` (v1.7 secret discard, simultaneous), ``lead``, ``trick``, ``announce`` (two-player
v2.2), ``keep`` (simultaneous), ``survival`` and ``over``; sequential decisions waiting on one
seat (upgrades, Mutation's steal, the two-player pick, Metamorphosis) sit in ``queue`` and
take precedence. Rules of each part: ``plays`` and ``tricks``, ``upgrades``, ``survival``;
views and labels in ``views``.
"""

from __future__ import annotations

import random
from typing import Any, Final

from shared.kernel.protocol import (
    Event,
    EventsOptionalState,
    IllegalMove,
    Move,
    NotYourTurn,
    Result,
    View,
)
from shared.kernel.rng import randbelow, shuffle

from . import plays, survival, tricks, upgrades, views, wording
from .cards import (
    CARD_COUNT,
    DUMMY_CARDS,
    ENVIRONMENTS,
    ENVS_PER_ERA,
    HAND_SIZE,
    JOKERS,
    KEEP,
    METAMORPHOSIS,
    SECRET_DISCARD,
    SPECIES,
    VALUE,
)
from .model import Board, dummy_start

DUMMY: Final = survival.DUMMY


class DarwinningState(EventsOptionalState):
    """A match of Darwinning! in progress (see the module docstring)."""

    def __init__(self, players: int, edition: str = "2.2", eras: int = 3) -> None:
        self.num_players = players
        self.edition = edition
        self.eras = eras
        self.era = 0
        self.envs: list[int] = []
        self.deck: list[int] = []  # top = end of the list
        self.discard: list[int] = []  # face up, public
        self.hidden: list[list[int]] = [[] for _ in range(players)]  # face-down discards
        self.secret_counts = [0] * players  # v1.7 secret discards this era (count public)
        self.reshuffled = False  # D-3.5: the deck was rebuilt from the discards this era
        self.removed: list[int] = []  # v1.7: old dummy cards leave the game (D-11.6)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.carried = [0] * players  # cards kept from the last era (private, D-12)
        self.dealt = [0] * players
        self.played = [0] * players  # hand cards played this era
        self.boards: list[Board] = []
        self.dummy_pos: int | None = None
        self.dummy_cards: list[int] = []
        self.phase = "lead"
        self.waiting: list[int] = []  # simultaneous step: seats still to choose
        self.chooser = 0  # who picks the first leader (D-3.4)
        self.leader = 0
        self.turn = 0
        self.trick: list[dict[str, Any]] = []
        self.best = -1
        self.winner: int | None = None
        self.last_trick = False
        self.emptied: list[int] = []  # seats whose hand ran out in the era's last trick
        self.prev_emptied: list[int] = []
        self.queue: list[dict[str, Any]] = []
        self.stage = ""  # what follows when the queue empties
        self.order: list[int] = []  # survival: species still to choose whom to eat
        self.eats: list[tuple[int, int]] = []
        self.symbiosis: dict[int, int] = {}
        self._version = 0
        self._legal_key: tuple[int, int] | None = None
        self._legal: list[Move] = []

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, edition: str, eras: int,
            rng: random.Random) -> DarwinningState:
        """D-2.1: random species boards; D-11.1: the dummy for two players; era 1 starts."""
        st = cls(players, edition, eras)
        species = list(range(len(SPECIES)))
        shuffle(rng, species)
        st.boards = [Board(species[s]) for s in range(players)]
        st.deck = list(range(CARD_COUNT))
        if players == 2:
            st.dummy_pos = dummy_start(st.boards[0].position, st.boards[1].position)
        events: list[Event] = []
        st.start_era(rng, events)
        return st

    def clone(self) -> DarwinningState:
        new = DarwinningState(self.num_players, self.edition, self.eras)
        new.era = self.era
        new.envs = list(self.envs)
        new.deck = list(self.deck)
        new.discard = list(self.discard)
        new.hidden = [list(h) for h in self.hidden]
        new.secret_counts = list(self.secret_counts)
        new.removed = list(self.removed)
        new.reshuffled = self.reshuffled
        new.hands = [list(h) for h in self.hands]
        new.carried, new.dealt, new.played = list(self.carried), list(self.dealt), list(
            self.played)
        new.boards = [b.copy() for b in self.boards]
        new.dummy_pos = self.dummy_pos
        new.dummy_cards = list(self.dummy_cards)
        new.phase = self.phase
        new.waiting = list(self.waiting)
        new.chooser, new.leader, new.turn = self.chooser, self.leader, self.turn
        new.trick = [{**p, "cards": list(p["cards"]), "dummy": list(p["dummy"]),
                      "jokers": list(p["jokers"])} for p in self.trick]
        new.best, new.winner, new.last_trick = self.best, self.winner, self.last_trick
        new.emptied, new.prev_emptied = list(self.emptied), list(self.prev_emptied)
        new.queue = [dict(q, cards=list(q["cards"])) if "cards" in q else dict(q)
                     for q in self.queue]
        new.stage = self.stage
        new.order = list(self.order)
        new.eats = list(self.eats)
        new.symbiosis = dict(self.symbiosis)
        return new

    # -- codec ----------------------------------------------------------------------------------

    def public_json(self) -> dict[str, Any]:
        """Everything public (D-12): shared by ``to_json`` and ``view``."""
        return {
            "game": "darwinning", "players": self.num_players, "edition": self.edition,
            "eras": self.eras, "era": self.era, "envs": list(self.envs),
            "discard": list(self.discard), "secret_counts": list(self.secret_counts),
            "removed": list(self.removed), "reshuffled": self.reshuffled, "dealt": list(self.dealt),
            "played": list(self.played), "boards": [b.to_json() for b in self.boards],
            "dummy_pos": self.dummy_pos, "dummy_cards": list(self.dummy_cards),
            "phase": self.phase, "waiting": list(self.waiting), "chooser": self.chooser,
            "leader": self.leader, "turn": self.turn,
            "trick": [{**p, "cards": list(p["cards"]), "dummy": list(p["dummy"]),
                       "jokers": list(p["jokers"])} for p in self.trick],
            "best": self.best, "winner": self.winner, "last_trick": self.last_trick,
            "emptied": list(self.emptied), "prev_emptied": list(self.prev_emptied),
            "queue": [dict(q) for q in self.queue], "stage": self.stage,
            "order": list(self.order), "eats": [list(e) for e in self.eats],
            "symbiosis": [[s, e] for s, e in sorted(self.symbiosis.items())],
        }

    def load_public(self, data: dict[str, Any]) -> None:
        self.era, self.envs = data["era"], list(data["envs"])
        self.discard = list(data["discard"])
        self.secret_counts = list(data["secret_counts"])
        self.removed = list(data["removed"])
        self.reshuffled = data["reshuffled"]
        self.dealt, self.played = list(data["dealt"]), list(data["played"])
        self.boards = [Board.from_json(b) for b in data["boards"]]
        self.dummy_pos, self.dummy_cards = data["dummy_pos"], list(data["dummy_cards"])
        self.phase, self.waiting = data["phase"], list(data["waiting"])
        self.chooser, self.leader, self.turn = data["chooser"], data["leader"], data["turn"]
        self.trick = [{**p, "cards": list(p["cards"]), "dummy": list(p["dummy"]),
                       "jokers": list(p["jokers"])} for p in data["trick"]]
        self.best, self.winner = data["best"], data["winner"]
        self.last_trick = data["last_trick"]
        self.emptied, self.prev_emptied = list(data["emptied"]), list(data["prev_emptied"])
        self.queue = [dict(q, cards=list(q["cards"])) if "cards" in q else dict(q)
                      for q in data["queue"]]
        self.stage = data["stage"]
        self.order = list(data["order"])
        self.eats = [(e, t) for e, t in data["eats"]]
        self.symbiosis = {s: e for s, e in data["symbiosis"]}

    def to_json(self) -> dict[str, Any]:
        return {**self.public_json(), "deck": list(self.deck),
                "hands": [list(h) for h in self.hands],
                "hidden": [list(h) for h in self.hidden], "carried": list(self.carried)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DarwinningState:
        st = cls(data["players"], data["edition"], data["eras"])
        st.load_public(data)
        st.deck = list(data["deck"])
        st.hands = [list(h) for h in data["hands"]]
        st.hidden = [list(h) for h in data["hidden"]]
        st.carried = list(data["carried"])
        return st

    # -- protocol -------------------------------------------------------------------------------

    def to_move(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.queue:
            return [self.queue[0]["seat"]]
        if self.phase in ("discard", "keep"):
            return list(self.waiting)
        if self.phase == "lead":
            return [self.chooser]
        if self.phase == "survival":
            return [self.order[0]]
        return [self.turn]

    def legal_moves(self, seat: int) -> list[Move]:
        key = (self._version, seat)
        if self._legal_key == key:
            return self._legal
        moves = self._moves(seat) if seat in self.to_move() else []
        self._legal_key, self._legal = key, moves
        return moves

    def _moves(self, seat: int) -> list[Move]:
        if self.queue:
            item = self.queue[0]
            kind = item["kind"]
            if kind == "upgrade":
                return upgrades.upgrade_moves(self, seat, item["cards"])
            if kind == "steal":
                return upgrades.steal_moves(self, seat)
            if kind == "pick":
                return upgrades.pick_moves(self, item["target"])
            if kind == "meta":
                return [{"type": "metamorphosis", "slot": k}
                        for k in upgrades.metamorphosis_slots(self.boards[seat], item["card"])]
        if self.phase in ("discard", "keep"):
            return views.subsets(self.hands[seat], SECRET_DISCARD if self.phase == "discard"
                                 else KEEP, self.phase)
        if self.phase == "lead":
            return tricks.lead_moves(self)
        if self.phase == "trick":
            return plays.play_moves(self, seat)
        if self.phase == "announce":
            return plays.announce_moves(self, seat)
        if self.phase == "survival":
            if seat not in self.symbiosis and len(survival.symbiosis_options(self, seat)) > 1:
                return [{"type": "symbiosis", "environment": ENVIRONMENTS[e]}
                        for e in survival.symbiosis_options(self, seat)]
            return survival.eat_moves(self, seat)
        return []

    def apply(self, seat: int, move: Move, rng: random.Random) -> list[Event]:
        if seat not in self.to_move():
            raise NotYourTurn(f"seat {seat} owes no decision now")
        if not isinstance(move, dict) or move not in self.legal_moves(seat):
            raise IllegalMove(self.explain_illegal(seat, move))
        return self.apply_legal(seat, move, rng)

    def _apply(self, seat: int, move: Move, rng: random.Random,
               events: list[Event] | None) -> None:
        self._version += 1
        self._legal_key = None
        kind = move["type"]
        if self.queue:
            self._apply_queued(seat, move, rng, events)
        elif kind == "discard":
            self._apply_discard(seat, move, rng, events)
        elif kind == "keep":
            self._apply_keep(seat, move, rng, events)
        elif kind == "lead":
            if events is not None:
                events.append({"type": "leader_chosen", "by": seat, "leader": move["seat"]})
            tricks.start_trick(self, move["seat"], events)
        elif kind == "play":
            tricks.apply_play(self, seat, move, rng, events)
        elif kind == "announce":
            tricks.apply_announce(self, seat, move, rng, events)
        elif kind == "eat":
            target = DUMMY if move["target"] == "dummy" else move["target"]
            survival.record_eat(self, seat, target, events)
            if not survival.targets(self, seat):
                self._next_eater(rng, events)
        elif kind == "symbiosis":
            self._set_symbiosis(seat, self._env_index(move["environment"]), events)
            self._settle_eater(rng, events)
        elif kind == "stop_eating":
            if events is not None:
                events.append({"type": "stopped_eating", "seat": seat})
            self._next_eater(rng, events)

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """``legal_moves(seat)[randbelow(rng, n)]``: the same move for the same rng, in a
        trick, an upgrade or a pick without building every move."""
        if self._legal_key != (self._version, seat) and seat in self.to_move():
            if self.queue:
                item = self.queue[0]
                if item["kind"] == "upgrade":
                    return upgrades.random_use(self, self.boards[seat], item["cards"],
                                               "upgrade", rng)
                if item["kind"] == "pick":
                    return upgrades.random_use(self, self.boards[item["target"]],
                                               self.discard, "pick", rng)
            elif self.phase == "trick" and self.turn == seat:
                return plays.random_play(self, seat, rng)
        moves = self.legal_moves(seat)
        return moves[randbelow(rng, len(moves))]

    def observe_move(self, seat: int, move: Move, observer: int) -> str:
        """Secret discards and kept cards are face down (D-3.3, D-5.3, D-12): others learn
        how many cards were discarded, never which (nor how many were kept)."""
        kind = move.get("type")
        if observer != seat and kind in ("discard", "keep"):
            return f"discard:{len(move['cards'])}:hidden" if kind == "discard" else "keep:hidden"
        return self.move_id(move)

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> Result:
        scores = [b.score() for b in self.boards]
        totals = [float(s["total"]) for s in scores]
        # D-9.3: most points, then the larger population, then higher on the food chain.
        keys = [(s["total"], b.population, b.position) for s, b in zip(scores, self.boards,
                                                                         strict=True)]
        return Result.from_keys(keys, totals, {"breakdown": scores})

    def view(self, seat: int | None) -> View:
        return views.view(self, seat)

    def move_label(self, move: Move, lang: str = "en") -> str:
        return wording.move_label(self, move, lang)

    def move_group(self, move: Move, lang: str = "en") -> str | None:
        return wording.move_group(move, lang)

    def explain_illegal(self, seat: int, move: Move) -> str:
        return views.explain_illegal(self, seat, move)

    # -- helpers --------------------------------------------------------------------------------

    def occupied(self, exclude: int | None = None) -> set[int]:
        """Food-chain positions taken by the other species (the dummy too)."""
        taken = {b.position for s, b in enumerate(self.boards) if s != exclude}
        if self.dummy_pos is not None:
            taken.add(self.dummy_pos)
        return taken

    def lowest_seat(self) -> int:
        return min(range(self.num_players), key=lambda s: self.boards[s].position)

    def survival_order(self) -> list[int]:
        """Seats from the lowest food-chain position up (D-7.1)."""
        return sorted(range(self.num_players), key=lambda s: self.boards[s].position)

    def draw(self, rng: random.Random) -> int | None:
        """The top card of the deck; D-3.5 (DECISION): an empty deck is rebuilt from every
        discard (face up and face down); ``None`` if there is nothing at all."""
        if not self.deck:
            pile = self.discard + [c for h in self.hidden for c in h]
            if not pile:
                return None
            self.discard = []
            self.hidden = [[] for _ in range(self.num_players)]
            self.reshuffled = True
            shuffle(rng, pile)
            self.deck = pile
        return self.deck.pop()

    # -- era flow -------------------------------------------------------------------------------

    def start_era(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-3.1-D-3.4: environments, reshuffle, deal; v1.7's secret discard; the leader."""
        self.era += 1
        count = ENVS_PER_ERA[self.eras][self.era - 1]
        self.envs = sorted(rng.sample(range(len(ENVIRONMENTS)), count))
        self.deck += self.discard + [c for h in self.hidden for c in h]
        self.discard = []
        self.hidden = [[] for _ in range(self.num_players)]
        self.secret_counts = [0] * self.num_players
        shuffle(rng, self.deck)  # shared.kernel.rng: the same order as rng.shuffle, sooner
        self.played = [0] * self.num_players
        self.dealt = [0] * self.num_players
        self.reshuffled = False
        self.last_trick = False
        self.winner = None
        self.leader = 0
        self.prev_emptied, self.emptied = self.emptied, []
        # D-3.2 + D-3.5 (DECISION): ten cards each, dealt round-robin if the deck runs short.
        for _ in range(HAND_SIZE):
            for seat in range(self.num_players):
                if self.deck:
                    self.hands[seat].append(self.deck.pop())
                    self.dealt[seat] += 1
        if self.num_players == 2 and self.era == 1:  # D-11.1: the dummy's three face-up cards
            for _ in range(DUMMY_CARDS):
                if self.deck:
                    self.dummy_cards.append(self.deck.pop())
        if events is not None:
            events.append({"type": "era_started", "era": self.era,
                           "environments": [ENVIRONMENTS[e] for e in self.envs],
                           "dealt": list(self.dealt), "dummy_cards": list(self.dummy_cards)})
        for seat in range(self.num_players):
            if events is not None:
                events.append({"type": "dealt", "seat": seat, "cards": list(self.hands[seat]),
                               "audience": [seat]})
        if self.edition == "1.7":  # D-3.3: up to two cards, secretly and simultaneously
            self.phase = "discard"
            self.waiting = list(range(self.num_players))
            return
        self.begin_lead(rng, events)

    def _apply_discard(self, seat: int, move: Move, rng: random.Random,
                       events: list[Event] | None) -> None:
        cards = list(move["cards"])
        for c in cards:
            self.hands[seat].remove(c)
        self.hidden[seat].extend(cards)
        self.secret_counts[seat] = len(cards)
        self.waiting.remove(seat)
        if events is not None:
            events.append({"type": "discarded", "seat": seat, "count": len(cards),
                           "exclude": [seat]})
            events.append({"type": "discarded", "seat": seat, "cards": cards, "audience": [seat]})
        if not self.waiting:
            self.begin_lead(rng, events)

    def begin_lead(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-3.4: the lowest species chooses the first leader. DECISION (D-3.5): a seat left
        with no card at all ends the trick play at once."""
        empty = [s for s in range(self.num_players) if not self.hands[s]]
        if empty:
            self.emptied = empty
            self.last_trick = True
            self.leader = -1  # no trick was led
            if events is not None:
                events.append({"type": "no_tricks", "empty": empty})
            self.after_upgrades(rng, events)
            return
        self.phase = "lead"
        self.chooser = self.lowest_seat()

    def run_queue(self, rng: random.Random, events: list[Event] | None) -> None:
        """Resolve queued decisions that offer no choice; stop at the first real one."""
        while self.queue:
            item = self.queue[0]
            if item["kind"] == "meta" and "card" not in item \
                    and not self._draw_metamorphosis(item, rng, events):
                self.queue.pop(0)
                continue
            if item["kind"] == "pick" and not upgrades.pick_count(self, item["target"]):
                self.queue.pop(0)
                continue
            if item["kind"] == "meta":
                slots = upgrades.metamorphosis_slots(self.boards[item["seat"]], item["card"])
                if len(slots) == 1:  # no choice: the card goes where it must
                    self.queue.pop(0)
                    self._place_metamorphosis(item, slots[0], events)
                    continue
            return
        self._continue(rng, events)

    def _apply_queued(self, seat: int, move: Move, rng: random.Random,
                      events: list[Event] | None) -> None:
        item = self.queue.pop(0)
        kind = item["kind"]
        if kind == "upgrade":
            if move["type"] == "no_upgrade":
                if events is not None:
                    events.append({"type": "no_upgrade", "seat": seat})
            else:
                self._take_trick_card(move["card"])
                upgrades.apply_upgrade(self, seat, move, events)
        elif kind == "steal":
            upgrades.apply_steal(self, seat, move, events)
        elif kind == "pick":
            if move["type"] == "no_pick":  # v2.2: the opponent leaves the pick (D-11.7)
                if events is not None:
                    events.append({"type": "no_pick", "seat": seat})
            else:
                self.discard.remove(move["card"])
                upgrades.apply_upgrade(self, item["target"], move, events, by=seat)
        elif kind == "meta":
            self._place_metamorphosis(item, move["slot"], events)
        self.run_queue(rng, events)

    @staticmethod
    def _env_index(name: str) -> int:
        return ENVIRONMENTS.index(name)

    def _set_symbiosis(self, seat: int, env: int, events: list[Event] | None) -> None:
        self.symbiosis[seat] = env
        if events is not None:
            events.append({"type": "symbiosis", "seat": seat, "environment": ENVIRONMENTS[env]})

    def _take_trick_card(self, card: int) -> None:
        """The upgrade card leaves the trick (a winner's dummy card too, D-11.3)."""
        for play in self.trick:
            if card in play["cards"]:
                play["cards"].remove(card)
                return
            if card in play["dummy"] and play["seat"] == self.winner:
                play["dummy"].remove(card)
                return
        raise AssertionError(f"card {card} is not in the trick")

    def _continue(self, rng: random.Random, events: list[Event] | None) -> None:
        """The queue is empty: go on with what the stage says comes next."""
        stage, self.stage = self.stage, ""
        if stage == "trick":
            tricks.cleanup(self)
            tricks.start_trick(self, self.winner if self.winner is not None else 0, events)
        elif stage == "last":
            tricks.cleanup(self)
            self.after_upgrades(rng, events)
        elif stage == "pick":
            self.begin_keep(rng, events)
        elif stage == "meta":
            self.end_era(rng, events)

    def after_upgrades(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-11.7: the two-player pick from the discard pile, before the keeping (D-5.3)."""
        self.stage = "pick"
        if self.num_players == 2:
            for seat in self.pick_for():
                picker = 1 - seat
                target = picker if self.edition != "1.7" else seat
                self.queue.append({"kind": "pick", "seat": picker, "target": target})
        self.run_queue(rng, events)

    def pick_for(self) -> list[int]:
        """Seats whose empty hand gives the opponent a pick (D-11.7)."""
        if self.edition == "1.7":  # any player with no card at the era's end
            return sorted(self.emptied)
        # v2.2: only the leader of the last trick, who led with their last card (a leader
        # plays once per trick, so an empty hand after it means the lead was the last card).
        if self.leader >= 0 and self.leader in self.emptied:
            return [self.leader]
        return []

    def begin_keep(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-5.3: keep up to two cards, secretly; DECISION: nothing is kept after the last era."""
        if self.era < self.eras:
            self.phase = "keep"
            self.waiting = [s for s in range(self.num_players) if s not in self.emptied]
            if self.waiting:
                return
        self.begin_survival(rng, events)

    def _apply_keep(self, seat: int, move: Move, rng: random.Random,
                    events: list[Event] | None) -> None:
        kept = list(move["cards"])
        rest = [c for c in self.hands[seat] if c not in kept]
        self.hidden[seat].extend(rest)  # DECISION: face down, so the kept count stays private
        self.hands[seat] = kept
        self.waiting.remove(seat)
        if events is not None:
            events.append({"type": "kept", "seat": seat, "exclude": [seat]})
            events.append({"type": "kept", "seat": seat, "cards": kept, "audience": [seat]})
        if not self.waiting:
            self.begin_survival(rng, events)

    def begin_survival(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-7.1 / D-7.7 step 1: species choose whom they eat, lowest first."""
        self.phase = "survival"
        self.waiting = []
        self.eats = []
        self.symbiosis = {}
        entities = list(range(self.num_players))
        if self.dummy_pos is not None:
            entities.append(DUMMY)
        position = {s: self.boards[s].position for s in range(self.num_players)}
        position[DUMMY] = self.dummy_pos or 0
        self.order = sorted(entities, key=lambda e: position[e])
        if events is not None:
            events.append({"type": "survival_started", "order": [
                "dummy" if e == DUMMY else e for e in self.order]})
        self._settle_eater(rng, events)

    def _settle_eater(self, rng: random.Random, events: list[Event] | None) -> None:
        """Move ``order`` on to the next species that has a decision to make."""
        while self.order:
            who = self.order[0]
            if who == DUMMY:  # D-11.5: the dummy eats every species it may
                for target in survival.targets(self, DUMMY):
                    survival.record_eat(self, DUMMY, target, events)
                self.order.pop(0)
                continue
            options = survival.symbiosis_options(self, who)
            if who not in self.symbiosis and options:
                if len(options) > 1:
                    return  # D-10 #2: the player chooses the environment
                self._set_symbiosis(who, options[0], events)  # no choice to make
            if survival.targets(self, who):
                return
            self.order.pop(0)
        self.resolve_survival(rng, events)

    def _next_eater(self, rng: random.Random, events: list[Event] | None) -> None:
        self.order.pop(0)
        self._settle_eater(rng, events)

    def resolve_survival(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-7.4, D-7.5, then Metamorphosis (D-10 #14) in food-chain order. DECISION
        (D-14.14): the end of survival is one moment, so every species holding Metamorphosis
        now draws, even if an earlier draw (a Mutation's steal) takes its Metamorphosis."""
        survival.resolve(self, events)
        self.stage = "meta"
        for seat in self.survival_order():
            if METAMORPHOSIS in self.boards[seat].abilities():
                self.queue.append({"kind": "meta", "seat": seat})
        self.run_queue(rng, events)

    def _draw_metamorphosis(self, item: dict[str, Any], rng: random.Random,
                            events: list[Event] | None) -> bool:
        """Draw the Metamorphosis card; a joker is discarded with no replacement."""
        card = self.draw(rng)
        if card is None:
            if events is not None:
                events.append({"type": "metamorphosis", "seat": item["seat"], "card": None})
            return False
        if events is not None:
            events.append({"type": "metamorphosis", "seat": item["seat"], "card": card})
        if card in JOKERS:
            self.discard.append(card)
            return False
        board = self.boards[item["seat"]]
        if board.stolen is not None and VALUE[board.stolen] == VALUE[card] and not any(
                e is not None and Board.slot_ability(e) == VALUE[card] for e in board.slots):
            # DECISION: the drawn copy replaces a copy held on Mutation.
            self.discard.append(board.stolen)
            board.stolen = None
        item["card"] = card
        return True

    def _place_metamorphosis(self, item: dict[str, Any], slot: int,
                             events: list[Event] | None) -> None:
        seat, card = item["seat"], item["card"]
        upgrades.place(self, seat, card, slot, events)
        if events is not None:
            events.append({"type": "upgraded", "seat": seat, "card": card, "use": "ability",
                           "slot": slot, "by": "metamorphosis"})
        from .cards import MUTATION

        if VALUE[card] == MUTATION and upgrades.steal_moves(self, seat)[1:]:
            self.queue.insert(0, {"kind": "steal", "seat": seat})

    def end_era(self, rng: random.Random, events: list[Event] | None) -> None:
        """D-7.6: bites cleared; D-11.6: the dummy's cards go; next era or the end (D-9.1)."""
        for board in self.boards:
            board.bites = 0
        self.eats = []
        self.symbiosis = {}
        self.order = []
        if self.dummy_cards:
            if self.edition == "1.7":
                self.removed.extend(self.dummy_cards)
            else:
                self.discard.extend(self.dummy_cards)
            self.dummy_cards = []
        if self.era >= self.eras:
            self.phase = "over"
            if events is not None:
                events.append({"type": "game_over", **self.result().to_json()})
            return
        if self.num_players == 2:
            # D-11.6: the new cards come "at the very end of the era", from the deck as it is
            # then, before the next era's reshuffle returns the era's discards (and in v2.2
            # the old dummy cards) to it.
            for _ in range(DUMMY_CARDS):
                card = self.draw(rng)
                if card is not None:
                    self.dummy_cards.append(card)
        for seat in range(self.num_players):
            self.carried[seat] = len(self.hands[seat])
        self.start_era(rng, events)
