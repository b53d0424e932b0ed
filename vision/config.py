"""Every threshold of the camera pipeline, in one frozen dataclass of frozen groups, one
group a stage (:class:`VisionConfig`).

Stages take ``(config, image)``; changing a threshold means building a new config with
:meth:`VisionConfig.replace`, never editing module constants. Settings can be read from a
dictionary (:meth:`VisionConfig.from_dict`), grouped or in the flat form they had before
the groups.

The comment beside each setting says what it does and what it was chosen on; the
sessions and candidates they name are those of the development log, condensed in
docs/dev/camera.md and kept whole in the git history of docs/camera-development.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any


@dataclasses.dataclass(frozen=True)
class WarpConfig:
    """The top-down warp of the board every stage reads."""

    # Top-down warp: pixels per square, and how many squares of margin are kept
    # around the board (the margin is where an arm crosses into the board).
    square_px: int = 32
    margin_squares: float = 1.0


@dataclasses.dataclass(frozen=True)
class LocateConfig:
    """Finding the board (markers, the empty chessboard) and checking it on every frame."""

    # Board finding.
    chessboard_max_side: int = 1000  # frames are scaled down to this before corner search
    aruco_dictionary: str = "DICT_4X4_50"
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)  # at a8, h8, h1, a1
    # Geometry check on every frame: grid-line contrast at the expected lines
    # against a quarter square off them.
    check_min_ratio: float = 1.25
    check_failures_to_relocate: int = 8
    # A camera nudged too little for that check still spoils the comparison
    # with the empty board: the board's view at rest is compared with its last
    # one, and a shift of more than this (warp pixels, square_px a square) has
    # the board looked for again.
    rest_shift_px: float = 1.0


@dataclasses.dataclass(frozen=True)
class LightConfig:
    """The light: a change at rest measured square by square, a dim board brightened."""

    # When the light changes at rest, a square bare at the last rest whose
    # change differs from its same-coloured neighbours' by more than this (log
    # units, 15%) is left out of the first measure (a piece put down there).
    relight_odd: float = 0.15
    # Without a reference, a board whose light squares are darker than this
    # (Lab L) is first brightened to it, as a longer exposure would: the
    # occupancy model was fitted on scenes whose light squares are L 53 and up,
    # and in a dim picture a dark piece differs from a dark square too little.
    # 80 read the real photos best (4 wrong; 5 or 6 at 70, 4 at 90, which cost
    # a fifth more synthetic errors without a reference).
    dim_light_l: float = 80.0


@dataclasses.dataclass(frozen=True)
class SamplingConfig:
    """Where each square is looked at (vision.sampling)."""

    # Squares. Radii and shifts are in squares. The sample disc sits where a
    # piece stands (its base), moved a little along its lean away from the camera.
    sample_radius: float = 0.26
    lean_shift: float = 0.12
    piece_height_squares: float = 1.0  # typical piece height, to estimate lean
    # Where a piece's base meets the board around the square centre (inner and
    # outer radius): its contact shadow and outline.
    base_ring: tuple[float, float] = (0.28, 0.44)


@dataclasses.dataclass(frozen=True)
class FeaturesConfig:
    """The hand-made evidence (vision.features): shadows told from pieces."""

    # A pixel between dark_ratio and shadow_ratio of the expected lightness may
    # be in a shadow: it is compared with the expectation darkened as much.
    dark_ratio: float = 0.5
    shadow_ratio: float = 0.82


@dataclasses.dataclass(frozen=True)
class NetsConfig:
    """Which reader reads, and the square networks (vision.net_reading)."""

    # Without a reference: "net" reads every square with the learned square
    # network (vision/models/occupancy.onnx, vision.square_net), "features" with the
    # hand-made features, the occupancy model and the rules below.
    board_reader: str = "net"
    # With a reference: "fused" adds the reference's change logit (the
    # occupancy model's, on the hand-made features), times
    # fused_reference_weight and the share of the square no nearer piece's top
    # can cover, to the square network's log-odds of a piece
    # (leaning.fuse_by_base); "features" reads by the hand-made features and the
    # rules below alone. Chosen on development data only (synthetic streams 55
    # and 56, 150 scenes each; the leaning stream 101, 50 scenes; the 42 dev mat
    # photos taken from the tripod of the empty mat_65, read against it): wrong
    # squares 8 + 2, 16 and 1 fused at weight 0.5, against 13 + 15, 85 and 117
    # by the features, 30 + 23, 20 and 1 by the network alone, and 4 + 1, 16
    # and 2 at weight 1 (the real photos read a reference's change as too sure:
    # 18 wrong at weight 1 without the footprint share). Those are with the
    # network shipped before the mahogany board; with today's, 6 + 4, 16 and 1.
    reference_reader: str = "fused"
    # Without a reference, each square's logits are the mean of the network's on
    # its tile and on the tile mirrored across the lean (sixth session; the
    # network is trained on both). Chosen on development data only: the eight
    # leave-out fits 820 -> 770 wrong (folding better in all four, mahogany
    # worse in all three, the empty marble board 76 -> 53), synthetic set 0's
    # first 1,000 scenes 184 -> 136, the shipped network's 27 unseen dev photos
    # 23 -> 21. It costs one more pass of the network (about 1 ms a photo).
    # The held-out real photos, read once after the choice, then read worse:
    # 121 wrong against 112 (kept: they report, they do not choose).
    net_mirror_average: bool = True
    # Without a reference, the logits are also averaged over these networks
    # (vision package files), each trained by the documented command with its
    # own --seed (eighth session: see docs/dev/camera.md, "Two networks read a photo
    # together"). Since the thirteenth session they are trained with the walnut
    # board's development photos too ("The walnut board's other photos, in both
    # parts"); the reading with a reference, played every frame, keeps game_nets.
    # The third (twenty-first session) is EfficientNet-Lite0's first blocks, pretrained
    # on ImageNet, under a classifier fitted on the same tiles (lab.train_pretrained;
    # "An eleventh candidate" there; vision/models/PRETRAINED_WEIGHTS.md); since the
    # twenty-second it reads them sampled four times as finely ("A twelfth candidate").
    photo_nets: tuple[str, ...] = ("occupancy_photo.onnx", "occupancy_photo_seed1.onnx",
                                   "occupancy_photo_imagenet.onnx")
    # Each photo network's weight in that mean, in photo_nets' order (empty: the same).
    photo_net_weights: tuple[float, ...] = ()
    # Without a reference, the photo networks named in photo_shifted_nets (each reading
    # tiles at the square networks' own scale) can also read every tile moved by
    # photo_shift squares along each of the board's two axes, both ways, their logits
    # the mean of the five cuts (each also mirrored with net_mirror_average). Off (0):
    # the twenty-ninth session's twentieth candidate (docs/dev/camera.md, "A
    # twentieth candidate"), the two small networks moved by 0.06, read the four
    # development boards left out of fits better (70 -> 62) but failed its rule on the
    # development photos (7 -> 10 wrong) and synthetic set 0 (68 -> 72): the networks
    # were fitted on tiles cut from corners moved by 2% of a square at most, and a cut
    # 6% away reads some tiles like theirs worse. The twenty-first candidate, the two
    # fitted again with their tiles moved (train_occupancy --move 0.06) and read with
    # photo_shift 0.1, read those boards 70 -> 57 and failed on the development photos
    # (7 -> 13). The twenty-second (thirtieth session), the shipped pair and that pair
    # together, all four moved by 0.1, the third network a third of the mean: those
    # boards 70 -> 56, the development photos 7 -> 13 again (the same six squares new,
    # none fixed: worse beyond chance). The twentieth read again by that rule (thirty-
    # first session): the boards left out 70 -> 62, new 6, fixed 14, within chance, so
    # not put to the guards.
    photo_shift: float = 0.0
    photo_shifted_nets: tuple[str, ...] = ("occupancy_photo.onnx",
                                           "occupancy_photo_seed1.onnx")
    # The networks that read a frame with a reference (a game's, every frame), their
    # logits averaged. The eleventh session's two photo networks (occupancy.onnx and
    # occupancy_seed1.onnx, the latter since removed) were tried together and failed
    # the rule: off-centre games 501/1/71 -> 532/0/41 and set 0 90 -> 60,
    # but centred game 606 stalled (docs/dev/camera.md "Pieces set down off
    # their squares' centres, in watched games"); the first alone reads them. Networks
    # trained on pieces set off centre (train_occupancy --off-centre), alone or beside
    # it, failed theirs in the twelfth session: they take a neighbour's base or a tall
    # piece's top for a piece ("A game network trained on pieces set off centre").
    # The networks retrained with the walnut board's photos (photo_nets) failed theirs
    # in the thirteenth: centred game 606 stalls. So the games keep the network
    # trained without them (`train_occupancy --leave-out walnut,greywood,amber --keep`:
    # the boards added since come last in the labels, so the other photos' draws are as then).
    game_nets: tuple[str, ...] = ("occupancy.onnx",)


@dataclasses.dataclass(frozen=True)
class FusionConfig:
    """With a reference: the network and the reference read together (vision.fusion)."""

    fused_reference_weight: float = 0.5
    # And less fused_hidden_bias times the share of the square that nearer pieces'
    # tops cover (seventh session; docs/dev/camera.md, "A square hidden behind a nearer
    # piece"): development squares wrong at 0, 1, 2, 3: 47, 47, 44, 51 (synthetic set 0's
    # first 400 scenes, the leaning stream 101's first 60, the dev mat tripod photos).
    fused_hidden_bias: float = 2.0
    # With a reference, the squares a nearer piece's silhouette reaches take the
    # network's label where its log-odds of a piece are beyond +-net_under_tops_logit
    # (fusion.net_under_tops). On 80 + 40 development scenes (streams 55 and 56,
    # ordinary and leaning) the hand-made reading has 10 and 62 squares wrong;
    # with the network's label on every such square 5 and 8, with this bound
    # 3 and 17; on 120 + 50 others (streams 3 and 101) 13 and 78 wrong, then 17
    # and 15, and 12 and 29 with the bound.
    # Off: it also empties, sure of itself, a white pawn hidden behind a black
    # king that the hand-made reading gets right (tests/vision/test_vision_squares.py,
    # seed 4: log-odds -7.2).
    net_under_tops: bool = False
    net_under_tops_logit: float = 4.0


@dataclasses.dataclass(frozen=True)
class MarksConfig:
    """Marks printed on the board, taken away with the reference (vision.printed_marks)."""

    # With a reference, the network sees each tile less the marks printed on the empty
    # board (printed_marks.departures: where it departs from its square colours by at least
    # fused_reference_least), so what the empty picture shows too is no change
    # (twenty-sixth session; docs/dev/camera.md, "Marks printed inside squares":
    # chosen by the third of three rules; printed synthetic boards 132 -> 1 marks read
    # as pieces, development data 43 -> 43, a real mat no network saw 87 -> 48).
    fused_reference_tiles: bool = True
    # how far (pixels of the warp) a mark may lie from where the empty picture had it
    fused_reference_shift: int = 2
    # only departures at least this far from the square's colour (Lab units, the
    # largest channel): 0 takes grain and noise away too
    fused_reference_least: float = 12.0


@dataclasses.dataclass(frozen=True)
class PhotoConfig:
    """A photo read without a reference: its own splits (vision.photo_split), its doubts."""

    # Without a reference (board_reader="net"), each photo's colour threshold
    # moves to where its occupied squares' white-against-black scores split
    # (vision.photo_split), where the split's separation is at least
    # split_separation (penalised split_penalty per unit the threshold moves)
    # and the network is sure of split_sure_count pieces of each army (scores
    # beyond +-split_colour_sure). Chosen on development data only: networks
    # trained with the folding, the mahogany or the marble board left out,
    # reading that board's photos: 225, 248 and 76 squares wrong by the network
    # alone, 215, 166 and 76 split; the shipped network on the 136 dev photos
    # it was trained on, 6 and 6; synthetic set 0 without a reference, 346 and
    # 345 of 128,000. Sixth session, with the occupancy split below: "sure"
    # lowered from 4 to 2 (the eight leave-out fits 900 -> 820 wrong, flat from
    # 2 down to 0.5; no army of the dev photos or synthetic scenes, read alone,
    # is split in two at any of them).
    photo_split: bool = True
    split_separation: float = 2.5
    split_penalty: float = 0.05
    split_colour_min_each: int = 2
    split_colour_sure: float = 2.0
    split_sure_count: int = 2
    # Occupancy too (sixth session): where the network is sure of at least
    # split_occupancy_sure_count pieces (log-odds beyond split_occupancy_sure),
    # a photo's piece threshold moves down to where its 64 log-odds split
    # (separation at least split_separation, no penalty), never below
    # split_occupancy_lowest. Chosen on development data only, leave-out
    # networks reading their board (eight fits: folding four times, mahogany
    # three, marble once): 1,350 squares wrong with the colour split alone,
    # 900 with this; the empty marble board 76 and 76 (its photos have at most
    # four sure false pieces, so the guard keeps them out); the shipped
    # network on its 27 unseen dev photos 27 and 23, on the 136 it was trained
    # on 6 and 8; synthetic set 0 (first 1,000 scenes) 179 and 184.
    split_occupancy: bool = True
    # And where the network's colour split acts, the pieces' own lightness joins
    # it where that separates the photo's pieces better (vision.photo_split,
    # square_net.tile_lightness; sixth session). Chosen on development data only,
    # with the mirrored reading: the eight leave-out fits 770 -> 631 wrong (the
    # mahogany board 252 -> 145), all 163 dev photos with the shipped network
    # 28 -> 30, synthetic set 0's first 1,000 scenes 136 -> 138.
    split_lightness: bool = True
    # And that lightness is taken against the light squares' model where the piece
    # stands (the log of its luminance over theirs: its reflectance against the
    # board's light wood, whatever the light there; square_net.relative_lightness;
    # ninth session). Chosen on the development part's leave-out fits read together:
    # 93 -> 89 wrong (mahogany 31 -> 27, the others unchanged).
    split_lightness_relative: bool = True
    split_occupancy_sure: float = 4.0
    split_occupancy_sure_count: int = 6
    split_occupancy_lowest: float = -7.0
    # A photo read without a reference lowers each piece's log-odds by this much
    # times the share of its footprint that nearer pieces of its own colour cover
    # (vision.leaning.lower_under_tops; 0: off). Twenty-eighth session, "A
    # nineteenth candidate" in docs/dev/camera.md: chosen on the four
    # development boards, each left out of the fits (79 -> 70 wrong; 2 and 3 read
    # 72 and 73), by a rule its other readings then held.
    photo_top_bias: float = 2.5
    # A photo read without a reference lists the squares whose occupancy
    # log-odds lie within this margin of its threshold as unsure, for a person
    # to look at (eleventh session: the smallest whole margin listing half the
    # development part's leave-out errors, 40 of 73, at 1.55 right squares a
    # photo; docs/dev/camera.md "A photo's reading names the squares it
    # is unsure of").
    photo_unsure_margin: float = 3.0
    # A photo read without a reference whose colour split could not act (the
    # network sure of fewer than split_sure_count pieces of one army) while it
    # reads at least this many white or black pieces says its colours are unsure
    # (SquareReading.colours_unsure; twenty-third session: on the development
    # photos, read by the networks before they learned from them, it was said of the
    # 12 bluish greywood frames, 118 boxwood pieces read black, and of no other photo
    # of 4 pieces or more; by today's networks of none of 4 pieces or more; of one
    # held-out photo, holding none of the 21 held-out pieces read in the wrong colour).
    colours_unsure_pieces: int = 4


@dataclasses.dataclass(frozen=True)
class LeanConfig:
    """Tall pieces: their tops over the squares behind (vision.tops, vision.leaning)."""

    # In a game's frames (with a reference, the fused reader): a square that the
    # occupied squares in front cover for at least hidden_hold_share of its
    # footprint, with fused log-odds within hidden_hold_margin of 0, keeps its
    # label from when the board last came to rest (leaning.hold_hidden; eighth
    # session, docs/dev/camera.md "A hidden square holds its state"). 0: off.
    hidden_hold_share: float = 0.9
    hidden_hold_margin: float = 1.5
    # A weak square (logit below this) that a clearly stronger neighbour's piece,
    # up to tall_piece_squares high, leans over is the neighbour's top. With a
    # reference, and without one: on the 2,000-scene accuracy run (occupancy
    # errors) 3.0 gives 105 against 110 with no such rule, 106 at 2.0 and 112 at
    # 3.5 (a king's top on the next square scored 2.2 in a test video); without a
    # reference 1.0 gives 1,067 against 1,072 and 1,108 at 2.0.
    lean_explain_logit: float = 3.0
    lean_explain_logit_board: float = 1.0
    tall_piece_squares: float = 1.8
    # With a reference, a square that a far stronger neighbour (logit higher by
    # top_explain_gap) leans over, with a logit below top_explain_logit and its
    # whole disc in that neighbour's colour, is that neighbour's top (a top
    # shows its own piece's colour). On the 2,000-scene accuracy run: 115 -> 123
    # wrong, held out 56 -> 62 (real pieces hidden behind a tall one of their
    # colour), but a white
    # king's top over the next square (logits 3 to 5.5 against 17) no longer
    # reads as a piece in the reader's test video; any colour and a gap of 3,
    # as for lean_explain_logit, gives 133.
    top_explain_logit: float = 6.0
    # The silhouette of a tall piece (vision.leaning): up to top_height_squares
    # high (a tournament king is about 1.9 squares) and top_radius_squares wide.
    # A square a nearer occupied square's silhouette reaches is empty when
    # from foot_min_visible to foot_max_visible of its probes (its footprint,
    # the disc of foot_radius round its centre where a piece's base meets the
    # board, and the column a short piece there would show) lie outside the
    # silhouettes in front and less than foot_piece_fraction of that part
    # differs from the empty board (Lab distance over foot_unlike; a shadow
    # counts as a difference: allowing for shadows read a white piece's shaded
    # side as board). With more of it in the open the square is kept: the tops
    # in front cover too little of it to have made its reading. On the first
    # 400 scenes of bench set 0 (ordinary cameras, reference) the rule with 12
    # and no upper bound emptied 6 real pieces this way (white ones, on light
    # squares, with 38 to 92% of the probes in the open) and no empty square;
    # on the low-camera streams it emptied only squares with 27 to 39% in the
    # open and at most 15% unlike.
    top_height_squares: float = 1.9
    top_radius_squares: float = 0.32
    foot_radius: float = 0.3
    foot_probe_height: float = 0.7
    foot_probe_radius: float = 0.2
    foot_min_visible: float = 0.25
    foot_max_visible: float = 0.5
    foot_piece_fraction: float = 0.3
    foot_unlike: float = 8.0
    # A square almost all of whose probes a nearer piece's silhouette hides is
    # empty when its score is below foot_hidden_logit (with a reference, and only
    # if some piece in front has the colour it reads: a top shows its own
    # piece's colour; a white pawn behind a black king scored 5.8 to 6.8 in tests) or
    # foot_hidden_logit_board (without one, for board_reader="features"; off: at
    # 3.0 it took the 150-scene test run from 77 to 100 wrong squares).
    foot_hidden_logit: float = 5.5
    foot_hidden_logit_board: float = float("-inf")
    top_explain_gap: float = 11.0


@dataclasses.dataclass(frozen=True)
class OutlineConfig:
    """Without a reference: unsure squares settled by their round outline (vision.outline_vote)."""

    # Without a reference, unsure squares (logit between these) are settled by
    # their round outline against the board's sure squares (vision.outline_vote):
    # empty at most outline_empty_factor x the strongest outline of a sure empty
    # square (at least outline_floor); a piece at least outline_piece_factor x
    # the weakest of a sure piece (outline_no_piece when there is none), when no
    # square of that colour lies between the two levels, and only if no shadow
    # explains outline_shadow_fraction of either disc half and no lit board
    # outline_lit_fraction of both (see features.unexplained); a square becomes
    # empty by its outline even when some square lies between. Chosen on the
    # 2,000-scene accuracy run and the real photos, checked on 1,000 held-out
    # scenes: real photos 4 -> 0 wrong; synthetic 1,052 -> 1,047, held out
    # 458 -> 451. Without the shadow and lit checks synthetic errors rose by
    # a fifth: hard shadows have curved edges, and between them lit board.
    outline_sure_logits: tuple[float, float] = (-4.5, 2.5)
    outline_empty_factor: float = 3.0
    outline_piece_factor: float = 0.6
    outline_floor: float = 0.02
    outline_no_piece: float = 1.0
    outline_shadow_fraction: float = 0.1
    outline_lit_fraction: float = 0.2
    outline_lit_ratio: tuple[float, float] = (1.08, 1.6)
    outline_lit_chroma: float = 10.0


@dataclasses.dataclass(frozen=True)
class ColourConfig:
    """A piece's colour by the hand-made features (vision.piece_colours)."""

    # Blue: chosen on the accuracy run's first 600 synthetic scenes (blue/not-blue
    # mistakes 11 -> 4 of about 15,000 pieces) and checked on 600 others (lab.fit_occupancy's
    # seeds: 9 -> 3); no piece of the real photos is read blue.
    blue_min_chroma: float = 20.0  # Lab chroma for a blue piece (a shaded blue has ~21)
    blue_min_lightness: float = 16.0  # Lab L: darker bluish pixels are a black piece's
    blue_hue_range: tuple[float, float] = (220.0, 310.0)  # Lab hue angle, degrees
    blue_fraction: float = 0.4  # of the sample disc blue: a blue piece
    # White or black: the lightness of the colour_fraction of disc pixels least
    # like the board, over the light squares' lightness. The pieces of one frame
    # are split in two groups (Otsu on the logarithms, the threshold in the widest
    # gap between the groups' means) when the groups are at least white_gap apart
    # in log units (see piece_colours.two_groups) and the threshold falls in
    # white_split_range; otherwise the threshold is white_ratio. The pieces on
    # each square colour are split on their own when at least colour_split_min of
    # them stand there (a piece looks darker by this measure on a light square).
    # Tuned on 600 synthetic scenes and the real photos: every real piece's colour
    # right, synthetic white/black swaps 13 of about 20,000 pieces (12 before).
    colour_fraction: float = 0.4
    white_ratio: float = 0.5
    white_gap: float = 0.75
    white_split_range: tuple[float, float] = (0.2, 0.7)
    colour_split_min: int = 4


