// The table page (/table/CODE): take a seat or watch, then play over the WebSocket
// (docs/protocol.md §4). The seat token lives in localStorage, so a reload or a new tab
// comes back to the same seat and hand. When the network drops, the page shows the last state
// (kept for a reload without network too), reconnects by itself and resends nothing: an action
// carries the state id it was made against, and on reconnect the server's state decides (§4.4).

import {absencePanel, applyPresence, claimMove, rematchButton} from "./absence.js";
import {adviceReply, advicePanel, announce, announcement, discardWarning, guardDiscard, initAdvice, retireAnnouncement} from "./advice.js";
import {Announcer} from "./announce.js";
import {dealResults, logPanel, renderBoard} from "./board.js";
import {wildRankLetter} from "./cards.js";
import {applyChange} from "./changes.js";
import {answersContribution, FairDeals} from "./fairdeal.js";
import {HandOrder, HandView} from "./hand.js";
import {lang, langButton, onLangChange, t, tn} from "./i18n.js";
import {focusKey, keysHelp, listenForKeys, restoreFocus} from "./keys.js";
import {onPrefChange, prefsControl, togglePanel} from "./prefs.js";
import {forgetState, keepState, keptState, retryDelay, watchNetwork} from "./reconnect.js";
import {scoreSection} from "./scores.js";
import {SeatDrawShow} from "./seatdraw.js";
import {settingsLine} from "./table_settings.js";
import {shareControls} from "./share.js";
import {socketUrl, url} from "./urls.js";
import {$, api, h, joinTable, NAME_KEY, seatName, showCard, tokenKey} from "./util.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
const page = {
  token: localStorage.getItem(tokenKey(code)),
  socket: null,
  me: null, // my seat, null for a spectator
  myName: null,
  message: null, // the latest state message, presence updates merged in
  kept: null, // the latest state message as the server sent it (or made by its changes): the next change's base
  syncing: false, // a change did not fit the kept state: a full state is asked for
  selected: new Set(),
  order: new HandOrder(`remikit.order.${code}`),
  busy: false,
  busyTimer: null,
  callDepth: 1,
  retry: 0,
  retryTimer: 0,
  live: false, // the socket is open and welcomed: actions can go
  ended: false, // the table is gone: no reconnecting
  closedOnPurpose: false,
  dealsSeen: null,
  shownDeal: 0, // the last deal the server was told this page shows (tellShown)
  resultsOpen: false,
  resultsDeal: null,
  choice: null, // {title, options: [[label, action]]}: a joker's identity to choose
  ref: 0,
  deferred: false,
  noticeKey: null,
  autoLay: false, // "Lay down best" is sending its steps
};
window.remikit = page; // for the browser tests and the curious
const announcer = new Announcer();
const seatDrawShow = new SeatDrawShow(code, () => render());
const fair = new FairDeals(code, (seat) => nameOf(seat));

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

function notice(text, kind = "info") {
  const element = $("#notice");
  element.textContent = text || "";
  element.className = `notice ${kind}`;
  element.hidden = !text;
}

const errorBox = $("#error"); // shown by the hand (render puts it there)

let errorTimer = 0;

