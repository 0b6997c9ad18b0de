// A round's table sheets, printed one table to a page (/competitions/CID/print/sheets?round=n):
// the players at positions A–D with boxes for the card each draws (R13-2, with room for a
// redraw) and the game seat it gives, then a blank row per game for each seat's score,
// who dealt, who closed and the closing card (an Ace or a Joker, R13-7), and a signature
// line for the referee and for each player of the table.

import {N_, onLangChange, t} from "../i18n.js";
import {h} from "../util.js";
import {positions, seatLabel} from "./common.js";
import {loadPrint, printPage, sheetHead, wantedRound} from "./print.js";
import {kindName} from "./round_view.js";

const data = await loadPrint((comp) => [wantedRound(comp)].filter(Boolean));

function sheet(comp, round, tb, nameOf) {
  const title = `${t("comp.round_n", {n: round.number})} · ${t("comp.table_n", {n: tb.number})}`;
  const draws = tb.seats.map((seat, i) => h("tr", {},
    h("th", {scope: "row"}, seat.position || positions[i]), h("td", {class: "name"}, seatLabel(seat, nameOf)),
    h("td", {class: "box"}), h("td", {class: "box"}), h("td", {class: "box"})));
  const games = Array.from({length: comp.games}, (_, g) => h("tr", {},
    h("th", {scope: "row"}, g + 1), positions.map(() => h("td", {class: "box"})),
    h("td", {class: "box"}), h("td", {class: "box"}), h("td", {class: "box closing-card"})));
  const signatures = [
    h("p", {class: "sign referee"}, t("comp.print.sign_referee")),
    ...tb.seats.filter((seat) => seat.player).map((seat, i) => h("p", {class: "sign player", dataset: {player: seat.player}},
      `${seat.position || positions[i]} · `, seatLabel(seat, nameOf))),
  ];
  return h("article", {class: "sheet table-sheet", dataset: {table: tb.number}},
    sheetHead(comp, title),
    h("p", {}, kindName(tb.kind), tb.web_table ? ` · ${tb.web_table}` : ""),
    h("h2", {}, t("comp.ref.seat_draw")),
    h("table", {class: "plain print-table draw-table"},
      h("thead", {}, h("tr", {}, [N_("comp.col.position"), N_("comp.col.name"), N_("comp.print.card"), N_("comp.print.redraw"), N_("comp.print.game_seat")]
        .map((k) => h("th", {scope: "col"}, t(k))))),
      h("tbody", {}, draws)),
    h("h2", {}, t("comp.print.scores")),
    h("table", {class: "plain print-table score-table"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("comp.col.game")),
        [1, 2, 3, 4].map((n) => h("th", {scope: "col"}, t("comp.seat_n", {n}))),
        h("th", {scope: "col"}, t("comp.print.dealer")), h("th", {scope: "col"}, t("comp.print.closer")),
        h("th", {scope: "col", class: "closing-card"}, t("comp.print.closing_card")))),
      h("tbody", {}, games)),
    h("h2", {}, t("comp.print.signatures")),
    h("div", {class: "signatures"}, signatures));
}

function draw() {
  const {comp, nameOf, rounds: [round]} = data;
  const title = t("comp.print.sheets_of", {n: round.number});
  printPage(comp, title, h("div", {id: "sheets"}, round.tables.filter((tb) => tb.kind === "physical").map((tb) => sheet(comp, round, tb, nameOf))));
}

if (data && data.rounds.length) {
  draw();
  onLangChange(draw);
} else if (data) {
  printPage(data.comp, "", h("p", {}, t("comp.public.no_rounds")));
}
