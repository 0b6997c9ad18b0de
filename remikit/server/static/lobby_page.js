// What the parts of the lobby (lobby.js) share: the choices of its forms (the variants from
// /api/variants, the new table's settings, the player's name), a variant's title in the
// page's language, the error line and the header.

import {langButton, t} from "./i18n.js";
import {DEFAULT_SETTINGS} from "./table_settings.js";
import {url} from "./urls.js";
import {$, h, NAME_KEY, storedProfile} from "./util.js";

export const form = {
  variants: [],
  variant: null,
  options: {}, // per variant: {name: value}
  seats: {}, // per variant: [{kind, level}]
  title: "",
  name: localStorage.getItem(NAME_KEY) || "",
  settings: {...DEFAULT_SETTINGS},
  creating: false,
};

export const variantTitle = (info, lang) => (info.title && (info.title[lang] || info.title.en)) || info.name;

export function showError(text) {
  const element = $("#error");
  element.textContent = text || "";
  element.hidden = !text;
}

export function header() {
  document.title = t("lobby.title");
  $("#topbar").replaceChildren(
    h("a", {href: url("/"), class: "brand home"}, "remikit"),
    h("span", {class: "table-title"}, t("lobby.title").split(": ")[1]),
    h("a", {href: url("/competitions/new"), id: "competition-link"}, t("lobby.competition")),
    h("a", {href: url("/leaderboard"), id: "leaderboard-link"}, t("profile.leaderboard_link")),
    storedProfile() ? h("a", {href: url(`/profile/${storedProfile().id}`), id: "profile-link"}, t("profile.mine")) : null,
    langButton());
  $("#tagline").textContent = form.variants.length
    ? t("app.tagline", {variants: form.variants.map((v) => variantTitle(v, document.documentElement.lang)).join(", ")}) : "";
}
