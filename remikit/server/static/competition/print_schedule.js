// Everyone's personal schedule, printed (/competitions/CID/print/schedule): per player, in
// every round made so far, the table, its kind and the position, and the player's own
// confirmation code; a small card each, to cut.

import {onLangChange, t} from "../i18n.js";
import {h} from "../util.js";
import {positions} from "./common.js";
import {loadPrint, printPage, sheetHead} from "./print.js";
import {kindName} from "./round_view.js";

const data = await loadPrint((comp) => Array.from({length: comp.current_round || 0}, (_, i) => i + 1));

function draw() {
  const {comp, players, rounds} = data;
  const title = t("comp.print.schedule");
  const cards = players.filter((p) => p.status !== "disqualified").sort((a, b) => a.name.localeCompare(b.name)).map((p) => {
    const lines = rounds.map((round) => {
      if ((round.byes || []).includes(p.id)) return h("li", {}, t("comp.sched.bye", {round: round.number}));
      for (const tb of round.tables) {
        const i = tb.seats.findIndex((s) => s.player === p.id);
        if (i >= 0) {
          return h("li", {}, t("comp.sched.place", {round: round.number, table: tb.number, position: tb.seats[i].position || positions[i]}),
            ` (${kindName(tb.kind)})`);
        }
      }
      return null;
    });
    const code = p.code ? h("p", {class: "code"}, t("comp.sched.code", {code: p.code}), h("br"), h("small", {}, t("comp.sched.code_help"))) : null;
    return h("li", {class: "schedule-card", dataset: {player: p.id}}, h("h3", {}, p.name, p.club ? h("small", {}, ` · ${p.club}`) : null),
      h("ul", {}, lines), code);
  });
  printPage(comp, title, h("article", {class: "sheet", id: "schedule"}, sheetHead(comp, title),
    h("ul", {class: "schedule-cards"}, cards)));
}

if (data) {
  draw();
  onLangChange(draw);
}
