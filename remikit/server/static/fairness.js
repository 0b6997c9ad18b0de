// Provably fair deals, checked in the browser (docs/fairness.md): the commitment, the key
// and the deck of a deal computed here with Web Crypto, from nothing the server says but
// the deal's fairness data and the variant's unshuffled deck, whose order this module
// checks itself (every variant's deck comes from the server, so it names no variant).
// Everything is byte-exact with remikit/fairness.py and the remikit shuffle
// (remikit/shuffle.py); this module imports no other, so it trusts no other code of the
// page.
//
// Every hash is SHA-256 of fields, each its length (4 bytes, big-endian) then its bytes:
//   commitment = H("remikit/fairness/1/commitment", table (UTF-8), deal, secret)
//   key        = H("remikit/fairness/1/key", secret, seats, contribution of each seat)
//   deck seed  = H("remikit/fairness/1/deck", key)
// and the deck is the remikit shuffle of the variant's unshuffled deck with that seed.

export const VERSION = 1;
const HEX = /^[0-9a-f]*$/;
const encoder = new TextEncoder();

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The bytes of `size` bytes in lowercase hex; an Error when `text` is not that. */
export function fromHex(text, size) {
  if (typeof text !== "string" || text.length !== 2 * size || !HEX.test(text)) {
    throw new Error(`not ${size} bytes in lowercase hex`);
  }
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((total, p) => total + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** SHA-256 of `bytes`: Web Crypto's where the page has it (https, localhost), else
 * {@link sha256Here} (a page over plain http on a local network). */
async function sha256(bytes) {
  if (!globalThis.crypto?.subtle) return sha256Here(bytes);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 computed here (FIPS 180-4), for pages without Web Crypto. */
export function sha256Here(bytes) {
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bytes.length / 2 ** 29));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);
  const hash = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let at = 0; at < padded.length; at += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(at + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => { hash[i] += value; });
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  hash.forEach((value, i) => outView.setUint32(4 * i, value));
  return out;
}

/** An unsigned 4-byte big-endian integer. */
function number(n) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

/** SHA-256 of `fields` (Uint8Arrays), each preceded by its length. */
export function fieldHash(...fields) {
  return sha256(concat(fields.flatMap((f) => [number(f.length), f])));
}

const label = (purpose) => encoder.encode(`remikit/fairness/${VERSION}/${purpose}`);

/** The commitment published before deal `deal` (from 1) of table `table`. */
export function commitment(table, deal, secret) {
  return fieldHash(label("commitment"), encoder.encode(table), number(deal), secret);
}

/** The key of a deal: its secret and each seat's contribution (null: none), in seat order. */
export function dealKey(secret, contributions) {
  const parts = contributions.map((c) => c || new Uint8Array(0));
  return fieldHash(label("key"), secret, number(parts.length), ...parts);
}

/** The shuffle seed of the deck of the deal of `key`. */
export function deckSeed(key) {
  return fieldHash(label("deck"), key);
}

/** The remikit byte stream of `seed`: block i is SHA-256(seed || i as 8 bytes, big-endian). */
export class ByteStream {
  constructor(seed) {
    this.seed = seed;
    this.block = 0; // the index of the next block to make
    this.buffer = new Uint8Array(0);
  }

  /** The next `count` bytes of the stream. */
  async read(count) {
    while (this.buffer.length < count) {
      const counter = new Uint8Array(8);
      new DataView(counter.buffer).setBigUint64(0, BigInt(this.block));
      this.buffer = concat([this.buffer, await sha256(concat([this.seed, counter]))]);
      this.block += 1;
    }
    const out = this.buffer.slice(0, count);
    this.buffer = this.buffer.slice(count);
    return out;
  }

  /** An integer from 0 to n - 1, unbiased: the low bits of as many bytes as n - 1 needs,
   * read again while they make n or more. `n` a Number or a BigInt; the answer the same. */
  async below(n) {
    const big = BigInt(n);
    if (big < 1n) throw new RangeError(`no integer is below ${n} and at least 0`);
    if (big === 1n) return typeof n === "bigint" ? 0n : 0;
    const bits = (big - 1n).toString(2).length;
    const size = Math.ceil(bits / 8);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      let x = 0n;
      for (const b of await this.read(size)) x = (x << 8n) | BigInt(b);
      x &= mask;
      if (x < big) return typeof n === "bigint" ? x : Number(x);
    }
  }
}

/** A new array of `items` in the order the shuffle of `seed` gives (Fisher–Yates, the last
 * place first). */
