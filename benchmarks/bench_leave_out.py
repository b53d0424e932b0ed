"""Two photo readers on development boards left out of their fits, compared square by square.

Run: ``python -m benchmarks.bench_leave_out --nets DIR/{board}_s0.onnx DIR/{board}_s1.onnx
DIR/{board}_pt.onnx --peer-nets OLD/{board}_s0.onnx OLD/{board}_s1.onnx OLD/{board}_pt.onnx
[--boards walnut,bwmat,folding,mahogany]``. Each network is named by a pattern whose
``{board}`` is the board read: a fit made without that board's development photos
(``python -m lab.train_occupancy ... --leave-out BOARD --keep DIR/BOARD_s0.onnx``, and
``python -m lab.train_pretrained ... --leave-out BOARD --keep DIR/BOARD_pt.onnx``), so
every board is read by networks that never saw it, as a board at a real table is. Every
development photo of each board is read as ``raindrop vision classify --corners`` reads it
(the whole reader, without a reference), once by the candidate (``--nets``, ``--weights``,
``--shift`` and ``--shifted``: ``VisionConfig.nets.photo_nets``, ``photo_net_weights``,
``photo_shift`` and the networks of ``photo_shifted_nets`` by their place in ``--nets``)
and once by its peer (the same options with ``--peer-``; the peer's networks default to
the candidate's). Without ``--boards``, every development board for which all the files of
both readers are there.

It prints every square either reader gets wrong (``new``: the candidate alone, ``fixed``:
the peer alone, ``both``), each board's and the total's counts, and the verdict that
docs/dev/camera.md's rules use ("How the next candidates are judged"): the
candidate is worse beyond chance where its new squares outnumber the fixed ones by more
than twice the square root of the two together (the sign test's two standard
deviations), better beyond chance the other way round, else within chance. The same is
printed with each board's squares counted once per square and true class
(``clusters``), as frames of one position repeat one error. The ratio line is the peer's
wrong squares over the candidate's.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from pathlib import Path

import cv2

from lab.real_boards import RealBoardPhoto, load_real_boards, read_board
from vision.config import VisionConfig
from vision.net_reading import net_weights
from vision.square_net import SquareNetError, load_net

FILES = "abcdefgh"

# A square read wrong: (photo file name, board, square index 0..63 from a8, true class).
Miss = tuple[str, str, int, str]


def beyond_chance(more: int, fewer: int) -> bool:
    """Whether ``more`` squares against ``fewer`` (each wrong with one reader only) is
    more than the sign test's two standard deviations from an even split."""
    return more - fewer > 2.0 * math.sqrt(more + fewer)


def verdict(new: int, fixed: int) -> str:
    """The candidate's verdict against its peer from the squares only it gets wrong
    (``new``) and only the peer gets wrong (``fixed``)."""
    if beyond_chance(new, fixed):
        return "worse beyond chance"
    if beyond_chance(fixed, new):
        return "better beyond chance"
    return "within chance"


def clusters(misses: set[Miss]) -> set[tuple[str, int, str]]:
    """The squares counted once per board, square and true class."""
    return {(board, index, truth) for _name, board, index, truth in misses}


def reader_config(nets: Sequence[str], board: str, weights: Sequence[float],
                  shift: float, shifted: Sequence[int]) -> VisionConfig:
    """The shipped reader with the networks ``nets`` (``{board}`` filled in)."""
    names = tuple(pattern.format(board=board) for pattern in nets)
    return VisionConfig().replace(photo_nets=names, photo_net_weights=tuple(weights),
        photo_shift=shift, photo_shifted_nets=tuple(names[i] for i in shifted))


def misses_of(config: VisionConfig, photo: RealBoardPhoto) -> set[Miss]:
    """The squares of one photo that the reader ``config`` gets wrong."""
    read = "".join(read_board(config, photo))
    truth = "".join(photo.grid)
    return {(photo.path.name, photo.board, index, want)
            for index, (want, got) in enumerate(zip(truth, read, strict=True)) if want != got}


def _missing(nets: Sequence[str], board: str) -> list[str]:
    """The files of ``nets`` (``{board}`` filled in) that are not there."""
    return [name for name in (pattern.format(board=board) for pattern in nets)
            if not Path(name).is_file()]


def _check(parser: argparse.ArgumentParser, prefix: str, nets: Sequence[str],
           weights: Sequence[float], shift: float, shifted: Sequence[int]) -> None:
    if any("{board}" not in pattern for pattern in nets):
        parser.error(f"--{prefix}nets: every network is a pattern holding {{board}}, "
                     f"for the fit made without that board: {list(nets)}")
    if weights:
        try:
            net_weights(tuple(nets), tuple(weights))
        except SquareNetError as error:
            parser.error(f"--{prefix}weights: {error}")
    if shift < 0.0 or shift >= 0.5:
        parser.error(f"--{prefix}shift {shift}: give a fraction of a square, 0 to below 0.5")
    bad = [i for i in shifted if not 0 <= i < len(nets)]
    if bad:
        parser.error(f"--{prefix}shifted {bad}: the places in --{prefix}nets run "
                     f"0 to {len(nets) - 1}")


