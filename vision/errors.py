"""The errors the camera reader raises: each names what is wrong."""

from __future__ import annotations


class VisionError(ValueError):
    """Something the camera reader cannot do with the frame or source it was given."""


class BoardNotFound(VisionError):
    """No board (chessboard pattern or corner markers) could be found in a frame."""


class FrameUnreadable(VisionError):
    """A frame or image file could not be read or decoded."""


class SourceUnavailable(VisionError):
    """A camera index, file or URL cannot be opened."""


class CalibrationError(VisionError):
    """Stored or given board geometry is malformed or does not fit the frame."""
