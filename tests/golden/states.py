"""The state's bytes after every event of each golden stream, frozen beside it:
`NAME.states` holds one sha256 (of rules.reducer.canonical) a line, event by event.

    PYTHONPATH=tests python tests/golden/states.py NAME [NAME ...]

writes the file of a NEW golden stream only: an existing one is history, never
written again (docs/decisions.md, 'History never changes'). tests/server/test_history.py
folds every stream and compares, so any byte of a stored fight's state that a
change moves fails CI, as its views and log lines do (tests/rules/test_golden.py).
"""

import hashlib
import sys

from fray_table.rules.events import decode_event
from fray_table.rules.reducer import canonical, folding
from golden.record import HERE, load


def hashes(stream: list[bytes]) -> list[str]:
    """The sha256 of the state's canonical bytes after each event of `stream`."""
    return [hashlib.sha256(canonical(state)).hexdigest() for state in folding(decode_event(p) for p in stream)]


def frozen(name: str) -> list[str]:
    return (HERE / f"{name}.states").read_text().split()


def record(name: str) -> None:
    path = HERE / f"{name}.states"
    if path.exists():
        raise SystemExit(f"{path.name} exists: a recorded fight's states are never written again")
    path.write_text("".join(h + "\n" for h in hashes(load(name))))


if __name__ == "__main__":
    for name in sys.argv[1:]:
        record(name)
        print(name)
