"""Record the golden streams of rules version 8, once: python tests/golden/v8/record.py NAME ...

Each scenario file here (NAME.toml: its own fight, exercising what version 8 changed) is
played and stored beside it as tests/golden stores version 7's: NAME.stream,
NAME.expected.json (tests/golden/record.py's `shown`) and NAME.states (the state's bytes
after every event, tests/golden/states.py's `hashes`). tests/rules/test_golden_v8.py folds every stream and
compares. Never record one again: a fight of version 8 is history (DESIGN, 'Versions of the
rules'); a later version's fights get a directory of their own."""

import base64
import json
import pathlib
import sys
import tomllib

if __package__ in (None, ""):  # run as a script: golden.record is found from tests/
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from fray_table.rules.events import encode_event  # noqa: E402
from fray_table.rules.scenario import play  # noqa: E402
from golden.record import shown  # noqa: E402
from golden.states import hashes  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
VERSION = 8
FIGHTS = sorted(path.stem for path in HERE.glob("*.toml"))


def record(name: str) -> None:
    played = play({**tomllib.loads((HERE / f"{name}.toml").read_text()), "rules_version": VERSION})
    stream = [encode_event(e) for e in played.events]
    (HERE / f"{name}.stream").write_text("".join(base64.b64encode(p).decode() + "\n" for p in stream))
    (HERE / f"{name}.expected.json").write_text(json.dumps(shown(stream), indent=1, ensure_ascii=False) + "\n")
    (HERE / f"{name}.states").write_text("".join(h + "\n" for h in hashes(stream)))


def states(name: str) -> list[str]:
    return (HERE / f"{name}.states").read_text().split()


def load(name: str) -> list[bytes]:
    return [base64.b64decode(line) for line in (HERE / f"{name}.stream").read_text().split()]


if __name__ == "__main__":
    for name in sys.argv[1:]:
        if (HERE / f"{name}.stream").exists():
            raise SystemExit(f"{name} is recorded already: a golden stream is never recorded again")
        record(name)
        print(name)
