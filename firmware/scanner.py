"""Per-switch debounce for the 8x8 reed-switch matrix (pure: no hardware, no clock).

A scan is eight row bytes (row r = rank r+1, bit f = file f, a = 0; 1 = closed).
A switch changes its settled state only after ``scans`` consecutive identical
readings, so contact bounce and a magnet sliding past never reach the host.
"""


class Debouncer:
    """Settles raw scans: a switch counts once stable for ``scans`` consecutive scans."""

    def __init__(self, scans):
        self.stable = bytearray(8)
        self._last = bytearray(8)
        self.set_scans(scans)

    def set_scans(self, scans):
        """Change the number of scans a switch must hold (keeps the settled state)."""
        if scans < 1:
            raise ValueError("debounce needs at least 1 scan, got %d" % scans)
        self.scans = scans
        self._history = [bytearray(8) for _ in range(scans)]
        self._pos = 0
        self._quiet = 0  # consecutive scans identical to the previous one
        for row in self._history:
            row[:] = self.stable

    def update(self, raw):
        """Take one raw scan (8 row bytes); return True when the settled state changed."""
        if raw == self._last:
            self._quiet += 1
            if self._quiet > self.scans:
                return False  # every switch has held its reading for long enough
        else:
            self._quiet = 0
            self._last[:] = raw
        self._history[self._pos][:] = raw
        self._pos = (self._pos + 1) % self.scans
        changed = False
        stable = self.stable
        for r in range(8):
            all_closed = 0xFF
            any_closed = 0
            for past in self._history:
                value = past[r]
                all_closed &= value
                any_closed |= value
            settled = (stable[r] | all_closed) & any_closed
            if settled != stable[r]:
                stable[r] = settled
                changed = True
        return changed

    def mask(self):
        """The settled occupancy as a 64-bit mask (bit n = square n, a1 = 0)."""
        return rows_to_mask(self.stable)


def rows_to_mask(rows):
    """Eight row bytes as a 64-square mask."""
    mask = 0
    for r in range(8):
        mask |= rows[r] << (8 * r)
    return mask


def mask_to_rows(mask, rows):
    """Fill eight row bytes from a 64-square mask."""
    for r in range(8):
        rows[r] = (mask >> (8 * r)) & 0xFF


def turn_byte(value):
    """An 8-bit value with its bits in reverse order (file a <-> h, or rank 1 <-> 8)."""
    out = 0
    for bit in range(8):
        if value & (1 << bit):
            out |= 1 << (7 - bit)
    return out


def turn_mask(mask):
    """A 64-square mask turned round (180 degrees): square n becomes square 63 - n."""
    out = 0
    for r in range(8):  # rank r, bits reversed, becomes rank 7 - r
        out = (out << 8) | _TURNED[(mask >> (8 * r)) & 0xFF]
    return out


def turn_pattern(pattern):
    """A 64-character LED pattern turned round (square n <-> 63 - n)."""
    return "".join([pattern[63 - square] for square in range(64)])


_TURNED = bytes([turn_byte(value) for value in range(256)])
