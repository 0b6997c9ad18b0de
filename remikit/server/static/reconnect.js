// How the table page lives through a dropped network (docs/protocol.md §4.4): the last state
// it showed, kept for a reload without network; the wait before each new try to connect; and
// the browser's signs that the network went or came back.

const lastKey = (code) => `remikit.last.${code}`;

/** The wait before the try `retry` (from 0) to connect again, in ms: doubling from 0.3 s up to
 * 5 s, a quarter more or less at random so that a table's players do not all come at once. */
export function retryDelay(retry, random = Math.random) {
  const base = Math.min(5000, 300 * 2 ** Math.min(retry, 10));
  return Math.round(base * (0.75 + 0.5 * random()));
}

/** Keep the latest state this tab showed ({me, myName, message}: its own seat's view, nothing
 * the page did not hold) in sessionStorage, for a reload without network. */
export function keepState(code, kept) {
  try {
    sessionStorage.setItem(lastKey(code), JSON.stringify(kept));
  } catch {
    // storage full or refused: the page still holds the state in memory
  }
}

/** The state kept by keepState, or null. */
export function keptState(code) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(lastKey(code)) || "null");
    return kept && kept.message && kept.message.view ? kept : null;
  } catch {
    return null;
  }
}

/** Forget the kept state (the seat is no longer this tab's). */
export function forgetState(code) {
  sessionStorage.removeItem(lastKey(code));
}

/** Call `gone` when the browser goes offline, `back` when it is online again or the page is
 * shown again (a phone wakes a tab it put to sleep). */
export function watchNetwork({gone, back}) {
  window.addEventListener("offline", gone);
  window.addEventListener("online", back);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") back();
  });
}
