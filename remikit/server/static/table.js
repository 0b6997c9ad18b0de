// The table page (/table/CODE): take a seat or watch, then play over the WebSocket
// (docs/protocol.md §4). The seat token lives in localStorage, so a reload or a new tab
// comes back to the same seat and hand. When the network drops, the page shows the last state
// (kept for a reload without network too), reconnects by itself and resends nothing: an action
// carries the state id it was made against, and on reconnect the server's state decides (§4.4).
// Here: the frame, joining, a new state and drawing it; the socket is table_socket.js, what
// the buttons do table_actions.js, the results table_results.js, what they share table_page.js.

import {absencePanel, claimMove} from "./absence.js";
import {advicePanel, announce, announcement, discardWarning, initAdvice} from "./advice.js";
import {Announcer} from "./announce.js";
import {logPanel, renderBoard} from "./board.js";
import {wildRankLetter} from "./cards.js";
import {FairDeals} from "./fairdeal.js";
import {HandView} from "./hand.js";
import {lang, langButton, onLangChange, t, tn} from "./i18n.js";
import {focusKey, keysHelp, listenForKeys, restoreFocus} from "./keys.js";
import {onPrefChange, prefsControl, togglePanel} from "./prefs.js";
import {keepState, keptState, watchNetwork} from "./reconnect.js";
import {scoreSection} from "./scores.js";
import {SeatDrawShow} from "./seatdraw.js";
import {shareControls} from "./share.js";
import {blocked, choiceBox, initActions, layNext, on, selectedCards} from "./table_actions.js";
import {code, errorBox, nameOf, notice, page, showError} from "./table_page.js";
import {renderResults} from "./table_results.js";
import {settingsLine} from "./table_settings.js";
import {back, connect, dropped, initSocket, reconnect, sendMessage} from "./table_socket.js";
import {url} from "./urls.js";
import {$, api, h, joinTable, NAME_KEY, showCard} from "./util.js";

const announcer = new Announcer();
const seatDrawShow = new SeatDrawShow(code, () => render());
const fair = new FairDeals(code, nameOf);

const hand = new HandView({
  onSelect: (id) => {
    if (page.selected.has(id)) page.selected.delete(id);
    else page.selected.add(id);
    render();
  },
  onReorder: (from, to) => {
    page.order.move(from, to);
    render();
  },
});

// -- page frame -------------------------------------------------------------------------

function frame() {
  document.title = t("table.title", {code});
  hand.element.setAttribute("role", "group");
  hand.element.setAttribute("aria-label", t("table.hand_label"));
  const header = $("#topbar");
  header.replaceChildren(
    h("a", {href: url("/"), class: "home", id: "to-lobby"}, t("common.lobby")),
    h("span", {class: "brand"}, "remikit"),
    h("span", {class: "table-title", id: "table-title"}, page.message ? page.message.table.title : ""),
    h("span", {class: "code"}, t("table.code"), " ", h("b", {id: "table-code"}, code)),
    ...shareControls(code, notice),
    ...keysHelp(),
    ...prefsControl({withSound: true}),
    langButton());
}

// -- joining ---------------------------------------------------------------------------

async function start() {
  frame();
  if (!navigator.onLine) { // opened without network: the last state this tab saw, until it is back
    const kept = keptState(code);
    if (kept && !page.message) {
      page.me = kept.me;
      page.myName = kept.myName;
      onState(kept.message);
    }
    window.addEventListener("online", start, {once: true});
    return;
  }
  try {
    page.token = (await claimMove(code)) || page.token;
  } catch (error) {
    notice(error.message, "error");
  }
  if (page.token) {
    connect();
    return;
  }
  let info;
  try {
    info = await api(`/api/tables/${encodeURIComponent(code)}`);
  } catch (error) {
    notice(error.code === "unknown_table" ? t("table.no_table", {code}) : error.message, "error");
    return;
  }
  const table = info.table;
  if (table.status === "waiting" && table.free_seats.length) showJoin(table);
  connect();
}

