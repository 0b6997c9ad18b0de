"""``remi replay FILE [--json]``: replay a game record and print the scores."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from remikit.i18n import LANGUAGES, default_lang, t
from remikit.records import RecordError, ReplayResult, load_record, replay


def add_parser(subparsers: Any) -> None:
    lang = default_lang()
    p = subparsers.add_parser("replay", help=t("replay.help", lang))
    p.add_argument("file", help="FILE.json")
    p.add_argument("--json", action="store_true", help=t("replay.help_json", lang))
    p.add_argument("--lang", choices=LANGUAGES, default=None)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    result: ReplayResult | None = None
    try:
        result = replay(load_record(args.file))
    except RecordError as exc:
        out: dict[str, Any] = {"ok": False, "reason": str(exc)}
    else:
        out = result.as_json()
    if args.json:
        print(json.dumps(out))
        return 0 if out["ok"] else 1
    lang = args.lang or default_lang()
    if not out["ok"]:
        where = f" [{out['index']}] {out['action']}" if "index" in out else ""
        print(t("replay.failed", lang, where=where, reason=out["reason"]), file=sys.stderr)
        return 1
    assert result is not None and result.game is not None
    game = result.game
    table = Table(title=t("replay.cli_title", lang, variant=game.name))
    table.add_column(t("common.deal", lang))
    names = result.players or tuple(f"p{seat}" for seat in range(game.players))
    for name in names:
        table.add_column(name, justify="right")
    for i, points in enumerate(out["hand_scores"], start=1):
        table.add_row(str(i), *map(str, points))
    table.add_row(t("common.total", lang), *map(str, out["totals"]), style="bold")
    console = Console()
    console.print(table)
    if out["finished"]:
        winner = out["winner"]
        if winner is None:
            console.print(t("common.no_winner", lang))
        elif result.players is not None:
            console.print(t("common.winner_name", lang, name=result.players[winner]))
        else:
            console.print(t("common.winner_seat", lang, seat=winner))
    else:
        console.print(t("replay.not_finished", lang))
    return 0
