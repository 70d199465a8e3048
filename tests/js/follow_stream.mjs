// Follows a match's event stream with the npm `eventsource` package (a WHATWG EventSource),
// cutting the first connection after a few events so that it reconnects with Last-Event-ID.
// Usage: node follow_stream.mjs <stream url> <events before the cut> [seat token] [seat]
// Prints "open" once connected, then one JSON line: the ids of every `version` event, the `end` events, the connections
// made and their Last-Event-ID headers, and whether EventSource closed by itself.
import { EventSource } from "eventsource";

const [url, cutAfter, token, seat] = process.argv.slice(2);
const seen = { versions: [], ends: [], connections: [], closed: false, foreignMoves: 0 };

function cutBody(body, events) {
  // Pass the body through until `events` blank-line-ended events went by, then end it.
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let passed = 0;
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done || passed >= events) {
        reader.cancel().catch(() => {});
        controller.close();
        return;
      }
      passed += (decoder.decode(value, { stream: true }).match(/^id: /gm) || []).length;
      controller.enqueue(value);
    },
  });
}

const es = new EventSource(url, {
  fetch: async (input, init) => {
    const headers = { ...init.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    seen.connections.push(headers["Last-Event-ID"] ?? headers["last-event-id"] ?? null);
    const response = await fetch(input, { ...init, headers });
    if (seen.connections.length === 1 && response.body) {
      return new Response(cutBody(response.body, Number(cutAfter)), {
        status: response.status, headers: response.headers,
      });
    }
    return response;
  },
});
es.addEventListener("open", () => {
  if (seen.connections.length === 1) console.log("open");  // the caller may start playing
});
es.addEventListener("version", (event) => {
  const data = JSON.parse(event.data);
  if (String(data.version) !== event.lastEventId) throw new Error("id is not the version");
  seen.versions.push(data.version);
  // While the match runs, another seat's move must never reach this seat.
  const entry = data.entry;
  if (entry && "move" in entry && String(entry.seat) !== seat && data.status !== "finished") {
    seen.foreignMoves += 1;
  }
});
es.addEventListener("end", (event) => seen.ends.push(Number(event.lastEventId)));
es.addEventListener("error", () => {
  if (es.readyState === EventSource.CLOSED) {
    seen.closed = true;
    finish();
  }
});
const timer = setTimeout(finish, 120_000);

function finish() {
  clearTimeout(timer);
  es.close();
  console.log(JSON.stringify(seen));
}
