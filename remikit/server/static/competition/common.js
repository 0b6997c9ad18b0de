// What the competition pages share: the competition's id, its API with the login token
// of a role (Authorization: Bearer), the header, the error line and the words of statuses.

import {N_, lang, langButton, t} from "../i18n.js";
import {url} from "../urls.js";
import {ApiError, h} from "../util.js";

const cid = document.body.dataset.competition;
export const base = (path = "") => `/api/competitions/${encodeURIComponent(cid)}${path}`;
export const pageUrl = (path = "") => url(`/competitions/${encodeURIComponent(cid)}${path}`);

const tokenKey = (role) => `remikit.competition.${cid}.${role}`;

/** The login kept for ``role`` ({token, name}) or null. */
export function login(role) {
  try { return JSON.parse(localStorage.getItem(tokenKey(role))); } catch { return null; }
}

export function keepLogin(role, token, name, id = cid) {
  localStorage.setItem(`remikit.competition.${id}.${role}`, JSON.stringify({token, name}));
}

/** The form field (input, select, textarea) of `id`.
 * @param {string} id
 * @returns {HTMLInputElement} */
export const formField = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));

export function forget(role) { localStorage.removeItem(tokenKey(role)); }

/** Log out: the server ends the token (POST …/logout), this browser forgets it. */
export async function logout(role) {
  try {
    await call(base("/logout"), {role, post: true});
  } catch {
    // an expired or unknown token: already refused by the server
  }
  forget(role);
}

/** A JSON API call: GET without a body, POST with one (``post`` for a POST without);
 * with the token of ``role``. A refusal throws an ApiError whose ``fields`` are the error's.
 * @param {string} path
 * @param {{body?: unknown, role?: string, post?: boolean}} [options] */
