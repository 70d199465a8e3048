// The replay page: steps through a finished match (buttons, the arrow keys, a move of the
// list) from a seat's point of view or a spectator's, drawing each step with the game's own
// board renderer. The step and the seat live in the fragment (#step=3&seat=0), so the
// address is a link to share. The analysis marks where the seat lost most of its estimate.
"use strict";

const matchId = document.body.dataset.match;
const replay = { step: 0, seat: null, steps: 0, body: null, marked: new Map(), drawing: 0 };
const $ = (id) => document.getElementById(id);

// -- the address: #step=<k>&seat=<n> (no seat: a spectator) -------------------------------
function readFragment() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const step = Number.parseInt(params.get("step") || "0", 10);
  const seat = params.get("seat");
  replay.step = Number.isFinite(step) && step >= 0 ? step : 0;
  replay.seat = seat === null || seat === "" ? null : Number.parseInt(seat, 10);
}

function fragment() {
  const params = new URLSearchParams({ step: String(replay.step) });
  if (replay.seat !== null) params.set("seat", String(replay.seat));
  return `#${params}`;
}

// -- the board: the game's renderer, as on the match page ----------------------------------
const boardRenderer = (game) => Arena.board(game, plainBoard);

// A game without a renderer of its own: its view as indented JSON.
function plainBoard(view) {
  return Arena.el("pre", { class: "plain-view" }, JSON.stringify(view, null, 2));
}

const catalogue = (game) => Arena.catalogue(game);

// -- drawing -------------------------------------------------------------------------------
function seatName(body, seat) {
  return seat === null ? Arena.t("Spectator") : body.seats[seat].name;
}

function drawControls(body) {
  $("title").textContent = Arena.t("Replay: {game} · step {step} of {steps}",
    { game: Arena.gameName(body.game), step: body.step, steps: body.steps });
  $("first").disabled = $("back").disabled = body.step === 0;
  $("last").disabled = $("forward").disabled = body.step === body.steps;
  const pov = $("pov");
  if (pov.options.length !== body.seats.length + 1) {
    pov.replaceChildren(Arena.el("option", { value: "" }, Arena.t("Spectator")),
      ...body.seats.map((seat) => Arena.el("option", { value: String(seat.seat) },
        Arena.t("Seat {seat}: {name}", { seat: seat.seat, name: seat.name }))));
  }
  pov.value = body.seat === null ? "" : String(body.seat);
  const move = body.step ? body.moves[body.step - 1] : null;
  $("step-move").textContent = move
    ? Arena.t("Step {step}: {name} played {label}", { step: move.step,
      name: body.seats[move.seat].name, label: move.label || Arena.t("a move") })
    : Arena.t("The deal, before the first move.");
  const share = $("share");
  share.href = `${window.location.pathname}${fragment()}`;
  $("analysis-row").hidden = body.seat === null;
  $("status").textContent = Arena.t("Seen by: {who}", { who: seatName(body, body.seat) });
}

function drawMoves(body) {
  const list = $("replay-moves");
  if (list.children.length !== body.moves.length + 1) {
    list.replaceChildren(Arena.el("li", {}, Arena.el("button", {
      type: "button", class: "step", dataset: { step: "0" }, onclick: () => go(0),
    }, Arena.t("The deal"))), ...body.moves.map((move) => Arena.el("li", {},
      Arena.el("button", { type: "button", class: "step", dataset: { step: String(move.step) },
        onclick: () => go(move.step) },
      `${body.seats[move.seat].name}: ${move.label || Arena.t("a move")}`))));
  }
  for (const button of list.querySelectorAll("button.step")) {
    const step = Number(button.dataset.step);
    const current = step === body.step;
    button.classList.toggle("current", current);
    button.classList.toggle("lost", replay.marked.has(step));
    if (current) {
      button.setAttribute("aria-current", "step");
      // Keep the current move in sight inside the list (not by scrolling the page).
      const item = button.parentElement;
      list.scrollTop = item.offsetTop - (list.clientHeight - item.offsetHeight) / 2;
    } else {
      button.removeAttribute("aria-current");
    }
  }
}

