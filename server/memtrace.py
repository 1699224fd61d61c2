"""Where a server's memory goes, for bench/memory.py: with FRAY_TRACEMALLOC=<file> set,
`fray serve` traces allocations (tracemalloc, one frame each) and, on SIGUSR1, writes
the largest live ones by line and by file to <file>. Off unless that is set: tracing
costs memory and time.
"""

import logging
import os
import pathlib
import signal
import tracemalloc

log = logging.getLogger("fray.memtrace")
TOP = int(os.environ.get("FRAY_TRACEMALLOC_TOP", "60"))


def install() -> None:
    target = os.environ.get("FRAY_TRACEMALLOC")
    if not target:
        return
    tracemalloc.start(1)
    signal.signal(signal.SIGUSR1, lambda *_: dump(pathlib.Path(target)))
    log.warning("tracing allocations (FRAY_TRACEMALLOC): SIGUSR1 writes the largest to %s", target)


def dump(target: pathlib.Path) -> None:
    snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
    lines = [f"traced: {sum(s.size for s in snapshot.statistics('filename')) / 1e6:.1f} MB"]
    for kind in ("filename", "lineno"):
        lines.append(f"\n# by {kind}: KB, blocks")
        for stat in snapshot.statistics(kind)[:TOP]:
            frame = stat.traceback[0]
            where = frame.filename if kind == "filename" else f"{frame.filename}:{frame.lineno}"
            lines.append(f"{stat.size / 1024:10.0f} {stat.count:8d}  {where}")
    partial = target.with_suffix(".partial")
    partial.write_text("\n".join(lines) + "\n")
    partial.replace(target)  # whole, for a reader waiting on it
