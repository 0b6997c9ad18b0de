// State changes (docs/protocol.md §4.3, "change"): the ops that make a seat's next state of
// the one it holds, applied exactly as remikit/server/transport/changes.py applies them.

/** `state` with `ops` applied: a new object, copied along the paths the ops change only
 * (`state` and the ops' values are left as they were). */
export function applyChanges(state, ops) {
  const root = {...state};
  const fresh = new Set([root]); // the containers made here: changed in place
  for (const op of ops) {
    const path = op[1];
    let parent = root;
    for (const step of path.slice(0, -1)) {
      let child = parent[step];
      if (!fresh.has(child)) {
        child = Array.isArray(child) ? child.slice() : {...child};
        fresh.add(child);
        parent[step] = child;
      }
      parent = child;
    }
    const last = path[path.length - 1];
    if (op[0] === "set") parent[last] = op[2];
    else if (op[0] === "append") {
      const items = parent[last].slice(0, op[2]).concat(op[3]);
      fresh.add(items);
      parent[last] = items;
    } else if (op[0] === "del") delete parent[last];
    else throw new Error(`unknown op ${op[0]}`);
  }
  return root;
}

/** The state message after `change` (a "change" message whose `base` is the `rev` of
 * `state`): its ops applied, its `state_id` and `rev` taken. */
export function applyChange(state, change) {
  const next = applyChanges(state, change.ops);
  next.state_id = change.state_id;
  next.rev = change.rev;
  return next;
}
