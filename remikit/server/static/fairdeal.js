// Fair deals at the table (docs/protocol.md, the state's `fairness`): the commitment of the
// deal in play on a line of its own; this seat's random contribution to the next deal,
// sent once; what this browser saw of each deal (the commitment and the unshuffled deck
// before it started, the contribution sent, the hand dealt and the card turned up), kept in
// sessionStorage so a reload keeps it; and, once a deal has ended and its secret is out, a
// view that checks it all in this browser (fairness.js).

import {cardElement} from "./cards.js";
import {fairDeck, newContribution, verifyDeal} from "./fairness.js";
import {N_, onLangChange, t} from "./i18n.js";
import {fairSeenKey, h, joinEntropyKey} from "./util.js";

const SHORT = 12; // hex digits of a commitment shown on the line
const REF = "contribute-"; // the ref of a contribution sent here, then its deal

/** Whether an answer is to a contribution sent here: a refusal (the deal moved on
 * meanwhile) is nothing the player can act on, and the next state says what is in. */
export const answersContribution = (message) => String(message.ref ?? "").startsWith(REF);

const CHECKS = {
  malformed: N_("fair.check.malformed"),
  secret: N_("fair.check.secret"),
  commitment_seen: N_("fair.check.commitment_seen"),
  contribution: N_("fair.check.contribution"),
  hand: N_("fair.check.hand"),
  upcard: N_("fair.check.upcard"),
};

/** A hex string shown short, the whole of it on hover and on a click. */
function hexCode(hex, id = null) {
  const code = h("code", {class: "fair-hex", id, title: hex, tabindex: "0", role: "button",
    "aria-label": hex, dataset: {full: hex}}, `${hex.slice(0, SHORT)}…`);
  const toggle = () => {
    const open = code.classList.toggle("open");
    code.textContent = open ? hex : `${hex.slice(0, SHORT)}…`;
  };
  code.addEventListener("click", toggle);
  code.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle();
    }
  });
  return code;
}

const cardRow = (cards) => h("div", {class: "cards small"}, cards.map((card) => cardElement(card)));

/** What a failed check found against what it expected: cards as cards, bytes in hex. */
function difference(check) {
  const f = check.fields;
  const pairs = {
    hand: [f.expected, f.dealt],
    upcard: [[f.expected], [f.seen]],
    secret: [f.published, f.computed],
    commitment_seen: [f.seen, f.published],
    contribution: [f.sent, f.used],
  }[check.key];
  if (!pairs) return null;
  const show = (value) => (Array.isArray(value) ? cardRow(value) : h("code", {class: "fair-full"}, value ?? t("fair.none")));
  return h("dl", {class: "fair-data fair-diff"},
    h("dt", {}, t("fair.expected")), h("dd", {}, show(pairs[0])),
    h("dt", {}, t("fair.found")), h("dd", {}, show(pairs[1])));
}

