// Evolution: The Origin of Species — each player's animals with their traits and food.
"use strict";

(function register() {
  const { el, title } = Arena;

  function animal(a) {
    const traits = a.traits.map(([, trait]) => el("span", { class: "chip" }, title(trait)));
    return el("div", { class: "animal" },
      el("strong", {}, `Animal #${a.id}`),
      ` · food ${a.food}/${a.requirement}`, a.fat_capacity ? ` · fat ${a.fat}/${a.fat_capacity}` : "",
      a.fed ? " · fed" : "", a.hibernating ? " · hibernating" : "", a.poisoned ? " · poisoned" : "",
      el("div", { class: "chips" }, traits.length ? traits : el("span", { class: "muted" }, "no trait")));
  }

  window.EvoBoards.evolution = (view, match) => {
    const players = el("div", { class: "players" }, match.seats.map((seat) => el("div", { class: "player" },
      el("h3", {}, seat.name, match.to_move.includes(seat.seat) ? " · to move" : ""),
      el("p", { class: "muted" }, `${view.hand_sizes[seat.seat]} cards in hand`),
      view.animals.filter((a) => a.owner === seat.seat).map(animal))));
    const hand = Array.isArray(view.hand)
      ? el("p", {}, el("strong", {}, "Your hand: "), view.hand.length ? view.hand.map((c) => `#${c}`).join(", ") : "empty")
      : null;
    return el("div", {},
      el("p", {}, `Round ${view.round} · ${title(view.phase)} · food bank ${view.bank} · deck ${view.deck_size}`),
      hand, players);
  };
})();
