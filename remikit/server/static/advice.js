// Hints at the table (docs/protocol.md, "advice"): the note that the player can close
// (tutup), go out, knock or go gin, the meld counter, the lay-offs that help a defender,
// the best arrangement on request, and a confirm step before a discard that can be laid
// off, gives another player a Rummy! call or joins a card the other player took from the
// pile. All of it comes from the `advice` object of the seat's state message, present only
// where the table's hints are on: what a key holds is what is shown, whatever the variant.
// Closing and going out are announced to everyone at the table.

import {t, tn} from "./i18n.js";
import {url} from "./urls.js";
import {$, h, showCard} from "./util.js";

const WARN_KEY = "remikit.warn_discard";
const state = {
  send: null, // sends a message on the socket
  rerender: () => {},
  best: null, // the last advice reply: {state_id, melds, plays, dead, points, ...}
  pending: null, // {card, lines, proceed}: a discard waiting for the player's word
  ref: 0,
};

const warnOn = () => localStorage.getItem(WARN_KEY) !== "off";
const cards = (list) => list.map(showCard).join(" ");

/** `send(message)` writes on the table's socket; `rerender()` draws the page again. */
export function initAdvice({send, rerender}) {
  state.send = send;
  state.rerender = rerender;
}

/** The answer to an advice request. */
export function adviceReply(message) {
  state.best = message;
}

/** Whether the discard of `card` may go now: with a warning for it (and warnings on), the
 * player is asked first and `proceed` runs on their word. */
export function guardDiscard(message, card, proceed) {
  const warning = (message?.advice?.warnings || []).find((w) => w.card === card);
  if (!warning || !warnOn()) {
    proceed();
    return;
  }
  state.pending = {card, lines: warningLines(warning), proceed};
  state.rerender();
  $("#discard-anyway")?.focus(); // brings the question into view on a phone, too
}

function warningLines(warning) {
  const card = showCard(warning.card);
  const lines = [];
  if (warning.layoff.length) {
    lines.push(tn("advice.warn_layoff", warning.layoff.length, {card, melds: warning.layoff.join(", ")}));
  }
  if (warning.call) lines.push(t("advice.warn_call", {card}));
  if (warning.joins?.length) {
    lines.push(tn("advice.warn_joins", warning.joins.length, {card, cards: cards(warning.joins)}));
  }
  return lines;
}

function counterText(counter) {
  if ("deadwood" in counter) return t("advice.deadwood", {points: counter.deadwood});
  if ("table_points" in counter) {
    return t("advice.r5_points", {table: counter.table_points, hand: counter.hand_points});
  }
  const dead = tn("advice.dead_cards", counter.to_meld, {n: counter.to_meld, points: counter.dead_points});
  return `${dead} · ${counter.pure_run ? t("advice.pure_run") : t("advice.no_pure_run")}`;
}

/** A knock (`{card, deadwood}`) as the note says it, or as the best arrangement's line; a
 * knock that leaves no deadwood goes gin. */
function knockText(knock, line = false) {
  const card = showCard(knock.card);
  const none = knock.deadwood === 0;
  if (line) return none ? t("advice.gin_line", {card}) : t("advice.knock_line", {card});
  return none ? t("advice.gin_with", {card}) : t("advice.knock_with", {card, points: knock.deadwood});
}

function noteText(advice) {
  if (advice.knock) return knockText(advice.knock);
  if (advice.can_close) return t("advice.can_close", {card: showCard(advice.close_card)});
  if (advice.can_go_out && advice.go_out_discard) {
    return t("advice.goes_out_with", {card: showCard(advice.go_out_discard)});
  }
  if (advice.can_go_out) return t("advice.can_go_out");
  return null;
}

/** A card as a meld shows it: a joker with the card it stands for (`Jk=7h`). */
const standing = (card, stands) => (stands ? card + "=" + stands : card);
const meldCards = (list, stands) => cards(list.map((c, i) => standing(c, stands[i])));

function playLine(play) {
  if (play.type === "meld") return t("advice.play_meld", {cards: meldCards(play.cards, play.stands_for)});
  const card = showCard(standing(play.card, play.stands_for));
  return t("advice.play_layoff", {card, n: play.meld});
}

/** The lay-offs that leave a defender the least deadwood (`{plays, deadwood}`). */
function layOffBox(layOff) {
  return h("div", {class: "advice-lay-off", id: "advice-lay-off"},
    layOff.plays.length
      ? [t("advice.lay_off", {points: layOff.deadwood}),
        h("ul", {class: "advice-melds"}, layOff.plays.map((p) => h("li", {}, playLine(p))))]
      : t("advice.no_lay_off", {points: layOff.deadwood}));
}

