// The table page's reconnecting (remikit/server/static/reconnect.js): the wait before each
// try, and the last state kept in the tab for a reload without network.
import assert from "node:assert/strict";
import {test} from "node:test";

import {forgetState, keepState, keptState, retryDelay} from "../../remikit/server/static/reconnect.js";

const store = new Map();
globalThis.sessionStorage = /** @type {Storage} */ (/** @type {unknown} */ ({
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => { store.set(key, String(value)); },
  removeItem: (key) => { store.delete(key); },
}));

test("the wait doubles from 0.3 s to at most 5 s, a quarter more or less at random", () => {
  const middle = () => 0.5;
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map((n) => retryDelay(n, middle)),
    [300, 600, 1200, 2400, 4800, 5000, 5000, 5000]);
  assert.equal(retryDelay(0, () => 0), 225);
  assert.equal(retryDelay(0, () => 1), 375);
  assert.equal(retryDelay(1e9, () => 1), 6250);
});

test("the last state is kept per table until forgotten", () => {
  const message = {type: "state", state_id: 7, view: {hand: ["Ah"]}, table: {}};
  assert.equal(keptState("AAAA"), null);
  keepState("AAAA", {me: 0, myName: "Wati", message});
  assert.deepEqual(keptState("AAAA"), {me: 0, myName: "Wati", message});
  assert.equal(keptState("BBBB"), null);
  forgetState("AAAA");
  assert.equal(keptState("AAAA"), null);
});

test("what is not a kept state reads as none", () => {
  store.set("remikit.last.CCCC", "{not json");
  assert.equal(keptState("CCCC"), null);
  store.set("remikit.last.CCCC", JSON.stringify({me: 0}));
  assert.equal(keptState("CCCC"), null);
});

test("a full storage leaves the page as it was", () => {
  const full = globalThis.sessionStorage;
  globalThis.sessionStorage = /** @type {Storage} */ (/** @type {unknown} */ ({
    setItem: () => { throw new Error("QuotaExceededError"); },
  }));
  assert.doesNotThrow(() => keepState("DDDD", {me: 0, message: {view: {}}}));
  globalThis.sessionStorage = full;
});
