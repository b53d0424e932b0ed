"""Records of Raindropchess: RFEN helpers, and PGN export and import of whole games.

PGN (see docs/pgn.md): ``[Variant "Raindropchess"]``, the house rules in
``[RaindropRules "..."]``, optionally the decks' order in ``[RaindropDecks
"..."]``. A flip and its placement are one drop (``N@e4``); flips that place
nothing are comments ``{[%flip CARD OUTCOME]}``, a joker's removal
``{[%remove e5]}``, and where such a flip ends the turn a null move ``--``
follows, so ``chess.pgn`` keeps the turn right. The reader here replays a PGN
action for action; with the decks' order it replays exactly (every flip is
checked against the recorded top card).
"""

from __future__ import annotations

import dataclasses
import io
import logging
import re
import time
from collections.abc import Callable

import chess
import chess.pgn

from companion.cards import DeckError, Decks
from companion.clock import MAX_BASE, MAX_EXTRA, ClockSettings, ClockSettingsError
from companion.game import Game
from companion.limits import LimitError, parse_decimal
from companion.rules import (
    STARTING_RFEN,
    ActionKind,
    FlipOutcome,
    HouseRules,
    HouseRulesError,
    IllegalActionError,
    RaindropBoard,
    RfenError,
    Termination,
    parse_card_letter,
)
from companion.table.seats import CHESS_SEATS, SeatError, TableSettings

LOGGER = logging.getLogger(__name__)

VARIANT = "Raindropchess"
_TAG = re.compile(r"\[%(flip|remove)\s+([^\]]*)\]")
_OUTCOMES = {outcome.value: outcome for outcome in FlipOutcome}
_PENDING = "pending"
_SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


class PgnError(ValueError):
    """A PGN that is not a readable Raindropchess game; the message says what is wrong."""


# ----------------------------------------------------------------------
# RFEN helpers


def board_from_rfen(rfen: str, rules: HouseRules | None = None) -> RaindropBoard:
    """A board set up from an RFEN; :class:`RfenError` names the bad field."""
    return RaindropBoard(rfen.strip(), rules=rules)


def is_valid_rfen(rfen: str, rules: HouseRules | None = None) -> bool:
    try:
        board_from_rfen(rfen, rules)
    except RfenError:
        return False
    return True


def rules_to_text(rules: HouseRules) -> str:
    """All house rules as ``key=value,...`` (what :meth:`HouseRules.parse` reads)."""
    parts = []
    for key, value in rules.to_dict().items():
        text = ("true" if value else "false") if isinstance(value, bool) else str(value)
        parts.append(f"{key}={text}")
    return ",".join(parts)


def order_to_text(order: dict[str, list[str]]) -> str:
    """A deck order as ``WHITECARDS/blackcards``, top first."""
    return "".join(order["white"]) + "/" + "".join(order["black"])


def order_from_text(text: str) -> dict[str, list[str]]:
    white, sep, black = text.strip().partition("/")
    if not sep:
        raise PgnError(f"RaindropDecks must be WHITE/black card letters, got {text!r}")
    return {"white": list(white), "black": list(black)}


# ----------------------------------------------------------------------
# Export


def write_pgn(game: Game, *, headers: dict[str, str] | None = None,
              include_decks: bool = False) -> str:
    """The game as PGN text.

    ``include_decks``: also write the decks' order (``RaindropDecks``, an order
    that replays the game exactly): an explicit export, allowed only once the
    game is over (:class:`ValueError` before), since it reveals the cards.
    """
    if include_decks and not game.is_over:
        raise ValueError("the decks' order is written only once the game is over (it "
                         "would reveal the cards still to come)")
    outcome = game.outcome
    result = outcome.result() if outcome is not None else "*"
    tags: dict[str, str] = {
        "Event": "Raindropchess game",
        "Site": "?",
        "Date": time.strftime("%Y.%m.%d"),
        "Round": "-",
        "White": "White",
        "Black": "Black",
        "Result": result,
        "Variant": VARIANT,
    }
    start = game.rules.start_rfen()
    if start != STARTING_RFEN:
        tags["SetUp"] = "1"
        tags["FEN"] = start
    tags["RaindropRules"] = rules_to_text(game.rules)
    tags.update(table_tags(game))
    if include_decks:
        tags["RaindropDecks"] = order_to_text(game.export_played_order())
    if game.clock is not None:
        settings = game.clock.settings
        extra = settings.increment or settings.delay
        tags["TimeControl"] = f"{settings.base:g}" + (f"+{extra:g}" if settings.increment
                                                      else f"d{extra:g}" if extra else "")
    if outcome is not None:
        tags["Termination"] = _pgn_termination(outcome.termination)
        tags["RaindropEnd"] = outcome.termination.name.lower()
    for key, value in (headers or {}).items():
        tags[key] = value
    lines = [f'[{key} "{_escape(value)}"]' for key, value in tags.items()]
    movetext = " ".join([*_movetext_tokens(game), result])
    return "\n".join(lines) + "\n\n" + _wrap(movetext) + "\n"


