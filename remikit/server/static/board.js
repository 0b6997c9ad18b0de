// The table as a person sees it: the other seats Left/Top/Right in the variant's direction
// of play (RULES.md §0), the stock and the discard pile by the previous player, a spread
// pile and table melds where the variant has them, the player's hand and buttons. Used live
// (table.js) and for replays (replay.js, read-only). What the variant has comes from its
// client info (`client`: the table's `client`, see docs/protocol.md), never from its name.
// The seats' panels are seats.js; the results at the end of a deal deal_results.js.

import {backElement, cardElement, isWild, wildRankLetter} from "./cards.js";
import {N_, t, tn} from "./i18n.js";
import {pressable} from "./keys.js";
import {SEAT_COLOURS} from "./scores.js";
import {seatPanel, seatPositions, smallCards} from "./seats.js";
import {cardName, describeLog, h, showCard} from "./util.js";

// The message ids of what each variant calls a deal (ClientInfo.deal).
const DEAL_LABEL = {game: N_("table.deal.game"), hand: N_("table.deal.hand"), round: N_("table.deal.round")};
// What the player to play is asked in the phases of a table where players knock (Gin Rummy)
const PHASE_PROMPT = {offer: N_("table.phase_offer"), wall: N_("table.phase_wall"), lay_down: N_("table.phase_lay_down"),
  lay_off: N_("table.phase_lay_off"), defend: N_("table.phase_defend")};
const PHASE_NAME = {offer: N_("phase.offer"), wall: N_("phase.wall"), lay_down: N_("phase.lay_down"),
  lay_off: N_("phase.lay_off"), defend: N_("phase.defend")};
const LAY_PHASES = ["lay_down", "lay_off", "defend"];

/** A click on something the player may not use now: the table says why (not their turn). */
const refuse = (model) => { if (!model.readOnly) model.on?.blocked?.(); };

/** "Game 2 of 4", "Hand 3 · target 500", "Round 1 of 11": the deal and the game's length. */
export function dealLabel(view, client) {
  const of = typeof client.length === "number" ? client.length : view.options[client.length];
  return t(DEAL_LABEL[client.deal], {n: view.deal_number, of});
}

/** Whether the table takes calls (Rummy!) now: the variant has them and the option is on. */
const takesCalls = (view, client) => Boolean(client.calls_option && view.options[client.calls_option]);

/** The last thing each seat did this deal (from the log). */
function lastBySeat(view, nameOf, client) {
  const plays = view.plays || [];
  const words = describeLog(plays, nameOf, view.taken_from_discard || [], client);
  const out = {};
  plays.forEach((play, i) => { if (play.action.type !== "pass" || client?.knocking) out[play.seat] = words[i]; });
  return {out, words};
}

function pileCard(text, depth, model, clickable) {
  const element = cardElement(text, {wild: model.wildRank !== null && isWild(text, model.wildRank)});
  element.dataset.depth = String(depth);
  if (model.callDepth === depth && model.mayCall) element.classList.add("call-target");
  if (clickable) {
    element.classList.add("clickable");
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", depth === 1 ? t("table.take_top", {card: cardName(text)})
      : t("table.take_deep", {card: cardName(text), k: depth}));
    element.tabIndex = 0;
    element.addEventListener("click", () => model.on.pile(depth));
    pressable(element, () => model.on.pile(depth));
  } else {
    element.addEventListener("click", () => refuse(model));
  }
  return element;
}

