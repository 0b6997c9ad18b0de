// Every URL the client asks the server for, under the path the server is served at (a
// reverse proxy's prefix, `remi serve --root-path`): this module is ROOT/static/urls.js,
// so ROOT comes from its own URL and the pages need not be told.

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

/** The path the browser asks for to reach a server path ("/api/tables" → "/remi/api/tables"). */
export function url(path) {
  return ROOT + path;
}

/** The WebSocket URL of a server path, on the page's own host. */
export function socketUrl(path) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}${url(path)}`;
}
