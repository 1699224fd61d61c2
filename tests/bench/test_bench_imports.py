"""Issue 25: the benchmarks import no circle. What they share is bench/harness.py, which
imports no benchmark; a script may import another script only where that one imports
nothing of bench/ but the harness (run.py calls many.py, curve.py and slow.py)."""

import ast
import pathlib

from support import ROOT

BENCH = ROOT / "bench"


def bench_imports(path: pathlib.Path) -> set[str]:
    scripts = {p.stem for p in BENCH.glob("*.py")}
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in scripts}
        elif isinstance(node, ast.ImportFrom) and node.module in scripts:
            found.add(node.module)
    return found


def test_the_benchmarks_import_no_circle():
    graph = {p.stem: bench_imports(p) for p in BENCH.glob("*.py")}
    assert graph["harness"] == set()
    assert {"harness", "many", "curve", "slow"} <= graph["run"] | {"harness"}

    def reaches(start: str, seen: tuple[str, ...] = ()) -> None:
        for nxt in graph[start]:
            assert nxt not in (*seen, start), f"an import circle: {' -> '.join((*seen, start, nxt))}"
            reaches(nxt, (*seen, start))

    for name in graph:
        reaches(name)
