// A finished game step by step (/static/replay.html?game=CODE): the public view or any
// seat's view after each action (GET /api/games/CODE/replay), on the same board as live play,
// with the review of a seat (review.js).

import {logPanel, renderBoard} from "./board.js";
import {cardElement, isWild, sortKey, wildRankLetter} from "./cards.js";
import {dealResults} from "./deal_results.js";
import {langButton, onLangChange, t} from "./i18n.js";
import {prefsControl} from "./prefs.js";
import {createReview, reviewPanel} from "./review.js";
import {scoreSection} from "./scores.js";
import {url} from "./urls.js";
import {$, api, describeAction, describeLog, h, seatName} from "./util.js";

const params = new URLSearchParams(location.search);
const code = (params.get("game") || "").toUpperCase();
const replay = {
  game: null,
  step: Number(params.get("step") || 0),
  seat: params.has("seat") ? Number(params.get("seat")) : null,
  data: null,
  cache: new Map(),
  timer: null,
  loading: 0,
};
replay.review = createReview(code, () => renderReview());
window.remikit = replay;

function showError(text) {
  const element = $("#error");
  element.textContent = text || "";
  element.hidden = !text;
}

function header() {
  document.title = t("replay.title", {code});
  $("#topbar").replaceChildren(
    h("a", {href: url("/"), class: "home"}, t("common.lobby")),
    h("span", {class: "brand"}, "remikit"),
    h("span", {class: "table-title"}, t("replay.title", {code}), replay.game ? ` · ${replay.game.title}` : ""),
    ...prefsControl(),
    langButton());
}

const nameOf = (seat) => seatName(replay.game?.seats, seat, null);

async function fetchStep(step, seat) {
  const key = `${step}/${seat}`;
  if (!replay.cache.has(key)) {
    const query = seat === null ? "" : `&seat=${seat}`;
    replay.cache.set(key, api(`/api/games/${code}/replay?step=${step}${query}`));
  }
  try {
    return await replay.cache.get(key);
  } catch (error) {
    replay.cache.delete(key);
    throw error;
  }
}

async function go(step, seat = replay.seat) {
  const steps = replay.game.action_count;
  step = Math.max(0, Math.min(steps, step));
  const ticket = ++replay.loading;
  try {
    const data = await fetchStep(step, seat);
    if (ticket !== replay.loading) return;
    replay.step = step;
    replay.seat = seat;
    replay.data = data;
    const url = new URL(location.href);
    url.searchParams.set("step", String(step));
    if (seat === null) url.searchParams.delete("seat");
    else url.searchParams.set("seat", String(seat));
    history.replaceState(null, "", url);
    render();
    if (step < steps) fetchStep(step + 1, seat).catch(() => {}); // ready for the next click
  } catch (error) {
    showError(error.message);
    stop();
  }
}

function play() {
  if (replay.timer) return stop();
  replay.timer = setInterval(() => {
    if (replay.step >= replay.game.action_count) stop();
    else go(replay.step + 1);
  }, 700);
  renderControls();
}

function stop() {
  clearInterval(replay.timer);
  replay.timer = null;
  renderControls();
}