function pilesArea(model) {
  const {view, client, nameOf} = model;
  const legal = new Set((view.legal || []).map((a) => a.text));
  const act = !model.readOnly && !model.busy;
  const stockClickable = act && legal.has("draw stock");
  const stock = h("div", {class: "pile stock-pile"},
    h("div", {class: "pile-label"}, t("table.stock")),
    h("div", {id: "stock", class: "stock" + (stockClickable ? " clickable" : ""), role: "button",
      tabindex: stockClickable ? "0" : null, "aria-disabled": stockClickable ? null : "true",
      "aria-label": t("table.stock_label", {n: view.stock_size}),
      dataset: {count: String(view.stock_size)},
      onclick: () => { if (stockClickable) model.on.draw("draw stock"); else refuse(model); }},
    view.stock_size ? backElement() : h("div", {class: "card slot"}),
    h("span", {class: "count"}, String(view.stock_size))));
  if (stockClickable) pressable(stock.querySelector("#stock"), () => model.on.draw("draw stock"));
  const pile = view.discard_pile || [];
  const prev = view.to_play === null ? null : (view.to_play - 1 + view.players) % view.players;
  const prevName = prev === null ? "" : nameOf(prev);
  let discard;
  if (client.spread_discards) {
    // R5-2: the pile is spread; click the K-th card from the top to take it and all above it
    const myDraw = act && model.me !== null && view.to_play === model.me && view.phase === "draw" && !model.callOpen;
    const canCall = act && model.mayCall;
    const cards = pile.map((text, i) => pileCard(text, pile.length - i, model, myDraw || canCall));
    discard = h("div", {class: "pile discard-pile spread"},
      h("div", {class: "pile-label"}, t("table.discard"), " ", h("span", {class: "muted"}, tn("table.cards_n", pile.length))),
      h("div", {id: "discard", class: "spread-cards" + (myDraw ? " drawable" : ""), dataset: {count: String(pile.length)}},
        cards.length ? cards : h("div", {class: "card slot"}, t("table.empty"))));
  } else {
    const top = view.top_discard;
    const clickable = act && legal.has("draw discard");
    discard = h("div", {class: "pile discard-pile"},
      h("div", {class: "pile-label"}, prev === null || !client.discard_first ? t("table.discard")
        : prev === view.seat ? t("table.your_discard") : t("table.prev_discard", {name: prevName})),
      h("div", {id: "discard", class: "discard" + (clickable ? " clickable" : ""), dataset: {count: String(pile.length)}},
        pile.length > 1 ? h("div", {class: "under"}, backElement()) : null,
        top ? pileCard(top, 1, model, clickable) : h("div", {class: "card slot"}, t("table.empty"))));
  }
  // the discard lies by the previous player (whose discard one may take): on the left in
  // Remi 13 D, on the right at the clockwise tables
  const discardFirst = client.discard_first;
  return h("div", {class: "piles" + (discardFirst ? " discard-left" : " discard-right")},
    discardFirst ? [discard, stock] : [stock, discard]);
}

function callBar(model) {
  const {view, client, callWindow} = model;
  if (!takesCalls(view, client)) return null;
  const open = model.callOpen;
  const mine = callWindow?.my_call;
  let text = "";
  if (open) {
    text = mine?.type === "rummy" ? t("call.pending", {k: mine.depth})
      : mine ? t("call.passed")
      : model.mayCall ? `${t("call.open", {k: model.callDepth})} · ${t("call.help")}`
        : t("call.window");
  }
  const bar = h("div", {id: "call-bar", class: "call-bar" + (open ? " open" : ""),
    dataset: {open: open ? "true" : "false"}},
  h("div", {class: "call-text"}, text),
  open ? h("div", {class: "countdown"}, h("div", {class: "fill",
    style: `animation-duration:${Math.max(0, callWindow.ends_in_ms)}ms;width:${(100 * callWindow.ends_in_ms / Math.max(1, callWindow.duration_ms)).toFixed(1)}%`})) : null);
  return bar;
}

