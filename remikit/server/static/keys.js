// The table by keyboard: shortcut keys for every action (each presses the button or pile a
// mouse would), focus kept on the same card, pile or meld when the board is drawn afresh,
// and the help panel listing the keys.

import {N_, t} from "./i18n.js";
import {togglePanel} from "./prefs.js";
import {h} from "./util.js";

// key → [what it presses, the help text's message id]; a list tries each in turn
export const SHORTCUTS = [
  ["s", ["#stock"], N_("keys.stock")],
  ["d", ['#discard .card[data-depth="1"]'], N_("keys.discard_pile")],
  ["m", ["#btn-meld"], N_("keys.meld")],
  ["x", ["#btn-discard"], N_("keys.discard")],
  ["t", ["#btn-close"], N_("keys.close")],
  ["r", ["#btn-rummy"], N_("keys.rummy")],
  ["n", ["#btn-pass", "#btn-decline"], N_("keys.pass")],
  ["1", ["#sort-suit"], N_("keys.sort_suit")],
  ["2", ["#sort-rank"], N_("keys.sort_rank")],
  ["h", ["#hand .card[tabindex='0']"], N_("keys.hand")],
  ["escape", ["#results-close", "#choice .btn.ghost", "#btn-clear"], N_("keys.escape")],
];
// keys that work on what has the focus: shown in the help, handled by the elements
const FOCUS_KEYS = [
  ["Tab", N_("keys.tab")],
  ["← →", N_("keys.arrows")],
  ["Shift + ← →", N_("keys.move_card")],
  ["Enter / {space}", N_("keys.enter")],
  ["?", N_("keys.help")],
];

const typing = (target) => target instanceof HTMLElement
  && (target.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName));

/**
 * Listen for the shortcut keys. `blocked(selector)` is asked when the key's target is
 * missing or disabled (it may say why: "not your turn"); `help` toggles the help panel.
 */
export function listenForKeys({blocked, help}) {
  document.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {
      keepInDialog(event);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const key = event.key.toLowerCase();
    if (event.key === "?") {
      event.preventDefault();
      help();
      return;
    }
    const shortcut = SHORTCUTS.find(([k]) => k === key);
    if (!shortcut) return;
    // an open dialog (the results) takes only its own keys
    if (key !== "escape" && openDialog()) return;
    const [, selectors] = shortcut;
    const target = selectors.map((s) => document.querySelector(s))
      .find((element) => element && !element.disabled && element.getAttribute("aria-disabled") !== "true" && isShown(element));
    if (key === "escape" && !target) return;
    event.preventDefault();
    if (!target) {
      blocked(selectors[0]);
      return;
    }
    if (key === "h") target.focus();
    else target.click();
  });
}

const isShown = (element) => element.getClientRects().length > 0;

// the topmost open dialog: the last in the page (a deal's verify view over its results)
const openDialog = () => [...document.querySelectorAll('.results:not([hidden]) [aria-modal="true"]')].pop() || null;

/** Tab and Shift + Tab go round the open dialog's buttons, never behind it. */
function keepInDialog(event) {
  const dialog = openDialog();
  if (!dialog) return;
  const stops = [.../** @type {NodeListOf<HTMLButtonElement>} */ (dialog.querySelectorAll("button, a[href], input, [tabindex='0']"))]
    .filter((element) => !element.disabled && isShown(element));
  if (!stops.length) return;
  const at = stops.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  const next = at < 0 ? 0 : (at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length;
  event.preventDefault();
  stops[next].focus();
}

/** Press `element` with Enter or Space (for a focusable element that is not a <button>). */
export function pressable(element, press) {
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      press();
    }
  });
}

/** Where the focus is inside `root`, as a selector that finds it again after a redraw. */
export function focusKey(root) {
  const element = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!element || element === document.body || !root.contains(element)) return null;
  if (element.id) return `#${CSS.escape(element.id)}`;
  for (const name of ["id", "depth", "meld"]) {
    const value = element.dataset[name];
    if (value === undefined) continue;
    const owner = element.closest("[id]");
    return `${owner ? `#${CSS.escape(owner.id)} ` : ""}[data-${name}="${CSS.escape(value)}"]`;
  }
  return "";
}

/**
 * Put the focus back after a redraw: on the same element when it is still there and
 * focusable, else (the pile drawn from, the card discarded) on the hand.
 */
export function restoreFocus(root, key) {
  if (key === null || root.contains(document.activeElement)) return;
  const again = key ? root.querySelector(key) : null;
  const target = again && again.tabIndex >= 0 && !again.disabled ? again : root.querySelector("#hand .card[tabindex='0']");
  target?.focus({preventScroll: true});
}

/** The keys button for the top bar and its help panel. */
export function keysHelp() {
  const rows = [
    ...FOCUS_KEYS.map(([key, text]) => [key.replace("{space}", t("keys.space")), t(text)]),
    ...SHORTCUTS.map(([key, , text]) => [key === "escape" ? "Esc" : key.toUpperCase(), t(text)]),
  ];
  const panel = h("div", {class: "popover card-box keys-help", id: "keys-help", role: "group",
    "aria-label": t("keys.title"), hidden: true},
  h("h3", {}, t("keys.title")),
  h("dl", {}, rows.flatMap(([key, text]) => [h("dt", {}, h("kbd", {}, key)), h("dd", {}, text)])));
  const button = h("button", {type: "button", class: "btn ghost small", id: "keys-toggle",
    "aria-expanded": "false", "aria-controls": "keys-help", onclick: () => togglePanel(button, panel)},
  t("keys.button"));
  return [button, panel];
}
