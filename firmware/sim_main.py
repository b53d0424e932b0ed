"""Run the firmware under the MicroPython unix port with a simulated matrix.

    micropython sim_main.py [--control PATH] [--id ID] [--led-file PATH] [--no-leds]
                            [--hz N] [--db N] [--beat MS] [--wdt MS] [--settings PATH]

stdin/stdout are the serial link (give it a pty). Needs ``protocol.py`` (from
companion/sensors) on MICROPYPATH. ``--settings`` is the simulated flash file
that keeps the board's settings (its rotation) across restarts. A MAINT naming
the board ends the process (the Pico would restart into maintenance mode).
"""

import sys
import time

import micropython

import device
import hw_sim
import link

RESTART_DELAY_MS = 300


def parse_args(argv):
    opts = {"control": None, "id": "SIM0001", "led-file": None, "leds": True,
            "hz": device.DEFAULT_SCAN_HZ, "db": device.DEFAULT_DEBOUNCE,
            "beat": device.DEFAULT_BEAT_MS, "wdt": 2000, "settings": None}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--no-leds":
            opts["leds"] = False
            i += 1
            continue
        key = arg[2:]
        if not arg.startswith("--") or key not in opts or i + 1 >= len(argv):
            raise SystemExit("sim_main: bad argument %r" % arg)
        value = argv[i + 1]
        opts[key] = int(value) if key in ("hz", "db", "beat", "wdt") else value
        i += 2
    return opts


def main(argv):
    opts = parse_args(argv)
    hw = hw_sim.SimHardware(opts["control"], opts["leds"], opts["led-file"], opts["wdt"],
                            opts["settings"])
    micropython.kbd_intr(-1)  # as on the Pico: Ctrl-C is a byte, never a stop
    stream = link.StreamLink()
    while True:
        dev = device.Device(hw, stream, opts["id"], opts["hz"], opts["db"], opts["beat"])
        try:
            dev.run()
        except hw_sim.WatchdogReset:
            sys.stderr.write("sim: watchdog reset\n")
            hw.reboot()
            continue
        if dev.maintenance:
            sys.stderr.write("sim: maintenance mode, firmware stopped\n")
            # As on the Pico (main.py): let the host read the reply before the port goes.
            # A pty drops what its master has not read yet when the slave closes.
            time.sleep_ms(RESTART_DELAY_MS)
            return


main(sys.argv[1:])
