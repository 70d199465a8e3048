"""A tiny hidden-hand auction game for testing the search (not in the catalogue).

Each player holds a secret hand drawn from cards ``1..deck`` (some cards stay undealt, so
hands are not deducible). Every round all players pick a card face down at the same time
(a simultaneous secret step). The picks are revealed: the highest card no one else played
wins the round's prize, which was drawn at random from the prize pool (chance inside
``apply``). The winner then decides, alone and in public, to ``bank`` the prize or to
``double`` it on a coin flip (chance again). After ``hand`` rounds the highest score wins.
"""

from __future__ import annotations

import random
from typing import Any

from shared.kernel.protocol import Game, IllegalMove, Move, NotYourTurn, Result, State, View


class ToyState(State):
    # ``num_players`` is State's own slot (shared.kernel.state), not redeclared here.
    __slots__ = ("deck", "gambler", "hands", "picks", "prize", "prizes", "revealed", "scores")

    def __init__(self, num_players: int, deck: int, hands: list[list[int]],
                 picks: list[int | None], prize: int, prizes: list[int],
                 revealed: list[list[int]], scores: list[int], gambler: int | None) -> None:
        self.num_players = num_players
        self.deck = deck
        self.hands = hands
        self.picks = picks
        self.prize = prize
        self.prizes = prizes  # pool still to draw from, sorted
        self.revealed = revealed  # the picks of every finished round
        self.scores = scores
        self.gambler = gambler  # the round winner owing bank/double, if any

    # -- protocol ---------------------------------------------------------------------------

    def to_move(self) -> list[int]:
        if self.gambler is not None:
            return [self.gambler]
        return [s for s in range(self.num_players) if self.picks[s] is None and self.hands[s]]

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_move():
            return []
        if self.gambler is not None:
            return [{"type": "bank"}, {"type": "double"}]
        return [{"type": "pick", "card": c} for c in sorted(self.hands[seat])]

    def random_move(self, seat: int, rng: random.Random) -> Move:
        if self.gambler is not None:
            return {"type": "bank"} if rng.random() < 0.5 else {"type": "double"}
        return {"type": "pick", "card": rng.choice(self.hands[seat])}

    def apply(self, seat: int, move: Move, rng: random.Random) -> list[dict[str, Any]]:
        if seat not in self.to_move():
            raise NotYourTurn(f"seat {seat} owes no decision now")
        kind = move.get("type")
        if self.gambler is not None:
            if kind == "bank":
                self.scores[seat] += self.prize
                gain = self.prize
            elif kind == "double":
                gain = 2 * self.prize if rng.random() < 0.5 else 0
                self.scores[seat] += gain
            else:
                raise IllegalMove("bank or double")
            self.gambler = None
            events: list[dict[str, Any]] = [{"type": kind, "seat": seat, "gain": gain}]
            return events + self._next_round(rng)
        card = move.get("card")
        if kind != "pick" or card not in self.hands[seat]:
            raise IllegalMove("pick a card from your hand")
        self.hands[seat].remove(card)
        self.picks[seat] = card
        events = [{"type": "picked", "seat": seat, "card": card, "audience": [seat]},
                  {"type": "picked", "seat": seat}]
        if any(p is None for p in self.picks):
            return events
        picks = [int(p) for p in self.picks if p is not None]
        self.revealed.append(picks)
        self.picks = [None] * self.num_players
        unique = [c for c in picks if picks.count(c) == 1]
        events.append({"type": "reveal", "cards": picks})
        if unique:
            self.gambler = picks.index(max(unique))
            return events
        return events + self._next_round(rng)

    def _next_round(self, rng: random.Random) -> list[dict[str, Any]]:
        if not self.hands[0]:
            self.prize = 0
            return [{"type": "over"}]
        self.prize = self.prizes.pop(rng.randrange(len(self.prizes)))
        return [{"type": "prize", "value": self.prize}]

    def is_over(self) -> bool:
        return self.gambler is None and not self.hands[0] and all(p is None for p in self.picks)

    def result(self) -> Result:
        return Result.from_keys(list(self.scores), list(self.scores))

    def view(self, seat: int | None) -> View:
        return {
            "players": self.num_players, "deck": self.deck,
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "my_pick": self.picks[seat] if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "picked": [p is not None for p in self.picks],
            "prize": self.prize, "prizes_left": sorted(self.prizes),
            "revealed": [list(r) for r in self.revealed],
            "scores": list(self.scores), "gambler": self.gambler,
        }

    def observe_move(self, seat: int, move: Move, observer: int) -> str:
        if move["type"] == "pick" and seat != observer:
            return "pick:hidden"
        return self.move_id(move)

    def clone(self) -> ToyState:
        return ToyState(self.num_players, self.deck, [list(h) for h in self.hands],
                        list(self.picks), self.prize, list(self.prizes),
                        [list(r) for r in self.revealed], list(self.scores), self.gambler)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.num_players, "deck": self.deck,
                "hands": [list(h) for h in self.hands], "picks": list(self.picks),
                "prize": self.prize, "prizes": list(self.prizes),
                "revealed": [list(r) for r in self.revealed], "scores": list(self.scores),
                "gambler": self.gambler}


class ToyGame(Game):
    id = "toy"
    name = "Toy auction"
    version = "1"
    min_players = 2
    max_players = 8

    def __init__(self, hand: int = 4) -> None:
        self.hand = hand

    def new_state(self, players: int, options: dict[str, Any], rng: random.Random) -> ToyState:
        deck = players * self.hand + 3
        cards = list(range(1, deck + 1))
        rng.shuffle(cards)
        hands = [sorted(cards[i * self.hand:(i + 1) * self.hand]) for i in range(players)]
        prizes = list(range(1, self.hand + 1))
        prize = prizes.pop(rng.randrange(len(prizes)))
        return ToyState(players, deck, hands, [None] * players, prize, prizes, [],
                        [0] * players, None)

    def state_from_json(self, data: dict[str, Any]) -> ToyState:
        return ToyState(data["players"], data["deck"], [list(h) for h in data["hands"]],
                        list(data["picks"]), data["prize"], list(data["prizes"]),
                        [list(r) for r in data["revealed"]], list(data["scores"]),
                        data["gambler"])

    def sample_from_view(self, view: View, seat: int, rng: random.Random) -> ToyState:
        n = view["players"]
        seen = set(view["hand"])
        if view["my_pick"] is not None:
            seen.add(view["my_pick"])
        for cards in view["revealed"]:
            seen.update(cards)
        unseen = [c for c in range(1, view["deck"] + 1) if c not in seen]
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        picks: list[int | None] = []
        for other in range(n):
            if other == seat:
                hands.append(list(view["hand"]))
                picks.append(view["my_pick"])
                continue
            size = view["hand_sizes"][other]
            hands.append(sorted(unseen[:size]))
            del unseen[:size]
            if view["picked"][other]:
                picks.append(unseen.pop())
            else:
                picks.append(None)
        return ToyState(n, view["deck"], hands, picks, view["prize"], list(view["prizes_left"]),
                        [list(r) for r in view["revealed"]], list(view["scores"]),
                        view["gambler"])

    def greedy_value(self, state: State, seat: int) -> float:
        assert isinstance(state, ToyState)
        return float(state.scores[seat])


TOY = ToyGame()
