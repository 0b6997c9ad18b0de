// The browser's messages, from the same gettext catalogues the server speaks (remikit/locale;
// docs/translating.md): GET /api/messages?lang= sends every message of one language with its
// plural rule. This module loads them before any page renders (a top-level await), so every
// module that imports it may call t() at once. The server's own messages (errors, refusals)
// come in the language sent in the hello and with ?lang=.

import {url} from "./urls.js";

const KEY = "remikit.lang";
const loaded = new Map(); // language → its catalogue, once fetched

async function fetchCatalogue(code) {
  if (!loaded.has(code)) {
    loaded.set(code, fetch(url(`/api/messages?lang=${encodeURIComponent(code)}`)).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    }).then((body) => ({...body, pluralIndex: pluralFunction(body.plural)})));
  }
  return loaded.get(code);
}

/** A gettext Plural-Forms expression ("(n != 1)", "n%10==1 && n%100!=11 ? 0 : 1") as a
 * function of n, parsed here (the page's Content-Security-Policy allows no eval): the C
 * operators such expressions use, with C's precedence. */
function pluralFunction(rule) {
  const fallback = (n) => (n === 1 ? 0 : 1);
  if (typeof rule !== "string") return fallback;
  const tokens = rule.match(/n|\d+|==|!=|<=|>=|&&|\|\||[<>%!?:()]/g) || [];
  if (tokens.join("") !== rule.replace(/\s+/g, "")) return fallback;
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];
  const binary = (next, ops) => () => {
    let left = next();
    while (ops[peek()]) {
      const op = ops[take()];
      const right = next();
      const l = left;
      left = (n) => op(l(n), right(n));
    }
    return left;
  };
  const primary = () => {
    const token = take();
    if (token === "n") return (n) => n;
    if (token === "(") { const inner = ternary(); take(); return inner; }
    if (token === "!") { const inner = primary(); return (n) => Number(!inner(n)); }
    const value = Number(token);
    return () => value;
  };
  const mod = binary(primary, {"%": (a, b) => a % b});
  const compare = binary(mod, {"<": (a, b) => +(a < b), ">": (a, b) => +(a > b),
    "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b)});
  const equal = binary(compare, {"==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b)});
  const and = binary(equal, {"&&": (a, b) => +(a && b)});
  const or = binary(and, {"||": (a, b) => +(a || b)});
  function ternary() {
    const test = or();
    if (peek() !== "?") return test;
    take();
    const yes = ternary();
    take(); // ":"
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const parsed = ternary();
  return at === tokens.length ? parsed : fallback;
}

function initialLang() {
  const stored = localStorage.getItem(KEY);
  if (stored) return stored;
  const browser = (navigator.language || "id").toLowerCase();
  return browser.startsWith("en") ? "en" : "id";
}

let catalogue;
try {
  catalogue = await fetchCatalogue(initialLang());
} catch (error) {
  console.warn(`remikit: no messages (${error.message})`);
  catalogue = {lang: "en", languages: ["en"], messages: {}, pluralIndex: pluralFunction(null)};
}
let current = catalogue.lang;
const listeners = [];

export const lang = () => current;

/** The languages the server has catalogues for. */
export const languages = () => [...catalogue.languages];

export async function setLang(value) {
  if (!catalogue.languages.includes(value)) return;
  catalogue = await fetchCatalogue(value);
  current = catalogue.lang;
  localStorage.setItem(KEY, current);
  document.documentElement.lang = current;
  for (const listener of listeners) listener(current);
}

export function onLangChange(listener) { listeners.push(listener); }

/** Marks a message id held as data (a table of ids) so that extraction finds it. */
export const N_ = (key) => key;

function format(text, fields) {
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    return name in fields ? String(fields[name]) : match;
  });
}

/** The message `key` in the current language with {fields} filled in. */
export function t(key, fields = {}) {
  const entry = catalogue.messages[key];
  if (entry === undefined) {
    console.warn(`remikit: no string ${key}`);
    return key;
  }
  return format(Array.isArray(entry) ? entry[0] : entry, fields);
}

/** The message `key` in the plural form the current language uses for `n`; {n} is n. */
export function tn(key, n, fields = {}) {
  const entry = catalogue.messages[key];
  if (entry === undefined) {
    console.warn(`remikit: no string ${key}`);
    return key;
  }
  const forms = Array.isArray(entry) ? entry : [entry];
  const text = forms[Math.min(catalogue.pluralIndex(n), forms.length - 1)];
  return format(text, {n, ...fields});
}

export const has = (key) => key in catalogue.messages;

/** The messages with an empty text in the current language (checked by the browser tests). */
export function missingTranslations() {
  return Object.entries(catalogue.messages)
    .filter(([, entry]) => (Array.isArray(entry) ? entry.some((text) => !text) : !entry))
    .map(([key]) => key);
}

/** A button that switches to the next language (with two, between them). */
export function langButton() {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "lang-toggle";
  button.className = "lang-toggle";
  const next = () => {
    const all = catalogue.languages;
    return all[(all.indexOf(current) + 1) % all.length];
  };
  const paint = () => {
    button.textContent = t("lang.switch");
    button.title = t("lang.switch_title");
    button.dataset.lang = current;
  };
  paint();
  button.addEventListener("click", () => setLang(next()));
  onLangChange(paint);
  document.documentElement.lang = current;
  return button;
}
