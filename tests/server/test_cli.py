"""The `fray` command line: run, schema (serve is exercised by the end-to-end tests)."""

import json
import subprocess
import sys

import pytest
from support import ROOT

from fray_table.rules.ruleset import installed

SCENARIO = ROOT / "docs" / "scenarios" / "first-blood.toml"


def fray(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fray_table.server.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_run_prints_the_log_with_forced_rolls():
    out = fray("run", str(SCENARIO))
    assert out.returncode == 0, out.stderr
    # 003: d20 15 + combat bonus 1 + descending AC 6 (ascending 13) = 22 >= 19.
    assert "Alda attacks Goblin 1: d20 15 + 1 combat bonus + AC 6 = 22 ≥ 19: hit." in out.stdout
    assert "Goblin 1 takes 4 damage (1d6), 0 HP left." in out.stdout
    assert "(d20=15*)" in out.stdout  # forced rolls are marked


def test_run_json_gives_state_and_log():
    out = fray("run", "--json", str(SCENARIO))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["state"]["round"] == 2
    goblin = next(c for c in data["state"]["combatants"] if c["id"] == "gob1")
    assert goblin["hp"] == 0 and goblin["down"] is True
    assert data["log"][-1]["text"] == "Round 2: declarations are open."


def test_run_names_a_bad_scenario(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"commands": [{"type": "fireball"}]}))
    out = fray("run", str(bad))
    assert out.returncode == 2
    assert "command 1 (fireball)" in out.stderr
    missing = fray("run", str(tmp_path / "nope.toml"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_run_names_a_refused_creation_in_one_line(tmp_path):
    # An unknown profile or a bad option value is refused at creation: one line naming it, exit 2, no traceback.
    cases = {
        "profile.json": ({"profile": "nope"}, "fray run: {path}: scenario: unknown profile 'nope'; installed: " + ", ".join(sorted(installed())) + "\n"),
        "option.json": ({"options": {"parry_counter": "never"}}, "fray run: {path}: scenario: option 'parry_counter' must be one of ['ask', 'auto']\n"),
    }
    for name, (data, message) in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(data))
        out = fray("run", str(path))
        assert (out.returncode, out.stdout, out.stderr) == (2, "", message.format(path=path))


def test_schema_is_json_schema_of_both_directions():
    out = fray("schema")
    assert out.returncode == 0
    schema = json.loads(out.stdout)
    assert set(schema["properties"]) == {"client", "server"}
    for name in ("CommandMessage", "Welcome", "Update", "Ack", "Error", "Declare", "View"):
        assert name in schema["$defs"]


@pytest.mark.parametrize("stop", ["sigterm", "ctrl-c"])
def test_serve_stops_its_embedded_redis_when_stopped(tmp_path, stop):
    """uvicorn re-raises SIGTERM after its graceful shutdown, so the embedded
    Redis must be stopped by the app's own shutdown, not after uvicorn returns.
    A Ctrl-C reaches the terminal's whole process group, Redis included: Redis
    waits for Fray's shutdown to stop it, so nothing loses Redis on the way down."""
    import os
    import signal
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (tmp_path / "serve.log").open("w")
    serve = subprocess.Popen(
        [sys.executable, "-m", "fray_table.server.cli", "serve", "--port", str(port), "--data", str(tmp_path / "data"), "--no-demo"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "REDIS_URL": ""},
        start_new_session=True,
    )  # a group of its own, as in a terminal
    try:
        pidfile = tmp_path / "data" / "redis.pid"
        deadline = time.monotonic() + 20
        while not ((tmp_path / "serve.log").read_text().count("serving on") and pidfile.exists()) and time.monotonic() < deadline:
            time.sleep(0.1)
        redis_pid = int(pidfile.read_text())
        os.kill(redis_pid, 0)  # running
        if stop == "sigterm":
            serve.send_signal(signal.SIGTERM)
        else:
            os.killpg(serve.pid, signal.SIGINT)
        serve.wait(20)
        for _ in range(100):
            try:
                os.kill(redis_pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
        else:
            os.kill(redis_pid, signal.SIGKILL)
            raise AssertionError("the embedded Redis outlived `fray serve`")
        assert "lost Redis" not in (tmp_path / "serve.log").read_text()
        assert "Redis is now ready to exit" in (tmp_path / "data" / "redis.log").read_text()
    finally:
        if serve.poll() is None:
            serve.kill()
        log.close()
