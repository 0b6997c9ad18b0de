// The organiser's tools for the current round while it has not started (re-pair it; swap
// two players, the seating quality shown before and after), and the pairings to avoid:
// club-mates apart in every round, named pairs never at one table.

import {t} from "../i18n.js";
import {h} from "../util.js";
import {base, call} from "./common.js";
import {qualityText} from "./round_view.js";

const as = {role: "organiser"};
const tools = {round: null, pair: null, preview: null, result: null, repairing: false, avoidPick: [null, null]};

/** Quality before → after, as two lines. */
function beforeAfter(answer, id) {
  return h("dl", {class: "before-after", id},
    h("dt", {}, t("comp.col.before")), h("dd", {dataset: {side: "before"}}, qualityText(answer.before)),
    h("dt", {}, t("comp.col.after")), h("dd", {dataset: {side: "after"}}, qualityText(answer.after)));
}

/** Re-pair and swap for ``round`` (null unless it is seated); ``reload`` asks the server again. */
export function roundTools(round, nameOf, {reload, render, error}) {
  if (tools.round !== round.number) Object.assign(tools, {round: round.number, pair: null, preview: null, result: null, repairing: false});
  if (round.status !== "seated") return null;
  const send = async (path, body, keep) => {
    try {
      const answer = await call(base(`/rounds/${round.number}${path}`), {body, ...as});
      error.show(null);
      keep(answer);
    } catch (err) {
      error.show(err);
    }
  };
  const options = [];
  for (const tb of round.tables) {
    for (const seat of tb.seats) {
      if (seat.player) options.push([seat.player, `${nameOf(seat.player)} · ${t("comp.print.sits", {table: tb.number, position: seat.position})}`]);
    }
  }
  for (const pid of round.byes || []) options.push([pid, `${nameOf(pid)} · ${t("comp.admin.bye")}`]);
  const pair = tools.pair || [options[0]?.[0], options[options.length > 4 ? 4 : 1]?.[0]];
  const select = (id, i) => h("select", {id, onchange: (e) => { pair[i] = e.target.value; tools.pair = pair; tools.preview = null; render(); }},
    options.map(([value, label]) => h("option", {value, selected: value === pair[i]}, label)));
  const preview = () => send("/swap/preview", {players: pair}, (answer) => { tools.pair = pair; tools.preview = answer; render(); });
  const swap = () => send("/swap", {players: pair}, (answer) => { tools.preview = null; tools.result = answer; reload(); });
  const repair = () => send("/repair", {}, (answer) => { tools.repairing = false; tools.result = answer; reload(); });
  const asking = tools.repairing
    ? h("div", {class: "row wrap notice"}, h("span", {}, t("comp.admin.repair_sure", {n: round.number})),
      h("button", {type: "button", class: "btn small primary", id: "repair-confirm", onclick: repair}, t("comp.admin.repair")),
      h("button", {type: "button", class: "btn small ghost", onclick: () => { tools.repairing = false; render(); }}, t("comp.cancel")))
    : h("button", {type: "button", class: "btn small", id: "repair", onclick: () => { tools.repairing = true; render(); }}, t("comp.admin.repair"));
  return h("section", {class: "seating-tools", id: "seating-tools"},
    h("h4", {}, t("comp.admin.before_start")),
    h("p", {class: "muted"}, t("comp.admin.repair_help")),
    asking,
    h("div", {class: "row wrap swap-form"},
      h("label", {class: "inline", for: "swap-a"}, t("comp.admin.swap"), select("swap-a", 0)),
      h("label", {class: "inline", for: "swap-b"}, "↔", select("swap-b", 1)),
      h("button", {type: "button", class: "btn small", id: "swap-preview", onclick: preview}, t("comp.admin.swap_preview")),
      h("button", {type: "button", class: "btn small primary", id: "swap-do", onclick: swap, disabled: !tools.preview}, t("comp.admin.swap_do"))),
    tools.preview ? beforeAfter(tools.preview, "swap-quality") : null,
    tools.result ? beforeAfter(tools.result, "changed-quality") : null);
}

/** The pairings to avoid: club-mates apart every round, and named pairs (``avoid`` as GET …/avoid). */
export function avoidSection(players, avoid, {act}) {
  if (!avoid) return null;
  const nameOf = new Map(players.map((p) => [p.id, p.name]));
  const save = (changes) => act("/avoid", {clubs_every_round: avoid.clubs_every_round, pairs: avoid.pairs, ...changes});
  const chosen = tools.avoidPick;
  const pick = (id, i) => h("select", {id, onchange: (e) => { chosen[i] = e.target.value; }},
    h("option", {value: ""}, "–"),
    players.filter((p) => p.status !== "disqualified").map((p) => h("option", {value: p.id, selected: p.id === chosen[i]}, p.name)));
  const add = () => {
    if (!chosen[0] || !chosen[1]) return;
    save({pairs: [...avoid.pairs, [chosen[0], chosen[1]]]});
    tools.avoidPick = [null, null];
  };
  const pairs = avoid.pairs.map((pair, i) => h("li", {dataset: {pair: pair.join("-")}},
    pair.map((pid) => nameOf.get(pid) || pid).join(" ↔ "), " ",
    h("button", {type: "button", class: "btn small ghost", onclick: () => save({pairs: avoid.pairs.filter((_, j) => j !== i)})}, t("comp.admin.avoid_remove"))));
  return h("div", {class: "avoid", id: "avoid"},
    h("h3", {}, t("comp.admin.avoid")),
    h("label", {class: "check"}, h("input", {type: "checkbox", id: "clubs-every-round", checked: avoid.clubs_every_round,
      onchange: (e) => save({clubs_every_round: e.target.checked})}), t("comp.admin.clubs_every_round")),
    pairs.length ? h("ul", {class: "avoid-pairs"}, pairs) : null,
    h("div", {class: "row wrap"}, pick("avoid-a", 0), "↔", pick("avoid-b", 1),
      h("button", {type: "button", class: "btn small", id: "avoid-add", onclick: add}, t("comp.admin.avoid_add"))),
    h("p", {class: "muted"}, t("comp.admin.avoid_help")));
}
