#!/usr/bin/env bash
# Install nardref as a service on Raspberry Pi OS (Bookworm or later).
#
#   sudo systemd/install.sh            # from a checkout of the repository
#
# Safe to run again (upgrades the venv, keeps an existing config).
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/nardref
VENV="$PREFIX/venv"
CONFIG=/etc/nardref/config.toml
UNIT=/etc/systemd/system/nardref.service

if [[ $EUID -ne 0 ]]; then
    echo "install.sh: run as root (sudo $0)" >&2
    exit 3
fi

step() { printf '\n==> %s\n' "$*"; }

step "system packages: Picamera2, lgpio, venv"
apt-get update
apt-get install -y python3-picamera2 python3-lgpio python3-venv

step "user nardref in groups gpio, spi, video"
if ! id nardref >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/nardref --no-create-home --shell /usr/sbin/nologin nardref
fi
for group in gpio spi video; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
usermod -a -G gpio,spi,video nardref

step "venv at $VENV (with system site packages for picamera2 and lgpio)"
mkdir -p "$PREFIX"
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/pip" install --upgrade pip
"$VENV/bin/pip" install --upgrade "$REPO[pi]"
ln -sfn "$VENV/bin/nardref" /usr/local/bin/nardref
rm -rf "$PREFIX/src" && mkdir -p "$PREFIX/src/hardware"
cp "$REPO/hardware/wiring.md" "$PREFIX/src/hardware/"

step "config $CONFIG"
mkdir -p "$(dirname "$CONFIG")"
if [[ ! -e "$CONFIG" ]]; then
    "$VENV/bin/python" -c 'from firmware.config import default_config_text; print(default_config_text())' >"$CONFIG"
    echo "wrote the defaults to $CONFIG: edit pins, LED layout and clock there"
else
    echo "keeping the existing $CONFIG"
fi
chmod 0644 "$CONFIG"

step "SPI for the LED strip"
if command -v raspi-config >/dev/null 2>&1; then
    raspi-config nonint do_spi 0
else
    echo "raspi-config not found: set dtparam=spi=on in /boot/firmware/config.txt and reboot" >&2
fi

step "service"
install -m 0644 "$REPO/systemd/nardref.service" "$UNIT"
systemd-analyze verify "$UNIT"
systemctl daemon-reload
systemctl enable --now nardref
systemctl --no-pager status nardref || true

cat <<'DONE'

Done. Next: print the markers (nardref markers); to calibrate on the starting
position, stop the service (it holds the camera) and run calibrate as the
service user so it can write /var/lib/nardref:
    sudo systemctl stop nardref
    rpicam-still -o /tmp/start.jpg
    sudo -u nardref nardref calibrate /tmp/start.jpg --out /var/lib/nardref/calibration.json
    sudo systemctl start nardref
Follow the logs with journalctl -u nardref -f. If /dev/spidev0.0 did not exist
before, reboot once for SPI.
DONE
