// The match page: draws the board from the view, follows the event stream, and lets a
// person holding a seat's token play by clicking one of the legal moves the API lists, or
// ask what the bot would play (the hint marks that move).
"use strict";

const matchId = document.body.dataset.match;
const page = {
  match: null, moves: null, seat: null, busy: false, again: false, stream: null,
  shown: null, redraw: false,  // what the page shows (version/status/seat); draw it anyway
  hint: null, asking: false,  // the hint shown or asked for: {moves, answer}; a request out
  groups: null,  // the folded move list's open sections: {moves, open} (moveList)
};

// A seat and token may come in the fragment (#seat=1&token=...): kept like a created one.
(function importFragment() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  if (params.has("token") && params.has("seat")) {
    Arena.saveToken(matchId, params.get("seat"), params.get("token"));
    history.replaceState(null, "", window.location.pathname);
  }
})();

function mySeat(match) {
  const tokens = Arena.tokens(matchId);
  const held = Object.keys(tokens).map(Number).filter((s) => s < match.seats.length);
  // Of several seats held here (a hot-seat game), play the one that owes a move.
  return held.find((s) => match.to_move.includes(s)) ?? held[0] ?? null;
}

// -- the generic board: any view JSON as nested lists and tables ---------------------------
function genericValue(value) {
  if (value === null || value === undefined) return Arena.el("span", { class: "muted" }, "—");
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) {
      return Arena.el("span", {}, value.length ? value.map((v) => v ?? "—").join(", ") : "none");
    }
    const rows = value.filter((v) => v && typeof v === "object" && !Array.isArray(v));
    if (rows.length === value.length) {
      const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      return Arena.el("table", { class: "generic" },
        Arena.el("thead", {}, Arena.el("tr", {}, keys.map((k) => Arena.el("th", {}, Arena.title(k))))),
        Arena.el("tbody", {}, rows.map((row) => Arena.el("tr", {},
          keys.map((k) => Arena.el("td", {}, genericValue(row[k])))))));
    }
    return Arena.el("ol", {}, value.map((v) => Arena.el("li", {}, genericValue(v))));
  }
  if (typeof value === "object") {
    return Arena.el("dl", { class: "generic" }, Object.entries(value).flatMap(([k, v]) =>
      [Arena.el("dt", {}, Arena.title(k)), Arena.el("dd", {}, genericValue(v))]));
  }
  return Arena.el("span", {}, String(value));
}

window.EvoBoards.generic = (view) => genericValue(view);

// A game's own renderer, if it ships one; else the generic board.
const boardRenderer = (game) => Arena.board(game, window.EvoBoards.generic);
const catalogue = (game) => Arena.catalogue(game);

// -- drawing --------------------------------------------------------------------------------
// Words for a match's status and a bot seat's kind (ids in the API), in the page's language.
const STATUS_NAMES = { waiting: Arena.t("waiting"), finished: Arena.t("finished"), expired: Arena.t("expired"), aborted: Arena.t("aborted") };
const BOT_NAMES = { random: Arena.t("random"), greedy: Arena.t("greedy"), ismcts: Arena.t("search") };
function drawSeats(match) {
  document.getElementById("title").textContent =
    Arena.t("{game} · version {version}", { game: Arena.gameName(match.game), version: match.version });
  document.getElementById("status").textContent =
    match.status === "running" ? Arena.t("to move: {seats}", { seats: match.to_move.map((s) => match.seats[s].name).join(", ") })
      : STATUS_NAMES[match.status] || match.status;
  document.getElementById("seats").replaceChildren(...match.seats.map((seat) => Arena.el("li", {
    class: [match.to_move.includes(seat.seat) ? "to-move" : "", seat.seat === page.seat ? "me" : ""].join(" "),
  }, seat.name, seat.kind === "bot" ? Arena.t(" (bot: {kind})", { kind: BOT_NAMES[seat.bot.kind] || seat.bot.kind }) : "",
  seat.joined ? "" : seat.invited ? Arena.t(" (invited)") : Arena.t(" (open)"), seat.seat === page.seat ? Arena.t(" — you") : "")));
  document.getElementById("seeded").hidden = !match.seeded;
  // An invited account's seat is not open: only that account takes it, by accepting.
  const open = match.status === "waiting" && match.seats.some((s) => !s.joined && !s.invited);
  document.getElementById("join-row").hidden = !open;
}