function meldsArea(model) {
  const {view, client, nameOf} = model;
  if (!client.table_melds) return null;
  const canLayOff = !model.readOnly && model.me !== null && view.to_play === model.me
    && (view.phase === "discard" || view.phase === "lay_off");
  const melds = (view.table || []).map((meld) => {
    const owner = meld.laid_by[0];
    const owners = [...new Set(meld.laid_by)];
    const element = h("div", {class: "table-meld" + (canLayOff ? " clickable" : ""), dataset: {meld: String(meld.number)},
      role: canLayOff ? "button" : "group", tabindex: canLayOff ? "0" : null,
      title: canLayOff ? t("table.layoff_here", {n: meld.number}) : null,
      "aria-label": `${t("table.meld_owner", {n: meld.number, name: owners.map(nameOf).join(", ")})}: ${meld.cards.map((c, i) => cardName(meld.stands_for[i] ? `${c}=${meld.stands_for[i]}` : c)).join(", ")}`,
      onclick: () => { if (canLayOff) model.on.layoff(meld.number); else refuse(model); }},
    h("div", {class: "meld-head"},
      h("span", {class: "swatch", style: `background:${SEAT_COLOURS[owner % SEAT_COLOURS.length]}`}),
      t("table.meld_owner", {n: meld.number, name: owners.map(nameOf).join(", ")})),
    smallCards(meld.cards, {standsFor: meld.stands_for, owners: meld.laid_by}));
    if (canLayOff) pressable(element, () => model.on.layoff(meld.number));
    return element;
  });
  return h("section", {class: "table-melds", id: "table-melds", "aria-label": t("table.melds")},
    h("h3", {}, t("table.melds")),
    melds.length ? h("div", {class: "meld-list", id: "meld-list"}, melds) : h("p", {class: "muted"}, t("table.no_melds")));
}

function statusBar(model, words) {
  const {view, nameOf} = model;
  const parts = [h("span", {class: "deal", id: "deal-label"}, dealLabel(view, model.client))];
  if (view.wild_rank) {
    parts.push(h("span", {class: "wild-rank", id: "wild-rank"},
      h("span", {class: "star"}, "★"), t("table.wild", {rank: view.wild_rank})));
  }
  if (view.knock_limit !== null && view.knock_limit !== undefined) {
    parts.push(h("span", {class: "knock-limit", id: "knock-limit"}, t("table.knock_limit", {n: view.knock_limit})));
  }
  if (PHASE_NAME[view.phase]) {
    parts.push(h("span", {class: `tag phase phase-${view.phase}`, id: "phase-name"}, t(PHASE_NAME[view.phase])));
  }
  if (!view.game_over && view.to_play !== null) {
    const mine = model.me !== null && view.to_play === model.me && !model.readOnly;
    parts.push(h("span", {class: "turn" + (mine ? " mine" : ""), id: "turn"},
      mine ? t("table.your_turn") : t("table.turn_of", {name: nameOf(view.to_play)})));
  }
  const lastWords = words.length ? words[words.length - 1] : t("act.none");
  parts.push(h("span", {class: "last-action", id: "last-action"}, t("table.last", {what: lastWords})));
  return h("div", {class: "status-bar"}, parts);
}

function prompt(model) {
  const {view, client} = model;
  if (model.me === null || model.readOnly || view.game_over) return null;
  const lines = [];
  if (view.went_out !== null && view.went_out !== undefined) { // the others' last turns (R3-6)
    lines.push(t("table.went_out", {name: model.nameOf(view.went_out)}));
  }
  if (view.to_play === model.me) {
    if (view.must_meld) lines.push(h("b", {}, t("table.must_meld", {card: showCard(view.must_meld)})));
    if (view.phase === "draw" && !model.callOpen) {
      lines.push(t(client.hints.draw));
    } else if (view.phase === "discard") {
      lines.push(t(client.hints.discard));
    } else if (PHASE_PROMPT[view.phase]) {
      lines.push(t(PHASE_PROMPT[view.phase]));
    }
  } else if (LAY_PHASES.includes(view.phase) && view.to_play !== null) {
    lines.push(t("table.phase_wait_lay", {name: model.nameOf(view.to_play)}));
  }
  return lines.length ? h("div", {class: "prompt", id: "prompt"}, lines.map((line) => h("div", {}, line))) : null;
}

