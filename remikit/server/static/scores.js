// The score table of a game (points per deal, running totals) and a chart of the totals
// over the deals as an inline SVG polyline per seat.

import {N_, t} from "./i18n.js";

// What each variant calls a deal (ClientInfo.deal), as a word in a sentence.
const DEAL_WORD = {game: N_("scores.deal_word.game"), hand: N_("scores.deal_word.hand"), round: N_("scores.deal_word.round")};
import {h} from "./util.js";

export const SEAT_COLOURS = ["#d2462b", "#1f77b4", "#2e9d3a", "#9c4dcc", "#e08a00", "#17a2b8", "#8c564b", "#e377c2"];

/** The running totals after each deal: rows[k][seat]. */
export function runningTotals(deals, players) {
  const rows = [];
  let total = new Array(players).fill(0);
  for (const deal of deals) {
    total = total.map((value, seat) => value + (deal.points[seat] || 0));
    rows.push(total);
  }
  return rows;
}

/** A <table> of points per deal and totals. */
export function scoreTable(view, nameOf) {
  const players = view.players;
  const deals = view.finished_deals || [];
  const head = h("tr", {}, h("th", {scope: "col"}, t("scores.deal")),
    ...Array.from({length: players}, (_, seat) => h("th", {scope: "col"},
      h("span", {class: "swatch", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}),
      nameOf(seat))));
  const rows = deals.map((deal) => h("tr", {},
    h("th", {scope: "row"}, String(deal.number)),
    ...deal.points.map((points, seat) => h("td", {class: deal.by_seat === seat ? "ender" : null},
      String(points)))));
  const bonuses = view.game_bonuses || [];
  if (bonuses.some((b) => b)) { // Gin Rummy: the game, box and shutout bonuses (G-10)
    rows.push(h("tr", {class: "bonuses", id: "score-bonuses"}, h("th", {scope: "row"}, t("scores.bonuses")),
      ...bonuses.map((value) => h("td", {}, String(value)))));
  }
  const totals = view.totals && view.totals.length ? view.totals : new Array(players).fill(0);
  const foot = h("tr", {class: "totals"}, h("th", {scope: "row"}, t("scores.total")),
    ...totals.map((value, seat) => h("td", {class: view.winner === seat ? "winner" : null}, String(value))));
  return h("table", {class: "scores", id: "score-table"}, h("thead", {}, head), h("tbody", {}, rows),
    h("tfoot", {}, foot));
}

/** An SVG line chart of the running totals (one polyline per seat); null before any deal. */
export function scoreChart(view, client, nameOf) {
  const deals = view.finished_deals || [];
  if (!deals.length) return null;
  const players = view.players;
  const rows = [new Array(players).fill(0), ...runningTotals(deals, players)];
  const values = rows.flat();
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (high === low) high = low + 1;
  const pad = (high - low) * 0.08;
  low -= pad;
  high += pad;
  const width = 320;
  const height = 170;
  const left = 40;
  const right = 10;
  const top = 10;
  const bottom = 24;
  const x = (k) => left + (rows.length === 1 ? 0 : (k * (width - left - right)) / (rows.length - 1));
  const y = (v) => top + ((high - v) * (height - top - bottom)) / (high - low);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "score-chart");
  svg.setAttribute("id", "score-chart");
  svg.setAttribute("role", "img");
  const word = t(DEAL_WORD[client.deal]);
  svg.setAttribute("aria-label", t("scores.chart", {deal: word}));
  const add = (tag, attrs, text) => {
    const element = document.createElementNS(ns, tag);
    for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, String(value));
    if (text !== undefined) element.textContent = text;
    svg.append(element);
    return element;
  };
  // grid: zero line and a few levels
  const step = niceStep((high - low) / 4);
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) {
    add("line", {x1: left, x2: width - right, y1: y(v), y2: y(v), class: v === 0 ? "zero" : "grid"});
    add("text", {x: left - 4, y: y(v) + 4, "text-anchor": "end", class: "tick"}, String(Math.round(v)));
  }
  const every = Math.max(1, Math.ceil(rows.length / 12));
  for (let k = 0; k < rows.length; k += every) {
    add("text", {x: x(k), y: height - 6, "text-anchor": "middle", class: "tick"}, String(k));
  }
  for (let seat = 0; seat < players; seat++) {
    const colour = SEAT_COLOURS[seat % SEAT_COLOURS.length];
    const points = rows.map((row, k) => `${x(k).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
    const line = add("polyline", {points, fill: "none", stroke: colour, "stroke-width": 2.5,
      "stroke-linejoin": "round", "data-seat": seat});
    line.append(Object.assign(document.createElementNS(ns, "title"), {textContent: nameOf(seat)}));
    const last = rows[rows.length - 1];
    add("circle", {cx: x(rows.length - 1), cy: y(last[seat]), r: 3.5, fill: colour});
  }
  return svg;
}

function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/** The score section: a heading, the table, the chart and its legend. */
export function scoreSection(view, client, nameOf) {
  const deals = view.finished_deals || [];
  const word = t(DEAL_WORD[client.deal]);
  const chart = scoreChart(view, client, nameOf);
  return h("section", {class: "score-section"},
    h("h3", {}, t("scores.title"), client.lower_is_better ? h("small", {}, " ", t("end.lower_better")) : null),
    deals.length ? null : h("p", {class: "muted"}, t("scores.none")),
    scoreTable(view, nameOf),
    chart ? h("figure", {class: "chart"}, chart, h("figcaption", {}, t("scores.chart", {deal: word}))) : null);
}
