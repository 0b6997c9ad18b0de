// A profile's page (/profile/{id}): its statistics per variant (games, wins, points per
// deal, how its deals ended, the variant's own marks, the best game, the rating beside the
// bot levels) and its finished games with their replays and reviews. On the device signed
// in to it: its name, code and password, signing in to another profile, whom it blocks,
// and deleting it; on another profile's page: blocking that profile.

import {N_, langButton, lang, onLangChange, t} from "./i18n.js";
import {url} from "./urls.js";
import {$, api, h, keepProfile, levelName, PROFILE_KEY, profileApi, storedProfile} from "./util.js";

const PASSWORD_MIN = 10;
// How the deals a player ended ended, and the marks a variant counts (its `stats` part).
const ENDINGS = {close: N_("stats.ended.close"), out: N_("stats.ended.out"), knock: N_("stats.ended.knock")};
const MARKS = {ace_close: N_("stats.mark.ace_close"), joker_close: N_("stats.mark.joker_close")};
const id = decodeURIComponent(location.pathname.split("/").pop() || "").toUpperCase();
const page = {profile: null, own: null};

function showError(text) {
  const element = $("#error");
  element.textContent = text || "";
  element.hidden = !text;
}

function notice(text) {
  const element = $("#notice");
  element.textContent = text || "";
  element.hidden = !text;
}

const mine = () => storedProfile()?.id === id;
const variantTitle = (info) => (info.title && (info.title[lang()] || info.title.en)) || info.variant;
const number = (value) => new Intl.NumberFormat(lang(), {maximumFractionDigits: 2}).format(value);

function header() {
  document.title = page.profile ? t("profile.title", {name: page.profile.name}) : "remikit";
  $("#topbar").replaceChildren(
    h("a", {href: url("/"), class: "home"}, t("common.lobby")),
    h("span", {class: "brand"}, "remikit"),
    h("span", {class: "table-title"}, page.profile ? t("profile.title", {name: page.profile.name}) : ""),
    h("a", {href: url("/leaderboard"), id: "leaderboard-link"}, t("profile.leaderboard_link")),
    langButton());
}

/** Run a change of this device's profile; a refused one says why. */
async function change(work, done = null) {
  showError("");
  notice("");
  try {
    await work();
    if (done) notice(done);
    await load();
  } catch (error) {
    showError(t("common.error", {message: error.message}));
  }
}

function field(name, label, attrs) {
  const input = h("input", {id: `profile-${name}`, name, ...attrs});
  return [h("label", {for: `profile-${name}`}, h("span", {}, label), input), input];
}

function ownSection() {
  const own = page.own;
  const [nameLabel, name] = field("name", t("profile.name"), {value: own.name, maxlength: "40", autocomplete: "nickname"});
  const [passwordLabel, password] = field("password", t("profile.password", {min: PASSWORD_MIN}),
    {type: "password", minlength: String(PASSWORD_MIN), autocomplete: "new-password"});
  const [codeLabel, code] = field("code", t("profile.code"), {maxlength: "16", autocapitalize: "characters"});
  const [secretLabel, secret] = field("secret", t("profile.password", {min: PASSWORD_MIN}), {type: "password", autocomplete: "current-password"});
  const submit = (work) => (event) => { event.preventDefault(); work(); };
  return h("div", {id: "own"},
    h("h2", {}, t("profile.yours")),
    h("p", {id: "profile-code"}, t("profile.your_code", {code: own.id}), " ", h("small", {class: "muted"}, t("profile.code_help"))),
    h("div", {class: "profile-forms"},
      h("form", {id: "name-form", onsubmit: submit(() => change(async () => {
        const renamed = await profileApi("PUT", "/api/profiles/me/name", {name: name.value});
        keepProfile(renamed.profile, storedProfile().token);
      }, t("profile.saved")))}, nameLabel, h("button", {type: "submit", class: "btn"}, t("profile.save"))),
      h("form", {id: "password-form", onsubmit: submit(() => change(
        () => profileApi("PUT", "/api/profiles/me/password", {password: password.value}), t("profile.saved")))},
      own.password ? h("p", {class: "muted"}, t("profile.has_password")) : null,
      passwordLabel, h("button", {type: "submit", class: "btn"}, t("profile.set_password"))),
      h("form", {id: "sign-in-form", onsubmit: submit(() => change(async () => {
        const signed = await api("/api/profiles/sign-in", {id: code.value.trim(), password: secret.value});
        keepProfile(signed.profile, signed.token);
        location.href = url(`/profile/${signed.profile.id}`);
      }))}, h("strong", {}, t("profile.sign_in")), h("small", {class: "muted"}, t("profile.sign_in_help")),
      codeLabel, secretLabel, h("button", {type: "submit", class: "btn"}, t("profile.sign_in")))),
    h("h3", {}, t("profile.blocks")),
    h("p", {class: "muted"}, t("profile.block_help")),
    own.blocks.length ? h("ul", {id: "blocks"}, own.blocks.map((b) => h("li", {},
      h("a", {href: url(`/profile/${b.id}`)}, b.name), " ",
      h("button", {type: "button", class: "btn small", onclick: () => change(
        () => profileApi("DELETE", `/api/profiles/me/blocks/${b.id}`))}, t("profile.unblock")))))
      : h("p", {class: "muted"}, t("profile.no_blocks")),
    h("button", {type: "button", class: "btn danger", id: "delete-profile", onclick: () => {
      if (!confirm(t("profile.delete_confirm"))) return;
      change(async () => {
        await profileApi("DELETE", "/api/profiles/me");
        localStorage.removeItem(PROFILE_KEY);
        location.href = url("/");
      }, t("profile.deleted"));
    }}, t("profile.delete")));
}

