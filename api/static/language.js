// Languages (docs/languages.md): the page's language is the server's choice (its `lang` query
// parameter, else Accept-Language); a person's pick is remembered in this browser and passed
// on to every page through `?lang=`. Loaded by the language picker (_language.html) on every
// page that has one, scripted or not, right after the picker.
"use strict";

(() => {
  const LANG_KEY = "evo:lang";
  const url = new URL(window.location.href);
  const shown = document.documentElement.lang || "en";
  let stored = null;
  try { stored = localStorage.getItem(LANG_KEY); } catch { /* storage off: no memory */ }
  if (stored && !url.searchParams.has("lang") && stored !== shown) {
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
