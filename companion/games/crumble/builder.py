"""The step-wise Crumble turn builder: the action (one split or one join), then swap steps one
at a time, each showing its captures and a win the moment they happen.

Steps and their texts: the action (``b5-``, ``a1:a2-c1:c2``, ``+a5:b6``); the first swap step
names its start piece (``b5t>N``; after a join ``>N``); each later step is one letter
(``S``). The turn text is the action, a space, then the swap steps' texts run together.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Self

from companion.games.base import IllegalTurn, Step
from companion.games.crumble.engine import (
    Action,
    Successors,
    Work,
    actions,
    finished,
    piece_name,
    swap_prefix,
)
from companion.games.crumble.geometry import DIRECTIONS, rect_text
from companion.games.crumble.position import COLOUR_LETTER, SIDE_NAME, CrumblePosition
from companion.games.crumble.turns import SIDE_WORDS, read_action, scaled

LOGGER = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Swap:
    """The swap so far: the board after the action, colours now, the swapping piece."""

    work: Work
    colours: bytes
    cur: int
    swapped: bool
    winner: int | None
    captured: bool
    path: tuple[int, ...] = ()
    """The swapping piece after each step so far, from the start piece (empty before)."""


@dataclass(frozen=True)
class CrumbleBuilder:
    """A Crumble turn being built (immutable: :meth:`add` returns a new builder)."""

    start: CrumblePosition
    position: CrumblePosition
    steps: tuple[Step, ...] = ()
    swap_state: _Swap | None = field(default=None, repr=False)

    @property
    def mover(self) -> str:
        return SIDE_NAME[self.start.state.side]

    @property
    def swapping(self) -> str | None:
        """The swapping piece's designator (after the first swap step), else None."""
        s = self.swap_state
        if s is None or not s.swapped:
            return None
        return piece_name(s.work.rects[s.cur], s.work.scale)

    @property
    def path(self) -> tuple[str, ...]:
        """The swap path so far as cells (``x,y,w,h``): the start piece, then the swapping
        piece after each swap step (it may go back and forth); empty before a swap step."""
        s = self.swap_state
        if s is None:
            return ()
        return tuple(rect_text(s.work.rects[i], s.work.scale) for i in s.path)

    @property
    def winner(self) -> str | None:
        """The side that won during this turn, if any."""
        s = self.swap_state
        return None if s is None or s.winner is None else SIDE_NAME[s.winner]

    @property
    def ended(self) -> bool:
        """No further step is possible (a win, or the swapping piece was captured)."""
        s = self.swap_state
        return s is not None and (s.winner is not None or s.captured)

    @property
    def complete(self) -> bool:
        return self.swap_state is not None

    @property
    def message(self) -> str:
        me = self.mover.capitalize()
        s = self.swap_state
        if s is None:
            if finished(self.start):
                return "the game is over"
            return (f"{me}: split one of your pieces (cut it along its midline, possibly "
                    f"through a row of your pieces) or join your pieces into one square or "
                    f"half-square")
        if s.winner is not None:
            return f"{SIDE_NAME[s.winner].capitalize()} wins: the turn ends here"
        if s.captured:
            return "the swapping piece was captured: the turn ends here"
        if not self.next_steps():
            return "no swap is possible: end the turn"
        if not s.swapped:
            return ("swap if you like: pick a new piece and a direction (N E S W) into an "
                    "opponent piece sharing that whole side, or end the turn")
        name = piece_name(s.work.rects[s.cur], s.work.scale)
        return f"swap on from {name} (N E S W), or end the turn"

    def next_steps(self) -> tuple[Step, ...]:
        s = self.swap_state
        if s is None:
            if finished(self.start):
                return ()
            return tuple(self._action_step(a) for a in actions(self.start))
        if self.ended:
            return ()
        starts = [s.cur] if s.swapped else s.work.new
        out: list[Step] = []
        for cur in starts:
            for d in range(4):
                step = self._swap_step(s, cur, d)
                if step is not None:
                    out.append(step[0])
        return tuple(out)

    def _action_step(self, action: Action) -> Step:
        state = self.start.state
        scale = state.scale
        me = COLOUR_LETTER[state.side]
        changes = {rect_text(state.rects[i], scale): "." for i in action.removed}
        for rect in action.added:
            changes[rect_text(rect, scale)] = me
        names = [piece_name(state.rects[i], scale) for i in action.removed]
        if action.kind == "join":
            note = f"join {', '.join(names)} into {piece_name(action.added[0], scale)}"
        else:
            way = "horizontally" if action.horizontal else "vertically"
            note = f"cut {', '.join(names)} {way} in half"
        return Step(action.text, changes, note)

    def _swap_step(self, s: _Swap, cur: int, d: int) -> tuple[Step, _Swap] | None:
        work = s.work
        dst = work.swap[cur][d]
        if dst < 0 or s.colours[dst] == work.mover:
            return None
        colours = bytearray(s.colours)
        flipped, winner = work.step(colours, cur, dst)
        scale = work.scale
        text = (swap_prefix(work, cur) if not s.swapped else "") + DIRECTIONS[d]
        changes = {rect_text(work.rects[i], scale): COLOUR_LETTER[colours[i]]
                   for i in (cur, dst, *flipped)}
        a, b = piece_name(work.rects[cur], scale), piece_name(work.rects[dst], scale)
        note = f"{a} swaps colours with {b} ({SIDE_WORDS[d]})"
        if flipped:
            names = sorted({piece_name(work.rects[i], scale) for i in flipped})
            note += f"; captured: {', '.join(names)}"
        captured = colours[dst] != work.mover
        if winner is not None:
            note += f"; {SIDE_NAME[winner].capitalize()} wins"
        elif captured:
            note += "; the swapping piece is captured, the turn ends"
        path = (*(s.path or (cur,)), dst)
        return Step(text, changes, note), _Swap(work, bytes(colours), dst, True, winner, captured,
                                                path)

    def add(self, step: Step | str) -> Self:
        text = " ".join((step if isinstance(step, str) else step.text).split())
        s = self.swap_state
        if s is None:
            if finished(self.start):
                raise IllegalTurn("the game is over: no more turns")
            action = read_action(self.start, text)
            work = Work(self.start, action)
            swap = _Swap(work, work.colours, work.new[0], False, None, False)
            return self._after(self._action_step(action), swap)
        if self.ended:
            raise IllegalTurn(f"{text!r}: the turn has ended ({self.message})")
        prefix, mark, letters = text.rpartition(">")
        letter = (letters if mark else text).strip().upper()
        if len(letter) != 1 or letter not in DIRECTIONS:
            raise IllegalTurn(f"{text!r}: a swap step is one direction N, E, S or W"
                              + ("" if s.swapped else " after the start piece (b5t>N)"))
        cur = s.cur
        if not s.swapped:
            cur = self._start_piece(s, prefix.strip())
        elif prefix.strip():
            raise IllegalTurn(f"{text!r}: only the first swap step names its piece")
        found = self._swap_step(s, cur, DIRECTIONS.index(letter))
        if found is None:
            name = piece_name(s.work.rects[cur], s.work.scale)
            raise IllegalTurn(f"{text!r}: no opponent piece shares the whole "
                              f"{SIDE_WORDS[DIRECTIONS.index(letter)]} side of {name}")
        return self._after(*found)

    def _start_piece(self, s: _Swap, name: str) -> int:
        work = s.work
        if not name:
            if len(work.new) == 1:
                return work.new[0]
            raise IllegalTurn("name the half that swaps first (b5t>N)")
        for i in work.new:
            if piece_name(work.rects[i], work.scale) == name.lower():
                return i
        rect = scaled(self.start.state, name, "swap start")
        for i in work.new:
            if work.rects[i] == rect:
                return i
        raise IllegalTurn(f"swap start {name!r} is not a piece this turn's action made")

    def _after(self, step: Step, swap: _Swap) -> Self:
        writer = Successors(self.start)
        texts, order, history, candidate = writer.writer(swap.work)
        text = writer.text(texts, order, swap.colours, history, candidate and swap.swapped)
        return type(self)(self.start, CrumblePosition(text), (*self.steps, step), swap)

    def turn(self) -> str:
        if not self.steps:
            raise IllegalTurn("the turn is not complete: split or join first")
        if len(self.steps) == 1:
            return self.steps[0].text
        return self.steps[0].text + " " + "".join(s.text for s in self.steps[1:])