function drawResult(match) {
  const box = document.getElementById("result");
  box.hidden = !match.result;
  if (!match.result) return;
  const order = match.seats.map((s) => s.seat).sort((a, b) => match.result.ranking[a] - match.result.ranking[b]);
  document.getElementById("scores").replaceChildren(...order.map((s) => Arena.el("li", {
    class: match.result.winners.includes(s) ? "winner" : "",
  }, `${match.seats[s].name}: ${match.result.scores[s]}`,
  match.result.winners.includes(s) ? Arena.t(" — winner") : "")));
  // A finished match whose seed is revealed (not a sealed one) can be replayed step by step.
  let replay = document.getElementById("replay-link");
  if (!replay) {
    replay = Arena.el("a", { id: "replay-link", href: `/replay/${encodeURIComponent(matchId)}` },
      Arena.t("Replay this match move by move"));
    box.append(Arena.el("p", {}, replay));
  }
  replay.parentElement.hidden = match.status !== "finished" || match.seed === null;
}

// The match's title as the server wrote it; while a move is the person's, the title says so
// first, for a page left in a background tab (as chess sites do).
const matchTitle = document.title;
function drawTitle(moves) {
  document.title = moves && moves.moves.length
    ? Arena.t("Your turn · {title}", { title: matchTitle }) : matchTitle;
}

function drawMoves(moves) {
  drawTitle(moves);
  const card = document.getElementById("moves-card");
  card.hidden = !moves || !moves.moves.length;
  const list = document.getElementById("moves");
  if (card.hidden) {
    list.replaceChildren();  // no stale move left clickable behind the hidden card
    clearHint();
    return;
  }
  list.replaceChildren(...moveList(moves));
  // No hints where results count. A hint answers the seat's question; another seat's hidden
  // pick changes the version, not the seat's moves nor (almost always) its question, so the
  // hint stays and the page asks again: the API answers from the answer it kept, no search.
  // New moves clear it.
  document.getElementById("hint-row").hidden = Boolean(page.match.rated || page.match.tournament);
  if (page.hint && page.hint.moves === movesKey(moves)) {
    if (page.hint.answer) showHint(page.hint.answer);
    if (!page.asking) askHint();  // one asking at a time; it asks again itself if moved on
  } else {
    clearHint();
  }
}

// A long list (a card's many targets) is folded: each run of moves the API puts in one group
// (LegalMove.group, the card) is a section the person opens, the first one open. Which are
// open is kept while the same moves are drawn again (the hint, another seat's news).
// Moves of one label are one choice made with identical copies of a card (LegalMove.label):
// one button plays the first of them, and a hint naming any of them marks it.
const GROUP_FROM = 12;
function moveList(moves) {
  const choices = distinctChoices(moves.moves);
  const button = (move) => Arena.el("button", {
    class: "move", dataset: { id: move.id, ids: move.ids.join(" "), focusKey: `move:${move.id}` },
    onclick: () => play(moves.version, move.id),
  }, move.label);
  if (choices.length < GROUP_FROM) return choices.map(button);
  const runs = [];
  for (const move of choices) {
    const last = runs[runs.length - 1];
    if (move.group && last && last.group === move.group) last.moves.push(move);
    else runs.push({ group: move.group || null, moves: [move] });
  }
  const folded = runs.filter((run) => run.group && run.moves.length > 1);
  const key = movesKey(moves);
  if (page.groups?.moves !== key) {
    page.groups = { moves: key, open: new Set(folded.length ? [folded[0].group] : []) };
  }
  const open = page.groups.open;
  return runs.flatMap((run) => {
    if (!folded.includes(run)) return run.moves.map(button);
    const section = Arena.el("details", { class: "move-group", dataset: { group: run.group } },
      Arena.el("summary", { dataset: { focusKey: `group:${run.group}` } },
        `${run.group} · ${run.moves.length}`),
      ...run.moves.map(button));
    section.open = open.has(run.group);
    section.addEventListener("toggle", () => {
      if (section.open) open.add(run.group); else open.delete(run.group);
    });
    return [section];
  });
}

function distinctChoices(moves) {
  const byLabel = new Map();
  for (const move of moves) {
    const same = byLabel.get(move.label);
    if (same) same.ids.push(move.id);
    else byLabel.set(move.label, { ...move, ids: [move.id] });
  }
  return [...byLabel.values()];
}

