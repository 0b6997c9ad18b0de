// The results over the table at the end of a deal (R13-14): every seat's arrangement and
// points and the check of the fair deal; at the end of the game also the winner, the scores
// and the links to the replay, the record, the rematch and the verify page.

import {rematchButton} from "./absence.js";
import {retireAnnouncement} from "./advice.js";
import {dealResults} from "./deal_results.js";
import {t} from "./i18n.js";
import {focusKey} from "./keys.js";
import {scoreSection} from "./scores.js";
import {code, nameOf, page, showError} from "./table_page.js";
import {url} from "./urls.js";
import {$, h} from "./util.js";

/** Show the results of deal `page.resultsDeal` while they are open; `fair` is the table's
 * FairDeals, `render()` draws the page again. */
export function renderResults(fair, render) {
  const box = $("#results");
  const {view, table: {client}} = page.message;
  if (!page.resultsOpen || page.resultsDeal === null || !view.finished_deals[page.resultsDeal]) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const summary = view.finished_deals[page.resultsDeal];
  const over = view.game_over && page.resultsDeal === view.finished_deals.length - 1;
  const closeResults = () => {
    page.resultsOpen = false;
    retireAnnouncement();
    render();
    $("#hand .card[tabindex='0']")?.focus({preventScroll: true});
  };
  let headline = null;
  if (over) {
    const winner = view.winner;
    headline = h("div", {class: "game-over", id: "game-over"},
      h("h2", {}, t("end.game_over")),
      h("p", {class: "winner"}, winner === null ? t("end.no_winner")
        : winner === page.me ? t("end.you_win") : t("end.winner", {name: nameOf(winner)})));
  }
  const focused = focusKey(box);
  box.replaceChildren(h("div", {class: "results-box", role: "dialog", "aria-modal": "true", "aria-label": t("table.results_label"),
    dataset: {gameOver: over ? "true" : "false", deal: String(summary.number)}},
  headline,
  dealResults(view, client, summary, nameOf, page.me ?? 0),
  over ? scoreSection(view, client, nameOf) : null,
  h("div", {class: "row end-links"},
    over ? h("a", {class: "btn", href: url(`/static/replay.html?game=${code}`), id: "replay-link"}, t("table.replay")) : null,
    over ? h("a", {class: "btn", href: url(`/api/games/${code}/record`), download: ""}, t("lobby.download")) : null,
    over ? rematchButton(page, code, showError) : null,
    fair.button(page.message, summary.number),
    over ? h("a", {class: "btn", href: url(`/verify?game=${code}`), id: "verify-link"}, t("fair.verify_link")) : null,
    over ? h("a", {class: "btn", href: url("/")}, t("common.lobby")) : null,
    h("button", {type: "button", class: "btn primary", id: "results-close", onclick: closeResults},
      over ? t("common.close") : t("common.continue")))));
  const opening = box.hidden;
  box.hidden = false;
  if (opening) $("#results-close").focus({preventScroll: true}); // the headline stays in sight
  else if (focused) (box.querySelector(focused) || $("#results-close")).focus();
}
