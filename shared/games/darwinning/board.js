// Darwinning! — the era's environments, the food chain, the trick on the table, every species
// board and the hand as cards, drawn from the view and the component catalogue. A person plays
// by touching: cards of the hand (a combination, confirmed), a trick card and then the place on
// the species board it goes to, a species to eat… (Arena.picker); the page's list of moves
// stays the accessible alternative.
"use strict";

(function register() {
  const { el, t } = Arena;
  // Each word in a call of its own, so that the message extractor finds it.
  const RANKS = [t("single"), t("pair"), t("flush"), t("straight"), t("three of a kind"),
    t("straight flush"), t("four of a kind")];
  const SUITS = [t("acorn"), t("blueberry"), t("flower")];  // a joker's named colour, by index
  const SUIT_NAMES = { acorn: SUITS[0], blueberry: SUITS[1], flower: SUITS[2] };  // a card's colour

  // -- what a move names: the keys of the board elements a person touches ------------------
  function specOf(view, me) {
    const cards = (list) => list.map((c) => `card:${c}`);
    const place = (seat, m) => ({
      chain: `chain:${seat}`, chain_down: `chaindown:${seat}`, eggs: `pop:${seat}`,
      environment: `envs:${seat}`, ability: `slot:${seat}:${m.slot}`,
    }[m.use]);
    return (m) => {
      switch (m.type) {
        case "play": return { set: true, keys: cards([...m.cards, ...(m.dummy || [])]) };
        case "announce": return { set: true, keys: cards(m.dummy) };
        case "discard": case "keep": return { set: true, keys: cards(m.cards) };
        case "lead": return { keys: [`species:${m.seat}`] };
        case "upgrade": return { keys: [`card:${m.card}`, place(me, m)] };
        case "pick": {
          const target = view.queue.length ? view.queue[0].target : me;
          return { keys: [`card:${m.card}`, place(target, m)] };
        }
        case "steal": return { keys: [`card:${m.card}`] };
        case "metamorphosis": return { keys: [`slot:${me}:${m.slot}`] };
        case "symbiosis": return { keys: [`env:${m.environment}`] };
        case "eat": return { keys: [`species:${m.target}`] };
        default: return { keys: [] };  // no_upgrade, no_pick, no_steal, stop_eating
      }
    };
  }

  function confirmText(move, count) {
    if (move.type === "play") return count === 1 ? t("Play this card") : t("Play these {n} cards", { n: count });
    if (move.type === "announce") return count ? t("Add {n} of the dummy's cards", { n: count }) : t("Add no dummy card");
    if (move.type === "discard") return count ? t("Discard {n} cards face down", { n: count }) : t("Discard nothing");
    return count ? t("Keep {n} cards for the next era", { n: count }) : t("Keep no card");
  }

  function advice(moves) {
    const texts = {
      play: t("Touch cards of your hand to make a combination, then play them."),
      announce: t("Touch the dummy's cards to add to your play, then confirm."),
      discard: t("Touch up to two cards to discard face down, then confirm."),
      keep: t("Touch up to two cards to keep for the next era, then confirm."),
      lead: t("Touch the species that leads the first trick."),
      upgrade: t("Touch a card you played, then where it goes on your species board."),
      pick: t("Touch a card of the discard pile, then where it goes on the species board."),
      steal: t("Touch the ability card to steal."),
      metamorphosis: t("Touch the ability place for the drawn card."),
      symbiosis: t("Touch the environment to live in this era."),
      eat: t("Touch a species to eat it."),
    };
    const first = moves.find((m) => texts[m.move.type]);
    return first ? texts[first.move.type] : "";
  }

  function phaseText(view) {
    return {
      discard: t("secret discards"), lead: t("choosing who leads"), trick: t("trick play"),
      announce: t("announcing the dummy's cards"), keep: t("keeping cards"),
      survival: t("survival"), over: t("over"),
    }[view.phase] || view.phase;
  }

  // -- the pieces -------------------------------------------------------------------------
  function drawer(view, match, play, pk) {
    const comps = play.components || new Map();
    const name = (id, fallback) => (comps.get(id) ? comps.get(id).name : fallback);
    const envIds = new Map();  // environment id ("desert") -> its index, from the catalogue
    for (const c of comps.values()) if (c.category === "environment") envIds.set(c.icons[0], c.key);
    const envName = (index) => name(`environment:${index}`, `#${index}`);
    const seatName = (s) => (s === "dummy" ? t("Dummy") : match.seats[s] ? match.seats[s].name : `#${s}`);
    const speciesName = (s) => name(`species:${view.boards[s].species}`, view.boards[s].species);

    function upgradeOf(c) {
      if (!c) return "";
      const n = c.numbers;
      if (c.icons[0] === "chain") return t("food chain +{n}", { n: n.chain });
      if (c.icons[0] === "eggs") return t("+{n} population", { n: n.eggs });
      if (c.icons[0] === "environment") return envName(envIds.get(c.icons[1]));
      return "";
    }

    function card(id, extra = "") {
      const c = comps.get(`card:${id}`);
      const joker = !c || c.icons[0] === "joker";
      const ability = c && c.parts.length ? name(c.parts[0], "") : "";
      return pk.touch(`card:${id}`, "span", {
        class: `dw-card dw-${joker ? "joker" : c.colour} ${extra}`, title: c ? c.text : "",
      },
      el("span", { class: "dw-value" }, c ? c.numbers.value : "?"),
      el("span", { class: "dw-suit" }, joker ? t("joker") : SUIT_NAMES[c.colour] || c.colour),
      ability ? el("span", { class: "dw-ability" }, ability) : null,
      upgradeOf(c) ? el("span", { class: "dw-upgrade" }, upgradeOf(c)) : null);
    }
    const cards = (list, extra) => el("div", { class: "dw-cards" },
      list.length ? list.map((c) => card(c, extra)) : el("span", { class: "muted" }, t("none")));

    function environments() {
      return el("div", { class: "dw-envs" }, el("h3", {}, t("Environments of era {era}", { era: view.era })),
        el("div", { class: "chips" }, view.envs.map((i) => {
          const id = comps.get(`environment:${i}`) ? comps.get(`environment:${i}`).icons[0] : String(i);
          return pk.touch(`env:${id}`, "span", { class: "chip dw-env" }, envName(i));
        })));
    }

    function foodChain() {
      const at = view.boards.map((b, s) => ({ pos: b.position, who: s }));
      if (view.dummy_pos !== null && view.dummy_pos !== undefined) at.push({ pos: view.dummy_pos, who: "dummy" });
      at.sort((a, b) => a.pos - b.pos);
      return el("div", { class: "dw-chain" }, el("h3", {}, t("Food chain (low to high)")),
        el("ol", { class: "dw-track" }, at.map((a) => el("li", { class: a.who === view.seat ? "me" : "" },
          el("span", { class: "dw-pos" }, a.pos), " ",
          a.who === "dummy" ? t("Dummy") : `${speciesName(a.who)} · ${seatName(a.who)}`))));
    }

    function trick() {
      if (!view.trick.length) return null;
      return el("div", { class: "dw-trick" }, el("h3", {}, t("The trick on the table")),
        view.trick.map((p, i) => el("div", { class: `dw-play${i === view.best ? " dw-best" : ""}` },
          el("p", {}, el("strong", {}, seatName(p.seat)),
            p.rank === null ? ` · ${t("dummy cards not announced yet")}`
              : ` · ${RANKS[p.rank]}, ${t("sum {sum}", { sum: p.sum })}`,
            p.jokers.length ? ` · ${t("joker as")} ${p.jokers.map((j) => SUITS[j]).join(", ")}` : "",
            i === view.best ? ` · ${t("best so far")}` : ""),
          cards([...p.cards, ...p.dummy]))));
    }

    function dummy() {
      if (view.players !== 2) return null;
      return el("div", { class: "dw-dummy" },
        pk.touch("species:dummy", "div", { class: "dw-head" },
          el("h3", {}, t("Dummy"), view.dummy_pos === null ? "" : ` · ${t("food chain {n}", { n: view.dummy_pos })}`)),
        cards(view.dummy_cards));
    }

    function slot(s, k, entry) {
      const zero = k === view.boards[s].slots.length - 1;  // the last place: the zero-point box
      const where = zero ? t("0-point box") : t("place {n}", { n: k + 1 });
      let what = el("span", { class: "muted" }, t("empty"));
      if (entry !== null && entry < 0) what = el("span", {}, name(`ability:${-entry}`, -entry), " ", el("small", {}, t("(printed)")));
      else if (entry !== null) what = card(entry, "dw-mini");
      return pk.touch(`slot:${s}:${k}`, "div", { class: "dw-slot" }, el("span", { class: "dw-where" }, where), what);
    }

    function board(b, s) {
      const species = comps.get(`species:${b.species}`);
      const printed = species ? Object.entries(species.numbers).filter(([k]) => envIds.has(k.slice(5)))
        .map(([k, food]) => `${envName(envIds.get(k.slice(5)))} ${food}`) : [];
      const adapted = b.adapted.map((c) => upgradeOf(comps.get(`card:${c}`)));
      const stat = (key, label, value) => pk.touch(key, "span", { class: "dw-stat" }, `${label} `, el("strong", {}, value));
      const down = pk.can(`chaindown:${s}`) ? stat(`chaindown:${s}`, t("Down the food chain"), "↓") : null;
      return el("div", { class: `player dw-board${s === view.seat ? " dw-mine" : ""}` },
        pk.touch(`species:${s}`, "div", { class: "dw-head" },
          el("h3", {}, speciesName(s), " · ", seatName(s), s === view.seat ? ` (${t("you")})` : "",
            match.to_move.includes(s) ? ` · ${t("to move")}` : "")),
        el("div", { class: "dw-stats" },
          stat(`chain:${s}`, t("Food chain"), b.position), down,
          stat(`pop:${s}`, t("Population"), b.population),
          el("span", { class: "dw-stat" }, `${t("Bites")} `, el("strong", {}, b.bites))),
        pk.touch(`envs:${s}`, "div", { class: "dw-stat dw-lives" }, `${t("Lives in")}: `,
          [...printed, ...adapted].join(", ") || t("none")),
        el("div", { class: "dw-slots" }, b.slots.map((entry, k) => slot(s, k, entry))),
        b.stolen === null ? null : el("div", { class: "dw-stolen" }, `${t("On Mutation")}: `, card(b.stolen, "dw-mini")),
        el("p", { class: "muted" }, t("Cards played this era: {n}", { n: view.played[s] }),
          b.chain.length ? ` · ${t("food-chain cards: {n}", { n: b.chain.length })}` : "",
          b.eggs.length ? ` · ${t("egg cards: {n}", { n: b.eggs.length })}` : ""));
    }

    function hand() {
      if (!Array.isArray(view.hand)) return null;
      return el("div", { class: "dw-hand" }, el("h3", {}, t("Your hand ({n})", { n: view.hand.length })),
        cards(view.hand),
        view.hidden.length ? el("p", { class: "muted" }, t("Face down by you: {n}", { n: view.hidden.length })) : null);
    }

    function discard() {
      const open = play.moves && play.moves.moves.some((m) => m.move.type === "pick");
      return el("details", { class: "dw-discard", ...(open ? { open: "" } : {}) },
        el("summary", {}, t("Discard pile, face up ({n})", { n: view.discard.length })),
        cards(view.discard));
    }

    function survival() {
      if (view.phase !== "survival" && !view.eats.length) return null;
      const ate = view.eats.map(([who, target]) => `${seatName(who === -1 ? "dummy" : who)} → ${seatName(target === -1 ? "dummy" : target)}`);
      return el("p", { class: "dw-survival" }, el("strong", {}, t("Survival")), ": ",
        ate.length ? ate.join(", ") : t("nobody has eaten yet"),
        view.symbiosis.map(([s, e]) => ` · ${seatName(s)}: ${t("Symbiosis")} ${envName(e)}`));
    }

    return { environments, foodChain, trick, dummy, board, hand, discard, survival };
  }

  window.EvoBoards.darwinning = (view, match, play) => {
    const root = el("div", { class: "dw picker-board" });
    const me = view.seat;
    const draw = () => {
      const pk = Arena.picker(play, specOf(view, me), draw);
      const d = drawer(view, match, play, pk);
      const moves = play.moves ? play.moves.moves : [];
      const mine = me === null || me === undefined ? [] : [d.board(view.boards[me], me)];
      const others = view.boards.map((b, s) => (s === me ? null : d.board(b, s)));
      root.replaceChildren(...[
        el("p", { class: "dw-phase" }, t("Era {era} of {eras}", { era: view.era, eras: view.eras }),
          ` · ${phaseText(view)}`),
        moves.length ? el("div", { class: "dw-do" }, el("p", {}, advice(moves)), pk.controls(confirmText)) : null,
        d.hand(), d.trick(), d.environments(), d.foodChain(), d.survival(),
        el("div", { class: "players dw-players" }, mine, others, d.dummy()),
        d.discard()].filter(Boolean));
      pk.refocus(root);
    };
    draw();
    return root;
  };

  // Words for a screen reader about what others did and what the rules did (the match page's
  // announcements; a seat's own moves are said by their labels). A secret (a discard, the
  // cards kept, a hand) is not in another seat's events, so not in these words.
  window.EvoBoards.darwinning.describe = (event, match, comps) => {
    const who = (s) => (s === "dummy" ? t("Dummy") : Arena.seatName(match, s));
    const card = (id) => {
      const c = comps.get(`card:${id}`);
      if (!c || c.icons[0] === "joker") return t("joker");
      const ability = c.parts.length && comps.get(c.parts[0]) ? ` (${comps.get(c.parts[0]).name})` : "";
      return `${c.numbers.value} ${SUIT_NAMES[c.colour] || c.colour}${ability}`;
    };
    const environment = (id) => {
      const found = [...comps.values()].find((c) => c.category === "environment" && c.icons[0] === id);
      return found ? found.name : id;
    };
    const combo = (e) => t("{rank}, sum {sum}", { rank: RANKS[e.rank], sum: e.sum });
    const by = { who: who(event.seat) };
    switch (event.type) {
      case "leader_chosen": return t("{who} chose {leader} to lead the first trick.", { who: who(event.by), leader: who(event.leader) });
      case "era_started": return t("Era {era} begins: {environments}.", { era: event.era, environments: event.environments.map(environment).join(", ") });
      case "discarded": return event.cards ? null : t("{who} discarded {n} cards face down.", { ...by, n: event.count });
      case "kept": return event.cards ? null : t("{who} kept cards for the next era.", by);
      case "survival_started": return t("Survival begins.");
      case "metamorphosis": return event.card === null ? t("{who}'s Metamorphosis drew no card.", by)
        : t("{who}'s Metamorphosis drew {card}.", { ...by, card: card(event.card) });
      case "upgraded": {
        const used = { ...by, card: card(event.card) };
        return {
          chain: () => t("{who} moved up the food chain with {card}.", used),
          chain_down: () => t("{who} moved down the food chain with {card}.", used),
          eggs: () => t("{who} gained population with {card}.", used),
          environment: () => t("{who} adapted to a new environment with {card}.", used),
          ability: () => t("{who} took {card} as an ability.", used),
        }[event.use]?.() ?? null;
      }
      case "trick_started": return t("{who} leads the trick.", { who: who(event.leader) });
      case "played": return event.rank === null || event.rank === undefined
        ? t("{who} played {n} cards.", { ...by, n: event.cards.length })
        : t("{who} played: {combo}.", { ...by, combo: combo(event) });
      case "announced": return t("{who} added {n} of the dummy's cards: {combo}.", { ...by, n: event.dummy.length, combo: combo(event) });
      case "trick_won": return t("{who} won the trick.", by);
      case "dummy_climbed": return t("The dummy climbed to {to} on the food chain.", { to: event.to });
      case "stole": return t("{who} stole {card} from {victim}.", { ...by, card: card(event.card), victim: who(event.from) });
      case "stolen_card_discarded": return t("{who} discarded the stolen card {card}.", { ...by, card: card(event.card) });
      case "no_upgrade": return t("{who} made no upgrade.", by);
      case "no_pick": return t("{who} took nothing from the discard pile.", by);
      case "no_steal": return t("{who} stole nothing.", by);
      case "symbiosis": return t("{who} lives in {environment} this era by Symbiosis.", { ...by, environment: environment(event.environment) });
      case "ate": return t("{eater} ate {target}.", { eater: who(event.eater), target: who(event.target) });
      case "stopped_eating": return t("{who} eats no more.", by);
      case "fed": return t("{who} got {food} food; population {population}.", { ...by, food: event.food, population: event.population });
      case "bitten": return t("{who} was bitten {bites} times; population {population}.", { ...by, bites: event.bites, population: event.population });
      default: return null;
    }
  };
})();
