"""Competitions of Remi 13 D: seating, results, standings and exports of a whole event."""