export async function call(path, {body, role, post = false} = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  const token = role && login(role)?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const target = url(path) + (path.includes("?") ? "&" : "?") + `lang=${lang()}`;
  const response = await fetch(target, {
    method: body === undefined && !post ? "GET" : "POST", headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    if (response.status === 401 && role) forget(role);
    throw Object.assign(new ApiError(response.status, data && data.error), {fields: data?.error || {}});
  }
  return data;
}

/** The page's header: the home link, the competition's name, links, the language. */
export function header(title, ...links) {
  document.title = title ? `${title} · remikit` : "remikit";
  document.getElementById("topbar").replaceChildren(
    h("a", {href: url("/"), class: "brand home"}, "remikit"),
    h("span", {class: "table-title"}, title || ""),
    ...links.filter(Boolean), langButton());
}

/** "Refresh": ask the server again (what others entered since). */
export const refreshButton = (load) => h("button", {type: "button", class: "btn ghost small", id: "refresh", onclick: load}, t("comp.refresh"));

/** The line that shows what went wrong (role="alert"), or nothing. */
export function errorLine() {
  const line = h("p", {id: "error", class: "notice error", role: "alert", hidden: true});
  return {
    element: line,
    show(error) {
      line.textContent = error ? (error.message || String(error)) : "";
      line.hidden = !error;
    },
  };
}

const PLAYER_STATUS = {
  registered: N_("comp.status.registered"), checked_in: N_("comp.status.checked_in"),
  dropped: N_("comp.status.dropped"), disqualified: N_("comp.status.disqualified"),
};
const COMP_STATUS = {
  registration: N_("comp.state.registration"), running: N_("comp.state.running"), finished: N_("comp.state.finished"),
  archived: N_("comp.state.archived"),
};
const ROUND_STATUS = {seated: N_("comp.round.seated"), playing: N_("comp.round.playing"), done: N_("comp.round.done")};
const GAME_STATUS = {missing: N_("comp.game.missing"), entered: N_("comp.game.entered"), confirmed: N_("comp.game.confirmed")};

const word = (table, key) => (table[key] ? t(table[key]) : key || "");
export const playerStatus = (status) => word(PLAYER_STATUS, status);
export const compStatus = (status) => word(COMP_STATUS, status);
export const roundStatus = (status) => word(ROUND_STATUS, status);
export const gameStatus = (status) => word(GAME_STATUS, status);

/** "Babak 2 dari 3" and the like: the competition's line under its name. */
export function summary(comp) {
  const parts = [comp.date, comp.venue, compStatus(comp.status)];
  if (comp.current_round) parts.push(t("comp.round_of", {n: comp.current_round, total: comp.rounds}));
  if (comp.duplicate) parts.push(t("comp.duplicate_deals"));
  return parts.filter(Boolean).join(" · ");
}

/** A round's timer as minutes and seconds ("89:00") left at ``now`` (ms of performance.now() when read). */
export function timerText(timer, readAt, now = performance.now()) {
  if (!timer || (!timer.running && timer.left_ms == null && timer.ends_in_ms == null)) return "--:--";
  const left = timer.running ? timer.ends_in_ms - (now - readAt) : (timer.left_ms ?? timer.minutes * 60000);
  const seconds = Math.max(0, Math.ceil(left / 1000));
  const pad = (n) => String(n).padStart(2, "0");
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

/** The player's name by id, from a list of players. */
export function namer(players) {
  const names = new Map(players.map((p) => [p.id, p.name]));
  return (id) => names.get(id) || id || "";
}

/** A row's details under its name, for a phone that shows only the key columns: club,
 * games won, closes, best game, dead points, byes (and the luck-adjusted score). */
function rowDetails(row) {
  const items = [[N_("comp.col.club"), row.club || "–"], [N_("comp.col.won"), row.won], [N_("comp.col.ace"), row.ace_closes],
    [N_("comp.col.joker"), row.joker_closes], [N_("comp.col.best"), row.best_game ?? "–"], [N_("comp.col.dead"), row.dead],
    [N_("comp.col.byes"), row.byes ?? 0], ...(row.luck != null ? [[N_("comp.col.luck"), row.luck]] : [])];
  return h("dl", {class: "row-details"}, items.map(([key, value]) => h("div", {}, h("dt", {}, t(key)), h("dd", {}, value))));
}

/** The standings table (rank, name, club, points, games, won, closes, best, dead, and the
 * luck-adjusted score with duplicate deals); a phone shows the key columns only (rank, name,
 * points, games; class "extra" on the others), and with ``opened`` (a Set of player ids) the
 * details of those rows under their names.
 * @param {any[]} rows
 * @param {{onPick?: (row: any) => void, opened?: Set<string>}} [options] */
export function standingsTable(rows, {onPick, opened} = {}) {
  const luck = rows.some((row) => row.luck != null);
  const heads = [[N_("comp.col.rank")], [N_("comp.col.name")], [N_("comp.col.club"), "club extra"], [N_("comp.col.total")],
    [N_("comp.col.games")], [N_("comp.col.won"), "extra"], [N_("comp.col.ace"), "extra"], [N_("comp.col.joker"), "extra"],
    [N_("comp.col.best"), "extra"], [N_("comp.col.dead"), "extra"], ...(luck ? [[N_("comp.col.luck"), "extra"]] : [])];
  const body = rows.map((row) => {
    const mark = row.status === "disqualified" || row.status === "dropped"
      ? h("span", {class: `tag ${row.status}`, title: row.reason || ""}, playerStatus(row.status), row.reason ? `: ${row.reason}` : "")
      : null;
    const open = Boolean(opened?.has(row.player));
    const name = onPick
      ? h("button", {type: "button", class: "link-button", "aria-expanded": String(open), onclick: () => onPick(row)}, row.name)
      : row.name;
    return h("tr", {dataset: {player: row.player}, class: row.status},
      h("td", {class: "rank"}, row.rank ?? ""), h("th", {scope: "row", class: "name"}, name, mark ? " " : null, mark, open ? rowDetails(row) : null),
      h("td", {class: "club extra"}, row.club || ""), h("td", {class: "total"}, row.total),
      h("td", {class: "games"}, row.games), h("td", {class: "extra"}, row.won), h("td", {class: "extra"}, row.ace_closes), h("td", {class: "extra"}, row.joker_closes),
      h("td", {class: "extra"}, row.best_game ?? ""), h("td", {class: "extra"}, row.dead),
      luck ? h("td", {class: "extra luck"}, row.luck ?? "") : null);
  });
  return h("table", {class: "standings", id: "standings"},
    h("thead", {}, h("tr", {}, heads.map(([key, cls]) => h("th", {scope: "col", class: cls || null}, t(key))))),
    h("tbody", {}, body));
}

export const positions = ["A", "B", "C", "D"];

/** A seat's name at a table: its player's, or the bot's level. */
export function seatLabel(seat, nameOf) {
  if (seat.bot) return t("comp.bot_seat", {level: seat.bot});
  return seat.name || nameOf(seat.player);
}

/** The game seats (0–3) of a table after its seat draw, else null: [{position, player,
 * cards, seat, name}] in game-seat order. */
export function gameSeats(table, nameOf) {
  if (!table.seat_draw || table.seat_draw.some((s) => s.seat === null || s.seat === undefined)) return null;
  const byPosition = new Map(table.seats.map((s) => [s.position, s]));
  return [...table.seat_draw].sort((a, b) => a.seat - b.seat)
    .map((s) => ({...s, name: seatLabel(byPosition.get(s.position) || {player: s.player}, nameOf)}));
}

const ABSENCE_RULES = {
  round_mean: N_("comp.absence.round_mean"), round_lowest: N_("comp.absence.round_lowest"),
  fixed: N_("comp.absence.fixed"), zero: N_("comp.absence.zero"), average: N_("comp.absence.average"),
};

/** The competition's declared absence rules (and its ranking by points per game) in one line. */
export function absenceLine(comp) {
  if (!comp.absences) return "";
  const rule = (kind) => t(ABSENCE_RULES[comp.absences[kind].rule], {points: comp.absences[kind].points});
  const line = t("comp.absence.line", {bye: rule("bye"), late: rule("late"), withdrawn: rule("withdrawn"), missed: rule("missed")});
  return comp.rank_by === "per_game" ? `${line} ${t("comp.absence.per_game", {n: comp.min_games})}` : line;
}