def table_tags(game: Game) -> dict[str, str]:
    """Who sat where and the hints (a game against the companion): ``White``/``Black``
    name a companion seat (``Companion (level 3)``), ``RaindropSeats`` (``white=person
    black=companion:3``), ``RaindropHints`` (the limit) and ``RaindropHintsUsed``."""
    if not game.table:
        return {}
    try:
        settings = TableSettings.from_dict(game.table, CHESS_SEATS)
    except SeatError:
        return {}
    tags = {seat.name.capitalize(): seat.title() for seat in settings.companions}
    tags["RaindropSeats"] = settings.tags()["Seats"]
    tags["RaindropHints"] = settings.hints.text()
    tags["RaindropHintsUsed"] = " ".join(f"{side}={game.hints_used.get(side, 0)}"
                                         for side in CHESS_SEATS)
    return tags


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _pgn_termination(termination: Termination) -> str:
    if termination == Termination.TIME_FORFEIT:
        return "time forfeit"
    return "normal"


def _movetext_tokens(game: Game) -> list[str]:
    board = RaindropBoard(rules=game.rules)
    tokens: list[str] = []
    need_number = True
    comment: list[str] = []

    def flush_comment() -> None:
        nonlocal need_number
        if comment:
            tokens.append("{" + " ".join(comment) + "}")
            comment.clear()
            need_number = True

    def visible(token: str, turn: chess.Color, fullmove: int) -> None:
        nonlocal need_number
        flush_comment()
        if turn == chess.WHITE:
            tokens.append(f"{fullmove}.")
        elif need_number:
            tokens.append(f"{fullmove}...")
        tokens.append(token)
        need_number = False

    actions = game.actions()
    for index, action in enumerate(actions):
        turn, fullmove = board.turn, board.fullmove_number
        if action.kind == ActionKind.FLIP:
            assert action.card is not None and action.outcome is not None
            board.flip(action.card)
            is_last = index + 1 == len(actions)
            if action.outcome == FlipOutcome.PLACE:
                if is_last:
                    comment.append(f"[%flip {action.card} {_PENDING}]")
                continue  # written as the drop that follows
            if action.outcome == FlipOutcome.REMOVE_PIECE and is_last:
                comment.append(f"[%flip {action.card} {_PENDING}]")
                continue
            comment.append(f"[%flip {action.card} {action.outcome.value}]")
            if board.turn != turn:  # the turn ended without a move: a null for chess.pgn
                visible("--", turn, fullmove)
        elif action.kind == ActionKind.MOVE:
            assert action.move is not None
            visible(board.san(action.move), turn, fullmove)
            board.push(action.move)
        else:
            assert action.square is not None
            comment.append(f"[%remove {chess.square_name(action.square)}]")
            board.push_removal(action.square)
            visible("--", turn, fullmove)
    flush_comment()
    return tokens


def _wrap(text: str, width: int = 79) -> str:
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "\n".join(lines)


# ----------------------------------------------------------------------
# Import


@dataclasses.dataclass(frozen=True)
class ReplayStep:
    """One action of an imported game and the position after it."""

    number: int          # 1-based action number
    color: chess.Color   # who acted
    text: str            # the action, e.g. "N@e4", "flip P (unplaceable)"
    rfen: str


@dataclasses.dataclass(frozen=True)
class ImportedGame:
    """A PGN replayed into a :class:`Game`, with every intermediate position."""

    game: Game
    headers: dict[str, str]
    steps: tuple[ReplayStep, ...]
    start_rfen: str
    exact: bool          # the decks' order was recorded, so every flip was checked
    number: int = 1      # which game of the text (from 1)
    games: int = 1       # how many games the text holds


