// The table's link for others (docs/protocol.md §3.4: share_url, share_local): "Copy the
// link", and a box with the link, its QR code (GET /api/tables/CODE/qr.svg) and, when the
// link opens only on this computer, how to serve the network instead.

import {t} from "./i18n.js";
import {url} from "./urls.js";
import {api, h} from "./util.js";

let shared = null; // a promise of {share_url, share_local}, asked once per page
let open = false; // the share box stays open across redraws of the header

function shareInfo(code) {
  if (!shared) {
    const path = `/api/tables/${encodeURIComponent(code)}`;
    shared = api(path).catch(() => ({share_url: location.origin + url(`/table/${code}`), share_local: false}));
  }
  return shared;
}

/** The header's share controls: the copy button, the QR button and the share box. */
export function shareControls(code, notice) {
  const link = h("a", {id: "share-url", class: "share-url", href: ""});
  const local = h("p", {id: "share-local", class: "notice warn", hidden: true}, t("share.local_only"));
  const box = h("div", {id: "share-box", class: "share-box", hidden: !open},
    h("img", {id: "share-qr", src: url(`/api/tables/${encodeURIComponent(code)}/qr.svg`), alt: t("share.qr_alt", {code})}),
    h("div", {class: "share-text"}, h("p", {}, t("share.scan")), link, local));
  shareInfo(code).then((info) => {
    link.href = info.share_url;
    link.textContent = info.share_url;
    local.hidden = !info.share_local;
  });
  const copy = h("button", {type: "button", class: "btn ghost small", id: "copy-link", onclick: async () => {
    const info = await shareInfo(code);
    const warning = info.share_local ? ` ${t("share.local_only")}` : "";
    try {
      await navigator.clipboard.writeText(info.share_url);
      notice(t("table.copied") + warning, info.share_local ? "warn" : "info");
    } catch {
      notice(info.share_url + warning, info.share_local ? "warn" : "info");
    }
  }}, t("table.copy_link"));
  const toggle = h("button", {type: "button", class: "btn ghost small", id: "share-toggle",
    "aria-expanded": String(open), "aria-controls": "share-box", onclick: () => {
      open = !open;
      box.hidden = !open;
      toggle.setAttribute("aria-expanded", String(open));
    }}, t("share.qr"));
  return [copy, toggle, box];
}
