// The lobby's form for a new table: any variant with its options and seats (a person or a
// bot of a chosen level), its settings and title. The option form is built from
// /api/variants: a select where an option lists its choices, a number box with its min and
// max, a checkbox for a boolean; labels are the messages each option names (`label`,
// `choice_labels`), else its name.

import {ownerKey} from "./absence.js";
import {has, t} from "./i18n.js";
import {form, showError, variantTitle} from "./lobby_page.js";
import {settingsFieldset} from "./table_settings.js";
import {url} from "./urls.js";
import {$, api, h, joinTable, levelStrength, NAME_KEY} from "./util.js";

const variantInfo = () => form.variants.find((v) => v.name === form.variant);

function optionValues() {
  const info = variantInfo();
  if (!form.options[info.name]) {
    form.options[info.name] = Object.fromEntries(info.options.map((o) => [o.name, o.default]));
  }
  return form.options[info.name];
}

function seatList() {
  const info = variantInfo();
  const players = Number(optionValues().players) || 4;
  let seats = form.seats[info.name];
  if (!seats) {
    seats = [{kind: "person", level: info.default_bot}];
    form.seats[info.name] = seats;
  }
  while (seats.length < players) seats.push({kind: "bot", level: info.default_bot});
  seats.length = players;
  return seats;
}

const message = (key, fallback) => (key && has(key) ? t(key) : fallback);

const bound = (n) => (n === null || n === undefined ? null : String(n));

// The help beside an option: what it changes, with a link to its rule on the rules page.
function optionHelp(option, id) {
  if (!option.help || !has(option.help)) return null;
  const lang = document.documentElement.lang;
  const rule = option.rule
    ? h("a", {href: url(`/rules/${form.variant}?lang=${lang}#${option.rule}`), target: "_blank", rel: "noopener"}, option.rule)
    : null;
  return h("small", {class: "help", id: `help-${id}`}, t(option.help), rule ? " " : null, rule);
}

function optionField(option, values) {
  const id = `opt-${option.name}`;
  const label = message(option.label, option.name);
  const value = values[option.name];
  const set = (v) => { values[option.name] = v; };
  const help = optionHelp(option, id);
  const described = help ? {"aria-describedby": `help-${id}`} : {};
  let input;
  if (option.type === "boolean") {
    input = h("input", {type: "checkbox", id, name: option.name, checked: Boolean(value), ...described,
      onchange: (e) => set(e.target.checked)});
    return h("div", {class: "option-field"}, h("label", {class: "check", for: id}, input, label), help);
  }
  if (option.choices) {
    input = h("select", {id, name: option.name, ...described, onchange: (e) => set(option.type === "integer" ? Number(e.target.value) : e.target.value)},
      option.choices.map((c, i) => h("option", {value: String(c), selected: String(c) === String(value)},
        message(option.choice_labels?.[i], String(c)))));
  } else if (option.type === "integer") {
    input = h("input", {type: "number", id, name: option.name, value: String(value), inputmode: "numeric", ...described,
      min: bound(option.min), max: bound(option.max),
      disabled: option.min !== null && option.min === option.max,
      step: "1",
      onchange: (e) => {
        set(Number(e.target.value));
        if (option.name === "players") renderNewTable();
      }});
  } else {
    input = h("input", {type: "text", id, name: option.name, value: String(value), onchange: (e) => set(e.target.value)});
  }
  return h("div", {class: "option-field"}, h("label", {for: id}, h("span", {}, label), input), help);
}

function seatRow(info, seat, index) {
  const kind = h("select", {name: `seat-${index}-kind`, id: `seat-${index}-kind`, "aria-label": t("common.seat", {n: index + 1}),
    onchange: (e) => { seat.kind = e.target.value; renderNewTable(); }},
  h("option", {value: "person", selected: seat.kind === "person"}, t("lobby.person")),
  h("option", {value: "bot", selected: seat.kind === "bot"}, t("lobby.bot")));
  const level = seat.kind === "bot"
    ? h("select", {name: `seat-${index}-level`, id: `seat-${index}-level`, onchange: (e) => { seat.level = e.target.value; }},
      info.bots.map((b) => h("option", {value: b, selected: b === seat.level}, levelStrength(b, info.strength?.[b]))))
    : null;
  return h("div", {class: "seat-row", dataset: {seat: String(index)}},
    h("span", {class: "seat-no"}, t("common.seat", {n: index + 1})), kind, level);
}

export function renderNewTable() {
  const box = $("#new-table");
  if (!form.variants.length) return;
  const info = variantInfo();
  const values = optionValues();
  const seats = seatList();
  const people = seats.filter((s) => s.kind === "person").length;
  const variant = h("select", {id: "variant", name: "variant", onchange: (e) => { form.variant = e.target.value; renderNewTable(); }},
    form.variants.map((v) => h("option", {value: v.name, selected: v.name === form.variant}, variantTitle(v, document.documentElement.lang))));
  const name = h("input", {id: "create-name", name: "name", maxlength: "24", autocomplete: "nickname",
    placeholder: t("lobby.name_placeholder"), value: form.name, oninput: (e) => { form.name = e.target.value; }});
  const title = h("input", {id: "create-title", name: "title", maxlength: "60", value: form.title,
    oninput: (e) => { form.title = e.target.value; }});
  box.replaceChildren(h("form", {id: "create-form", onsubmit: (e) => { e.preventDefault(); create(); }},
    h("h2", {}, t("lobby.new_table")),
    h("label", {for: "variant"}, h("span", {}, t("lobby.variant")), variant),
    h("a", {class: "rules-link", id: "rules-link", href: url(`/rules/${info.name}?lang=${document.documentElement.lang}`),
      target: "_blank", rel: "noopener"}, t("lobby.rules_of", {variant: variantTitle(info, document.documentElement.lang)})),
    h("fieldset", {class: "options"}, h("legend", {}, t("lobby.options")),
      info.options.map((option) => optionField(option, values))),
    h("fieldset", {class: "seats"}, h("legend", {}, t("lobby.seats")),
      seats.map((seat, index) => seatRow(info, seat, index))),
    settingsFieldset(form.settings, info.bots),
    h("label", {for: "create-title"}, h("span", {}, t("lobby.title_field")), title),
    people ? h("label", {for: "create-name"}, h("span", {}, t("lobby.your_name")), name) : null,
    h("button", {type: "submit", class: "btn primary", id: "create-submit", disabled: form.creating},
      people ? t("lobby.create") : t("lobby.create_watch"))));
}

async function create() {
  const info = variantInfo();
  const seats = seatList();
  const person = seats.findIndex((s) => s.kind === "person");
  const name = form.name.trim();
  if (person >= 0 && !name) {
    showError(t("lobby.need_name"));
    $("#create-name")?.focus();
    return;
  }
  showError("");
  form.creating = true;
  renderNewTable();
  try {
    const body = {
      variant: info.name,
      options: optionValues(),
      seats: seats.map((s) => (s.kind === "person" ? {kind: "person"} : {kind: "bot", level: s.level})),
      settings: form.settings,
      lang: document.documentElement.lang,
    };
    if (form.title.trim()) body.title = form.title.trim();
    const created = await api("/api/tables", body);
    const code = created.table.id;
    localStorage.setItem(ownerKey(code), created.owner_token);
    if (person >= 0) {
      await joinTable(code, {name, seat: person, lang: document.documentElement.lang});
      localStorage.setItem(NAME_KEY, name);
    }
    location.href = created.link;
  } catch (error) {
    showError(error.message);
  } finally {
    form.creating = false;
    renderNewTable();
  }
}
