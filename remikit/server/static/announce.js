// What the table tells a screen reader and a player looking elsewhere: every action of the
// log as it happens, the player's turn and a call window, in an aria-live region; while it
// is the player's turn the page title starts with "●" and, when the setting is on, a short
// beep (Web Audio, made here) marks the turn's start.

import {t} from "./i18n.js";
import {pref} from "./prefs.js";
import {describeLog} from "./util.js";

export class Announcer {
  constructor() {
    this.polite = region("announce", "polite");
    this.urgent = region("announce-urgent", "assertive");
    this.seen = null; // [deal, number of log entries] already told
    this.turn = false;
    this.callState = null;
    this.audio = null;
  }

  /** Say `text` (an urgent text interrupts). */
  say(text, urgent = false) {
    const element = urgent ? this.urgent : this.polite;
    const line = document.createElement("p");
    line.textContent = text;
    element.append(line);
    while (element.childElementCount > 5) element.firstElementChild.remove();
  }

  /** Tell what changed with a new state message: the new log entries, the turn, a call window. */
  update(message, me, nameOf, baseTitle) {
    const view = message.view;
    const plays = view.plays || [];
    const words = describeLog(plays, nameOf, view.taken_from_discard || [], message.table?.client);
    const [deal, told] = this.seen || [null, 0];
    const from = deal === view.deal_number && told <= words.length ? told : Math.max(0, words.length - 1);
    if (this.seen !== null) for (const line of words.slice(from)) if (line !== null) this.say(line);
    this.seen = [view.deal_number, words.length];
    const window = message.call_window;
    const callKey = window ? `${view.deal_number}:${plays.length}` : null; // one window per discard
    if (window && callKey !== this.callState && me !== null && window.discarder !== me) {
      this.say(t("announce.call_window"), true);
    }
    this.callState = callKey;
    const mine = me !== null && view.to_play === me && !view.game_over && !window;
    if (mine && !this.turn) {
      this.say(t("table.your_turn"), true);
      if (pref("sound")) this.beep();
    }
    this.turn = mine;
    document.title = mine ? t("announce.title_turn", {title: baseTitle}) : baseTitle;
  }

  /** Two short rising tones. */
  beep() {
    try {
      this.audio = this.audio || new AudioContext();
      const now = this.audio.currentTime;
      [660, 880].forEach((frequency, i) => {
        const tone = this.audio.createOscillator();
        const gain = this.audio.createGain();
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + i * 0.16);
        gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.14);
        tone.connect(gain).connect(this.audio.destination);
        tone.start(now + i * 0.16);
        tone.stop(now + i * 0.16 + 0.15);
      });
    } catch { /* no audio here: the title and the live region still tell */ }
  }
}

function region(id, politeness) {
  const element = document.createElement("div");
  element.id = id;
  element.className = "sr-only";
  element.setAttribute("aria-live", politeness);
  element.setAttribute("aria-atomic", "false");
  element.setAttribute("role", politeness === "assertive" ? "alert" : "log");
  document.body.append(element);
  return element;
}
