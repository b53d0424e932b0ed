"""A game of any registered abstract game being played by touch (no Kivy).

:class:`PlayModel` sits between the play screen and a
:class:`~companion.games.session.GameSession`: it builds the turn with the game's
:class:`~companion.games.TurnBuilder`, one touched step at a time (see
:mod:`ui.games.picking`), commits it when the turn cannot go on or when the player
confirms it, and turns everything into one frozen :class:`PlayView` for the screen.
Problems (an illegal touch, an undo after the end) become plain-words alerts; nothing
here raises for a player's touch.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.games import IllegalTurn, Position, Step, TurnBuilder
from companion.games.record import write_record
from companion.games.session import GameSession, SessionError
from companion.journal import Journal, JournalError
from companion.saving import write_new
from ui.games import picking, summary
from ui.games.geometry import Layout, changed_cells, layout, owners
from ui.table_words import format_clock as clock_text

LOGGER = logging.getLogger(__name__)


def side_name(player: str) -> str:
    return player.capitalize()


@dataclasses.dataclass(frozen=True)
class PlayView:
    """Everything the play screen shows, at one moment."""

    title: str
    layout: Layout
    to_move: str
    """The side to move (``""`` once the game is over); may be a role outside the two
    sides (Rumbo's proposer and chooser before the sides are known)."""
    message: str
    """What to do now, for the player to move (or how the game ended)."""
    everyone: bool = False
    """The one to move is not one of the two sides yet: both panels show what to do."""
    alert: str = ""
    """A problem to read at once (an illegal touch and why), or an event."""
    alert_level: str = ""
    """``"danger"``, ``"warn"``, ``"good"`` or ``""``."""
    status: str = ""
    """Score and state: group sizes, claimed points, unit counts, the draw counter."""
    targets: frozenset[str] = frozenset()
    """Cells a touch may go to now (the legal next steps)."""
    touched: tuple[str, ...] = ()
    """Cells touched for the step being picked."""
    last: frozenset[str] = frozenset()
    """Cells the last turn changed (marked on the board)."""
    building: frozenset[str] = frozenset()
    """Cells the steps of the turn being built have changed."""
    turn_so_far: str = ""
    can_confirm: bool = False
    can_back: bool = False
    can_undo: bool = False
    can_redo: bool = False
    contents: tuple[str, ...] = ()
    """What a touch may put on a cell, where the player chooses (Rumbo's colours)."""
    prefer: str = ""
    choices: tuple[Step, ...] = ()
    """Steps the last touch could not tell apart: the player picks one."""
    actions: tuple[picking.ActionGroup, ...] = ()
    """Steps without a cell (Rumbo's komi and side)."""
    owners: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Cells of claimed groups -> their owner's mark (Rumbo's ``v``/``h``)."""
    claims: tuple[str, ...] = ()
    draw_offer: str = ""
    over: bool = False
    result: str = ""
    moves: str = ""
    """The turns so far, numbered."""
    path: tuple[str, ...] = ()
    """Cells the turn's moving piece went through, in order (Crumble's swap path)."""
    clocks: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Each side's time left (``"4:59"``) when the game has a clock; empty without one."""
    said: str = ""
    """What the companion says or does now (it thinks, its turn, a hint); shown, spoken."""
    said_short: str = ""
    """``said`` for a small screen (a turn by its text: the board shows it)."""
    thinking: bool = False
    guide: tuple[str, ...] = ()
    """Cells of the companion's last turn (to make on a physical board) or of a hint."""
    guide_kind: str = ""
    """``"turn"``, ``"hint"`` or ``""``."""
    hint_label: str = ""
    """The Hint button's text (``""``: no hints in this game)."""
    plays_companion: bool = False
    """The companion plays a side: undo takes back a pair, redo is not offered."""


def step_sound(step: Step) -> str:
    """The sound of a step taken: a capture (or a claim) where its note says one
    happened, else a piece put down."""
    note = step.note.lower()
    return "capture" if ("captur" in note or "claims" in note) else "move"


