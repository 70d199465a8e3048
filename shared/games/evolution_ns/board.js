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

  // Words for a screen reader about what others did and what the rules did (the match page's
  // announcements; a seat's own moves are said by their labels). What a seat may not know
  // (a face-down card, a secret food card) is not in its events, so not in these words.
  window.EvoBoards["evolution-ns"].describe = (event, match, comps) => {
    const who = (s) => Arena.seatName(match, s);
    const card = (id) => (comps.get(`card:${id}`) ? comps.get(`card:${id}`).name : `#${id}`);
    const trait = (key) => {
      if (key === "warning_call_left") return t("Warning Call of its left neighbour");
      if (key === "warning_call_right") return t("Warning Call of its right neighbour");
      return comps.get(`trait:${key}`) ? comps.get(`trait:${key}`).name : key;
    };
    const species = (s, i) => t("{who}'s species {n}", { who: who(s), n: i + 1 });
    switch (event.type) {
      case "food_card_chosen": return event.card === undefined
        ? t("{who} put a food card face down.", { who: who(event.seat) }) : null;
      case "trait_played": {
        if (event.card !== undefined) return null;  // the seat's own: its label says it
        const on = { who: who(event.seat), n: event.species + 1 };
        return event.replace === null || event.replace === undefined
          ? t("{who} played a trait face down on species {n}.", on)
          : t("{who} played a trait face down on species {n}, discarding {trait}.", { ...on, trait: card(event.replace) });
      }
      case "new_species": return event.free
        ? t("{who} has no species left and gets a new one.", { who: who(event.seat) })
        : event.side === "left"
          ? t("{who} discarded {card} for a new species at the left end.", { who: who(event.seat), card: card(event.card) })
          : t("{who} discarded {card} for a new species at the right end.", { who: who(event.seat), card: card(event.card) });
      case "grown": return event.what === "body"
        ? t("{who} discarded {card}: +1 body size for {species}.", { who: who(event.seat), card: card(event.card), species: species(event.owner, event.species) })
        : t("{who} discarded {card}: +1 population for {species}.", { who: who(event.seat), card: card(event.card), species: species(event.owner, event.species) });
      case "done": return t("{who} is done playing cards.", { who: who(event.seat) });
      case "plays_revealed": return t("Every seat's played cards are revealed.");
      case "traits_revealed": return event.traits.length ? t("Traits revealed: {traits}.", {
        traits: event.traits.map(([s, i, cards]) => `${species(s, i)}: ${cards.map(card).join(", ")}`).join("; ") }) : null;
      case "food_revealed": return t("Food cards revealed: {sum} food; the watering hole holds {hole} plant food.", { sum: event.sum, hole: event.hole });
      case "effect": return t("{species}: {trait} takes effect.", { species: species(event.seat, event.species), trait: trait(event.trait) });
      case "ate": return t("{species} ate {food} plant food.", { species: species(event.seat, event.species), food: event.food });
      case "intelligence_food": return t("{species} took {food} food with Intelligence.", { species: species(event.seat, event.species), food: event.food });
      case "attack_declared": return t("{attacker} attacks {defender}.", {
        attacker: species(event.seat, event.species), defender: species(event.target_seat, event.target) });
      case "negated": return t("{who} discarded a card to negate {trait}.", { who: who(event.seat), trait: trait(event.trait) });
      case "attack": return t("{attacker} attacked {defender}.", {
        attacker: species(event.seat, event.species), defender: species(event.target_seat, event.target) });
      case "meat": return t("{who} took {food} meat.", { who: who(event.seat), food: event.food });
      case "scavenged": return t("{species} scavenged meat.", { species: species(event.seat, event.species) });
      case "cooperation": return t("{species} got food by Cooperation.", { species: species(event.seat, event.species) });
      case "pass": return t("{who} passed.", { who: who(event.seat) });
      case "feeding_ended": return t("Feeding is over: the food eaten goes into the food bags.");
      case "extinct": return t("{species} went extinct.", { species: species(event.seat, event.species) });
      case "round_started": return t("Round {round} begins.", { round: event.round });
      default: return null;
    }
  };
})();
