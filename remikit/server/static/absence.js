// Who is at the table and who plays for whom (docs/protocol.md, "Absent players"): the
// turn timer, the badges of away and thinking seats, presence updates, coming back,
// moving a seat to another device, the creator's replacements and the rematch.

import {newContribution} from "./fairness.js";
import {N_, t} from "./i18n.js";
import {url} from "./urls.js";
import {api, h, joinEntropyKey, tokenKey} from "./util.js";

export const ownerKey = (code) => `remikit.owner.${code}`;

/** The latest state message with a presence update merged in: who is connected and away.
 * A new object: the state the next change applies to stays as the server sent it. */
export function applyPresence(message, presence) {
  if (!message || presence.table_id !== message.table_id) return message;
  const seats = message.table.seats.map((seat) => ({...seat}));
  for (const update of presence.seats) Object.assign(seats[update.seat] || {}, update);
  return {...message, table: {...message.table, seats, spectators: presence.spectators}};
}

/** The badges of a seat: a bot plays for its person, a bot is thinking. */
export function seatTags(info) {
  return [
    info.away ? h("span", {class: "tag away-bot", title: t("absence.away_title")}, t("absence.away")) : null,
    info.thinking ? h("span", {class: "tag thinking", "aria-live": "polite"}, t("absence.thinking")) : null,
  ];
}

/** Seconds left as the timer shows them. */
const secondsLeft = (element) => Math.max(0, Math.ceil((Number(element.dataset.endsAt) - performance.now()) / 1000));

setInterval(() => {
  for (const element of document.querySelectorAll("[data-ends-at]")) {
    element.querySelector(".seconds").textContent = String(secondsLeft(element));
  }
}, 250);

/** The turn timer: whose turn, and the seconds left (counting down on this page). */
function timerLine(timer, me, nameOf) {
  if (!timer) return null;
  const endsAt = performance.now() + timer.ends_in_ms;
  const mine = timer.seat === me;
  return h("p", {class: "turn-timer" + (mine ? " mine" : ""), id: "turn-timer", dataset: {endsAt: String(endsAt), seat: String(timer.seat)}},
    mine ? t("absence.your_time") : t("absence.their_time", {name: nameOf(timer.seat)}), " ",
    h("b", {class: "seconds"}, String(Math.ceil(timer.ends_in_ms / 1000))), " ", t("absence.seconds_unit"));
}

const REPLACE = {bot: N_("absence.replace_bot"), person: N_("absence.replace_person")};

/** The table's side panel part: the timer, "I'm back", moving my seat, the creator's
 * replacements of away seats. ``page`` has message, me, token; ``send`` sends a socket
 * message; ``show`` shows a note. */
export function absencePanel(page, code, {send, show, nameOf}) {
  const message = page.message;
  const table = message.table;
  const mine = page.me !== null ? table.seats[page.me] : null;
  const owner = localStorage.getItem(ownerKey(code));
  const away = table.seats.filter((s) => s.kind === "person" && s.away && s.taken);
  const parts = [
    timerLine(table.timer, page.me, nameOf),
    mine && mine.away ? h("p", {class: "away-me"}, t("absence.bot_plays_for_you"), " ",
      h("button", {type: "button", class: "btn primary small", id: "btn-back", onclick: () => send({type: "back"})},
        t("absence.back"))) : null,
    page.me !== null && page.token && !message.view.game_over ? h("button", {type: "button", class: "btn ghost small", id: "btn-move",
      onclick: async () => {
        try {
          const offer = await api(`/api/tables/${encodeURIComponent(code)}/move`, {token: page.token});
          show(h("span", {}, t("absence.move_link"), " ", h("input", {readonly: true, id: "move-link", value: offer.link,
            onfocus: (e) => e.target.select()})));
        } catch (error) { show(error.message); }
      }}, t("absence.move")) : null,
    owner && away.length && !message.view.game_over ? h("div", {class: "replace", id: "replace"},
      h("b", {}, t("absence.replace_title")),
      away.map((seat) => h("div", {class: "row", dataset: {seat: String(seat.seat)}},
        h("span", {}, nameOf(seat.seat)),
        seat.then ? h("span", {class: "muted"}, t("absence.replaced")) : ["bot", "person"].map((kind) =>
          h("button", {type: "button", class: "btn small", dataset: {kind},
            onclick: async () => {
              try {
                await api(`/api/tables/${encodeURIComponent(code)}/seats/${seat.seat}`, {owner_token: owner, kind});
              } catch (error) { show(error.message); }
            }}, t(REPLACE[kind])))))) : null,
  ].filter(Boolean);
  return parts.length ? h("section", {class: "absence", id: "absence"}, ...parts) : null;
}

/** The end dialog's rematch button: made once for the table, joined by everyone seated. */
export function rematchButton(page, code, show) {
  if (page.me === null || !page.token) return null;
  const go = (id) => {
    localStorage.setItem(tokenKey(id), page.token);
    const owner = localStorage.getItem(ownerKey(code));
    if (owner) localStorage.setItem(ownerKey(id), owner);
    location.href = url(`/table/${id}`);
  };
  const existing = page.message.table.rematch;
  return h("button", {type: "button", class: "btn primary", id: "btn-rematch", onclick: async () => {
    if (existing) { go(existing); return; }
    try {
      const entropy = newContribution(); // to the rematch's first deal, dealt at once
      const made = await api(`/api/tables/${encodeURIComponent(code)}/rematch`, {token: page.token, entropy});
      sessionStorage.setItem(joinEntropyKey(made.table.id), entropy);
      go(made.table.id);
    } catch (error) { show(error.message); }
  }}, existing ? t("absence.join_rematch") : t("absence.rematch"));
}

/** A move link (#move=CODE) opened here: claim the seat; its token, or null. */
export async function claimMove(code) {
  const match = /^#move=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, "", location.pathname + location.search);
  const claimed = await api(`/api/tables/${encodeURIComponent(code)}/claim`, {code: match[1]});
  localStorage.setItem(tokenKey(claimed.table.id), claimed.token);
  return claimed.token;
}
