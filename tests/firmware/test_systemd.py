"""The systemd unit passes `systemd-analyze verify` and keeps the promised settings."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "nardref.service"
INSTALL = ROOT / "systemd" / "install.sh"
EXEC_START = "/opt/nardref/venv/bin/nardref run --config /etc/nardref/config.toml"


def directives(text: str) -> dict[str, list[str]]:
    """key -> values in file order (a key like DeviceAllow may repeat)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found.setdefault(key.strip(), []).append(value.strip())
    return found


def verify(unit_text: str, tmp_path: Path) -> str:
    """Output of `systemd-analyze verify` on a copy of the unit.

    verify refuses a unit whose ExecStart binary does not exist, and the venv is
    only on an installed Pi; the copy points ExecStart at /bin/true and keeps
    every other line, so all directives are still checked.
    """
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    assert EXEC_START in unit_text
    copy = tmp_path / "nardref.service"
    copy.write_text(unit_text.replace("/opt/nardref/venv/bin/nardref", shutil.which("true") or "/bin/true"))
    result = subprocess.run(
        [analyze, "verify", "--man=no", str(copy)], capture_output=True, text=True, timeout=60, check=False
    )
    return (result.stdout + result.stderr).strip() + ("" if result.returncode == 0 else f"\nexit {result.returncode}")


def test_systemd_unit_verifies_clean(tmp_path: Path) -> None:
    assert verify(UNIT.read_text(), tmp_path) == ""


def test_systemd_verify_catches_bad_directives(tmp_path: Path) -> None:
    broken = UNIT.read_text().replace("WatchdogSec=10s", "WatchdogSec=ten\nDeviceAlow=char-spidev rw")
    output = verify(broken, tmp_path)
    assert "ten" in output and "DeviceAlow" in output


def test_systemd_unit_settings() -> None:
    unit = directives(UNIT.read_text())
    assert unit["ExecStart"] == [EXEC_START]
    assert unit["Type"] == ["notify"]
    assert unit["User"] == ["nardref"]
    assert set(unit["SupplementaryGroups"][0].split()) == {"gpio", "spi", "video"}
    assert unit["Restart"] == ["on-failure"]
    assert unit["StateDirectory"] == ["nardref"]
    assert unit["WorkingDirectory"] == ["/var/lib/nardref"]
    assert re.fullmatch(r"\d+s", unit["WatchdogSec"][0])
    for key, value in {
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "NoNewPrivileges": "yes",
        "DevicePolicy": "closed",
    }.items():
        assert unit[key] == [value], key
    allowed = {value.split()[0] for value in unit["DeviceAllow"]}
    assert {
        "char-spidev",
        "char-gpiochip",
        "char-*gpiomem*",
        "char-video4linux",
        "char-media",
        "char-dma_heap",
    } <= allowed
    assert "ExecStop" not in unit  # never ExecStop=pkill: SIGTERM reaches the main process
    assert "pkill" not in UNIT.read_text()


def test_systemd_journal_default_is_in_state_directory() -> None:
    from firmware.config import default_config

    assert default_config().journal.path.startswith("/var/lib/nardref/")


def test_systemd_install_script_is_sound() -> None:
    text = INSTALL.read_text()
    subprocess.run(["bash", "-n", str(INSTALL)], check=True, timeout=30)
    assert "set -euo pipefail" in text
    assert "python3-picamera2" in text and "python3-lgpio" in text and "python3-venv" in text
    assert "--system-site-packages" in text
    assert '"$REPO[pi]"' in text
    assert "raspi-config nonint do_spi 0" in text
    assert "systemctl enable --now nardref" in text
    assert "default_config_text" in text and '! -e "$CONFIG"' in text  # never overwrites a config