async function draw() {
  const drawing = ++replay.drawing;  // a newer step asked meanwhile wins
  const params = new URLSearchParams({ step: String(replay.step) });
  if (replay.seat !== null) params.set("seat", String(replay.seat));
  try {
    const body = await Arena.api("GET", `/v1/matches/${matchId}/replay?${params}`);
    const [render, components] = await Promise.all([boardRenderer(body.game),
      catalogue(body.game)]);
    if (drawing !== replay.drawing) return;
    replay.body = body;
    replay.steps = body.steps;
    drawControls(body);
    drawMoves(body);
    $("board").replaceChildren(render(body.view, { ...body, you: body.seat,
      status: body.step === body.steps ? "finished" : "running" },
      { moves: null, choose: () => {}, components }));
    document.body.dataset.step = String(body.step);
    document.body.dataset.seat = body.seat === null ? "" : String(body.seat);
  } catch (failure) {
    if (drawing !== replay.drawing) return;
    $("status").textContent = failure.message;
    // A link naming a seat or a step the match has not: show what it has instead.
    const field = failure.status === 422 && failure.problem ? failure.problem.field : null;
    if (field === "seat" && replay.seat !== null) {
      replay.seat = null;
      go(replay.step);
    } else if (field === "step" && replay.step !== 0) {
      go(0);
    }
  }
}

function go(step) {
  replay.step = Math.max(0, Math.min(step, replay.steps || step));
  history.replaceState(null, "", fragment());
  draw();
}

// -- analysis: where the seat lost most of its win estimate --------------------------------
function percent(value) {
  return value === null ? "?" : `${Math.round(value * 100)}%`;
}

async function analyse() {
  const seat = replay.seat;
  const button = $("analyse");
  button.disabled = true;
  $("analysis-text").textContent = Arena.t("The bot is looking at every decision…");
  try {
    for (let tries = 0; tries < 120 && seat === replay.seat; tries++) {
      const found = await Arena.api("GET", `/v1/matches/${matchId}/analysis?seat=${seat}`);
      if (found.status === "computing") {
        await new Promise((resolve) => { setTimeout(resolve, found.retry_after * 1000); });
        continue;
      }
      if (seat === replay.seat) showAnalysis(found);
      return;
    }
  } catch (failure) {
    $("analysis-text").textContent = failure.message;
  } finally {
    button.disabled = false;
  }
}

function showAnalysis(found) {
  const byStep = new Map(found.decisions.map((d) => [d.step, d]));
  replay.marked = new Map(found.marked.map((step) => [step, byStep.get(step)]));
  $("analysis-text").textContent = found.marked.length
    ? Arena.t("Where this seat lost most of its win estimate:")
    : Arena.t("The bot found no decision that lost much.");
  $("analysis").replaceChildren(...[...replay.marked.values()].map((d) => Arena.el("li", {},
    Arena.el("button", { type: "button", class: "step", onclick: () => go(d.step - 1) },
      Arena.t("Step {step}: played {label} ({played}); the bot would play {best} ({estimate})", {
        step: d.step, label: d.label, played: percent(d.win_estimate), best: d.best_label,
        estimate: percent(d.best_win_estimate) })))));
  if (replay.body) drawMoves(replay.body);
}

// -- wiring --------------------------------------------------------------------------------
function setLabels() {
  $("first").textContent = Arena.t("« Start");
  $("back").textContent = Arena.t("◀ Back");
  $("forward").textContent = Arena.t("Forward ▶");
  $("last").textContent = Arena.t("End »");
  $("pov-label").textContent = Arena.t("Point of view");
  $("share").textContent = Arena.t("Link to this step");
  $("play-link").textContent = Arena.t("The match page");
  $("analyse").textContent = Arena.t("Where did this seat lose most?");
  $("moves-title").textContent = Arena.t("Moves");
  $("board-title").textContent = Arena.t("Board");
}

$("first").addEventListener("click", () => go(0));
$("back").addEventListener("click", () => go(replay.step - 1));
$("forward").addEventListener("click", () => go(replay.step + 1));
$("last").addEventListener("click", () => go(replay.steps));
$("analyse").addEventListener("click", analyse);
$("pov").addEventListener("change", (event) => {
  const value = event.target.value;
  replay.seat = value === "" ? null : Number(value);
  replay.marked = new Map();
  $("analysis").replaceChildren();
  $("analysis-text").textContent = "";
  go(replay.step);
});
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.altKey || event.ctrlKey || event.metaKey
      || (target instanceof HTMLElement && target.closest("select, input, textarea"))) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in moves) go(replay.step + moves[event.key]);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(replay.steps);
  else return;
  event.preventDefault();
});
window.addEventListener("hashchange", () => {
  readFragment();
  draw();
});

setLabels();
readFragment();
draw();
