// The referee's page (/competitions/CID/referee), made for a phone: log in with the
// referee's own account, pick a table of the round, enter its seat draw (R13-2, with the
// redraws of ties), then each game: the four hands tapped on the card grid (card_grid.js) and
// the closer's closing card, or "the stock ran out" (R13-13), or four scores with a reason. The calculator's result,
// every seat's arrangement and points, is shown before the entry is saved; another
// account, or a player of the table with their own code, confirms it; a confirmed game is corrected with a
// reason. The round's missing results head the page.

import {N_, onLangChange, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {
  base, call, errorLine, formField, gameSeats, gameStatus, header, login, logout, namer, refreshButton, seatLabel,
} from "./common.js";
import {cardDraft, cardGrid, cardProblems} from "./card_grid.js";
import {entryView} from "./entry_view.js";
import {loginForm} from "./login.js";
import {kindName} from "./round_view.js";

const ROLE = "referee";
const state = {comp: null, players: [], round: null, missing: [], table: null, editing: null, preview: null};
const drafts = new Map(); // "table/game" → what was typed, kept across redraws of the page
const error = errorLine();
const as = {role: ROLE};

async function load() {
  try {
    const [{competition}, players] = await Promise.all([call(base(), as), call(base("/players"), as)]);
    state.comp = competition;
    state.players = players.players;
    const n = competition.current_round;
    state.round = n ? (await call(base(`/rounds/${n}`), as)).round : null;
    state.missing = n ? await call(base(`/rounds/${n}/missing`), as) : [];
  } catch (err) {
    error.show(err);
  }
  render();
}

async function send(path, body) {
  try {
    const answer = await call(base(path), {body, role: ROLE, post: true});
    error.show(null);
    return answer;
  } catch (err) {
    error.show(err);
    return null;
  }
}

const table = () => state.round?.tables.find((tb) => tb.number === state.table) || null;

// -- the seat draw ------------------------------------------------------------------------------

const DRAW_WORDS = {
  false: {help: N_("comp.ref.seat_draw_help"), save: N_("comp.ref.draw_save")},
  true: {help: N_("comp.ref.redraw_help"), save: N_("comp.ref.redraw_save")},
};

function seatDraw(tb, nameOf) {
  const drawn = gameSeats(tb, nameOf);
  if (drawn) {
    return h("section", {class: "card-box", id: "seat-draw"}, h("h2", {}, t("comp.ref.seat_draw")),
      h("ol", {class: "game-seats", start: 1}, drawn.map((s) => h("li", {dataset: {seat: s.seat}},
        h("b", {}, s.name), " ", h("span", {class: "muted"}, (s.cards || []).join(" → "))))));
  }
  const again = tb.redraw && tb.redraw.length ? tb.redraw : null; // the positions that tied
  const drawing = tb.seats.filter((seat) => !again || again.includes(seat.position));
  const inputs = drawing.map((seat) => h("label", {for: `draw-${seat.position}`}, `${seat.position} · ${seatLabel(seat, nameOf)}`,
    h("input", {id: `draw-${seat.position}`, class: "card-input", maxlength: 3, required: true, autocomplete: "off", autocapitalize: "off", placeholder: "Ks"})));
  const submit = async (event) => {
    event.preventDefault();
    const cards = Object.fromEntries(drawing.map((seat) => [seat.position, formField(`draw-${seat.position}`).value.trim()]));
    try {
      await call(base(`/rounds/${state.round.number}/tables/${tb.number}/seat-draw`), {body: again ? {redraw: cards} : {cards}, role: ROLE});
      error.show(null);
    } catch (err) {
      error.show(err);
    }
    await load();
  };
  return h("form", {class: "card-box", id: "seat-draw", onsubmit: submit},
    h("h2", {}, t("comp.ref.seat_draw")),
    h("p", {class: "muted"}, t(DRAW_WORDS[Boolean(again)].help)),
    h("div", {class: "draw-inputs"}, inputs),
    h("button", {type: "submit", class: "btn primary", id: "draw-submit"}, t(DRAW_WORDS[Boolean(again)].save)));
}

// -- entering a game ----------------------------------------------------------------------------

function draft(key) {
  if (!drafts.has(key)) drafts.set(key, {kind: "cards", ...cardDraft(), points: ["", "", "", ""], reason: "", ask: null, error: ""});
  return drafts.get(key);
}

function entryBody(d, correcting) {
  const body = d.kind === "points"
    ? {points: d.points.map(Number), reason: d.reason.trim()}
    : {hands: d.hands, closer: d.closer === "" ? null : Number(d.closer), closing: d.closer === "" ? null : d.closing || null};
  if (correcting) body.reason = d.reason.trim();
  return body;
}

/** Send an entry; a refusal shows beside the hand it names (``seat``) or the form, and a
 * game entered already by someone asks before replacing (``already_entered``). */
async function sendEntry(d, path, body) {
  try {
    const answer = await call(base(path), {body, role: ROLE});
    d.error = "";
    return answer;
  } catch (err) {
    const seat = err.fields?.seat;
    if (err.code === "already_entered") d.ask = err.fields;
    else if (Number.isInteger(seat)) d.errors[seat] = err.message;
    else d.error = err.message || String(err);
    render();
    return null;
  }
}

function replaceAsk(d, save) {
  const when = d.ask.entered_at ? new Date(d.ask.entered_at).toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"}) : "";
  return h("div", {class: "notice replace-ask", id: "replace-ask", role: "alert"},
    h("p", {}, t("comp.grid.ask", {name: d.ask.entered_by, time: when})),
    h("div", {class: "row wrap"},
      h("button", {type: "button", class: "btn primary", id: "entry-replace", onclick: () => save(true)}, t("comp.grid.replace")),
      h("button", {type: "button", class: "btn ghost", id: "entry-keep", onclick: () => { d.ask = null; state.editing = null; state.preview = null; load(); }},
        t("comp.grid.keep"))));
}

const FORM_TITLE = {false: N_("comp.ref.enter_game"), true: N_("comp.ref.correct_game")};
const CHECK = {true: N_("comp.ref.calculate"), false: N_("comp.ref.save")};

function entryForm(tb, game, seats, correcting) {
  const key = `${tb.number}/${game.number}`;
  const d = draft(key);
  const kinds = [["cards", t("comp.ref.by_cards")], ["points", t("comp.ref.by_points")]].map(([value, text]) =>
    h("label", {class: "inline"}, h("input", {type: "radio", name: "entry-kind", value, checked: d.kind === value,
      onchange: () => { d.kind = value; state.preview = null; render(); }}), text));
  const fields = d.kind === "cards"
    ? cardGrid(d, seats, () => { if (state.preview) { state.preview = null; render(); } })
    : pointFields(d, seats);
  const reason = d.kind === "points" || correcting
    ? h("label", {for: "entry-reason"}, t("comp.reason"),
      h("input", {id: "entry-reason", value: d.reason, maxlength: 200, required: true, oninput: (e) => { d.reason = e.target.value; }}))
    : null;
  const gamePath = `/rounds/${state.round.number}/tables/${tb.number}/games/${game.number}`;
  const path = correcting ? `/entries/${game.entry.id}/correct` : gamePath;
  // the calculator's result before saving (the preview of a game not yet confirmed)
  const previewing = d.kind === "cards" && !correcting;
  const save = async (replace = false) => {
    const body = replace ? {...entryBody(d, correcting), replace: true} : entryBody(d, correcting);
    if (await sendEntry(d, path, body)) {
      drafts.delete(key);
      state.editing = null;
      state.preview = null;
      await load();
    }
  };
  const check = async (event) => {
    event.preventDefault();
    d.error = "";
    d.ask = null;
    if (!previewing) return save();
    d.errors = cardProblems(d, seats);
    state.preview = Object.keys(d.errors).length ? null : (await sendEntry(d, `${gamePath}/preview`, entryBody(d, false)))?.entry || null;
    render();
  };
  const ask = d.ask ? replaceAsk(d, save) : null;
  return h("form", {id: "entry-form", class: "entry-form", onsubmit: check},
    h("h3", {}, t(FORM_TITLE[correcting], {n: game.number})),
    h("div", {class: "row wrap", role: "radiogroup"}, kinds),
    fields, reason,
    d.error ? h("p", {class: "notice error", id: "entry-error", role: "alert"}, d.error) : null,
    previewing ? null : ask,
    h("div", {class: "row wrap"},
      h("button", {type: "submit", class: "btn primary", id: "entry-check"}, t(CHECK[previewing])),
      h("button", {type: "button", class: "btn ghost", onclick: () => { state.editing = null; state.preview = null; render(); }}, t("comp.cancel"))),
    state.preview && previewing ? h("div", {class: "preview", id: "preview"},
      h("h3", {}, t("comp.ref.calculated")),
      entryView(state.preview, seats),
      ask || h("button", {type: "button", class: "btn primary", id: "entry-save", onclick: () => save()}, t("comp.ref.save"))) : null);
}

function pointFields(d, seats) {
  return h("div", {class: "point-fields"}, seats.map((s, i) => h("label", {for: `points-${i}`},
    `${t("comp.seat_n", {n: i + 1})} · ${s.name}`,
    h("input", {id: `points-${i}`, type: "number", min: -1000, max: 1000, required: true, value: d.points[i],
      oninput: (e) => { d.points[i] = e.target.value; }}))));
}

// -- games and confirming ------------------------------------------------------------------------

function confirmControls(tb, game) {
  const entry = game.entry;
  const players = tb.seats.filter((s) => s.player);
  const pick = h("select", {id: `confirm-player-${game.number}`}, players.map((s) => h("option", {value: s.player}, s.name)));
  const code = h("input", {id: `confirm-code-${game.number}`, class: "code-input", maxlength: 8, size: 8, autocomplete: "off",
    autocapitalize: "characters", spellcheck: "false", placeholder: "K7M2QX"});
  const confirm = (body) => async () => { if (await send(`/entries/${entry.id}/confirm`, body)) await load(); };
  const byPlayer = (event) => {
    event.preventDefault();
    confirm({player: pick.value, code: code.value.trim()})();
  };
  return h("div", {class: "confirm"},
    h("button", {type: "button", class: "btn primary", id: `confirm-${game.number}`, onclick: confirm(undefined)}, t("comp.ref.confirm_me")),
    h("form", {class: "row wrap", onsubmit: byPlayer},
      h("label", {class: "inline", for: `confirm-player-${game.number}`}, t("comp.ref.or_player"), pick),
      h("label", {class: "inline", for: `confirm-code-${game.number}`}, t("comp.ref.player_code"), code),
      h("button", {type: "submit", class: "btn", id: `confirm-as-${game.number}`}, t("comp.ref.confirm_player"))));
}

function gameBox(tb, game, seats) {
  const who = (seat) => (seat === null || seat === undefined ? "?" : seats[seat]?.name || "?");
  const editing = state.editing?.game === game.number;
  const open = (correcting) => () => { state.editing = {game: game.number, correcting}; state.preview = null; render(); };
  let body;
  if (editing) body = entryForm(tb, game, seats, state.editing.correcting);
  else if (game.status === "missing") body = h("button", {type: "button", class: "btn primary", id: `enter-${game.number}`, onclick: open(false)}, t("comp.ref.enter"));
  else {
    body = h("div", {}, entryView(game.entry, seats),
      game.status === "entered"
        ? h("div", {}, confirmControls(tb, game),
          h("button", {type: "button", class: "btn ghost small", id: `reenter-${game.number}`, onclick: open(false)}, t("comp.ref.enter_again")))
        : h("button", {type: "button", class: "btn ghost small", id: `correct-${game.number}`, onclick: open(true)}, t("comp.ref.correct")));
  }
  return h("li", {class: `game-box ${game.status}`, dataset: {game: game.number, status: game.status}},
    h("h3", {}, t("comp.game_n", {n: game.number}), " ", h("span", {class: `tag game-${game.status}`}, gameStatus(game.status))),
    h("p", {class: "muted deals"}, t("comp.ref.deals", {dealer: who(game.dealer), first: who(game.first)})),
    body);
}

function tablePanel(nameOf) {
  const tb = table();
  if (!tb) return null;
  if (tb.kind === "online") {
    return h("section", {class: "card-box", id: "table-panel"}, h("h2", {}, t("comp.table_n", {n: tb.number})),
      h("p", {}, t("comp.ref.online")), tb.web_table ? h("a", {href: url(`/table/${tb.web_table}`)}, t("comp.table.open_web", {code: tb.web_table})) : null);
  }
  const seats = gameSeats(tb, nameOf);
  return h("div", {id: "table-panel", dataset: {table: tb.number}},
    seatDraw(tb, nameOf),
    seats ? h("section", {class: "card-box"}, h("h2", {}, t("comp.ref.games")),
      h("ol", {class: "games-list"}, tb.games.map((g) => gameBox(tb, g, seats)))) : null);
}

// -- the page ------------------------------------------------------------------------------------

function picker() {
  const round = state.round;
  if (!round) return h("p", {class: "muted"}, t("comp.ref.no_round"));
  const missing = state.missing.length
    ? h("ul", {class: "missing", id: "missing"}, state.missing.map((m) => h("li", {},
      h("button", {type: "button", class: "link-button", onclick: () => { state.table = m.table; state.editing = {game: m.game, correcting: false}; load(); }},
        t("comp.ref.missing_item", {table: m.table, game: m.game})))))
    : h("p", {class: "muted", id: "missing"}, t("comp.ref.none_missing"));
  return h("section", {class: "card-box"},
    h("h2", {}, t("comp.round_n", {n: round.number})),
    h("div", {class: "row wrap table-pick", role: "group", "aria-label": t("comp.ref.pick_table")},
      round.tables.map((tb) => h("button", {type: "button", class: `btn ${tb.number === state.table ? "primary" : ""}`,
        id: `pick-${tb.number}`, "aria-pressed": String(tb.number === state.table),
        onclick: () => { state.table = tb.number; state.editing = null; state.preview = null; load(); }},
      t("comp.table_n", {n: tb.number}), tb.kind === "online" ? h("small", {}, ` · ${kindName(tb.kind)}`) : null))),
    h("h3", {}, t("comp.ref.missing")), missing);
}

function render() {
  const me = login(ROLE);
  const out = me ? h("button", {type: "button", class: "btn ghost small", id: "logout", onclick: async () => { await logout(ROLE); render(); }},
    t("comp.logout", {name: me.name})) : null;
  header(state.comp ? `${state.comp.name}: ${t("comp.role.referee")}` : t("comp.role.referee"), me ? refreshButton(load) : null, out);
  const app = document.getElementById("app");
  if (!me) return app.replaceChildren(loginForm(ROLE, load));
  const nameOf = namer(state.players);
  app.replaceChildren(...[error.element, picker(), tablePanel(nameOf)].filter(Boolean));
}

render();
if (login(ROLE)) load();
onLangChange(render);
