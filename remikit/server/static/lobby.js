// The lobby (/): open tables, a new table of any variant with its options and seats (a
// person or a bot of a chosen level), joining by code, and the finished games with their
// replays and records. The option form is built from /api/variants: a select where an
// option lists its choices, a number box with its min and max, a checkbox for a boolean;
// labels are the messages each option names (`label`, `choice_labels`), else its name.

import {ownerKey} from "./absence.js";
import {DEFAULT_SETTINGS, settingsFieldset} from "./table_settings.js";
import {N_, has, langButton, onLangChange, t} from "./i18n.js";
import {url} from "./urls.js";
import {$, api, ensureProfile, h, joinTable, levelName, levelStrength, NAME_KEY, storedProfile, tokenKey} from "./util.js";

const form = {
  variants: [],
  variant: null,
  options: {}, // per variant: {name: value}
  seats: {}, // per variant: [{kind, level}]
  title: "",
  name: localStorage.getItem(NAME_KEY) || "",
  settings: {...DEFAULT_SETTINGS},
  creating: false,
};

function showError(text) {
  const element = $("#error");
  element.textContent = text || "";
  element.hidden = !text;
}

function header() {
  document.title = t("lobby.title");
  $("#topbar").replaceChildren(
    h("a", {href: url("/"), class: "brand home"}, "remikit"),
    h("span", {class: "table-title"}, t("lobby.title").split(": ")[1]),
    h("a", {href: url("/competitions/new"), id: "competition-link"}, t("lobby.competition")),
    h("a", {href: url("/leaderboard"), id: "leaderboard-link"}, t("profile.leaderboard_link")),
    storedProfile() ? h("a", {href: url(`/profile/${storedProfile().id}`), id: "profile-link"}, t("profile.mine")) : null,
    langButton());
  $("#tagline").textContent = form.variants.length
    ? t("app.tagline", {variants: form.variants.map((v) => variantTitle(v, document.documentElement.lang)).join(", ")}) : "";
}

// -- a new table ------------------------------------------------------------------------

const variantInfo = () => form.variants.find((v) => v.name === form.variant);
const variantTitle = (info, lang) => (info.title && (info.title[lang] || info.title.en)) || info.name;

function optionValues() {
  const info = variantInfo();
  if (!form.options[info.name]) {
    form.options[info.name] = Object.fromEntries(info.options.map((o) => [o.name, o.default]));
  }
  return form.options[info.name];
}

function seatList() {
  const info = variantInfo();
  const players = Number(optionValues().players) || 4;
  let seats = form.seats[info.name];
  if (!seats) {
    seats = [{kind: "person", level: info.default_bot}];
    form.seats[info.name] = seats;
  }
  while (seats.length < players) seats.push({kind: "bot", level: info.default_bot});
  seats.length = players;
  return seats;
}

const message = (key, fallback) => (key && has(key) ? t(key) : fallback);

const STATUS = {waiting: N_("status.waiting"), playing: N_("status.playing"), finished: N_("status.finished")};
const bound = (n) => (n === null || n === undefined ? null : String(n));

// The help beside an option: what it changes, with a link to its rule on the rules page.
function optionHelp(option, id) {
  if (!option.help || !has(option.help)) return null;
  const lang = document.documentElement.lang;
  const rule = option.rule
    ? h("a", {href: url(`/rules/${form.variant}?lang=${lang}#${option.rule}`), target: "_blank", rel: "noopener"}, option.rule)
    : null;
  return h("small", {class: "help", id: `help-${id}`}, t(option.help), rule ? " " : null, rule);
}