function showJoin(table) {
  const box = $("#join");
  const name = h("input", {id: "join-name", name: "name", required: true, maxlength: "24", autocomplete: "nickname",
    placeholder: t("lobby.name_placeholder"), value: localStorage.getItem(NAME_KEY) || ""});
  const seat = h("select", {id: "join-seat", name: "seat"},
    table.free_seats.map((s) => h("option", {value: String(s)}, t("common.seat", {n: s + 1}))));
  const form = h("form", {class: "join-form card-box", id: "join-form", onsubmit: async (event) => {
    event.preventDefault();
    const value = name.value.trim();
    if (!value) {
      showError(t("lobby.need_name"));
      return;
    }
    try {
      const joined = await joinTable(code, {name: value, seat: Number(seat.value), lang: lang()});
      localStorage.setItem(NAME_KEY, value);
      page.token = joined.token;
      box.hidden = true;
      reconnect();
    } catch (error) {
      showError(error.message);
    }
  }},
  h("h2", {}, t("table.join_title", {code})),
  h("label", {}, t("lobby.your_name"), name),
  h("label", {}, t("table.choose_seat"), seat),
  h("div", {class: "row"},
    h("button", {type: "submit", class: "btn primary", id: "join-submit"}, t("table.sit")),
    h("button", {type: "button", class: "btn ghost", onclick: () => { box.hidden = true; }}, t("table.just_watch"))));
  box.replaceChildren(form);
  box.hidden = false;
  name.focus();
}

// -- a new state ---------------------------------------------------------------------------

function onState(message) {
  const previous = page.message;
  page.message = message;
  keepState(code, {me: page.me, myName: page.myName, message});
  fair.observe(message, page.me, page.socket);
  announce(announcement(previous, message, nameOf));
  const view = message.view;
  if (!previous || previous.state_id !== message.state_id) {
    if (page.busy) { page.busy = false; clearTimeout(page.busyTimer); }
    page.choice = null;
  }
  announcer.update(message, page.me, nameOf, t("table.title", {code}));
  if (message.call_window && !previous?.call_window && page.me !== null) {
    requestAnimationFrame(() => $("#board .me")?.scrollIntoView({block: "nearest"})); // the hand and the call buttons in sight
  }
  if (!message.call_window) page.callDepth = 1;
  else if (page.callDepth > view.discard_pile.length) page.callDepth = 1;
  // the hand: keep the player's order; drop the selection of cards no longer held
  const before = page.order.entries.map((e) => e.card).sort().join(" ");
  page.order.update(view.hand, wildRankLetter(view.wild_rank), view.deal_number);
  if (before !== [...view.hand].sort().join(" ")) page.selected.clear();
  // the end of a deal: everyone's arrangement (R13-14)
  const deals = view.finished_deals.length;
  const seenKey = `remikit.seen.${code}`;
  if (page.dealsSeen === null) {
    const stored = Number(sessionStorage.getItem(seenKey) ?? -1);
    page.dealsSeen = stored >= 0 ? Math.min(stored, deals) : deals;
    if (view.game_over) page.dealsSeen = Math.min(page.dealsSeen, deals - 1);
  }
  if (deals > page.dealsSeen) {
    page.resultsOpen = true;
    page.resultsDeal = deals - 1;
    page.dealsSeen = deals;
    sessionStorage.setItem(seenKey, String(deals));
  }
  const table = message.table;
  if (table.status === "waiting") {
    notice(tn("table.waiting", table.free_seats.length, {code}), "info");
    page.noticeKey = "waiting";
    if (page.me === null && table.free_seats.length && $("#join").hidden && !$("#join").dataset.shown) {
      $("#join").dataset.shown = "1";
      showJoin(table);
    }
  } else if (page.noticeKey === "waiting") {
    notice("");
    page.noticeKey = null;
  }
  if (page.me === null && table.status !== "waiting" && page.noticeKey !== "spectating") {
    notice(t("table.spectating"), "info");
    page.noticeKey = "spectating";
  }
  render();
  if (page.autoLay && previous?.state_id !== message.state_id) layNext();
}

