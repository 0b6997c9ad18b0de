// The player's display settings, kept in localStorage for every table and the replays:
// bigger cards, the four-colour deck (Sekop black, Hati red, Wajik blue, Keriting green)
// and the your-turn sound. Cards follow them through classes on <html> (style.css), so a
// change shows at once wherever cards are drawn.

import {t} from "./i18n.js";
import {h} from "./util.js";

const KEY = "remikit.prefs";
const DEFAULTS = {bigCards: false, fourColour: false, sound: false};
const CLASSES = {bigCards: "big-cards", fourColour: "four-colour"};

function load() {
  try {
    return {...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}")};
  } catch {
    return {...DEFAULTS};
  }
}

let prefs = load();
const listeners = [];

export const pref = (name) => prefs[name];

/** Put the settings on the page: the classes the stylesheet draws cards by. */
export function applyPrefs() {
  for (const [name, cls] of Object.entries(CLASSES)) document.documentElement.classList.toggle(cls, Boolean(prefs[name]));
}

export function setPref(name, value) {
  prefs = {...prefs, [name]: value};
  localStorage.setItem(KEY, JSON.stringify(prefs));
  applyPrefs();
  for (const listener of listeners) listener(name, value);
}

export function onPrefChange(listener) { listeners.push(listener); }

/** The settings button for the top bar and its panel; `withSound` adds the your-turn sound. */
export function prefsControl({withSound = false} = {}) {
  const box = (name, label) => h("label", {class: "check"},
    h("input", {type: "checkbox", id: `pref-${name}`, checked: prefs[name],
      onchange: (event) => setPref(name, event.target.checked)}),
    label);
  const panel = h("div", {class: "popover card-box", id: "prefs-panel", role: "group",
    "aria-label": t("prefs.title"), hidden: true},
  h("h3", {}, t("prefs.title")),
  box("bigCards", t("prefs.big_cards")),
  box("fourColour", t("prefs.four_colour")),
  withSound ? box("sound", t("prefs.sound")) : null);
  const button = h("button", {type: "button", class: "btn ghost small", id: "prefs-toggle",
    "aria-expanded": "false", "aria-controls": "prefs-panel", onclick: () => togglePanel(button, panel)},
  t("prefs.button"));
  return [button, panel];
}

/** Show or hide a top-bar popover from its button. */
export function togglePanel(button, panel, open = panel.hidden) {
  panel.onkeydown = (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    togglePanel(button, panel, false);
    button.focus();
  };
  panel.hidden = !open;
  panel.style.top = `${Math.round(button.getBoundingClientRect().bottom + 6)}px`; // under its button
  button.setAttribute("aria-expanded", open ? "true" : "false");
  if (open) panel.querySelector("input, button, [tabindex]")?.focus();
}

applyPrefs();
