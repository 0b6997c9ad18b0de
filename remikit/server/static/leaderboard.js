// The leaderboard (/leaderboard?variant=V): a variant's rated players and its bot levels on
// one scale, best first (GET /api/leaderboard); a provisional rating is listed, not ranked.

import {langButton, lang, onLangChange, t} from "./i18n.js";
import {url} from "./urls.js";
import {$, api, h, levelName, storedProfile} from "./util.js";

const page = {variants: [], variant: new URLSearchParams(location.search).get("variant"), board: null};

function showError(text) {
  const element = $("#error");
  element.textContent = text || "";
  element.hidden = !text;
}

const title = (info) => (info.title && (info.title[lang()] || info.title.en)) || info.name;
const number = (value) => new Intl.NumberFormat(lang(), {minimumFractionDigits: 1, maximumFractionDigits: 1}).format(value);

function header() {
  document.title = t("leaderboard.title");
  $("#topbar").replaceChildren(
    h("a", {href: url("/"), class: "home"}, t("common.lobby")),
    h("span", {class: "brand"}, "remikit"),
    h("span", {class: "table-title"}, t("leaderboard.title")),
    storedProfile() ? h("a", {href: url(`/profile/${storedProfile().id}`), id: "profile-link"}, t("profile.mine")) : null,
    langButton());
}

function entryRow(entry) {
  const me = storedProfile()?.id;
  const name = entry.bot
    ? [levelName(entry.name), " ", h("span", {class: "tag"}, t("leaderboard.bot"))]
    : [h("a", {href: url(`/profile/${entry.id}`)}, entry.name),
      ...(entry.provisional ? [" ", h("span", {class: "tag"}, t("profile.provisional"))] : [])];
  return h("tr", {class: [entry.bot ? "bot" : "person", entry.id && entry.id === me ? "mine" : ""].join(" ").trim(),
    dataset: {bot: String(entry.bot), name: entry.name}},
  h("td", {class: "num"}, entry.rank ?? "—"),
  h("td", {}, name),
  h("td", {class: "num"}, number(entry.rating)),
  h("td", {class: "num"}, `${number(entry.mu)} ± ${number(entry.sigma)}`),
  h("td", {class: "num"}, entry.bot ? "" : entry.games));
}

function render() {
  header();
  const select = h("select", {id: "board-variant", onchange: (event) => {
    page.variant = event.target.value;
    history.replaceState(null, "", `?variant=${encodeURIComponent(page.variant)}`);
    load();
  }}, page.variants.map((v) => h("option", {value: v.name, selected: v.name === page.variant}, title(v))));
  const board = page.board;
  const people = board ? board.entries.filter((e) => !e.bot) : [];
  $("#leaderboard").replaceChildren(h("div", {},
    h("h1", {}, t("leaderboard.title")),
    h("label", {for: "board-variant"}, h("span", {}, t("lobby.variant")), " ", select),
    board ? h("table", {class: "listing", id: "board"},
      h("thead", {}, h("tr", {}, h("th", {class: "num"}, "#"), h("th", {}, t("leaderboard.player")),
        h("th", {class: "num"}, t("profile.rating")), h("th", {class: "num"}, "μ ± σ"),
        h("th", {class: "num"}, t("leaderboard.games")))),
      h("tbody", {}, board.entries.map(entryRow))) : null,
    board && !people.length ? h("p", {class: "muted"}, t("leaderboard.empty")) : null,
    board ? h("p", {class: "muted help"}, t("leaderboard.help", {n: board.provisional_games})) : null));
}

async function load() {
  try {
    page.board = await api(`/api/leaderboard?variant=${encodeURIComponent(page.variant)}`);
  } catch (error) {
    showError(t("common.error", {message: error.message}));
  }
  render();
}

async function start() {
  header();
  try {
    page.variants = (await api("/api/variants")).variants;
    if (!page.variants.some((v) => v.name === page.variant)) page.variant = page.variants[0].name;
  } catch (error) {
    showError(t("common.error", {message: error.message}));
    return;
  }
  await load();
}

onLangChange(render);
start();
