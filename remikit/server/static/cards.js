// Cards: parsing the protocol's text form ("7h", "Th", "Jk", "Jk=9h"), sorting, and SVG
// faces and backs drawn here (suit shapes are paths, so no font needs the suit symbols).
// Every inked part has the class ink-s/ink-h/ink-d/ink-c, so the four-colour deck
// (prefs.js) is a stylesheet rule, never a redraw.

export const RANKS = "A23456789TJQK";
export const SUITS = "shdc";
const SUIT_SYMBOL = {s: "♠", h: "♥", d: "♦", c: "♣"};
const RED = "#c8102e";
const BLACK = "#1b1b1b";
const JOKER_INK = "#6a1b9a";

/** {rank, suit, joker, text, stands} of a card text; "Jk=9h" gives stands "9h". */
export function parseCard(text) {
  const [card, stands] = String(text).split("=");
  if (card === "Jk") return {rank: null, suit: null, joker: true, text: card, stands: stands || null};
  return {rank: card[0], suit: card[1], joker: false, text: card, stands: stands || null};
}

export const isRed = (suit) => suit === "h" || suit === "d";
export const rankLabel = (rank) => (rank === "T" ? "10" : rank);

/** Display text: "10♥", "Joker", "Joker (9♥)". */
export function cardText(text, jokerWord = "Joker") {
  const card = parseCard(text);
  if (card.joker) return card.stands ? `${jokerWord} (${cardText(card.stands)})` : jokerWord;
  return `${rankLabel(card.rank)}${SUIT_SYMBOL[card.suit]}`;
}

let namer = (text) => cardText(text);

/** Set how a card is named to screen readers ("7 of Hearts", "7 Hati"): util.js, from the catalogue. */
export function setCardNamer(name) { namer = name; }

/** A card's spoken name. */
export const cardName = (text) => namer(text);

/** A wild rank as the view gives it ("3" … "10", "J", "Q", "K") as a card rank letter. */
export function wildRankLetter(wild) {
  if (wild === null || wild === undefined) return null;
  return wild === "10" ? "T" : wild;
}

export function isWild(text, wildRank) {
  const card = parseCard(text);
  return card.joker || (wildRank !== null && card.rank === wildRank);
}

const SUIT_ORDER = {s: 0, h: 1, c: 2, d: 3}; // alternating colours in a sorted hand

/** Sort key by suit (then rank), or by rank (then suit); jokers and wild cards last. */
export function sortKey(text, mode, wildRank = null) {
  const card = parseCard(text);
  if (card.joker) return 1000;
  const rank = RANKS.indexOf(card.rank);
  const suit = SUIT_ORDER[card.suit];
  const wild = wildRank !== null && card.rank === wildRank ? 500 : 0;
  return wild + (mode === "rank" ? rank * 4 + suit : suit * 20 + rank);
}

// -- SVG -------------------------------------------------------------------------------

const SHAPES = {
  h: '<path d="M50 90C22 66 4 48 10 27 16 8 40 6 50 26 60 6 84 8 90 27 96 48 78 66 50 90Z"/>',
  d: '<path d="M50 4 86 50 50 96 14 50Z"/>',
  s: '<path d="M50 6C24 32 4 48 10 67 16 84 38 84 46 70L38 96H62L54 70C62 84 84 84 90 67 96 48 76 32 50 6Z"/>',
  c: '<circle cx="50" cy="27" r="19"/><circle cx="28" cy="58" r="19"/><circle cx="72" cy="58" r="19"/>'
    + '<path d="M45 50H55L62 96H38Z"/>',
};
const STAR = '<path d="M50 4 61 38H97L68 59 79 94 50 73 21 94 32 59 3 38H39Z"/>';

const inkClass = (suit) => (suit ? `ink-${suit}` : "ink-joker");

function shape(suit, x, y, size, fill, ink = suit) {
  const body = suit === "star" ? STAR : SHAPES[suit];
  return `<g class="${inkClass(ink)}" transform="translate(${x} ${y}) scale(${size / 100})" fill="${fill}">${body}</g>`;
}

const FONT = 'font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif"';

