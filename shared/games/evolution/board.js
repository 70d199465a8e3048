// Evolution: The Origin of Species — the food bank, a pending attack, the seat's hand as
// cards and each player's animals with their traits, food and fat; a paired trait
// (Communication, Cooperation, Symbiosis) is drawn as a bracket joining its two animals.
// A move is made by touching what it names, in order. Touch keys: `card:<n>` (a card of the
// hand), `new-animal` (the place for a new animal), `animal:<id>`, `trait:<card>` (a trait on
// an animal), `pair:<card>` (a paired trait), `fat:<id>` (an animal's fat), `bank`.
"use strict";

(function register() {
  const { el } = Arena;
  const MAX_TOKENS = 12;  // tokens drawn one by one; more are counted

  function traitName(components, trait) {
    const component = components && components.get(`trait:${trait}`);
    return component ? component.name : Arena.title(trait);
  }

  function traitText(components, trait) {
    const component = components && components.get(`trait:${trait}`);
    return component ? component.text : "";
  }

  function animalName(id) {
    return Arena.t("Animal {id}", { id });
  }

  // The touch paths of each move, from its fields; the view says which card carries a trait
  // an animal uses.
  function pather(view) {
    const byId = new Map(view.animals.map((a) => [a.id, a]));
    const cardOf = (animalId, trait) => {
      const animal = byId.get(animalId);
      const found = animal && animal.traits.find(([, t]) => t === trait);
      return found ? `trait:${found[0]}` : `animal:${animalId}`;
    };
    return (move) => {
      switch (move.type) {
        case "play_animal": return [[`card:${move.card}`, "new-animal"]];
        case "play_trait": return [[`card:${move.card}`, `animal:${move.animal}`]];
        case "play_pair": {
          const [a, b] = move.animals;
          return [[`card:${move.card}`, `animal:${a}`, `animal:${b}`], [`card:${move.card}`, `animal:${b}`, `animal:${a}`]];
        }
        case "take_food": return [["bank", `animal:${move.animal}`]];
        case "attack": return [[`animal:${move.carnivore}`, `animal:${move.target}`]];
        case "use_trait": {
          const first = cardOf(move.animal, move.trait);
          return [move.target === undefined ? [first] : [first, `animal:${move.target}`]];
        }
        case "burn_fat": case "store_fat": return [[`fat:${move.animal}`]];
        case "scavenger": return [[`animal:${move.animal}`]];
        case "pair_food": return [[`pair:${move.card}`, `animal:${move.animal}`]];
        case "defend": {
          const target = view.pending ? view.pending.target : null;
          if (move.trait === "tail_loss") {
            const animal = byId.get(target);
            const isTrait = animal && animal.traits.some(([card]) => card === move.card);
            return [[isTrait ? `trait:${move.card}` : `pair:${move.card}`]];
          }
          const first = cardOf(target, move.trait);
          return [move.animal === undefined ? [first] : [first, `animal:${move.animal}`]];
        }
        default: return [];  // pass, end the turn, decline, skip: buttons of the panel
      }
    };
  }

  function tokens(count, cls, total = count) {
    const shown = Math.min(total, MAX_TOKENS);
    const dots = Array.from({ length: shown }, (_, i) => el("span", { class: `ev-token ${i < count ? cls : "ev-token-empty"}` }));
    return el("span", { class: "ev-tokens", "aria-hidden": "true" }, dots, total > shown ? `+${total - shown}` : "");
  }

  // A card of the hand: one face per trait printed on it (a two-trait card is played as
  // either), each with its extra food.
  function handCard(kit, components, card) {
    const component = components && components.get(`card:${card}`);
    const traits = component ? component.parts.map((part) => part.replace(/^trait:/, "")) : [];
    const faces = traits.map((trait) => {
      const food = components.get(`trait:${trait}`).numbers.food || 0;
      return el("span", { class: `ev-face ev-trait-${trait}` }, traitName(components, trait),
        food ? el("span", { class: "ev-food-plus" }, Arena.t(" +{food} food", { food })) : "");
    });
    return kit.target(`card:${card}`, { cls: "ev-card", title: component ? component.text : "" },
      faces.length ? faces : Arena.t("Card {card}", { card }));
  }

  function animal(kit, view, components, a, pairs) {
    const pending = view.pending;
    const cls = ["ev-animal", pending && pending.carnivore === a.id ? "ev-attacker" : "",
      pending && pending.target === a.id ? "ev-attacked" : ""].join(" ").trim();
    const states = [a.fed ? Arena.t("fed") : "", a.hibernating ? Arena.t("hibernating") : "",
      a.poisoned ? Arena.t("poisoned") : "",
      pending && pending.carnivore === a.id ? Arena.t("attacking") : "",
      pending && pending.target === a.id ? Arena.t("attacked") : ""].filter(Boolean);
    const traits = a.traits.map(([card, trait]) => kit.target(`trait:${card}`, {
      tag: "span", cls: `ev-trait ev-trait-${trait}`, title: traitText(components, trait),
    }, traitName(components, trait)));
    const paired = pairs.filter((p) => p[2] === a.id || p[3] === a.id).map(([card, trait, x, y]) => kit.target(`pair:${card}`, {
      tag: "span", cls: `ev-trait ev-paired ev-trait-${trait}`, title: traitText(components, trait),
    }, Arena.t("{trait} with {animal}", { trait: traitName(components, trait), animal: animalName(x === a.id ? y : x) })));
    const fat = a.fat_capacity ? kit.target(`fat:${a.id}`, { cls: "ev-fat" },
      tokens(a.fat, "ev-token-fat", a.fat_capacity), " ", Arena.t("fat {fat}/{capacity}", { fat: a.fat, capacity: a.fat_capacity })) : null;
    const own = a.card !== undefined && components && components.get(`card:${a.card}`);
    return el("div", { class: cls, dataset: { animal: a.id } },
      el("div", { class: "ev-animal-head" },
        kit.target(`animal:${a.id}`, { cls: "ev-animal-name" }, animalName(a.id)),
        states.length ? el("span", { class: "ev-states" }, states.join(" · ")) : null),
      el("div", { class: "ev-needs" }, tokens(a.food, "ev-token-food", Math.max(a.requirement, a.food)), " ",
        Arena.t("food {food}/{need}", { food: a.food, need: a.requirement }), fat ? " " : "", fat),
      el("div", { class: "chips ev-traits" }, traits.length || paired.length ? [...traits, ...paired]
        : el("span", { class: "muted" }, Arena.t("no trait"))),
      own ? el("p", { class: "ev-own muted" }, Arena.t("Its card, face down: {card}", { card: own.name })) : null);
  }

  // A player's animals in a column; each paired trait a bracket in a lane on the left that
  // joins its two animals (lanes so that brackets never overlap).
  function animals(kit, view, components, seat) {
    const own = view.animals.filter((a) => a.owner === seat);
    const row = new Map(own.map((a, i) => [a.id, i]));
    const pairs = view.pairs.filter(([, , x, y]) => row.has(x) && row.has(y));
    const lanes = [];  // per lane, the last row it is busy to
    const spans = pairs.map((pair) => {
      const [from, to] = [row.get(pair[2]), row.get(pair[3])].sort((p, q) => p - q);
      return { pair, from, to };
    }).sort((p, q) => p.from - q.from || p.to - q.to);
    const placed = spans.map(({ pair, from, to }) => {
      let lane = lanes.findIndex((end) => end < from);
      if (lane < 0) { lane = lanes.length; lanes.push(to); } else lanes[lane] = to;
      return { pair, from, to, lane };
    });
    const box = el("div", { class: "ev-animals", style: `grid-template-columns: repeat(${lanes.length}, 1.6rem) minmax(0, 1fr)` },
      own.map((a, i) => { const node = animal(kit, view, components, a, pairs); node.style.gridRow = `${i + 1}`; node.style.gridColumn = `${lanes.length + 1}`; return node; }),
      placed.map(({ pair, from, to, lane }) => el("div", {
        class: `ev-link ev-trait-${pair[1]}`, "aria-hidden": "true",
        style: `grid-row: ${from + 1} / ${to + 2}; grid-column: ${lane + 1}`,
      }, el("span", { class: "ev-link-name" }, traitName(components, pair[1])))));
    if (!own.length) box.append(el("p", { class: "muted" }, Arena.t("No animal.")));
    return box;
  }

  function attackPanel(view, match, play, components) {
    const p = view.pending;
    const byId = new Map(view.animals.map((a) => [a.id, a]));
    const owner = (id) => (byId.has(id) ? match.seats[byId.get(id).owner].name : "?");
    const defences = (play && play.moves ? play.moves.moves : []).map((m) => m.move).filter((m) => m.type === "defend");
    const options = defences.map((m) => (m.trait === "tail_loss"
      ? Arena.t("drop a trait ({trait})", { trait: traitName(components, "tail_loss") })
      : m.trait === "mimicry" ? Arena.t("{trait}: pass the attack to another animal", { trait: traitName(components, "mimicry") })
        : traitName(components, m.trait)));
    const target = byId.get(p.target);
    return el("section", { class: "ev-attack", role: "group", "aria-label": Arena.t("Pending attack") },
      el("p", {}, el("strong", {}, Arena.t("Attack!")), " ",
        Arena.t("{carnivore} of {attacker} attacks {target} of {defender}.", {
          carnivore: animalName(p.carnivore), attacker: owner(p.carnivore),
          target: animalName(p.target), defender: owner(p.target) })),
      defences.length ? el("p", {}, Arena.t("Your defence: {options}. Touch the highlighted trait of {target}, or let the attack go ahead.",
        { options: [...new Set(options)].join(", "), target: animalName(p.target) }))
        : el("p", { class: "muted" }, target && view.to_move.includes(target.owner)
          ? Arena.t("{defender} chooses a defence.", { defender: owner(p.target) }) : ""),
      p.mimicry_used ? el("p", { class: "muted" }, Arena.t("Mimicry was used.")) : null);
  }

  function chainPanel(view, match) {
    const c = view.chain;
    const says = [Arena.t("{who} hands food on.", { who: match.seats[c.seat].name })];
    if (c.offer) says.push(Arena.t("Store the food of {animal} as fat? Touch its fat, or skip.", { animal: animalName(c.offer[0]) }));
    if (c.scavengers) says.push(Arena.t("Which Scavenger eats? Touch it."));
    return el("section", { class: "ev-chain", role: "group", "aria-label": Arena.t("Food handed on") }, el("p", {}, says.join(" ")));
  }

  function draw(view, match, play) {
    const seat = view.seat;
    const kit = EvoTouch.kit(`evolution:${match.id}:${seat}`, play, pather(view), () => draw(view, match, play));
    const components = (play && play.components) || new Map();
    const describe = (key) => {
      const [kind, value] = key.split(":");
      if (kind === "card") return components.has(key) ? components.get(key).name : key;
      if (kind === "animal") return animalName(value);
      if (kind === "bank") return Arena.t("the food bank");
      if (kind === "fat") return Arena.t("fat of {animal}", { animal: animalName(value) });
      const carried = view.animals.flatMap((a) => a.traits).find(([card]) => String(card) === value)
        || view.pairs.find(([card]) => String(card) === value);
      return carried ? traitName(components, carried[1]) : key;
    };
    const phase = view.phase === "development" ? Arena.t("development") : view.phase === "feeding" ? Arena.t("feeding") : Arena.t("over");
    const status = el("p", { class: "ev-status" }, Arena.t("Round {round} · {phase} · deck {deck}", { round: view.round, phase, deck: view.deck_size }),
      view.last_round ? Arena.t(" · last round") : "",
      view.dice.length ? Arena.t(" · dice {dice}", { dice: view.dice.join(" + ") }) : "");
    const bank = kit.target("bank", { cls: "ev-bank", label: kit.can("bank") ? Arena.t("(take a food token)") : "" },
      el("span", { class: "ev-bank-name" }, components.has("table:food_bank") ? components.get("table:food_bank").name : Arena.t("Food bank")),
      " ", tokens(view.bank, "ev-token-food"), " ", Arena.t("{count} food", { count: view.bank }));
    const hand = Array.isArray(view.hand) ? el("section", { class: "ev-hand-box" },
      el("h3", {}, Arena.t("Your hand")),
      el("div", { class: "ev-hand", role: "group", "aria-label": Arena.t("Your hand") },
        view.hand.length ? view.hand.map((card) => handCard(kit, components, card)) : el("span", { class: "muted" }, Arena.t("Empty."))))
      : null;
    const players = el("div", { class: "players ev-players" }, match.seats.map((s) => el("div", { class: "player ev-player" },
      el("h3", {}, s.name, s.seat === seat ? Arena.t(" (you)") : "", view.to_move.includes(s.seat) ? Arena.t(" · to move") : "",
        view.passed[s.seat] ? Arena.t(" · passed") : ""),
      el("p", { class: "muted" }, Arena.t("{hand} cards in hand · {discard} discarded", {
        hand: view.hand_sizes[s.seat], discard: view.discard_sizes[s.seat] })),
      animals(kit, view, components, s.seat),
      s.seat === seat && kit.can("new-animal") ? kit.target("new-animal", { cls: "ev-new-animal" }, Arena.t("+ New animal")) : null)));
    return kit.root(el("div", { class: "ev-board" }, status, el("div", { class: "ev-table" }, bank),
      view.pending ? attackPanel(view, match, play, components) : null,
      view.chain ? chainPanel(view, match) : null,
      hand, kit.panel(describe), players));
  }

  // Words for a screen reader about another seat's action (the match page's announcements).
  draw.describe = (event, match, components) => {
    const who = (s) => Arena.seatName(match, s);
    const trait = (t) => traitName(components, t);
    switch (event.type) {
      case "animal_played": return event.card === undefined ? Arena.t("{who} played a new animal.", { who: who(event.seat) }) : null;
      case "trait_played": return Arena.t("{who} played {trait} on {animal}.", { who: who(event.seat), trait: trait(event.trait), animal: animalName(event.animal) });
      case "pair_played": return Arena.t("{who} played {trait} joining {a} and {b}.", {
        who: who(event.seat), trait: trait(event.trait), a: animalName(event.animals[0]), b: animalName(event.animals[1]) });
      case "passed": return Arena.t("{who} passed.", { who: who(event.seat) });
      case "turn_ended": return Arena.t("{who} ended the turn.", { who: who(event.seat) });
      case "food": return event.token === "red"
        ? Arena.t("{animal} of {who} got a red food token.", { animal: animalName(event.animal), who: who(event.seat) })
        : Arena.t("{animal} of {who} got a blue food token.", { animal: animalName(event.animal), who: who(event.seat) });
      case "food_bank": return Arena.t("The food bank holds {bank} food.", { bank: event.bank });
      case "attack": return Arena.t("{animal} of {who} attacks {target} of {defender}.", {
        animal: animalName(event.carnivore), who: who(event.seat), target: animalName(event.target), defender: who(event.target_seat) });
      case "defence_declined": return Arena.t("{who} let the attack go ahead.", { who: who(event.seat) });
      case "running": return event.escaped ? Arena.t("{animal} ran away.", { animal: animalName(event.animal) })
        : Arena.t("{animal} failed to run away.", { animal: animalName(event.animal) });
      case "mimicry": return Arena.t("{animal} passed the attack to {other}.", { animal: animalName(event.animal), other: animalName(event.redirected_to) });
      case "tail_loss": return Arena.t("{animal} dropped {trait} and escaped.", { animal: animalName(event.animal), trait: trait(event.trait) });
      case "animal_died": return Arena.t("{animal} of {who} died.", { animal: animalName(event.animal), who: who(event.seat) });
      case "fat_burned": return Arena.t("{who} burned fat of {animal}.", { who: who(event.seat), animal: animalName(event.animal) });
      case "round_started": return Arena.t("Round {round} begins.", { round: event.round });
      default: return null;
    }
  };

  window.EvoBoards.evolution = draw;
})();
