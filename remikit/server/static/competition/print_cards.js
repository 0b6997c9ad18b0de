// Everyone's personal score card, printed (/competitions/CID/print/cards): per player, a
// line per round of the competition (the table and position, or the bye; each game's
// confirmed score, else a box to write it in; the round's sum), the total of the
// standings and a line for the player's signature. One card per player, to cut.

import {onLangChange, t} from "../i18n.js";
import {h} from "../util.js";
import {positions} from "./common.js";
import {loadPrint, printPage, sheetHead} from "./print.js";

const data = await loadPrint((comp) => Array.from({length: comp.current_round || 0}, (_, i) => i + 1), {standings: true});

/** Where ``pid`` plays ``round``: {table, position, scores: [points | null per game]}, {bye}, or null. */
function placeIn(round, pid, games) {
  if ((round.byes || []).includes(pid)) return {bye: true};
  for (const tb of round.tables) {
    const i = tb.seats.findIndex((s) => s.player === pid);
    if (i < 0) continue;
    const scores = Array.from({length: games}, (_, g) => {
      const entry = tb.games[g]?.entry;
      const seat = entry && entry.confirmed_by ? entry.players.indexOf(pid) : -1;
      return seat >= 0 ? entry.points[seat] : null;
    });
    return {table: tb.number, position: tb.seats[i].position || positions[i], scores};
  }
  return null;
}

function card(comp, player, row) {
  const games = Array.from({length: comp.games}, (_, g) => g + 1);
  const lines = Array.from({length: comp.rounds}, (_, r) => {
    const round = data.rounds[r];
    const place = round ? placeIn(round, player.id, comp.games) : null;
    if (place?.bye) return h("tr", {class: "bye"}, h("th", {scope: "row"}, r + 1), h("td", {colspan: games.length + 3}, t("comp.sched.bye", {round: r + 1})));
    const scores = place ? place.scores : games.map(() => null);
    const known = scores.filter((s) => s !== null);
    return h("tr", {dataset: {round: r + 1}}, h("th", {scope: "row"}, r + 1),
      h("td", {class: "box"}, place ? place.table : ""), h("td", {class: "box"}, place ? place.position : ""),
      scores.map((s) => h("td", {class: "box score"}, s ?? "")),
      h("td", {class: "box sum"}, known.length ? known.reduce((a, b) => a + b, 0) : ""));
  });
  return h("li", {class: "score-card", dataset: {player: player.id}},
    h("h3", {}, player.name, h("small", {}, ` · ${player.id}${player.club ? ` · ${player.club}` : ""}`)),
    h("table", {class: "plain print-table card-table"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("comp.col.round")), h("th", {scope: "col"}, t("comp.col.table")),
        h("th", {scope: "col"}, t("comp.col.position")), games.map((n) => h("th", {scope: "col"}, t("comp.game_n", {n}))),
        h("th", {scope: "col"}, t("comp.col.sum")))),
      h("tbody", {}, lines)),
    h("p", {class: "card-total"}, t("comp.print.total_line", {total: row ? row.total : "", games: row ? row.games : 0})),
    h("p", {class: "sign player"}, t("comp.print.sign_own")));
}

function draw() {
  const {comp, players, standings} = data;
  const title = t("comp.print.cards_title");
  const rows = new Map((standings?.rows || []).map((r) => [r.player, r]));
  const playing = (p) => rows.has(p.id) || p.status === "checked_in";
  const cards = players.filter(playing).sort((a, b) => a.name.localeCompare(b.name)).map((p) => card(comp, p, rows.get(p.id)));
  printPage(comp, title, h("article", {class: "sheet", id: "cards"}, sheetHead(comp, title), h("ul", {class: "score-cards"}, cards)));
}

if (data) {
  draw();
  onLangChange(draw);
}
