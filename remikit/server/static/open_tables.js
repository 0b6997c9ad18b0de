// The lobby's open tables: the filters, a page of the list and the pager; each table with
// its status, its seats and the links to sit, go back to one's seat or watch.

import {N_, t} from "./i18n.js";
import {form, showError, variantTitle} from "./lobby_page.js";
import {url} from "./urls.js";
import {$, api, h, levelName, tokenKey} from "./util.js";

const STATUS = {waiting: N_("status.waiting"), playing: N_("status.playing"), finished: N_("status.finished")};

// The lobby shows one page of the open tables at a time, filtered by game, by the language
// their creator chose and by whether a seat is free (GET /api/tables).
const LOBBY_PAGE = 20;
const LANG_NAME = {id: N_("lobby.lang_id"), en: N_("lobby.lang_en")};
const lobby = {tables: [], total: 0, offset: 0, variant: "", lang: "", free: false, asked: 0};

function lobbyPath() {
  const query = new URLSearchParams({limit: String(LOBBY_PAGE), offset: String(lobby.offset)});
  if (lobby.variant) query.set("variant", lobby.variant);
  if (lobby.lang) query.set("table_lang", lobby.lang);
  if (lobby.free) query.set("open", "true");
  return `/api/tables?${query}`;
}

export async function refreshTables() {
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

export function renderTables() {
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
