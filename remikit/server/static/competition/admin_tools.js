// The organiser's tools (docs/competition.md §8): players from a CSV file (each faulty
// line listed), every registered player checked in at once, the export of the whole
// competition as one file, the archive, and deleting the competition (its name typed
// again); and on the new competition's page, a competition made from an exported file.

import {N_, lang, t} from "../i18n.js";
import {url} from "../urls.js";
import {h} from "../util.js";
import {base, keepLogin, login} from "./common.js";

const ROLE = "organiser";
const ARCHIVE_WORD = {false: N_("comp.tools.archive"), true: N_("comp.tools.unarchive")};

/** POST a JSON body; the answer, or an Error carrying the error object (its ``lines``). */
async function post(path, body, role = ROLE) {
  const headers = {"Content-Type": "application/json"};
  const token = role && login(role)?.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${url(path)}?lang=${lang()}`, {method: "POST", headers, body: JSON.stringify(body)});
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw Object.assign(new Error(data?.error?.message || `HTTP ${response.status}`), {error: data?.error});
  return data;
}

/** The text of a file read as UTF-8 (a byte order mark is dropped), or null if it is not UTF-8. */
async function utf8(file) {
  try { return new TextDecoder("utf-8", {fatal: true}).decode(await file.arrayBuffer()); } catch { return null; }
}

function csvForm(done) {
  const file = h("input", {type: "file", id: "csv-file", accept: ".csv,text/csv,text/plain", required: true});
  const checkIn = h("input", {type: "checkbox", id: "csv-check-in"});
  const result = h("div", {id: "csv-result", role: "status"});
  const submit = async (event) => {
    event.preventDefault();
    const text = file.files[0] ? await utf8(file.files[0]) : null;
    if (text === null) return result.replaceChildren(h("p", {class: "notice error"}, t("comp.tools.not_utf8")));
    try {
      const made = await post(base("/players/import"), {csv: text, check_in: checkIn.checked});
      result.replaceChildren(h("p", {class: "notice"}, t("comp.tools.imported", {n: made.players.length})));
      file.value = "";
      done();
    } catch (err) {
      const lines = err.error?.lines || [];
      result.replaceChildren(h("p", {class: "notice error", role: "alert"}, err.message),
        h("ul", {id: "csv-errors", class: "line-errors"}, lines.map((line) =>
          h("li", {dataset: {line: line.line, code: line.code}}, t("comp.tools.line", {line: line.line, message: line.message})))));
    }
  };
  return h("div", {},
    h("form", {id: "csv-form", class: "row wrap", onsubmit: submit},
      h("label", {for: "csv-file"}, t("comp.tools.csv"), file),
      h("label", {class: "check"}, checkIn, t("comp.tools.csv_check_in")),
      h("button", {type: "submit", class: "btn", id: "csv-import"}, t("comp.tools.import"))),
    h("p", {}, h("small", {class: "muted"}, t("comp.tools.csv_help"))), result);
}

async function download() {
  const found = await fetch(url(base("/export")), {headers: {Authorization: `Bearer ${login(ROLE)?.token}`}});
  if (!found.ok) throw new Error(`HTTP ${found.status}`);
  const name = /filename="([^"]+)"/.exec(found.headers.get("Content-Disposition") || "")?.[1] || "competition.json";
  const link = h("a", {href: URL.createObjectURL(await found.blob()), download: name});
  document.body.append(link);
  link.click();
  link.remove();
}

function deleteForm(comp, error) {
  const typed = h("input", {id: "delete-confirm", maxlength: 200, autocomplete: "off", placeholder: comp.name});
  const button = h("button", {type: "submit", class: "btn small", id: "delete", disabled: true}, t("comp.tools.delete"));
  typed.oninput = () => { button.disabled = typed.value.trim().toLowerCase() !== comp.name.toLowerCase(); };
  const submit = async (event) => {
    event.preventDefault();
    try {
      await post(base("/delete"), {confirm: typed.value});
      location.assign(url("/"));
    } catch (err) {
      error.show(err);
    }
  };
  return h("form", {id: "delete-form", class: "row wrap", onsubmit: submit},
    h("label", {for: "delete-confirm"}, t("comp.tools.delete_help", {name: comp.name}), typed), button);
}

/** The tools' section of the organiser's page; ``reload`` reads the page's data again. */
export function toolsSection({comp, players, act, reload, error}) {
  const archived = comp.status === "archived";
  const waiting = players.filter((p) => p.status === "registered").length;
  const run = (work) => async () => {
    try { await work(); error.show(null); } catch (err) { error.show(err); }
  };
  return h("section", {class: "card-box", id: "tools"},
    h("h2", {}, t("comp.tools.title")),
    archived ? h("p", {class: "notice", id: "archived-note"}, t("comp.tools.archived_note")) : null,
    archived ? null : csvForm(reload),
    h("div", {class: "row wrap"},
      archived ? null : h("button", {type: "button", class: "btn small", id: "check-in-all", disabled: waiting === 0,
        onclick: () => act("/players/check-in", {all: true})}, t("comp.tools.check_in_all", {n: waiting})),
      h("button", {type: "button", class: "btn small ghost", id: "export", onclick: run(download)}, t("comp.tools.export")),
      h("button", {type: "button", class: "btn small ghost", id: archived ? "unarchive" : "archive",
        onclick: () => act("/archive", {archived: !archived})}, t(ARCHIVE_WORD[archived]))),
    deleteForm(comp, error));
}

/** A competition made from an exported file (new competition's page): its organiser's page opens. */
export function importEventForm(error) {
  const file = h("input", {type: "file", id: "event-file", accept: ".json,application/json", required: true});
  const submit = async (event) => {
    event.preventDefault();
    try {
      const text = file.files[0] ? await utf8(file.files[0]) : null;
      let doc = null;
      try { doc = JSON.parse(text); } catch { doc = null; }
      if (doc === null) throw new Error(t("comp.tools.not_a_file"));
      const made = await post("/api/competitions/import", doc, null);
      keepLogin(ROLE, made.token, t("comp.role.organiser"), made.competition.id);
      location.assign(made.competition.links?.admin || url(`/competitions/${made.competition.id}/admin`));
    } catch (err) {
      error.show(err);
    }
  };
  return h("form", {id: "event-import", class: "card-box row wrap", onsubmit: submit},
    h("label", {for: "event-file"}, t("comp.tools.import_event"), file),
    h("button", {type: "submit", class: "btn", id: "event-import-submit"}, t("comp.tools.import")));
}
