"""The firmware's modules under the MicroPython unix port, and compiled with mpy-cross."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from companion.sensors.firmware_sim import firmware_dir, micropython_command, micropython_path

HERE = Path(__file__).parent
CHECKS = [
    "debounce_bounce", "debounce_per_switch", "debounce_reconfigure", "debounce_model",
    "device_snapshot_on_settled_change", "device_commands", "device_rejects_damaged_commands",
    "device_random_input", "device_heartbeat", "device_selftest", "device_watchdog",
    "device_paced_run", "device_crafted_frames", "device_error_detail_fits",
    "device_sequence_window", "device_rotation", "device_maintenance", "main_entry",
    "rp2040_layer",
]
NOT_STANDALONE = ["device_fuzz"]  # needs a stream file: test_firmware_fuzz.py runs it


def run_micropython(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, MICROPYPATH=micropython_path())
    return subprocess.run([micropython_command(), *args], env=env, capture_output=True,
                          text=True, timeout=timeout, check=False, cwd=HERE)


def test_every_check_is_listed() -> None:
    result = run_micropython("-c", "import mp_checks; print(sorted(mp_checks.CHECKS))")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(sorted(CHECKS + NOT_STANDALONE))


@pytest.mark.parametrize("name", CHECKS)
def test_firmware_check_under_micropython(name: str) -> None:
    result = run_micropython("mp_checks.py", name)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(f"PASS {name}")


def test_firmware_modules_compile_with_mpy_cross(tmp_path: Path) -> None:
    """What deployment copies to the Pico: every firmware module and the shared protocol."""
    import companion.sensors.protocol as protocol

    sources = [p for p in firmware_dir().glob("*.py") if p.name not in ("main.py", "sim_main.py")]
    sources.append(Path(protocol.__file__))
    assert {p.stem for p in sources} >= {"device", "scanner", "link", "hw_rp2040", "protocol"}
    mpy_cross = Path(micropython_command()).with_name("mpy-cross")
    for source in sources:
        target = tmp_path / (source.stem + ".mpy")
        result = subprocess.run([str(mpy_cross), "-march=armv6m", "-o", str(target), str(source)],
                                capture_output=True, text=True, check=False, timeout=60)
        assert result.returncode == 0, f"{source.name}: {result.stderr}"
        assert target.read_bytes()[:1] == b"M", f"{target.name} is not a .mpy file"


def test_deploy_script_builds_what_the_pico_needs(tmp_path: Path) -> None:
    script = firmware_dir() / "deploy.sh"
    env = dict(os.environ, MPY_CROSS=str(Path(micropython_command()).with_name("mpy-cross")))
    result = subprocess.run(["bash", str(script), "--build-only"], env=env, capture_output=True,
                            text=True, check=False, timeout=120)
    assert result.returncode == 0, result.stderr
    built = sorted(p.name for p in (firmware_dir() / "build").iterdir())
    assert built == ["device.mpy", "hw_rp2040.mpy", "link.mpy", "main.py", "protocol.mpy",
                     "scanner.mpy"]
