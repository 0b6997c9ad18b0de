// The service worker (docs/protocol.md §2.1). The server serves this file at ROOT/sw.js, its
// first line naming the shell: self.remikitShell = {version, files, texts}, the client's pages
// and files (paths under ROOT), a hash of them, and the public texts the pages start with. The shell is kept in a cache of that version
// and answered from it first; a release changes the hash, so the new worker fills a new cache
// and drops the old. The API goes to the network: only the public texts the pages start
// with (the messages, the variants) and the rules pages are kept, for offline use. The table's
// WebSocket does not pass through here.

const worker = /** @type {any} */ (self);
/** @type {{version: string, files: string[], texts: string[]}} */
const SHELL = worker.remikitShell;
const ROOT = new URL("./", location.href).pathname.replace(/\/$/, "");
const SHELL_CACHE = `remikit-shell-${SHELL.version}`;
const TEXT_CACHE = `remikit-texts-${SHELL.version}`;
const KEPT_API = new Set(["/api/messages", "/api/variants"]);
const TABLE_PAGE = /^\/table\/[^/]+\/?$/;
const SHELL_FILES = new Set(SHELL.files);

/** Fill the cache `name` with the answers to `paths` (from the server, not the HTTP cache). */
async function fill(name, paths) {
  const cache = await caches.open(name);
  await cache.addAll(paths.map((path) => new Request(ROOT + path, {cache: "reload"})));
}

worker.addEventListener("install", (event) => {
  event.waitUntil(Promise.all([fill(SHELL_CACHE, SHELL.files), fill(TEXT_CACHE, SHELL.texts)])
    .then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  const current = new Set([SHELL_CACHE, TEXT_CACHE]);
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("remikit-") && !current.has(name))
      .map((name) => caches.delete(name))))
    .then(() => worker.clients.claim()));
});

worker.addEventListener("fetch", (event) => {
  /** @type {Request} */
  const request = event.request;
  if (request.method !== "GET") return;
  const address = new URL(request.url);
  if (address.origin !== location.origin || !address.pathname.startsWith(`${ROOT}/`)) return;
  const path = address.pathname.slice(ROOT.length);
  if (KEPT_API.has(path) || path.startsWith("/rules/")) event.respondWith(networkFirst(request));
  else if (request.mode === "navigate" && TABLE_PAGE.test(path)) event.respondWith(shellFirst(`${ROOT}/static/table.html`, request));
  else if (SHELL_FILES.has(path)) event.respondWith(shellFirst(ROOT + path, request));
  // anything else (the rest of the API, other pages): the network, as without a worker
});

/** The shell's copy of `key` (a page's query does not matter), else the network. */
async function shellFirst(key, request) {
  const cache = await caches.open(SHELL_CACHE);
  return (await cache.match(key)) || fetch(request);
}

/** The network's answer, kept; when the network fails, the answer kept last. */
async function networkFirst(request) {
  const cache = await caches.open(TEXT_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request);
    if (kept) return kept;
    throw error;
  }
}
