// Evo Arena pages: shared helpers (API calls, seat tokens kept in this browser, elements).
"use strict";

const Arena = {
  // ``retry``: send the request again, with one Idempotency-Key, when its answer is lost on
  // the way (a phone between networks) or the first is still being handled (409 with
  // Retry-After): creating a match or joining a seat then never makes a second one.
  async api(method, path, { token, body, retry = false } = {}) {
    // The page's language (docs/languages.md): move labels and errors' details come in it.
    const headers = { Accept: "application/json", "Accept-Language": Arena.lang() };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (retry) {  // getRandomValues, not randomUUID: the latter needs HTTPS off localhost
      headers["Idempotency-Key"] = Array.from(crypto.getRandomValues(new Uint8Array(16)),
        (byte) => byte.toString(16).padStart(2, "0")).join("");
    }
    const send = () => fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    let response;
    for (let attempt = 0; ; attempt++) {
      const last = !retry || attempt >= 3;
      try {
        response = await send();
      } catch (lost) {
        if (last) throw lost;
        await new Promise((resolve) => { setTimeout(resolve, 500 * (attempt + 1)); });
        continue;
      }
      if (last || response.status !== 409 || !response.headers.get("Retry-After")) break;
      await new Promise((resolve) => { setTimeout(resolve, 1000); });
    }
    const data = response.status === 204 ? null : await response.json();
    if (!response.ok) {
      const error = new Error((data && data.detail) || `HTTP ${response.status}`);
      error.status = response.status;
      error.problem = data;
      throw error;
    }
    return data;
  },

  // A seat of ``match`` as people know it: its name (boards' words for their events).
  seatName(match, seat) {
    return match.seats[seat] ? match.seats[seat].name : Arena.t("Seat {seat}", { seat });
  },

  // Seat tokens are shown once, at creation or join: this browser keeps them per match.
  tokens(matchId) {
    try {
      return JSON.parse(localStorage.getItem(`evo:tokens:${matchId}`) || "{}");
    } catch {
      return {};
    }
  },
  saveToken(matchId, seat, token) {
    const all = Arena.tokens(matchId);
    all[seat] = token;
    localStorage.setItem(`evo:tokens:${matchId}`, JSON.stringify(all));
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  // A page string in the page's language: the English text is the message id; the server puts
  // the page's catalogue in window.EVO_MESSAGES. `{name}` placeholders are filled from params.
  t(text, params = {}) {
    const messages = window.EVO_MESSAGES || {};
    const template = messages[text] || text;
    return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
  },

  title(text) {
    return String(text).replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  },

  // A game's name (the catalogue's `name`) by its id, as the page was given them.
  gameName(id) {
    return (window.EVO_GAMES || {})[id] || Arena.title(id);
  },
};

// Board renderers: a game's own (loaded from /boards/<game>.js) registers here.
window.EvoBoards = window.EvoBoards || {};

// A game's board renderer, loaded once per page: its own if it ships one, else `fallback`;
// with it the game's stylesheet (/boards/<game>.css, beside its board.js), loaded before the
// renderer is handed out so that no board is drawn unstyled (a game without one: no wait).
Arena.boards = {};
Arena.board = function board(game, fallback) {
  if (!Arena.boards[game]) {
    const base = `/boards/${encodeURIComponent(game)}`;
    const styled = new Promise((resolve) => {
      const link = Arena.el("link", { rel: "stylesheet", href: `${base}.css` });
      link.onload = link.onerror = () => resolve();
      document.head.append(link);
    });
    const renderer = window.EvoBoards[game] ? Promise.resolve(window.EvoBoards[game])
      : new Promise((resolve) => {
        const script = Arena.el("script", { src: `${base}.js` });
        script.onload = () => resolve(window.EvoBoards[game] || fallback);
        script.onerror = () => resolve(fallback);
        document.head.append(script);
      });
    Arena.boards[game] = Promise.all([renderer, styled]).then(([found]) => found);
  }
  return Arena.boards[game];
};

// A game's component catalogue (names, texts, numbers) as a Map of id -> component, fetched
// once per page (an empty Map if it cannot be had: the boards then show ids).
Arena.catalogues = {};
Arena.catalogue = function catalogue(game) {
  if (!Arena.catalogues[game]) {
    Arena.catalogues[game] = Arena.api("GET", `/v1/games/${encodeURIComponent(game)}/components`)
      .then((body) => new Map(body.components.map((component) => [component.id, component])))
      .catch(() => new Map());
  }
  return Arena.catalogues[game];
};

// The page's language (docs/languages.md), as the server chose it; language.js remembers a
// person's pick.
Arena.lang = () => document.documentElement.lang || "en";
// -- Playing by touch (boards) --------------------------------------------------------------
// A board names, per legal move, the things a person touches to make it: `keys` (ids the board
// gives its touchable elements), in order (a card, then a place), or as a set (`set: true`:
// the cards of a combination, then a confirming button). The picker keeps what was touched
// across redraws of the same moves, says what may be touched next, and plays a move once it is
// named; several moves that fit what was touched are offered as buttons with their labels.
Arena.picker = function picker(play, specOf, redraw) {
  const moves = play && play.moves ? play.moves.moves : [];
  // Keyed by the moves, not the version: another seat's move that leaves them as they were
  // (a hidden pick) keeps what the person touched.
  const id = moves.map((m) => m.id).join(",");
  const kept = Arena.picker.kept;
  if (kept.id !== id) Object.assign(kept, { id, sel: [], offer: null, focus: null });
  const specs = moves.map((move) => ({ move, ...specOf(move.move) }))
    .filter((s) => Array.isArray(s.keys));
  const fitting = (sel) => specs.filter((s) => (s.set
    ? sel.every((k) => s.keys.includes(k))
    : sel.every((k, i) => s.keys[i] === k)));
  const fits = () => fitting(kept.sel);
  const pk = {
    sel: () => kept.sel,
    active: moves.length > 0,
    picked: (key) => kept.sel.includes(key),
    // Touchable next: what continues the touches so far, or starts a move afresh.
    can(key) {
      return fitting([...kept.sel, key]).length > 0 || fitting([key]).length > 0;
    },
    tap(key) {
      kept.offer = null;
      kept.focus = key;
      if (kept.sel.includes(key)) {
        kept.sel = kept.sel.filter((k) => k !== key);  // touched again: let go of it
      } else {
        kept.sel = fitting([...kept.sel, key]).length ? [...kept.sel, key] : [key];
        const now = fits();
        const done = now.filter((s) => !s.set && s.keys.length === kept.sel.length);
        if (done.length && now.every((s) => !s.set && s.keys.length === kept.sel.length)) {
          if (done.length === 1) { pk.choose(done[0].move.id); return; }
          kept.offer = done;
        }
      }
      redraw();
    },
    choose(moveId) {
      Object.assign(kept, { sel: [], offer: null, focus: null });
      play.choose(moveId);
    },
    // A touchable element: a button while it may be touched (or was), else a plain element.
    touch(key, tag, attrs, ...children) {
      const live = pk.active && (pk.can(key) || pk.picked(key));
      const cls = [attrs.class || "", live ? "can" : "", pk.picked(key) ? "picked" : ""].join(" ");
      if (!live) return Arena.el(tag, { ...attrs, class: cls, "data-key": key }, ...children);
      return Arena.el("button", { ...attrs, type: "button", class: cls, "data-key": key,
        "aria-pressed": String(pk.picked(key)), onclick: () => pk.tap(key) }, ...children);
    },
    // What to press now: the set that was touched, moves to tell apart, moves that name
    // nothing to touch, and a way to start over.
    controls(confirmText) {
      const now = fits();
      const exact = now.filter((s) => s.set && s.keys.length === kept.sel.length);
      const plain = kept.sel.length ? [] : specs.filter((s) => !s.set && !s.keys.length);
      const offer = kept.offer || [];
      const button = (s, text, cls) => Arena.el("button", { type: "button", class: cls,
        "data-move": s.move.id, onclick: () => pk.choose(s.move.id) }, text);
      const out = [];
      if (exact.length === 1) out.push(button(exact[0], confirmText(exact[0].move.move, kept.sel.length), "touch-go"));
      else if (exact.length > 1) out.push(...exact.map((s) => button(s, s.move.label, "touch-go")));
      out.push(...offer.map((s) => button(s, s.move.label, "touch-go")));
      out.push(...plain.map((s) => button(s, s.move.label, "touch-plain")));
      if (kept.sel.length) {
        out.push(Arena.el("button", { type: "button", class: "touch-clear", onclick: () => {
          Object.assign(kept, { sel: [], offer: null, focus: null });
          redraw();
        } }, Arena.t("Start over")));
      }
      return Arena.el("div", { class: "touch-bar", role: "group", "aria-label": Arena.t("Your move") }, out);
    },
    // After a redraw: focus back on what was touched, or the first thing to touch now.
    refocus(root) {
      if (!kept.focus) return;
      const again = root.querySelector(`button[data-key="${CSS.escape(kept.focus)}"]`)
        || root.querySelector(".touch-bar button.touch-go") || root.querySelector("button.can");
      if (again) again.focus();
    },
  };
  return pk;
};
Arena.picker.kept = { id: null, sel: [], offer: null, focus: null };
