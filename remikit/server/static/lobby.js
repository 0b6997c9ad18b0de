// The lobby (/): open tables (open_tables.js), a new table of any variant with its options
// and seats (new_table.js), joining by code, and the finished games with their replays and
// records; what the parts share is lobby_page.js.

import {N_, onLangChange, t} from "./i18n.js";
import {form, header, showError} from "./lobby_page.js";
import {renderNewTable} from "./new_table.js";
import {refreshTables, renderTables} from "./open_tables.js";
import {url} from "./urls.js";
import {$, api, ensureProfile, h, joinTable, NAME_KEY, tokenKey} from "./util.js";

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

// -- finished games ----------------------------------------------------------------------

let lastGames = [];

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
