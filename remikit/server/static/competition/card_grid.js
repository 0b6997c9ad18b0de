// The card grid on the referee's phone: the two decks and four jokers (Sekop, Hati, Wajik,
// Keriting × A–K, and the Joker), each cell with how many of that card are still left across
// the game's hands. A tap on a cell puts the card in the hand being entered; a tap on a card in
// a hand takes it out; a full hand (13) passes the grid on to the next seat. The closer's seat
// and the closing card (an Ace or a Joker, R13-7) are two more taps. Typing the hands is the
// alternative. A problem shows beside the hand it concerns, naming the seat.

import {RANKS, SUITS, cardText, isRed, rankLabel} from "../cards.js";
import {N_, t} from "../i18n.js";
import {h} from "../util.js";

export const HAND = 13;
const COPIES = 2; // of each natural card in two decks (R13-1)
const JOKERS = 4;
const SUIT_NAME = {s: N_("card.suit.s"), h: N_("card.suit.h"), d: N_("card.suit.d"), c: N_("card.suit.c")};
const SYMBOL = {s: "♠", h: "♥", d: "♦", c: "♣"};
const MODE = {false: N_("comp.grid.typing"), true: N_("comp.grid.tapping")}; // the button's word: the other way
const limit = (card) => (card === "Jk" ? JOKERS : COPIES);

/** A card as typed ("as", "10h", "joker") in its text form ("As", "Th", "Jk"); else as typed. */
export function normalCard(text) {
  if (/^(jk|joker)$/i.test(text)) return "Jk";
  const m = /^(10|[2-9tjqka])([shdc])$/i.exec(text);
  if (!m) return text;
  return (m[1] === "10" ? "T" : m[1].toUpperCase()) + m[2].toLowerCase();
}

export const cardsOf = (text) => text.replace(/,/g, " ").split(/\s+/).filter(Boolean).map(normalCard);
const known = (card) => card === "Jk" || (card.length === 2 && RANKS.includes(card[0]) && SUITS.includes(card[1]));
const shown = (card) => (known(card) ? cardText(card, t("card.joker")) : card);

/** A game's cards being entered: the four hands, the seat the grid fills (a seat, "closing"
 * or null), the closer ("" for none: the stock ran out) and the closing card. */
export function cardDraft() {
  return {hands: [[], [], [], []], typed: [null, null, null, null], typing: false, target: 0, closer: "", closing: "", errors: {}};
}

/** How many of each card are left: the decks' copies less the hands' and the closing card. */
export function cardsLeft(d) {
  const left = new Map([["Jk", JOKERS]]);
  for (const suit of SUITS) for (const rank of RANKS) left.set(rank + suit, COPIES);
  for (const card of [...d.hands.flat(), d.closing].filter((c) => left.has(c))) left.set(card, left.get(card) - 1);
  return left;
}

/** What is wrong before the cards are sent, by where it shows: a seat (0–3) or "closer". */
export function cardProblems(d, seats) {
  const problems = {};
  const at = (seat, key, fields) => { problems[seat] ??= t(key, {seat: seat + 1, name: seats[seat].name, ...fields}); };
  const counts = new Map();
  d.hands.forEach((hand, seat) => {
    for (const card of hand) {
      if (!known(card)) at(seat, N_("comp.grid.bad_card"), {card});
      counts.set(card, (counts.get(card) || 0) + 1);
      if (known(card) && counts.get(card) > limit(card)) at(seat, N_("comp.grid.too_many"), {card: shown(card), limit: limit(card)});
    }
    if (hand.length !== HAND) at(seat, N_("comp.grid.hand_size"), {n: hand.length});
  });
  if (d.closer !== "" && !d.closing) problems.closer = t("comp.grid.no_closing", {name: seats[Number(d.closer)].name});
  return problems;
}

const closes = (card) => card === "Jk" || card[0] === "A";

/** The seat the grid fills after ``from``: the next hand not full, then the closing card if
 * a closer has none, else null (every hand is complete). */