function clearHint(message = "") {
  page.hint = null;
  document.querySelectorAll("button.move.hinted").forEach((b) => b.classList.remove("hinted"));
  document.getElementById("hint-text").textContent = message;
}

function movesKey(moves) {
  return moves ? moves.moves.map((move) => move.id).join("\n") : null;
}

async function askHint() {
  if (!page.moves || page.asking) return;
  const moves = movesKey(page.moves);
  if (!page.hint || page.hint.moves !== moves) page.hint = { moves, answer: null };
  const asked = page.hint;
  const button = document.getElementById("hint");
  page.asking = true;
  button.disabled = true;
  if (!asked.answer) document.getElementById("hint-text").textContent = Arena.t("The bot is thinking…");
  try {
    // 202: the workers are busy and the search goes on; asking again waits for it.
    for (let tries = 0; tries < 20 && page.hint === asked; tries++) {
      const version = page.moves.version;
      const hint = await Arena.api("GET", `/v1/matches/${matchId}/hint`, {
        token: Arena.tokens(matchId)[page.seat] });
      if (page.hint !== asked) return;  // new moves (or none) cleared it
      if (hint.status === "searching") {
        await new Promise((resolve) => { setTimeout(resolve, hint.retry_after * 1000); });
      } else if (page.moves && page.moves.version === version) {
        asked.answer = hint;
        showHint(hint);
        return;
      }  // else the version moved during the ask (a hidden pick): ask again for this one
    }
    if (page.hint === asked) clearHint(Arena.t("No bot had time to answer; ask again later."));
  } catch (failure) {
    if (page.hint === asked) clearHint(failure.message);
  } finally {
    page.asking = false;
    button.disabled = false;
    keepFocus();
  }
}

function showHint(hint) {
  document.querySelectorAll("button.move").forEach((b) => {
    const hinted = b.dataset.ids.split(" ").includes(hint.move_id);
    b.classList.toggle("hinted", hinted);
    const section = b.closest("details.move-group");
    if (hinted && section) section.open = true;  // shown, not folded
  });
  const estimate = hint.win_estimate === null ? ""
    : Arena.t(" (win estimate {percent}%)", { percent: Math.round(hint.win_estimate * 100) });
  document.getElementById("hint-text").textContent = Arena.t("The bot would play: {move}", { move: hint.label }) + estimate;
}

