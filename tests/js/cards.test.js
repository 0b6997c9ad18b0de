// The client's cards (remikit/server/static/cards.js): parsing, their text, sorting.
import assert from "node:assert/strict";
import {test} from "node:test";

import {cardText, isRed, isWild, parseCard, rankLabel, sortKey, wildRankLetter} from "../../remikit/server/static/cards.js";

test("a card's text parses into its rank and suit, a joker with what it stands for", () => {
  assert.deepEqual(parseCard("Th"), {rank: "T", suit: "h", joker: false, text: "Th", stands: null});
  assert.deepEqual(parseCard("Jk=9h"), {rank: null, suit: null, joker: true, text: "Jk", stands: "9h"});
  assert.equal(parseCard("Jk").stands, null);
});

test("a card's text on the table: ten is 10, a joker says what it stands for", () => {
  assert.equal(cardText("Th"), "10♥");
  assert.equal(cardText("As"), "A♠");
  assert.equal(cardText("Jk", "Joker"), "Joker");
  assert.equal(cardText("Jk=9h", "Joker"), "Joker (9♥)");
  assert.equal(rankLabel("T"), "10");
  assert.ok(isRed("h") && isRed("d") && !isRed("s") && !isRed("c"));
});

test("a wild rank makes its cards wild, and jokers always", () => {
  assert.equal(wildRankLetter(null), null);
  assert.equal(wildRankLetter("10"), "T");
  assert.ok(isWild("Tc", "T"));
  assert.ok(isWild("Jk", null));
  assert.ok(!isWild("9c", "T"));
});

test("by suit a suit stays together in rank order; by rank the ranks do; jokers and wild cards last", () => {
  const hand = ["Kh", "2s", "Jk", "Ah", "3c", "2h", "3h"];
  const bySuit = [...hand].sort((a, b) => sortKey(a, "suit", "3") - sortKey(b, "suit", "3"));
  assert.deepEqual(bySuit, ["2s", "Ah", "2h", "Kh", "3h", "3c", "Jk"]);
  const byRank = [...hand].sort((a, b) => sortKey(a, "rank") - sortKey(b, "rank"));
  assert.deepEqual(byRank, ["Ah", "2s", "2h", "3h", "3c", "Kh", "Jk"]);
});
