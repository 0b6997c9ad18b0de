"""Competitions on the server: referees' sign-in, entries, rounds, online tables, the API
and the pages."""
