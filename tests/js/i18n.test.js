// The client's messages (remikit/server/static/i18n.js): remikit's catalogues, their fields
// and plural forms, in both languages.
import "./setup.js";

import assert from "node:assert/strict";
import {test} from "node:test";

globalThis.document = /** @type {any} */ ({documentElement: {lang: ""}});
const {lang, setLang, t, tn} = await import("../../remikit/server/static/i18n.js");

test("English first (the stored choice), then Indonesian, with the game's own words", async () => {
  assert.equal(lang(), "en");
  assert.equal(t("card.suit.s"), "Spades");
  assert.equal(tn("act.draw_deep", 1, {who: "Ana", k: 1}), "Ana took 1 card from the discard pile");
  assert.equal(tn("act.draw_deep", 3, {who: "Ana", k: 3}), "Ana took 3 cards from the discard pile");
  await setLang("id");
  assert.equal(lang(), "id");
  assert.equal(localStorage.getItem("remikit.lang"), "id");
  assert.equal(t("card.suit.s"), "Sekop");
  assert.equal(t("absence.seconds_unit"), "detik");
  assert.equal(tn("act.draw_deep", 3, {who: "Ana", k: 3}), "Ana mengambil 3 kartu dari buangan");
});

test("a message the catalogue lacks is its key", () => {
  assert.equal(t("no.such.message"), "no.such.message");
});
