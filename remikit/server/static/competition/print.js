// What the print views share: the competition, its players (with the organiser's login:
// their contacts and codes) and the round asked for
// (?round=n, else the current one), a heading, and a "Print" button hidden on paper.

import {t} from "../i18n.js";
import {h} from "../util.js";
import {base, call, errorLine, header, login, namer, pageUrl} from "./common.js";

export const wantedRound = (comp) => Number(new URLSearchParams(location.search).get("round")) || comp.current_round || 0;

/** {comp, players, nameOf, rounds: [ROUND], standings} of rounds ``numbers(comp)`` (the
 * standings with ``standings``), asked with the organiser's login when the browser keeps one
 * (a round not published yet shows its games); null on an error (shown). */
export async function loadPrint(numbers, {standings = false} = {}) {
  const error = errorLine();
  const as = login("organiser") ? {role: "organiser"} : {};
  try {
    const [{competition}, players, table] = await Promise.all([call(base(), as), call(base("/players"), as),
      standings ? call(base("/standings"), as) : null]);
    const list = players.players;
    const rounds = await Promise.all(numbers(competition).map((n) => call(base(`/rounds/${n}`), as).then((r) => r.round)));
    return {comp: competition, players: list, nameOf: namer(list), rounds, standings: table};
  } catch (err) {
    header("");
    error.show(err);
    document.getElementById("app").replaceChildren(error.element);
    return null;
  }
}

/** The page: the header (screen only), the "Print" button and ``content``. */
export function printPage(comp, title, content) {
  header(`${comp.name}: ${title}`, h("a", {href: pageUrl("/admin")}, t("comp.role.organiser")));
  document.getElementById("app").replaceChildren(
    h("div", {class: "no-print row"}, h("button", {type: "button", class: "btn primary", id: "print", onclick: () => window.print()}, t("comp.print.print"))),
    content);
}

/** The heading on every printed page: the competition, the date and venue, the title. */
export const sheetHead = (comp, title) => h("header", {class: "sheet-head"},
  h("h1", {}, title), h("p", {}, [comp.name, comp.date, comp.venue].filter(Boolean).join(" · ")));
