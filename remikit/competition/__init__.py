"""A Remi 13 D competition: seating, results, standings and exports (docs/competition.md)."""
