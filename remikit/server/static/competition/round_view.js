// A round's tables as the organiser and the print views show them: each table's kind,
// its positions A–D with their players, the seat draw's game seats, the web table's link
// and the state of each game; the round's byes and the quality of its seating.

import {N_, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {gameSeats, gameStatus, positions, roundStatus, seatLabel} from "./common.js";

const KIND = {online: N_("comp.table.online"), physical: N_("comp.table.physical")};

export function kindName(kind) {
  return t(KIND[kind] || KIND.physical);
}

function tableBox(table, nameOf) {
  const drawn = gameSeats(table, nameOf);
  const seatOf = new Map((drawn || []).map((s) => [s.position, s.seat]));
  const seats = table.seats.map((seat, i) => h("li", {dataset: {position: seat.position || positions[i]}},
    h("b", {class: "pos"}, seat.position || positions[i]), " ", seatLabel(seat, nameOf),
    seatOf.has(seat.position) ? h("span", {class: "tag"}, t("comp.seat_n", {n: seatOf.get(seat.position) + 1})) : null));
  const games = table.games.map((g) => h("span", {class: `tag game-${g.status}`, title: gameStatus(g.status)},
    t("comp.game_n", {n: g.number}), ": ", gameStatus(g.status)));
  const link = table.web_table
    ? h("a", {href: url(`/table/${table.web_table}`), class: "table-link"}, t("comp.table.open_web", {code: table.web_table}))
    : null;
  return h("li", {class: `round-table ${table.kind}`, dataset: {table: table.number}},
    h("h3", {}, t("comp.table_n", {n: table.number}), " ", h("span", {class: "tag"}, kindName(table.kind)), " ", link),
    h("ol", {class: "seats"}, seats),
    h("div", {class: "row wrap games"}, games));
}

/** A seating's quality in words (the named pairs seated together once there are any). */
export function qualityText(q = {}) {
  const text = t("comp.quality", {repeats: q.repeat_meetings ?? 0, imbalance: q.seat_imbalance ?? 0, clashes: q.club_clashes ?? 0});
  return q.avoid_clashes ? `${text}, ${t("comp.quality_avoid", {n: q.avoid_clashes})}` : text;
}

/** The whole round: its status, tables, byes and quality. */
export function roundView(round, nameOf) {
  const q = round.quality || {};
  const byes = (round.byes || []).map(nameOf).join(", ");
  return h("div", {class: "round-view", id: `round-${round.number}`, dataset: {status: round.status}},
    h("p", {class: "quality", id: "round-quality"},
      roundStatus(round.status), " · ", qualityText(q)),
    byes ? h("p", {}, t("comp.byes", {names: byes})) : null,
    h("ul", {class: "round-tables"}, round.tables.map((table) => tableBox(table, nameOf))));
}