function optionField(option, values) {
  const id = `opt-${option.name}`;
  const label = message(option.label, option.name);
  const value = values[option.name];
  const set = (v) => { values[option.name] = v; };
  const help = optionHelp(option, id);
  const described = help ? {"aria-describedby": `help-${id}`} : {};
  let input;
  if (option.type === "boolean") {
    input = h("input", {type: "checkbox", id, name: option.name, checked: Boolean(value), ...described,
      onchange: (e) => set(e.target.checked)});
    return h("div", {class: "option-field"}, h("label", {class: "check", for: id}, input, label), help);
  }
  if (option.choices) {
    input = h("select", {id, name: option.name, ...described, onchange: (e) => set(option.type === "integer" ? Number(e.target.value) : e.target.value)},
      option.choices.map((c, i) => h("option", {value: String(c), selected: String(c) === String(value)},
        message(option.choice_labels?.[i], String(c)))));
  } else if (option.type === "integer") {
    input = h("input", {type: "number", id, name: option.name, value: String(value), inputmode: "numeric", ...described,
      min: bound(option.min), max: bound(option.max),
      disabled: option.min !== null && option.min === option.max,
      step: "1",
      onchange: (e) => {
        set(Number(e.target.value));
        if (option.name === "players") renderNewTable();
      }});
  } else {
    input = h("input", {type: "text", id, name: option.name, value: String(value), onchange: (e) => set(e.target.value)});
  }
  return h("div", {class: "option-field"}, h("label", {for: id}, h("span", {}, label), input), help);
}

function seatRow(info, seat, index) {
  const kind = h("select", {name: `seat-${index}-kind`, id: `seat-${index}-kind`, "aria-label": t("common.seat", {n: index + 1}),
    onchange: (e) => { seat.kind = e.target.value; renderNewTable(); }},
  h("option", {value: "person", selected: seat.kind === "person"}, t("lobby.person")),
  h("option", {value: "bot", selected: seat.kind === "bot"}, t("lobby.bot")));
  const level = seat.kind === "bot"
    ? h("select", {name: `seat-${index}-level`, id: `seat-${index}-level`, onchange: (e) => { seat.level = e.target.value; }},
      info.bots.map((b) => h("option", {value: b, selected: b === seat.level}, levelStrength(b, info.strength?.[b]))))
    : null;
  return h("div", {class: "seat-row", dataset: {seat: String(index)}},
    h("span", {class: "seat-no"}, t("common.seat", {n: index + 1})), kind, level);
}

function renderNewTable() {
  const box = $("#new-table");
  if (!form.variants.length) return;
  const info = variantInfo();
  const values = optionValues();
  const seats = seatList();
  const people = seats.filter((s) => s.kind === "person").length;
  const variant = h("select", {id: "variant", name: "variant", onchange: (e) => { form.variant = e.target.value; renderNewTable(); }},
    form.variants.map((v) => h("option", {value: v.name, selected: v.name === form.variant}, variantTitle(v, document.documentElement.lang))));
  const name = h("input", {id: "create-name", name: "name", maxlength: "24", autocomplete: "nickname",
    placeholder: t("lobby.name_placeholder"), value: form.name, oninput: (e) => { form.name = e.target.value; }});
  const title = h("input", {id: "create-title", name: "title", maxlength: "60", value: form.title,
    oninput: (e) => { form.title = e.target.value; }});
  box.replaceChildren(h("form", {id: "create-form", onsubmit: (e) => { e.preventDefault(); create(); }},
    h("h2", {}, t("lobby.new_table")),
    h("label", {for: "variant"}, h("span", {}, t("lobby.variant")), variant),
    h("a", {class: "rules-link", id: "rules-link", href: url(`/rules/${info.name}?lang=${document.documentElement.lang}`),
      target: "_blank", rel: "noopener"}, t("lobby.rules_of", {variant: variantTitle(info, document.documentElement.lang)})),
    h("fieldset", {class: "options"}, h("legend", {}, t("lobby.options")),
      info.options.map((option) => optionField(option, values))),
    h("fieldset", {class: "seats"}, h("legend", {}, t("lobby.seats")),
      seats.map((seat, index) => seatRow(info, seat, index))),
    settingsFieldset(form.settings, info.bots),
    h("label", {for: "create-title"}, h("span", {}, t("lobby.title_field")), title),
    people ? h("label", {for: "create-name"}, h("span", {}, t("lobby.your_name")), name) : null,
    h("button", {type: "submit", class: "btn primary", id: "create-submit", disabled: form.creating},
      people ? t("lobby.create") : t("lobby.create_watch"))));
}

