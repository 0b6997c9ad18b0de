"""remikit: rummy as played at Indonesian tables (Remi 13 D, Rummy 500, Three-Thirteen)."""
