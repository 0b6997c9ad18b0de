"""The sockets: hello, dispatch, per-seat state messages built once per state change,
changes instead of the whole log, presence, and the bounds on what a client may spend."""
