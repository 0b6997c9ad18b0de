"""Players' profiles on the server (docs/ratings.md): made without friction, signed in
on other devices, their games, statistics and ratings, and whom they block."""