function bestBox(best) {
  const melds = best.melds.map((m) => h("li", {}, meldCards(m.cards, m.stands_for)));
  const plays = best.plays.map((p) => h("li", {}, playLine(p)));
  const discard = best.knock ? knockText(best.knock, true)
    : best.discard ? t("advice.discard", {card: showCard(best.discard)}) : null;
  return h("div", {class: "advice-best", id: "advice-best"},
    (melds.length || plays.length) ? h("ul", {class: "advice-melds"}, plays, melds) : h("p", {class: "muted"}, t("advice.no_melds")),
    best.dead.length ? h("div", {}, t("advice.dead", {cards: cards(best.dead)})) : null,
    best.close ? h("div", {}, t("advice.close_with", {card: showCard(best.close)})) : null,
    discard ? h("div", {id: "advice-discard"}, discard) : null,
    h("div", {class: "advice-points"}, t("advice.points", {points: best.points})));
}

function ask() {
  state.ref += 1;
  state.send({type: "advice", ref: `advice-${state.ref}`});
}

function pendingBox() {
  const {card, lines, proceed} = state.pending;
  const done = (go) => {
    state.pending = null;
    if (go) proceed();
    else state.rerender();
  };
  return h("div", {class: "notice warn discard-warning", id: "discard-warning", role: "alertdialog",
    "aria-labelledby": "discard-warning-text", dataset: {card}},
  h("div", {id: "discard-warning-text"}, lines.map((line) => h("div", {}, line))),
  h("div", {class: "row wrap"},
    h("button", {type: "button", class: "btn small primary", id: "discard-anyway", onclick: () => done(true)},
      t("advice.discard_anyway")),
    h("button", {type: "button", class: "btn small", id: "discard-cancel", onclick: () => done(false)},
      t("table.cancel"))));
}

/** The warning before a discard the hints advise against, with Discard anyway and Cancel
 * (shown beside the action buttons), or null. */
export function discardWarning(message) {
  const warnings = message.advice?.warnings || [];
  if (state.pending && !warnings.some((w) => w.card === state.pending.card)) state.pending = null;
  return state.pending ? pendingBox() : null;
}

/** The side panel's hints box (with the Rules button), for a seat or a spectator. */
export function advicePanel(message) {
  const table = message.table;
  const rules = h("a", {class: "btn small", id: "rules-button", target: "_blank", rel: "noopener",
    href: url(`/rules/${table.variant}?lang=${document.documentElement.lang}&table=${table.id}`)}, t("table.rules"));
  const advice = message.advice;
  if (!advice) return h("section", {class: "advice", id: "advice"}, rules);
  const note = noteText(advice);
  const best = state.best && state.best.state_id === message.state_id ? state.best : null;
  const warn = h("input", {type: "checkbox", id: "warn-discard", checked: warnOn(),
    onchange: (e) => { localStorage.setItem(WARN_KEY, e.target.checked ? "on" : "off"); state.rerender(); }});
  return h("section", {class: "advice", id: "advice"},
    h("div", {class: "row wrap"}, h("h3", {}, t("advice.title")), rules),
    note ? h("p", {class: "advice-note", id: "advice-note", role: "status"}, h("b", {}, note)) : null,
    h("p", {class: "advice-counter", id: "advice-counter"}, counterText(advice.counter)),
    advice.lay_off ? layOffBox(advice.lay_off) : null,
    h("button", {type: "button", class: "btn small", id: "advice-show", onclick: ask}, t("advice.show_best")),
    best ? bestBox(best) : null,
    message.table.client.table_melds
      ? h("label", {class: "check", for: "warn-discard"}, warn, t("advice.warn_toggle")) : null);
}

/** The notice for everyone when a player closes or goes out between two states, or null. */
export function announcement(previous, message, nameOf) {
  if (!previous) return null;
  const before = previous.view;
  const view = message.view;
  const deals = view.finished_deals;
  if (deals.length > before.finished_deals.length) {
    const summary = deals[deals.length - 1];
    if (summary.by_seat === null) return null;
    const name = nameOf(summary.by_seat);
    if (summary.ended_by === "close") {
      const closing = summary.results[summary.by_seat].closing;
      return t("advice.announce_close", {name, card: closing ? showCard(closing) : "?"});
    }
    // a Three-Thirteen player who went out was announced then (R3-6)
    if (summary.ended_by === "out" && before.went_out !== summary.by_seat) return t("advice.announce_out", {name});
    return null;
  }
  if (view.went_out !== null && view.went_out !== undefined && before.went_out !== view.went_out) {
    return t("advice.announce_out_last_turns", {name: nameOf(view.went_out)});
  }
  return null;
}

/** Hide the announcement line: its news is told (the results closed, or the player acts). */
export function retireAnnouncement() {
  const line = $("#going-out");
  if (line) line.hidden = true;
}

/** Show `text` in the page's announcement line (made on first use), for everyone. */
export function announce(text) {
  if (!text) return;
  let line = $("#going-out");
  if (!line) {
    line = h("div", {id: "going-out", class: "notice going-out row", role: "status", "aria-live": "assertive"},
      h("span", {id: "going-out-text"}),
      h("button", {type: "button", class: "btn small ghost", id: "going-out-close",
        onclick: () => { line.hidden = true; }}, t("common.close")));
    $("#app").prepend(line);
  }
  $("#going-out-text").textContent = text;
  line.hidden = false;
}