function blockButton() {
  const own = page.own;
  if (!own || mine()) return null;
  const blocked = own.blocks.some((b) => b.id === id);
  return h("p", {}, h("button", {type: "button", class: "btn small", id: "block", onclick: () => change(
    () => profileApi(blocked ? "DELETE" : "POST", `/api/profiles/me/blocks/${id}`))},
  blocked ? t("profile.unblock") : t("profile.block")), " ", h("small", {class: "muted"}, t("profile.block_help")));
}

function ratingLines(rating) {
  if (!rating) return [];
  const lines = [h("strong", {}, number(rating.rating)), rating.provisional ? h("span", {class: "tag"}, t("profile.provisional")) : null];
  const you = mine();
  if (rating.above) {
    const level = levelName(rating.above);
    lines.push(h("div", {class: "compared"}, you ? t("profile.you_above", {level}) : t("profile.above", {level})));
  } else if (rating.below) {
    const level = levelName(rating.below);
    lines.push(h("div", {class: "compared"}, you ? t("profile.you_below", {level}) : t("profile.below", {level})));
  }
  return lines;
}

function counted(counts, labels) {
  return Object.entries(counts).map(([name, n]) => h("tr", {dataset: {counted: name}},
    h("th", {scope: "row"}, labels[name] ? t(labels[name]) : name), h("td", {class: "num"}, n)));
}

function variantBox(info) {
  const row = (label, value) => h("tr", {}, h("th", {scope: "row"}, label), h("td", {class: "num"}, value));
  return h("div", {class: "variant-stats", dataset: {variant: info.variant}},
    h("h3", {}, variantTitle(info)),
    h("table", {class: "listing"}, h("tbody", {},
      row(t("profile.games"), info.games),
      row(t("profile.wins"), info.wins),
      row(t("profile.stand_in_games"), info.stand_in),
      row(t("profile.points_per_deal"), info.points_per_deal === null ? "—" : number(info.points_per_deal)),
      counted(info.endings, ENDINGS),
      counted(info.marks, MARKS),
      info.best ? row(t("profile.best"), h("a", {href: url(`/static/replay.html?game=${info.best.table}`)},
        t("profile.best_line", {place: info.best.place, points: info.best.points}))) : null,
      info.rating ? h("tr", {class: "rating"}, h("th", {scope: "row"}, t("profile.rating")), h("td", {class: "num"}, ratingLines(info.rating))) : null)));
}

function history(games) {
  const titles = Object.fromEntries(page.profile.variants.map((v) => [v.variant, variantTitle(v)]));
  const when = new Intl.DateTimeFormat(lang(), {dateStyle: "medium", timeStyle: "short"});
  return h("table", {class: "listing", id: "history"},
    h("thead", {}, h("tr", {},
      h("th", {}, t("profile.when")), h("th", {}, t("lobby.variant")), h("th", {}, t("profile.place_col")),
      h("th", {class: "num"}, t("profile.points")), h("th", {}), h("th", {}))),
    h("tbody", {}, games.map((g) => h("tr", {dataset: {table: g.table}},
      h("td", {}, when.format(new Date(g.finished_at))),
      h("td", {}, titles[g.variant] || g.variant),
      h("td", {}, t("profile.place", {place: g.place, players: g.players}), " ",
        g.won ? h("span", {class: "tag out"}, t("profile.won")) : null,
        g.stand_in ? h("span", {class: "tag away", title: t("profile.stand_in_title", {n: g.stand_in_turns, turns: g.turns})}, t("profile.stand_in")) : null),
      h("td", {class: "num"}, g.points),
      h("td", {}, h("a", {href: url(g.replay), class: "replay-link"}, t("profile.replay"))),
      h("td", {}, h("a", {href: url(g.replay), class: "review-link", title: url(g.review)}, t("profile.review")))))));
}

function render() {
  header();
  const profile = page.profile;
  if (!profile) return;
  $("#profile").replaceChildren(h("div", {},
    h("h1", {id: "profile-name"}, profile.name),
    mine() && page.own ? ownSection() : blockButton(),
    h("h2", {}, t("profile.stats")),
    profile.variants.length ? h("div", {class: "profile-forms", id: "stats"}, profile.variants.map(variantBox))
      : h("p", {class: "muted", id: "no-games"}, t("profile.no_games")),
    profile.games.length ? [h("h2", {}, t("profile.history")), history(profile.games)] : null));
}

async function load() {
  try {
    page.profile = (await api(`/api/profiles/${encodeURIComponent(id)}`)).profile;
    page.own = storedProfile() ? (await profileApi("GET", "/api/profiles/me")).profile : null;
  } catch (error) {
    showError(t("common.error", {message: error.message}));
  }
  render();
}

onLangChange(render);
header();
load();
