// The venue's screen (/competitions/CID/projector): the standings in large type and the
// current round's timer, readable across a hall; asked again every 5 seconds, the timer
// counted down here between answers; a round done has its timer stopped (data-done). A
// field longer than a screen turns its pages, one every other answer.

import {onLangChange, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {base, call, errorLine, header, roundStatus, standingsTable, summary, timerText} from "./common.js";

const POLL_MS = 5000;
const SHOWN = 16; // rows that fit a screen in this type
const state = {comp: null, rows: [], round: null, readAt: 0, answers: 0};
const error = errorLine();

async function load() {
  try {
    const {competition} = await call(base());
    const standings = await call(base("/standings"));
    const n = competition.current_round;
    state.round = n ? (await call(base(`/rounds/${n}`))).round : null;
    Object.assign(state, {comp: competition, rows: standings.rows, readAt: performance.now(), answers: state.answers + 1});
    error.show(null);
  } catch (err) {
    error.show(err);
  }
  render();
}

function standingsPage() {
  const pages = Math.ceil(state.rows.length / SHOWN);
  const page = Math.floor(state.answers / 2) % pages;
  const rows = state.rows.slice(page * SHOWN, (page + 1) * SHOWN);
  const where = pages > 1
    ? h("p", {class: "muted", id: "standings-page"}, t("comp.projector.rows", {first: page * SHOWN + 1, last: page * SHOWN + rows.length, all: state.rows.length}))
    : null;
  return h("div", {}, standingsTable(rows), where);
}

function render() {
  const comp = state.comp;
  header(comp?.name || "");
  if (!comp) return document.getElementById("app").replaceChildren(error.element);
  const round = state.round;
  const clock = round ? h("div", {class: "projector-clock"},
    h("div", {class: "round-name"}, t("comp.round_n", {n: round.number}), " · ", roundStatus(round.status)),
    h("div", {class: "timer", id: "timer-left", dataset: {running: String(Boolean(round.timer?.running)), done: String(Boolean(round.timer?.done))}},
      timerText(round.timer, state.readAt)))
    : null;
  document.getElementById("app").replaceChildren(error.element,
    h("div", {class: "projector-head"},
      h("div", {}, h("h1", {}, comp.name), h("p", {class: "muted"}, summary(comp))), clock,
      h("img", {class: "qr", src: url(base("/qr.svg")), alt: t("comp.public.qr_alt")})),
    state.rows.length ? standingsPage() : h("p", {class: "muted"}, t("comp.public.no_standings")));
}

load();
setInterval(load, POLL_MS);
setInterval(() => {
  const left = document.getElementById("timer-left");
  if (left && state.round) left.textContent = timerText(state.round.timer, state.readAt);
}, 250);
onLangChange(render);
