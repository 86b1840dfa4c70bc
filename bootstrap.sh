#!/bin/sh
# Sets up nardref in ./.venv on Debian, Raspberry Pi OS or any machine with Python 3.11+.
#   ./bootstrap.sh        the program (on a Pi, add the [pi] extra: ./bootstrap.sh pi)
#   ./bootstrap.sh dev    the program and everything the tests need
set -eu
cd "$(dirname "$0")"
extra="${1:-}"

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null 2>&1; then sudo "$@"; else return 1; fi
}

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "bootstrap: nardref needs Python 3.11 or newer as '$python' (set PYTHON=... to choose another)" >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    if ! "$python" -m venv .venv 2>/dev/null; then
        echo "bootstrap: Python's venv module is missing; installing python3-venv" >&2
        as_root apt-get install -y python3-venv >/dev/null || {
            echo "bootstrap: run 'sudo apt-get install python3-venv' and try again" >&2
            exit 2
        }
        rm -rf .venv
        "$python" -m venv .venv
    fi
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
case "$extra" in
    "") .venv/bin/python -m pip install --quiet -e . ;;
    dev) .venv/bin/python -m pip install --quiet -e '.[dev]'
         # GNU Backgammon checks that exported match files import; its tests skip without it.
         if ! command -v gnubg >/dev/null 2>&1; then
             { as_root apt-get install -y -qq gnubg >/dev/null 2>&1 \
               || { as_root apt-get update -qq >/dev/null 2>&1 && as_root apt-get install -y -qq gnubg >/dev/null 2>&1; }; } \
                 || echo "bootstrap: gnubg not installed (optional): the gnubg import test will skip" >&2
         fi ;;
    pi) .venv/bin/python -m pip install --quiet -e '.[pi]' ;;
    *) echo "bootstrap: unknown extra '$extra': expected nothing, 'dev' or 'pi'" >&2; exit 2 ;;
esac