class _RecordVisitor(chess.pgn.BaseVisitor["_Record"]):
    """Collects headers, comments and move tokens in order, without letting
    ``chess.pgn`` parse the moves (a remove-piece joker changes the position in a
    way only this module's replay knows)."""

    def begin_game(self) -> None:
        self.record = _Record()

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        self.record.headers[tagname] = tagvalue

    def begin_parse_san(self, board: chess.Board, san: str) -> chess.pgn.SkipType:
        self.record.stream.append(("san", san))
        return chess.pgn.SKIP

    def visit_comment(self, comment: str) -> None:
        self.record.stream.append(("comment", comment))

    def begin_variation(self) -> chess.pgn.SkipType:
        self.record.variations += 1
        return chess.pgn.SKIP

    def visit_result(self, result: str) -> None:
        self.record.result = result

    def handle_error(self, error: Exception) -> None:
        self.record.errors.append(str(error))

    def result(self) -> _Record:
        return self.record


@dataclasses.dataclass
class _Record:
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    stream: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    variations: int = 0
    result: str | None = None


_TAG_LINE = re.compile(r'\s*\[[A-Za-z0-9_]+\s+"')


def decode_pgn(data: bytes) -> str:
    """PGN file bytes as text: UTF-8 (a byte-order mark dropped), else Latin-1, the
    PGN standard's encoding (what python-chess's docs suggest opening files with)."""
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"decode_pgn needs bytes, not {type(data).__name__}")
    try:
        return bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError:
        return bytes(data).decode("latin-1")


def split_games(text: str) -> list[str]:
    """The games of a PGN text, each as its own text (a new game starts at a tag line
    after movetext, outside comments)."""
    if not isinstance(text, str):
        raise TypeError(f"a PGN is text (str), not {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    games: list[list[str]] = [[]]
    seen_moves = False
    depth = 0
    for line in text.splitlines(keepends=True):
        if depth == 0 and _TAG_LINE.match(line):
            if seen_moves:
                games.append([])
                seen_moves = False
        elif line.strip() and depth == 0 and not line.lstrip().startswith("%"):
            seen_moves = True
        for char in line:
            if char == "{":
                depth += 1
            elif char == "}" and depth:
                depth -= 1
        games[-1].append(line)
    return ["".join(lines) for lines in games if "".join(lines).strip()]


def read_pgn(text: str, *, number: int = 1, now: Callable[[], float] | None = None,
             ) -> ImportedGame:
    """Replay game ``number`` (from 1) of a PGN text action for action;
    :class:`PgnError` says what is wrong.

    Reading never changes a file or any existing game.
    """
    games = split_games(text)
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"the game number is an int, not {type(number).__name__}")
    if not games:
        raise PgnError("the PGN is empty")
    if not 1 <= number <= len(games):
        raise PgnError(f"there is no game {number}: the PGN holds {len(games)} game(s)")
    text = games[number - 1]
    try:
        record = chess.pgn.read_game(io.StringIO(text), Visitor=_RecordVisitor)
    except ValueError as error:
        raise PgnError(f"cannot read the PGN: {error}") from None
    if record is None or (not record.headers and not record.stream):
        raise PgnError("no game found in the PGN (expected [Tag \"value\"] headers and "
                       "moves)")
    headers = record.headers
    variant = headers.get("Variant")
    if variant is None or variant.lower() not in ("raindropchess", "raindrop chess"):
        raise PgnError(f'not a Raindropchess game: the header [Variant "{VARIANT}"] is '
                       f'{"missing" if variant is None else f"{variant!r}"}')
    if record.errors:
        raise PgnError(f"the PGN has an error: {record.errors[0]}")
    _check_movetext(text)
    if record.variations:
        LOGGER.warning("the PGN's %d variation(s) were skipped: only the main line is "
                       "replayed", record.variations)
    try:
        rules = HouseRules.parse(headers.get("RaindropRules", ""))
    except HouseRulesError as error:
        raise PgnError(f"bad RaindropRules header: {error}") from None
    if headers.get("FEN") and headers["FEN"].split() != rules.start_rfen().split():
        raise PgnError(f"the FEN header {headers['FEN']!r} is not the start of a game "
                       f"under its RaindropRules ({rules.start_rfen()!r}); only whole "
                       f"games can be imported")
    decks = None
    if "RaindropDecks" in headers:
        try:
            decks = Decks.from_order(order_from_text(headers["RaindropDecks"]), rules)
        except DeckError as error:
            raise PgnError(f"bad RaindropDecks header: {error}") from None
    clock = None
    if headers.get("TimeControl") and headers["TimeControl"] not in ("-", "?"):
        try:
            clock = _parse_time_control(headers["TimeControl"])
        except ClockSettingsError as error:
            raise PgnError(f"bad TimeControl header: {error}") from None
    if now is None:
        game = Game(rules, decks=decks, clock=clock)
    else:
        game = Game(rules, decks=decks, clock=clock, now=now)
    with game.replaying():
        steps = _replay(record, game, exact=decks is not None)
        _apply_end(headers, game)
    if decks is None:
        game.reshuffle_decks()
    return ImportedGame(game, headers, tuple(steps), rules.start_rfen(), decks is not None,
                        number, len(games))


