// Plays a whole Savanna match (seat 0 against a random bot) through a client typed from
// openapi.yaml by openapi-typescript and openapi-fetch: no casts, `tsc --strict`.
// Usage: node build/play_match.js <API base URL>; prints one JSON line with the outcome.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

declare const process: { argv: string[] };  // node's, without its type package

type Match = components["schemas"]["Match"];

const baseUrl = process.argv[2];
const api = createClient<paths>({ baseUrl });

function ok<T>(data: T | undefined, error: unknown): T {
  if (data === undefined) throw new Error(`the API refused: ${JSON.stringify(error)}`);
  return data;
}

async function main(): Promise<void> {
  const created = await api.POST("/v1/matches", { body: {
    game: "savanna", seats: [{ kind: "human" }, { kind: "bot", bot: { kind: "random" } }] } });
  const match0 = ok(created.data, created.error);
  const token = match0.tokens[0].token;
  // The seat's client: its token on every request (the spec's bearer security scheme).
  const seat = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const path = { match_id: match0.id };
  let match: Match = match0;
  let played = 0;
  let carriedOver = 0;
  while (match.status === "running" || match.status === "waiting") {
    if (match.you !== null && match.to_move.includes(match.you)) {
      const listed = await seat.GET("/v1/matches/{match_id}/moves", { params: { path } });
      const moves = ok(listed.data, listed.error);
      const chosen = moves.moves[0];
      const answer = await seat.POST("/v1/matches/{match_id}/moves", {
        params: { path }, body: { version: moves.version, move: chosen.move } });
      if (answer.data !== undefined) {
        played += 1;
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
  console.log(JSON.stringify({ id: match.id, status: match.status, version: match.version,
    played, carriedOver, scores }));
}

await main();
