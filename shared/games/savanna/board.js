// Ecosystem: Savanna — each player's savanna as a grid of cards, the draft around it.
"use strict";

(function register() {
  const COLOURS = {
    grass: "#cfe3a0", acacia: "#9fc27a", watering_hole: "#a9d3ea", gazelle: "#f0d7a8",
    zebra: "#e8e8e8", giraffe: "#f2c77a", elephant: "#c9c3bd", lion: "#f0b26b",
    cheetah: "#f3d46a", hyena: "#c8b28e", vulture: "#b9a8c9",
  };
  const { el, title } = Arena;

  function grid(cards) {
    if (!cards.length) return el("p", { class: "muted" }, "no card yet");
    const rows = cards.map((c) => c.row);
    const cols = cards.map((c) => c.col);
    const [top, left] = [Math.min(...rows), Math.min(...cols)];
    const width = Math.max(...cols) - left + 1;
    const height = Math.max(...rows) - top + 1;
    const box = el("div", { class: "grid", style: `grid-template-columns: repeat(${width}, minmax(2.4rem, 4rem))` });
    const at = new Map(cards.map((c) => [`${c.row},${c.col}`, c.card]));
    for (let r = 0; r < height; r += 1) {
      for (let c = 0; c < width; c += 1) {
        const card = at.get(`${top + r},${left + c}`);
        box.append(card
          ? el("div", { class: "tile", style: `background:${COLOURS[card] || "#e9e2c9"}`, title: title(card) }, title(card))
          : el("div", { class: "tile empty" }));
      }
    }
    return box;
  }

  window.EvoBoards.savanna = (view, match) => {
    const players = el("div", { class: "players" }, view.savannas.map((cards, seat) => el("div", { class: "player" },
      el("h3", {}, match.seats[seat].name, match.to_move.includes(seat) ? " · to move" : ""),
      grid(cards),
      el("p", { class: "muted" }, `${view.hand_sizes[seat]} cards in hand`,
        view.revealed[seat] ? ` · revealed: ${title(view.revealed[seat])}` : ""))));
    const hand = Array.isArray(view.hand)
      ? el("div", {}, el("strong", {}, "Your hand: "),
        el("span", { class: "chips" }, view.hand.length ? view.hand.map((c) => el("span", { class: "chip" }, title(c))) : "empty"))
      : null;
    return el("div", {},
      el("p", {}, `Phase ${view.phase}, step ${view.step} · ${view.stage}`,
        view.pass_direction ? ` · passing ${view.pass_direction}` : "", ` · deck ${view.deck_size}`),
      hand, players);
  };
})();
