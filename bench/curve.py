"""Latency against load: the raw pipeline and Fray, paced at fractions of each
one's peak, command -> last of 8 clients, p50 and p99. Writes a PNG.

    .venv/bin/pip install -e '.[bench]' && .venv/bin/python bench/curve.py docs/latency.png
"""

import json
import pathlib
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import harness as bench  # noqa: E402

from fray_table.server.embedded import EmbeddedRedis  # noqa: E402

FRACTIONS = (0.1, 0.25, 0.5, 0.75, 0.9)


def curve(proc, urls, commands) -> dict:
    bench.load("latency", urls, commands, count=50)
    peak = bench.load("throughput", urls, commands, count=2000, window=32, seconds=30)["per_s"]
    points = []
    for fraction in FRACTIONS:
        rate = peak * fraction
        out = bench.load("paced", urls, commands, count=int(min(1500, rate * 3)), rate=rate, seconds=30)
        lat = out["latencies_ms"]
        points.append({"rate": rate, "p50": bench.percentile(lat, 50), "p99": bench.percentile(lat, 99)})
    return {"peak": peak, "points": points}


def main(out: pathlib.Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = {}
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(pathlib.Path(tmp)) as redis:
        port = bench.free_port()
        raw = bench.subprocess.Popen([bench.PYTHON, str(bench.ROOT / "bench" / "raw_server.py"), "--port", str(port), "--redis-url", redis.url])
        try:
            bench.wait_port(port, raw)
            results["raw pipeline"] = curve(raw, [f"ws://127.0.0.1:{port}/ws"] * 8, [{"type": "attack", "target": "gob1"}])
        finally:
            raw.terminate()
            raw.wait(10)
        fray, host = bench.start_fray(redis.url)
        try:
            _, urls = bench.demo_fight(host)
            results["Fray"] = curve(fray, urls, bench.FIGHT_COMMANDS)
        finally:
            fray.terminate()
            fray.wait(10)
    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for (name, data), colour in zip(results.items(), ("#888888", "#c0392b")):
        rates = [p["rate"] for p in data["points"]]
        ax.plot(rates, [p["p50"] for p in data["points"]], "o-", color=colour, label=f"{name} p50")
        ax.plot(rates, [p["p99"] for p in data["points"]], "s--", color=colour, label=f"{name} p99")
    ax.set_yscale("log")
    ax.set_xlabel("commands per second (paced, open loop)")
    ax.set_ylabel("command -> last of 8 clients (ms)")
    ax.set_title("Latency against load, one process, 8 clients, persistence on")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out)
    print(json.dumps(results))


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/latency.png"))
