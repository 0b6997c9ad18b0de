// The installable app on every page (docs/protocol.md §2.1): registers the service worker
// (ROOT/sw.js, whose scope is the whole site) where the browser has them (a secure context:
// https, or http on this computer), and shows a banner while the browser is offline.

import {onLangChange, t} from "./i18n.js";
import {url} from "./urls.js";

const banner = document.createElement("div");
banner.id = "offline";
banner.className = "notice warn offline-banner";
banner.setAttribute("role", "status");

function paint() {
  banner.textContent = t("app.offline");
  banner.hidden = navigator.onLine;
}

paint();
const bar = document.querySelector(".topbar");
if (bar) bar.after(banner);
else document.body.prepend(banner);
window.addEventListener("online", paint);
window.addEventListener("offline", paint);
onLangChange(paint);

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register(url("/sw.js"), {scope: url("/")})
    .catch((error) => console.warn(`remikit: no service worker (${error.message})`));
}