async function create() {
  const info = variantInfo();
  const seats = seatList();
  const person = seats.findIndex((s) => s.kind === "person");
  const name = form.name.trim();
  if (person >= 0 && !name) {
    showError(t("lobby.need_name"));
    $("#create-name")?.focus();
    return;
  }
  showError("");
  form.creating = true;
  renderNewTable();
  try {
    const body = {
      variant: info.name,
      options: optionValues(),
      seats: seats.map((s) => (s.kind === "person" ? {kind: "person"} : {kind: "bot", level: s.level})),
      settings: form.settings,
      lang: document.documentElement.lang,
    };
    if (form.title.trim()) body.title = form.title.trim();
    const created = await api("/api/tables", body);
    const code = created.table.id;
    localStorage.setItem(ownerKey(code), created.owner_token);
    if (person >= 0) {
      await joinTable(code, {name, seat: person, lang: document.documentElement.lang});
      localStorage.setItem(NAME_KEY, name);
    }
    location.href = created.link;
  } catch (error) {
    showError(error.message);
  } finally {
    form.creating = false;
    renderNewTable();
  }
}

// -- join by code ----------------------------------------------------------------------

function renderJoin() {
  const code = h("input", {id: "join-code-input", name: "code", maxlength: "8", autocapitalize: "characters",
    autocomplete: "off", spellcheck: "false", placeholder: "HTEAG5UY", class: "code-input"});
  const name = h("input", {id: "join-name", name: "name", maxlength: "24", autocomplete: "nickname",
    placeholder: t("lobby.name_placeholder"), value: form.name, oninput: (e) => { form.name = e.target.value; }});
  $("#join-code").replaceChildren(h("form", {id: "join-form", onsubmit: async (e) => {
    e.preventDefault();
    const value = code.value.trim().toUpperCase();
    if (!/^[0-9A-Z]{8}$/.test(value)) {
      showError(t("lobby.need_code"));
      return;
    }
    showError("");
    try {
      const {table} = await api(`/api/tables/${value}`);
      if (localStorage.getItem(tokenKey(table.id)) || !table.free_seats.length || table.status !== "waiting") {
        location.href = url(`/table/${table.id}`);
        return;
      }
      if (!form.name.trim()) {
        showError(t("lobby.need_name"));
        name.focus();
        return;
      }
      const joined = await joinTable(table.id, {name: form.name.trim(), lang: document.documentElement.lang});
      localStorage.setItem(NAME_KEY, form.name.trim());
      location.href = joined.link;
    } catch (error) {
      showError(error.message);
    }
  }},
  h("h2", {}, t("lobby.join_code")),
  h("div", {class: "row wrap"},
    h("label", {for: "join-code-input"}, h("span", {}, t("lobby.code")), code),
    h("label", {for: "join-name"}, h("span", {}, t("lobby.your_name")), name)),
  h("button", {type: "submit", class: "btn primary", id: "join-submit"}, t("lobby.join"))));
}

// -- open tables and finished games ------------------------------------------------------

// The lobby shows one page of the open tables at a time, filtered by game, by the language
// their creator chose and by whether a seat is free (GET /api/tables).
const LOBBY_PAGE = 20;
const LANG_NAME = {id: N_("lobby.lang_id"), en: N_("lobby.lang_en")};
const lobby = {tables: [], total: 0, offset: 0, variant: "", lang: "", free: false, asked: 0};
let lastGames = [];

function lobbyPath() {
  const query = new URLSearchParams({limit: String(LOBBY_PAGE), offset: String(lobby.offset)});
  if (lobby.variant) query.set("variant", lobby.variant);
  if (lobby.lang) query.set("table_lang", lobby.lang);
  if (lobby.free) query.set("open", "true");
  return `/api/tables?${query}`;
}

