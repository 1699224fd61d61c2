"""What an operator sees and sets: probes, metrics, logs, settings, start and
shutdown, each against a real `fray serve` (docs/operations.md)."""

import json
import logging
import os
import signal
import subprocess
import sys
import time

import httpx
import pytest
import websockets
from support import FAST, ROOT, TIMEOUT, FrayServer, Table, free_port

from fray_table.server import logs
from fray_table.server.embedded import redis_server_binary
from fray_table.server.settings import SERVE

pytestmark = pytest.mark.redis


def fray(*args: str, env: dict | None = None, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fray_table.server.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}
    )


def test_livez_and_readyz_answer_ok(fray_server):
    for path in ("/livez", "/readyz", "/healthz"):
        r = httpx.get(fray_server.url + path, timeout=TIMEOUT)
        assert (r.status_code, r.json()) == (200, {"ok": True}), path


def test_readyz_fails_when_redis_is_gone_and_livez_does_not(tmp_path):
    """A Redis of its own, stopped under a running server: not ready, still live."""
    port = free_port()
    redis = subprocess.Popen(
        [str(redis_server_binary()), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        server = FrayServer(f"redis://127.0.0.1:{port}/0", tmp_path)
        try:
            redis.terminate()
            redis.wait(10)
            r = httpx.get(server.url + "/readyz", timeout=TIMEOUT)
            assert r.status_code == 503 and r.json()["code"] == "store/unavailable", r.text
            assert httpx.get(server.url + "/livez", timeout=TIMEOUT).status_code == 200
        finally:
            server.stop()
    finally:
        if redis.poll() is None:
            redis.kill()
            redis.wait(5)


def metric(text: str, name: str) -> float:
    """The value of one sample line `name value` (name with its labels)."""
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"no {name} in the metrics")


async def test_metrics_count_commands_clients_and_latency(fast_server, join):
    made = fast_server.create()
    before = httpx.get(fast_server.url + "/metrics", timeout=TIMEOUT).text
    gm = await join(fast_server, made["links"]["gm"])
    started = await gm.send({"type": "start"})
    assert started["type"] == "ack"
    await gm.until(started["position"])  # folded: the server's own check now refuses a second start before storing it
    rejected = await gm.send({"type": "start"})  # already running: the reducer refuses it
    assert rejected["type"] == "error"
    await gm.send({"type": "advance"})
    text = httpx.get(fast_server.url + "/metrics", timeout=TIMEOUT).text
    assert metric(text, "fray_commands_accepted_total") >= metric(before, "fray_commands_accepted_total") + 2
    code = rejected["code"]
    assert metric(text, f'fray_commands_rejected_total{{code="{code}"}}') >= 1
    assert metric(text, "fray_append_seconds_count") >= 2
    assert metric(text, "fray_fold_fanout_seconds_count") >= 2
    assert metric(text, "fray_tail_lag_seconds_count") >= 2
    assert metric(text, "fray_clients_connected") >= 1
    assert metric(text, "fray_encounters_live") >= 1
    for name in ("fray_outbox_drops_total", "fray_redis_errors_total", "process_resident_memory_bytes"):
        metric(text, name)


def test_bad_setting_is_one_line_and_exit_2():
    for args, env, words in [
        (("serve", "--port", "70000"), {}, "--port"),
        (("serve",), {"FRAY_RATE": "fast"}, "FRAY_RATE 'fast': not a number"),
        (("serve",), {"FRAY_LOG_LEVEL": "loud"}, "FRAY_LOG_LEVEL 'loud': one of debug"),
        (("serve",), {"FRAY_SECRET": "short"}, "FRAY_SECRET (hidden)"),
        (("serve", "--forwarded-allow-ips", "10.0.0.0/8,nope"), {}, "'nope' is not an IP address"),
        (("serve", "--redis-url", "http://x"), {}, "redis://"),
    ]:
        out = fray(*args, env=env)
        assert out.returncode == 2, (args, env, out.stderr)
        assert out.stderr.count("\n") == 1 and words in out.stderr, out.stderr
        assert "Traceback" not in out.stderr and "short" not in out.stderr


def test_unreachable_redis_at_start_is_retried_then_one_line_exit_2():
    port = free_port()
    out = fray("serve", "--redis-url", f"redis://127.0.0.1:{port}/0", "--redis-wait", "1.5", "--log-format", "json")
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert lines[-1] == f"fray serve: no Redis answers at redis://127.0.0.1:{port}/0 after 1.5 s: " + lines[-1].split(" s: ", 1)[1]
    retries = [json.loads(line) for line in lines[:-1]]
    assert len(retries) >= 2 and all(r["level"] == "warning" and "does not answer yet" in r["message"] for r in retries)


def test_redis_that_comes_up_later_is_waited_for(tmp_path):
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    serve = subprocess.Popen(
        [sys.executable, "-m", "fray_table.server.cli", "serve", "--port", str(free_port()), "--no-demo", "--redis-url", f"redis://127.0.0.1:{port}/0"],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "FRAY_SECRET": "test-secret-0123456789abcdef"},
    )
    redis = None
    try:
        time.sleep(2.5)
        assert serve.poll() is None
        redis = subprocess.Popen(
            [str(redis_server_binary()), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while "serving on" not in (tmp_path / "serve.log").read_text() and time.monotonic() < deadline and serve.poll() is None:
            time.sleep(0.1)
        text = (tmp_path / "serve.log").read_text()
        assert "serving on" in text, text
        assert "does not answer yet" in text and "retrying in" in text
    finally:
        serve.terminate()
        serve.wait(10)
        log.close()
        if redis is not None:
            redis.terminate()
            redis.wait(10)


def test_json_log_lines_parse_and_access_log_hides_tokens(redis_url, tmp_path):
    server = FrayServer(redis_url, tmp_path, env={"FRAY_LOG_FORMAT": "json", "FRAY_ACCESS_LOG": "1"})
    try:
        made = server.create()
        httpx.get(made["links"]["gm"], timeout=TIMEOUT)
    finally:
        server.stop()
    lines = [line for line in server.log_path.read_text().splitlines() if line.startswith("{")]
    records = [json.loads(line) for line in lines]
    assert records and all({"time", "level", "logger", "message"} <= set(r) for r in records)
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    page = next(r for r in access if f"/e/{made['id']}" in r["message"])
    assert "token=***" in page["message"] and "eyJ" not in page["message"]


def test_log_lines_name_the_encounter_and_command(capsys):
    logs.configure("info", "json")
    try:
        logs.encounter_id.set("enc1")
        logs.command_id.set("cmd7")
        logging.getLogger("fray.test").warning("checking %s failed", "x")
        logs.configure("info", "text")
        logging.getLogger("fray.test").warning("again")
    finally:
        logs.encounter_id.set("")
        logs.command_id.set("")
        logging.getLogger().handlers[:] = []
    first, second = capsys.readouterr().err.strip().splitlines()
    record = json.loads(first)
    assert (record["level"], record["message"], record["encounter"], record["command"]) == ("warning", "checking x failed", "enc1", "cmd7")
    assert second.endswith("WARNING fray.test: again [encounter=enc1 command=cmd7]")


def test_every_setting_is_in_the_docs_table_and_the_help():
    table = (ROOT / "docs" / "operations.md").read_text()
    helped = fray("serve", "--help").stdout
    for s in SERVE:
        assert f"`{s.env}`" in table, s.env
        if s.flag:
            assert f"`{s.flag}`" in table and s.flag in helped, s.flag
        assert s.env in helped, s.env


async def test_shutdown_drains_and_closes_with_1012(redis_url, tmp_path):
    server = FrayServer(redis_url, tmp_path, env=FAST)
    try:
        made = server.create()
        table = await Table.join(server, made["links"]["gm"])
        ack = await table.send({"type": "start"})
        assert ack["type"] == "ack"
        server.proc.send_signal(signal.SIGTERM)
        with pytest.raises(websockets.ConnectionClosed):
            for _ in range(100):
                await table.next()
        assert table.ws.close_code == 1012, table.ws.close_code
        assert "restarting" in table.ws.close_reason
        assert server.proc.wait(TIMEOUT) in (0, -signal.SIGTERM)
    finally:
        server.stop()
