// The public page of a competition (/competitions/CID): the standings, asked again every
// 5 seconds, the QR code of this page, and each player's schedule: in every round made,
// their table, their position and, at an online table, its link. A player's name opens
// the games behind their numbers (GET …/players/PID/games) and, on a phone that shows the
// key columns only, the rest of the row under the name; a second tap closes them. With
// duplicate deals, each round's commitment, and its secret once its online tables have played.

import {N_, onLangChange, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {absenceLine, base, call, errorLine, header, pageUrl, positions, standingsTable, summary} from "./common.js";

const POLL_MS = 5000;
const ABSENT = {late: N_("comp.absent.late"), withdrawn: N_("comp.absent.withdrawn"), missed: N_("comp.absent.missed")};
const state = {comp: null, standings: null, players: [], rounds: [], picked: null, games: null, opened: new Set()};
const error = errorLine();

async function load() {
  try {
    const [{competition}, standings, players] = await Promise.all([
      call(base()), call(base("/standings")), call(base("/players"))]);
    const unrevealed = state.rounds.some((r) => r.duplicate && !r.duplicate.secret);
    if (!state.comp || unrevealed || competition.current_round !== state.comp.current_round || competition.status !== state.comp.status) {
      const numbers = Array.from({length: competition.current_round || 0}, (_, i) => i + 1);
      state.rounds = (await Promise.all(numbers.map((n) => call(base(`/rounds/${n}`))))).map((r) => r.round);
    }
    Object.assign(state, {comp: competition, standings, players: players.players});
    error.show(null);
  } catch (err) {
    error.show(err);
  }
  render();
}

async function pick(row) {
  if (state.opened.has(row.player)) {
    state.opened.delete(row.player);
    if (state.picked?.player === row.player) state.picked = null;
    return render();
  }
  state.opened = new Set([row.player]);
  state.picked = row;
  try {
    const data = await call(base(`/players/${encodeURIComponent(row.player)}/games`));
    state.games = data.games;  // with the byes: {round, bye: true}
  } catch (err) {
    error.show(err);
  }
  render();
}

function playerGames() {
  if (!state.picked || !state.games) return null;
  const rows = state.games.map((g) => (g.bye || g.absent
    ? h("tr", {class: "bye"}, h("td", {}, g.round), h("td", {colspan: 2},
      g.bye ? t("comp.sched.bye", {round: g.round}) : t(ABSENT[g.absent], {round: g.round})),
    h("td", {class: "total"}, g.points ?? ""), h("td", {colspan: 3}))
    : h("tr", {dataset: {entry: g.entry}},
      h("td", {}, g.round), h("td", {}, g.table), h("td", {}, g.game), h("td", {class: "total"}, g.points),
      h("td", {class: "muted"}, g.entry), h("td", {}, g.entered_by || ""), h("td", {}, g.confirmed_by || ""))));
  return h("section", {class: "card-box", id: "player-games"},
    h("div", {class: "row"}, h("h2", {}, t("comp.public.games_of", {name: state.picked.name})),
      h("button", {type: "button", class: "btn ghost small", onclick: () => { state.picked = null; state.opened.clear(); render(); }}, t("comp.close"))),
    h("div", {class: "scroll"}, h("table", {class: "plain"},
      h("thead", {}, h("tr", {}, [N_("comp.col.round"), N_("comp.col.table"), N_("comp.col.game"), N_("comp.col.points"),
        N_("comp.col.entry"), N_("comp.col.entered_by"), N_("comp.col.confirmed_by")].map((k) => h("th", {scope: "col"}, t(k))))),
      h("tbody", {}, rows))));
}

/** Where each player sits in each round made so far. */
function schedule() {
  const seats = new Map(); // player → [{round, table, position, link}]
  for (const round of state.rounds) {
    for (const table of round.tables) {
      table.seats.forEach((seat, i) => {
        if (!seat.player) return;
        const link = table.web_table ? url(`/table/${table.web_table}`) : null;
        const list = seats.get(seat.player) || [];
        list.push({round: round.number, table: table.number, position: seat.position || positions[i], link, kind: table.kind});
        seats.set(seat.player, list);
      });
    }
    for (const pid of round.byes || []) {
      const list = seats.get(pid) || [];
      list.push({round: round.number, bye: true});
      seats.set(pid, list);
    }
  }
  const items = state.players.filter((p) => seats.has(p.id)).sort((a, b) => a.name.localeCompare(b.name)).map((p) =>
    h("li", {dataset: {player: p.id}}, h("b", {}, p.name), " ",
      seats.get(p.id).map((s) => h("span", {class: "sched"},
        s.bye ? t("comp.sched.bye", {round: s.round})
          : t("comp.sched.place", {round: s.round, table: s.table, position: s.position}),
        s.link ? h("a", {href: s.link, class: "table-link"}, t("comp.sched.play_online")) : null))));
  return h("section", {class: "card-box", id: "schedule"}, h("h2", {}, t("comp.public.schedule")),
    items.length ? h("ul", {class: "schedule"}, items) : h("p", {class: "muted"}, t("comp.public.no_rounds")));
}

/** Each duplicate round's commitment, and its secret once revealed (docs/fairness.md §11). */
function duplicateRounds() {
  const rounds = state.rounds.filter((r) => r.duplicate);
  if (!rounds.length) return null;
  return h("section", {class: "card-box", id: "duplicate"}, h("h2", {}, t("comp.dup.title")),
    h("p", {class: "muted"}, t("comp.dup.help")),
    h("ul", {}, rounds.map((r) => h("li", {dataset: {round: r.number}}, t("comp.dup.round", {n: r.number}), " ",
      h("code", {class: "commitment"}, r.duplicate.commitment), " ",
      r.duplicate.secret ? [t("comp.dup.secret"), " ", h("code", {class: "secret"}, r.duplicate.secret)]
        : h("span", {class: "muted"}, t("comp.dup.secret_later"))))));
}

function render() {
  const comp = state.comp;
  header(comp?.name || "", h("a", {href: pageUrl("/projector")}, t("comp.link.projector")));
  if (!comp) {
    document.getElementById("app").replaceChildren(error.element);
    return;
  }
  const rows = state.standings?.rows || [];
  const published = state.standings?.published_round;
  const note = comp.publish === "round" && published != null ? t("comp.public.published", {n: published}) : t("comp.public.live");
  const qr = h("figure", {class: "qr"}, h("img", {src: url(base("/qr.svg")), alt: t("comp.public.qr_alt"), id: "qr"}),
    h("figcaption", {}, t("comp.public.scan")));
  document.getElementById("app").replaceChildren(...[
    error.element,
    h("section", {class: "comp-head"}, h("div", {}, h("h1", {}, comp.name), h("p", {class: "muted", id: "summary"}, summary(comp)),
      h("p", {class: "muted"}, note), h("p", {class: "muted", id: "absence-rule"}, absenceLine(comp))), qr),
    h("section", {class: "card-box"}, h("h2", {}, t("comp.public.standings")),
      rows.length ? h("div", {class: "scroll"}, standingsTable(rows, {onPick: pick, opened: state.opened})) : h("p", {class: "muted"}, t("comp.public.no_standings"))),
    playerGames(),
    schedule(),
    duplicateRounds()].filter(Boolean));
}

load();
setInterval(load, POLL_MS);
onLangChange(render);
