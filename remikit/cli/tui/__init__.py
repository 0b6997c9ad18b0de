"""The terminal table of ``remi play``: the session, the person's commands, the
renderer base that each variant's ``tui`` builds on, and Rich tables."""