function actionBar(model) {
  const {view, client} = model;
  const mine = model.me !== null && view.to_play === model.me && !model.busy && !view.game_over;
  const selected = model.selected.size;
  const discardPhase = mine && view.phase === "discard" && !model.callOpen;
  const button = (id, label, enabled, onclick, cls = "") => h("button", {type: "button", id,
    class: `btn ${cls}`, disabled: !enabled, onclick}, label);
  const buttons = [
    button("sort-suit", t("btn.sort_suit"), true, () => model.on.sort("suit"), "ghost"),
    button("sort-rank", t("btn.sort_rank"), true, () => model.on.sort("rank"), "ghost"),
  ];
  const layPhase = mine && LAY_PHASES.includes(view.phase);
  if (client.table_melds) {
    const meldPhase = discardPhase || (layPhase && view.phase !== "lay_off");
    buttons.push(button("btn-meld", t("btn.meld"), meldPhase && selected >= 3, () => model.on.meld()));
  }
  buttons.push(button("btn-discard", t("btn.discard"), discardPhase && selected === 1, () => model.on.discard(), "primary"));
  if (client.knocking) knockButtons(model, mine, layPhase).forEach((b) => buttons.push(b));
  if (client.closing) {
    buttons.push(button("btn-close", t("btn.close"), discardPhase && selected === 1, () => model.on.close(), "gold"));
  }
  if (takesCalls(view, client)) {
    // Enabled for every seat but the discarder for the whole call window, whether or not a
    // call is possible: the button must not tell (R5-10).
    const enabled = model.mayCall;
    buttons.push(button("btn-rummy", t("btn.rummy"), enabled, () => model.on.rummy(), "rummy"));
    // the window closes as soon as every seat asked has answered: no need to wait it out
    const asked = model.callOpen && model.callWindow.seats.includes(model.me);
    const unanswered = enabled && asked && !model.callWindow.my_call;
    if (model.callOpen) buttons.push(button("btn-pass", t("btn.pass"), unanswered, () => model.on.pass(), "ghost"));
  }
  if ((view.legal || []).some((a) => a.type === "decline") && !model.busy) {
    buttons.push(button("btn-decline", t("btn.decline"), true, () => model.on.decline(), "ghost"));
  }
  if (selected) buttons.push(button("btn-clear", t("btn.clear"), true, () => model.on.clear(), "ghost"));
  return h("div", {class: "action-bar", id: "actions"}, buttons);
}

/** Knock with the selected card (enabled only when that knock is legal, G-5), lay down the
 * best arrangement step by step (G-6), and pass: the first upcard, the wall, or done. */
function knockButtons(model, mine, layPhase) {
  const {view} = model;
  const legalTexts = new Set((view.legal || []).map((a) => a.text));
  const cards = model.selectedCards || [];
  const button = (id, label, enabled, onclick, cls) => h("button", {type: "button", id,
    class: `btn ${cls}`, disabled: !enabled, onclick}, label);
  const out = [];
  if (mine && (view.phase === "discard" || view.phase === "wall")) {
    const legalKnock = cards.length === 1 && legalTexts.has(`knock ${cards[0]}`);
    out.push(button("btn-knock", t("btn.knock"), legalKnock, () => model.on.knock(), "gold"));
  }
  if (layPhase) {
    // the server's best step; its pass ends the laying down, which only Done says (G-6)
    const step = model.layDown;
    const useful = Boolean(step) && (step.type !== "pass" || view.phase === "lay_off");
    out.push(button("btn-lay-best", t("btn.lay_best"), useful, () => model.on.layBest(), "primary"));
  }
  if (mine && legalTexts.has("pass")) {
    const done = LAY_PHASES.includes(view.phase);
    out.push(button("btn-pass", done ? t("btn.done") : t("btn.pass_turn"), true, () => model.on.pass(), "ghost"));
  }
  return out;
}

