"""The Raindropchess game screen's wording (no Kivy): names, clocks, the move list, messages
without the rule book's codes, and what each flip, event and moment says to the players.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import chess

from companion import events
from companion.rules import FlipOutcome, Outcome, card_name, parse_card_letter
from companion.rules.letters import JOKER
from ui.table_view import AlertLevel

LOGGER = logging.getLogger(__name__)

PIECE_TITLES = {chess.KING: "King", chess.QUEEN: "Queen", chess.ROOK: "Rook",
                chess.BISHOP: "Bishop", chess.KNIGHT: "Knight", chess.PAWN: "Pawn"}


def side_name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def format_clock(seconds: float) -> str:
    """``m:ss`` (``h:mm:ss`` from an hour; tenths under ten seconds)."""
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def moves_text(san: list[str] | tuple[str, ...]) -> str:
    """The SAN list as numbered pairs: ``1. N@e4 p@e5  2. ...``.

    Each entry is one action of one side, so numbering follows the entries.
    """
    nbsp = "\u00a0"  # a pair never breaks across lines
    pairs = []
    for index in range(0, len(san), 2):
        pairs.append(f"{index // 2 + 1}.{nbsp}" + nbsp.join(san[index:index + 2]))
    return "   ".join(pairs)


_RULE_CODE = re.compile(r"\s*\((?:[^()]*?,\s*)?R\d+[a-z]?\)|,\s*R\d+[a-z]?(?=\))")


_PLURAL = re.compile(r"\b(\d+)( [A-Za-z-]+)\(s\)")


def plain(text: str) -> str:
    """A message without the rule book's codes (``"(failed rescue, R7)"`` -> ``"(failed
    rescue)"``, ``"... (R7)"`` -> ``"..."``) and with plurals that agree (``"2 move(s)"``
    -> ``"2 moves"``, ``"1 card(s)"`` -> ``"1 card"``)."""
    def keep_words(match: re.Match[str]) -> str:
        inner = match.group(0)
        if inner.lstrip().startswith("(") and "," in inner:
            words = inner.strip()[1:].rsplit(",", 1)[0]
            return f" ({words})"
        return ""
    text = _RULE_CODE.sub(keep_words, text)
    return _PLURAL.sub(lambda m: m.group(1) + m.group(2) + ("" if m.group(1) == "1" else "s"),
                       text)


_CARD_ON = re.compile(r"(?<![A-Za-z@])([KQRBNPJkqrbnpj]) on ([a-h][1-8])\b")


def verdict_words(text: str) -> str:
    """A verdict's reason in plain words: ``"n on f8"`` -> ``"a knight on f8"``, no rule
    codes, plurals that agree."""
    def name(match: re.Match[str]) -> str:
        try:
            kind, _ = parse_card_letter(match.group(1))
        except ValueError:
            return match.group(0)
        return f"a {card_name(kind)} on {match.group(2)}"

    return plain(_CARD_ON.sub(name, text))


def flip_caption(event: events.CardFlipped) -> tuple[str, bool]:
    """What the flipped card's caption says, and whether the card is still to be dealt
    with (placed, or a joker's removal)."""
    who = side_name(event.color)
    outcome = event.outcome
    if outcome == FlipOutcome.PLACE:
        return "Place it on a highlighted square", True
    if outcome == FlipOutcome.UNPLACEABLE:
        return "No square for it: back under the deck, turn over", False
    if outcome == FlipOutcome.FAILED_RESCUE:
        return f"Cannot block the check: {who} loses (failed rescue)", False
    if outcome == FlipOutcome.RETURNED:
        return "Cannot block: back under the deck. A move must lift the check", False
    if outcome == FlipOutcome.EXTRA_TURN:
        return f"Joker! {who} takes another turn", False
    if outcome == FlipOutcome.REMOVE_PIECE:
        return "Joker! Tap an opposing piece to remove it", True
    return "Joker: no piece can be removed, turn over", False


def card_done(event: events.PiecePlaced | events.PieceRemoved) -> str:
    """The flipped card's caption once it was dealt with."""
    if isinstance(event, events.PiecePlaced):
        return f"Placed: {event.san}"
    return f"Removed the piece on {chess.square_name(event.square)}"


def event_alert(event: object) -> tuple[str, AlertLevel] | None:
    """The announcement a game event makes (``""`` clears the last one); None: the event
    leaves the announcement as it is."""
    if isinstance(event, events.CardFlipped):
        if event.outcome == FlipOutcome.EXTRA_TURN:
            return f"Joker! {side_name(event.color)} takes another turn", "good"
        if event.outcome == FlipOutcome.UNPLACEABLE:
            return (f"The {card_name(parse_card_letter(event.card)[0])} has no square: it goes "
                    "under the deck", "warn")
        return "", "info"
    if isinstance(event, events.RescueFailed):
        if event.lost:
            return (f"Failed rescue! The {card_name(parse_card_letter(event.card)[0])} cannot "
                    f"block the check: {side_name(event.color)} loses", "danger")
        return ("Failed rescue: the card goes under the deck. "
                f"{side_name(event.color)} must lift the check with a move", "danger")
    if isinstance(event, events.PiecePlaced | events.MovePlayed | events.PieceRemoved):
        return "", "info"
    if isinstance(event, events.Promoted):
        return (f"{side_name(event.color)} promotes to a blue "
                f"{chess.piece_name(event.piece_type)}", "good")
    if isinstance(event, events.Check):
        return f"Check! {side_name(event.color)}'s king is attacked", "danger"
    if isinstance(event, events.DrawOffered):
        return f"{side_name(event.color)} offers a draw", "info"
    if isinstance(event, events.DrawDeclined):
        return f"{side_name(event.color)} declines the draw", "info"
    if isinstance(event, events.GameOver):
        deciding = event.outcome.termination.name in ("CHECKMATE", "FAILED_RESCUE")
        return event.outcome.describe(), "danger" if deciding else "info"
    if isinstance(event, events.Flagged):
        return f"{side_name(event.color)}'s time is up", "danger"
    if isinstance(event, events.Undone | events.Redone):
        word = "Undone" if isinstance(event, events.Undone) else "Redone"
        return f"{word}: {event.description}", "info"
    return None


def why_no_moves(board: Any, square: chess.Square) -> str:
    """Why a tapped piece of the side to move shows no targets."""
    piece = board.piece_at(square)
    name = chess.piece_name(piece.piece_type) if piece else "piece"
    if board.king(board.turn) is None:
        return "Moves need your king on the board: flip a card"
    return f"The {name} on {chess.square_name(square)} has no legal move"


def status_line(board: Any, who: str, *, hint: str, outcome: Outcome | None,
                promoting: bool, selected: chess.Square | None) -> str:
    """The status line: a refusal's reason when there is one, how the game ended, or what
    the side to move (``who``) does now (``selected``: the square of the piece picked up)."""
    if hint:
        return plain(hint[:1].upper() + hint[1:])
    if outcome is not None:
        return outcome.describe()
    turn = board.turn
    pending = board.pending
    if promoting:
        return f"{who}: choose a blue piece for the promotion"
    if pending is not None:
        kind, _ = parse_card_letter(pending)
        if kind == JOKER:
            return f"{who}: tap an opposing piece to remove it"
        if board.is_check():
            return f"{who} is in check: block it with the {card_name(kind)}"
        return f"{who}: place the {card_name(kind)} on a highlighted square"
    if board.must_move:
        return f"{who}: lift the check with a chess move"
    if selected is not None:
        piece = board.piece_at(selected)
        name = chess.piece_name(piece.piece_type) if piece else "piece"
        return f"{who}: move the {name} to a marked square"
    if board.king(turn) is None:
        return f"{who} to play: flip a card"
    if board.deck_size(turn):
        return f"{who} to play: flip a card or make a move"
    return f"{who} to play: make a move (deck empty)"