function nextTarget(d, from) {
  for (let step = 1; step <= 4; step++) {
    const seat = (from + step) % 4;
    if (d.hands[seat].length < HAND) return seat;
  }
  return d.closer !== "" && !d.closing ? "closing" : null;
}

/** The entry of a game's cards by taps (or typed): ``changed`` runs after every change. */
export function cardGrid(d, seats, changed) {
  const root = h("div", {class: "card-grid-entry", id: "card-grid"});
  const update = (touched) => {
    for (const where of touched) delete d.errors[where];
    changed();
    draw();
  };
  const tap = (card) => {
    if (d.target === "closing") {
      d.closing = card;
      d.target = nextTarget(d, 3);
      return update(["closer"]);
    }
    const seat = d.target;
    d.hands[seat].push(card);
    d.typed[seat] = null;
    if (d.hands[seat].length >= HAND) d.target = nextTarget(d, seat);
    return update([seat]);
  };
  const takeOut = (seat, index) => {
    d.hands[seat].splice(index, 1);
    d.typed[seat] = null;
    d.target = seat;
    update([seat]);
  };
  const closer = (value) => {
    d.closer = value;
    if (value === "") d.closing = "";
    d.target = value !== "" && !d.closing ? "closing" : nextTarget(d, 3);
    update(["closer"]);
  };
  const errorBeside = (where) => (d.errors[where]
    ? h("p", {class: "hand-error", id: `hand-error-${where}`, role: "alert"}, d.errors[where]) : null);

  function handRow(seat, i) {
    const current = d.target === i;
    const head = h("button", {type: "button", class: "hand-head", id: `seat-tab-${i}`, "aria-pressed": String(current),
      onclick: () => { d.target = i; draw(); }},
    h("span", {}, t("comp.seat_n", {n: i + 1}), " · ", h("b", {}, seat.name)),
    h("span", {class: "count", id: `count-${i}`}, t("comp.ref.count", {n: d.hands[i].length})));
    const chips = d.hands[i].map((card, index) => h("button", {type: "button", class: `chip ${known(card) && !card.startsWith("Jk") && isRed(card[1]) ? "red" : ""}`,
      dataset: {card}, "aria-label": t("comp.grid.remove", {card: shown(card)}), onclick: () => takeOut(i, index)}, shown(card)));
    return h("li", {class: `grid-hand ${current ? "current" : ""} ${d.errors[i] ? "wrong" : ""}`, dataset: {seat: i, cards: d.hands[i].length}},
      head, h("div", {class: "hand-chips", id: `hand-cards-${i}`}, chips), errorBeside(i));
  }

  function typedRow(seat, i) {
    const count = h("span", {class: "count", id: `count-${i}`}, t("comp.ref.count", {n: d.hands[i].length}));
    return h("li", {class: `grid-hand ${d.errors[i] ? "wrong" : ""}`, dataset: {seat: i, cards: d.hands[i].length}},
      h("label", {for: `hand-${i}`}, h("span", {}, t("comp.seat_n", {n: i + 1}), " · ", h("b", {}, seat.name), " ", count),
        h("textarea", {id: `hand-${i}`, class: "hand-input", rows: 2, autocomplete: "off", autocapitalize: "off", spellcheck: "false",
          placeholder: "As Ks Qs Js …", oninput: (e) => {
            d.typed[i] = e.target.value;
            d.hands[i] = cardsOf(e.target.value);
            delete d.errors[i];
            count.textContent = t("comp.ref.count", {n: d.hands[i].length});
            changed();
          }}, d.typed[i] ?? d.hands[i].join(" "))),
      errorBeside(i));
  }

  function ending() {
    if (d.typing) {
      const select = h("select", {id: "entry-closer", onchange: (e) => closer(e.target.value)},
        h("option", {value: "", selected: d.closer === ""}, t("comp.ref.stock_out")),
        seats.map((s, i) => h("option", {value: String(i), selected: d.closer === String(i)}, t("comp.ref.closed_by", {name: s.name}))));
      const closing = d.closer === "" ? null : h("label", {for: "entry-closing"}, t("comp.ref.closing_card"),
        h("input", {id: "entry-closing", class: "card-input", maxlength: 5, value: d.closing, placeholder: "Ah / Jk", autocomplete: "off",
          oninput: (e) => { d.closing = normalCard(e.target.value.trim()); delete d.errors.closer; changed(); }}));
      return h("div", {class: "grid-ending"}, h("label", {for: "entry-closer"}, t("comp.ref.ending"), select), closing, errorBeside("closer"));
    }
    const choice = (value, text, id) => h("button", {type: "button", class: `btn small ${d.closer === value ? "primary" : ""}`, id,
      "aria-pressed": String(d.closer === value), onclick: () => closer(value)}, text);
    const card = d.closer !== "" && d.closing
      ? h("button", {type: "button", class: "chip closing", id: "closing-card", dataset: {card: d.closing},
        "aria-label": t("comp.grid.remove", {card: shown(d.closing)}), onclick: () => { d.closing = ""; d.target = "closing"; update(["closer"]); }},
      shown(d.closing))
      : null;
    return h("div", {class: "grid-ending", role: "group", "aria-label": t("comp.ref.ending")},
      h("span", {class: "label"}, t("comp.ref.ending")),
      h("div", {class: "row wrap"}, choice("", t("comp.ref.stock_out"), "closer-none"),
        seats.map((s, i) => choice(String(i), t("comp.ref.closed_by", {name: s.name}), `closer-${i}`))),
      card ? h("p", {class: "closing-line"}, t("comp.ref.closing_card"), " ", card) : null,
      errorBeside("closer"));
  }

  function hint() {
    if (d.target === "closing") return t("comp.grid.next_closing", {name: seats[Number(d.closer)].name});
    if (d.target === null) return t("comp.grid.complete");
    return t("comp.grid.next_card", {seat: d.target + 1, name: seats[d.target].name});
  }

  function cells() {
    const left = cardsLeft(d);
    const cell = (card, label) => {
      const n = left.get(card);
      const usable = n > 0 && (d.target === "closing" ? closes(card) : d.target !== null && d.hands[d.target].length < HAND);
      return h("button", {type: "button", class: `cell ${card === "Jk" ? "joker" : isRed(card[1]) ? "red" : ""}`,
        dataset: {card, left: n}, disabled: !usable, "aria-label": t("comp.grid.left", {card: shown(card), n}), onclick: () => tap(card)},
      h("span", {class: "rank"}, label), h("small", {class: "left"}, n));
    };
    const suits = [...SUITS].flatMap((suit) => [
      h("span", {class: `suit-label ${isRed(suit) ? "red" : ""}`}, h("span", {class: "symbol"}, SYMBOL[suit]), h("small", {}, t(SUIT_NAME[suit]))),
      ...[...RANKS].map((rank) => cell(rank + suit, `${rankLabel(rank)}${SYMBOL[suit]}`)),
    ]);
    return h("div", {class: "grid-cells", role: "group", "aria-label": t("comp.grid.cards_left")},
      suits, h("span", {class: "suit-label"}, "★"), cell("Jk", t("card.joker")));
  }

  function draw() {
    const mode = h("button", {type: "button", class: "btn ghost small", id: "entry-typing", "aria-pressed": String(d.typing),
      onclick: () => { d.typing = !d.typing; draw(); }}, t(MODE[d.typing]));
    const hands = h("ol", {class: "grid-hands"}, seats.map(d.typing ? typedRow : handRow));
    const grid = d.typing ? [h("p", {class: "muted"}, t("comp.ref.card_help"))]
      : [h("p", {class: "grid-hint", id: "grid-hint", "aria-live": "polite"}, hint()), cells()];
    root.replaceChildren(h("div", {class: "row wrap grid-mode"}, mode), hands, ...grid, ending());
  }

  draw();
  return root;
}
