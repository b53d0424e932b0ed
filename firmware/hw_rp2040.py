"""The Raspberry Pi Pico (RP2040) hardware layer: matrix pins, LEDs, watchdog.

Pin map (matches hardware/wiring.md):

    rows    GP0..GP7   rank 1..8, driven low one at a time, driven high otherwise
    columns GP8..GP15  file a..h, inputs with pull-ups (internal, and 10 kOhm fitted
                       on the board); a closed switch on the driven row reads low
    LEDs    GP16       WS2812B data (through a 74AHCT125 level shifter), 64 pixels
    jumper  GP22       to GND at power-up: maintenance mode (the firmware does not start)

Each switch sits in series with a diode (anode on the column, cathode on the row),
so a driven row pulls down only the columns whose switches on that row are
closed, and several closed switches can never fake a third one (no ghosting).

Idle rows are driven high rather than left floating: a released row would
otherwise sit low for a while after its turn (its wire and diodes hold charge)
and pull its closed switches' columns down into the next row's reading, which
a 10 us settle only hides on short wires. Driven high, an idle row's diodes are
reverse-biased at once, so only the scanned row can pull a column low.
"""

import time

import machine
import neopixel

ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7)
COLUMN_FIRST_PIN = 8  # columns are GP8..GP15, read at once from the SIO input register
LED_PIN = 16
MAINTENANCE_PIN = 22
ROW_SETTLE_US = 10  # after driving a row, before reading the columns

LEDS_FITTED = True
LED_SERPENTINE = True  # rank 1 runs a->h, rank 2 h->a, ... (see hardware/build-guide.md)
BRIGHTNESS = 24  # of 255 per channel: keeps 64 lit squares inside USB's 500 mA
WATCHDOG_MS = 2000
SETTINGS_FILE = "settings.txt"  # the board's own settings (its rotation), kept in flash

_SIO_GPIO_IN = 0xD0000004
_SIO_GPIO_OUT_SET = 0xD0000014
_SIO_GPIO_OUT_CLR = 0xD0000018
_SIO_GPIO_OE_SET = 0xD0000024

_PALETTE = {
    ".": (0, 0, 0),
    "R": (BRIGHTNESS, 0, 0),
    "G": (0, BRIGHTNESS, 0),
    "B": (0, 0, BRIGHTNESS),
    "Y": (BRIGHTNESS, BRIGHTNESS * 2 // 3, 0),
    "W": (BRIGHTNESS, BRIGHTNESS, BRIGHTNESS),
    "C": (0, BRIGHTNESS, BRIGHTNESS),
    "M": (BRIGHTNESS, 0, BRIGHTNESS),
}


def maintenance_requested():
    """Whether the maintenance jumper (GP22 to GND) is fitted."""
    return machine.Pin(MAINTENANCE_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def led_index(square):
    """The position in the LED chain of ``square`` (0 = a1)."""
    rank, file = square >> 3, square & 7
    if LED_SERPENTINE and rank & 1:
        file = 7 - file
    return rank * 8 + file


class Rp2040Hardware:
    """The hardware layer of ``device.Device`` on a Pico."""

    def __init__(self):
        for pin in ROW_PINS:
            machine.Pin(pin, machine.Pin.OUT, value=1)
        self._row_bits = [1 << pin for pin in ROW_PINS]
        mem = machine.mem32
        for bit in self._row_bits:
            mem[_SIO_GPIO_OUT_SET] = bit  # idle rows high: defined, diodes reverse-biased
            mem[_SIO_GPIO_OE_SET] = bit
        for i in range(8):
            machine.Pin(COLUMN_FIRST_PIN + i, machine.Pin.IN, machine.Pin.PULL_UP)
        self.has_leds = LEDS_FITTED
        self._np = neopixel.NeoPixel(machine.Pin(LED_PIN), 64) if LEDS_FITTED else None
        self._wdt = None

    def start_watchdog(self):
        """Arm the watchdog (it cannot be stopped again until reset)."""
        self._wdt = machine.WDT(timeout=WATCHDOG_MS)

    def board_id(self):
        """The Pico's flash unique id in hex."""
        return "".join("%02X" % b for b in machine.unique_id())

    def scan(self, rows):
        """Drive each row low in turn (the others high) and read the eight columns at once."""
        mem = machine.mem32
        for r in range(8):
            bit = self._row_bits[r]
            mem[_SIO_GPIO_OUT_CLR] = bit
            time.sleep_us(ROW_SETTLE_US)
            value = (mem[_SIO_GPIO_IN] >> COLUMN_FIRST_PIN) & 0xFF
            mem[_SIO_GPIO_OUT_SET] = bit
            rows[r] = value ^ 0xFF

    def columns_idle(self):
        """Columns that read low with every row high: shorted to ground."""
        return ((machine.mem32[_SIO_GPIO_IN] >> COLUMN_FIRST_PIN) & 0xFF) ^ 0xFF

    def load_settings(self):
        """The settings file's text ("" when there is none)."""
        try:
            with open(SETTINGS_FILE) as source:
                return source.read()
        except OSError:
            return ""

    def save_settings(self, text):
        """Keep the settings in flash (written only when a setting changes)."""
        with open(SETTINGS_FILE, "w") as out:
            out.write(text)

    def show_leds(self, pattern):
        """Light the squares (``protocol.LED_CHARS`` per square, a1..h8)."""
        if self._np is None:
            return False
        for square in range(64):
            self._np[led_index(square)] = _PALETTE.get(pattern[square], (0, 0, 0))
        self._np.write()
        return True

    def feed(self):
        if self._wdt is not None:
            self._wdt.feed()
