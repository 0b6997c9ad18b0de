// ESLint's settings for the browser client (make lint): the recommended rules, ES modules
// in the browser, and Node's globals for the client's unit tests.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["remikit/server/static/**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: globals.browser},
  },
  {
    files: ["tests/js/**/*.js"],
    languageOptions: {ecmaVersion: 2022, sourceType: "module", globals: {...globals.node, ...globals.browser}},
  },
];
