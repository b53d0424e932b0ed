"""``raindrop board monitor|selftest|leds|rotation|maintenance``: the reed-switch board
from the command line."""

from __future__ import annotations

import argparse
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator

import chess

from companion.cli import CommandError
from companion.limits import LimitError, parse_count, parse_decimal
from companion.sensors import BoardSnapshot, LedHint, SourceStatus, protocol
from companion.sensors.firmware_sim import FirmwareSimError, SimOptions, SimulatedBoard
from companion.sensors.serial_board import ReaderConfig, SerialBoardError, SerialBoardReader

LOGGER = logging.getLogger(__name__)


def _whole(high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 0 to ``high`` (ASCII digits)."""

    def parse(text: str) -> int:
        try:
            return parse_count(text.strip(), "the value", high=high)
        except LimitError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def _seconds(high: float) -> Callable[[str], float]:
    """An argparse type: seconds from 0 to ``high`` (``12`` or ``2.5``; never negative,
    infinite or NaN)."""

    def parse(text: str) -> float:
        try:
            return parse_decimal(text, "the seconds", high=high)
        except LimitError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return parse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "board", help="the reed-switch sensing board: live view, self-test, LEDs, rotation",
        description="Talk to the reed-switch board (a Raspberry Pi Pico on USB). Without "
                    "--port the board is found by its USB id.")
    commands = parser.add_subparsers(dest="board_command", metavar="ACTION", required=True)

    monitor = commands.add_parser("monitor", help="show the sensed board live")
    _add_port(monitor)
    monitor.add_argument("--simulate", action="store_true",
                         help="run the real firmware on a simulated board (MicroPython unix "
                              "port) and play a demo game on it")
    monitor.add_argument("--settle", type=_whole(10_000), default=250, metavar="MS",
                         help="how long the board must hold still before a snapshot (250)")
    monitor.add_argument("--count", type=_whole(10**9), default=0, metavar="N",
                         help="stop after N snapshots (default: run until Ctrl-C)")
    monitor.add_argument("--seconds", type=_seconds(10**6), default=0.0,
                         help="stop after this many seconds")
    monitor.set_defaults(func=run_monitor)

    selftest = commands.add_parser(
        "selftest", help="find stuck, dead and shorted switches",
        description="Clear the ranks under test first. Without --sweep the board names "
                    "stuck switches and shorted columns; with --sweep it also waits while "
                    "you pass a magnet over every square and names the switches that never "
                    "closed (the board lights the squares still to do).")
    _add_port(selftest)
    selftest.add_argument("--ranks", default="1-8",
                          help="ranks to test: 1-8, 1,2 or 3 (default 1-8)")
    selftest.add_argument("--sweep", type=_seconds(600), default=0.0, metavar="SECONDS",
                          help="also wait this long for a magnet sweep (dead switches)")
    selftest.set_defaults(func=run_selftest)

    leds = commands.add_parser(
        "leds", help="light squares on the board",
        description="Light squares: --targets green, --fix red, --last blue (as the game "
                    "does), or a raw 64-character --pattern (a1..h8, one of "
                    f"{protocol.LED_CHARS}). No squares: all off.")
    _add_port(leds)
    leds.add_argument("--targets", default="", metavar="SQUARES", help="e.g. e3,e4 or all")
    leds.add_argument("--fix", default="", metavar="SQUARES")
    leds.add_argument("--last", default="", metavar="SQUARES")
    leds.add_argument("--pattern", default="", help="64 characters, a1..h8")
    leds.set_defaults(func=run_leds)

    rotation = commands.add_parser(
        "rotation", help="show or set which way round the board sits",
        description="An empty board cannot show which side is White, so the board keeps "
                    "this setting (in its flash, across power-ups). 0: White sits at the "
                    "wiring's rank 1 (a1 at White's left, as the build guide wires it). "
                    "180: the board is turned round, White sits at the wiring's rank 8; "
                    "the board then reports and lights squares the game's way. Without a "
                    "value the current setting is shown.")
    _add_port(rotation)
    rotation.add_argument("degrees", nargs="?", type=int, choices=protocol.ROTATIONS,
                          help="0 or 180")
    rotation.set_defaults(func=run_rotation)

    maintenance = commands.add_parser(
        "maintenance", help="restart the board without its firmware, to update it",
        description="The firmware ignores Ctrl-C, so mpremote cannot stop it. This restarts "
                    "the board into maintenance mode for one boot (no firmware, no "
                    "watchdog, the MicroPython REPL free); firmware/deploy.sh calls it. The "
                    "next power-up starts the firmware again.")
    _add_port(maintenance)
    maintenance.set_defaults(func=run_maintenance)


def _add_port(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", default="",
                        help="serial port or pty path (default: find the Pico by USB id)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for the board to answer (10)")


# --- helpers -------------------------------------------------------------------------


def parse_squares(text: str, option: str) -> chess.SquareSet:
    """``e2,e4`` (or ``all``) as squares; :class:`CommandError` naming a bad one."""
    squares = chess.SquareSet()
    for word in filter(None, (w.strip().lower() for w in text.split(","))):
        if word == "all":
            squares |= chess.SquareSet(chess.BB_ALL)
        elif word in chess.SQUARE_NAMES:
            squares.add(chess.parse_square(word))
        else:
            raise CommandError(f"{option}: {word!r} is not a square (use names like e4)")
    return squares


def parse_ranks(text: str) -> int:
    """``1-8``, ``1,2`` or ``3`` as a rank bit mask (bit 0 = rank 1)."""
    mask = 0
    for word in filter(None, (w.strip() for w in text.split(","))):
        low, _, high = word.partition("-")
        try:
            first = parse_count(low.strip(), "the rank", digits=2)
            last = parse_count((high or low).strip(), "the rank", digits=2)
        except LimitError:
            raise CommandError(f"--ranks: {word!r} is not a rank or a range like 1-8") from None
        if not 1 <= first <= last <= 8:
            raise CommandError(f"--ranks: {word!r} is outside 1-8")
        for rank in range(first, last + 1):
            mask |= 1 << (rank - 1)
    if not mask:
        raise CommandError("--ranks: name at least one rank")
    return mask


def render(snapshot: BoardSnapshot) -> str:
    """The sensed board as text, White at the bottom ('o' = something stands there)."""
    lines = ["  a b c d e f g h"]
    for rank in range(7, -1, -1):
        cells = ["o" if chess.square(f, rank) in snapshot.occupied else "." for f in range(8)]
        lines.append(f"{rank + 1} {' '.join(cells)} {rank + 1}")
    lines.append("  a b c d e f g h")
    return "\n".join(lines)


class _Session:
    """A started reader whose snapshots and status lines are printed or waited for."""

    def __init__(self, port: str, settle_ms: int = 250, print_status: bool = True) -> None:
        self.reader = SerialBoardReader(port, ReaderConfig(settle_s=settle_ms / 1000))
        self.snapshots: list[BoardSnapshot] = []
        self.last_status: SourceStatus | None = None
        self.print_status = print_status
        self.changed = threading.Condition()

    def on_snapshot(self, snapshot: BoardSnapshot) -> None:
        with self.changed:
            self.snapshots.append(snapshot)
            self.changed.notify_all()

    def on_status(self, status: SourceStatus) -> None:
        with self.changed:
            self.last_status = status
            self.changed.notify_all()
        if self.print_status:
            state = "connected" if status.connected else "not connected"
            print(f"[{state}] {status.message}", flush=True)

    def __enter__(self) -> _Session:
        self.reader.start(self.on_snapshot, self.on_status)
        return self

    def __exit__(self, *exc: object) -> None:
        self.reader.stop()

    def connect(self, timeout: float) -> None:
        if self.reader.wait_connected(timeout) is None:
            why = self.last_status.message if self.last_status else "no answer"
            raise CommandError(f"the board did not answer within {timeout:g} s: {why}")


# --- monitor ---------------------------------------------------------------------------


def run_monitor(args: argparse.Namespace) -> int:
    if args.simulate and args.port:
        raise CommandError("--simulate runs its own board: leave out --port")
    if args.settle < 0:
        raise CommandError("--settle must not be negative")
    simulated: SimulatedBoard | None = None
    stop_demo = threading.Event()
    port = args.port
    if args.simulate:
        try:
            simulated = SimulatedBoard(SimOptions(board_id="DEMO"))
            simulated.start()
        except FirmwareSimError as error:
            raise CommandError(str(error)) from None
        port = simulated.port
        print(f"simulated board on {port} (the real firmware under the MicroPython unix port)")
    try:
        with _Session(port, args.settle) as session:
            session.connect(args.timeout)
            if simulated is not None:
                threading.Thread(target=_demo, args=(simulated, stop_demo), daemon=True).start()
            hello = session.reader.hello
            if hello is not None and hello.rotation:
                print(f"(the board is set to rotation {hello.rotation}: squares are shown "
                      "the game's way)")
            _watch(session, args.count, args.seconds)
            stats = session.reader.stats()
            print(f"{stats.snapshots} snapshots; frames {stats.frames} good, "
                  f"{stats.bad_crc + stats.malformed + stats.rejected} damaged, "
                  f"{stats.lost} lost, {stats.stale + stats.duplicates} stale (replayed or "
                  f"reordered, dropped); {stats.connects} connection(s)")
    finally:
        stop_demo.set()
        if simulated is not None:
            simulated.close()
    return 0


def _watch(session: _Session, count: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds if seconds > 0 else None
    shown = 0
    try:
        while not count or shown < count:
            with session.changed:
                if len(session.snapshots) <= shown:
                    session.changed.wait(0.2)
                new = session.snapshots[shown:]
            for snapshot in new:
                shown += 1
                print(f"\nsnapshot {shown}: {len(snapshot.occupied)} occupied")
                print(render(snapshot), flush=True)
                if count and shown >= count:
                    break
            if deadline is not None and time.monotonic() >= deadline:
                break
    except KeyboardInterrupt:
        print()


def demo_positions(seed: int = 1) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Physical steps of a random legal Raindropchess game: (SAN, hand states by scan)."""
    from companion.rules import RaindropBoard

    rng = random.Random(seed)
    board = RaindropBoard()
    while not board.is_game_over():
        moves = list(board.legal_moves)
        if board.pending is None and board.can_flip() and (not moves or rng.random() < 0.5):
            deck = board.deck(board.turn)
            board.flip(rng.choice([card for card, n in deck.items() for _ in range(n)]))
            continue
        if not moves:
            return
        move = rng.choice(moves)
        before = board.occupied
        san = board.san(move)
        board.push(move)
        states = [] if move.drop is not None else [
            (before & ~chess.BB_SQUARES[move.from_square], 40)]  # the piece in the air
        states.append((board.occupied, 1))
        yield san, states


def _demo(board: SimulatedBoard, stop: threading.Event, interval: float = 1.0) -> None:
    for san, states in demo_positions():
        if stop.wait(interval):
            return
        print(f"(demo: {san})", flush=True)
        try:
            board.play(states)
        except (FirmwareSimError, OSError):
            return


# --- selftest and leds ------------------------------------------------------------------


def run_selftest(args: argparse.Namespace) -> int:
    ranks = parse_ranks(args.ranks)
    if args.sweep < 0:
        raise CommandError("--sweep must not be negative")
    sweep_ms = int(args.sweep * 1000)
    with _Session(args.port, print_status=False) as session:
        session.connect(args.timeout)
        hello = session.reader.hello
        if hello is not None and "selftest" not in hello.capabilities:
            raise CommandError(f"board {hello.board_id} has no self-test (firmware "
                               f"{hello.firmware})")
        names = ", ".join(str(r + 1) for r in range(8) if ranks & (1 << r))
        if sweep_ms:
            print(f"sweep a magnet over every square of rank(s) {names} within "
                  f"{args.sweep:g} s; the board lights the squares still to do")
        try:
            report = session.reader.run_selftest(ranks, sweep_ms, timeout=args.timeout)
        except SerialBoardError as error:
            raise CommandError(str(error)) from None
    print(report.describe())
    return 0 if report.passed else 1


def run_rotation(args: argparse.Namespace) -> int:
    with _Session(args.port, print_status=False) as session:
        session.connect(args.timeout)
        hello = session.reader.hello
        assert hello is not None
        if args.degrees is not None:
            try:
                hello = session.reader.set_rotation(args.degrees, timeout=args.timeout)
            except SerialBoardError as error:
                raise CommandError(str(error)) from None
    if "rot" not in hello.capabilities:
        raise CommandError(f"board {hello.board_id} (firmware {hello.firmware}) has no "
                           "rotation setting: flash the firmware from this release")
    where = "rank 8 (turned round)" if hello.rotation == 180 else "rank 1"
    print(f"board {hello.board_id}: rotation {hello.rotation} (White sits at the wiring's "
          f"{where})")
    return 0


def run_maintenance(args: argparse.Namespace) -> int:
    with _Session(args.port, print_status=False) as session:
        session.connect(args.timeout)
        try:
            board_id = session.reader.enter_maintenance(timeout=args.timeout)
        except SerialBoardError as error:
            raise CommandError(str(error)) from None
    print(f"board {board_id} restarts in maintenance mode (firmware stopped for one boot); "
          "use mpremote now")
    return 0


def run_leds(args: argparse.Namespace) -> int:
    if args.pattern and (args.targets or args.fix or args.last):
        raise CommandError("give either --pattern or squares (--targets/--fix/--last)")
    with _Session(args.port, print_status=False) as session:
        session.connect(args.timeout)
        hello = session.reader.hello
        if hello is not None and "leds" not in hello.capabilities:
            raise CommandError(f"board {hello.board_id} has no LEDs fitted")
        try:
            if args.pattern:
                session.reader.set_leds(args.pattern)
                lit = sum(1 for ch in args.pattern if ch != protocol.LED_OFF)
            else:
                hint = LedHint(targets=parse_squares(args.targets, "--targets"),
                               fix=parse_squares(args.fix, "--fix"),
                               last_move=parse_squares(args.last, "--last"))
                session.reader.show(hint)
                lit = len(hint.targets | hint.fix | hint.last_move)
        except SerialBoardError as error:
            raise CommandError(str(error)) from None
        deadline = time.monotonic() + args.timeout
        while not session.reader.leds_acknowledged():
            if time.monotonic() > deadline:
                raise CommandError("the board did not confirm the LEDs")
            time.sleep(0.02)
    print(f"{lit} square(s) lit")
    return 0
