// The lobby's person account: sign up, sign in, sign out, and "My matches" with whose turn.
// Tokens live in this browser's localStorage and go in the Authorization header (no cookie,
// so no cross-site request can use them); the access token is refreshed before it expires.
"use strict";

const People = {
  KEY: "evo:person",
  timer: null,

  session() {
    try {
      return JSON.parse(localStorage.getItem(People.KEY) || "null");
    } catch {
      return null;
    }
  },

  keep(tokens, account) {
    const kept = { ...tokens, account: account || (People.session() || {}).account };
    localStorage.setItem(People.KEY, JSON.stringify(kept));
    People.schedule(kept);
    return kept;
  },

  forget() {
    localStorage.removeItem(People.KEY);
    clearTimeout(People.timer);
  },

  // Refresh a minute before expiry (or at 80% of a short life), so no call meets a lapsed token.
  schedule(kept) {
    clearTimeout(People.timer);
    const left = kept.expires_at * 1000 - Date.now();
    const early = Math.min(60000, kept.expires_in * 200);
    People.timer = setTimeout(() => People.refresh(kept.access_token).catch(() => {}),
      Math.max(0, left - early));
  },

  // A new pair for the access token ``stale``. A refresh token is spent once and a spent one
  // shown again ends the session, so tabs (and calls) must not refresh together: one at a
  // time (a Web Lock across this browser's tabs), and none if another has renewed ``stale``.
  async refresh(stale) {
    const renew = async () => {
      const kept = People.session();
      if (!kept) return null;
      if (stale && kept.access_token !== stale) {
        People.schedule(kept);
        return kept;
      }
      try {
        const tokens = await Arena.api("POST", "/v1/sessions/refresh",
          { body: { refresh_token: kept.refresh_token } });
        return People.keep(tokens);
      } catch (failure) {
        if (failure.status === 401) {
          People.forget();
          People.draw();
        }
        throw failure;
      }
    };
    return navigator.locks ? navigator.locks.request("evo:person-refresh", renew) : renew();
  },

  // An API call as the person: a 401 (the token lapsed while the tab slept) refreshes once.
  async call(method, path, options = {}) {
    const kept = People.session();
    try {
      return await Arena.api(method, path, { ...options, token: kept.access_token });
    } catch (failure) {
      if (failure.status !== 401) throw failure;
      const renewed = await People.refresh(kept.access_token);
      return Arena.api(method, path, { ...options, token: renewed.access_token });
    }
  },

  // The person's seats per match, so the match page sends the access token for them.
  seatsIn(matchId) {
    try {
      return JSON.parse(localStorage.getItem(`evo:person-seats:${matchId}`) || "[]");
    } catch {
      return [];
    }
  },

  keepSeats(matchId, seats) {
    localStorage.setItem(`evo:person-seats:${matchId}`, JSON.stringify(seats));
  },

  // A match whose account seats are the person's: created with its access token.
  async createMatch(body) {
    const match = await People.call("POST", "/v1/matches", { body, retry: true });
    const id = People.session().account.id;
    People.keepSeats(match.id, match.seats.filter((s) => s.account === id).map((s) => s.seat));
    return match;
  },

  async enter(path) {
    const error = document.getElementById("person-error");
    error.hidden = true;
    try {
      const signed = await Arena.api("POST", path, { body: {
        name: document.getElementById("person-name").value,
        password: document.getElementById("person-password").value } });
      const { account, ...tokens } = signed;
      People.keep(tokens, account);
      People.draw();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  },

  async signOut(everywhere) {
    try {
      await People.call("DELETE", everywhere ? "/v1/me/sessions" : "/v1/sessions/current");
    } catch {
      // Signed out on this browser whatever the server said (a lapsed session is out anyway).
    }
    People.forget();
    People.draw();
  },

  signInForm() {
    const form = Arena.el("form", { id: "person-form", onsubmit: (event) => {
      event.preventDefault();
      People.enter("/v1/sessions");
    } },
    Arena.el("label", {}, Arena.t("Name"), " ",
      Arena.el("input", { id: "person-name", autocomplete: "username", required: "" })),
    Arena.el("label", {}, Arena.t("Password"), " ",
      Arena.el("input", { id: "person-password", type: "password", required: "",
        autocomplete: "current-password" })),
    Arena.el("button", { type: "submit", id: "sign-in" }, Arena.t("Sign in")),
    Arena.el("button", { type: "button", id: "sign-up", onclick: () => People.enter("/v1/people") },
      Arena.t("Sign up")),
    Arena.el("p", { class: "error", id: "person-error", hidden: "" }));
    return [Arena.el("h2", {}, Arena.t("Your account")), form];
  },

  signedIn(kept) {
    return [
      Arena.el("h2", {}, Arena.t("Your account")),
      Arena.el("p", { id: "signed-in-as" }, Arena.t("Signed in as {name}", { name: kept.account.name }), " ",
        Arena.el("button", { type: "button", id: "sign-out", onclick: () => People.signOut(false) },
          Arena.t("Sign out")), " ",
        Arena.el("button", { type: "button", id: "sign-out-everywhere",
          onclick: () => People.signOut(true) }, Arena.t("Sign out everywhere"))),
      Arena.el("h3", {}, Arena.t("My matches")),
      Arena.el("table", { id: "my-matches" }, Arena.el("thead", {}, Arena.el("tr", {},
        Arena.el("th", {}, Arena.t("Game")), Arena.el("th", {}, Arena.t("Status")),
        Arena.el("th", {}, Arena.t("Turn")), Arena.el("th", {}, ""))), Arena.el("tbody")),
    ];
  },

  turnText(match) {
    if (!match.live) return Arena.t("over");
    if (match.your_turn) return Arena.t("your turn");
    if (!match.whose_turn.length) return Arena.t("nobody's turn");
    return Arena.t("{names} to move", { names: match.whose_turn.join(", ") });
  },

  async listMatches() {
    const body = document.querySelector("#my-matches tbody");
    if (!body || !People.session()) return;
    const mine = await People.call("GET", "/v1/me/matches?limit=10");
    for (const match of mine.live) People.keepSeats(match.id, match.your_seats);
    const rows = [...mine.live, ...mine.finished].map((match) => Arena.el("tr", {
      class: match.your_turn ? "my-match your-turn" : "my-match", dataset: { match: match.id } },
    Arena.el("td", {}, Arena.gameName(match.game)),
    Arena.el("td", {}, Arena.t(match.status)),
    Arena.el("td", { class: "turn" }, People.turnText(match),
      match.deadline_at ? Arena.t(" (until {time})",
        { time: new Date(match.deadline_at * 1000).toLocaleTimeString() }) : ""),
    Arena.el("td", {}, Arena.el("a", { href: match.page },
      match.live ? Arena.t("open") : Arena.t("replay")))));
    body.replaceChildren(...rows);
    if (!rows.length) {
      body.append(Arena.el("tr", {}, Arena.el("td", { colspan: 4 }, Arena.t("No match yet."))));
    }
  },

  draw() {
    const box = document.getElementById("person");
    if (!box) return;
    const kept = People.session();
    box.replaceChildren(...(kept ? People.signedIn(kept) : People.signInForm()));
    if (kept) People.listMatches().catch(() => {});
    document.dispatchEvent(new Event("evo:session"));  // the lobby's seat choices follow
  },

  start() {
    const kept = People.session();
    if (kept) People.schedule(kept);
    People.draw();
    setInterval(() => People.listMatches().catch(() => {}), 3000);
  },
};

// The match page asks Arena.tokens for a seat's credential: for the person's own seats it is
// the current access token (refreshed here), whatever was kept before.
const keptSeatTokens = Arena.tokens;
Arena.tokens = (matchId) => {
  const all = keptSeatTokens(matchId);
  const kept = People.session();
  if (kept) for (const seat of People.seatsIn(matchId)) all[seat] = kept.access_token;
  return all;
};

People.start();
