"""The HTTP routes as APIRouters: pages, the lobby and tables, finished games, variants."""
