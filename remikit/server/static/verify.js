// The record verifier (/verify, /verify?game=CODE): every deal of a game record checked in
// this browser (fairness.js): its secret against its commitment, its deck against the key
// of the secret and the contributions. A record file picked here never leaves the browser:
// the server is told only its variant and options, for the unshuffled deck (POST /api/deck).

import {verifyRecord} from "./fairness.js";
import {N_, langButton, onLangChange, t, tn} from "./i18n.js";
import {url} from "./urls.js";
import {$, api, h, showCard} from "./util.js";

const params = new URLSearchParams(location.search);
const game = (params.get("game") || "").toUpperCase();
const state = {name: null, results: null, error: null, busy: false};
window.remikit = state; // for the browser tests and the curious

// The message of each problem code of verifyRecord, its fields filled in: the same
// sentences as `remi verify` says (remikit/cli/verify.py).
const PROBLEMS = {
  no_fairness: N_("verify.no_fairness"),
  malformed: N_("verify.malformed"),
  table: N_("verify.table"),
  deal_number: N_("verify.deal_number"),
  seats: N_("verify.seats"),
  no_secret: N_("verify.no_secret"),
  commitment: N_("verify.commitment"),
};

function problemText(problem) {
  const {code, ...fields} = problem;
  if (code !== "deck") return PROBLEMS[code] ? t(PROBLEMS[code], fields) : code;
  const shown = {...fields, found: fields.found === null ? "—" : showCard(fields.found),
    expected: fields.expected === null ? "—" : showCard(fields.expected)};
  if (fields.found === null) return tn("verify.deck_short", fields.differ, shown);
  if (fields.expected === null) return tn("verify.deck_long", fields.differ, shown);
  return tn("verify.deck", fields.differ, shown);
}

function header() {
  document.title = t("fair.verify_title");
  $("#topbar").replaceChildren(
    h("a", {href: url("/"), class: "home"}, t("common.lobby")),
    h("span", {class: "brand"}, "remikit"),
    h("span", {class: "table-title"}, t("fair.verify_title")),
    langButton());
}

function renderPick() {
  const input = h("input", {type: "file", id: "verify-file", accept: ".json,application/json",
    onchange: (event) => { if (event.target.files[0]) readFile(event.target.files[0]); }});
  $("#verify-pick").replaceChildren(...[
    h("h2", {}, t("fair.verify_title")),
    h("p", {class: "muted"}, t("fair.verify_intro")),
    h("label", {class: "verify-file"}, t("fair.pick_file"), " ", input)].filter(Boolean));
}

function renderResults() {
  const box = $("#verify-results");
  if (!state.busy && !state.results && !state.error) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (state.busy) {
    box.replaceChildren(h("p", {class: "muted"}, t("fair.checking")));
    return;
  }
  if (state.error) {
    box.replaceChildren(h("p", {class: "notice error", id: "verify-error"}, t("fair.not_record", {reason: state.error})));
    return;
  }
  const bad = state.results.filter((r) => !r.verified).length;
  const total = state.results.length;
  box.replaceChildren(
    h("h2", {}, state.name),
    h("p", {class: `verdict ${bad ? "bad" : "ok"}`, id: "verify-verdict", dataset: {failed: String(bad)}},
      bad ? tn("fair.some_failed", total, {k: bad}) : tn("fair.all_verified", total)),
    h("ol", {class: "verify-deals", id: "verify-deals"}, state.results.map((result) =>
      h("li", {class: result.verified ? "ok" : "bad", dataset: {deal: String(result.deal), verified: String(result.verified)}},
        h("b", {}, result.verified ? `✔ ${t("fair.deal_ok", {n: result.deal})}` : `✘ ${t("fair.deal_bad", {n: result.deal})}`),
        result.problems ? h("ul", {}, result.problems.map((p) => h("li", {dataset: {code: p.code}}, problemText(p)))) : null))));
}

async function check(record, name) {
  state.name = name;
  state.busy = true;
  state.error = null;
  state.results = null;
  renderResults();
  try {
    state.results = await verifyRecord(record, (variant, options) => api("/api/deck", {variant, options}));
  } catch (error) {
    state.error = error.message;
  }
  state.busy = false;
  renderResults();
}

async function readFile(file) {
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch (error) {
    state.error = error.message;
    renderResults();
    return;
  }
  await check(record, file.name);
}

async function loadGame() {
  try {
    const response = await fetch(url(`/api/games/${encodeURIComponent(game)}/record`));
    const body = await response.json();
    if (!response.ok) throw new Error(body?.error?.message || `HTTP ${response.status}`);
    await check(body, t("fair.game", {code: game}));
  } catch (error) {
    state.error = error.message;
    renderResults();
  }
}

onLangChange(() => {
  header();
  renderPick();
  renderResults();
});

header();
renderPick();
if (game) loadGame();
