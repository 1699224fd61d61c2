"""`fray replay FIGHT.jsonl`: an exported fight (`fray export`, the archive's files) folded
with no server, under its own rules version, and shown as one viewer saw it: each log
line, the final view and the state's hash (the live server's `/digest` gives the same).
A refusal (not a fight, rules this Fray does not know) is one line and exit code 2."""

import hashlib
import pathlib
import sys

import msgspec

from ..rules.reducer import canonical
from ..rules.ruleset import kept
from ..rules.view import Viewer, view
from .archive import ArchiveError, parse, pre_release
from .fight_data import read_lines
from .replay import ReplayError, fold_events


def viewer_of(text: str) -> Viewer:
    """'gm', 'spectator' or 'player:ID[,ID...]'; ValueError naming what is wrong."""
    role, _, ids = text.partition(":")
    if role in ("gm", "spectator") and not ids:
        return Viewer(role)
    if role == "player" and ids and all(ids.split(",")):
        return Viewer("player", tuple(ids.split(",")))
    raise ValueError(f"--as {text!r}: say gm, spectator or player:ID (player:ID,ID for several combatants)")


def run(args) -> int:
    path: pathlib.Path = args.file
    try:
        viewer = viewer_of(args.as_)
        fight = parse(read_lines(path), str(path))
        folded = fold_events(fight.events, viewer, args.at)
    except (ArchiveError, ValueError) as e:
        print(f"fray replay: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(f"fray replay: {path}: {e.message}", file=sys.stderr)
        return 2
    version = fight.state.rules_version
    if (warning := pre_release(fight.events[0].command.rules_version)) is not None:  # type: ignore[union-attr]  # parse checked it is the create
        print(f"fray replay: warning: {warning} (docs/decisions.md)", file=sys.stderr)
    digest = hashlib.sha256(canonical(folded.state)).hexdigest()
    shown = view(folded.state, folded.viewer, actions={})
    if args.json:
        out = {"encounter": fight.header.encounter, "rules_version": kept(version), "seq": folded.seq, "sha256": digest}
        out |= {"viewer": folded.viewer, "log": folded.log, "view": shown}
        sys.stdout.write(msgspec.json.encode(out).decode() + "\n")
        return 0
    for entry in folded.log:
        print(f"[{entry.seq:>4}] {entry.text}")
    print(f"-- {fight.header.encounter}, rules version {kept(version)}, after event #{folded.seq}, as {args.as_}: {shown.status}, round {shown.round}")
    for c in shown.combatants:
        print(f"   {c.name} ({c.side}): {c.condition}" + (f", {c.hp}/{c.hp_max} HP" if c.hp is not None else ""))
    print(f"-- state sha256 {digest}")
    return 0
