// Small helpers shared by the pages: building elements, the JSON API, what a log line says.

import {cardText, parseCard, rankLabel, setCardNamer} from "./cards.js";
import {newContribution} from "./fairness.js";
import {N_, lang, t, tn} from "./i18n.js";
import {url as serverUrl} from "./urls.js";

// The message ids of the bot levels' names.
const LEVELS = {random: N_("level.random"), greedy: N_("level.greedy"), strong: N_("level.strong"), expert: N_("level.expert")};

/** h("div", {class: "x", onclick: f}, child, "text", …): an element. */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "class") {
      element.className = value;
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else if (name === "html") {
      element.innerHTML = value;
    } else if (value === true) {
      element.setAttribute(name, "");
    } else {
      element.setAttribute(name, String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "http";
  }
}

/** GET (no body) or POST (a body) a JSON API path; errors come in the chosen language. */
export async function api(path, body, {method = undefined, headers = {}} = {}) {
  const url = serverUrl(path) + (path.includes("?") ? "&" : "?") + `lang=${lang()}`;
  const init = body === undefined ? {method: method || "GET", headers} : {
    method: method || "POST", headers: {...headers, "Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) { // no answer at all: without network, say so in the page's language
    if (navigator.onLine) throw error;
    throw new ApiError(0, {code: "offline", message: t("app.no_network")});
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data && data.error);
  return data;
}

export const tokenKey = (code) => `remikit.token.${code}`;

/** Where a join or a rematch keeps the contribution it sent with it (fairdeal.js). */
export const joinEntropyKey = (code) => `remikit.fair.${code}.joined`;

/** Where the table page keeps what this browser saw of deal ``deal`` (fairdeal.js). */
export const fairSeenKey = (code, deal) => `remikit.fair.${code}.${deal}`;

/** Remember the commitment of the table's next deal and the unshuffled deck as seen now,
 * before a join that may deal it (the lobby's joins never saw the table's state). */
async function seeNextCommitment(code) {
  const known = await api(`/api/tables/${encodeURIComponent(code)}`);
  const next = known.fairness && known.fairness.next;
  if (!next) return;
  const key = fairSeenKey(code, next.deal);
  let seen = {};
  try { seen = JSON.parse(sessionStorage.getItem(key)) || {}; } catch { seen = {}; }
  if (!seen.commitment) {
    sessionStorage.setItem(key, JSON.stringify({...seen, commitment: next.commitment, deck: known.fairness.deck}));
  }
}

/** 32 random bytes, base64url: a seat token made in the browser. */
function newToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Join table ``code`` ({name, seat, lang}) with a token made here and kept before the
 * request goes out: when the answer is lost, asking again with the same token gives the
 * same seat, so a seat the server gave is never lost. The join carries this person's
 * contribution to the next deal, which the join may start. */
export async function joinTable(code, body) {
  const key = tokenKey(code);
  const token = newToken();
  const entropy = newContribution();
  localStorage.setItem(key, token);
  sessionStorage.setItem(joinEntropyKey(code), entropy);
  await seeNextCommitment(code);
  let profile = await ensureProfile().catch(() => null); // the seat is the profile's
  for (let attempt = 1; ; attempt++) {
    try {
      const joined = await api(`/api/tables/${encodeURIComponent(code)}/join`,
        {...body, token, entropy, ...(profile ? {profile_token: profile.token} : {})});
      if (body.name) await nameProfile(body.name);
      return joined;
    } catch (error) {
      if (error instanceof ApiError && error.code === "bad_profile" && attempt < 3) {
        localStorage.removeItem(PROFILE_KEY); // deleted elsewhere: a new one
        profile = await ensureProfile().catch(() => null);
        continue;
      }
      if (error instanceof ApiError) localStorage.removeItem(key);  // refused: no seat
      if (error instanceof ApiError || attempt >= 3) throw error;
    }
  }
}

export const PROFILE_KEY = "remikit.profile";

/** This browser's profile ({id, token, named}), or null. */
export function storedProfile() {
  try {
    const found = JSON.parse(localStorage.getItem(PROFILE_KEY) || "null");
    return found && found.id && found.token ? found : null;
  } catch {
    return null;
  }
}

/** Keep a profile as the server described it ({id, named}) with its token. */
export function keepProfile(profile, token) {
  localStorage.setItem(PROFILE_KEY, JSON.stringify({id: profile.id, token, named: profile.named}));
}

/** This browser's profile, made silently on the first visit (POST /api/profiles). */
export async function ensureProfile() {
  const known = storedProfile();
  if (known) return known;
  const made = await api("/api/profiles", {});
  keepProfile(made.profile, made.token);
  return storedProfile();
}

/** A request of this browser's profile (its token in the X-Profile-Token header). */
export function profileApi(method, path, body = undefined) {
  const profile = storedProfile();
  return api(path, body, {method, headers: profile ? {"X-Profile-Token": profile.token} : {}});
}

/** The name a person typed to sit down becomes their profile's, unless they chose one. */
async function nameProfile(name) {
  const profile = storedProfile();
  if (!profile || profile.named) return;
  try {
    const named = await profileApi("PUT", "/api/profiles/me/name", {name});
    keepProfile(named.profile, profile.token);
  } catch {
    // the seat is taken all the same; the profile keeps the name it has
  }
}
export const NAME_KEY = "remikit.name";

/** A seat's display name: its person's name, "Bot 2 (greedy)", or "Seat 3". */
export function seatName(seats, seat, me = null) {
  if (seat === me && me !== null) return t("common.you");
  const info = seats && seats[seat];
  if (!info) return t("common.seat", {n: seat + 1});
  if (info.kind === "bot") return info.name || `Bot ${seat}`;
  return info.name || t("common.seat", {n: seat + 1});
}

export function levelName(level) {
  if (!level) return "";
  const base = level.split("@")[0];
  const key = LEVELS[base];
  return key ? t(key) : level;
}

/** A bot level with what the variant's ladder measured of it (`strength` of one level in
 * /api/variants; none: its name alone): its share of deals won and its rating, with the
 * thinking time measured where the level thinks otherwise at a table. */
export function levelStrength(level, measured) {
  const name = levelName(level);
  if (!measured) return name;
  const decimal = new Intl.NumberFormat(lang(), {minimumFractionDigits: 1, maximumFractionDigits: 1});
  const fields = {level: name, rate: `${Math.round(measured.win_rate * 100)}%`, rating: decimal.format(measured.rating)};
  if (measured.budget === null || measured.budget === undefined) return t("lobby.level_strength", fields);
  return t("lobby.level_strength_budget", {...fields, seconds: new Intl.NumberFormat(lang()).format(measured.budget)});
}

const joker = () => t("common.joker");
export const showCard = (text) => cardText(text, joker());

const RANK_NAMES = {A: N_("card.rank.A"), J: N_("card.rank.J"), Q: N_("card.rank.Q"), K: N_("card.rank.K")};
const SUIT_NAMES = {s: N_("card.suit.s"), h: N_("card.suit.h"), d: N_("card.suit.d"), c: N_("card.suit.c")};

/** A card in words: "7 of Hearts" / "7 Hati", "Joker as 9 of Hearts" / "Joker sebagai 9 Hati". */
export function cardName(text) {
  const card = parseCard(text);
  if (card.joker) return card.stands ? t("card.joker_as", {card: cardName(card.stands)}) : joker();
  const rank = RANK_NAMES[card.rank] ? t(RANK_NAMES[card.rank]) : rankLabel(card.rank);
  return t("card.name", {rank, suit: t(SUIT_NAMES[card.suit])});
}
setCardNamer(cardName);

/** What a log entry ({seat, action: {type, …}}) says, in words: a variant's own kind of
 * action by the message its `client` names for it (`client.actions`). */
export function describeAction(play, nameOf, client = null) {
  const who = nameOf(play.seat);
  const a = play.action;
  switch (a.type) {
    case "draw":
      if (a.source === "stock") return t("act.draw_stock", {who});
      if (a.depth > 1) return tn("act.draw_deep", a.depth, {who, k: a.depth});
      return t("act.draw_discard", {who, card: "?"});
    case "discard": return t("act.discard", {who, card: showCard(a.card)});
    case "meld": return t("act.meld", {who, cards: a.cards.map(showCard).join(" ")});
    case "layoff": return t("act.layoff", {who, card: showCard(a.card), n: a.meld});
    case "pass": return t("act.pass", {who});
    default: {
      const said = client?.actions?.[a.type];
      return said ? t(said, {who, card: a.card ? showCard(a.card) : "", k: a.depth}) : play.text;
    }
  }
}

/** A pass at a table where players knock (Gin Rummy): the first upcard declined (G-3), the
 * wall (G-8), or done laying down (G-6), from the plays before it. */
function knockPass(plays, i, who) {
  const before = plays.slice(0, i).map((p) => p.action.type);
  if (before.includes("knock")) return t("act.pass_done", {who});
  if (before.every((type) => type === "pass")) return t("act.pass_upcard", {who});
  return t("act.pass_wall", {who});
}

/** The passes after one discard in one line, at the last of them, naming who passed; null
 * at the others. */
function passRun(plays, i, nameOf) {
  if (plays[i + 1]?.action.type === "pass") return null;
  let first = i;
  while (first > 0 && plays[first - 1].action.type === "pass") first--;
  return t("act.pass", {who: plays.slice(first, i + 1).map((play) => nameOf(play.seat)).join(", ")});
}

/**
 * The log in words, one entry per play, with the cards taken from the discard pile filled
 * in: a draw from the pile says only its depth; the view's taken_from_discard lists those
 * cards in order. `client` (the variant's client info) words a pass where players knock;
 * elsewhere a run of passes is one line, at its last pass, and null at the others.
 */
export function describeLog(plays, nameOf, taken = [], client = null) {
  let next = 0;
  return plays.map((play, i) => {
    const a = play.action;
    if (a.type === "pass") return client?.knocking ? knockPass(plays, i, nameOf(play.seat)) : passRun(plays, i, nameOf);
    const fromPile = (a.type === "draw" && a.source === "discard") || a.type === "rummy";
    if (!fromPile) return describeAction(play, nameOf, client);
    const k = a.depth;
    const cards = taken.slice(next, next + k).map((entry) => entry[1]);
    next += k;
    if (a.type === "rummy") return describeAction(play, nameOf, client);
    const who = nameOf(play.seat);
    if (k === 1 && cards.length === 1) return t("act.draw_discard", {who, card: showCard(cards[0])});
    if (k > 1 && cards.length) return `${tn("act.draw_deep", k, {who, k})}: ${cards.map(showCard).join(" ")}`;
    return describeAction(play, nameOf, client);
  });
}
