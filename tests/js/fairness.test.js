// The browser's fair-deal checks (remikit/server/static/fairness.js) against the known-answer
// vectors the server's code is held to (tests/data/fairness_vectors.json, docs/fairness.md).
import assert from "node:assert/strict";
import {readFileSync} from "node:fs";
import {test} from "node:test";

import {
  ByteStream, commitment, dealKey, deckSeed, fromHex, malformed, shuffled, toHex,
} from "../../remikit/server/static/fairness.js";

const VECTORS = JSON.parse(readFileSync(new URL("../data/fairness_vectors.json", import.meta.url), "utf8"));

for (const vector of VECTORS.vectors) {
  test(`${vector.title}: the commitment, key, deck seed and byte stream of the vector`, async () => {
    const secret = fromHex(vector.secret, 32);
    assert.equal(toHex(await commitment(vector.table, vector.deal, secret)), vector.commitment);
    const contributions = vector.contributions.map((c) => (c === null ? null : fromHex(c, 32)));
    const key = await dealKey(secret, contributions);
    assert.equal(toHex(key), vector.key);
    const seed = await deckSeed(key);
    assert.equal(toHex(seed), vector.deck_seed);
    const stream = new ByteStream(seed);
    assert.equal(toHex(await stream.read(vector.stream.length / 2)), vector.stream);
  });
}

test("the shuffle of a seed puts the items in the vector's order", async () => {
  const {seed, items, order} = VECTORS.shuffle;
  const out = await shuffled([...Array(items).keys()], fromHex(seed, seed.length / 2));
  assert.deepEqual(out, order);
});

test("fairness data that is not well formed is named as such", () => {
  const good = VECTORS.vectors[0];
  const entry = {version: 1, table: good.table, deal: good.deal, commitment: good.commitment, contributions: good.contributions, secret: good.secret};
  assert.equal(malformed(entry, good.contributions.length), null);
  assert.match(malformed({...entry, commitment: "12"}, good.contributions.length), /commitment/);
  assert.match(malformed(entry, good.contributions.length + 1), /contributions/);
});
