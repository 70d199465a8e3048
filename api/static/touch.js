// Touch play on a game's board: a move is made by touching the things it names, in order (a
// card, then a place). A board gives each legal move its paths of touch keys, built from the
// move's structured data (never from its label); the kit highlights what may be touched
// next, plays the move once a path is complete, and asks which one when several moves end on
// the same path (a two-trait card played on an animal: as which trait?). Moves without a
// path (pass, end the turn…) become buttons of the kit's panel. The selection survives the
// page's redraws while the seat's moves stay the same.
"use strict";

window.EvoTouch = (function touchKit() {
  const sessions = {};  // per board scope: { ids, selected, choosing, busy }

  function startsWith(path, prefix) {
    return prefix.every((key, i) => path[i] === key);
  }

  function unique(moves) {
    return [...new Map(moves.map((move) => [move.id, move])).values()];
  }

  // Tell a screen reader (the match page's polite live region), if the page has one.
  function say(text) {
    const region = document.getElementById("announce");
    if (region && text) region.textContent = text;
  }

  // One drawing's kit. `scope` names the board (game, match, seat); `play` is the page's
  // {moves, choose} (null or without moves for a spectator); `pathsOf(move)` lists the move's
  // paths (arrays of keys; none: a panel button); `redraw()` draws the board again.
  function kit(scope, play, pathsOf, redraw) {
    const moves = play && play.moves ? play.moves.moves : [];
    const entries = [];
    const actions = [];
    for (const move of moves) {
      const paths = pathsOf(move.move) || [];
      if (!paths.length) actions.push(move);
      for (const path of paths) entries.push({ move, path });
    }
    const ids = moves.map((move) => move.id).join("\n");
    let state = sessions[scope];
    if (!state || state.ids !== ids) {
      const kept = state ? state.selected : [];
      state = { ids, selected: [], choosing: null, busy: false };
      // Other seats' news redraws the board: a selection still leading somewhere stays.
      if (kept.length && entries.some((e) => e.path.length > kept.length && startsWith(e.path, kept))) {
        state.selected = kept;
      }
      sessions[scope] = state;
    }
    const live = entries.filter((e) => startsWith(e.path, state.selected));
    const next = new Set(live.filter((e) => e.path.length > state.selected.length)
      .map((e) => e.path[state.selected.length]));
    let root = null;

    function again(focusKey) {
      if (!root || !root.isConnected) return;
      const fresh = redraw();
      root.replaceWith(fresh);
      const first = (selector) => fresh.querySelector(selector);
      const target = (state.choosing && first(".touch-choice"))
        || (focusKey && first(`[data-focus-key="${CSS.escape(focusKey)}"]:not([disabled])`))
        || first("button.touch-can") || first("button:not([disabled])");
      if (target) target.focus();
    }

    function choose(move) {
      state.busy = true;
      state.selected = [];
      state.choosing = null;
      if (root) root.querySelectorAll("button").forEach((b) => { b.disabled = true; });
      Promise.resolve(play.choose(move.id)).finally(() => { state.busy = false; });
    }

    function touch(key) {
      if (state.busy) return;
      const at = state.selected.indexOf(key);
      if (at >= 0) {  // touching a chosen thing again takes it (and what followed) back
        state.selected = state.selected.slice(0, at);
        state.choosing = null;
        say(Arena.t("Selection taken back."));
        again(`touch:${key}`);
        return;
      }
      const chosen = [...state.selected, key];
      const reach = entries.filter((e) => startsWith(e.path, chosen));
      if (!reach.length) return;
      const done = unique(reach.filter((e) => e.path.length === chosen.length).map((e) => e.move));
      const longer = reach.some((e) => e.path.length > chosen.length);
      if (!longer && done.length === 1) {
        choose(done[0]);
        return;
      }
      state.selected = chosen;
      state.choosing = done.length ? done : null;
      say(state.choosing ? Arena.t("Choose one of {count} moves.", { count: done.length })
        : Arena.t("Selected. Now touch one of the highlighted places."));
      again(`touch:${key}`);
    }

    const api = {
      active: moves.length > 0,
      selected: state.selected.slice(),
      can: (key) => next.has(key),
      isSelected: (key) => state.selected.includes(key),

      // A thing of the board: a button while it may be touched (or is chosen), else a plain
      // element (`tag`). `label`: words for a screen reader added to what it shows.
      target(key, { tag = "div", cls = "", label = "", title = "", style = "" } = {}, ...children) {
        const chosen = api.isSelected(key);
        const can = next.has(key);
        const extra = label ? Arena.el("span", { class: "visually-hidden" }, ` ${label}`) : null;
        const attrs = { class: `${cls} touch-target`.trim(), dataset: { touch: key } };
        if (title) attrs.title = title;
        if (style) attrs.style = style;
        if (!chosen && !can) return Arena.el(tag, attrs, children.flat(Infinity), extra);
        attrs.class += chosen ? " touch-selected" : " touch-can";
        Object.assign(attrs, { type: "button", "aria-pressed": chosen ? "true" : "false",
          dataset: { touch: key, focusKey: `touch:${key}` }, onclick: () => touch(key) });
        return Arena.el("button", attrs, children.flat(Infinity), extra);
      },

      // The panel: what is chosen (words from `describe(key)`), the moves to choose between,
      // the moves without a path, and a way to take the selection back.
      panel(describe = (key) => key) {
        const parts = [];
        if (state.selected.length) {
          parts.push(Arena.el("p", { class: "touch-chosen" },
            Arena.t("Chosen: {things}.", { things: state.selected.map(describe).join(" → ") }), " ",
            state.choosing ? Arena.t("Which move?") : Arena.t("Now touch a highlighted place."), " ",
            Arena.el("button", { type: "button", class: "touch-cancel", dataset: { focusKey: "touch:cancel" },
              onclick: () => { state.selected = []; state.choosing = null; again(); } }, Arena.t("Cancel"))));
        }
        if (state.choosing) {
          parts.push(Arena.el("div", { class: "touch-choices", role: "group", "aria-label": Arena.t("Which move?") },
            state.choosing.map((move) => Arena.el("button", { type: "button", class: "touch-choice",
              dataset: { focusKey: `choose:${move.id}` }, onclick: () => choose(move) }, move.label))));
        }
        if (actions.length) {
          parts.push(Arena.el("div", { class: "touch-actions" }, actions.map((move) => Arena.el("button", {
            type: "button", class: "touch-action", dataset: { focusKey: `action:${move.id}` },
            onclick: () => { if (!state.busy) choose(move); } }, move.label))));
        }
        return parts.length ? Arena.el("div", { class: "touch-panel" }, parts) : null;
      },

      // The board's outermost element, replaced in place when the selection changes.
      root(node) {
        root = node;
        return node;
      },
    };
    return api;
  }

  return { kit, say };
})();