// -- drawing it ---------------------------------------------------------------------------

function render() {
  const message = page.message;
  if (!message) return;
  if (hand.busy) { // a card is being dragged: draw it when it is dropped
    if (!page.deferred) {
      page.deferred = true;
      const wait = () => (hand.busy ? requestAnimationFrame(wait) : (page.deferred = false, render()));
      requestAnimationFrame(wait);
    }
    return;
  }
  const view = message.view;
  const focused = focusKey($("#app"));
  $("#table-title").textContent = message.table.title;
  hand.render(page.order, {selected: page.selected, wildRank: wildRankLetter(view.wild_rank),
    interactive: page.me !== null});
  const client = message.table.client;
  const model = {
    view,
    client,
    seats: message.table.seats,
    me: page.me,
    myName: page.myName,
    viewpoint: page.me ?? 0,
    stateId: message.state_id,
    callWindow: message.call_window,
    callDepth: page.callDepth,
    busy: page.busy || !page.live,
    selected: page.selected,
    handElement: page.me !== null ? hand.element : null,
    selectedCards: selectedCards(),
    layDown: message.lay_down ?? null,
    warning: page.me !== null ? discardWarning(message) : null,
    readOnly: false,
    nameOf,
    on,
  };
  renderBoard($("#board"), model);
  ($("#board .me") || $("#app")).append(errorBox);
  if (page.choice) $("#board").append(choiceBox());
  $("#side").replaceChildren(...[
    settingsLine(message.table.settings),
    fair.line(message, page.me),
    absencePanel(page, code, {send: sendMessage, show: (text) => notice(text, "info"), nameOf}),
    advicePanel(message),
    view.finished_deals.length ? h("button", {type: "button", class: "btn ghost small", id: "show-results",
      onclick: () => { page.resultsOpen = true; page.resultsDeal = view.finished_deals.length - 1; render(); }},
    t("table.show_results")) : null,
    logPanel(view, client, nameOf),
    seatDrawPanel(message.table.seat_draw),
    scoreSection(view, client, nameOf)].filter(Boolean));
  renderResults(fair, render);
  seatDrawShow.render(message, nameOf, page.me);
  tellShown(message);
  if (page.resultsOpen || seatDrawShow.open || fair.isOpen) return;
  if (page.choice && !$("#choice").contains(document.activeElement)) $("#choice .btn").focus();
  else restoreFocus($("#app"), focused);
}

/** Tell the server once a deal is in sight (no seat draw show, no results over the table):
 * the seat's turn timer waits for it (docs/protocol.md, "seen"). */
function tellShown(message) {
  const view = message.view;
  if (page.me === null || message.table.status !== "playing" || page.resultsOpen || seatDrawShow.open) return;
  if (view.deal_number <= page.shownDeal || page.socket?.readyState !== WebSocket.OPEN) return;
  page.shownDeal = view.deal_number;
  sendMessage({type: "seen", deal: view.deal_number});
}

/** Who drew what in the seat draw (R13-2), in seat order: seat 0 plays first, the last deals. */
function seatDrawPanel(draw) {
  if (!draw) return null;
  return h("section", {class: "seat-draw", id: "seat-draw"}, h("h3", {}, t("table.seat_draw")),
    h("ol", {}, draw.map((d) => h("li", {dataset: {seat: String(d.seat)}},
      `${nameOf(d.seat)}: ${d.cards.map(showCard).join(" → ")}`))));
}

listenForKeys({
  blocked,
  help: () => togglePanel($("#keys-toggle"), $("#keys-help")),
});
onPrefChange((name, value) => { if (name === "sound" && value) announcer.beep(); });

onLangChange(() => {
  frame();
  if (page.noticeKey === "spectating") notice(t("table.spectating"), "info");
  render();
  reconnect(); // the server's messages come in the language of the hello
});

initAdvice({send: sendMessage, rerender: render});
initSocket({onState, render});
initActions({render});
watchNetwork({gone: dropped, back});
start();