// What the table's buttons do (the board's `on`, board.js): each click or key made into the
// action the server takes, the choice of a joker's identity where several actions fit the
// cards chosen, "Lay down best" step by step, and why a click did nothing.

import {guardDiscard} from "./advice.js";
import {wildRankLetter} from "./cards.js";
import {t} from "./i18n.js";
import {nameOf, page, showError} from "./table_page.js";
import {send} from "./table_socket.js";
import {h, showCard} from "./util.js";

/** @type {() => void} */
let render;

/** `render()` draws the page again (table.js). */
export function initActions(shown) {
  ({render} = shown);
}

export function selectedCards() {
  return page.order.entries.filter((e) => page.selected.has(e.id)).map((e) => e.card);
}

const legal = () => page.message?.view.legal || [];

const multisetKey = (cards) => [...cards].sort().join(" ");

/** A meld's or lay-off's cards as the player sees them, each joker with the card it stands for. */
function actionCards(action) {
  const cards = action.type === "meld" ? action.cards : [action.card];
  const stands = action.type === "meld" ? action.stands_for : [action.stands_for];
  return cards.map((c, i) => showCard(stands[i] ? `${c}=${stands[i]}` : c)).join(" ");
}

/** Send `action`, or, when several legal actions fit (a joker's identity), let the player choose. */
function sendOrChoose(candidates, fallback) {
  if (candidates.length === 1) send(candidates[0].text);
  else if (candidates.length > 1) {
    page.choice = {title: t("table.choose_joker"), options: candidates};
    render();
  } else {
    send(fallback); // not a legal action: the server says why, in the player's language
  }
}

/** The choice sendOrChoose left open: a button for each action, and Cancel. */
export function choiceBox() {
  return h("div", {class: "choice card-box", id: "choice"},
    h("b", {}, page.choice.title),
    page.choice.options.map((action) => h("button", {type: "button", class: "btn",
      dataset: {action: action.text}, onclick: () => { page.choice = null; send(action.text); }},
      actionCards(action))),
    h("button", {type: "button", class: "btn ghost", onclick: () => { page.choice = null; render(); }}, t("table.cancel")));
}

/** Why a click or a key did nothing: another seat's turn, or no card chosen for it. */
export function blocked(selector = null) {
  const view = page.message?.view;
  if (!view || page.me === null || view.game_over || page.message.call_window) return;
  if (view.to_play !== null && view.to_play !== page.me) showError(t("table.not_your_turn", {name: nameOf(view.to_play)}));
  else if (["#btn-discard", "#btn-close", "#btn-meld"].includes(selector) && view.phase === "discard") {
    showError(selector === "#btn-meld" ? t("table.select_meld") : t("table.select_one"));
  }
}

/** The next step of "Lay down best": the server's best step for this seat, but not the pass
 * that ends the laying down (the player says Done). */
export function layNext() {
  const message = page.message;
  const step = message?.lay_down;
  const phase = message?.view.phase;
  if (!step || message.view.to_play !== page.me || (step.type === "pass" && phase !== "lay_off")) {
    page.autoLay = false;
    render();
    return;
  }
  send(step.text);
}

export const on = {
  blocked,
  draw: (action) => send(action),
  pile: (depth) => {
    const view = page.message.view;
    if (page.message.call_window) {
      page.callDepth = depth;
      render();
      return;
    }
    const drawn = depth === 1 ? "draw discard" : `draw discard ${depth}`;
    if (view.to_play === page.me && legal().some((a) => a.text === drawn)) send(drawn);
  },
  discard: () => {
    const [card] = selectedCards();
    if (card) guardDiscard(page.message, card, () => send(`discard ${card}`));
  },
  close: () => {
    const [card] = selectedCards();
    if (card) send(`close ${card}`);
  },
  knock: () => {
    const [card] = selectedCards();
    if (card) send(`knock ${card}`);
  },
  layBest: () => { // the best lay-down, one step a state, until only "Done" is left (G-6)
    page.autoLay = true;
    layNext();
  },
  meld: () => {
    const cards = selectedCards();
    const key = multisetKey(cards);
    const candidates = legal().filter((a) => a.type === "meld" && multisetKey(a.cards) === key);
    sendOrChoose(candidates, `meld ${cards.join(" ")}`);
  },
  layoff: (number) => {
    const cards = selectedCards();
    if (cards.length !== 1) {
      showError(t("table.layoff_here", {n: number}));
      return;
    }
    const card = cards[0];
    const candidates = legal().filter((a) => a.type === "layoff" && a.card === card && a.meld === number);
    sendOrChoose(candidates, `layoff ${card} to ${number}`);
  },
  rummy: () => send(`rummy ${page.callDepth}`),
  pass: () => send("pass"),
  decline: () => send("decline"),
  sort: (mode) => {
    page.order.sort(mode, wildRankLetter(page.message?.view.wild_rank));
    render();
  },
  clear: () => {
    page.selected.clear();
    render();
  },
};
