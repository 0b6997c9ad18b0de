// The browser's messages, from the same gettext catalogues the server speaks (remikit/locale;
// docs/translating.md): GET /api/messages?lang= sends every message of one language with its
// plural rule. This module loads them before any page renders (a top-level await), so every
// module that imports it may call t() at once. The server's own messages (errors, refusals)
// come in the language sent in the hello and with ?lang=.

const KEY = "remikit.lang";
const loaded = new Map(); // language → its catalogue, once fetched

async function fetchCatalogue(code) {
  if (!loaded.has(code)) {
    loaded.set(code, fetch(`/api/messages?lang=${encodeURIComponent(code)}`).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    }).then((body) => ({...body, pluralIndex: pluralFunction(body.plural)})));
  }
  return loaded.get(code);
}

/** A gettext Plural-Forms expression ("(n != 1)", "0") as a function of n; only the
 * characters such an expression uses are accepted. */
function pluralFunction(rule) {
  if (typeof rule === "string" && /^[\sn0-9!=<>%&|?:()]+$/.test(rule)) {
    // eslint-disable-next-line no-new-func
    return new Function("n", `return Number(${rule});`);
  }
  return (n) => (n === 1 ? 0 : 1);
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
