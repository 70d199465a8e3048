// Ecosystem: Savanna — each player's savanna as a grid with its coordinates, the seat's hand
// as cards. A pick is made by touching a card of the hand; a placement by touching one of
// the highlighted cells of the seat's own savanna (the revealed card to place is shown).
// Touch keys: `card:<type>` (a card of the hand), `cell:<row>,<col>` (a cell of the savanna).
"use strict";

(function register() {
  const COLOURS = {
    grass: "#cfe3a0", acacia: "#9fc27a", watering_hole: "#a9d3ea", gazelle: "#f0d7a8",
    zebra: "#e8e8e8", giraffe: "#f2c77a", elephant: "#c9c3bd", lion: "#f0b26b",
    cheetah: "#f3d46a", hyena: "#c8b28e", vulture: "#b9a8c9",
  };
  const { el } = Arena;

  // The touch paths of a move, from its fields.
  function paths(move) {
    if (move.type === "pick") return [[`card:${move.card}`]];
    if (move.type === "place") return [[`cell:${move.row},${move.col}`]];
    return [];
  }

  function namer(components) {
    return (card) => {
      const component = components && components.get(`card:${card}`);
      return component ? component.name : Arena.title(card);
    };
  }

  function cardFace(kit, card, name, components, cls = "") {
    const component = components && components.get(`card:${card}`);
    return kit.target(`card:${card}`, {
      cls: `sv-card ${cls}`.trim(), title: component ? component.text : "",
    }, el("span", { class: "sv-swatch", style: `background:${COLOURS[card] || "#e9e2c9"}`, "aria-hidden": "true" }),
    el("span", { class: "sv-card-name" }, name(card)));
  }

  // A card's name in a cell: a word longer than a cell is wide (Czech "Napajedlo", Finnish
  // "Juomapaikka") in letters small enough for it, so that it is not split anywhere.
  function cellName(text) {
    const longest = Math.max(...text.split(/\s+/).map((word) => word.length));
    const style = longest > 8 ? `font-size: ${(5 / longest).toFixed(2)}rem; letter-spacing: -.02em` : "";
    return el("span", { class: "sv-cell-name", ...(style ? { style } : {}) }, text);
  }

  // A savanna as a grid: the placed cards, and for the seat that places now the cells it may
  // choose, with row numbers on the left and column numbers on top.
  function grid(kit, cards, open, name, owner) {
    const at = new Map(cards.map((c) => [`${c.row},${c.col}`, c.card]));
    const cells = [...cards.map((c) => [c.row, c.col]), ...open];
    if (!cells.length) return el("p", { class: "muted" }, Arena.t("No card yet."));
    const rows = cells.map(([r]) => r);
    const cols = cells.map(([, c]) => c);
    const [top, bottom, left, right] = [Math.min(...rows), Math.max(...rows), Math.min(...cols), Math.max(...cols)];
    const box = el("div", {
      class: "grid sv-grid", role: "group", "aria-label": Arena.t("Savanna of {name}", { name: owner }),
      style: `grid-template-columns: 1.6rem repeat(${right - left + 1}, minmax(2.6rem, 4.2rem))`,
    }, el("span", { class: "sv-axis sv-corner", "aria-hidden": "true" }, Arena.t("row")));
    for (let c = left; c <= right; c += 1) {
      box.append(el("span", { class: "sv-axis", "aria-hidden": "true" }, String(c)));
    }
    for (let r = top; r <= bottom; r += 1) {
      box.append(el("span", { class: "sv-axis", "aria-hidden": "true" }, String(r)));
      for (let c = left; c <= right; c += 1) {
        const card = at.get(`${r},${c}`);
        const where = Arena.t("row {row}, column {col}", { row: r, col: c });
        if (card) {
          box.append(kit.target(`cell:${r},${c}`, {
            cls: "sv-cell sv-filled", label: `(${where})`, style: `background:${COLOURS[card] || "#e9e2c9"}`,
          }, cellName(name(card))));
        } else if (kit.can(`cell:${r},${c}`)) {
          box.append(kit.target(`cell:${r},${c}`, {
            cls: "sv-cell sv-open", label: Arena.t("Place here: {where}", { where }),
          }, el("span", { class: "sv-coord", "aria-hidden": "true" }, `${r}, ${c}`)));
        } else {
          box.append(el("span", { class: "sv-cell sv-empty" }));
        }
      }
    }
    return box;
  }

  function mine(view, kit, name, components) {
    const parts = [];
    if (view.stage === "place" && view.revealed[view.seat]) {
      parts.push(el("p", { class: "sv-to-place" }, Arena.t("Your card to place:"), " ",
        el("span", { class: "sv-card sv-placing" }, el("span", {
          class: "sv-swatch", style: `background:${COLOURS[view.revealed[view.seat]] || "#e9e2c9"}`, "aria-hidden": "true",
        }), el("span", { class: "sv-card-name" }, name(view.revealed[view.seat]))), " ",
        kit.active ? Arena.t("Touch a highlighted cell of your savanna.") : ""));
    } else if (view.pending) {
      parts.push(el("p", {}, Arena.t("Your face-down pick: {card}", { card: name(view.pending) })));
    }
    const picking = view.stage === "pick" && kit.active;
    parts.push(el("div", { class: "sv-hand", role: "group", "aria-label": Arena.t("Your hand") },
      view.hand.length ? view.hand.map((card) => cardFace(kit, card, name, components)) : el("span", { class: "muted" }, Arena.t("Empty."))));
    return el("section", { class: "sv-mine" }, el("h3", {}, picking ? Arena.t("Your hand: touch a card to pick it") : Arena.t("Your hand")), parts);
  }

  function draw(view, match, play) {
    const seat = view.seat;
    const kit = EvoTouch.kit(`savanna:${match.id}:${seat}`, play, paths, () => draw(view, match, play));
    const components = play && play.components;
    const name = namer(components);
    const open = (play && play.moves ? play.moves.moves : [])
      .filter((move) => move.move.type === "place").map((move) => [move.move.row, move.move.col]);
    const players = el("div", { class: "players" }, view.savannas.map((cards, s) => el("div", { class: "player sv-player" },
      el("h3", {}, match.seats[s].name, s === seat ? Arena.t(" (you)") : "", match.to_move.includes(s) ? Arena.t(" · to move") : ""),
      grid(kit, cards, s === seat ? open : [], name, match.seats[s].name),
      el("p", { class: "muted" }, Arena.t("{count} cards in hand", { count: view.hand_sizes[s] }),
        view.revealed[s] ? Arena.t(" · revealed: {card}", { card: name(view.revealed[s]) }) : "",
        view.picked.includes(s) && !view.revealed[s] ? Arena.t(" · has picked") : ""))));
    const removed = view.removed.length ? el("p", { class: "muted" }, Arena.t("Removed face up: {cards}",
      { cards: view.removed.map((r) => name(r.card)).join(", ") })) : null;
    // Worded apart from the sentence: the message extractor skips a call inside another's
    // arguments, and these must be translated too.
    const stage = view.stage === "pick" ? Arena.t("pick a card") : Arena.t("place it");
    const direction = view.pass_direction === "left" ? Arena.t("left") : Arena.t("right");
    const status = view.over ? el("p", { class: "sv-status" }, Arena.t("The match is over.")) : el("p", { class: "sv-status" }, Arena.t("Phase {phase} of 2 · step {step} of 10 · {stage} · passing {direction} · deck {deck}", {
      phase: view.phase, step: Math.min(view.step + 1, 10), deck: view.deck_size, stage, direction,
    }));
    return kit.root(el("div", { class: "sv-board" }, status,
      Array.isArray(view.hand) ? mine(view, kit, name, components) : null,
      kit.panel((key) => (key.startsWith("card:") ? name(key.slice(5)) : key)),
      players, removed));
  }

  // Words for a screen reader about another seat's action (the match page's announcements).
  draw.describe = (event, match, components) => {
    const name = namer(components);
    const who = (s) => Arena.seatName(match, s);
    switch (event.type) {
      case "picked": return event.card ? null : Arena.t("{who} picked a card.", { who: who(event.seat) });
      case "reveal": return Arena.t("Picks revealed: {picks}.", {
        picks: event.picks.map((p) => `${who(p.seat)}: ${name(p.card)}`).join(", ") });
      case "placed": return Arena.t("{who} placed {card} at row {row}, column {col}.", {
        who: who(event.seat), card: name(event.card), row: event.row, col: event.col });
      case "phase_end": return Arena.t("Phase {phase} is over.", { phase: event.phase });
      default: return null;
    }
  };

  window.EvoBoards.savanna = draw;
})();
