// Plays a whole Savanna match (seat 0 against a random bot) through a client typed from
// openapi.yaml by openapi-typescript and openapi-fetch: no casts, `tsc --strict`; then names
// the cards it picked from the game's component catalogue.
// Usage: node build/play_match.js <API base URL>; prints one JSON line with the outcome.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

declare const process: { argv: string[] };  // node's, without its type package

type Match = components["schemas"]["Match"];
type SavannaView = components["schemas"]["SavannaView"];
type SavannaLegalMove = components["schemas"]["SavannaLegalMove"];
type SavannaMove = components["schemas"]["SavannaMove"];
type Component = components["schemas"]["Component"];
type BotSpec = components["schemas"]["BotSpec"];
type SeatSpec = components["schemas"]["SeatSpec"];

// The contract's unions are discriminated on their tag, so the compiler refuses what the API
// refuses (each line below fails to compile if its union reads as one loose object).
// @ts-expect-error only the search bot takes a budget
const randomWithLevel: BotSpec = { kind: "random", level: "easy" };
// @ts-expect-error a bot seat needs its `bot`
const botWithoutBot: SeatSpec = { kind: "bot" };
// @ts-expect-error an account seat plays under the account's name
const namedAccount: SeatSpec = { kind: "account", account: "a1", name: "Ann" };
const opponent: SeatSpec = { kind: "bot", bot: { kind: "random" } };
void [randomWithLevel, botWithoutBot, namedAccount];

// A bot's budget in words, narrowed on `kind`: `level` exists (typed) on the search bot only.
function budget(bot: BotSpec): string {
  return bot.kind === "ismcts" ? bot.level ?? `${bot.simulations ?? bot.seconds ?? "medium"}`
    : "none";
}

const baseUrl = process.argv[2];
const api = createClient<paths>({ baseUrl });

function ok<T>(data: T | undefined, error: unknown): T {
  if (data === undefined) throw new Error(`the API refused: ${JSON.stringify(error)}`);
  return data;
}

// Pick the card the hand holds most of; place it at the free cell nearest the first card.
function choose(view: SavannaView, legal: SavannaLegalMove[]): SavannaMove {
  const hand = view.hand ?? [];
  let best = legal[0].move;
  let bestScore = -Infinity;
  for (const { move } of legal) {
    const score = move.type === "pick"
      ? hand.filter((card) => card === move.card).length
      : -(Math.abs(move.row) + Math.abs(move.col));
    if (score > bestScore) {
      best = move;
      bestScore = score;
    }
  }
  return best;
}

async function main(): Promise<void> {
  const created = await api.POST("/v1/matches", { body: {
    game: "savanna", seats: [{ kind: "human" }, opponent] } });
  const match0 = ok(created.data, created.error);
  const token = match0.tokens[0].token;
  // The seat's client: its token on every request (the spec's bearer security scheme).
  const seat = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const path = { match_id: match0.id };
  let match: Match = match0;
  let played = 0;
  let carriedOver = 0;
  const picked: string[] = [];
  while (match.status === "running" || match.status === "waiting") {
    if (match.you !== null && match.to_move.includes(match.you)) {
      const listed = await seat.GET("/v1/matches/{match_id}/moves", { params: { path } });
      const moves = ok(listed.data, listed.error);
      if (moves.game !== "savanna" || match.view === null || match.view.game !== "savanna") {
        throw new Error(`not a Savanna match: ${moves.game}`);
      }
      const chosen = choose(match.view, moves.moves);
      const answer = await seat.POST("/v1/matches/{match_id}/moves", {
        params: { path }, body: { version: moves.version, move: chosen } });
      if (answer.data !== undefined) {
        played += 1;
        if (chosen.type === "pick") picked.push(chosen.card);
        if (answer.data.applied_at !== moves.version) carriedOver += 1;
      } else if (answer.response.status !== 409) {
        throw new Error(`move refused: ${JSON.stringify(answer.error)}`);
      }
    }
    const read = await seat.GET("/v1/matches/{match_id}", { params: {
      path, query: { version: match.version, wait: 5 } } });
    match = ok(read.data, read.error);
  }
  const scores = match.result === null ? null : match.result.scores;
  // The component catalogue names the cards a view carries: joined on (category, key).
  const listed = await api.GET("/v1/games/{game_id}/components", {
    params: { path: { game_id: "savanna" } } });
  const catalogue = ok(listed.data, listed.error);
  const cards = new Map<string | number, Component>(catalogue.components
    .filter((c) => c.category === "card").map((c) => [c.key, c]));
  const pickedNames = picked.map((card) => cards.get(card)?.name ?? "");
  console.log(JSON.stringify({ id: match.id, status: match.status, version: match.version,
    played, carriedOver, scores, picked, pickedNames,
    opponent: opponent.kind === "bot" ? budget(opponent.bot) : null }));
}

await main();