// The labels of the moves this page posted, as it listed them (in its language; the log keeps
// them in English), by the move: the seat's own moves are announced in the page's language.
const postedLabels = new Map();
function moveKey(value) {  // a move as a string, whatever the order of its fields
  if (Array.isArray(value)) return `[${value.map(moveKey).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${moveKey(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

async function play(version, moveId) {
  const error = document.getElementById("move-error");
  error.hidden = true;
  document.querySelectorAll("button.move").forEach((b) => { b.disabled = true; });
  const chosen = page.moves && page.moves.moves.find((m) => m.id === moveId);
  if (chosen) postedLabels.set(moveKey(chosen.move), chosen.label);
  try {
    // Sent again with its Idempotency-Key if the answer is lost: the retry gets the first
    // answer, so a move that went through is never reported as failed nor played twice.
    await Arena.api("POST", `/v1/matches/${matchId}/moves`, {
      token: Arena.tokens(matchId)[page.seat], body: { version, move_id: moveId }, retry: true });
  } catch (failure) {
    if (failure.status !== 409) {  // 409: the match moved on; the refresh shows the news
      error.textContent = failure.message;
      error.hidden = false;
    }
    page.redraw = true;  // the version may be unchanged: the disabled moves must come back
  }
  await refresh();
}

async function join() {
  try {
    // A signed-in person takes the seat as their account (people.js): their name, their
    // matches, their turn notices; the access token then plays it.
    const person = typeof People !== "undefined" && People.session();
    const path = `/v1/matches/${matchId}/join`;
    const joined = person ? await People.call("POST", path, { body: {}, retry: true })
      : await Arena.api("POST", path, { body: {}, retry: true });
    Arena.saveToken(matchId, joined.seat, joined.token);
    if (person) People.keepSeats(matchId, [...People.seatsIn(matchId), joined.seat]);
  } catch (failure) {
    document.getElementById("status").textContent = failure.message;
  }
  await refresh();
}

// -- keeping up -----------------------------------------------------------------------------
async function refresh() {
  // One refresh at a time; news during one triggers exactly one more.
  if (page.busy) { page.again = true; return; }
  page.busy = true;
  try {
    do {
      page.again = false;
      const spectator = await Arena.api("GET", `/v1/matches/${matchId}`);
      page.seat = mySeat(spectator);
      const token = page.seat === null ? null : Arena.tokens(matchId)[page.seat];
      const match = token ? await Arena.api("GET", `/v1/matches/${matchId}`, { token }) : spectator;
      page.match = match;
      const owes = token && match.status === "running" && match.to_move.includes(page.seat);
      page.moves = owes ? await Arena.api("GET", `/v1/matches/${matchId}/moves`, { token }) : null;
      // Draw only news: the stream's first event and a move's own refresh repeat the version
      // just drawn, and replacing its buttons under a person's finger would lose the tap.
      const shown = `${match.version}/${match.status}/${page.seat}`;
      if (shown === page.shown && !page.redraw) continue;
      page.shown = shown;
      page.redraw = false;
      drawSeats(match);
      drawResult(match);
      drawResign(match);
      drawMoves(page.moves);
      if (match.view === null) {  // a sealed tournament match: its deal is played elsewhere
        const note = document.createElement("p");
        note.textContent = Arena.t("The cards of this match are shown once every match of its deal is over.");
        document.getElementById("board").replaceChildren(note);
      } else {
        const draw = await boardRenderer(match.game);
        const components = await catalogue(match.game);
        document.getElementById("board").replaceChildren(draw(match.view, match, {
          moves: page.moves,  // the seat's legal moves ({version, moves}) or null
          choose: (moveId) => play(page.moves.version, moveId),  // play one of them
          components,  // the game's catalogue: Map of component id -> component
        }));
      }
      keepFocus();
      announce(match, token);
      document.body.dataset.version = match.version;
      document.body.dataset.status = match.status;
    } while (page.again);
  } catch (failure) {
    document.getElementById("status").textContent = failure.message;
  } finally {
    page.busy = false;
  }
}

function follow() {
  // One event per version; EventSource reconnects with Last-Event-ID and stops at the end.
  page.stream = new EventSource(`/v1/matches/${matchId}/stream`);
  page.stream.addEventListener("version", () => refresh());
  page.stream.addEventListener("end", () => refresh());
}

// -- resigning: the seat leaves for good, once the person confirms it ------------------------
function drawResign(match) {
  const button = document.getElementById("resign");
  button.textContent = Arena.t("Resign");
  document.getElementById("resign-row").hidden = !(page.seat !== null
    && match.status === "running" && !(match.resigned || []).includes(page.seat));
}

async function resign() {
  const others = page.match.seats.length - 1;
  const question = others === 1
    ? Arena.t("Resign this match? It ends now and the other player wins.")
    : Arena.t("Resign this match? A bot plays your seat to the end and you are ranked last.");
  if (!window.confirm(question)) return;
  const error = document.getElementById("resign-error");
  error.hidden = true;
  try {
    await Arena.api("POST", `/v1/matches/${matchId}/resign`, {
      token: Arena.tokens(matchId)[page.seat] });
  } catch (failure) {
    error.textContent = Arena.t("Could not resign: {reason}", { reason: failure.message });
    error.hidden = false;
  }
  page.redraw = true;
  await refresh();
}

document.getElementById("resign").addEventListener("click", resign);

// -- focus and announcements --------------------------------------------------------------
// Where the person was: the last focused control's key (a move, a thing of the board) and
// region. A redraw replaces those controls (and a posted move disables them): the focus
// goes back to the same one if it is still there, else somewhere sensible, never the body.
document.addEventListener("focusin", (event) => {
  const region = event.target.closest("[data-focus-region]");
  page.focus = { key: event.target.dataset.focusKey || null,
    region: region ? region.dataset.focusRegion : null };
});

function usable(node) {
  return Boolean(node) && node.isConnected && !node.disabled && node.getClientRects().length > 0;
}

function keepFocus() {
  const active = document.activeElement;
  if (!page.focus || (active && active !== document.body && usable(active))) return;
  const { key, region } = page.focus;
  const same = key ? [...document.querySelectorAll(`[data-focus-key="${CSS.escape(key)}"]`)].find(usable) : null;
  const controls = (name) => [...document.querySelectorAll(
    `[data-focus-region="${name}"] :is(button, a[href], select, input)`)].find(usable);
  const heading = (name) => document.querySelector(`[data-focus-region="${name}"] [tabindex="-1"]`);
  const target = same || (region && controls(region)) || (region && usable(heading(region)) && heading(region))
    || controls("board") || heading("board");
  if (target) target.focus();
}

// What changed since the last drawn version, said through the polite live region: the
// seat's own moves by their labels, other seats' by the board's words for their events
// (its `describe`), else who acted; then whether it is the seat's move.
function say(text) {
  if (text) document.getElementById("announce").textContent = text;
}

async function announce(match, token) {
  const since = page.announced;
  const owes = Boolean(page.moves && page.moves.moves.length);
  page.announced = match.version;
  if (since === undefined || since >= match.version) return;  // the first drawing: no news
  try {
    const log = await Arena.api("GET", `/v1/matches/${matchId}/events?since=${since}`, { token });
    const components = await catalogue(match.game);
    const describe = (window.EvoBoards[match.game] || {}).describe;
    const name = (seat) => (match.seats[seat] ? match.seats[seat].name : String(seat));
    const lines = log.events.flatMap((entry) => {
      const mine = entry.seat === page.seat;
      // The mover's own events repeat its label; the rest (a reveal, a draw) is news.
      const events = (entry.events || []).filter((e) => !(entry.label && e.seat === entry.seat));
      const said = describe ? events.map((e) => describe(e, match, components)).filter(Boolean) : [];
      if (entry.label) {
        said.unshift(mine ? Arena.t("You: {move}.", { move: postedLabels.get(moveKey(entry.move)) || entry.label })
          : Arena.t("{who}: {move}.", { who: name(entry.seat), move: entry.label }));
      } else if (events.some((e) => e.type === "seat_joined")) {
        said.push(Arena.t("{who} joined.", { who: name(entry.seat) }));
      } else if (!said.length && entry.seat !== undefined) {
        said.push(Arena.t("{who} moved.", { who: name(entry.seat) }));
      }
      return said;
    });
    if (match.status === "finished") lines.push(Arena.t("The match is over."));
    else if (owes) lines.push(Arena.t("Your move."));
    say(lines.join(" "));
  } catch {
    // The news is on the board anyway; an announcement that failed is skipped.
  }
}

document.getElementById("join").addEventListener("click", join);
document.getElementById("hint").addEventListener("click", askHint);
refresh().then(follow);

// -- clocks: a match's time control counts down live (docs/api.md "Clocks and turn-based
// play"). Self-contained: it reads page.match as refresh() leaves it, and counts a running
// clock down from `remaining` as of when that answer arrived (so the device's own clock's
// offset from the server's does not matter).
function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  if (days > 0) return Arena.t("{days} d {hours} h", { days, hours });
  if (hours > 0) return `${hours}:${pad(minutes)}:${pad(s % 60)}`;
  return `${minutes}:${pad(s % 60)}`;
}

const clockState = { match: null, arrived: 0 };
function drawClocks() {
  const match = page.match;
  let box = document.getElementById("clocks");
  if (!match || !Array.isArray(match.clocks) || match.clocks.length === 0) {
    if (box) box.hidden = true;
    return;
  }
  if (match !== clockState.match) {  // a new answer: count from its arrival
    clockState.match = match;
    clockState.arrived = Date.now() / 1000;
  }
  if (!box) {
    box = Arena.el("ul", { id: "clocks", class: "clocks" });
    document.getElementById("seats").after(box);
  }
  box.hidden = false;
  const elapsed = Date.now() / 1000 - clockState.arrived;
  const kind = match.time_control && match.time_control.kind === "turn_based"
    ? Arena.t("per move") : Arena.t("clock");
  box.replaceChildren(...match.clocks.map((clock) => {
    const left = clock.running ? clock.remaining - elapsed : clock.remaining;
    const name = match.seats[clock.seat] ? match.seats[clock.seat].name : String(clock.seat);
    return Arena.el("li", { class: clock.running ? "running" : "" }, Arena.t(
      "{name} ({kind}): {time}", { name, kind, time: clockText(left) }),
    clock.running ? [" · ", Arena.t("running")] : "");
  }));
}
setInterval(drawClocks, 250);
