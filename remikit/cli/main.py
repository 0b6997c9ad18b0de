"""The ``remi`` console script: one argparse subcommand per module of :mod:`remikit.cli`.

Each module in :data:`SUBCOMMANDS` exposes ``add_parser(subparsers)``, which
registers its subparser with ``func=run`` (``run(args) -> int``, the exit
status). A module that does not exist yet is left out. A subcommand that sets
``intermixed=DEST`` lets positional arguments follow its options
(``remi score remi13d --closing Ah 3s 4s …``): they are appended to ``DEST``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType

from remikit.variants import playable

SUBCOMMANDS = (
    "score",
    "play",
    "arena",
    "ladder",
    "openspiel",
    "replay",
    "review",
    "verify",
    "serve",
)


def _subcommand(name: str) -> ModuleType | None:
    """The module of a subcommand, or None when that module is not there."""
    module_name = f"{__package__}.{name}"
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            return None
        raise


def _version() -> str:
    try:
        return version("remikit")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    games = ", ".join(spec.title("en") for spec in playable())
    parser = argparse.ArgumentParser(prog="remi", description=f"{games}: play, score, check.")
    parser.add_argument("--version", action="version", version=f"remi {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        module = _subcommand(name)
        if module is not None:
            module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run ``remi`` with ``argv`` (default: the process arguments); returns the exit status."""
    parser = build_parser()
    try:
        args, extras = parser.parse_known_args(argv)
        dest = getattr(args, "intermixed", None)
        if extras:
            if dest is None or any(e.startswith("-") for e in extras):
                parser.error(f"unrecognized arguments: {' '.join(extras)}")
            getattr(args, dest).extend(extras)
    except SystemExit as exc:  # --help, --version, usage errors
        return exc.code if isinstance(exc.code, int) else 2
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `remi score --batch f | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
