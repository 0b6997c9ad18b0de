// A seat's points at the end of a deal, line by line, where the summary breaks them down
// (Rummy 500, R5-12: `laid` and `held`, docs/protocol.md §5.2): each meld it laid, each
// lay-off (onto whose meld), the cards left in hand taken off, and the total.

import {t, tn} from "./i18n.js";
import {h} from "./util.js";

/** The breakdown of `result`; `cards(list, cls)` draws small cards. */
export function laidBreakdown(result, nameOf, cards) {
  const line = (cls, label, shown, points) => h("tr", {class: cls},
    h("th", {scope: "row"}, label),
    h("td", {class: "laid-cards"}, shown),
    h("td", {class: "laid-points"}, points));
  const signed = (n) => (n > 0 ? `+${n}` : String(n));
  const rows = result.laid.map((laid) => line(laid.layoff ? "layoff" : "meld",
    laid.layoff ? t("end.laid_off", {n: laid.meld, name: nameOf(laid.owner)}) : t("end.laid_meld", {n: laid.meld}),
    cards(laid.cards, laid.layoff ? "layoff" : "meld"), signed(laid.points)));
  if (!rows.length) rows.push(line("meld", t("end.melds"), h("span", {class: "muted"}, t("end.none")), "0"));
  rows.push(line("held", t("end.in_hand"),
    result.dead.length ? cards(result.dead, "dead") : h("span", {class: "muted"}, t("end.none")),
    result.held ? `−${result.held}` : "0"));
  return h("table", {class: "breakdown"},
    h("tbody", {}, rows),
    h("tfoot", {}, line("total", t("end.total"), "", tn("end.points", result.points))));
}
