// The organiser's page (/competitions/CID/admin): the players (register, late entries,
// check-in, drop, disqualify with a reason, their confirmation codes, a code unlocked), the
// referees' accounts (made here, unlocked after failed logins), making the next round with the tables chosen
// to be online, each round's tables and seating quality, the round timer, the audit log,
// the CSV exports and the print views; before a round starts, re-pairing it or swapping two
// players (seating_tools.js), and the pairings to avoid; the tools of admin_tools.js.

import {N_, onLangChange, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {
  base, call, compStatus, errorLine, formField, header, login, logout, namer, pageUrl, playerStatus, refreshButton, summary, timerText,
} from "./common.js";
import {toolsSection} from "./admin_tools.js";
import {loginForm} from "./login.js";
import {roundView} from "./round_view.js";
import {avoidSection, roundTools} from "./seating_tools.js";

const ROLE = "organiser";
const state = {comp: null, players: [], accounts: [], round: null, current: null, shown: null, audit: [], allAudit: false, timerAt: 0, acting: null};
const error = errorLine();
const as = {role: ROLE};

async function load() {
  try {
    const [{competition}, players] = await Promise.all([call(base(), as), call(base("/players"), as)]);
    state.comp = competition;
    state.players = players.players;
    state.shown = state.shown || competition.current_round || null;
    const round = (n) => call(base(`/rounds/${n}`), as).then((r) => r.round);
    state.round = state.shown ? await round(state.shown) : null;
    const now = competition.current_round;
    state.current = !now ? null : now === state.shown ? state.round : await round(now);
    state.timerAt = performance.now();
    state.audit = await call(base("/audit"), as);
    state.accounts = (await call(base("/accounts"), as)).accounts;
    state.avoid = (await call(base("/avoid"), as)).avoid;
    error.show(null);
  } catch (err) {
    error.show(err);
    if (!login(ROLE)) return render();
  }
  render();
}

async function act(path, body) {
  try {
    await call(base(path), {body, role: ROLE});
    state.acting = null;
    error.show(null);
  } catch (err) {
    error.show(err);
  }
  await load();
}

// -- players ----------------------------------------------------------------------------------

function addPlayer() {
  const input = (id, attrs = {}) => h("input", {id, maxlength: 40, ...attrs});
  const submit = (event) => {
    event.preventDefault();
    const value = (id) => formField(id).value.trim();
    act("/players", {name: value("player-name"), club: value("player-club") || null, contact: value("player-contact") || null});
  };
  return h("form", {id: "player-form", class: "row wrap", onsubmit: submit},
    h("label", {for: "player-name"}, t("comp.col.name"), input("player-name", {required: true})),
    h("label", {for: "player-club"}, t("comp.col.club"), input("player-club")),
    h("label", {for: "player-contact"}, t("comp.col.contact"), input("player-contact", {maxlength: 80})),
    h("button", {type: "submit", class: "btn primary", id: "player-add"}, t("comp.admin.add_player")));
}

const ACTION_WORD = {drop: N_("comp.admin.drop"), disqualify: N_("comp.admin.disqualify")};

function reasonForm(player, action) {
  const id = `reason-${player.id}`;
  const submit = (event) => {
    event.preventDefault();
    act(`/players/${player.id}/${action}`, {reason: formField(id).value.trim()});
  };
  return h("form", {class: "row reason-form", onsubmit: submit},
    h("label", {class: "inline", for: id}, t("comp.reason"), h("input", {id, required: true, maxlength: 200})),
    h("button", {type: "submit", class: "btn small primary", dataset: {confirm: action}},
      t(ACTION_WORD[action])),
    h("button", {type: "button", class: "btn small ghost", onclick: () => { state.acting = null; render(); }}, t("comp.cancel")));
}

function playerRow(player) {
  const out = player.status === "dropped" || player.status === "disqualified";
  const ask = (action) => () => { state.acting = {player: player.id, action}; render(); };
  const acting = state.acting?.player === player.id ? state.acting.action : null;
  const actions = out ? [] : [
    player.status === "registered"
      ? h("button", {type: "button", class: "btn small", dataset: {act: "check-in"}, onclick: () => act(`/players/${player.id}/check-in`, {})}, t("comp.admin.check_in"))
      : null,
    h("button", {type: "button", class: "btn small ghost", dataset: {act: "drop"}, onclick: ask("drop")}, t("comp.admin.drop")),
    h("button", {type: "button", class: "btn small ghost", dataset: {act: "disqualify"}, onclick: ask("disqualify")}, t("comp.admin.disqualify")),
  ];
  const unlock = player.code_locked
    ? h("button", {type: "button", class: "btn small", dataset: {act: "unlock"}, onclick: () => act(`/players/${player.id}/unlock`, {})}, t("comp.admin.unlock"))
    : null;
  return h("tr", {dataset: {player: player.id, status: player.status}},
    h("th", {scope: "row"}, player.name, player.late ? h("span", {class: "tag late"}, t("comp.admin.late")) : null),
    h("td", {}, player.club || ""), h("td", {}, player.contact || ""),
    h("td", {class: "code"}, h("code", {}, player.code || ""), player.code_locked ? h("span", {class: "tag"}, t("comp.admin.locked")) : null, unlock),
    h("td", {class: "status"}, playerStatus(player.status), player.reason ? h("small", {class: "muted"}, `: ${player.reason}`) : null),
    h("td", {class: "actions"}, acting ? reasonForm(player, acting) : h("div", {class: "row wrap"}, actions)));
}

function playersSection() {
  const counts = {};
  for (const p of state.players) counts[p.status] = (counts[p.status] || 0) + 1;
  return h("section", {class: "card-box", id: "players"},
    h("h2", {}, t("comp.admin.players"), " ", h("span", {class: "muted"},
      t("comp.admin.counts", {all: state.players.length, checked: counts.checked_in || 0}))),
    addPlayer(),
    avoidSection(state.players, state.avoid, {act}),
    h("table", {class: "plain", id: "player-list"},
      h("thead", {}, h("tr", {}, [N_("comp.col.name"), N_("comp.col.club"), N_("comp.col.contact"), N_("comp.col.code"), N_("comp.col.status"), N_("comp.col.actions")].map((k) => h("th", {scope: "col"}, t(k))))),
      h("tbody", {}, state.players.map(playerRow))));
}

// -- accounts -----------------------------------------------------------------------------------

const ROLE_WORD = {organiser: N_("comp.role.organiser"), referee: N_("comp.role.referee")};

function accountsSection() {
  const submit = (event) => {
    event.preventDefault();
    const value = (id) => formField(id).value;
    act("/accounts", {name: value("account-name").trim(), password: value("account-password")});
  };
  const rows = state.accounts.map((a) => h("tr", {dataset: {account: a.name, locked: String(a.locked)}},
    h("th", {scope: "row"}, a.name), h("td", {}, t(ROLE_WORD[a.role])),
    h("td", {}, a.locked ? h("span", {class: "tag"}, t("comp.admin.locked")) : a.failures ? t("comp.admin.failures", {n: a.failures}) : ""),
    h("td", {}, a.locked || a.failures
      ? h("button", {type: "button", class: "btn small", dataset: {act: "unlock"}, onclick: () => act(`/accounts/${encodeURIComponent(a.name)}/unlock`, {})}, t("comp.admin.unlock"))
      : null)));
  return h("section", {class: "card-box", id: "accounts"},
    h("h2", {}, t("comp.admin.accounts")),
    h("p", {class: "muted"}, t("comp.admin.accounts_help")),
    h("form", {id: "account-form", class: "row wrap", onsubmit: submit},
      h("label", {for: "account-name"}, t("comp.login.account"), h("input", {id: "account-name", required: true, maxlength: 40, autocomplete: "off"})),
      h("label", {for: "account-password"}, t("comp.login.password"),
        h("input", {id: "account-password", type: "password", required: true, minlength: 10, autocomplete: "new-password"})),
      h("button", {type: "submit", class: "btn primary", id: "account-add"}, t("comp.admin.add_account"))),
    h("table", {class: "plain", id: "account-list"},
      h("thead", {}, h("tr", {}, [N_("comp.col.account"), N_("comp.col.who"), N_("comp.col.status"), N_("comp.col.actions")].map((k) => h("th", {scope: "col"}, t(k))))),
      h("tbody", {}, rows)));
}

// -- rounds -------------------------------------------------------------------------------------

function makeRound() {
  const comp = state.comp;
  const ready = state.players.filter((p) => p.status === "checked_in").length;
  const tables = comp.fill === "bots" ? Math.ceil(ready / 4) : Math.floor(ready / 4);
  const next = (comp.current_round || 0) + 1;
  if (next > comp.rounds) return h("p", {class: "muted"}, t("comp.admin.all_rounds"));
  if (state.current && state.current.status !== "done") return null;
  const boxes = Array.from({length: tables}, (_, i) =>
    h("label", {class: "check"}, h("input", {type: "checkbox", name: "online", value: i + 1, id: `online-${i + 1}`}),
      t("comp.table_n", {n: i + 1})));
  const submit = (event) => {
    event.preventDefault();
    const online = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#round-form input[name="online"]:checked'))].map((b) => Number(b.value));
    state.shown = next;
    act("/rounds", {online_tables: online});
  };
  return h("form", {id: "round-form", onsubmit: submit},
    h("h3", {}, t("comp.admin.make_round", {n: next})),
    h("p", {class: "muted"}, t("comp.admin.round_help", {players: ready, tables})),
    h("fieldset", {}, h("legend", {}, t("comp.admin.online_tables")), h("div", {class: "row wrap"}, boxes)),
    h("button", {type: "submit", class: "btn primary", id: "round-make", disabled: tables === 0}, t("comp.admin.make")));
}

function timerBox() {
  const round = state.round;
  const timer = round.timer || {};
  const minutes = h("input", {id: "timer-minutes", type: "number", min: 1, max: 600, value: timer.minutes || 90});
  const send = (action) => () => {
    const chosen = Number(minutes.value);  // a start without minutes goes on from the time left
    act(`/rounds/${round.number}/timer`, chosen === timer.minutes ? {action} : {action, minutes: chosen});
  };
  return h("div", {class: "timer-box row wrap", id: "timer"},
    h("span", {class: "timer", id: "timer-left", dataset: {running: String(Boolean(timer.running))}}, timerText(timer, state.timerAt)),
    h("label", {class: "inline", for: "timer-minutes"}, t("comp.admin.minutes"), minutes),
    h("button", {type: "button", class: "btn small primary", id: "timer-start", onclick: send("start")}, t("comp.timer.start")),
    h("button", {type: "button", class: "btn small", id: "timer-pause", onclick: send("pause")}, t("comp.timer.pause")),
    h("button", {type: "button", class: "btn small ghost", id: "timer-reset", onclick: send("reset")}, t("comp.timer.reset")));
}

function roundsSection(nameOf) {
  const comp = state.comp;
  const picker = comp.current_round ? h("label", {class: "inline", for: "round-pick"}, t("comp.col.round"),
    h("select", {id: "round-pick", onchange: (e) => { state.shown = Number(e.target.value); load(); }},
      Array.from({length: comp.current_round}, (_, i) => h("option", {value: i + 1, selected: i + 1 === state.shown}, i + 1)))) : null;
  const round = state.round;
  const exports = round ? [
    h("a", {href: url(base(`/rounds/${round.number}/scores.csv`)), id: "scores-csv", class: "btn small ghost"}, t("comp.admin.scores_csv", {n: round.number})),
    h("a", {href: pageUrl(`/print/pairings?round=${round.number}`), id: "print-pairings", class: "btn small ghost"}, t("comp.print.pairings")),
    h("a", {href: pageUrl(`/print/sheets?round=${round.number}`), id: "print-sheets", class: "btn small ghost"}, t("comp.print.sheets")),
  ] : [];
  const tools = round && round.number === comp.current_round ? roundTools(round, nameOf, {reload: load, render, error}) : null;
  return h("section", {class: "card-box", id: "rounds"},
    h("div", {class: "row wrap"}, h("h2", {}, t("comp.admin.rounds")), picker),
    makeRound(),
    round ? h("div", {}, h("h3", {}, t("comp.round_n", {n: round.number})), timerBox(), roundView(round, nameOf), tools,
      h("div", {class: "row wrap"}, exports)) : null);
}

// -- the audit log -------------------------------------------------------------------------------

const AUDIT_SHOWN = 30; // the newest entries, until "show all"
const WHAT = {
  "competition.create": N_("comp.what.create"), login: N_("comp.what.login"), "player.register": N_("comp.what.register"),
  "player.check_in": N_("comp.what.check_in"), "player.drop": N_("comp.what.drop"), "player.disqualify": N_("comp.what.disqualify"),
  "round.make": N_("comp.what.round"), seat_draw: N_("comp.what.seat_draw"), "entry.enter": N_("comp.what.enter"),
  "entry.confirm": N_("comp.what.confirm"), "entry.correct": N_("comp.what.correct"), "entry.web": N_("comp.what.web"),
  "timer.start": N_("comp.what.timer_start"), "timer.pause": N_("comp.what.timer_pause"), "timer.reset": N_("comp.what.timer_reset"),
  "account.create": N_("comp.what.account_create"), "account.lock": N_("comp.what.account_lock"),
  "account.unlock": N_("comp.what.account_unlock"), "player.lock": N_("comp.what.player_lock"),
  "player.unlock": N_("comp.what.player_unlock"), logout: N_("comp.what.logout"),
  "absence.give": N_("comp.what.absence"),
  "round.repair": N_("comp.what.repair"), "round.swap": N_("comp.what.swap"), "avoid.set": N_("comp.what.avoid"),
  "competition.archive": N_("comp.what.archive"), "competition.unarchive": N_("comp.what.unarchive"),
};
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/** A value in a line: a list of plain values spaced, anything deeper as short JSON. */
function valueText(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value) && value.every((v) => !isObject(v) && !Array.isArray(v))) return value.join(" ");
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The fields of ``side`` ("before" or "after") that differ from the other side. */
function changed(entry, side) {
  const value = entry[side];
  if (!isObject(value)) return value === null || value === undefined ? "" : valueText(value);
  const other = entry[side === "before" ? "after" : "before"];
  const keys = Object.keys(value).filter((k) => !isObject(other) || JSON.stringify(other[k]) !== JSON.stringify(value[k]));
  return h("ul", {class: "changes", title: JSON.stringify(value)}, keys.map((k) => h("li", {}, h("b", {}, k), ": ", valueText(value[k]))));
}

