"""sd_notify over a real unix datagram socket."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware.sdnotify import Notifier


@pytest.fixture
def listener(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(5)
    yield sock, path
    sock.close()


def test_sdnotify_sends_ready_watchdog_status_stopping(listener: tuple[socket.socket, str]) -> None:
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.enabled
    assert notifier.ready()
    assert sock.recv(4096) == b"READY=1"
    assert notifier.watchdog()
    assert sock.recv(4096) == b"WATCHDOG=1"
    assert notifier.ready(status="waiting for the set-up")
    assert sock.recv(4096) == b"READY=1\nSTATUS=waiting for the set-up"
    assert notifier.status("camera lost")
    assert sock.recv(4096) == b"STATUS=camera lost"
    assert notifier.stopping()
    assert sock.recv(4096) == b"STOPPING=1"
    notifier.close()
    notifier.close()


def test_sdnotify_abstract_socket() -> None:
    name = f"nardref-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(5)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"
        notifier.close()
    finally:
        sock.close()


def test_sdnotify_outside_systemd_is_noop() -> None:
    notifier = Notifier({})
    assert not notifier.enabled
    assert notifier.ready() is False and notifier.watchdog() is False
    assert notifier.watchdog_interval_s() is None


def test_sdnotify_watchdog_interval_is_half_the_timeout() -> None:
    env = {"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "42"}
    assert Notifier(env, pid=42).watchdog_interval_s() == 5.0
    assert Notifier(env, pid=43).watchdog_interval_s() is None  # meant for another process
    assert Notifier({"WATCHDOG_USEC": "4000000"}, pid=1).watchdog_interval_s() == 2.0


def test_sdnotify_missing_socket_does_not_raise(tmp_path: Path) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.ready() is False
