"""rules/ is pure: no I/O, no asyncio, no clock, no random, nothing from server/."""

import pathlib

from imports import absolute, imported
from support import ROOT

RULES = ROOT / "rules"
FORBIDDEN = {"server", "asyncio", "random", "time", "datetime", "socket", "os", "subprocess", "redis", "starlette", "websockets", "uvicorn", "io", "pathlib"}


def top(module: str) -> str:
    """The package a module belongs to: fray_table.server.store -> 'server', redis.asyncio -> 'redis'."""
    return module.removeprefix("fray_table.").split(".")[0]


def imported_modules(path: pathlib.Path, package: list[str] | None = None) -> set[str]:
    """The top-level packages a module imports, its relative imports resolved (rules/imports.py)."""
    return {top(name) for name in imported(path, package)}


def test_rules_import_nothing_impure():
    files = sorted(RULES.rglob("*.py"))
    assert len(files) >= 10
    offenders = {str(f.relative_to(RULES)): sorted(imported_modules(f) & FORBIDDEN) for f in files}
    assert {f: bad for f, bad in offenders.items() if bad} == {}


def test_purity_check_catches_a_server_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from fray_table.server.store import RedisStore\nimport random\n")
    assert imported_modules(bad) & FORBIDDEN == {"server", "random"}
    bad.write_text("from ..server.store import RedisStore\n")  # as rules/bad.py would write it
    assert imported_modules(bad, ["fray_table", "rules"]) & FORBIDDEN == {"server"}


# The engine (DESIGN, 'The rules core'): state, commands, events, dice, the reducer, the
# round's step queue, views, undo, the log; and the documents' charts, as data. Every other
# module of rules/ is a profile's, in its package.
ENGINE = {
    "__init__",
    "actions",  # the wire vocabulary of declarations: the stream's one decoder union
    "battlemap",  # the GM's background image under the grid (issue 13)
    "changes",  # what a fold changed: the views follow it (issue 24)
    "chat",  # table chat and GM whispers, lines of the log (issue 13)
    "commands",
    "conditions",
    "context",
    "declare",
    "dice",
    "errors",
    "events",
    "fork",  # a fight forked from another at an event
    "grid",  # the 5-ft board: distance
    "history",
    "model",
    "profiles",  # the options' and figures' machinery, the catalogue
    "ready",  # the GM console's and a new campaign's weapons and monsters (issue 22)
    "reducer",
    "resolve",
    "round",
    "ruleset",
    "scenario",
    "setup",
    "summary",  # the end of a fight in numbers, from a viewer's lines (issue 13)
    "undo",
    "upgrade",  # moving a fight on to newer rules, and the version an event needs (issue 21)
    "unseen",  # combatants in nobody's view but the GM's until revealed (issue 13)
    "view",
    "words",  # the game's words the pages read (morale results, the conditions a GM sets)
}
PROFILES = {"holmes", "llhouse", "challenges", "thac0sheet"}


def profile_imports(path: pathlib.Path, package: list[str] | None = None) -> list[str]:
    """The profile packages a module imports, in any form (from fray_table.rules import holmes,
    from ..holmes import combat, from . import holmes: rules/imports.py resolves them)."""
    return [n for n in imported(path, package) if n.startswith("fray_table.rules.") and n.removeprefix("fray_table.rules.").split(".")[0] in PROFILES]


def test_the_engine_modules_are_listed_and_import_no_profile():
    """Each module of rules/ is the engine's (ENGINE), a chart, or in a profile's package; no
    engine module or chart imports a profile package, holmes-phases' (003) included."""
    top_level = {p.stem for p in RULES.glob("*.py")}
    assert top_level == ENGINE, "a module of rules/ that is not listed as the engine's: put it in its profile's package or list it"
    packages = {p.name for p in RULES.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == PROFILES | {"charts", "campaign"}  # the campaign: the engine's sibling, reading the profiles' words (rules.campaign)
    engine = [RULES / f"{name}.py" for name in ENGINE] + sorted((RULES / "charts").glob("*.py"))
    assert {str(p.relative_to(RULES)): profile_imports(p) for p in engine} == {str(p.relative_to(RULES)): [] for p in engine}


def test_the_profile_check_catches_an_import_of_holmes(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from fray_table.rules import holmes\nfrom fray_table.rules.holmes.combat import attack\nimport fray_table.rules.llhouse\n")
    assert profile_imports(bad) == [
        "fray_table.rules.holmes",
        "fray_table.rules.holmes.combat",
        "fray_table.rules.holmes.combat.attack",
        "fray_table.rules.llhouse",
    ]


def test_the_profile_check_catches_a_relative_import_of_holmes(tmp_path):
    bad = tmp_path / "bad.py"  # as if it were rules/bad.py, then rules/charts/bad.py
    bad.write_text("from . import holmes\nfrom .holmes.combat import attack\nfrom .model import Combatant\n")
    assert profile_imports(bad, ["fray_table", "rules"]) == [
        "fray_table.rules.holmes",
        "fray_table.rules.holmes.combat",
        "fray_table.rules.holmes.combat.attack",
    ]
    bad.write_text("from ..llhouse import attack\nfrom ..grid import distance\n")
    assert profile_imports(bad, ["fray_table", "rules", "charts"]) == ["fray_table.rules.llhouse", "fray_table.rules.llhouse.attack"]


def test_the_package_imports_itself_by_relative_imports_only():
    """Issue 25: inside rules/, server/, client_web/ and client/ every import of the package is
    relative (`from ..rules.model import Combatant`), so the clone reads as the installed package."""
    files = [p for top in ("rules", "server", "client_web", "client") for p in (ROOT / top).rglob("*.py")]
    assert len(files) > 150
    assert {str(p.relative_to(ROOT)): absolute(p) for p in files if absolute(p)} == {}


def test_the_relative_import_check_catches_an_absolute_one(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom fray_table.rules.model import Combatant\nimport fray_table.server.hub\nfrom .model import Encounter\n")
    assert absolute(bad) == ["fray_table.rules.model", "fray_table.server.hub"]
