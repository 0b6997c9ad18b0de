// A table's settings (docs/protocol.md §3.3): chosen in the lobby's form, shown to everyone
// at the table.

import {N_, t} from "./i18n.js";
import {h, levelName} from "./util.js";

export const DEFAULT_SETTINGS = {turn_time: 60, grace: 60, stand_in: "greedy", bot_speed: "normal", hints: true};
const TURN_TIMES = [null, 30, 60, 120, 300];
const GRACES = [0, 30, 60, 120, 300];
const SPEEDS = {slow: N_("settings.speed_slow"), normal: N_("settings.speed_normal"), fast: N_("settings.speed_fast")};

const seconds = (value) => (value === null ? t("settings.off") : t("settings.seconds", {n: value}));

function field(id, label, help, control) {
  return h("label", {for: id, class: "setting"}, h("span", {}, label), control,
    h("small", {class: "help", id: `help-${id}`}, help));
}

function choice(id, values, current, text, onpick) {
  return h("select", {id, "aria-describedby": `help-${id}`, onchange: (e) => onpick(values[Number(e.target.value)])},
    values.map((value, i) => h("option", {value: String(i), selected: value === current}, text(value))));
}

/** The lobby's settings fieldset: ``settings`` is changed in place; ``levels`` the bot
 * levels of the chosen game. */
export function settingsFieldset(settings, levels) {
  const set = (name) => (value) => { settings[name] = value; };
  if (!levels.includes(settings.stand_in)) settings.stand_in = levels.includes("greedy") ? "greedy" : levels[0];
  return h("fieldset", {class: "table-settings"}, h("legend", {}, t("settings.legend")),
    field("set-turn-time", t("settings.turn_time"), t("settings.turn_time_help"),
      choice("set-turn-time", TURN_TIMES, settings.turn_time, seconds, set("turn_time"))),
    field("set-grace", t("settings.grace"), t("settings.grace_help"),
      choice("set-grace", GRACES, settings.grace, seconds, set("grace"))),
    field("set-stand-in", t("settings.stand_in"), t("settings.stand_in_help"),
      choice("set-stand-in", levels, settings.stand_in, levelName, set("stand_in"))),
    field("set-bot-speed", t("settings.bot_speed"), t("settings.bot_speed_help"),
      choice("set-bot-speed", Object.keys(SPEEDS), settings.bot_speed, (s) => t(SPEEDS[s]), set("bot_speed"))),
    h("label", {for: "set-hints", class: "setting check"},
      h("input", {type: "checkbox", id: "set-hints", checked: settings.hints, "aria-describedby": "help-set-hints",
        onchange: (e) => { settings.hints = e.target.checked; }}),
      h("span", {}, t("settings.hints")), h("small", {class: "help", id: "help-set-hints"}, t("settings.hints_help"))));
}

/** One line that tells everyone at the table how it runs. */
export function settingsLine(settings) {
  if (!settings) return null;
  const hints = settings.hints ? t("settings.on") : t("settings.off");
  const speed = t(SPEEDS[settings.bot_speed] || SPEEDS.normal);
  const fields = {turn: seconds(settings.turn_time), grace: seconds(settings.grace), bot: levelName(settings.stand_in), speed, hints};
  return h("p", {class: "settings-line muted", id: "table-settings"}, t("settings.summary", fields));
}
