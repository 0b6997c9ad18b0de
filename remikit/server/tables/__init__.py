"""The table service: each table's game, seats, settings, fair deals, call window and
timers as one state machine over an injected store and clock. It knows no socket and no
JSON; it emits events the transport, the bot driver and the lobby subscribe to."""
