// A new competition (/competitions/new): its name, date and venue, rounds and games, the
// tie-breaks in the order they count, how a field that is not a multiple of four is
// filled, how absences score and the ranking, whether online tables deal duplicate, when
// the standings are published, and the organiser's and referees' passwords.
// Made, it opens the organiser's page with the organiser's login kept. Or a competition
// made from a file exported by a server (admin_tools.js).

import {N_, onLangChange, t} from "../i18n.js";
import {url} from "../urls.js";
import {h, levelName} from "../util.js";
import {importEventForm} from "./admin_tools.js";
import {call, errorLine, formField, header, keepLogin} from "./common.js";

const TIE_BREAKS = {
  games_won: N_("comp.tie.games_won"), ace_closes: N_("comp.tie.ace_closes"), joker_closes: N_("comp.tie.joker_closes"),
  best_game: N_("comp.tie.best_game"), fewest_dead: N_("comp.tie.fewest_dead"),
  luck_adjusted: N_("comp.tie.luck_adjusted"),
};
const LEVELS = ["random", "greedy", "strong", "expert"];
const ABSENCE_RULES = {
  round_mean: N_("comp.new.absence.round_mean"), round_lowest: N_("comp.new.absence.round_lowest"),
  fixed: N_("comp.new.absence.fixed"), zero: N_("comp.new.absence.zero"),
};
const order = Object.keys(TIE_BREAKS); // the order the tie-breaks count in, changed with ↑
const chosen = new Set(order.filter((name) => name !== "luck_adjusted")); // that one needs duplicate deals
const error = errorLine();

function field(id, label, input) {
  input.id = id;
  input.name = id.replace(/^new-/, "");
  return h("label", {for: id}, label, input);
}

function choice(id, label, values, chosen) {
  return field(id, label, h("select", {}, values.map(([value, text]) =>
    h("option", {value, selected: value === chosen}, text))));
}

function render() {
  const typed = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#new-form input:not([name=tie]), #new-form select"))]
    .map((input) => [input.id, input.type === "checkbox" ? input.checked : input.value]);
  draw();
  for (const [id, value] of typed) {
    const input = formField(String(id));
    if (input.type === "checkbox") input.checked = Boolean(value); else input.value = String(value);
  }
}

