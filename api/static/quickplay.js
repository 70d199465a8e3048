// The lobby's quick play and challenges for a signed-in person (people.js keeps the session):
// wait in a pool (long-polling the ticket) until matched, challenge an account by its id, and
// answer the challenges others sent. A match found or accepted opens the match page, where the
// person's access token plays their account seat (People.keepSeats).
"use strict";

const QuickPlay = {
  games: [],
  ticket: null,  // the waiting ticket, while this page polls it
  generation: 0,  // of the ticket's long-poll loop
  ticker: null,

  // Time controls a challenge may carry (docs/accounts.md, clocks): none, real-time, turn-based.
  clocks() {
    const none = Arena.t("No clock");
    const blitz = Arena.t("5 minutes + 3 seconds a move");
    const rapid = Arena.t("15 minutes + 10 seconds a move");
    const daily = Arena.t("1 day per move (turn-based)");
    return [
      ["", none, null],
      ["blitz", blitz, { kind: "realtime", base: 300, increment: 3 }],
      ["rapid", rapid, { kind: "realtime", base: 900, increment: 10 }],
      ["daily", daily, { kind: "turn_based", per_move: 86400 }],
    ];
  },

  gameOptions() {
    return QuickPlay.games.map((g) => Arena.el("option", { value: g.id }, g.name));
  },

  drawPlayers() {
    const game = QuickPlay.games.find((g) => g.id === document.getElementById("quick-game").value);
    const players = document.getElementById("quick-players");
    if (!game || !players) return;
    players.replaceChildren(...Array.from({ length: game.max_players - game.min_players + 1 },
      (_, i) => Arena.el("option", { value: game.min_players + i }, game.min_players + i)));
  },

  quickCard() {
    const none = Arena.t("No bots");
    const easy = Arena.t("Bots, easy");
    const medium = Arena.t("Bots, medium");
    const hard = Arena.t("Bots, hard");
    const bots = [["", none], ["easy", easy], ["medium", medium], ["hard", hard]];
    const game = Arena.el("select", { id: "quick-game", onchange: QuickPlay.drawPlayers },
      QuickPlay.gameOptions());
    const gameLabel = Arena.t("Game");
    const playersLabel = Arena.t("Players");
    const botsLabel = Arena.t("If nobody comes");
    const joinText = Arena.t("Find a match");
    const leaveText = Arena.t("Leave");
    const form = Arena.el("form", { id: "quick-form", onsubmit: (event) => {
      event.preventDefault();
      QuickPlay.join();
    } },
    Arena.el("label", {}, gameLabel, " ", game),
    Arena.el("label", {}, playersLabel, " ", Arena.el("select", { id: "quick-players" })),
    Arena.el("label", {}, botsLabel, " ", Arena.el("select", { id: "quick-bots" },
      bots.map(([value, text]) => Arena.el("option", { value }, text)))),
    Arena.el("button", { type: "submit", id: "quick-join" }, joinText));
    return [
      Arena.el("h2", {}, Arena.t("Quick play")),
      form,
      Arena.el("p", { id: "quick-status", role: "status", "aria-live": "polite" }),
      Arena.el("button", { type: "button", id: "quick-leave", hidden: "", onclick: QuickPlay.leave },
        leaveText),
      Arena.el("p", { class: "error", id: "quick-error", hidden: "" }),
    ];
  },

  challengeCard(kept) {
    const accountLabel = Arena.t("Account id");
    const gameLabel = Arena.t("Game");
    const ratedLabel = Arena.t("Rated");
    const clockLabel = Arena.t("Time control");
    const sendText = Arena.t("Send challenge");
    const form = Arena.el("form", { id: "challenge-form", onsubmit: (event) => {
      event.preventDefault();
      QuickPlay.challenge();
    } },
    Arena.el("label", {}, accountLabel, " ",
      Arena.el("input", { id: "challenge-account", required: "", autocomplete: "off" })),
    Arena.el("label", {}, gameLabel, " ",
      Arena.el("select", { id: "challenge-game" }, QuickPlay.gameOptions())),
    Arena.el("label", {}, Arena.el("input", { type: "checkbox", id: "challenge-rated" }),
      " ", ratedLabel),
    Arena.el("label", {}, clockLabel, " ", Arena.el("select", { id: "challenge-clock" },
      QuickPlay.clocks().map(([value, text]) => Arena.el("option", { value }, text)))),
    Arena.el("button", { type: "submit", id: "challenge-send" }, sendText));
    const yourId = Arena.t("Your account id (others challenge you with it):");
    return [
      Arena.el("h2", {}, Arena.t("Challenges")),
      Arena.el("p", {}, yourId, " ", Arena.el("code", { id: "my-account-id" }, kept.account.id)),
      form,
      Arena.el("p", { id: "challenge-sent", role: "status", "aria-live": "polite" }),
      Arena.el("p", { class: "error", id: "challenge-error", hidden: "" }),
      Arena.el("h3", {}, Arena.t("Challenges to you")),
      Arena.el("ul", { id: "invitations" }),
    ];
  },

  fail(id, failure) {
    const error = document.getElementById(id);
    if (!error) return;
    error.textContent = failure ? failure.message : "";
    error.hidden = !failure;
  },

  // -- Quick play ---------------------------------------------------------------------------
  async join() {
    QuickPlay.fail("quick-error", null);
    const bots = document.getElementById("quick-bots").value;
    try {
      const ticket = await People.call("POST", "/v1/me/pool", { body: {
        game: document.getElementById("quick-game").value,
        players: Number(document.getElementById("quick-players").value),
        options: {}, bot_fill: bots || null } });
      QuickPlay.follow(ticket);
    } catch (failure) {
      QuickPlay.fail("quick-error", failure);
    }
  },

  async leave() {
    try {
      await People.call("DELETE", "/v1/me/pool");
    } catch (failure) {
      if (failure.status !== 409) QuickPlay.fail("quick-error", failure);
    }
    // A 409 is a ticket matched meanwhile: the poll opens its match.
    if (QuickPlay.ticket && QuickPlay.ticket.status === "waiting") QuickPlay.show(null);
  },

  // Show the ticket: waiting (with the time waited, ticking here) or nothing.
  show(ticket) {
    QuickPlay.ticket = ticket;
    clearInterval(QuickPlay.ticker);
    const status = document.getElementById("quick-status");
    const leave = document.getElementById("quick-leave");
    const join = document.getElementById("quick-join");
    if (!status) return;
    const waiting = Boolean(ticket && (ticket.status === "waiting" || ticket.status === "forming"));
    leave.hidden = !waiting;
    join.disabled = waiting;
    if (!waiting) {
      status.textContent = "";
      return;
    }
    const since = Date.now() - ticket.waited * 1000;
    const game = Arena.gameName(ticket.game);
    const tick = () => {
      const seconds = Math.floor((Date.now() - since) / 1000);
      status.textContent = Arena.t("Waiting for players in {game}… {seconds} s",
        { game, seconds });
    };
    tick();
    QuickPlay.ticker = setInterval(tick, 1000);
  },

  // Long-poll the ticket until it is matched (open the match) or ends. Each join starts a new
  // loop; an older one (its ticket left, then joined again) stops at its next answer.
  async follow(ticket) {
    QuickPlay.generation += 1;
    const mine = QuickPlay.generation;
    const current = () => mine === QuickPlay.generation && QuickPlay.ticket;
    QuickPlay.show(ticket);
    try {
      let now = ticket;
      while (People.session() && (now.status === "waiting" || now.status === "forming")) {
        now = await People.call("GET", "/v1/me/pool?wait=20");
        if (!current()) return;  // left, or followed by a newer loop
        QuickPlay.show(now);
      }
      if (now.status === "matched") QuickPlay.open(now.match, [now.seat]);
      else if (now.status === "failed") QuickPlay.fail("quick-error", new Error(now.detail || now.status));
    } catch (failure) {
      if (!current()) return;
      if (failure.status !== 404) QuickPlay.fail("quick-error", failure);
      QuickPlay.show(null);
    }
  },

  open(matchId, seats) {
    People.keepSeats(matchId, seats);
    window.location.href = `/play/${matchId}`;
  },

  // A ticket left waiting by an earlier visit of this page: follow it again.
  async resume() {
    try {
      const ticket = await People.call("GET", "/v1/me/pool");
      if (ticket.status === "waiting" || ticket.status === "forming") QuickPlay.follow(ticket);
    } catch {
      // No ticket (404): nothing to resume.
    }
  },

  // -- Challenges ---------------------------------------------------------------------------
  async challenge() {
    QuickPlay.fail("challenge-error", null);
    const sent = document.getElementById("challenge-sent");
    sent.replaceChildren();
    const me = People.session().account.id;
    const clock = QuickPlay.clocks().find(([value]) => value === document.getElementById("challenge-clock").value);
    const body = {
      game: document.getElementById("challenge-game").value,
      rated: document.getElementById("challenge-rated").checked,
      seats: [{ kind: "account", account: me },
        { kind: "account", account: document.getElementById("challenge-account").value.trim() }],
    };
    if (clock && clock[2]) body.time_control = clock[2];
    try {
      const match = await People.createMatch(body);
      const openText = Arena.t("Open the match");
      sent.append(Arena.t("Challenge sent."), " ",
        Arena.el("a", { href: `/play/${match.id}`, id: "challenge-match" }, openText));
    } catch (failure) {
      QuickPlay.fail("challenge-error", failure);
    }
  },

  async answer(invitation, accept) {
    QuickPlay.fail("challenge-error", null);
    const verb = accept ? "accept" : "decline";
    try {
      await People.call("POST", `/v1/me/invitations/${invitation.id}/${verb}`);
      if (accept) {
        QuickPlay.open(invitation.match, invitation.seats || []);
        return;
      }
    } catch (failure) {
      QuickPlay.fail("challenge-error", failure);
    }
    await QuickPlay.listInvitations();
  },

  // A time control as the challenge form names it, or in minutes (hours) if it is another.
  clockName(control) {
    if (!control) return Arena.t("No clock");
    const same = (preset) => preset && preset.kind === control.kind && (control.kind === "realtime"
      ? preset.base === control.base && preset.increment === control.increment
      : preset.per_move === control.per_move);
    const preset = QuickPlay.clocks().find(([, , value]) => same(value));
    if (preset) return preset[1];
    if (control.kind === "realtime") {
      return Arena.t("{minutes} min + {seconds} s a move",
        { minutes: Math.round(control.base / 6) / 10, seconds: control.increment });
    }
    return Arena.t("{hours} h per move (turn-based)",
      { hours: Math.round(control.per_move / 360) / 10 });
  },

  // What a person decides a challenge on: the game, rated or not, the clock, and who else plays.
  invitationRow(invitation) {
    const rated = invitation.rated ? Arena.t("rated") : Arena.t("casual");
    const mine = invitation.seats || [];
    const others = (invitation.players || []).filter((p) => !mine.includes(p.seat)).map((p) => p.name);
    const text = [Arena.t("{game}, {rated}", { game: Arena.gameName(invitation.game), rated }),
      QuickPlay.clockName(invitation.time_control),
      others.length ? Arena.t("against {names}", { names: others.join(", ") }) : null,
    ].filter(Boolean).join(" · ");
    const acceptText = Arena.t("Accept");
    const declineText = Arena.t("Decline");
    const acceptLabel = Arena.t("Accept the challenge: {what}", { what: text });
    const declineLabel = Arena.t("Decline the challenge: {what}", { what: text });
    return Arena.el("li", { class: "invitation", dataset: { invitation: invitation.id } }, text, " ",
      Arena.el("button", { type: "button", class: "accept", "aria-label": acceptLabel,
        onclick: () => QuickPlay.answer(invitation, true) }, acceptText), " ",
      Arena.el("button", { type: "button", class: "decline", "aria-label": declineLabel,
        onclick: () => QuickPlay.answer(invitation, false) }, declineText));
  },

  async listInvitations() {
    const list = document.getElementById("invitations");
    if (!list || !People.session()) return;
    const { invitations } = await People.call("GET", "/v1/me/invitations");
    const challenges = invitations.filter((i) => i.kind === "match");
    list.replaceChildren(...challenges.map(QuickPlay.invitationRow));
    if (!challenges.length) list.append(Arena.el("li", {}, Arena.t("No challenge.")));
  },

  // -- Drawing ------------------------------------------------------------------------------
  draw() {
    const quick = document.getElementById("quickplay");
    const challenges = document.getElementById("challenges");
    if (!quick || !challenges) return;
    const kept = People.session();
    quick.hidden = !kept;
    challenges.hidden = !kept;
    if (!kept) {
      quick.replaceChildren();
      challenges.replaceChildren();
      QuickPlay.show(null);
      return;
    }
    quick.replaceChildren(...QuickPlay.quickCard());
    challenges.replaceChildren(...QuickPlay.challengeCard(kept));
    QuickPlay.drawPlayers();
    QuickPlay.resume();
    QuickPlay.listInvitations().catch(() => {});
  },

  async start() {
    QuickPlay.games = (await Arena.api("GET", "/v1/games")).games;
    const drawPerson = People.draw;
    People.draw = () => {  // signing in or out redraws these cards too
      drawPerson();
      QuickPlay.draw();
    };
    QuickPlay.draw();
    setInterval(() => QuickPlay.listInvitations().catch(() => {}), 3000);
  },
};

QuickPlay.start();
