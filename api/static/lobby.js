// The lobby: create a match (game, seats, bots) and list the matches not over.
"use strict";

const SEAT_KINDS = [
  ["human", Arena.t("Me (this browser)")],
  ["open", Arena.t("Open seat (anyone may join)")],
  ["bot:random", Arena.t("Bot: random")],
  ["bot:greedy", Arena.t("Bot: greedy")],
  ["bot:ismcts:easy", Arena.t("Bot: search, easy")],
  ["bot:ismcts:medium", Arena.t("Bot: search, medium")],
];
let games = [];
const SEEDED_TITLE = Arena.t("The creator chose the seed: whoever knows it can foresee every hidden card");

function seatSpec(value) {
  const [kind, botKind, level] = value.split(":");
  if (kind === "account") return { kind, account: People.session().account.id };  // people.js
  if (kind !== "bot") return { kind };
  return { kind, bot: level ? { kind: botKind, level } : { kind: botKind } };
}

function drawSeatKinds() {
  const game = games.find((g) => g.id === document.getElementById("game").value);
  const seats = document.getElementById("seats");
  const previous = Number(seats.value) || game.min_players;
  seats.replaceChildren(...Array.from(
    { length: game.max_players - game.min_players + 1 },
    (_, i) => Arena.el("option", { value: game.min_players + i }, game.min_players + i)));
  seats.value = Math.min(Math.max(previous, game.min_players), game.max_players);
  const box = document.getElementById("seat-kinds");
  box.replaceChildren(Arena.el("legend", {}, Arena.t("Who plays each seat")));
  // Signed in, "me" is the person's account by default: the match is then in their matches,
  // and they are told when it is their turn.
  const signedIn = typeof People !== "undefined" && Boolean(People.session());
  for (let seat = 0; seat < Number(seats.value); seat += 1) {
    const select = Arena.el("select", { name: `seat-${seat}`, "aria-label": Arena.t("Seat {seat}", { seat }) },
      [...(signedIn ? [["account", Arena.t("Me (signed in)")]] : []),
        ...SEAT_KINDS].map(([value, label]) => Arena.el("option", { value }, label)));
    select.value = seat > 0 ? "bot:random" : signedIn ? "account" : "human";
    box.append(Arena.el("label", { class: "seat" }, `${Arena.t("Seat {seat}", { seat })} `, select));
  }
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.hidden = true;
  const kinds = [...document.querySelectorAll("#seat-kinds select")].map((s) => s.value);
  try {
    const body = { game: document.getElementById("game").value, seats: kinds.map(seatSpec) };
    const match = kinds.includes("account") ? await People.createMatch(body)
      : await Arena.api("POST", "/v1/matches", { body, retry: true });
    for (const { seat, token } of match.tokens) Arena.saveToken(match.id, seat, token);
    window.location.href = `/play/${match.id}`;
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  }
}

async function listMatches() {
  const filter = document.getElementById("filter").value;
  const { matches } = await Arena.api("GET", `/v1/matches?limit=50${filter ? `&${filter}` : ""}`);
  const body = document.querySelector("#matches tbody");
  body.replaceChildren(...matches.map((match) => Arena.el("tr", {},
    Arena.el("td", {}, Arena.gameName(match.game)),
    Arena.el("td", {}, match.status, match.open_seats.length ? ` (${Arena.t("{count} open", { count: match.open_seats.length })})` : "",
      // A seed the creator chose foresees every hidden card: say so before anyone joins.
      match.seeded ? Arena.el("span", { class: "seeded", title: SEEDED_TITLE }, ` ${Arena.t("seeded")}`) : ""),
    Arena.el("td", {}, match.seats.map((s) => s.name).join(", ")),
    Arena.el("td", {}, Arena.el("a", { href: `/play/${match.id}` },
      match.open_seats.length ? Arena.t("join") : Arena.t("watch"))))));
  if (!matches.length) body.append(Arena.el("tr", {}, Arena.el("td", { colspan: 4 }, Arena.t("No match yet."))));
}

async function start() {
  games = (await Arena.api("GET", "/v1/games")).games;
  const select = document.getElementById("game");
  select.replaceChildren(...games.map((g) => Arena.el("option", { value: g.id }, g.name)));
  select.addEventListener("change", drawSeatKinds);
  document.getElementById("seats").addEventListener("change", drawSeatKinds);
  document.addEventListener("evo:session", drawSeatKinds);  // signed in or out (people.js)
  document.getElementById("create").addEventListener("submit", create);
  document.getElementById("filter").addEventListener("change", listMatches);
  drawSeatKinds();
  await listMatches();
  setInterval(() => listMatches().catch(() => {}), 5000);  // revalidated by ETag: cheap
}

start();
