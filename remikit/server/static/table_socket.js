// The table's socket and its messages (docs/protocol.md §4): the hello with the seat token,
// the actions sent with the state id they were made against, what each message of the
// server does to the page, and reconnecting (§4.4): after a wait that grows when the socket
// drops, at once when the network is back (while offline the socket is closed).

import {applyPresence} from "./absence.js";
import {adviceReply, retireAnnouncement} from "./advice.js";
import {applyChange} from "./changes.js";
import {answersContribution} from "./fairdeal.js";
import {lang, t} from "./i18n.js";
import {forgetState, retryDelay} from "./reconnect.js";
import {code, nameOf, notice, page, showError} from "./table_page.js";
import {socketUrl} from "./urls.js";
import {$, tokenKey} from "./util.js";

/** @type {(message: any) => void} */
let onState;
/** @type {() => void} */
let render;

/** `onState(message)` shows a new state message, `render()` draws the page again (table.js). */
export function initSocket(shown) {
  ({onState, render} = shown);
}

export function connect() {
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
export function dropped() {
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
export function back() {
  const socket = page.socket;
  if (page.ended || !socket || socket.readyState <= WebSocket.OPEN || !navigator.onLine) return;
  clearTimeout(page.retryTimer);
  page.retry = 0;
  connect();
}

export function reconnect() {
  page.closedOnPurpose = true;
  if (page.socket) page.socket.close(1000);
  page.retry = 0;
  connect();
}

export function send(action) {
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

/** Send a message other than an action (advice, back). */
export function sendMessage(message) {
  if (page.socket?.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify(message));
}
