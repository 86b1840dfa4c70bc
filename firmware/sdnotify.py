"""Tell systemd how the service is doing: ``sd_notify`` in pure standard library.

The unit runs ``Type=notify`` with ``WatchdogSec=``: the referee sends
``READY=1`` once its loop runs and ``WATCHDOG=1`` from the loop at least every
:meth:`Notifier.watchdog_interval_s` (half of ``WatchdogSec``), so a hung loop
gets restarted. Messages are datagrams to the unix socket named by
``$NOTIFY_SOCKET`` (a leading ``@`` means the abstract namespace). Outside
systemd there is no such variable and every call is a cheap no-op.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

__all__ = ["Notifier"]

log = logging.getLogger(__name__)


class Notifier:
    """A connection to systemd's notify socket (or nothing, outside systemd).

    ``environ`` defaults to :data:`os.environ`; ``pid`` to this process's.
    """

    def __init__(self, environ: Mapping[str, str] | None = None, *, pid: int | None = None) -> None:
        env = os.environ if environ is None else environ
        self._pid = os.getpid() if pid is None else pid
        path = env.get("NOTIFY_SOCKET", "")
        self._address: str | None = None
        if path.startswith("@"):
            self._address = "\0" + path[1:]
        elif path.startswith("/"):
            self._address = path
        self._socket: socket.socket | None = None
        self._watchdog_usec = self._watchdog_from(env)

    def _watchdog_from(self, env: Mapping[str, str]) -> int | None:
        usec = env.get("WATCHDOG_USEC", "")
        watchdog_pid = env.get("WATCHDOG_PID", "")
        if not usec.isdigit() or int(usec) == 0:
            return None
        if watchdog_pid and (not watchdog_pid.isdigit() or int(watchdog_pid) != self._pid):
            return None
        return int(usec)

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._address is not None

    def watchdog_interval_s(self) -> float | None:
        """How often to send :meth:`watchdog` (half the watchdog timeout), or None."""
        return None if self._watchdog_usec is None else self._watchdog_usec / 2e6

    def notify(self, message: str) -> bool:
        """Send one message such as ``"READY=1"``; False when not under systemd or on error."""
        if self._address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._socket.sendto(message.encode("utf-8"), self._address)
        except OSError as exc:
            log.warning("sd_notify %r to %r failed: %s", message, self._address, exc)
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """``READY=1`` (and a status line): start-up is done."""
        return self.notify("READY=1" if status is None else f"READY=1\nSTATUS={status}")

    def watchdog(self) -> bool:
        """``WATCHDOG=1``: the loop is alive."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """``STATUS=...``: one line for ``systemctl status``."""
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        """``STOPPING=1``: a clean shutdown began (after SIGTERM)."""
        return self.notify("STOPPING=1")

    def close(self) -> None:
        """Close the socket; safe to call twice."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None
