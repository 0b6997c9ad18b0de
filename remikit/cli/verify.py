"""``remi verify RECORD [--json] [--round-secret HEX --round-commitment HEX]``: check the
fairness data of a game record (docs/fairness.md).

Every deal's revealed secret must match the commitment published before the deal, and
the key of the secret and the contributions must give the deck the record holds; a
table of a duplicate round is also checked against its round's secret and commitment.
Each :class:`~remikit.fairness.Mismatch` is told in the user's language.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from remikit.fairness import DealCheck, Mismatch, check_round, verify_record
from remikit.i18n import LANGUAGES, N_, default_lang, t, tn
from remikit.records import RecordError, load_record

MESSAGES = {
    "no_fairness": N_("verify.no_fairness"),
    "malformed": N_("verify.malformed"),
    "table": N_("verify.table"),
    "deal_number": N_("verify.deal_number"),
    "seats": N_("verify.seats"),
    "no_secret": N_("verify.no_secret"),
    "commitment": N_("verify.commitment"),
    "round_commitment": N_("verify.round_commitment"),
    "round_secret": N_("verify.round_secret"),
    "round_contributions": N_("verify.round_contributions"),
}
"""The message of each :class:`Mismatch` code but ``deck``, its fields filled in."""

NOTHING_TO_VERIFY = 3
"""The exit status for a record none of whose deals carries fairness data."""


def add_parser(subparsers: Any) -> None:
    lang = default_lang()
    p = subparsers.add_parser("verify", help=t("verify.help", lang))
    p.add_argument("record", metavar="RECORD", help="FILE.json")
    p.add_argument("--json", action="store_true", help=t("verify.help_json", lang))
    p.add_argument("--round-secret", metavar="HEX", help=t("verify.help_round_secret", lang))
    p.add_argument(
        "--round-commitment", metavar="HEX", help=t("verify.help_round_commitment", lang)
    )
    p.add_argument("--lang", choices=LANGUAGES, default=None)
    p.set_defaults(func=run)


def round_arguments(args: argparse.Namespace, lang: str) -> tuple[bytes, bytes] | None:
    """The round secret and commitment asked for (None: neither); :class:`RecordError`
    unless both are given, each 32 bytes in hex."""
    given = (args.round_secret, args.round_commitment)
    if given == (None, None):
        return None
    try:
        secret, commitment = (bytes.fromhex(text or "") for text in given)
    except ValueError:
        secret = commitment = b""
    if len(secret) != 32 or len(commitment) != 32:
        raise RecordError(t("verify.round_arguments", lang))
    return secret, commitment


def problem_text(problem: Mismatch, lang: str) -> str:
    """What does not match, as a sentence in ``lang``."""
    if problem.code != "deck":
        return t(MESSAGES[problem.code], lang, **problem.fields)
    fields = problem.fields
    differ = int(fields["differ"])
    if fields["found"] is None:
        return tn("verify.deck_short", differ, lang, **fields)
    if fields["expected"] is None:
        return tn("verify.deck_long", differ, lang, **fields)
    return tn("verify.deck", differ, lang, **fields)


def check_json(check: DealCheck, lang: str) -> dict[str, Any]:
    """:meth:`DealCheck.as_json` with each problem's message in ``lang``."""
    out = check.as_json()
    if check.problems:
        out["problems"] = [
            {**p.as_json(), "message": problem_text(p, lang)} for p in check.problems
        ]
    return out


def run(args: argparse.Namespace) -> int:
    lang = args.lang or default_lang()
    try:
        round_given = round_arguments(args, lang)
        record = load_record(args.record)
        checks = verify_record(record, round_given[0] if round_given else None)
    except RecordError as exc:
        if args.json:
            print(json.dumps({"ok": False, "reason": str(exc)}))
        else:
            print(t("verify.failed", lang, reason=str(exc)), file=sys.stderr)
        return 1
    if checks and all(
        [p.code for p in check.problems] == ["no_fairness"] for check in checks
    ):  # not from a web table, or from before fair deals: nothing to check
        reason = t("verify.nothing", lang)
        if args.json:
            print(json.dumps({"ok": False, "nothing_to_verify": True, "reason": reason}))
        else:
            print(reason, file=sys.stderr)
        return NOTHING_TO_VERIFY
    round_problems = check_round(*round_given) if round_given else []
    ok = all(check.verified for check in checks) and not round_problems
    if args.json:
        out: dict[str, Any] = {"ok": ok, "deals": [check_json(c, lang) for c in checks]}
        if round_given:
            out["round"] = {
                "verified": not round_problems,
                "problems": [
                    {**p.as_json(), "message": problem_text(p, lang)} for p in round_problems
                ],
            }
        print(json.dumps(out))
        return 0 if ok else 1
    table = Table(title=t("verify.title", lang))
    table.add_column(t("common.deal", lang), justify="right")
    table.add_column(t("verify.result", lang))
    for check in checks:
        if check.verified:
            table.add_row(str(check.deal), t("verify.verified", lang), style="green")
        else:
            table.add_row(str(check.deal), t("verify.not_verified", lang), style="bold red")
    console = Console(highlight=False)
    console.print(table)
    for check in checks:
        for problem in check.problems:
            line = t("verify.problem", lang, deal=check.deal, problem=problem_text(problem, lang))
            console.print(line, markup=False, soft_wrap=True)
    for problem in round_problems:
        console.print(problem_text(problem, lang), style="bold red", markup=False)
    failed = sum(not check.verified for check in checks)
    if ok:
        console.print(tn("verify.all_verified", len(checks), lang), style="bold green")
    elif failed:
        summary = tn("verify.some_failed", failed, lang, total=len(checks))
        console.print(summary, style="bold red")
    return 0 if ok else 1