function showError(text) {
  const element = errorBox;
  element.textContent = text;
  element.hidden = !text;
  clearTimeout(errorTimer);
  if (text) errorTimer = setTimeout(() => { element.hidden = true; }, 8000);
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

// -- the socket ----------------------------------------------------------------------------

function connect() {
  if (!navigator.onLine) return; // the `online` event connects
  const socket = new WebSocket(socketUrl(`/ws/tables/${encodeURIComponent(code)}?lang=${lang()}`));
  page.socket = socket;
  page.closedOnPurpose = false;
  page.syncing = false;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({type: "hello", token: page.token || null, lang: lang()}));
  });
  socket.addEventListener("message", (event) => {
    if (socket !== page.socket) return;
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (socket !== page.socket) return;
    page.live = false;
    page.autoLay = false;
    if (page.closedOnPurpose) return;
    if (event.code === 4401) { // the token holds no seat here: forget it, watch instead
      localStorage.removeItem(tokenKey(code));
      forgetState(code);
      page.token = null;
      page.me = null;
      notice(t("table.bad_token"), "error");
      setTimeout(connect, 200);
      return;
    }
    if (event.code === 4404 || event.code === 4410) { // no such table, or it waited too long and closed
      page.ended = true;
      notice(t(event.code === 4404 ? "table.no_table" : "table.expired", {code}), "error");
      return;
    }
    render(); // the last state stays, its controls off until the server answers again
    if (!navigator.onLine) return; // the offline banner says so; the `online` event reconnects
    notice(t("table.reconnecting"), "warn");
    page.noticeKey = "reconnecting";
    clearTimeout(page.retryTimer);
    page.retryTimer = setTimeout(connect, retryDelay(page.retry++));
  });
}

/** Offline: a socket would hang on the dead network, so it is closed; the last state stays. */
function dropped() {
  clearTimeout(page.retryTimer);
  if (page.noticeKey === "reconnecting") {
    notice("");
    page.noticeKey = null;
  }
  if (page.socket && page.socket.readyState <= WebSocket.OPEN) {
    page.closedOnPurpose = true;
    page.socket.close(1000);
  }
  page.live = false;
  page.autoLay = false;
  render();
}

/** Online again, or the page shown again: connect now if the socket is gone. */
function back() {
  const socket = page.socket;
  if (page.ended || !socket || socket.readyState <= WebSocket.OPEN || !navigator.onLine) return;
  clearTimeout(page.retryTimer);
  page.retry = 0;
  connect();
}

function reconnect() {
  page.closedOnPurpose = true;
  if (page.socket) page.socket.close(1000);
  page.retry = 0;
  connect();
}

function send(action) {
  const message = page.message;
  if (!message || !page.socket || page.socket.readyState !== WebSocket.OPEN) return;
  page.ref += 1;
  retireAnnouncement();
  page.socket.send(JSON.stringify({type: "action", state_id: message.state_id, action, ref: page.ref}));
  setBusy(true);
}

function setBusy(on) {
  page.busy = on;
  clearTimeout(page.busyTimer);
  if (on) page.busyTimer = setTimeout(() => { page.busy = false; render(); }, 5000);
  render();
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      page.live = true;
      page.busy = false; // an action sent before a drop: the state that follows decides
      clearTimeout(page.busyTimer);
      page.me = message.seat;
      page.kept = null; // a (new) seat's states start with a full one
      page.shownDeal = 0; // and the server is told again what this page shows
      page.myName = message.name;
      page.retry = 0;
      if (page.noticeKey === "reconnecting" || (message.seat !== null && page.noticeKey === "spectating")) {
        notice("");
        page.noticeKey = null;
      }
      if (message.seat !== null) $("#join").hidden = true;
      break;
    case "state":
      page.kept = message;
      page.syncing = false;
      onState(message);
      break;
    case "change":
      if (page.kept && message.base === page.kept.rev) {
        page.kept = applyChange(page.kept, message);
        onState(page.kept);
      } else if (!page.syncing) { // a gap: ask for the whole state, ignore changes until it comes
        page.syncing = true;
        sendMessage({type: "sync"});
      }
      break;
    case "presence":
      page.message = applyPresence(page.message, message);
      render();
      break;
    case "notice":
      notice(message.message, "info");
      page.noticeKey = "absence";
      break;
    case "error":
      if (answersContribution(message)) break;
      if (message.code === "moved") { // the seat went to another device: watch from here
        localStorage.removeItem(tokenKey(code));
        forgetState(code);
        page.token = null;
        page.me = null;
        notice(message.message, "warn");
        page.noticeKey = "moved";
        break;
      }
      if (message.code !== "stale_state") showError(message.message);
      setBusy(false);
      break;
    case "call_pending":
      setBusy(false);
      break;
    case "advice":
      adviceReply(message);
      render();
      break;
    case "call_lost":
      showError(t("call.lost", {name: nameOf(message.winner)}));
      break;
    default:
      break;
  }
}

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

