// One game's result as the referee sees it (an entry, or the calculator's result before it
// is saved): per game seat its points and, for an entry of cards, its best arrangement
// (kartu jadi, kartu mati; R13-14); who closed with which card ("Remi As", "Remi Joker")
// or that the stock ran out; who entered and confirmed it, and the reason of a correction.

import {cardElement} from "../cards.js";
import {N_, t} from "../i18n.js";
import {h} from "../util.js";

const cards = (list, extra = "") => h("div", {class: `cards small ${extra}`}, list.map((c) => cardElement(c)));

function ending(entry, seats) {
  if (entry.closer === null || entry.closer === undefined) {
    return entry.kind === "points" ? null : t("comp.entry.stock_out");
  }
  const name = seats[entry.closer]?.name || "?";
  const joker = (entry.closing || "").startsWith("Jk");
  const key = joker ? N_("comp.entry.closed_joker") : N_("comp.entry.closed_ace");
  return t(key, {name});
}

/** The result's box: ``entry`` is an ENTRY or the calculator's answer. */
export function entryView(entry, seats) {
  const arrangements = entry.arrangements || [];
  const rows = seats.map((seat, i) => {
    const arrangement = arrangements[i];
    const points = entry.points[i];
    return h("li", {class: `result-row ${i === entry.closer ? "ender" : ""}`, dataset: {seat: i, points}},
      h("div", {class: "result-head"}, h("b", {}, seat.name),
        i === entry.closer && entry.closing ? h("span", {class: "tag out"}, t("comp.entry.tutup")) : null,
        h("span", {class: `points ${points < 0 ? "negative" : ""}`}, points)),
      arrangement ? h("div", {class: "arrangement"},
        arrangement.melds.length ? h("div", {class: "group"}, h("span", {class: "label"}, t("comp.entry.melds")),
          arrangement.melds.map((m) => cards(m))) : null,
        arrangement.dead.length ? h("div", {class: "group"}, h("span", {class: "label"}, t("comp.entry.dead")),
          cards(arrangement.dead, "dead")) : null,
        i === entry.closer && entry.closing ? h("div", {class: "group"}, h("span", {class: "label"}, t("comp.entry.closing")),
          cards([entry.closing])) : null) : null);
  });
  const who = [
    entry.entered_by ? t("comp.entry.entered_by", {name: entry.entered_by}) : null,
    entry.confirmed_by ? t("comp.entry.confirmed_by", {name: entry.confirmed_by}) : null,
    entry.reason ? t("comp.entry.reason", {reason: entry.reason}) : null,
  ].filter(Boolean).join(" · ");
  return h("div", {class: "deal-results entry", dataset: {entry: entry.id || ""}},
    h("p", {class: "ending"}, ending(entry, seats)),
    h("ol", {class: "items"}, rows),
    who ? h("p", {class: "muted who"}, who) : null);
}