function draw() {
  header(t("comp.new.title"));
  const today = new Date().toISOString().slice(0, 10);
  const ties = h("ol", {class: "tie-order"}, order.map((name, i) => h("li", {class: "row", dataset: {tie: name}},
    h("label", {class: "check"}, h("input", {type: "checkbox", name: "tie", value: name, checked: chosen.has(name),
      onchange: (e) => { if (e.target.checked) chosen.add(name); else chosen.delete(name); }}), t(TIE_BREAKS[name])),
    i ? h("button", {type: "button", class: "btn ghost small", "aria-label": t("comp.new.tie_up", {name: t(TIE_BREAKS[name])}),
      onclick: () => { [order[i - 1], order[i]] = [order[i], order[i - 1]]; render(); /** @type {HTMLElement | null} */ (document.querySelector(`[data-tie="${name}"] button`))?.focus(); }}, "↑") : null)));
  const form = h("form", {id: "new-form", class: "card-box comp-form", onsubmit: submit},
    h("h1", {}, t("comp.new.title")),
    field("new-name", t("comp.field.name"), h("input", {required: true, maxlength: 80})),
    h("div", {class: "row wrap"},
      field("new-date", t("comp.field.date"), h("input", {type: "date", value: today})),
      field("new-venue", t("comp.field.venue"), h("input", {maxlength: 80}))),
    h("div", {class: "row wrap"},
      field("new-rounds", t("comp.field.rounds"), h("input", {type: "number", min: 1, max: 20, value: 3, required: true})),
      field("new-games", t("comp.field.games"), h("input", {type: "number", min: 1, max: 10, value: 4, required: true}))),
    h("fieldset", {id: "new-ties"}, h("legend", {}, t("comp.field.tie_breaks")), h("p", {class: "muted"}, t("comp.new.tie_help")), ties),
    h("fieldset", {},
      h("legend", {}, t("comp.field.fill")),
      choice("new-fill", t("comp.field.fill_how"), [["bots", t("comp.fill.bots")], ["byes", t("comp.fill.byes")]], "bots"),
      choice("new-bot-level", t("comp.field.bot_level"), LEVELS.map((l) => [l, levelName(l)]), "greedy"),
    ),
    h("fieldset", {id: "new-absences"},
      h("legend", {}, t("comp.field.absences")), h("p", {class: "muted"}, t("comp.new.absence_help")),
      h("div", {class: "row wrap"},
        choice("new-absence", t("comp.field.absence_rule"), Object.entries(ABSENCE_RULES).map(([r, key]) => [r, t(key)]), "round_mean"),
        field("new-absence-points", t("comp.field.absence_points"), h("input", {type: "number", min: -1000, max: 1000, value: -60}))),
      h("div", {class: "row wrap"},
        choice("new-rank-by", t("comp.field.rank_by"), [["total", t("comp.rank.total")], ["per_game", t("comp.rank.per_game")]], "total"),
        field("new-min-games", t("comp.field.min_games"), h("input", {type: "number", min: 0, max: 200, value: 0})))),
    h("label", {class: "check"}, h("input", {type: "checkbox", id: "new-clubs-apart", checked: true}), t("comp.field.clubs_apart")),
    h("label", {class: "check"}, h("input", {type: "checkbox", id: "new-duplicate"}), t("comp.field.duplicate")),
    choice("new-publish", t("comp.field.publish"), [["live", t("comp.publish.live")], ["round", t("comp.publish.round")]], "live"),
    h("fieldset", {},
      h("legend", {}, t("comp.field.passwords")),
      h("p", {class: "muted"}, t("comp.field.password_help")),
      field("new-organiser-password", t("comp.field.organiser_password"), h("input", {type: "password", required: true, minlength: 10, autocomplete: "new-password"})),
      field("new-referee-password", t("comp.field.referee_account"), h("input", {type: "password", minlength: 10, autocomplete: "new-password"}))),
    error.element,
    h("button", {type: "submit", class: "btn primary", id: "new-submit"}, t("comp.new.create")));
  document.getElementById("app").replaceChildren(form, importEventForm(error));
}

/** One rule for every kind of absence (late entries and withdrawals follow "missed"). */
function absences(rule, points) {
  const one = rule === "fixed" ? {rule, points: Number(points)} : {rule};
  return {bye: one, missed: one};
}

async function submit(event) {
  event.preventDefault();
  const value = (id) => formField(id).value;
  const duplicate = formField("new-duplicate").checked;
  const body = {
    name: value("new-name").trim(), date: value("new-date"), venue: value("new-venue").trim(),
    rounds: Number(value("new-rounds")), games: Number(value("new-games")),
    tie_breaks: order.filter((name) => chosen.has(name) && (duplicate || name !== "luck_adjusted")),
    fill: value("new-fill"), bot_level: value("new-bot-level"), absences: absences(value("new-absence"), value("new-absence-points")),
    rank_by: value("new-rank-by"), min_games: Number(value("new-min-games")),
    clubs_apart: formField("new-clubs-apart").checked, duplicate, publish: value("new-publish"),
    organiser_password: value("new-organiser-password"), referee_password: value("new-referee-password") || null,
  };
  const button = /** @type {HTMLButtonElement} */ (document.getElementById("new-submit"));
  button.disabled = true;
  try {
    const made = await call("/api/competitions", {body});
    keepLogin("organiser", made.token, "organiser", made.competition.id);
    location.assign(made.competition.links?.admin || url(`/competitions/${made.competition.id}/admin`));
  } catch (err) {
    error.show(err);
    button.disabled = false;
  }
}

render();
onLangChange(render);
