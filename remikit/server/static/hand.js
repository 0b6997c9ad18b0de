// The player's hand: the cards in the order the player keeps them, selection by click,
// and drag-to-reorder with pointer events (mouse, pen and touch alike).

import {cardElement, isWild, parseCard, sortKey} from "./cards.js";

let nextId = 1;

/**
 * The order of the cards in hand, kept across states: cards still held keep their place,
 * new cards go to the right end (or into place while a sort mode is on).
 */
export class HandOrder {
  constructor(storageKey) {
    this.storageKey = storageKey;
    this.entries = []; // [{id, card}]
    this.mode = "suit"; // "suit" | "rank" | "own" (the player moved a card)
    this.base = "suit"; // the last sort asked for: a new deal starts sorted so
    this.deal = null; // which deal the order belongs to
    this.fresh = new Set();
    const saved = storageKey ? sessionStorage.getItem(storageKey) : null;
    if (saved) {
      try {
        const data = JSON.parse(saved);
        this.mode = data.mode || "suit";
        this.base = data.base || "suit";
        this.deal = data.deal ?? null;
        this.entries = (data.cards || []).map((card) => ({id: nextId++, card}));
      } catch { /* a broken entry: start afresh */ }
    }
  }

  save() {
    if (!this.storageKey) return;
    sessionStorage.setItem(this.storageKey,
      JSON.stringify({mode: this.mode, base: this.base, deal: this.deal, cards: this.entries.map((e) => e.card)}));
  }

  /** Bring the order up to date with `hand` (a list of card texts, a multiset) of deal `deal`. */
  update(hand, wildRank = null, deal = null) {
    if (deal !== this.deal) { // a new deal: new cards, sorted the way last asked
      if (this.deal !== null) this.entries = [];
      this.deal = deal;
      if (this.mode === "own" && !this.entries.length) this.mode = this.base;
    }
    const left = new Map();
    for (const card of hand) left.set(card, (left.get(card) || 0) + 1);
    const kept = [];
    for (const entry of this.entries) {
      const count = left.get(entry.card) || 0;
      if (count > 0) {
        kept.push(entry);
        left.set(entry.card, count - 1);
      }
    }
    const known = this.entries.length > 0;
    this.fresh = new Set();
    for (const card of hand) {
      const count = left.get(card) || 0;
      if (count > 0) {
        const entry = {id: nextId++, card};
        kept.push(entry);
        if (known) this.fresh.add(entry.id);
        left.set(card, count - 1);
      }
    }
    this.entries = kept;
    if (this.mode !== "own") this.sort(this.mode, wildRank, false);
    this.save();
  }

  sort(mode, wildRank = null, save = true) {
    this.mode = mode;
    this.base = mode;
    const keyed = this.entries.map((entry, index) => ({entry, index, key: sortKey(entry.card, mode, wildRank)}));
    keyed.sort((a, b) => a.key - b.key || a.index - b.index);
    this.entries = keyed.map((k) => k.entry);
    if (save) this.save();
  }

  move(from, to) {
    if (from === to || from < 0 || from >= this.entries.length) return;
    const [entry] = this.entries.splice(from, 1);
    this.entries.splice(Math.max(0, Math.min(to, this.entries.length)), 0, entry);
    this.mode = "own";
    this.save();
  }

  ids() { return new Set(this.entries.map((e) => e.id)); }
  card(id) { return this.entries.find((e) => e.id === id)?.card; }
}

const DRAG_START = 6; // pixels of movement before a press becomes a drag

/** The hand's element: renders the order, reports clicks and drags. */
export class HandView {
  constructor({onSelect, onReorder}) {
    this.onSelect = onSelect;
    this.onReorder = onReorder;
    this.element = document.createElement("div");
    this.element.className = "hand";
    this.element.id = "hand";
    this.drag = null;
    this.element.addEventListener("pointerdown", (event) => this.down(event));
    this.element.addEventListener("pointermove", (event) => this.moveTo(event));
    this.element.addEventListener("pointerup", (event) => this.up(event));
    this.element.addEventListener("pointercancel", () => this.cancel());
    this.element.addEventListener("lostpointercapture", () => { if (this.drag?.active) this.cancel(); });
    // a press released outside the hand is no click
    window.addEventListener("pointerup", () => { if (this.drag && !this.drag.active) this.drag = null; });
    window.addEventListener("pointercancel", () => { if (this.drag) this.cancel(); });
  }

  /** A card is held down (a click or a drag in progress): the hand must not be redrawn. */
  get busy() { return this.drag !== null; }

