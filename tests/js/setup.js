// What the client's pure modules need of a browser, under Node: a localStorage and a fetch
// that answers GET /api/messages with remikit's own catalogue (from remikit.i18n, through
// the project's Python). Import this module before any client module.

import {execFileSync} from "node:child_process";
import {existsSync} from "node:fs";
import {fileURLToPath} from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PYTHON = process.env.REMIKIT_PYTHON
  || (existsSync(`${ROOT}.venv/bin/python`) ? `${ROOT}.venv/bin/python` : "python3");

/** Every message of `lang`, as GET /api/messages sends it. */
export function catalogue(lang) {
  const code = `import sys; from remikit.i18n import messages_json; print(messages_json(sys.argv[1]))`;
  return JSON.parse(execFileSync(PYTHON, ["-c", code, lang], {cwd: ROOT, encoding: "utf8"}));
}

const store = new Map([["remikit.lang", "en"]]);
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => { store.set(key, String(value)); },
  removeItem: (key) => { store.delete(key); },
};
globalThis.fetch = async (address) => {
  const lang = new URL(address, "http://remikit.test").searchParams.get("lang");
  return new Response(JSON.stringify(catalogue(lang)), {headers: {"Content-Type": "application/json"}});
};
