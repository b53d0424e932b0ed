"""Game records of the abstract games: tag pairs, then one action per line.

A record looks like this (the format is documented in docs/games/records.md)::

    [Game "dropper"]
    [Options "size=8"]
    [Start "dropper ......../......../......../......../......../......../......../........ w"]
    [White "Ann"]
    [Black "Bob"]
    [Date "2026.11.23"]
    [Result "white"]
    [Termination "white: 20, black: 18"]
    [Final "dropper wwbb..../... b"]

    1. white d5
    2. black d5>d4+b3
    3. white resigns

Tag pairs are PGN's (``[Name "value"]``, backslash escapes ``\\"`` and
``\\\\``), so a reader of PGN headers reads ours; the body is one action per
line (``N. SIDE TURN``), the turn text exactly as the game's rules file writes
it, so no turn text needs quoting. Actions that are not turns are lines too:
``N. SIDE claims NAME``, ``N. SIDE resigns``, ``N. SIDE offers a draw``,
``N. SIDE declines the draw``, ``N. SIDE accepts the draw``, ``N. SIDE runs out of time``.
Lines starting with ``;`` are comments. Reading replays every line through
the game's rules, so a record with an illegal turn is refused with the line
that holds it.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Mapping
from typing import Any

from companion.games import GameRules, IllegalTurn, OptionError, PositionError, get
from companion.games.base import Position
from companion.games.session import GameSession, Result, SessionError

LOGGER = logging.getLogger(__name__)

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_ACTION = re.compile(r"^([0-9]{1,9})\.\s+(\S+)\s+(.+?)\s*$")
TAG_ORDER = ("Game", "Options", "Start", "Event", "Site", "Date", "Round")


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message names the line and the problem."""


@dataclasses.dataclass(frozen=True)
class GameRecord:
    """A record read back: the tags and the replayed session (not journaled)."""

    tags: Mapping[str, str]
    session: GameSession

    @property
    def rules(self) -> GameRules[Any]:
        return self.session.rules


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def options_text(options: Mapping[str, str]) -> str:
    return " ".join(f"{key}={value}" for key, value in sorted(options.items()))


def parse_options(words: list[str] | str) -> dict[str, str]:
    """``["size=9", "komi=4"]`` or ``"size=9 komi=4"`` -> a dict; :class:`OptionError`."""
    items = words.split() if isinstance(words, str) else words
    options: dict[str, str] = {}
    for word in items:
        key, sep, value = word.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise OptionError(f"options are KEY=VALUE, not {word[:60]!r}")
        key = key.strip().lower()
        if key in options:
            raise OptionError(f"option {key[:40]!r} is given twice")
        options[key] = value.strip()
    return options


def _action_lines(session: GameSession) -> list[str]:
    lines = [f"{number}. {player} {text if kind == 'turn' else 'claims ' + text}"
             for number, (kind, text, player) in enumerate(session.record, start=1)]
    result = session.result
    if result is not None and result.by in ("resignation", "agreement", "time"):
        number = len(lines) + 1
        if result.by == "resignation":
            assert result.winner is not None
            lines.append(f"{number}. {session.opponent(result.winner)} resigns")
        elif result.by == "time":
            assert result.winner is not None
            lines.append(f"{number}. {session.opponent(result.winner)} runs out of time")
        else:
            lines.append(f"{number}. {session.to_move} offers a draw")
            lines.append(f"{number + 1}. {session.opponent(session.to_move)} accepts the draw")
    return lines


def write_record(session: GameSession, *, tags: Mapping[str, str] | None = None) -> str:
    """The session as record text (any time: an unfinished game has Result ``*``)."""
    values: dict[str, str] = {"Game": session.rules.name}
    if session.options:
        values["Options"] = options_text(session.options)
    values["Start"] = session.start.text()
    for player in session.rules.players:
        name = session.names.get(player)
        if name:
            values[player.capitalize()] = name
    values.update(seating_tags(session))
    values.update(table_tags(session))
    values.update(tags or {})
    result: Result | None = session.result
    values["Result"] = result.text if result is not None else "*"
    if result is not None:
        values["Termination"] = result.reason
    values["Final"] = session.position.text()
    order = [key for key in TAG_ORDER if key in values]
    order += [key for key in values if key not in order]
    head = "\n".join(f'[{key} "{_escape(values[key])}"]' for key in order)
    body = "\n".join(_action_lines(session))
    return head + "\n\n" + body + ("\n" if body else "")


def table_tags(session: GameSession) -> dict[str, str]:
    """Who sat where and the hints, in a game against the companion: ``Seats``
    (``white=person black=companion:3``), ``Hints`` (the limit) and ``HintsUsed``."""
    table = session.table
    seats = table.get("seats") if isinstance(table, dict) else None
    if not isinstance(seats, dict) or not seats:
        return {}
    order = [str(name) for name in table.get("order") or seats]
    return {"Seats": " ".join(f"{name}={seats.get(name)}" for name in order),
            "Hints": str(table.get("hints", "unlimited")),
            "HintsUsed": " ".join(f"{name}={session.hints_used.get(name, 0)}"
                                  for name in order)}


