// The review of one seat of a finished game on the replay page (POST and GET
// /api/games/CODE/reviews): a button per seat, a progress bar while the server works, then
// the mark, the bot's choice, the cost and the reasons of the seat's decision at each step,
// a chart of the expected points lost through the game, and each deal's summary.

import {N_, t} from "./i18n.js";
import {api, describeAction, h, showCard} from "./util.js";

const VERDICT = {
  best: N_("review.verdict.best"),
  good: N_("review.verdict.good"),
  inaccuracy: N_("review.verdict.inaccuracy"),
  mistake: N_("review.verdict.mistake"),
  blunder: N_("review.verdict.blunder"),
};
const POLL_MS = 400;
const CARD_FIELDS = ["card", "best", "picked"];

/** A review's state and how to start one; `changed` is called whenever it moves on. */
export function createReview(code, changed) {
  const state = {seat: null, status: null, done: 0, total: null, data: null, error: null};
  let timer = null;

  function failed(seat, error) {
    if (seat !== state.seat) return;
    Object.assign(state, {status: "failed", error: error.message});
    changed();
  }

  function update(review) {
    if (review.seat !== state.seat) return;
    Object.assign(state, {status: review.status, done: review.done, total: review.total,
      data: review.review ?? null, error: review.error?.message ?? null});
    changed();
    if (review.status === "running") timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    const seat = state.seat;
    try {
      update((await api(`/api/games/${code}/reviews/${seat}`)).review);
    } catch (error) {
      failed(seat, error);
    }
  }

  async function start(seat) {
    clearTimeout(timer);
    Object.assign(state, {seat, status: "running", done: 0, total: null, data: null, error: null});
    changed();
    try {
      update((await api(`/api/games/${code}/reviews`, {seat})).review);
    } catch (error) {
      failed(seat, error);
    }
  }

  return {state, start};
}

const reasonText = (reason) => t(reason.key, Object.fromEntries(Object.entries(reason.params).map(([name, value]) =>
  [name, CARD_FIELDS.includes(name) ? String(value).split(" ").map(showCard).join(" ") : value])));

/** The seat's decision at `step`: its mark, the bot's choice, the cost and the reasons. */
function decisionBox(decision, name, client) {
  if (!decision) return h("div", {id: "review-decision", class: "review-decision muted"}, t("replay.review_none", {name}));
  const agreed = decision.taken === decision.best;
  return h("div", {id: "review-decision", class: `review-decision verdict-${decision.verdict}`, dataset: {verdict: decision.verdict}},
    h("span", {class: `verdict-tag verdict-${decision.verdict}`, id: "review-verdict"}, t(VERDICT[decision.verdict])),
    " ",
    h("span", {id: "review-best"}, agreed ? t("replay.review_agreed") : describeAction(decision.best_play, () => t("replay.the_bot"), client)),
    " · ",
    h("span", {id: "review-cost"}, t("replay.review_cost", {cost: decision.cost.toFixed(1), error: decision.error.toFixed(1)})),
    decision.reasons.length ? h("ul", {class: "review-reasons", id: "review-reasons"}, decision.reasons.map((r) => h("li", {}, reasonText(r)))) : null);
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name.startsWith("on")) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  for (const child of children) element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return element;
}

/** The expected points lost, summed decision by decision through the game: a point per
 * decision in its mark's colour (click: go to its step), a line between deals, and a
 * marker at the decision of the step shown. */
function chart(review, step, go) {
  const decisions = review.decisions;
  const width = 800, height = 120, pad = 10;
  const total = Math.max(1, decisions.reduce((sum, d) => sum + d.cost, 0));
  const x = (i) => pad + (decisions.length > 1 ? (i * (width - 2 * pad)) / (decisions.length - 1) : (width - 2 * pad) / 2);
  let sum = 0;
  const points = decisions.map((d, i) => {
    sum += d.cost;
    return {d, x: x(i), y: height - pad - (sum / total) * (height - 2 * pad)};
  });
  const parts = [svg("line", {x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis"})];
  points.forEach((p, i) => {
    if (i > 0 && p.d.deal !== points[i - 1].d.deal) {
      const between = (p.x + points[i - 1].x) / 2;
      parts.push(svg("line", {x1: between, y1: pad, x2: between, y2: height - pad, class: "deal-line"}));
    }
  });
  parts.push(svg("polyline", {points: points.map((p) => `${p.x},${p.y}`).join(" "), class: "lost-line"}));
  const current = points.filter((p) => p.d.step <= step).pop();
  if (current) parts.push(svg("line", {x1: current.x, y1: pad, x2: current.x, y2: height - pad, class: "now-line", id: "review-now"}));
  for (const p of points) {
    parts.push(svg("circle", {cx: p.x, cy: p.y, r: p.d.verdict === "best" || p.d.verdict === "good" ? 3 : 5,
      class: `point verdict-${p.d.verdict}`, "data-step": p.d.step, tabindex: 0, role: "button",
      onclick: () => go(p.d.step), onkeydown: (e) => { if (e.key === "Enter") go(p.d.step); }},
    svg("title", {}, `${t(VERDICT[p.d.verdict])} · ${p.d.cost.toFixed(1)} ± ${p.d.error.toFixed(1)}`)));
  }
  return h("figure", {class: "review-chart"},
    svg("svg", {viewBox: `0 0 ${width} ${height}`, id: "review-chart", role: "img", "aria-label": t("replay.review_chart")}, ...parts),
    h("figcaption", {class: "muted"}, t("replay.review_chart")));
}

/** The review panel: the seats' buttons, then the progress, the failure or the review.
 * `endedDeal` is the number of the deal that has just ended at this step (else null). */
export function reviewPanel(review, {seats, client, nameOf, step, endedDeal, start, go}) {
  const s = review.state;
  const name = s.seat === null ? "" : nameOf(s.seat);
  const parts = [h("div", {class: "row wrap"},
    h("b", {}, t("replay.review_title")),
    seats.map((seat) => h("button", {type: "button", class: "btn small" + (s.seat === seat.seat ? " primary" : " ghost"),
      id: `review-seat-${seat.seat}`, disabled: s.status === "running", onclick: () => start(seat.seat)},
    t("replay.review_seat", {name: nameOf(seat.seat)}))))];
  if (s.status === "running") {
    parts.push(h("div", {class: "review-progress"},
      h("progress", {id: "review-progress", max: String(s.total || 1), value: String(s.done)}),
      h("span", {class: "muted"}, s.total === null ? t("replay.review_waiting", {name}) : t("replay.reviewing", {name, done: s.done, total: s.total}))));
  } else if (s.status === "failed") {
    parts.push(h("div", {class: "notice error", id: "review-error"}, s.error));
  } else if (s.status === "done" && s.data) {
    const game = s.data.game;
    parts.push(h("div", {id: "review-summary"}, t("replay.review_summary", {name, decisions: game.decisions, agreed: game.agreed, lost: game.lost.toFixed(1)})));
    parts.push(chart(s.data, step, go));
    parts.push(decisionBox(s.data.decisions.find((d) => d.step === step), name, client));
    const deal = endedDeal === null ? null : s.data.deals.find((d) => d.deal === endedDeal);
    if (deal) parts.push(h("div", {id: "review-deal", class: "review-deal"}, t("replay.review_deal", {n: deal.deal, name, decisions: deal.decisions, lost: deal.lost.toFixed(1)})));
  }
  return h("div", {id: "review", class: "review-panel card-box", dataset: {status: s.status ?? "none"}}, parts);
}