async function refreshTables() {
  const asked = ++lobby.asked; // only the latest request's answer is shown
  try {
    let page = await api(lobbyPath());
    if (!page.tables.length && page.total && lobby.offset) { // the page emptied: show the last one
      lobby.offset = Math.floor((page.total - 1) / LOBBY_PAGE) * LOBBY_PAGE;
      page = await api(lobbyPath());
    }
    if (asked !== lobby.asked) return;
    lobby.tables = page.tables;
    lobby.total = page.total;
    renderTableList();
  } catch (error) {
    showError(t("common.error", {message: error.message}));
  }
}

function refilter(change) {
  Object.assign(lobby, change, {offset: 0});
  refreshTables();
}

function turnPage(step) {
  lobby.offset = Math.max(0, lobby.offset + step * LOBBY_PAGE);
  refreshTables();
}

function tableFilters() {
  const lang = document.documentElement.lang;
  const variant = h("select", {id: "filter-variant", name: "filter-variant", onchange: (e) => refilter({variant: e.target.value})},
    h("option", {value: "", selected: !lobby.variant}, t("lobby.all_variants")),
    form.variants.map((v) => h("option", {value: v.name, selected: v.name === lobby.variant}, variantTitle(v, lang))));
  const language = h("select", {id: "filter-lang", name: "filter-lang", onchange: (e) => refilter({lang: e.target.value})},
    h("option", {value: "", selected: !lobby.lang}, t("lobby.any_lang")),
    Object.entries(LANG_NAME).map(([code, key]) => h("option", {value: code, selected: code === lobby.lang}, t(key))));
  const free = h("input", {type: "checkbox", id: "filter-open", name: "filter-open", checked: lobby.free,
    onchange: (e) => refilter({free: e.target.checked})});
  return h("div", {class: "row wrap", id: "table-filters"},
    h("label", {class: "inline", for: "filter-variant"}, t("lobby.variant"), variant),
    h("label", {class: "inline", for: "filter-lang"}, t("lobby.table_lang"), language),
    h("label", {class: "check", for: "filter-open"}, free, t("lobby.free_only")));
}

function pager() {
  if (lobby.total <= LOBBY_PAGE && !lobby.offset) return null;
  const last = lobby.offset + lobby.tables.length;
  return h("div", {class: "row wrap", id: "table-pager"},
    h("button", {type: "button", class: "btn small", id: "page-prev", disabled: !lobby.offset, onclick: () => turnPage(-1)},
      t("lobby.prev")),
    h("span", {class: "muted", id: "page-range"}, t("lobby.range", {first: lobby.offset + 1, last, total: lobby.total})),
    h("button", {type: "button", class: "btn small", id: "page-next", disabled: last >= lobby.total, onclick: () => turnPage(1)},
      t("lobby.next")));
}

function seatsText(seats, freeWord) {
  return seats.map((s) => (s.kind === "bot" ? `${s.name || "Bot"} (${levelName(s.level)})` : s.taken ? s.name : freeWord));
}

function renderTables() {
  $("#open-tables").replaceChildren(h("h2", {}, t("lobby.open_tables")), tableFilters(), h("div", {id: "table-page"}));
  renderTableList();
}