function bottomArea(model, last) {
  const {view, nameOf} = model;
  const seat = model.viewpoint;
  if (model.me === null) {
    // a spectator (or a public replay): the bottom seat like the others, cards face down
    const hand = view.hand && view.hand.length && view.seat === seat
      ? h("div", {class: "hand"}, view.hand.map((c) => cardElement(c, {wild: model.wildRank !== null && isWild(c, model.wildRank)})))
      : null;
    const panel = seatPanel(model, seat, {zone: "bottom"}, last[seat]);
    return h("div", {class: "me spectator"}, panel, hand);
  }
  const toPlay = view.to_play === seat && !view.game_over;
  return h("div", {class: "me" + (toPlay ? " to-play" : ""), dataset: {seat: String(seat)}},
    h("div", {class: "me-head"},
      h("span", {class: "swatch", style: `background:${SEAT_COLOURS[seat % SEAT_COLOURS.length]}`}),
      h("b", {class: "name"}, model.myName || nameOf(seat)),
      h("span", {class: "muted"}, model.readOnly ? t("table.hand_of", {name: nameOf(seat)}) : t("table.hand_label")),
      h("span", {class: "total"}, t("table.total", {n: view.totals?.[seat] ?? 0})),
      model.readOnly ? null : h("span", {class: "muted help"}, t("table.select_help"))),
    prompt(model),
    model.readOnly ? null : actionBar(model),
    model.warning ?? null,
    model.handElement);
}

/** Render the whole board into `root`; `model.client` is the variant's client info. */
export function renderBoard(root, model) {
  const {view, client} = model;
  model.wildRank = wildRankLetter(view.wild_rank);
  model.callOpen = Boolean(model.callWindow);
  // every seat but the discarder may call while the window is open (R5-10)
  model.mayCall = model.callOpen && model.me !== null && !model.readOnly
    && model.callWindow.discarder !== model.me;
  const positions = seatPositions(view.players, model.viewpoint, client.clockwise);
  const {out: last, words} = lastBySeat(view, model.nameOf, client);
  const zones = {left: [], top: [], right: []};
  const order = Object.entries(positions).filter(([, p]) => p.zone !== "bottom")
    .sort((a, b) => a[1].order - b[1].order);
  for (const [seat, position] of order) zones[position.zone].push(seatPanel(model, Number(seat), position, last[seat]));
  // lay the seats out the way they sit: the left column runs up from the player, the right
  // one down to the player; the top row runs the way play goes
  zones.left.reverse();
  if (!client.clockwise) zones.top.reverse();
  root.className = `board variant-${view.variant} players-${view.players}`;
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", t("table.board_label"));
  Object.assign(root.dataset, {
    stateId: String(model.stateId ?? ""),
    phase: view.phase,
    toPlay: view.to_play === null ? "" : String(view.to_play),
    seat: model.me === null ? "" : String(model.me),
    myTurn: model.me !== null && view.to_play === model.me && !view.game_over ? "true" : "false",
    callWindow: model.callOpen ? "open" : "closed",
    discarder: model.callOpen ? String(model.callWindow.discarder) : "",
    deals: String((view.finished_deals || []).length),
    deal: String(view.deal_number),
    gameOver: view.game_over ? "true" : "false",
    busy: model.busy ? "true" : "false",
  });
  root.replaceChildren(
    statusBar(model, words),
    h("div", {class: "felt"},
      h("div", {class: "zone zone-top"}, zones.top),
      h("div", {class: "zone zone-left"}, zones.left),
      h("div", {class: "zone zone-right"}, zones.right),
      h("div", {class: "centre"}, pilesArea(model), callBar(model), meldsArea(model))),
    bottomArea(model, last));
}

/** The log panel: this deal's actions in words, the newest first. */
export function logPanel(view, client, nameOf) {
  const words = describeLog(view.plays || [], nameOf, view.taken_from_discard || [], client);
  return h("section", {class: "log-panel"}, h("h3", {}, t("table.log"), " · ", dealLabel(view, client)),
    words.length ? h("ol", {class: "log", id: "log", reversed: true}, words.filter((w) => w !== null).reverse().map((w) => h("li", {}, w)))
      : h("p", {class: "muted"}, t("act.none")));
}
