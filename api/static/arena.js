// Evo Arena pages: shared helpers (API calls, seat tokens kept in this browser, elements).
"use strict";

const Arena = {
  async api(method, path, { token, body } = {}) {
    // The page's language (docs/languages.md): move labels and errors' details come in it.
    const headers = { Accept: "application/json", "Accept-Language": Arena.lang() };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = response.status === 204 ? null : await response.json();
    if (!response.ok) {
      const error = new Error((data && data.detail) || `HTTP ${response.status}`);
      error.status = response.status;
      error.problem = data;
      throw error;
    }
    return data;
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
};

// Board renderers: a game's own (loaded from /boards/<game>.js) registers here.
window.EvoBoards = window.EvoBoards || {};

// Languages (docs/languages.md): the page's language is the server's choice (its `lang` query
// parameter, else Accept-Language); a person's pick is remembered in this browser and passed
// on to every page through `?lang=`.
Arena.lang = () => document.documentElement.lang || "en";
(() => {
  const LANG_KEY = "evo:lang";
  const url = new URL(window.location.href);
  let stored = null;
  try { stored = localStorage.getItem(LANG_KEY); } catch { /* storage off: no memory */ }
  if (stored && !url.searchParams.has("lang") && stored !== Arena.lang()) {
    url.searchParams.set("lang", stored);
    window.location.replace(url.href);
    return;
  }
  const picker = document.getElementById("lang-picker");
  if (!picker) return;
  picker.addEventListener("change", () => {
    try { localStorage.setItem(LANG_KEY, picker.value); } catch { /* storage off */ }
    url.searchParams.set("lang", picker.value);
    window.location.assign(url.href);
  });
})();
