// The table's log in words (remikit/server/static/util.js describeLog), with remikit's own
// English catalogue: the passes after a discard are one line naming who passed.
import "./setup.js";

import assert from "node:assert/strict";
import {test} from "node:test";

const {describeLog} = await import("../../remikit/server/static/util.js");

const names = ["You", "Ana", "Budi", "Citra"];
const nameOf = (seat) => names[seat];
const play = (seat, action) => ({seat, action, text: ""});

test("the passes after a discard are one line, at the last pass, naming who passed", () => {
  const plays = [
    play(0, {type: "draw", source: "stock"}),
    play(0, {type: "discard", card: "7h"}),
    play(1, {type: "pass"}),
    play(2, {type: "pass"}),
    play(3, {type: "pass"}),
    play(1, {type: "draw", source: "stock"}),
  ];
  const words = describeLog(plays, nameOf);
  assert.equal(words.length, plays.length);
  assert.deepEqual(words.slice(2, 5), [null, null, "No Rummy call: Ana, Budi, Citra"]);
  assert.equal(words[1], "You discarded 7♥");
});

test("passes before a call of Rummy are a line of their own, then the call", () => {
  const plays = [
    play(1, {type: "discard", card: "9c"}),
    play(0, {type: "pass"}),
    play(2, {type: "rummy", depth: 1}),
  ];
  const words = describeLog(plays, nameOf, [[0, "9c"]], {actions: {rummy: "act.rummy"}});
  assert.equal(words[1], "No Rummy call: You");
  assert.match(words[2], /^Budi .*Rummy/);
});

test("where players knock, a pass says which pass it is (G-3, G-8, G-6)", () => {
  const client = {knocking: true};
  const first = describeLog([play(1, {type: "pass"}), play(0, {type: "pass"})], nameOf, [], client);
  assert.equal(first.length, 2);
  assert.ok(first.every((line) => typeof line === "string" && line.startsWith(names[line.startsWith("You") ? 0 : 1])));
  const done = describeLog([play(0, {type: "knock", card: "5s"}), play(1, {type: "pass"})], nameOf, [], {
    knocking: true, actions: {knock: "act.knock"},
  });
  assert.equal(done[1], "Ana finished laying down");
});

test("a draw from the pile names the card it took", () => {
  const plays = [play(0, {type: "discard", card: "Ks"}), play(1, {type: "draw", source: "discard", depth: 1})];
  assert.equal(describeLog(plays, nameOf, [[0, "Ks"]])[1], "Ana took K♠ from the discard pile");
});
