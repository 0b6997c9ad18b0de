// The end of a deal as the results show it (R13-14), live and in replays: how the deal
// ended, then each seat's melds and dead cards and its points; a breakdown of what each
// seat laid and held where the variant counts so (R5-12), each hand after a knock with the
// lay-offs in their seat's colour where players knock (G-6, G-7).

import {laidBreakdown} from "./breakdown.js";
import {parseCard, wildRankLetter} from "./cards.js";
import {N_, t, tn} from "./i18n.js";
import {SEAT_COLOURS} from "./scores.js";
import {positionName, seatPositions, smallCards} from "./seats.js";
import {h, showCard} from "./util.js";

// The message ids of the end of what each variant calls a deal (ClientInfo.deal), and of
// how a deal ended.
const DEAL_OVER = {game: N_("end.deal_over.game"), hand: N_("end.deal_over.hand"), round: N_("end.deal_over.round")};
const ENDED_BY = {close: N_("end.by.close"), stock: N_("end.by.stock"), out: N_("end.by.out"), declined: N_("end.by.declined"),
  knock: N_("end.by.knock"), wall: N_("end.by.wall"), limit: N_("end.by.limit")};

/** The wild rank of deal `number` as a card rank letter, or null where deals have none. */
export function dealWildRank(client, number) {
  return wildRankLetter(client.wild_ranks[number - 1] ?? null);
}

/** Every seat's arrangement at the end of a deal (R13-14): melds, dead cards, points. */
export function dealResults(view, client, summary, nameOf, viewpoint) {
  const wildRank = dealWildRank(client, summary.number);
  const positions = seatPositions(view.players, viewpoint ?? 0, client.clockwise);
  const ended = summary.by_seat === null || summary.by_seat === undefined
    ? t(ENDED_BY[summary.ended_by], {name: ""})
    : t(knockEnding(summary) ?? ENDED_BY[summary.ended_by], {name: nameOf(summary.by_seat)});
  const rows = summary.results.map((result, seat) => h("div", {class: "result-row" + (summary.by_seat === seat ? " ender" : ""),
    dataset: {seat: String(seat)}},
  h("div", {class: "result-head"},
    h("span", {class: "swatch", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}),
    h("b", {}, nameOf(seat)),
    positions[seat] && positions[seat].zone !== "bottom" ? h("span", {class: "muted"}, positionName(positions[seat].zone)) : null,
    result.went_out ? h("span", {class: "tag out"}, t("end.went_out")) : null,
    client.lower_is_better // R3-7: deadwood counts against its holder
      ? h("span", {class: "points" + (result.points > 0 ? " negative" : "")}, t("end.deadwood", {n: result.points}))
      : h("span", {class: "points" + (result.points < 0 ? " negative" : "")}, tn("end.points", result.points))),
  result.closing ? h("div", {class: "closing"}, t("end.closing", {card: showCard(result.closing), bonus: result.bonus}),
    smallCards([result.closing], {wildRank})) : null,
  result.held !== null && result.held !== undefined // a breakdown (Rummy 500, R5-12)
    ? laidBreakdown(result, nameOf, (cards, cls) => smallCards(cards, {wildRank, cls}))
    : client.knocking ? knockArrangement(summary, seat, nameOf)
    : h("div", {class: "arrangement"},
    h("div", {class: "group melds-group"}, h("span", {class: "label"}, t("end.melds")),
      result.melds.length ? result.melds.map((meld) => smallCards(meld, {wildRank, cls: "meld"})) : h("span", {class: "muted"}, t("end.none"))),
    h("div", {class: "group dead-group"}, h("span", {class: "label"}, t("end.dead")),
      result.dead.length ? smallCards(result.dead, {wildRank, cls: "dead"}) : h("span", {class: "muted"}, t("end.none"))))));
  return h("div", {class: "deal-results", dataset: {deal: String(summary.number)}},
    h("h3", {}, t(DEAL_OVER[client.deal], {n: summary.number}), " ", h("span", {class: "muted"}, ended)),
    rows);
}

/** How a knock ended (G-7): gin (no deadwood, with the gin bonus), an undercut (the defender
 * scores), or null for a plain knock or no knock at all. */
function knockEnding(summary) {
  const knocker = summary.by_seat;
  if (summary.ended_by !== "knock" || knocker === null || knocker === undefined) return null;
  if (summary.results[knocker].bonus && deadwoodOf(summary.results[knocker].dead) === 0) return N_("end.by.knock_gin");
  if (summary.results.some((r, seat) => seat !== knocker && r.points > 0)) return N_("end.by.undercut");
  return null;
}

/** The deadwood value of cards (G-2): ace 1, two to ten their number, J Q K 10. */
function deadwoodOf(cards) {
  const value = (rank) => (rank === "A" ? 1 : "TJQK".includes(rank) ? 10 : Number(rank));
  return cards.reduce((sum, text) => sum + value(parseCard(text).rank), 0);
}

/** One seat's hand at the end of a knock (G-6, G-7): its melds with the other side's
 * lay-offs in that side's colour, its own lay-offs, its deadwood and any bonus. */
function knockArrangement(summary, seat, nameOf) {
  const result = summary.results[seat];
  const laidOff = new Map(); // card → the seat that laid it off on this seat's melds
  summary.results.forEach((other, by) => {
    for (const laid of other.laid || []) if (laid.layoff && laid.owner === seat) laid.cards.forEach((c) => laidOff.set(c, by));
  });
  const melds = result.melds.map((meld) => smallCards(meld, {cls: "meld", owners: meld.map((c) => laidOff.get(c) ?? seat)}));
  const layoffs = (result.laid || []).filter((laid) => laid.layoff);
  const dead = deadwoodOf(result.dead);
  return h("div", {class: "arrangement knock-arrangement"},
    h("div", {class: "group melds-group"}, h("span", {class: "label"}, t("end.melds")),
      melds.length ? melds : h("span", {class: "muted"}, t("end.none"))),
    layoffs.length ? h("div", {class: "group layoff-group"}, layoffs.flatMap((laid) => [
      h("span", {class: "label"}, t("end.laid_off", {n: laid.meld, name: nameOf(laid.owner)})),
      smallCards(laid.cards, {cls: "layoff"})])) : null,
    h("div", {class: "group dead-group"}, h("span", {class: "label"}, t("end.deadwood_cards", {n: dead})),
      result.dead.length ? smallCards(result.dead, {cls: "dead"}) : h("span", {class: "muted"}, t("end.no_deadwood"))),
    result.bonus ? h("div", {class: "bonus"}, t("end.bonus", {n: result.bonus})) : null);
}