export async function shuffled(items, seed) {
  const out = [...items];
  const stream = new ByteStream(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Number(await stream.below(i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// -- the unshuffled deck ----------------------------------------------------------------
// The server names each variant's unshuffled deck (a table's state, POST /api/deck for a
// record); what it cannot choose is the order: were it free to, it could order the deck so
// that the key's shuffle gives any deck it liked.

const NATURALS = "cdhs".split("").flatMap((suit) => "A23456789TJQK".split("").map((rank) => rank + suit));

/** Why `deck` is no unshuffled deck in remikit's order (docs/fairness.md §4), or null: each
 * natural card in the order Ac 2c … Kc Ad … Ks, once per copy the deck has, round after
 * round (a deck of 52 `decks` times), then the jokers. */
export function unshuffledProblem(deck) {
  const cards = new Set([...NATURALS, "Jk"]);
  if (!Array.isArray(deck) || !deck.length || deck.some((card) => !cards.has(card))) {
    return "the unshuffled deck must be a list of cards";
  }
  const copies = new Map();
  for (const card of deck) copies.set(card, (copies.get(card) || 0) + 1);
  const ordered = [];
  for (let round = 0; ordered.length < deck.length - (copies.get("Jk") || 0); round++) {
    ordered.push(...NATURALS.filter((card) => (copies.get(card) || 0) > round));
  }
  ordered.push(...Array(copies.get("Jk") || 0).fill("Jk"));
  return ordered.join(" ") === deck.join(" ") ? null : "the unshuffled deck is not in remikit's order";
}

/** The cards seat `seat` is dealt from `deck` (top first): one at a time from the seat after
 * the dealer, `size` each. */
export function dealtHand(deck, {seat, dealer, players, size}) {
  const first = (((seat - dealer - 1) % players) + players) % players;
  return Array.from({length: size}, (_, j) => deck[first + j * players]);
}

/** The deck of a deal whose secret is known: the shuffle of the unshuffled deck with the
 * seed of the key. `secret` and `contributions` in hex, as a record holds them. */
export async function fairDeck(full, secret, contributions) {
  const key = await dealKey(fromHex(secret, 32), contributions.map((c) => (c === null ? null : fromHex(c, 32))));
  return shuffled(full, await deckSeed(key));
}

/** A new contribution: 32 random bytes, lowercase hex. */
export function newContribution() {
  return toHex(crypto.getRandomValues(new Uint8Array(32)));
}

/** Why a deal's fairness data (a record's hand `fairness`, a state's `fairness.ended`) is
 * not well formed, or null. */
export function malformed(entry, players) {
  if (!entry || typeof entry !== "object") return "fairness must be an object";
  if (entry.version !== VERSION) return `fairness version ${entry.version} is not one remikit knows (1)`;
  if (typeof entry.table !== "string" || !entry.table) return "fairness table must be the table's id";
  if (!Number.isInteger(entry.deal) || entry.deal < 1 || entry.deal >= 2 ** 32) return "fairness deal must be a deal number from 1";
  const list = entry.contributions;
  if (!Array.isArray(list) || list.length < 1 || list.length > 64) return "fairness contributions must be a list, one entry per seat";
  if (players !== undefined && list.length !== players) return `fairness has ${list.length} contributions for ${players} seats`;
  const hex = (value, size) => typeof value === "string" && value.length === 2 * size && HEX.test(value);
  if (!hex(entry.commitment, 32)) return "fairness commitment must be 32 bytes in lowercase hex";
  const bad = list.findIndex((c) => c !== null && !hex(c, 32));
  if (bad >= 0) return `fairness contribution of seat ${bad} must be 32 bytes in lowercase hex`;
  if (entry.secret !== null && entry.secret !== undefined && !hex(entry.secret, 32)) return "fairness secret must be 32 bytes in lowercase hex";
  return null;
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join(" ") === [...b].sort().join(" ");

/**
 * Check an ended deal against what this browser saw: a list of {ok, key, fields}.
 * `entry`: the deal's fairness data, its secret revealed; `deck`: the unshuffled deck;
 * `seen` (each part optional): {commitment: the one shown before the deal started, seat,
 * contribution: what this seat sent, dealer, hand: the cards dealt to the seat, upcard:
 * the card turned up after the deal}. The keys: `secret` (it matches the commitment),
 * `commitment_seen`, `contribution`, `hand`, `upcard`; `malformed` alone when the data or
 * the unshuffled deck is not well formed.
 * @param {any} entry
 * @param {{deck: string[], players: number, seen?: {commitment?: string, seat?: number | null,
 *   contribution?: string, dealer?: number, hand?: string[], upcard?: string}}} options
 */
export async function verifyDeal(entry, {deck: full, players, seen = {}}) {
  const reason = malformed(entry, players) || (entry.secret ? null : "the secret is not revealed")
    || unshuffledProblem(full);
  if (reason) return [{ok: false, key: "malformed", fields: {reason}}];
  const checks = [];
  const computed = toHex(await commitment(entry.table, entry.deal, fromHex(entry.secret, 32)));
  checks.push({ok: computed === entry.commitment, key: "secret", fields: {computed, published: entry.commitment}});
  if (seen.commitment) {
    checks.push({ok: seen.commitment === entry.commitment, key: "commitment_seen",
      fields: {seen: seen.commitment, published: entry.commitment}});
  }
  if (seen.contribution && seen.seat !== null && seen.seat !== undefined) {
    const recorded = entry.contributions[seen.seat] ?? null;
    checks.push({ok: recorded === seen.contribution, key: "contribution",
      fields: {seat: seen.seat, sent: seen.contribution, used: recorded}});
  }
  const deck = await fairDeck(full, entry.secret, entry.contributions);
  const size = seen.hand ? seen.hand.length : 0; // every seat is dealt as many cards
  if (seen.hand && seen.seat !== null && seen.seat !== undefined && seen.dealer !== undefined) {
    const expected = dealtHand(deck, {seat: seen.seat, dealer: seen.dealer, players, size});
    checks.push({ok: sameCards(expected, seen.hand), key: "hand", fields: {expected, dealt: seen.hand}});
  }
  if (seen.hand && seen.upcard) {
    const expected = deck[size * players];
    checks.push({ok: expected === seen.upcard, key: "upcard", fields: {expected, seen: seen.upcard}});
  }
  return checks;
}

/**
 * Check every hand of a game record (docs/contract.md) as remikit.fairness.verify_record
 * does: per hand {deal, verified, problems?}, each problem {code, …fields} with the codes
 * and fields of Python's Mismatch (no_fairness, malformed {reason}, table, deal_number,
 * seats {found, expected}, no_secret, commitment, deck {position (1: the top), found,
 * expected, differ}). `game(variant, options)` gives the {deck (unshuffled), players} of
 * the record's variant and options (the server's POST /api/deck). An Error for a record
 * whose variant or hands cannot be read.
 */
export async function verifyRecord(record, game) {
  if (!record || typeof record !== "object") throw new Error("a record is a JSON object");
  const {deck: full, players} = await game(record.variant, record.options === undefined ? {} : record.options);
  const problem = unshuffledProblem(full);
  if (problem) throw new Error(problem);
  if (!Array.isArray(record.hands) || !record.hands.length) throw new Error("hands must be a list (one entry per deal)");
  let table = null;
  const out = [];
  for (const [index, hand] of record.hands.entries()) {
    const deal = index + 1;
    if (!hand || !Array.isArray(hand.deck)) throw new Error(`hand ${deal} has no deck`);
    const problems = await checkHand(hand, {deal, full, players, table});
    if (hand.fairness && !malformed(hand.fairness)) table = table || hand.fairness.table;
    out.push(problems.length ? {deal, verified: false, problems} : {deal, verified: true});
  }
  return out;
}

async function checkHand(hand, {deal, full, players, table}) {
  const fair = hand.fairness;
  if (fair === null || fair === undefined) return [{code: "no_fairness"}];
  const reason = malformed(fair);
  if (reason) return [{code: "malformed", reason}];
  const problems = [];
  if (table !== null && fair.table !== table) problems.push({code: "table", found: fair.table, expected: table});
  if (fair.deal !== deal) problems.push({code: "deal_number", found: fair.deal, expected: deal});
  if (fair.contributions.length !== players) {
    problems.push({code: "seats", found: fair.contributions.length, expected: players});
  }
  if (fair.secret === null || fair.secret === undefined) return [...problems, {code: "no_secret"}];
  if (toHex(await commitment(fair.table, fair.deal, fromHex(fair.secret, 32))) !== fair.commitment) {
    problems.push({code: "commitment"});
  }
  const expected = await fairDeck(full, fair.secret, fair.contributions);
  const found = hand.deck;
  const wrong = [];
  for (let i = 0; i < Math.min(found.length, expected.length); i++) if (found[i] !== expected[i]) wrong.push(i);
  if (wrong.length || found.length !== expected.length) {
    const first = wrong.length ? wrong[0] : Math.min(found.length, expected.length);
    problems.push({code: "deck", position: first + 1, found: found[first] ?? null, expected: expected[first] ?? null,
      differ: wrong.length + Math.abs(found.length - expected.length)});
  }
  return problems;
}
