// The pairings of a round, printed (/competitions/CID/print/pairings?round=n): every table
// with its kind and its players at positions A–D, then the byes; and, sorted by name,
// where each player sits, for the notice board.

import {onLangChange, t} from "../i18n.js";
import {h} from "../util.js";
import {positions, seatLabel} from "./common.js";
import {loadPrint, printPage, sheetHead, wantedRound} from "./print.js";
import {kindName} from "./round_view.js";

const data = await loadPrint((comp) => [wantedRound(comp)].filter(Boolean));

function draw() {
  const {comp, nameOf, rounds: [round]} = data;
  const title = t("comp.print.pairings_of", {n: round.number});
  const tables = round.tables.map((tb) => h("tr", {dataset: {table: tb.number}},
    h("th", {scope: "row"}, t("comp.table_n", {n: tb.number}), h("br"), h("small", {}, kindName(tb.kind))),
    tb.seats.map((seat) => h("td", {}, seatLabel(seat, nameOf)))));
  const places = [];
  for (const tb of round.tables) {
    tb.seats.forEach((seat, i) => {
      if (seat.player) places.push({name: seatLabel(seat, nameOf), table: tb.number, position: seat.position || positions[i]});
    });
  }
  places.sort((a, b) => a.name.localeCompare(b.name));
  printPage(comp, title, h("article", {class: "sheet", id: "pairings"},
    sheetHead(comp, title),
    h("table", {class: "plain print-table"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("comp.col.table")), positions.map((p) => h("th", {scope: "col"}, p)))),
      h("tbody", {}, tables)),
    round.byes?.length ? h("p", {}, t("comp.byes", {names: round.byes.map(nameOf).join(", ")})) : null,
    h("h2", {}, t("comp.print.by_name")),
    h("ol", {class: "by-name"}, places.map((p) => h("li", {}, h("b", {}, p.name), " ",
      t("comp.print.sits", {table: p.table, position: p.position}))))));
}

if (data && data.rounds.length) {
  draw();
  onLangChange(draw);
} else if (data) {
  printPage(data.comp, "", h("p", {}, t("comp.public.no_rounds")));
}