@dataclasses.dataclass(frozen=True)
class MotionConfig:
    """Hands and motion (vision.motion), on a grey warp with 8 pixels a square; a cell is one
    square of the board or its margin."""

    # Hands and motion, on a grey warp with 8 pixels a square. A cell is one
    # square of the board or its margin.
    motion_threshold: float = 18.0  # grey levels between consecutive frames
    motion_fraction: float = 0.12  # of one cell changed since the last frame: moving
    hand_threshold: float = 30.0  # grey levels against the last settled frame
    hand_cell_fraction: float = 0.3  # of a cell changed: the cell is covered
    hand_cells: int = 5  # a covered region this big reaching over the edge: a hand
    hand_inner_cells: int = 7  # or this big anywhere
    hand_still_seconds: float = 1.0  # a "hand" with no motion this long is a board change


@dataclasses.dataclass(frozen=True)
class SettleConfig:
    """When a board has settled, and which squares it is unsure of (vision.motion.Settler)."""

    settle_frames: int = 4  # agreeing still frames before a snapshot
    settle_seconds: float = 0.3  # and at least this long
    # A square read empty whose log-odds of a piece lie above minus this is sent as
    # unsure (BoardSnapshot.unsure: the sync asks the players about it, never acts
    # on it alone); 0: none is. In the watched games looked at, empty squares read -12
    # and below, a cream rook on a cream square about -5, a hidden piece held empty within
    # 1.5 of 0 (ninth session). A still run's frames that differ only on squares within
    # this of 0 agree, and those squares are sent as unsure too (Settler).
    unsure_log_odds: float = 6.0
    glimpse_frames: int = 3  # a shorter run of agreeing still frames joins the trail