def _parse_time_control(text: str) -> ClockSettings:
    match = re.fullmatch(r"([0-9.]+)(?:([+d])([0-9.]+))?", text.strip())
    if not match:
        raise ClockSettingsError(f"expected SECONDS, SECONDS+INCREMENT or SECONDSdDELAY, "
                                 f"got {text[:40]!r}")
    base, kind, extra = match.groups()
    try:
        seconds = parse_decimal(base, "the seconds", high=MAX_BASE)
        added = parse_decimal(extra, "the seconds added", high=MAX_EXTRA) if extra else 0.0
    except LimitError as error:
        raise ClockSettingsError(str(error)) from None
    return ClockSettings(seconds, increment=added if kind == "+" else 0.0,
                         delay=added if kind == "d" else 0.0)


def _where(game: Game) -> str:
    return f"move {game.fullmove_number} ({chess.COLOR_NAMES[game.turn]})"


_NULLS = ("--", "Z0", "0000", "@@@@")
_MOVE_TOKEN = re.compile(
    r"(?:[NBKRQ]?[a-h]?[1-8]?[-x]?[a-h][1-8](?:=?[nbrqkNBRQK])?|[PNBRQKpnbrqk]?@[a-h][1-8]"
    r"|--|Z0|0000|@@@@)[+#]?[?!]{0,2}")
_OTHER_TOKEN = re.compile(r"[0-9]+\.*|\$[0-9]+|\*|1-0|0-1|1/2-1/2|[?!]{1,2}|[()]")
_RAW_TOKEN = re.compile(r"\{[^}]*\}?|;[^\n]*|[()]|[^\s(){};]+")


def _check_movetext(text: str) -> None:
    """Refuse tokens ``chess.pgn`` would silently skip (e.g. ``Qh9``, ``hello``)."""
    body: list[str] = []
    in_headers = True
    for line in text.splitlines():
        stripped = line.strip()
        if in_headers and (stripped.startswith("[") or not stripped):
            continue
        in_headers = False
        if stripped.startswith("%"):
            continue
        body.append(line)
    for token in _RAW_TOKEN.findall("\n".join(body)):
        if token.startswith(("{", ";")):
            continue
        move_part = re.sub(r"^[0-9]+\.+", "", token)
        if not move_part or _OTHER_TOKEN.fullmatch(token) or _MOVE_TOKEN.fullmatch(move_part):
            continue
        raise PgnError(f"the moves contain {token!r}, which is neither a move in SAN "
                       f"(e.g. e3, Nf3, N@e4, --) nor a move number, comment or result")