function auditSection() {
  const newest = state.audit.slice().reverse();
  const shown = state.allAudit ? newest : newest.slice(0, AUDIT_SHOWN);
  const rows = shown.map((e) => h("tr", {},
    h("td", {class: "when"}, String(e.at).replace("T", " ").slice(0, 19)), h("td", {}, e.who, h("span", {class: "muted"}, ` (${e.role})`)),
    h("td", {dataset: {what: e.what}}, WHAT[e.what] ? t(WHAT[e.what]) : e.what), h("td", {}, valueText(e.target)), h("td", {class: "value"}, changed(e, "before")),
    h("td", {class: "value"}, changed(e, "after")), h("td", {}, e.reason || "")));
  const more = shown.length < newest.length
    ? h("button", {type: "button", class: "btn small ghost", id: "audit-all", onclick: () => { state.allAudit = true; render(); }},
      t("comp.admin.audit_all", {n: newest.length}))
    : null;
  return h("section", {class: "card-box", id: "audit"},
    h("h2", {}, t("comp.admin.audit")),
    h("div", {class: "scroll"}, h("table", {class: "plain audit"},
      h("thead", {}, h("tr", {}, [N_("comp.col.when"), N_("comp.col.who"), N_("comp.col.what"), N_("comp.col.target"), N_("comp.col.before"),
        N_("comp.col.after"), N_("comp.col.reason")].map((k) => h("th", {scope: "col"}, t(k))))),
      h("tbody", {}, rows))),
    more);
}