  render(order, {selected = new Set(), wildRank = null, interactive = true} = {}) {
    if (this.busy) return;
    // redraw only when something in the hand changed: other seats' moves leave it alone
    const signature = JSON.stringify([order.entries, [...selected], [...order.fresh], wildRank, interactive]);
    if (signature === this.signature && this.element.childElementCount === order.entries.length) return;
    this.signature = signature;
    this.element.replaceChildren();
    this.element.classList.toggle("interactive", interactive);
    const current = order.entries.some((e) => e.id === this.current) ? this.current : order.entries[0]?.id;
    this.current = current;
    this.element.dataset.count = String(order.entries.length);
    order.entries.forEach((entry, index) => {
      const wild = wildRank !== null && isWild(entry.card, wildRank);
      const element = cardElement(entry.card, {wild});
      element.dataset.id = String(entry.id);
      element.dataset.index = String(index);
      if (parseCard(entry.card).joker) element.classList.add("joker");
      if (selected.has(entry.id)) element.classList.add("selected");
      if (order.fresh.has(entry.id)) element.classList.add("fresh");
      element.setAttribute("role", "button");
      element.setAttribute("aria-pressed", selected.has(entry.id) ? "true" : "false");
      element.tabIndex = entry.id === current ? 0 : -1; // one tab stop: arrows move within
      element.addEventListener("focus", () => this.roveTo(entry.id));
      element.addEventListener("keydown", (event) => this.key(event, entry.id, index));
      this.element.append(element);
    });
  }

  /** The card that takes the hand's one tab stop. */
  roveTo(id) {
    this.current = id;
    for (const card of /** @type {HTMLCollectionOf<HTMLElement>} */ (this.element.children)) card.tabIndex = Number(card.dataset.id) === id ? 0 : -1;
  }

  /** Enter or Space selects; arrows move the focus; Shift + arrows move the card. */
  key(event, id, index) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.onSelect(id);
      return;
    }
    const step = {ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity}[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const count = this.element.childElementCount;
    const to = Math.max(0, Math.min(count - 1, index + step));
    if (event.shiftKey) {
      if (to !== index) this.onReorder(index, to);
      return;
    }
    /** @type {HTMLElement | undefined} */ (this.element.children[to])?.focus();
  }

  down(event) {
    if (event.button !== undefined && event.button > 0) return;
    const card = event.target.closest(".card");
    if (!card || !this.element.contains(card)) return;
    this.drag = {pointer: event.pointerId, card, id: Number(card.dataset.id),
      from: Number(card.dataset.index), x: event.clientX, y: event.clientY, active: false, target: null};
  }

  moveTo(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.active) {
      if (Math.hypot(dx, dy) < DRAG_START) return;
      drag.active = true;
      drag.rects = [...this.element.children].map((child) => child.getBoundingClientRect());
      drag.card.classList.add("dragging");
      try { this.element.setPointerCapture(event.pointerId); } catch { /* already released */ }
    }
    event.preventDefault();
    drag.card.style.transform = `translate(${dx}px, ${dy}px)`;
    this.mark(this.dropIndex(event.clientX, event.clientY));
  }

  /** Where a card dropped at (x, y) goes: an index into the hand without the dragged card. */
  dropIndex(x, y) {
    const drag = this.drag;
    const rects = drag.rects;
    // the row under the pointer (hands wrap on small screens), else the nearest one
    let row = rects.filter((r) => y >= r.top && y <= r.bottom);
    if (!row.length) {
      const nearest = rects.reduce((best, r) => {
        const d = Math.abs((r.top + r.bottom) / 2 - y);
        return d < best.d ? {d, top: r.top} : best;
      }, {d: Infinity, top: 0});
      row = rects.filter((r) => Math.abs(r.top - nearest.top) < 2);
    }
    const indices = row.map((r) => rects.indexOf(r));
    let slot = indices[indices.length - 1] + 1;
    for (const index of indices) {
      const r = rects[index];
      if (x < r.left + r.width / 2) { slot = index; break; }
    }
    return slot > drag.from ? slot - 1 : slot;
  }

  mark(to) {
    this.drag.target = to;
    const children = [...this.element.children];
    children.forEach((child) => child.classList.remove("drop-before", "drop-after"));
    const others = children.filter((child) => child !== this.drag.card);
    if (to < others.length) others[to].classList.add("drop-before");
    else if (others.length) others[others.length - 1].classList.add("drop-after");
  }

  up(event) {
    const drag = this.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    this.drag = null;
    if (!drag.active) {
      this.onSelect(drag.id);
      return;
    }
    const to = drag.target === null ? drag.from : drag.target;
    this.signature = null; // the dragged card is still displaced: draw the hand afresh
    this.onReorder(drag.from, to);
  }

  cancel() {
    const drag = this.drag;
    this.drag = null;
    if (drag?.active) {
      this.signature = null;
      this.onReorder(drag.from, drag.from);
    }
  }
}
