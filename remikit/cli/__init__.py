"""Command-line front ends: the ``remi`` console script and its subcommands."""
