"""``raindrop check RFEN``: is this checkmate? The mate verdict for a position."""

from __future__ import annotations

import argparse
import json

from companion.cli import CommandError
from companion.rules import HouseRules, HouseRulesError, RaindropBoard, RfenError, mate_verdict


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check", help="judge a position: is the side to move checkmated, and why",
        description="Print the mate verdict for an RFEN position: the leaflet's four "
                    "conditions, the cards that could rescue and the chance a flip rescues.")
    parser.add_argument("rfen", help="the position in RFEN (quote it)")
    parser.add_argument("--rules", default="", metavar="KEY=VALUE[,KEY=VALUE]",
                        help="house rules, e.g. failed_rescue=return,joker_effect=remove_piece")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = HouseRules.parse(args.rules)
    except HouseRulesError as error:
        raise CommandError(str(error)) from None
    try:
        board = RaindropBoard(args.rfen, rules=rules)
    except RfenError as error:
        raise CommandError(str(error)) from None
    verdict = mate_verdict(board)
    outcome = board.outcome()
    if args.json:
        data = verdict.to_dict()
        data["rfen"] = board.rfen()
        data["outcome"] = None if outcome is None else {
            "result": outcome.result(), "termination": outcome.termination.name.lower(),
            "description": outcome.describe()}
        print(json.dumps(data, indent=2))
    else:
        print(board.rfen())
        print(verdict.explain())
        if outcome is not None:
            print(outcome.describe())
    return 0