@dataclasses.dataclass(frozen=True)
class VisionConfig:
    """Thresholds and sizes for locating the board, reading squares and settling, one
    group a stage (``config.lean.foot_unlike``). Every setting's name is unique across
    the groups: :meth:`replace` and :meth:`from_dict` take settings by name alone."""

    warp: WarpConfig = dataclasses.field(default_factory=WarpConfig)
    locate: LocateConfig = dataclasses.field(default_factory=LocateConfig)
    light: LightConfig = dataclasses.field(default_factory=LightConfig)
    sampling: SamplingConfig = dataclasses.field(default_factory=SamplingConfig)
    features: FeaturesConfig = dataclasses.field(default_factory=FeaturesConfig)
    nets: NetsConfig = dataclasses.field(default_factory=NetsConfig)
    fusion: FusionConfig = dataclasses.field(default_factory=FusionConfig)
    marks: MarksConfig = dataclasses.field(default_factory=MarksConfig)
    photo: PhotoConfig = dataclasses.field(default_factory=PhotoConfig)
    lean: LeanConfig = dataclasses.field(default_factory=LeanConfig)
    outline: OutlineConfig = dataclasses.field(default_factory=OutlineConfig)
    colour: ColourConfig = dataclasses.field(default_factory=ColourConfig)
    motion: MotionConfig = dataclasses.field(default_factory=MotionConfig)
    settle: SettleConfig = dataclasses.field(default_factory=SettleConfig)

    def replace(self, **settings: Any) -> VisionConfig:
        """This config with the named settings changed (each found in its group):
        ``config.replace(photo_top_bias=0.0)``. Raises ``ConfigError`` for a name
        that is no setting."""
        changes: dict[str, dict[str, Any]] = {}
        for name, value in settings.items():
            changes.setdefault(group_of(name), {})[name] = value
        return dataclasses.replace(self, **{
            group: dataclasses.replace(getattr(self, group), **values)
            for group, values in changes.items()})

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """Every setting by group, as JSON holds it (tuples as lists)."""
        return {group.name: dataclasses.asdict(getattr(self, group.name))
                for group in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VisionConfig:
        """A config from :meth:`to_dict`'s form, or from the flat form every setting had
        before the groups (``{"square_px": 32, ...}``, as ``dataclasses.asdict`` wrote
        it); settings not given keep their defaults. Raises ``ConfigError`` naming a
        key that is no group or setting, or a value of the wrong kind."""
        flat: dict[str, Any] = {}
        for key, value in data.items():
            if key in _GROUPS:
                if not isinstance(value, Mapping):
                    raise ConfigError(f"vision settings: {key!r} must hold settings, "
                                      f"not {value!r}")
                for name, setting in value.items():
                    if group_of(name) != key:
                        raise ConfigError(f"vision settings: {name!r} is no setting of "
                                          f"{key!r}")
                    flat[name] = setting
            else:
                flat[key] = value
        defaults = cls()
        for name, value in flat.items():
            flat[name] = _as_setting(name, value, getattr(getattr(defaults, group_of(name)),
                                                          name))
        return defaults.replace(**flat)


class ConfigError(ValueError):
    """A vision setting's name or value that cannot be used."""


_GROUPS = {group.name for group in dataclasses.fields(VisionConfig)}


def group_of(name: str) -> str:
    """The group holding the setting ``name`` (``"lean"`` for ``"foot_unlike"``)."""
    group = _GROUP_OF.get(name)
    if group is None:
        raise ConfigError(f"vision settings: no setting {name!r}")
    return group


def _as_setting(name: str, value: Any, default: Any) -> Any:
    """``value`` (as JSON holds it) in the kind of ``default``: tuples from lists."""
    if isinstance(default, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"vision settings: {name} must be a list, not {value!r}")
        return tuple(value)
    if isinstance(default, (bool, str)):
        if type(value) is not type(default):
            raise ConfigError(f"vision settings: {name} must be a {type(default).__name__}, "
                              f"not {value!r}")
        return value
    if isinstance(default, (int, float)) and (isinstance(value, bool)
                                              or not isinstance(value, (int, float))):
        raise ConfigError(f"vision settings: {name} must be a number, not {value!r}")
    return type(default)(value) if isinstance(default, float) else value


_GROUP_OF = {setting.name: group.name for group in dataclasses.fields(VisionConfig)
             for setting in dataclasses.fields(getattr(VisionConfig(), group.name))}
