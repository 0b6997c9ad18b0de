// What the browser client adds to the page's globals, for the type check (tsconfig.json).
interface Window {
  /** The page's state, for the browser tests and the curious. */
  remikit: unknown;
}