def seating_tags(session: GameSession) -> dict[str, str]:
    """Who plays which side where the players settle it in the game (Rumbo: the proposer
    names the komi, the chooser then picks a side): ``Komi`` and ``Seating``
    (``chooser=vertical proposer=horizontal``). Empty for other games and until the
    side is chosen."""
    seating = getattr(session.rules, "seating", None)
    if seating is None:
        return {}
    tags: dict[str, str] = {}
    for kind, text, _player in session.record:
        if kind != "turn":
            continue
        key, sep, value = text.partition("=")
        if sep and key.strip().lower() == "komi":
            tags["Komi"] = value.strip()
        elif sep and key.strip().lower() == "side":
            try:
                roles = seating(text)
            except (IllegalTurn, ValueError):
                continue
            tags["Seating"] = " ".join(f"{role}={side}" for role, side in sorted(roles.items()))
    return tags if "Seating" in tags else {}


def read_record(text: str) -> GameRecord:
    """Read and replay a record; :class:`RecordError` naming the line for anything wrong."""
    if not isinstance(text, str):
        raise TypeError(f"a record is text (str), not {type(text).__name__}")
    text = text.lstrip("\ufeff")
    tags: dict[str, str] = {}
    actions: list[tuple[int, str, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            if actions:
                raise RecordError(f"line {number}: a tag after the actions")
            match = _TAG.match(line)
            if match is None:
                raise RecordError(f'line {number}: not a tag pair [Name "value"]: {line!r}')
            if match[1] in tags:
                raise RecordError(f"line {number}: the tag {match[1]} is given twice")
            tags[match[1]] = _unescape(match[2])
            continue
        match = _ACTION.match(line)
        if match is None:
            raise RecordError(f"line {number}: not an action 'N. SIDE TURN': {line!r}")
        if int(match[1]) != len(actions) + 1:
            raise RecordError(f"line {number}: action numbered {match[1]}, expected "
                              f"{len(actions) + 1}")
        actions.append((number, match[2].lower(), match[3]))
    if "Game" not in tags:
        raise RecordError("the record has no [Game \"...\"] tag")
    try:
        rules = get(tags["Game"])
    except KeyError as error:
        raise RecordError(f"[Game]: {error}") from None
    try:
        options = parse_options(tags.get("Options", ""))
        start: Position = rules.start(**options)  # the options are checked either way
    except OptionError as error:
        raise RecordError(f"[Options]: {error}") from None
    if "Start" in tags:
        try:
            start = rules.parse(tags["Start"])
        except PositionError as error:
            raise RecordError(f"[Start]: {error}") from None
    names = {player: tags[player.capitalize()] for player in rules.players
             if player.capitalize() in tags}
    session = GameSession(rules, start, options=options, names=names)
    for number, side, action in actions:
        try:
            _replay(session, side, action)
        except (IllegalTurn, SessionError) as error:
            raise RecordError(f"line {number}: {side} {action}: {error}") from None
    _check_tags(tags, session)
    return GameRecord(tags, session)


def _replay(session: GameSession, side: str, action: str) -> None:
    if side != session.to_move:  # a role to move (Rumbo's proposer, chooser) is one too
        session.opponent(side)  # a side of this game?
    words = action.split()
    if words == ["resigns"]:
        session.resign(side)
    elif words == ["offers", "a", "draw"]:
        session.offer_draw(side)
    elif words == ["accepts", "the", "draw"]:
        session.accept_draw(side)
    elif words == ["declines", "the", "draw"]:
        session.decline_draw(side)
    elif words == ["runs", "out", "of", "time"]:
        session.flag(side)
    elif len(words) == 2 and words[0] == "claims":
        _check_side(session, side)
        session.claim(words[1])
    else:
        _check_side(session, side)
        session.play(action)


def _check_side(session: GameSession, side: str) -> None:
    if session.is_over:
        raise SessionError(f"the game is over already ({session.result and session.result.reason})")
    if side != session.to_move:
        raise SessionError(f"it is {session.to_move}'s turn, not {side}'s")


def _check_tags(tags: Mapping[str, str], session: GameSession) -> None:
    replayed_seating = seating_tags(session)
    for key in ("Komi", "Seating"):
        if key in tags and tags[key] != replayed_seating.get(key):
            raise RecordError(f"[{key}] says {tags[key]!r} but the actions give "
                              f"{replayed_seating.get(key, 'none')!r}")
    final = tags.get("Final")
    if final is not None:
        try:
            expected = session.rules.parse(final)
        except PositionError as error:
            raise RecordError(f"[Final]: {error}") from None
        if expected != session.position:
            raise RecordError(f"[Final] says {final!r} but the turns lead to "
                              f"{session.position.text()!r}")
    result = tags.get("Result")
    if result == "*" and session.result is not None:
        raise RecordError(f"[Result] says '*' (not over) but the actions end the game: "
                          f"{session.result.text} ({session.result.reason})")
    if result is not None and result != "*":
        replayed = session.result
        if replayed is None:
            raise RecordError(f"[Result] says {result!r} but the game is not over after "
                              f"its actions")
        if replayed.text != result.lower():
            raise RecordError(f"[Result] says {result!r} but the actions give "
                              f"{replayed.text!r} ({replayed.reason})")