def _add_reader(parser: argparse.ArgumentParser, prefix: str, what: str) -> None:
    parser.add_argument(f"--{prefix}nets", nargs="+", metavar="PATTERN",
                        required=not prefix, help=f"{what}'s networks, each a path "
                        "holding {board} (default for the peer: the candidate's)")
    parser.add_argument(f"--{prefix}weights", nargs="+", type=float, default=[],
                        metavar="W", help=f"{what}'s weight of each network (default: the same)")
    parser.add_argument(f"--{prefix}shift", type=float, default=0.0, metavar="S",
                        help=f"{what}'s photo_shift, in squares (default 0: off)")
    parser.add_argument(f"--{prefix}shifted", nargs="+", type=int, default=[], metavar="I",
                        help=f"the places in --{prefix}nets of the networks {what} reads "
                        "moved (photo_shifted_nets)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_reader(parser, "", "the candidate")
    _add_reader(parser, "peer-", "the peer")
    parser.add_argument("--boards", help="development boards to read, comma-separated "
                        "(default: every one with all the files of both readers)")
    args = parser.parse_args(argv)
    peer_nets = args.peer_nets or args.nets
    _check(parser, "", args.nets, args.weights, args.shift, args.shifted)
    _check(parser, "peer-", peer_nets, args.peer_weights, args.peer_shift, args.peer_shifted)
    dev = load_real_boards(split="dev")
    known = sorted({photo.board for photo in dev})
    if args.boards:
        boards = args.boards.split(",")
        unknown = [b for b in boards if b not in known]
        if unknown:
            parser.error(f"--boards: no development photos of {unknown} (there are {known})")
        missing = [name for b in boards for name in _missing((*args.nets, *peer_nets), b)]
        if missing:
            parser.error(f"no such network file: {', '.join(missing)}")
    else:
        boards = [b for b in known if not _missing((*args.nets, *peer_nets), b)]
        if not boards:
            parser.error("no development board has all the files of both readers: name "
                         "each fit <something>{board}<something>.onnx, or give --boards")
    for board in boards:
        for pattern in (*args.nets, *peer_nets):
            try:
                load_net(pattern.format(board=board))
            except SquareNetError as error:
                parser.error(str(error))
    cv2.setNumThreads(1)
    mine: set[Miss] = set()
    theirs: set[Miss] = set()
    seconds = [0.0, 0.0]
    for board in boards:
        config = reader_config(args.nets, board, args.weights, args.shift, args.shifted)
        peer = reader_config(peer_nets, board, args.peer_weights or
                             ([] if args.peer_nets else args.weights),
                             args.peer_shift, args.peer_shifted)
        for photo in (p for p in dev if p.board == board):
            start = time.perf_counter()
            got = misses_of(config, photo)
            middle = time.perf_counter()
            peer_got = misses_of(peer, photo)
            seconds[0] += middle - start
            seconds[1] += time.perf_counter() - middle
            mine |= got
            theirs |= peer_got
            for name, _board, index, truth in sorted(got | peer_got, key=lambda m: m[2]):
                which = ("both" if (name, board, index, truth) in got & peer_got else
                         "new" if (name, board, index, truth) in got else "fixed")
                print(f"{name:16s} {FILES[index % 8]}{8 - index // 8}  expected {truth}  {which}")
    print()
    for board in [*boards, None]:
        a = {m for m in mine if board in (None, m[1])}
        b = {m for m in theirs if board in (None, m[1])}
        label = board or "together"
        print(f"{label:10s} candidate {len(a):4d} wrong, peer {len(b):4d}: new {len(a - b)}, "
              f"fixed {len(b - a)}: {verdict(len(a - b), len(b - a))}")
    ca, cb = clusters(mine), clusters(theirs)
    print(f"{'clusters':10s} candidate {len(ca):4d}, peer {len(cb):4d}: new {len(ca - cb)}, "
          f"fixed {len(cb - ca)}: {verdict(len(ca - cb), len(cb - ca))}")
    photos = sum(p.board in boards for p in dev)
    print(f"ratio peer / candidate (wrong squares): {len(theirs) / max(len(mine), 1):.2f} "
          f"({len(theirs)} / {len(mine)}); time a photo: candidate "
          f"{1e3 * seconds[0] / photos:.1f} ms, peer {1e3 * seconds[1] / photos:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
