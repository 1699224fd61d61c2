"""What a module of the package imports, by absolute name: its relative imports (issue 25:
`from ..model import Combatant` inside rules/ and server/) resolved against the package
its file is in, as Python resolves them. The purity checks read imports through this."""

import ast
import pathlib

from support import ROOT

PACKAGE = "fray_table"  # the import name of the folders rules/, server/, client_web/, client/


def package_of(path: pathlib.Path) -> list[str]:
    """The package a file of the tree belongs to, as parts: rules/holmes/oil.py -> fray_table.rules.holmes
    (a file outside the tree: the package itself)."""
    path = path.resolve()
    return [PACKAGE, *path.relative_to(ROOT).parts[:-1]] if path.is_relative_to(ROOT) else [PACKAGE]


def imported(path: pathlib.Path, package: list[str] | None = None) -> list[str]:
    """Every name the file imports, absolute: a module, and each name taken from one."""
    package = package_of(path) if package is None else package
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names += [module, *(f"{module}.{a.name}" for a in node.names)]
    return names


def absolute(path: pathlib.Path) -> list[str]:
    """The file's imports of the package written out by its own name (`from fray_table.rules...`)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == PACKAGE]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module and node.module.split(".")[0] == PACKAGE:
            found.append(node.module)
    return found
