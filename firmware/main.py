"""Firmware entry point on the Pico (runs at power-up).

Ctrl-C on the USB port does nothing: the firmware turns the REPL's interrupt
character off, so a terminal (or a cat on the port) cannot stop it. Maintenance
mode (no firmware, no watchdog, the REPL free for ``mpremote``) needs a
deliberate step: ``raindrop board maintenance`` (a MAINT frame naming this
board's id) restarts the Pico into it for one boot, and a jumper from GP22 to
GND holds it there at every power-up while fitted. See firmware/README.md.
"""

MAINTENANCE_FLAG = "maintenance"


def maintenance_boot(os, hw_module):
    """Whether this boot is a maintenance boot (the flag is used up; the jumper is not)."""
    flagged = MAINTENANCE_FLAG in os.listdir()
    if flagged:
        os.remove(MAINTENANCE_FLAG)
    return flagged or hw_module.maintenance_requested()


def run_firmware(machine, micropython, hw_module, device, link):
    """Run the firmware until a MAINT names this board; then restart into maintenance."""
    import time

    micropython.kbd_intr(-1)  # Ctrl-C (0x03) is a byte like any other, never a stop
    hw = hw_module.Rp2040Hardware()
    hw.start_watchdog()
    stream = link.StreamLink()
    while True:
        dev = device.Device(hw, stream, hw.board_id())
        try:
            dev.run()
        except KeyboardInterrupt:  # cannot come from the port; never a way out
            continue
        if dev.maintenance:
            break
    with open(MAINTENANCE_FLAG, "w") as flag:
        flag.write("1")
    time.sleep_ms(300)  # let USB send the reply to MAINT before the restart cuts it off
    machine.reset()


def main():
    import os

    import machine
    import micropython

    import hw_rp2040

    if maintenance_boot(os, hw_rp2040):
        print("raindrop board: maintenance mode, firmware not started")
        return
    import device
    import link

    run_firmware(machine, micropython, hw_rp2040, device, link)


if __name__ == "__main__":
    main()
