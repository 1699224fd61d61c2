"""A real local Redis Cluster for the tests: three masters from Debian's
redis-server on loopback ports, in a temporary folder, no persistence; and
the moves of a slot from one master to another, step by step."""

import os
import pathlib
import shutil
import socket
import subprocess
import time

import redis
from support import stop_process

from fray_table.server.store import events_key

MASTERS = 3


def free_cluster_port() -> int:
    """A port that is free, and its cluster bus port (port + 10000) too (bounded)."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port
    raise RuntimeError("no free port pair for a cluster node in 100 tries")


def binaries() -> tuple[str, str] | None:
    server, cli = shutil.which("redis-server", path="/usr/bin:/usr/local/bin:" + os.environ.get("PATH", "")), shutil.which("redis-cli")
    if server is None or cli is None:
        return None
    out = subprocess.run([server, "--version"], capture_output=True, text=True, timeout=10).stdout
    major = int(out.split("v=")[1].split(".")[0]) if "v=" in out else 0
    return (server, cli) if major >= 7 else None


class LocalCluster:
    def __init__(self, folder: pathlib.Path) -> None:
        found = binaries()
        if found is None:
            raise RuntimeError("a local Redis Cluster needs redis-server 7 and redis-cli on PATH")
        self.server, self.cli = found
        self.folder = folder
        self.ports = [free_cluster_port() for _ in range(MASTERS)]
        self.procs: list[subprocess.Popen] = []
        for port in self.ports:
            node = folder / str(port)
            node.mkdir()
            log = (node / "redis.log").open("ab")
            self.procs.append(
                subprocess.Popen(
                    [
                        self.server,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        str(node / "nodes.conf"),
                        "--dir",
                        str(node),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--cluster-node-timeout",
                        "5000",
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
            log.close()
        try:
            for port in self.ports:
                self._wait(lambda port=port: self.client(port).ping(), f"node {port} did not answer")
            subprocess.run(
                [self.cli, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports), "--cluster-yes"], check=True, capture_output=True, timeout=60
            )
            self._wait(self._ready, "the cluster did not reach state ok")
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def client(self, port: int) -> redis.Redis:
        return redis.Redis("127.0.0.1", port, socket_timeout=5)

    def _ready(self) -> bool:
        for port in self.ports:
            info = self.client(port).cluster("info")
            if info.get("cluster_state") != "ok" or int(info.get("cluster_slots_assigned", 0)) != 16384:
                return False
        return len({str(self.client(p).cluster("slots")) for p in self.ports}) == 1  # every node agrees

    def _wait(self, check, message: str, limit: float = 30) -> None:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                if check():
                    return
            except redis.RedisError:
                pass
            time.sleep(0.1)
        raise RuntimeError(message)

    def node_ids(self) -> dict[int, str]:
        return {port: self.client(port).execute_command("CLUSTER", "MYID").decode() for port in self.ports}

    def owner(self, slot: int) -> int:
        """The port of the master that serves the slot."""
        for start, end, master, *_ in self.client(self.ports[0]).execute_command("CLUSTER", "SLOTS"):
            if start <= slot <= end:
                return int(master[1])
        raise AssertionError(f"slot {slot} is not served")

    def slot_of(self, encounter: str) -> int:
        return self.client(self.ports[0]).cluster("keyslot", events_key(encounter))

    # --- moving a slot: the steps of `redis-cli --cluster reshard`, one at a time --

    def begin_move(self, slot: int, target: int) -> int:
        source = self.owner(slot)
        ids = self.node_ids()
        self.client(target).execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[source])
        self.client(source).execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[target])
        return source

    def move_keys(self, slot: int, source: int, target: int) -> int:
        moved = 0
        for _ in range(1000):
            keys = self.client(source).execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100)
            if not keys:
                return moved
            self.client(source).execute_command("MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys)
            moved += len(keys)
        raise AssertionError("slot never emptied")

    def end_move(self, slot: int, target: int) -> None:
        target_id = self.node_ids()[target]
        for port in [target, *(p for p in self.ports if p != target)]:  # the target first, as redis-cli does
            self.client(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
        self._wait(lambda: all(self.owner_seen_by(p, slot) == target for p in self.ports), "the move did not settle")

    def owner_seen_by(self, port: int, slot: int) -> int:
        for start, end, master, *_ in self.client(port).execute_command("CLUSTER", "SLOTS"):
            if start <= slot <= end:
                return int(master[1])
        return 0

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()  # all at once, then wait for each
        for proc in self.procs:
            stop_process(proc)