/** The next step of "Lay down best": the server's best step for this seat, but not the pass
 * that ends the laying down (the player says Done). */
function layNext() {
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

// -- what the buttons do ------------------------------------------------------------------

const nameOf = (seat) => seatName(page.message?.table.seats, seat, page.me);

function selectedCards() {
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

/** Why a click or a key did nothing: another seat's turn, or no card chosen for it. */
function blocked(selector = null) {
  const view = page.message?.view;
  if (!view || page.me === null || view.game_over || page.message.call_window) return;
  if (view.to_play !== null && view.to_play !== page.me) showError(t("table.not_your_turn", {name: nameOf(view.to_play)}));
  else if (["#btn-discard", "#btn-close", "#btn-meld"].includes(selector) && view.phase === "discard") {
    showError(selector === "#btn-meld" ? t("table.select_meld") : t("table.select_one"));
  }
}

const on = {
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
  if (page.choice) {
    $("#board").append(h("div", {class: "choice card-box", id: "choice"},
      h("b", {}, page.choice.title),
      page.choice.options.map((action) => h("button", {type: "button", class: "btn",
        dataset: {action: action.text}, onclick: () => { page.choice = null; send(action.text); }},
        actionCards(action))),
      h("button", {type: "button", class: "btn ghost", onclick: () => { page.choice = null; render(); }}, t("table.cancel"))));
  }
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
  renderResults();
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

function renderResults() {
  const box = $("#results");
  const {view, table: {client}} = page.message;
  if (!page.resultsOpen || page.resultsDeal === null || !view.finished_deals[page.resultsDeal]) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const summary = view.finished_deals[page.resultsDeal];
  const over = view.game_over && page.resultsDeal === view.finished_deals.length - 1;
  const closeResults = () => {
    page.resultsOpen = false;
    retireAnnouncement();
    render();
    $("#hand .card[tabindex='0']")?.focus({preventScroll: true});
  };
  let headline = null;
  if (over) {
    const winner = view.winner;
    headline = h("div", {class: "game-over", id: "game-over"},
      h("h2", {}, t("end.game_over")),
      h("p", {class: "winner"}, winner === null ? t("end.no_winner")
        : winner === page.me ? t("end.you_win") : t("end.winner", {name: nameOf(winner)})));
  }
  const focused = focusKey(box);
  box.replaceChildren(h("div", {class: "results-box", role: "dialog", "aria-modal": "true", "aria-label": t("table.results_label"),
    dataset: {gameOver: over ? "true" : "false", deal: String(summary.number)}},
  headline,
  dealResults(view, client, summary, nameOf, page.me ?? 0),
  over ? scoreSection(view, client, nameOf) : null,
  h("div", {class: "row end-links"},
    over ? h("a", {class: "btn", href: url(`/static/replay.html?game=${code}`), id: "replay-link"}, t("table.replay")) : null,
    over ? h("a", {class: "btn", href: url(`/api/games/${code}/record`), download: ""}, t("lobby.download")) : null,
    over ? rematchButton(page, code, showError) : null,
    fair.button(page.message, summary.number),
    over ? h("a", {class: "btn", href: url(`/verify?game=${code}`), id: "verify-link"}, t("fair.verify_link")) : null,
    over ? h("a", {class: "btn", href: url("/")}, t("common.lobby")) : null,
    h("button", {type: "button", class: "btn primary", id: "results-close", onclick: closeResults},
      over ? t("common.close") : t("common.continue")))));
  const opening = box.hidden;
  box.hidden = false;
  if (opening) $("#results-close").focus({preventScroll: true}); // the headline stays in sight
  else if (focused) (box.querySelector(focused) || $("#results-close")).focus();
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

/** Send a message other than an action (advice, back). */
function sendMessage(message) {
  if (page.socket?.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
}

initAdvice({send: sendMessage, rerender: render});
watchNetwork({gone: dropped, back});
start();
