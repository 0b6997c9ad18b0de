// The login box of the organiser's and the referee's pages: an account's name and password
// (POST …/login), kept in this browser until the token expires, logs out or the server no
// longer knows it.

import {N_, t} from "../i18n.js";
import {h} from "../util.js";
import {base, call, errorLine, keepLogin} from "./common.js";

const TITLE = {organiser: N_("comp.login.organiser"), referee: N_("comp.login.referee")};

/** A form that logs in as ``role`` and then calls ``done``. */
export function loginForm(role, done) {
  const error = errorLine();
  const name = h("input", {id: "login-name", required: true, maxlength: 40, autocomplete: "username", autocapitalize: "off"});
  const password = h("input", {id: "login-password", type: "password", required: true, autocomplete: "current-password"});
  const submit = async (event) => {
    event.preventDefault();
    try {
      const made = await call(base("/login"), {body: {role, password: password.value, name: name.value.trim()}});
      keepLogin(role, made.token, made.name);
      done();
    } catch (err) {
      error.show(err);
    }
  };
  return h("form", {id: "login-form", class: "card-box comp-form", onsubmit: submit},
    h("h1", {}, t(TITLE[role])),
    h("label", {for: "login-name"}, t("comp.login.account"), name),
    h("label", {for: "login-password"}, t("comp.login.password"), password),
    error.element,
    h("button", {type: "submit", class: "btn primary", id: "login-submit"}, t("comp.login.submit")));
}
