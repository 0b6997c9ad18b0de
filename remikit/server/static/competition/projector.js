// The venue's screen (/competitions/CID/projector): the standings in large type and the
// current round's timer, readable across a hall; asked again every 5 seconds, the timer
// counted down here between answers.

import {onLangChange, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {base, call, errorLine, header, roundStatus, standingsTable, summary, timerText} from "./common.js";

const POLL_MS = 5000;
const SHOWN = 16; // rows that fit a screen in this type
const state = {comp: null, rows: [], round: null, readAt: 0};
const error = errorLine();

async function load() {
  try {
    const {competition} = await call(base());
    const standings = await call(base("/standings"));
    const n = competition.current_round;
    state.round = n ? (await call(base(`/rounds/${n}`))).round : null;
    Object.assign(state, {comp: competition, rows: standings.rows, readAt: performance.now()});
    error.show(null);
  } catch (err) {
    error.show(err);
  }
  render();
}

function render() {
  const comp = state.comp;
  header(comp?.name || "");
  if (!comp) return document.getElementById("app").replaceChildren(error.element);
  const round = state.round;
  const clock = round ? h("div", {class: "projector-clock"},
    h("div", {class: "round-name"}, t("comp.round_n", {n: round.number}), " · ", roundStatus(round.status)),
    h("div", {class: "timer", id: "timer-left", dataset: {running: String(Boolean(round.timer?.running))}}, timerText(round.timer, state.readAt)))
    : null;
  document.getElementById("app").replaceChildren(error.element,
    h("div", {class: "projector-head"},
      h("div", {}, h("h1", {}, comp.name), h("p", {class: "muted"}, summary(comp))), clock,
      h("img", {class: "qr", src: url(base("/qr.svg")), alt: t("comp.public.qr_alt")})),
    state.rows.length ? standingsTable(state.rows.slice(0, SHOWN)) : h("p", {class: "muted"}, t("comp.public.no_standings")));
}

load();
setInterval(load, POLL_MS);
setInterval(() => {
  const left = document.getElementById("timer-left");
  if (left && state.round) left.textContent = timerText(state.round.timer, state.readAt);
}, 250);
onLangChange(render);