function corner(card, ink) {
  if (card.joker) {
    return `<text x="10" y="24" font-size="17" font-weight="700" fill="${ink}" ${FONT}>JO</text>`
      + `<text x="10" y="42" font-size="17" font-weight="700" fill="${ink}" ${FONT}>KER</text>`;
  }
  const label = rankLabel(card.rank);
  const size = label.length > 1 ? 25 : 29;
  return `<text class="${inkClass(card.suit)}" x="${label.length > 1 ? 5 : 8}" y="29" font-size="${size}" font-weight="700" `
    + `fill="${ink}" ${FONT} letter-spacing="-2">${label}</text>` + shape(card.suit, 8, 34, 19, ink);
}

function centre(card, ink) {
  if (card.joker) return shape("star", 22, 42, 56, ink, null);
  if (card.rank === "A") return shape(card.suit, 24, 44, 52, ink);
  if ("JQK".includes(card.rank)) {
    return `<rect class="${inkClass(card.suit)} frame" x="24" y="30" width="52" height="80" rx="5" fill="none" stroke="${ink}" stroke-width="2"/>`
      + `<text class="${inkClass(card.suit)}" x="50" y="84" font-size="44" font-weight="700" text-anchor="middle" fill="${ink}" ${FONT}>${card.rank}</text>`
      + shape(card.suit, 40, 88, 20, ink);
  }
  return shape(card.suit, 27, 47, 46, ink);
}

/**
 * The SVG markup of a card face. Options: wild (a gold frame and star: Three-Thirteen's wild
 * rank and jokers), stands (what a joker stands for, written across it).
 */
export function cardSVG(text, {wild = false, stands = null} = {}) {
  const card = parseCard(text);
  const ink = card.joker ? JOKER_INK : isRed(card.suit) ? RED : BLACK;
  const frame = wild
    ? '<rect x="3" y="3" width="94" height="134" rx="7" fill="none" stroke="#e0a800" stroke-width="5"/>'
      + shape("star", 74, 6, 20, "#e0a800", "wild")
    : "";
  const standsFor = stands || card.stands;
  const label = standsFor
    ? `<rect x="5" y="104" width="90" height="31" rx="5" fill="#fff3c4" stroke="#b58900" stroke-width="1.5"/>`
      + `<text x="50" y="128" font-size="24" font-weight="700" text-anchor="middle" class="${inkClass(parseCard(standsFor).suit)}" fill="${isRed(parseCard(standsFor).suit) ? RED : BLACK}" ${FONT}>= ${cardText(standsFor)}</text>`
    : "";
  const upside = card.joker ? "" : `<g transform="rotate(180 50 70)">${corner(card, ink)}</g>`;
  return `<svg class="card-face" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`
    + '<rect x="1" y="1" width="98" height="138" rx="8" fill="#fffdf8" stroke="#7d7d7d" stroke-width="1.5"/>'
    + corner(card, ink) + upside + centre(card, ink) + frame + label + "</svg>";
}

let backPattern = null;

/** The SVG markup of a card back. */
export function backSVG() {
  if (backPattern === null) {
    const lines = [];
    for (let k = -140; k <= 100; k += 12) {
      lines.push(`M${k} 0L${k + 140} 140`, `M${k + 140} 0L${k} 140`);
    }
    backPattern = lines.join("");
  }
  return '<svg class="card-back" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">'
    + '<rect x="1" y="1" width="98" height="138" rx="8" fill="#1f4e8c" stroke="#0d2a52" stroke-width="1.5"/>'
    + '<clipPath id="back-clip"><rect x="8" y="8" width="84" height="124" rx="5"/></clipPath>'
    + `<path d="${backPattern}" stroke="#5d8fd1" stroke-width="2" clip-path="url(#back-clip)"/>`
    + '<rect x="8" y="8" width="84" height="124" rx="5" fill="none" stroke="#dfe9f7" stroke-width="2"/>'
    + "</svg>";
}

/** A card element: <div class="card" data-card="7h"> with its SVG face. */
export function cardElement(text, options = {}) {
  const element = document.createElement("div");
  element.className = "card" + (options.wild ? " wild" : "");
  element.dataset.card = parseCard(text).text;
  element.innerHTML = cardSVG(text, options);
  element.title = cardText(text);
  element.setAttribute("role", "img");
  element.setAttribute("aria-label", cardName(options.stands ? `${parseCard(text).text}=${options.stands}` : text));
  return element;
}

export function backElement() {
  const element = document.createElement("div");
  element.className = "card back";
  element.innerHTML = backSVG();
  return element;
}
