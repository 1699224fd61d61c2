"""Every rejection code the rules can raise is listed in docs/protocol.md (its
"Rejection codes" table): a client may rely on a code, so none goes unlisted."""

import ast
import re

from support import ROOT

CODE = re.compile(r"^[a-z0-9_-]+/[a-z0-9-]+$")


def raised() -> tuple[set[str], set[str]]:
    """(every code written out in rules/, the suffixes of codes made as f'{prefix}/suffix')."""
    codes, suffixes = set(), set()
    for path in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                codes.add(node.value)
            elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Rejected" and isinstance(node.args[0], ast.JoinedStr):
                tail = node.args[0].values[-1]
                assert isinstance(tail, ast.Constant) and tail.value.startswith("/"), ast.unparse(node.args[0])
                suffixes.add(tail.value)
    return codes, suffixes


def test_every_rejection_code_is_listed_in_the_protocol():
    listed = set(re.findall(r"`([a-z0-9_-]+/[a-z0-9-]+)`", (ROOT / "docs" / "protocol.md").read_text()))
    codes, suffixes = raised()
    assert len(codes) > 100
    assert sorted(codes - listed) == []
    assert sorted(s for s in suffixes if not any(c.endswith(s) for c in listed)) == []
