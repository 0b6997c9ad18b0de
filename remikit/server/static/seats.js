// The seats around the board: where each sits seen from a player (Left/Top/Right in the
// variant's direction of play, RULES.md §0), a seat's panel (its name, level and badges,
// its cards face down, its total and last play) and the small cards of melds, each card
// in the colour of the seat that laid it. Used by the board, the deal's results and the
// seat draw (board.js, deal_results.js, seatdraw.js).

import {seatTags} from "./absence.js";
import {backElement, cardElement, isWild, wildRankLetter} from "./cards.js";
import {N_, t, tn} from "./i18n.js";
import {SEAT_COLOURS} from "./scores.js";
import {h, levelName} from "./util.js";

const POSITION = {left: N_("pos.left"), top: N_("pos.top"), right: N_("pos.right"), bottom: N_("pos.bottom")};

/** Where a seat sits in words ("left"), from seatPositions' zone. */
export const positionName = (zone) => t(POSITION[zone]);

/** Where each seat sits seen from `viewpoint`: {seat: {zone, order}}, zone left/top/right/bottom. */
export function seatPositions(players, viewpoint, clockwise) {
  const others = Array.from({length: players - 1}, (_, i) => (viewpoint + 1 + i) % players);
  const k = others.length;
  const side = k <= 1 ? 0 : k >= 6 ? 2 : 1;
  const top = k - 2 * side;
  // Clockwise tables: the next player sits on the left and the previous one on the right.
  // Tables that play to the right (Remi 13 D): next on the right, previous on the left.
  const zones = clockwise
    ? [...Array(side).fill("left"), ...Array(top).fill("top"), ...Array(side).fill("right")]
    : [...Array(side).fill("right"), ...Array(top).fill("top"), ...Array(side).fill("left")];
  const out = {[viewpoint]: {zone: "bottom", order: 0}};
  others.forEach((seat, i) => { out[seat] = {zone: zones[i], order: i}; });
  return out;
}

/** A row of small cards; `owners[i]` colours card i by the seat that laid it. */
export function smallCards(cards, {wildRank = null, cls = "", standsFor = null, owners = null} = {}) {
  return h("div", {class: `cards small ${cls}`}, cards.map((text, i) => {
    const element = cardElement(text, {wild: wildRank !== null && isWild(text, wildRank),
      stands: standsFor ? standsFor[i] : null});
    if (owners) {
      element.dataset.owner = String(owners[i]);
      element.style.setProperty("--owner", SEAT_COLOURS[owners[i] % SEAT_COLOURS.length]);
      element.classList.add("owned");
    }
    return element;
  }));
}

function backs(count, max = 13) {
  const shown = Math.min(count, max);
  return h("div", {class: "backs"}, Array.from({length: shown}, () => backElement()),
    h("span", {class: "count", title: tn("table.cards_n", count)}, String(count)));
}

/** A seat's panel at `position` ({zone, order}); `last` says what it did last. */
export function seatPanel(model, seat, position, last) {
  const {view, seats, nameOf} = model;
  const info = seats[seat] || {};
  const toPlay = view.to_play === seat && !view.game_over;
  const label = t(POSITION[position.zone]);
  const shown = view.went_out === seat && view.shown_melds?.length
    ? h("div", {class: "shown-melds"}, h("span", {class: "muted"}, t("table.shown_melds", {name: nameOf(seat)})),
      view.shown_melds.map((meld) => smallCards(meld, {wildRank: wildRankLetter(view.wild_rank)})))
    : null;
  return h("div", {class: `seat-panel pos-${position.zone}` + (toPlay ? " to-play" : ""),
    dataset: {seat: String(seat), pos: position.zone}, style: `--order:${position.order}`,
    role: "group", "aria-label": `${nameOf(seat)} · ${label} · ${tn("table.cards_n", view.hand_sizes[seat] || 0)}`
      + (toPlay ? ` · ${t("table.turn_of", {name: nameOf(seat)})}` : "")},
  h("div", {class: "seat-head"},
    h("span", {class: "swatch", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}),
    h("span", {class: "pos"}, label),
    h("b", {class: "name", title: nameOf(seat)}, nameOf(seat)),
    info.kind === "bot" ? h("span", {class: "tag"}, levelName(info.level)) : null,
    info.kind === "person" && !info.taken ? h("span", {class: "tag"}, t("lobby.free")) : null,
    info.kind === "person" && info.taken && info.connected === false ? h("span", {class: "tag away"}, t("table.disconnected")) : null,
    ...seatTags(info),
    view.went_out === seat ? h("span", {class: "tag out"}, t("end.went_out")) : null),
  backs(view.hand_sizes[seat] || 0),
  h("div", {class: "seat-foot"},
    h("span", {class: "total"}, t("table.total", {n: view.totals?.[seat] ?? 0})),
    last ? h("span", {class: "last", title: last}, last) : null),
  shown);
}
