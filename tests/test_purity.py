"""rules/ is pure: no I/O, no asyncio, no clock, no random, nothing from server/."""

import ast
import pathlib

RULES = pathlib.Path(__file__).resolve().parent.parent / "rules"
FORBIDDEN = {"server", "asyncio", "random", "time", "datetime", "socket", "os", "subprocess", "redis", "starlette", "websockets", "uvicorn", "io", "pathlib"}


def top(module: str) -> str:
    """The package a module belongs to: fray_table.server.store -> 'server', redis.asyncio -> 'redis'."""
    return module.removeprefix("fray_table.").split(".")[0]


def imported_modules(path: pathlib.Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {top(a.name) for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(top(node.module))
    return names


def test_rules_import_nothing_impure():
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 10
    offenders = {str(f.relative_to(RULES)): sorted(imported_modules(f) & FORBIDDEN) for f in files}
    assert {f: bad for f, bad in offenders.items() if bad} == {}


def test_purity_check_catches_a_server_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from fray_table.server.store import RedisStore\nimport random\n")
    assert imported_modules(bad) & FORBIDDEN == {"server", "random"}