function renderTableList() {
  const list = lobby.tables.map((table) => {
    const mine = localStorage.getItem(tokenKey(table.id));
    const title = variantTitle({title: table.variant_title, name: table.variant}, document.documentElement.lang);
    return h("li", {class: "table-item", dataset: {table: table.id}},
      h("div", {class: "item-head"},
        h("b", {}, table.title), " ", h("code", {}, table.id), " ",
        h("span", {class: `tag status-${table.status}`}, t(STATUS[table.status]))),
      h("div", {class: "muted"}, table.title === title || table.title === table.variant_title?.en ? "" : title,
        table.spectators ? ` ${t("lobby.spectators", {n: table.spectators})}` : ""),
      h("div", {class: "seats-line"}, seatsText(table.seats, t("lobby.free")).join(" · ")),
      h("div", {class: "row"},
        mine ? h("a", {class: "btn primary small", href: url(`/table/${table.id}`), dataset: {action: "back"}}, t("lobby.back"))
          : table.free_seats.length ? h("a", {class: "btn primary small", href: url(`/table/${table.id}`), dataset: {action: "sit"}}, t("lobby.join")) : null,
        mine ? null : h("a", {class: "btn small", href: url(`/table/${table.id}`), dataset: {action: "watch"}}, t("lobby.watch"))));
  });
  const filtered = lobby.variant || lobby.lang || lobby.free;
  const shown = list.length ? h("ul", {class: "items", id: "table-list"}, list)
    : h("p", {class: "muted"}, filtered ? t("lobby.no_match") : t("lobby.no_tables"));
  const pages = pager();
  $("#table-page").replaceChildren(...(pages ? [shown, pages] : [shown]));
}

const WINNER = {person: N_("lobby.winner"), standIn: N_("lobby.winner_stand_in")};

/** Whether the stand-in bot made most of `seat`'s actions in a finished game. */
function standIn(result, seat) {
  const turns = result.turns?.[seat] ?? 0;
  return turns > 0 && (result.stand_in_turns?.[seat] ?? 0) * 2 > turns;
}

function renderGames() {
  const items = lastGames.map((game) => {
    const result = game.result || {};
    const names = game.seats.map((s) => s.name || `Bot ${s.seat}`);
    const winner = result.winner === null || result.winner === undefined ? t("lobby.no_winner")
      : t(standIn(result, result.winner) ? WINNER.standIn : WINNER.person, {name: names[result.winner]});
    const when = game.finished_at ? new Date(game.finished_at).toLocaleString(document.documentElement.lang === "id" ? "id-ID" : "en-GB",
      {dateStyle: "medium", timeStyle: "short"}) : "";
    return h("li", {class: "game-item", dataset: {game: game.id}},
      h("div", {class: "item-head"}, h("b", {}, game.title), " ", h("code", {}, game.id), " ",
        h("span", {class: "muted"}, when)),
      h("div", {class: "seats-line"}, names.map((n, i) => `${n} ${result.totals ? result.totals[i] : ""}`).join(" · ")),
      h("div", {}, winner),
      h("div", {class: "row"},
        h("a", {class: "btn small", href: url(`/static/replay.html?game=${game.id}`), dataset: {action: "replay"}}, t("lobby.replay")),
        h("a", {class: "btn small ghost", href: game.record, download: `remikit-${game.variant}-${game.id}.record.json`,
          dataset: {action: "record"}}, t("lobby.download"))));
  });
  $("#finished").replaceChildren(h("h2", {}, t("lobby.finished")),
    items.length ? h("ul", {class: "items", id: "game-list"}, items) : h("p", {class: "muted"}, t("lobby.no_games")));
}

async function refresh() {
  const tables = refreshTables();
  try {
    lastGames = (await api("/api/games?limit=20")).games;
    renderGames();
  } catch (error) {
    showError(t("common.error", {message: error.message}));
  }
  await tables;
}

function renderAll() {
  header();
  renderNewTable();
  renderJoin();
  renderTables();
  renderGames();
}

onLangChange(renderAll);

async function start() {
  header();
  ensureProfile().then(header, () => {}); // a first visit gets its profile, silently
  renderTables();
  renderGames();
  renderJoin();
  try {
    const {variants} = await api("/api/variants");
    form.variants = variants;
    const wanted = new URLSearchParams(location.search).get("variant");
    form.variant = variants.some((v) => v.name === wanted) ? wanted : variants[0].name;
    header(); // the tagline names the variants
    renderNewTable();
    renderTables(); // the game filter lists the variants
  } catch (error) {
    showError(t("common.error", {message: error.message}));
  }
  await refresh();
  setInterval(refresh, 5000);
}

start();