// -- the page -----------------------------------------------------------------------------------

function links() {
  return h("nav", {class: "row wrap comp-links", id: "links"},
    h("a", {href: pageUrl(""), id: "link-public"}, t("comp.link.public")),
    h("a", {href: pageUrl("/referee"), id: "link-referee"}, t("comp.link.referee")),
    h("a", {href: pageUrl("/projector"), id: "link-projector"}, t("comp.link.projector")),
    h("a", {href: pageUrl("/print/schedule"), id: "print-schedule"}, t("comp.print.schedule")),
    h("a", {href: pageUrl("/print/cards"), id: "print-cards"}, t("comp.print.cards")),
    h("a", {href: url(base("/standings.csv")), id: "standings-csv"}, t("comp.admin.standings_csv")));
}

function render() {
  const comp = state.comp;
  const me = login(ROLE);
  const out = me ? h("button", {type: "button", class: "btn ghost small", id: "logout", onclick: async () => { await logout(ROLE); render(); }},
    t("comp.logout", {name: me.name})) : null;
  header(comp ? `${comp.name}: ${t("comp.role.organiser")}` : t("comp.role.organiser"), me ? refreshButton(load) : null, out);
  const app = document.getElementById("app");
  if (!me) return app.replaceChildren(loginForm(ROLE, load));
  if (!comp) return app.replaceChildren(error.element);
  const nameOf = namer(state.players);
  app.replaceChildren(error.element,
    h("section", {class: "comp-head"}, h("div", {}, h("h1", {}, comp.name),
      h("p", {class: "muted", id: "summary", dataset: {status: comp.status}}, summary(comp) || compStatus(comp.status)), links())),
    playersSection(), accountsSection(), toolsSection({comp, players: state.players, act, reload: load, error}),
    roundsSection(nameOf), auditSection());
}

render();
if (login(ROLE)) load();
onLangChange(render);
setInterval(() => {
  const left = document.getElementById("timer-left");
  if (left && state.round) left.textContent = timerText(state.round.timer, state.timerAt);
}, 1000);