function renderControls() {
  if (!replay.game) return;
  const steps = replay.game.action_count;
  const slider = h("input", {type: "range", id: "replay-slider", min: "0", max: String(steps), value: String(replay.step),
    "aria-label": t("replay.step", {k: replay.step, n: steps}),
    oninput: (e) => go(Number(e.target.value))});
  const seat = h("select", {id: "replay-seat", onchange: (e) => go(replay.step, e.target.value === "" ? null : Number(e.target.value))},
    h("option", {value: "", selected: replay.seat === null}, t("replay.public")),
    replay.game.seats.map((s) => h("option", {value: String(s.seat), selected: replay.seat === s.seat}, nameOf(s.seat))));
  const button = (id, label, onclick, disabled = false) => h("button", {type: "button", class: "btn small", id, onclick, disabled}, label);
  const action = replay.data?.play ? actionWords(replay.data) : null;
  $("#controls").replaceChildren(
    h("div", {class: "row wrap"},
      button("replay-first", t("replay.first"), () => go(0), replay.step === 0),
      button("replay-prev", t("replay.prev"), () => go(replay.step - 1), replay.step === 0),
      button("replay-play", replay.timer ? t("replay.pause") : t("replay.play"), play),
      button("replay-next", t("replay.next"), () => go(replay.step + 1), replay.step >= steps),
      button("replay-last", t("replay.last"), () => go(steps), replay.step >= steps),
      h("span", {class: "step", id: "replay-step"}, t("replay.step", {k: replay.step, n: steps})),
      h("label", {class: "inline"}, t("replay.view"), " ", seat),
      h("a", {class: "btn small ghost", href: url(`/api/games/${code}/record`), download: "", id: "replay-record"}, t("lobby.download")),
      h("a", {class: "btn small ghost", href: url(`/verify?game=${code}`), id: "replay-verify"}, t("fair.verify_link"))),
    slider,
    h("div", {class: "muted", id: "replay-action"}, action ? t("replay.action", {what: action}) : t("replay.start")));
}

/** The step's action in words (with the card a single discard draw took). */
function actionWords(data) {
  const plays = data.view.plays;
  if (plays.length && plays[plays.length - 1].text === data.play.text) {
    const words = describeLog(plays, nameOf, data.view.taken_from_discard, replay.game.client);
    return words[words.length - 1];
  }
  return describeAction(data.play, nameOf, replay.game.client);
}

function staticHand(view) {
  const wild = wildRankLetter(view.wild_rank);
  const cards = [...view.hand].sort((a, b) => sortKey(a, "suit", wild) - sortKey(b, "suit", wild));
  return h("div", {class: "hand", id: "hand"}, cards.map((c) => cardElement(c, {wild: wild !== null && isWild(c, wild)})));
}

function render() {
  header();
  renderControls();
  const data = replay.data;
  if (!data) return;
  const view = data.view;
  const client = replay.game.client;
  const seats = data.seats.map((s) => ({...s, connected: true}));
  renderBoard($("#board"), {
    view, client, seats, me: replay.seat, myName: replay.seat === null ? null : nameOf(replay.seat),
    viewpoint: replay.seat ?? 0, stateId: data.step, callWindow: null, callDepth: 1, busy: false,
    selected: new Set(), handElement: replay.seat === null ? null : staticHand(view), readOnly: true,
    nameOf, on: {},
  });
  const deals = view.finished_deals;
  const justEnded = deals.length && (view.plays.length === 0 || view.game_over);
  renderReview();
  $("#side").replaceChildren(...[
    justEnded ? dealResults(view, client, deals[deals.length - 1], nameOf, replay.seat ?? 0) : null,
    logPanel(view, client, nameOf),
    scoreSection(view, client, nameOf)].filter(Boolean));
}

/** The review panel at the step shown; a review started shows that seat's view. */
function renderReview() {
  const data = replay.data;
  if (!replay.game || !data) return;
  const deals = data.view.finished_deals;
  const ended = deals.length && (data.view.plays.length === 0 || data.view.game_over) ? deals[deals.length - 1].number : null;
  $("#review-box").replaceChildren(reviewPanel(replay.review, {
    seats: replay.game.seats, client: replay.game.client, nameOf, step: replay.step, endedDeal: ended,
    start: (seat) => { replay.review.start(seat); if (replay.seat !== seat) go(replay.step, seat); },
    go: (step) => go(step),
  }));
}

document.addEventListener("keydown", (event) => {
  if (!replay.game || /** @type {Element} */ (event.target).closest("input, select")) return;
  if (event.key === "ArrowRight") go(replay.step + 1);
  else if (event.key === "ArrowLeft") go(replay.step - 1);
});

onLangChange(render);

async function start() {
  header();
  try {
    const {game} = await api(`/api/games/${code}`);
    replay.game = game;
    await go(replay.step);
  } catch (error) {
    showError(error.message);
  }
}

start();