def _replay(record: _Record, game: Game, *, exact: bool) -> list[ReplayStep]:
    steps: list[ReplayStep] = []
    turn_passed = False  # the last action ended a turn without a move: a "--" may follow

    def step(color: chess.Color) -> None:
        steps.append(ReplayStep(len(steps) + 1, color, game.action_texts()[-1], game.rfen()))

    def do_flip(card: str, expected: FlipOutcome | None) -> FlipOutcome:
        where = _where(game)
        color = game.turn
        try:
            kind_color = parse_card_letter(card)[1]
        except ValueError:
            raise PgnError(f"{where}: {card!r} is not a card letter") from None
        if kind_color != color:
            raise PgnError(f"{where}: the record flips {card!r}, a "
                           f"{chess.COLOR_NAMES[kind_color]} card, on "
                           f"{chess.COLOR_NAMES[color]}'s turn")
        try:
            if exact:
                top = game.export_next_card()
                if top != card:
                    raise PgnError(f"{where}: the record flips {card!r} but the recorded "
                                   f"deck order has {top!r} on top")
                event = game.flip()
            else:
                event = game.flip_card(card)
        except IllegalActionError as error:
            raise PgnError(f"{where}: cannot flip {card!r}: {error}") from None
        if expected is not None and event.outcome != expected:
            raise PgnError(f"{where}: the record says the flip of {card!r} was "
                           f"{expected.value}, but replayed it is {event.outcome.value}")
        step(color)
        return event.outcome

    def do_tag(name: str, args: list[str], passed: bool) -> bool:
        """Apply one ``[%flip ...]``/``[%remove ...]``; whether the turn passed."""
        where = _where(game)
        if name == "flip":
            if len(args) != 2 or (args[1] not in _OUTCOMES and args[1] != _PENDING):
                raise PgnError(f"{where}: malformed comment [%flip {' '.join(args)}]: "
                               f"expected [%flip CARD OUTCOME] (see docs/pgn.md)")
            expected = None if args[1] == _PENDING else _OUTCOMES[args[1]]
            before = game.turn
            do_flip(args[0], expected)
            return game.turn != before
        if len(args) != 1:
            raise PgnError(f"{where}: malformed comment [%remove {' '.join(args)}]: "
                           f"expected [%remove SQUARE]")
        try:
            square = chess.parse_square(args[0])
        except ValueError:
            raise PgnError(f"{where}: [%remove {args[0]}] names no square") from None
        color = game.turn
        try:
            game.remove(square)
        except IllegalActionError as error:
            raise PgnError(f"{where}: cannot remove the piece on {args[0]}: {error}") from None
        step(color)
        return True

    for kind, value in record.stream:
        if kind == "comment":
            for match in _TAG.finditer(value):
                turn_passed = do_tag(match.group(1), match.group(2).split(), turn_passed)
            continue
        token = value
        if token in _NULLS:
            if not turn_passed:
                raise PgnError(f"{_where(game)}: a null move '--' that does not follow a "
                               f"flip that placed nothing (see docs/pgn.md)")
            turn_passed = False
            continue
        turn_passed = False
        color = game.turn
        where = _where(game)
        try:
            move = game.parse_san(token)
        except (ValueError, IllegalActionError) as error:
            raise PgnError(f"{where}: cannot play {token!r}: {error}") from None
        if move.drop and game.pending is None:
            do_flip(_card_for_drop(game, move), FlipOutcome.PLACE)
        try:
            game.play(move)
        except IllegalActionError as error:
            raise PgnError(f"{where}: {token!r} cannot be played: {error}") from None
        step(color)
    return steps


def _card_for_drop(game: Game, move: chess.Move) -> str:
    assert move.drop is not None
    color = game.turn
    letter = chess.piece_symbol(move.drop)
    counts = game.deck_counts(color)
    if move.drop == chess.BISHOP and not counts.get(letter.upper() if color else letter):
        light = bool(chess.BB_SQUARES[move.to_square] & chess.BB_LIGHT_SQUARES)
        letter = "l" if light else "d"
    return letter.upper() if color == chess.WHITE else letter


def _apply_end(headers: dict[str, str], game: Game) -> None:
    """Apply an ending the moves do not show (resignation, agreement, claim, time)."""
    result = headers.get("Result", "*")
    end = headers.get("RaindropEnd", "").strip().lower()
    if result == "*" and end:
        raise PgnError(f"the RaindropEnd header says the game ended ({end}), but the Result "
                       f"header says '*' (not over)")
    if game.is_over or result == "*":
        outcome = game.outcome
        if outcome is not None and result != outcome.result():
            raise PgnError(f"the Result header says {result}, but the moves end in "
                           f"{outcome.result()} ({outcome.describe()})")
        return
    loser = {"1-0": chess.BLACK, "0-1": chess.WHITE}.get(result)
    try:
        if end == "agreement" and loser is None:
            game.offer_draw(game.turn)
            game.accept_draw(not game.turn)
        elif end in ("fifty_moves", "threefold_repetition") and loser is None:
            if not game.claim_draw():
                raise PgnError(f"the record ends in a claimed draw ({end}) that the final "
                               f"position does not allow")
        elif end == "time_forfeit" and loser is not None:
            game.flag(loser)
        elif loser is not None and end in ("resignation", ""):
            game.resign(loser)
        elif loser is None and end == "":
            game.offer_draw(game.turn)
            game.accept_draw(not game.turn)
        else:
            raise PgnError(f"the ending {end!r} does not fit the result {result}")
    except IllegalActionError as error:
        raise PgnError(f"cannot apply the result {result}: {error}") from None
