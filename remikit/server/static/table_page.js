// What the parts of the table page (table.js) share: the table's code, the page's state
// (window.remikit), the notice line, the error box by the hand and the seats' names.

import {HandOrder} from "./hand.js";
import {$, seatName, tokenKey} from "./util.js";

export const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "").toUpperCase();
export const page = {
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

export function notice(text, kind = "info") {
  const element = $("#notice");
  element.textContent = text || "";
  element.className = `notice ${kind}`;
  element.hidden = !text;
}

export const errorBox = $("#error"); // shown by the hand (render puts it there)

let errorTimer = 0;

export function showError(text) {
  const element = errorBox;
  element.textContent = text;
  element.hidden = !text;
  clearTimeout(errorTimer);
  if (text) errorTimer = setTimeout(() => { element.hidden = true; }, 8000);
}

export const nameOf = (seat) => seatName(page.message?.table.seats, seat, page.me);