export class FairDeals {
  /** `code`: the table; `nameOf(seat)`: a seat's name. */
  constructor(code, nameOf) {
    this.code = code;
    this.nameOf = nameOf;
    this.sentOn = new Map(); // deal → the socket its contribution went out on
    this.dialog = null; // {deal, checks, deck, entry, seen} of the verify view, or {deal} while checking
    this.helpOpen = false; // the line's explanation shown
    this.box = h("div", {class: "results fair-verify", id: "fair-verify", hidden: true});
    window.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !this.isOpen) return;
      event.preventDefault();
      event.stopPropagation(); // not the table's Escape, which would close the results below
      this.close();
    }, true);
    document.body.append(this.box);
    onLangChange(() => this.render());
  }

  key(deal) {
    return fairSeenKey(this.code, deal);
  }

  /** What this browser saw of deal `deal`: {commitment, deck, contribution, seat, dealer, hand, upcard}. */
  seen(deal) {
    try {
      return JSON.parse(sessionStorage.getItem(this.key(deal))) || {};
    } catch {
      return {};
    }
  }

  remember(deal, facts) {
    sessionStorage.setItem(this.key(deal), JSON.stringify({...this.seen(deal), ...facts}));
  }

  /** Take in a state: the next deal's commitment and the unshuffled deck it will shuffle;
   * this seat's contribution to the next deal, sent on `socket` when it takes one; a
   * contribution sent (over the socket, or with the join) once a state shows the server
   * took it; the hand dealt at a deal's first state. */
  observe(message, me, socket) {
    const fair = message.fairness;
    if (!fair) return;
    const next = fair.next;
    if (next) {
      if (!this.seen(next.deal).commitment) this.remember(next.deal, {commitment: next.commitment, deck: fair.deck});
      if (next.open && me !== null && !next.mine && this.sentOn.get(next.deal) !== socket
          && socket?.readyState === WebSocket.OPEN) {
        const entropy = this.seen(next.deal).offered || newContribution();
        this.remember(next.deal, {offered: entropy, seat: me});
        socket.send(JSON.stringify({type: "contribute", deal: next.deal, entropy, ref: `${REF}${next.deal}`}));
        this.sentOn.set(next.deal, socket);
      }
    }
    const joined = sessionStorage.getItem(joinEntropyKey(this.code));
    if (me !== null) {
      for (const [deal, taken] of [[fair.deal?.deal, fair.deal?.contributions[me]], [next?.deal, next?.mine]]) {
        if (!deal || !taken || this.seen(deal).contribution) continue;
        if (taken === joined) sessionStorage.removeItem(joinEntropyKey(this.code));
        if (taken === joined || taken === this.seen(deal).offered) this.remember(deal, {contribution: taken, seat: me});
      }
    }
    const view = message.view;
    if (fair.deal && me !== null && view.plays.length === 0 && !this.seen(fair.deal.deal).hand) {
      this.remember(fair.deal.deal, {seat: me, dealer: view.dealer, hand: [...view.hand],
        upcard: view.discard_pile.length ? view.discard_pile[0] : null});
    }
  }

  /** The side panel's line: the commitment of the deal in play (or of the first, before it),
   * and a button to verify the deal that ended last. */
  line(message, me) {
    const fair = message.fairness;
    if (!fair) return null;
    const shown = fair.deal || (fair.next ? {deal: fair.next.deal, commitment: fair.next.commitment} : null);
    const help = () => {
      this.helpOpen = !this.helpOpen;
      const text = document.getElementById("fair-help-text");
      if (text) text.hidden = !this.helpOpen;
      document.getElementById("fair-help")?.setAttribute("aria-expanded", String(this.helpOpen));
    };
    const mine = me !== null && fair.deal && fair.deal.contributions[me];
    return h("section", {class: "fair-line", id: "fair-line"},
      shown ? h("div", {dataset: {deal: String(shown.deal)}},
        h("span", {class: "fair-label", title: t("fair.help")}, t("fair.commitment", {n: shown.deal}), " "),
        hexCode(shown.commitment, "fair-commitment"),
        " ",
        h("button", {type: "button", class: "fair-help", id: "fair-help", title: t("fair.help"),
          "aria-expanded": String(this.helpOpen), "aria-controls": "fair-help-text", onclick: help}, "?"),
        h("p", {class: "muted fair-note", id: "fair-help-text", hidden: !this.helpOpen}, t("fair.help")),
        mine ? h("div", {class: "muted fair-note", id: "fair-mine"}, t("fair.mine_in")) : null) : null,
      fair.ended ? this.button(message, fair.ended.deal, "fair-verify-last") : null);
  }

  /** A button opening the verify view of deal `deal` once it has ended; null before. */
  button(message, deal, id = "fair-verify-button") {
    const ended = message.fairness?.ended;
    if (!ended || ended.deal !== deal) return null;
    return h("button", {type: "button", class: "btn small", id, onclick: () => this.open(message)},
      t("fair.verify_deal", {n: deal}));
  }

  /** Run the checks of the deal that ended last and show them. */
  async open(message) {
    const entry = message.fairness.ended;
    const view = message.view;
    const seen = this.seen(entry.deal);
    this.opener = /** @type {HTMLElement | null} */ (document.activeElement); // the focus goes back there when the view closes
    this.dialog = {deal: entry.deal};
    this.render();
    const full = seen.deck || message.fairness.deck; // as shown before the deal, where it was
    const checks = await verifyDeal(entry, {deck: full, players: view.players, seen});
    const deck = checks[0].key === "malformed" ? null : await fairDeck(full, entry.secret, entry.contributions);
    if (this.dialog?.deal !== entry.deal) return; // closed meanwhile
    this.dialog = {deal: entry.deal, checks, deck, entry, seen, players: view.players,
      size: seen.hand ? seen.hand.length : 0};
    this.render();
  }

  /** Whether the verify view is open (the table then leaves the focus alone). */
  get isOpen() {
    return this.dialog !== null;
  }

  close() {
    this.dialog = null;
    this.render();
    if (this.opener?.isConnected) this.opener.focus({preventScroll: true});
  }

  /** Draw the verify view (or hide it). */
  render() {
    const box = this.box;
    const d = this.dialog;
    if (!d) {
      box.hidden = true;
      box.replaceChildren();
      return;
    }
    const focus = box.hidden || box.contains(document.activeElement);
    box.hidden = false;
    const close = h("button", {type: "button", class: "btn primary", id: "fair-close", onclick: () => this.close()}, t("common.close"));
    const body = d.checks ? this.report(d) : [h("p", {class: "muted"}, t("fair.checking"))];
    box.replaceChildren(h("div", {class: "results-box", role: "dialog", "aria-modal": "true",
      "aria-label": t("fair.verify_title_deal", {n: d.deal}), dataset: {deal: String(d.deal)}},
    h("h2", {}, t("fair.verify_title_deal", {n: d.deal})), ...body, h("div", {class: "row end-links"}, close)));
    if (focus) close.focus({preventScroll: true});
  }

  report(d) {
    const ok = d.checks.every((c) => c.ok);
    const seat = d.seen.seat ?? null;
    const dealt = new Set(); // deck places dealt to this seat
    if (seat !== null && d.seen.dealer !== undefined) {
      const first = (((seat - d.seen.dealer - 1) % d.players) + d.players) % d.players;
      for (let j = 0; j < d.size; j++) dealt.add(first + j * d.players);
    }
    return [
      h("p", {class: `verdict ${ok ? "ok" : "bad"}`, id: "fair-verdict", dataset: {ok: String(ok)}},
        ok ? t("fair.all_passed") : t("fair.some_failed_deal")),
      d.seen.hand ? null : h("p", {class: "muted"}, t("fair.not_seen")),
      d.seen.offered && !d.seen.contribution ? h("p", {class: "muted", id: "fair-not-taken"}, t("fair.not_taken")) : null,
      h("ul", {class: "fair-checks", id: "fair-checks"}, d.checks.map((c) =>
        h("li", {class: c.ok ? "ok" : "bad", dataset: {check: c.key, ok: String(c.ok)}},
          `${c.ok ? "✔" : "✘"} ${t(CHECKS[c.key], c.fields)} `,
          h("b", {}, c.ok ? t("fair.passed") : t("fair.failed")),
          c.ok ? null : difference(c)))),
      d.entry ? h("dl", {class: "fair-data"},
        h("dt", {}, t("fair.commitment_word")), h("dd", {}, h("code", {class: "fair-full"}, d.entry.commitment)),
        h("dt", {}, t("fair.secret")), h("dd", {}, h("code", {class: "fair-full", id: "fair-secret"}, d.entry.secret)),
        h("dt", {}, t("fair.contributions")), h("dd", {}, h("ol", {class: "fair-contributions", id: "fair-contributions", start: "0"},
          d.entry.contributions.map((c, i) => h("li", {class: i === seat ? "mine" : null, dataset: {seat: String(i)}},
            `${this.nameOf(i)}: `, c ? h("code", {class: "fair-full"}, c) : h("span", {class: "muted"}, t("fair.none")),
            i === seat ? ` ${t("fair.yours")}` : null))))) : null,
      d.deck ? h("section", {class: "fair-deck"}, h("h3", {}, t("fair.deck")),
        h("p", {class: "muted fair-note"}, t("fair.deck_help")),
        h("div", {class: "cards small", id: "fair-deck"}, d.deck.map((card, i) => {
          const element = cardElement(card);
          if (dealt.has(i)) element.classList.add("owned");
          element.dataset.place = String(i + 1);
          return element;
        }))) : null,
    ];
  }
}
