"""Record the golden streams: python tests/golden/record.py [NAME ...]
Or, keeping the stored streams, only what today's code shows of them:
python tests/golden/record.py --expected [NAME ...]

Each fight of FIGHTS is played through the reducer and written as it would be
stored: `NAME.stream`, one event a line (base64 of the msgpack the Redis stream
holds), and `NAME.expected.json`, what each viewer was shown: per event, the log
lines that viewer read and a sha256 of the view; at the end, the whole view.
tests/test_golden.py folds every stream with today's code and compares. Record
again only for a change that is meant to change what a fight showed, and name
each difference in the commit.
"""

import base64
import hashlib
import json
import pathlib
import sys
import tomllib

import msgspec

from fray_table.rules.commands import AddCombatant
from fray_table.rules.events import decode_event, encode_event
from fray_table.rules.reducer import apply
from fray_table.rules.scenario import play
from fray_table.rules.view import Viewer, log_for, view

HERE = pathlib.Path(__file__).resolve().parent
SCENARIOS = HERE.parent.parent / "docs" / "scenarios"


def scenario(name: str, more: list[dict] = ()) -> dict:
    data = tomllib.loads((SCENARIOS / f"{name}.toml").read_text())
    data["commands"] = [*data.get("commands", []), *more]
    return data


# Every scenario file, and each profile's with an undo of an earlier event
# (alone, then with rewind) and play going on after it.
UNDOS = [{"type": "undo", "seq": 12}, {"type": "advance"}, {"type": "undo", "seq": 9, "rewind": True}]
FIGHTS = {path.stem: (lambda stem=path.stem: scenario(stem)) for path in sorted(SCENARIOS.glob("*.toml"))} | {
    f"{stem}-undo": (lambda stem=stem: scenario(stem, UNDOS)) for stem in ("holmes-showcase", "challenges", "thac0-sheet", "ll-house")
}


def viewers(events) -> dict[str, Viewer]:
    """The GM, a spectator, and a player holding every combatant of each side (as
    each joined: the ids the reducer gave them)."""
    sides: dict[str, list[str]] = {}
    state = None
    for event in events:
        state = apply(state, event)
        if isinstance(event.command, AddCombatant) and state.recent and state.recent[-1].actor:
            sides.setdefault(event.command.combatant.side, []).append(state.recent[-1].actor)
    return {"gm": Viewer("gm"), "spectator": Viewer("spectator")} | {f"side:{side}": Viewer("player", tuple(ids)) for side, ids in sides.items()}


def shown(stream: list[bytes]) -> dict:
    """What each viewer was shown as the stream folds: the expected file's contents."""
    events = [decode_event(p) for p in stream]
    who = viewers(events)
    out = {name: {"log": [], "views": []} for name in who}
    state = None
    for event in events:
        state = apply(state, event)
        for name, viewer in who.items():
            lines = [e.text for e in log_for(state.recent, state, viewer)]
            out[name]["log"].append(lines)
            out[name]["views"].append(hashlib.sha256(msgspec.json.encode(view(state, viewer))).hexdigest()[:16])
    for name, viewer in who.items():
        out[name]["final"] = msgspec.to_builtins(view(state, viewer))
    return out


def record(name: str) -> None:
    played = play(FIGHTS[name]())
    stream = [encode_event(e) for e in played.events]
    (HERE / f"{name}.stream").write_text("".join(base64.b64encode(p).decode() + "\n" for p in stream))
    (HERE / f"{name}.expected.json").write_text(json.dumps(shown(stream), indent=1, ensure_ascii=False) + "\n")


def load(name: str) -> list[bytes]:
    return [base64.b64decode(line) for line in (HERE / f"{name}.stream").read_text().split()]


def reshown(name: str) -> None:
    """The expected file anew from the stored stream (a change meant to change what it showed)."""
    (HERE / f"{name}.expected.json").write_text(json.dumps(shown(load(name)), indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    expected_only = args[:1] == ["--expected"]
    for name in args[expected_only:] or FIGHTS:
        (reshown if expected_only else record)(name)
        print(name)
