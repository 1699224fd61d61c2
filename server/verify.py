"""`fray verify FILE`: check that every random roll of a fight is the one its seed gives
(docs/dice.md).

FILE is either a fight's raw stream (`fray export`, or the GM's `format=jsonl`
export), which is folded again with the seed its create event holds, or a log as a
viewer saw it (the replay page's JSON export, `format=json`), whose first line
published the seed's hash and whose last revealed the seed. Either way each roll the
log shows is taken in order, event by event: a result the GM forced or one entered
from the table is reported as such, and every other must be the draw the seed gives
for its event and its place among that event's seeded draws.

The draw is written out again here from docs/dice.md, not imported from the rules,
so that the check does not trust the code it checks.

Exit codes: 0 every roll matches, 1 something does not (or the seed is not revealed),
2 the file is not a fight.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import re
import sys
from dataclasses import dataclass, field

import msgspec

from ..rules.model import Entry

SPAN = 1 << 64
PUBLISHED = re.compile(r"^Encounter created \(.*\); seed sha256 ([0-9a-f]{64})\.$")
FORKED = re.compile(r"^A fork of encounter (.+) after its event #\d+(?: \(.*\))?; a new seed, sha256 ([0-9a-f]{64})\.$")
REVEALED = re.compile(r"^The fight ends\. Seed revealed: ([0-9a-f]+) \(sha256 ([0-9a-f]{64})\)\.$")


def expected(seed: bytes, position: int, index: int, sides: int) -> int:
    """docs/dice.md, 'The draw': draw `index` of the event at `position`, a die of `sides`."""
    limit = SPAN - SPAN % sides
    attempt = 0
    while True:
        digest = hashlib.blake2b(f"{position}:{index}:{attempt}".encode("ascii"), key=seed, digest_size=8).digest()
        value = int.from_bytes(digest, "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


class NotAFight(Exception):
    """The file is neither a fight's raw stream nor a log export."""


@dataclass
class Seed:
    """The seed the fight's rolls come from from event `start` on: the create event's, then
    each fork's ('A fork of encounter ... a new seed, sha256 ...', rules/fork.py)."""

    start: int
    published: str | None  # its sha256 as the log published it
    seed: bytes | None = None  # None: not revealed by this file
    origin: str = ""  # for the seed of a fork's origin: that encounter's id


@dataclass
class Fight:
    """What is checked: the log's lines and the seeds they were rolled from."""

    source: str
    entries: list[Entry]
    seeds: list[Seed]
    events: int = 0  # raw stream only

    def seed_at(self, seq: int) -> Seed:
        return next(s for s in reversed(self.seeds) if s.start <= seq)