class PlayModel:
    """One game played by touch. ``on_change`` is called after every change; ``sound``
    (if given) with a sound's name (:mod:`ui.sound`'s: ``move``, ``capture``, ``end``,
    ``illegal``) for each step taken, each refused touch and the end of the game."""

    def __init__(self, session: GameSession, *, journal: Journal | None = None,
                 on_change: Callable[[PlayView], None] | None = None,
                 sound: Callable[[str], None] | None = None) -> None:
        self.session = session
        self.sound = sound
        self.journal = journal
        """The journal the session records to (closed when the game is left)."""
        self.rules = session.rules
        self.journal_path: Path | None = journal.path if journal is not None else None
        self.on_change = on_change
        self.builder: TurnBuilder[Any] = self.rules.builder(session.position)
        self._built_on = self._session_key()
        self.touched: tuple[str, ...] = ()
        self.choices: tuple[Step, ...] = ()
        self.alert = ""
        self.alert_level = ""
        self.prefer = ""
        self.sensing: Any = None
        """A :class:`ui.games.sensing.StoneSensing` following the physical board, or None."""
        self.companion: Any = None
        """A :class:`ui.companion_link.CompanionLink` when the game has seats, or None."""
        self._view: PlayView | None = None

    # ------------------------------------------------------------------
    # Reading

    @property
    def view(self) -> PlayView:
        if self._view is None:
            self._view = self._make_view()
        return self._view

    def _steps(self) -> tuple[Step, ...]:
        if self.session.is_over:
            return ()
        return self.builder.next_steps()

    def _make_view(self) -> PlayView:
        session = self.session
        rules = self.rules
        shown: Position = self.builder.position if not session.is_over else session.position
        steps = self._steps()
        result = session.result
        history = session.positions()
        before = history[-2] if len(history) > 1 else None
        board = layout(rules, shown)
        known = frozenset(shape.cell for shape in board.shapes)
        contents = tuple(picking.contents(steps, known))
        prefer = self.prefer if self.prefer in contents else (contents[0] if contents else "")
        if self.touched:
            targets = picking.next_cells(steps, self.touched, known)
        else:
            targets = frozenset(cell for step in steps
                                for cell in picking.key_cells(step, known)[:1]
                                if not contents or step.changes.get(cell, "") == prefer)
        empty = {shape.cell for shape in board.shapes if shape.content == "."}
        if not self.touched and len(targets) > 12 and targets == empty:
            targets = frozenset()  # every empty point is legal: dots would only hide the board
        if result is not None:
            message = f"The game is over: {result.reason}"
        elif self.companion is not None and self.companion.runner.companion_to_act():
            # The companion's turn: what it does, not what a person would have to do.
            message = self.companion.thinking_text or _sentence(
                f"{side_name(session.to_move)} is the companion's turn")
        else:
            message = _sentence(self.builder.message)
        building = frozenset(cell for step in self.builder.steps
                             for cell in picking.touchable(step, known))
        return PlayView(
            title=rules.title,
            layout=board,
            to_move="" if result is not None else session.to_move,
            everyone=result is None and session.to_move not in rules.players,
            message=message,
            alert=self.alert,
            alert_level=self.alert_level,
            status=summary.summary(rules, shown, result),
            targets=targets if result is None else frozenset(),
            touched=self.touched,
            last=changed_cells(before, session.position) if not self.builder.steps else building,
            building=building,
            turn_so_far=" ".join(step.text for step in self.builder.steps),
            can_confirm=result is None and bool(self.builder.steps) and self.builder.complete,
            can_back=bool(self.builder.steps) or bool(self.touched),
            can_undo=session.can_undo(),
            can_redo=session.can_redo() and not self.plays_companion,
            contents=contents,
            prefer=prefer,
            choices=self.choices,
            actions=tuple(picking.action_groups(steps, known)),
            owners=owners(rules, shown),
            claims=session.claims(),
            draw_offer=session.draw_offer or "",
            over=result is not None,
            result=(f"{side_name(result.winner)} wins" if result is not None
                    and result.winner is not None else ("Draw" if result is not None else "")),
            moves=self.moves_text(),
            path=tuple(getattr(self.builder, "path", ())) if result is None else (),
            clocks=self.clock_texts(),
            **self._companion_view(),
        )

    def _companion_view(self) -> dict[str, Any]:
        link = self.companion
        if link is None:
            return {}
        plays = self.plays_companion
        return {"said": link.thinking_text or link.note,
                "said_short": link.thinking_text or link.short_note,
                "thinking": bool(link.thinking),
                "guide": tuple(link.guide), "guide_kind": link.guide_kind,
                "hint_label": link.hint_label, "plays_companion": plays}

    @property
    def plays_companion(self) -> bool:
        return self.companion is not None and bool(self.companion.settings.companions)

    def attach_companion(self, link: Any) -> None:
        """Play against the companion through ``link`` (its changes redraw the view)."""
        self.companion = link
        link.on_change = self.companion_changed
        self._changed()

    def companion_changed(self) -> None:
        """The companion did something (on the UI thread): a turn it played on the session
        restarts the turn being built; the end of the game is said and sounded."""
        if self._built_on != self._session_key():
            self._restart()
            result = self.session.result
            if result is not None:
                self._say(f"Game over: {result.reason}", "good")
                self._play("end")
            else:
                self._play("move")
        self._changed()

    def _session_key(self) -> tuple[int, bool]:
        return len(self.session.record), self.session.is_over

    def _companion_refuses(self, side: str | None = None) -> bool:
        """Whether the companion refuses a person's touch or button now; the reason shown."""
        link = self.companion
        if link is None or self.session.is_over:
            return False
        if side is not None:
            try:
                seat = link.table.seat_of(side)
            except ValueError:
                seat = side
            reason = link.refuses_seat(seat)
        else:
            sensing = self.sensing
            reason = link.refusal() or (sensing.refusal() if sensing is not None else None)
        if reason is None:
            return False
        self._refuse(reason)
        self._changed()
        return True

    def hint(self) -> None:
        """The Hint button: the companion's best turns for the person to move."""
        if self.companion is not None:
            self._quiet()
            self.companion.hint()

    def clock_texts(self) -> dict[str, str]:
        """Each side's time left, as a clock shows it; empty without a clock."""
        clock = self.session.clock
        if clock is None:
            return {}
        first, second = self.rules.players[:2]
        return {first: clock_text(clock.remaining(True)),
                second: clock_text(clock.remaining(False))}

    def tick(self) -> None:
        """Call now and then while the game has a clock: the times shown move on, and a
        fallen flag ends the game (its reason said, the end sounded)."""
        if self.session.clock is None or self.session.is_over:
            return
        self.session.tick()
        if self.session.is_over:
            self._restart()
            result = self.session.result
            self._say(f"Game over: {result.reason if result else ''}", "good")
            self._play("end")
        elif self.clock_texts() == self.view.clocks:
            return  # nothing shown has changed
        self._changed()

    def moves_text(self) -> str:
        parts = []
        for number, (kind, text, player) in enumerate(self.session.record, start=1):
            parts.append(f"{number}.\u00a0{player[0].upper()}\u00a0"
                         + (text if kind == "turn" else f"claims\u00a0{text}"))
        return "  ".join(parts)

    # ------------------------------------------------------------------
    # Changing

    def _changed(self) -> None:
        self._view = None
        if self.on_change is not None:
            self.on_change(self.view)

    def _say(self, text: str, level: str = "warn") -> None:
        self.alert = _sentence(text)
        self.alert_level = level

    def _play(self, name: str) -> None:
        if self.sound is not None:
            try:
                self.sound(name)
            except Exception:  # a sound never stops the game
                LOGGER.exception("sound %s failed", name)

    def _refuse(self, text: str) -> None:
        """A touch that is no legal step: why, and the sound of a refusal."""
        self._say(text)
        self._play("illegal")

    def _quiet(self) -> None:
        self.alert = ""
        self.alert_level = ""

    def _restart(self) -> None:
        self._built_on = self._session_key()
        self.builder = self.rules.builder(self.session.position)
        self.touched = ()
        self.choices = ()

    def choose_content(self, content: str) -> None:
        """The player's choice of what touches put on cells (Rumbo's colour)."""
        self.prefer = content
        self._changed()

    def tap(self, cell: str) -> None:
        """A touch on ``cell``: a step, a further touch needed, a choice, or why not."""
        self._quiet()
        if self._companion_refuses():
            return
        if self.session.is_over:
            result = self.session.result
            self._say(f"The game is over ({result.reason if result else ''})")
            self._changed()
            return
        steps = self.builder.next_steps()
        if not steps:
            self._say("The turn is complete: confirm it, or take a step back")
            self._changed()
            return
        prefer = self.view.prefer or None
        known = frozenset(shape.cell for shape in self.view.layout.shapes)
        picked = picking.pick(steps, self.touched, cell, prefer=prefer, known=known)
        self.choices = ()
        if picked.step is not None:
            self.touched = ()
            self._add(picked.step)
        elif picked.choices:
            self.touched = ()
            self.choices = picked.choices
            self._say("Which one? Choose below", "good")
        elif picked.waiting:
            self.touched = picked.waiting
            # Steps these touches already name whole (a piece to cut one way or the other)
            # are offered, while a further touch may still pick another (a join).
            self.choices = picking.named_by(steps, self.touched, known)
        else:
            self.touched = ()
            self._refuse(self._why_not(cell))
        self._changed()

    def stroke(self, crossed: tuple[str, ...], horizontal: bool) -> None:
        """A finger drawn across the pieces ``crossed``, along a line ``horizontal`` or
        not: the step that cuts them along that line (Crumble's split), or why not."""
        self._quiet()
        self.touched = ()
        self.choices = ()
        if self._companion_refuses():
            return
        if self.session.is_over:
            self._say("The game is over")
        else:
            known = frozenset(shape.cell for shape in self.view.layout.shapes)
            step = picking.by_stroke(self._steps(), crossed, horizontal, known)
            if step is None:
                way = "across" if horizontal else "down"
                self._refuse(f"No cut runs {way} through the pieces under that line; "
                          f"{self.builder.message}")
            else:
                self._add(step)
        self._changed()

    def _why_not(self, cell: str) -> str:
        """The engine's own words for a refused touch where it has them (not for cells
        that turn texts do not name, like Crumble's pieces ``x,y,w,h``)."""
        if "," in cell:
            return f"That piece is not a legal step here. {_sentence(self.builder.message)}"
        try:
            self.builder.add(cell)
        except IllegalTurn as error:
            return str(error)
        except (ValueError, KeyError):
            pass
        return f"{cell} is not a legal step here. {_sentence(self.builder.message)}"

    def choose(self, step: Step | str) -> None:
        """A step picked from the offered choices or an action button (by its text)."""
        self._quiet()
        if self._companion_refuses():
            return
        text = step.text if isinstance(step, Step) else step
        found = next((s for s in self._steps() if s.text == text), None)
        self.choices = ()
        self.touched = ()
        if found is None:
            self._refuse(f"{text} is not a legal step here")
        else:
            self._add(found)
        self._changed()

    def _add(self, step: Step) -> None:
        try:
            self.builder = self.builder.add(step)
        except IllegalTurn as error:
            self._refuse(str(error))
            return
        if self.builder.complete and not self.builder.next_steps():
            self._commit()
            if not self.session.is_over:
                self._play(step_sound(step))
            return
        self._play(step_sound(step))
        if step.note:
            self._say(step.note, "good")  # what the step did (a capture) is seen at once

    def _commit(self) -> None:
        try:
            turn = self.builder.turn()
            self.session.play(turn)
        except (IllegalTurn, SessionError, JournalError) as error:
            self._say(f"Not played: {error}", "danger")
            return
        last = self.builder.steps[-1] if self.builder.steps else None
        self._restart()
        result = self.session.result
        if result is not None:
            self._say(f"Game over: {result.reason}", "good")
            self._play("end")
        elif last is not None and last.note:
            self._say(f"Played {turn}: {last.note}", "good")

    def confirm(self) -> None:
        """Play the turn built so far (where the rules let it end)."""
        self._quiet()
        if self._companion_refuses():
            return
        if not self.builder.steps or not self.builder.complete:
            self._say(f"The turn is not complete: {self.builder.message}")
        else:
            self._commit()
        self._changed()

    def back(self) -> None:
        """Take back the last touch or step of the turn being built."""
        self._quiet()
        if self.touched or self.choices:
            self.touched = ()
            self.choices = ()
        elif self.builder.steps:
            rebuilt = self.rules.builder(self.session.position)
            for step in self.builder.steps[:-1]:
                rebuilt = rebuilt.add(step)
            self.builder = rebuilt
        self._changed()

    def cancel(self) -> None:
        self._quiet()
        self._restart()
        self._changed()

    def _session_action(self, action: Callable[[], object], done: str = "") -> bool:
        self._quiet()
        try:
            action()
        except (SessionError, IllegalTurn, JournalError) as error:
            self._say(str(error))
            self._changed()
            return False
        self._restart()
        if done:
            self._say(done, "good")
        result = self.session.result
        if result is not None and not done:
            self._say(f"Game over: {result.reason}", "good")
            self._play("end")
        self._changed()
        return True

    def play_turn(self, turn: str, done: str = "") -> bool:
        """Play a whole turn seen elsewhere (a physical board); False if refused."""
        return self._session_action(lambda: self.session.play(turn), done)

    def notify(self, text: str, level: str = "warn") -> None:
        """Show ``text`` to both players (``""`` clears the alert)."""
        self._quiet()
        if text:
            self._say(text, level)
        self._changed()

    def undo(self) -> None:
        """One turn back; against the companion, the person's last turn and its reply."""
        if self.plays_companion and not self.session.is_over:
            self._quiet()
            self.companion.undo()
            self._restart()
            self._changed()
            return
        self._session_action(self.session.undo, "Taken back")

    def redo(self) -> None:
        if self.plays_companion:
            self._refuse("No redo against the companion: play your turn, it answers anew")
            self._changed()
            return
        self._session_action(lambda: self.session.redo())

    def resign(self, player: str | None = None) -> None:
        if self._companion_refuses(player or self.session.to_move):
            return
        self._session_action(lambda: self.session.resign(player or self.session.to_move))

    def offer_draw(self, player: str | None = None) -> None:
        side = player or self.session.to_move
        if self._companion_refuses(side):
            return
        self._session_action(
            lambda: self.session.offer_draw(side),
            f"{side_name(side)} offers a draw" if self.session.draw_offer is None else "")

    def accept_draw(self) -> None:
        self._session_action(lambda: self.session.accept_draw())

    def decline_draw(self) -> None:
        self._session_action(lambda: self.session.decline_draw(), "The draw is declined")

    def claim(self, name: str) -> None:
        if self._companion_refuses():
            return
        self._session_action(lambda: self.session.claim(name))

    def export(self, folder: Path) -> Path | None:
        """Write the game record (as the engines write it) into ``folder``; the path."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = _export_new(folder, f"{self.rules.name}-{stamp}", write_record(self.session))
        except OSError as error:
            self._say(f"Could not save the record: {error}", "danger")
            self._changed()
            return None
        self._say(f"Record saved to {path}", "good")
        self._changed()
        return path


def _export_new(folder: Path, stem: str, text: str) -> Path:
    """``text`` in a new file ``STEM.txt`` (``STEM-2.txt``... if taken): never over a file."""
    for number in range(1, 100):
        try:
            return write_new(folder / f"{stem}{'' if number == 1 else f'-{number}'}.txt", text)
        except FileExistsError:
            continue
    raise FileExistsError(f"too many records named {stem}")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    if not (len(text) > 1 and text[1].isdigit()):  # "b3b swaps...": a piece keeps its name
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."
