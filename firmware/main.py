"""Firmware entry point on the Pico (runs at power-up).

Ctrl-C (e.g. from ``mpremote``) stops the firmware and restarts the Pico into
maintenance mode for one boot, so files can be copied before the watchdog is
armed again; so does the GP22 jumper. See firmware/README.md.
"""

import os

import machine

MAINTENANCE_FLAG = "maintenance"


def main():
    import hw_rp2040

    if MAINTENANCE_FLAG in os.listdir() or hw_rp2040.maintenance_requested():
        if MAINTENANCE_FLAG in os.listdir():
            os.remove(MAINTENANCE_FLAG)
        print("raindrop board: maintenance mode, firmware not started")
        return
    import device
    import link

    hw = hw_rp2040.Rp2040Hardware()
    hw.start_watchdog()
    dev = device.Device(hw, link.StreamLink(), hw.board_id())
    try:
        dev.run()
    except KeyboardInterrupt:
        with open(MAINTENANCE_FLAG, "w") as flag:
            flag.write("1")
        machine.reset()


main()
