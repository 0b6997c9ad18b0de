// The seat draw (R13-2) shown before the first game: the cards turned over one by one, a
// round of draws at a time in the order the players drew (a joker or identical cards draw
// again), then who sits where, who deals and who plays first. Shown once per table and device (localStorage); anyone may skip it.
// The table's `seat_draw` lists the seats in seat order; `joined` is the order they drew in.

import {backElement, cardElement} from "./cards.js";
import {t} from "./i18n.js";
import {positionName, seatPositions} from "./seats.js";
import {cardName, h} from "./util.js";

const STEP_MS = 550;

export class SeatDrawShow {
  /** `closed` is called when the player closes the show (the table is then in sight). */
  constructor(code, closed = () => {}) {
    this.closed = closed;
    this.key = `remikit.seatdraw.${code}`;
    this.box = h("div", {class: "results seat-draw-show", id: "seat-draw-show", hidden: true});
    document.body.append(this.box);
    this.step = 0; // cards turned over
    this.timer = null;
    this.open = false;
    this.done = localStorage.getItem(this.key) === "1";
  }

  /** Show the draw with a new state when it was never shown here; redraw it while open. */
  render(message, nameOf, me) {
    const draw = message.table.seat_draw;
    const view = message.view;
    if (!this.open) {
      if (this.done || !draw || view.deal_number !== 1 || view.finished_deals.length) return;
      this.open = true;
      this.timer = setInterval(() => this.advance(), STEP_MS);
    }
    this.draw = draw;
    this.view = view;
    this.nameOf = nameOf;
    this.positions = seatPositions(view.players, me ?? 0, message.table.client.clockwise);
    this.me = me;
    this.paint();
  }

  /** Every card drawn as [seat, index], in the order turned over: round by round, each
   * round in the order the players drew. */
  get sequence() {
    const byTurn = [...this.draw].sort((a, b) => a.joined - b.joined);
    const rounds = Math.max(...this.draw.map((d) => d.cards.length));
    const out = [];
    for (let i = 0; i < rounds; i++) for (const d of byTurn) if (i < d.cards.length) out.push([d.seat, i]);
    return out;
  }

  advance() {
    this.step = Math.min(this.sequence.length, this.step + 1);
    if (this.step >= this.sequence.length) clearInterval(this.timer);
    this.paint();
  }

  skip() {
    clearInterval(this.timer);
    this.step = this.sequence.length;
    this.paint();
    this.box.querySelector("#seat-draw-done")?.focus();
  }

  close() {
    clearInterval(this.timer);
    this.open = false;
    this.done = true;
    localStorage.setItem(this.key, "1");
    this.box.hidden = true;
    this.box.replaceChildren();
    this.closed();
    /** @type {HTMLElement | null} */ (document.querySelector("#hand .card[tabindex='0']"))?.focus({preventScroll: true});
  }

  /** The dialog, made once: its rows and seating are painted again at each step, its
   * buttons stay (a button made anew under the pointer would lose the click). */
  frame() {
    if (this.box.firstChild) return;
    this.rows = h("ol", {class: "draw-rows", id: "draw-rows", "aria-live": "polite"});
    this.seatingBox = h("div", {});
    this.skipButton = h("button", {type: "button", class: "btn", id: "seat-draw-skip", onclick: () => this.skip()}, t("seatdraw.skip"));
    this.doneButton = h("button", {type: "button", class: "btn primary", id: "seat-draw-done", onclick: () => this.close()}, t("seatdraw.start"));
    this.box.append(h("div", {class: "results-box", role: "dialog", "aria-modal": "true", "aria-labelledby": "seat-draw-title"},
      h("h2", {id: "seat-draw-title"}, t("seatdraw.title")),
      h("p", {class: "muted"}, t("seatdraw.rule")),
      this.rows,
      this.seatingBox,
      h("div", {class: "row end-links"}, this.skipButton, this.doneButton)));
  }

  paint() {
    const {draw, step, nameOf} = this;
    const sequence = this.sequence;
    const finished = step >= sequence.length;
    const shown = (seat) => sequence.slice(0, step).filter(([s]) => s === seat).length;
    const [lastSeat, lastIndex] = step ? sequence[step - 1] : [null, null];
    const inOrder = [...draw].sort((a, b) => a.joined - b.joined); // the order they drew in
    const rows = inOrder.map((d) => h("li", {class: "draw-row", dataset: {seat: String(d.seat)}},
      h("b", {class: "name"}, nameOf(d.seat)),
      h("div", {class: "cards draw-cards"}, d.cards.map((card, i) => {
        if (i >= shown(d.seat)) return i === shown(d.seat) ? backElement() : null;
        const element = cardElement(card);
        if (d.seat === lastSeat && i === lastIndex && !finished) element.classList.add("flip");
        if (i < d.cards.length - 1) element.classList.add("redrawn");
        return element;
      })),
      drawNote(d, shown(d.seat))));
    const opening = !this.box.firstChild;
    this.frame();
    this.rows.replaceChildren(...rows);
    this.seatingBox.replaceChildren(finished ? this.seating() : "");
    const switched = finished !== this.skipButton.hidden;
    this.skipButton.hidden = finished;
    this.doneButton.hidden = !finished;
    this.box.hidden = false;
    if (opening || switched) (finished ? this.doneButton : this.skipButton).focus({preventScroll: true});
    this.box.onkeydown = (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        if (finished) this.close();
        else this.skip();
      }
    };
  }

  /** Who sits where (seat order: the play goes seat 0, 1, …), who deals, who plays first. */
  seating() {
    const {draw, view, nameOf} = this;
    const dealer = view.dealer; // R13-2: the lowest card deals the first game
    const first = (dealer + 1) % view.players; // and the player after the dealer plays first
    return h("section", {class: "seating", id: "seating"},
      h("h3", {}, t("seatdraw.seating")),
      h("ol", {}, draw.map((d) => h("li", {dataset: {seat: String(d.seat)}},
        h("span", {class: "seat-no"}, t("common.seat", {n: d.seat + 1})), " ",
        h("b", {}, nameOf(d.seat)), " · ",
        cardName(d.cards[d.cards.length - 1]),
        this.me !== null && d.seat !== this.me ? ` · ${positionName(this.positions[d.seat].zone)}` : null,
        d.seat === first ? h("span", {class: "tag first", id: "seat-first"}, t("seatdraw.plays_first")) : null,
        d.seat === dealer ? h("span", {class: "tag dealer", id: "seat-dealer"}, t("seatdraw.deals")) : null))));
  }
}

/** What a row says once `shown` of its cards are turned: the card that counts, or that it
 * draws again. */
function drawNote(d, shown) {
  if (shown < d.cards.length) return h("span", {class: "muted draw-note"}, shown ? t("seatdraw.again") : "");
  return h("span", {class: "draw-note"}, t("seatdraw.drew", {card: cardName(d.cards[d.cards.length - 1])}));
}