@dataclass
class Report:
    ok: bool = True
    random: int = 0
    forced: int = 0
    entered: int = 0
    unchecked: int = 0  # rolled under a fork's origin's seed, which the file does not reveal
    lines: list[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        self.ok = False
        self.lines.append(text)

    def as_json(self) -> dict:
        """As `fray verify --json` prints it and GET .../dice answers it."""
        return {"ok": self.ok, "random": self.random, "forced": self.forced, "entered": self.entered, "unchecked": self.unchecked, "notes": self.lines}


def check(fight: Fight, hash_given: str | None = None) -> Report:
    """Every roll of the fight's log against its seed (docs/dice.md, 'Checking a fight')."""
    report = Report()
    own = fight.seeds[-1]  # the fight's own seed (a fork's, after its origin's)
    if hash_given is not None and own.published is not None and hash_given.lower() != own.published:
        report.fail(f"the hash published in this file ({own.published}) is not the one given ({hash_given.lower()})")
    if hash_given is not None:
        own.published = hash_given.lower()
    if own.seed is None:
        report.fail("the seed is not revealed (the fight has not ended): the rolls cannot be checked")
        return report
    for seed in fight.seeds:
        if seed.seed is None:
            report.lines.append(
                f"the rolls before event {fight.seeds[fight.seeds.index(seed) + 1].start} are encounter {seed.origin}'s, under its seed: check its own log"
            )
            continue
        actual = hashlib.sha256(seed.seed).hexdigest()
        if seed.published is None:
            report.fail(f"no published hash to check the seed against (the seed's sha256 is {actual})")
            return report
        if actual != seed.published:
            report.fail(f"the seed does not match the published hash: sha256 of the seed is {actual}, the hash published was {seed.published}")
            return report
        report.lines.append(
            f"the seed's sha256 is the hash published {'at creation' if seed.start == 0 else f'at the fork (event {seed.start - 1})'} ({seed.published})"
        )
    drawn: dict[int, int] = {}  # event position -> seeded draws taken so far
    for entry in fight.entries:
        seed = fight.seed_at(entry.seq)
        for roll in entry.rolls:
            if roll.entered:
                report.entered += 1
                continue
            if roll.forced:
                report.forced += 1
                continue
            # The draw's index, as the roll says (a line this log lacks may have drawn before it),
            # else counted (logs exported before rolls said it).
            index = roll.draw if roll.draw is not None else drawn.get(entry.seq, 0)
            drawn[entry.seq] = index + 1
            if seed.seed is None:
                report.unchecked += 1
                continue
            report.random += 1
            want = expected(seed.seed, entry.seq, index, roll.sides)
            if roll.value != want:
                report.fail(
                    f"event {entry.seq}, draw {index}: d{roll.sides} for {roll.purpose!r} shows {roll.value}; the seed gives {want} (the line: {entry.text!r})"
                )
                return report
    return report


# --- reading the file ---------------------------------------------------------------


def read(path: pathlib.Path) -> Fight:
    from .fight_data import read_file

    return parse(read_file(path, NotAFight), str(path))


def parse(raw: bytes, source: str = "the file") -> Fight:
    text = raw.lstrip()
    if text.startswith(b"["):
        return _log(text, source)
    if text.startswith(b"{"):
        return _stream(raw, source)
    raise NotAFight(f"{source}: not a fight: neither a `fray export` stream nor a log export (a JSON list of lines)")


def _seeds(entries: list[Entry]) -> list[Seed]:
    """The seeds the log publishes: at creation, and at each fork (from the event after it)."""
    first = PUBLISHED.match(entries[0].text) if entries else None
    seeds = [Seed(0, first[1] if first else None)]
    for entry in entries:
        if entry.kind == "fork" and (m := FORKED.match(entry.text)) is not None:
            seeds[-1].origin = m[1]
            seeds.append(Seed(entry.seq + 1, m[2]))
    return seeds


def _log(raw: bytes, source: str) -> Fight:
    try:
        entries = msgspec.json.decode(raw, type=list[Entry])
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as e:
        raise NotAFight(f"{source}: not a log export: {e}") from None
    return from_entries(entries, source)


def from_entries(entries: list[Entry], source: str) -> Fight:
    """A fight's log lines, with the seeds they publish and the one the end reveals."""
    if not entries or PUBLISHED.match(entries[0].text) is None:
        raise NotAFight(f"{source}: not a log export: its first line must be 'Encounter created (...); seed sha256 ...'")
    seeds = _seeds(entries)
    for entry in entries:
        if (r := REVEALED.match(entry.text)) is not None:
            seeds[-1].seed = bytes.fromhex(r[1])  # the end reveals the fight's own seed
    return Fight(source, entries, seeds)


def _stream(raw: bytes, source: str) -> Fight:
    from ..rules.commands import CreateEncounter, Fork
    from .archive import ArchiveError
    from .archive import parse as parse_stream

    entries: list[Entry] = []
    held: list[bytes] = []  # the stream holds every seed: the create event's and each fork's

    def each(event, state) -> None:  # the fold archive.parse makes anyway, read as it goes
        entries.extend(state.recent)  # every line as made: the GM's log
        if isinstance(event.command, CreateEncounter) or (isinstance(event.command, Fork) and any(e.kind == "fork" for e in state.recent)):
            held.append(event.command.seed)  # a seed the fight took (a refused fork takes none)

    try:
        fight = parse_stream(raw.splitlines(), source, each)
    except ArchiveError as e:
        raise NotAFight(str(e)) from None
    seeds = _seeds(entries)
    for seed, value in zip(seeds, held, strict=False):
        seed.seed = value
    return Fight(source, entries, seeds, len(fight.events))


# --- the endpoint -------------------------------------------------------------------


async def dice_endpoint(request):
    """GET /api/encounters/{id}/dice?token=...: the log as this link saw it, its rolls checked
    here against its seeds. A convenience: the proof is the check anyone makes themselves
    (`fray verify` on the export, or the replay page's own 'Check the dice')."""
    from starlette.responses import Response

    from .replay import _answer

    def make(folded) -> bytes:
        return json.dumps(check(from_entries(list(folded.log), request.path_params["id"])).as_json()).encode()

    made = await _answer(request, "dice", make)
    if isinstance(made, Response):
        return made
    return Response(made, media_type="application/json", headers={"Cache-Control": "no-store"})


# --- the command --------------------------------------------------------------------


def run(args) -> int:
    name = "fray verify"
    try:
        fight = read(args.file)
    except NotAFight as e:
        print(f"{name}: {e}", file=sys.stderr)
        return 2
    report = check(fight, args.hash)
    if args.json:
        print(json.dumps(report.as_json()))
        return 0 if report.ok else 1
    what = f"{fight.events} events" if fight.events else f"{len(fight.entries)} log lines"
    print(f"{name}: {fight.source} ({what})")
    for line in report.lines:
        print(f"  {line}")
    print(f"  {report.random} random rolls checked; {report.forced} forced by the GM and {report.entered} entered at the table (not random: not checked)")
    if report.unchecked:
        print(f"  {report.unchecked} rolls of the fight this one was forked from, under its seed: not checked here")
    print("OK: every random roll is the one the seed gives." if report.ok else "NOT VERIFIED.")
    return 0 if report.ok else 1
