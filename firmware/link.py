"""The byte link to the host: the REPL's stdin/stdout.

On the Pico that is the USB CDC serial port; under the MicroPython unix port
it is whatever the process was started with (a pty in tests). Reads never
block. Under the unix port a frame is written only when the pty can take it
(dropped otherwise, so a closed host end cannot block the loop); on the Pico,
MicroPython's USB CDC driver itself drops output while no host listens.
"""

import select
import sys


class StreamLink:
    """Non-blocking reads from stdin, writes to stdout."""

    def __init__(self, max_read=256):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._max = max_read
        self._rpoll = select.poll()
        self._rpoll.register(sys.stdin, select.POLLIN)
        self._wpoll = None
        if sys.platform != "rp2":
            self._wpoll = select.poll()
            self._wpoll.register(sys.stdout, select.POLLOUT)
        self.dropped = 0

    def read(self):
        """The bytes waiting now (possibly none)."""
        data = b""
        while len(data) < self._max:
            events = self._rpoll.poll(0)
            if not events or not events[0][1] & select.POLLIN:
                break
            try:
                byte = self._in.read(1)
            except OSError:  # host side closed (pty) - nothing to read
                break
            if not byte:
                break
            data += byte
        return data

    def write(self, frame):
        """Send one frame, or drop it when the host is not reading."""
        if self._wpoll is not None:
            events = self._wpoll.poll(0)
            if not events or not events[0][1] & select.POLLOUT:
                self.dropped += 1
                return
        try:
            self._out.write(frame)
        except OSError:
            self.dropped += 1
