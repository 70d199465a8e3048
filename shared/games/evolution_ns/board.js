// Evolution (North Star) — the watering hole, each player's species (body size, population,
// food, traits face up or down), a pending attack, the hand and the food card, drawn from the
// view and the component catalogue. A person plays by touching: a hand card, then where it goes
// (a species, its body size or population, a new species at an end of the row, the watering
// hole), a species to feed, a carnivore then its prey… (Arena.picker); the page's list of moves
// stays the accessible alternative.
"use strict";

(function register() {
  const { el, t } = Arena;

  // -- what a move names: the keys of the board elements a person touches ------------------
  function specOf(view, me, comps) {
    // A start-of-feeding effect names a trait of a species: the card that carries it.
    const carrier = (index, trait) => {
      const sp = view.species[me][index];
      const all = sp ? [...sp.traits, ...(sp.down_cards || [])] : [];
      const card = all.find((c) => comps.get(`card:${c}`) && comps.get(`card:${c}`).icons[0] === trait);
      return card === undefined ? null : `card:${card}`;
    };
    return (m) => {
      const card = `card:${m.card}`;
      const mine = `sp:${me}:${m.species}`;
      switch (m.type) {
        case "food": return { keys: [card, "hole"] };
        case "trait": return { keys: [card, mine, ...(m.replace === undefined || m.replace === null ? [] : [`card:${m.replace}`])] };
        case "new_species": return { keys: [card, `end:${m.side}`] };
        case "grow": return { keys: [card, `${m.what}:${m.seat}:${m.species}`] };
        case "effect": {
          const key = carrier(m.species, m.trait);
          return key ? { keys: [key] } : null;
        }
        case "eat": return { keys: [mine] };
        case "intelligence": return { keys: [card, mine] };
        case "attack": return { keys: [mine, `sp:${m.target_seat}:${m.target}`] };
        case "negate": return { keys: [card, `negate:${m.trait}`] };
        default: return { keys: [] };  // done, pass, strike
      }
    };
  }

  function advice(moves) {
    const texts = {
      food: t("Touch a card of your hand, then the watering hole: its food number is plant food."),
      trait: t("Touch a card of your hand, then a species for its trait, its body size or population to grow it, or an end of your row for a new species."),
      new_species: t("Touch a card of your hand, then a species for its trait, its body size or population to grow it, or an end of your row for a new species."),
      effect: t("Touch the trait whose effect comes first."),
      eat: t("Touch a hungry species to feed it; a carnivore, then the species it attacks."),
      attack: t("Touch a hungry species to feed it; a carnivore, then the species it attacks."),
      negate: t("Touch a card of your hand, then the defence it negates, or carry out the attack."),
    };
    const first = moves.find((m) => texts[m.move.type]);
    return first ? texts[first.move.type] : "";
  }

  function phaseText(view) {
    return {
      food: t("choosing food cards"), play: t("playing cards"), effects: t("start-of-feeding effects"),
      feed: t("feeding"), over: t("over"),
    }[view.phase] || view.phase;
  }

  function drawer(view, match, play, pk) {
    const comps = play.components || new Map();
    const name = (id, fallback) => (comps.get(id) ? comps.get(id).name : fallback);
    const seatName = (s) => (match.seats[s] ? match.seats[s].name : `#${s}`);

    function card(id, extra = "") {
      const c = comps.get(`card:${id}`);
      const carnivore = c && c.colour === "carnivore";
      return pk.touch(`card:${id}`, "span", {
        class: `ns-card${carnivore ? " ns-carnivore" : ""} ${extra}`, title: c ? c.text : "",
      },
      el("span", { class: "ns-trait" }, c ? c.name : `#${id}`),
      el("span", { class: "ns-food" }, t("food {n}", { n: c ? c.numbers.food : "?" })));
    }
    const cards = (list, extra, empty = t("none")) => el("div", { class: "ns-cards" },
      list.length ? list.map((c) => card(c, extra)) : el("span", { class: "muted" }, empty));

    function species(sp, s, i) {
      const down = sp.down_cards || [];
      const hidden = sp.down - down.length;  // another seat's face-down traits: only a count
      const fat = sp.fat || sp.traits.concat(down).some((c) => comps.get(`card:${c}`) && comps.get(`card:${c}`).icons[0] === "fat_tissue");
      const stat = (key, label, value) => pk.touch(key, "span", { class: "ns-stat" }, `${label} `, el("strong", {}, value));
      return el("li", { class: `ns-species${sp.food >= sp.pop ? " ns-fed" : ""}` },
        pk.touch(`sp:${s}:${i}`, "div", { class: "ns-head" },
          el("strong", {}, t("Species {n}", { n: i + 1 })),
          sp.food >= sp.pop ? ` · ${t("fed")}` : ` · ${t("hungry")}`),
        el("div", { class: "ns-stats" },
          stat(`body:${s}:${i}`, t("Body size"), sp.body),
          stat(`pop:${s}:${i}`, t("Population"), sp.pop),
          el("span", { class: "ns-stat ns-eaten" }, `${t("Food")} `, el("strong", {}, `${sp.food}/${sp.pop}`)),
          fat ? el("span", { class: "ns-stat" }, `${t("Fat Tissue food")} `, el("strong", {}, sp.fat)) : null),
        cards(sp.traits, "", t("no trait face up")),
        down.length ? el("div", { class: "ns-down" }, el("span", { class: "ns-label" }, t("Face down (yours):")), cards(down, "ns-facedown")) : null,
        hidden > 0 ? el("p", { class: "ns-hidden" }, t("{n} trait cards face down", { n: hidden })) : null);
    }

    function row(s) {
      const mine = s === view.seat;
      const end = (side) => (mine && pk.can(`end:${side}`)
        ? pk.touch(`end:${side}`, "span", { class: "ns-end" }, side === "left" ? t("+ new species, left end") : t("+ new species, right end"))
        : null);
      return el("div", { class: `player ns-player${mine ? " ns-mine" : ""}` },
        el("h3", {}, seatName(s), mine ? ` (${t("you")})` : "", match.to_move.includes(s) ? ` · ${t("to move")}` : ""),
        el("p", { class: "ns-meta" }, t("Cards in hand: {n}", { n: view.hand_sizes[s] }),
          ` · ${t("Food bag: {n}", { n: view.bags[s] })}`,
          view.food_cards_down[s] ? ` · ${t("food card down")}` : "",
          view.done[s] && view.phase === "play" ? ` · ${t("done")}` : "",
          view.passed[s] ? ` · ${t("passed")}` : ""),
        end("left"),
        el("ol", { class: "ns-row" }, view.species[s].map((sp, i) => species(sp, s, i))),
        end("right"));
    }

    function hole() {
      return pk.touch("hole", "div", { class: "ns-hole" },
        el("strong", {}, name("table:watering_hole", t("Watering hole"))), ": ",
        t("{n} plant food", { n: view.hole }),
        el("span", { class: "ns-bank" }, ` · ${t("taken from the food bank: {n}", { n: view.bank_out })}`));
    }

    function pending() {
      const p = view.pending;
      if (!p) return null;
      const attacker = view.turn;
      const negatable = play.moves ? [...new Set(play.moves.moves.filter((m) => m.move.type === "negate").map((m) => m.move.trait))] : [];
      const traitName = (trait) => {
        if (trait === "warning_call_left") return t("Warning Call of its left neighbour");
        if (trait === "warning_call_right") return t("Warning Call of its right neighbour");
        return name(`trait:${trait}`, trait);
      };
      return el("div", { class: "ns-pending", role: "status" },
        el("strong", {}, t("Attack!")), " ",
        t("{attacker}'s species {a} attacks {defender}'s species {d}", {
          attacker: seatName(attacker), a: p.species + 1, defender: seatName(p.target_seat), d: p.target + 1 }),
        p.negated.length ? el("p", {}, t("Negated: {traits}", { traits: p.negated.map(traitName).join(", ") })) : null,
        negatable.length ? el("div", { class: "chips" }, negatable.map((trait) => pk.touch(`negate:${trait}`, "span", { class: "chip ns-negate" }, t("negate {trait}", { trait: traitName(trait) })))) : null);
    }

    function hand() {
      if (!Array.isArray(view.hand)) return null;
      return el("div", { class: "ns-hand" }, el("h3", {}, t("Your hand ({n})", { n: view.hand.length })),
        cards(view.hand),
        view.food_card === null || view.food_card === undefined ? null
          : el("div", { class: "ns-foodcard" }, el("span", { class: "ns-label" }, t("Your food card, face down:")), cards([view.food_card])));
    }

    return { row, hole, pending, hand };
  }

  window.EvoBoards["evolution-ns"] = (view, match, play) => {
    const root = el("div", { class: "ns picker-board" });
    const me = view.seat;
    const draw = () => {
      const comps = play.components || new Map();
      const pk = Arena.picker(play, specOf(view, me, comps), draw);
      const d = drawer(view, match, play, pk);
      const moves = play.moves ? play.moves.moves : [];
      const seats = view.species.map((_, s) => s);
      const order = me === null || me === undefined ? seats : [me, ...seats.filter((s) => s !== me)];
      root.replaceChildren(...[
        el("p", { class: "ns-phase" }, t("Round {n}", { n: view.round }), ` · ${phaseText(view)}`,
          view.last_round ? ` · ${t("last round")}` : "", ` · ${t("deck {n}", { n: view.deck_size })}`),
        moves.length ? el("div", { class: "ns-do" }, el("p", {}, advice(moves)),
          pk.controls((move) => move.type)) : null,
        d.pending(), d.hand(), d.hole(),
        el("div", { class: "players ns-players" }, order.map((s) => d.row(s)))].filter(Boolean));
      pk.refocus(root);
    };
    draw();
    return root;
  };
})();
