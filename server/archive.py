"""A fight's data: its raw stream as JSON lines (export, import), deleting a
fight, and the sweep that deletes (or archives, then deletes) ended fights.

The file: a header line `{"format": "fray-fight", "version": 1, "encounter",
"rules_version", "events", "exported"}`, then one line per event, oldest first:
`{"position": "<stream id>", "event": <the Event as JSON>}` (bytes as base64,
as msgspec writes them). Importing appends the events anew, so positions on
the new store are its own; the events, and so the folded state, are the same.
"""

from __future__ import annotations

import asyncio
import logging
import os
import pathlib
import re
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass

import msgspec

from ..rules import FIRST_KEPT_VERSION, RULES_VERSION
from ..rules.commands import CreateEncounter
from ..rules.events import Event, decode_event, encode_event
from ..rules.model import Encounter
from ..rules.reducer import apply
from ..rules.upgrade import version_needed
from .store import StoreUnavailable, position_key

log = logging.getLogger("fray.archive")

FORMAT = "fray-fight"
VERSION = 1
PAGE = 1000  # events read from the store at a time
NEW_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # an encounter id a file may bring (it names the archive's file)
MAX_LINE = 4 * 1024 * 1024  # bytes of one line: an event with a battle map and 200 combatants is well under 1 MB
DURATION = re.compile(r"(\d+)([smhd])")
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class Header(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    version: int
    encounter: str
    rules_version: int
    events: int = 0  # how many event lines follow (for a progress bar; not trusted)
    exported: int = 0  # unix milliseconds


class Line(msgspec.Struct, forbid_unknown_fields=True):
    position: str
    event: Event


class ArchiveError(Exception):
    """A file that is not a fight, or a fight that cannot go where it was asked to."""


_encode = msgspec.json.Encoder().encode
_header = msgspec.json.Decoder(Header)
_line = msgspec.json.Decoder(Line)


@dataclass
class Fight:
    header: Header
    events: list[Event]
    state: Encounter  # the events folded: proof the file is a whole fight these rules can play


# --- export -----------------------------------------------------------------------


async def export_lines(store, encounter: str, progress: Callable[[int, int], None] | None = None) -> AsyncIterator[bytes]:
    """The fight as lines of the file (each ending in a newline); ArchiveError if there is no such fight.
    `progress(done, total)` is called after each page."""
    total = await store.length(encounter)
    after, done = "0-0", 0
    while True:
        page = await store.read(encounter, after=after, count=PAGE)
        if not page and done == 0:
            raise ArchiveError(f"there is no encounter {encounter!r}")
        if done == 0:
            first = decode_event(page[0][1]).command
            assert isinstance(first, CreateEncounter), "a stream always starts with its create event"
            header = Header(FORMAT, VERSION, encounter, first.rules_version, max(total, len(page)), int(time.time() * 1000))
            yield _encode(header) + b"\n"
        for position, payload in page:
            yield _encode(Line(position, decode_event(payload))) + b"\n"
        done += len(page)
        if progress is not None:
            progress(done, max(total, done))
        if len(page) < PAGE:
            return
        after = page[-1][0]


async def export_to_file(store, encounter: str, folder: pathlib.Path) -> pathlib.Path:
    """The fight written to `folder/<id>.jsonl`, whole or not at all (a temporary file, then a rename)."""
    if not NEW_ID.fullmatch(encounter):  # it names a file: never one outside `folder`
        raise ArchiveError(f"the encounter id {encounter[:70]!r} cannot name an archive file (1 to 64 letters, digits, '-' or '_')")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{encounter}.jsonl"
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{encounter}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            async for line in export_lines(store, encounter):
                out.write(line)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise
    return target


# --- import -----------------------------------------------------------------------


def parse(lines: Iterable[bytes], source: str = "the file", each: Callable[[Event, Encounter], None] | None = None) -> Fight:
    """A fight from the file's lines, checked whole (shape, order, and that it folds)
    before anything is written anywhere. ArchiveError names the first fault and its line.
    `each(event, state)` is called with each state as the fold makes it."""
    header: Header | None = None
    events: list[Event] = []
    seen: set[str] = set()
    last = (0, -1)
    state: Encounter | None = None
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{source}, line {number}"
        if len(raw) > MAX_LINE:
            raise ArchiveError(f"{where}: a line of {len(raw):,} bytes; a fight's lines are at most {MAX_LINE:,}")
        if header is None:
            try:
                header = _header.decode(raw)
            except (msgspec.DecodeError, RecursionError) as e:
                raise ArchiveError(f"{where}: not a Fray fight export (the first line must be its header: {e})") from None
            if header.format != FORMAT:
                raise ArchiveError(f"{where}: not a Fray fight export (format {header.format[:40]!r}, not {FORMAT!r})")
            if header.version != VERSION:
                raise ArchiveError(f"{where}: export format version {header.version}; this Fray reads version {VERSION}")
            continue
        try:
            line = _line.decode(raw)
            position = position_key(line.position)
        except (msgspec.DecodeError, RecursionError) as e:
            raise ArchiveError(f"{where}: not an event line: {e}") from None
        except ValueError:
            raise ArchiveError(f"{where}: {line.position[:40]!r} is not a stream position") from None
        if position <= last:
            raise ArchiveError(f"{where}: position {line.position} does not follow the one before it")
        if line.event.id in seen:
            raise ArchiveError(f"{where}: command id {line.event.id[:60]!r} appears twice")
        command = line.event.command
        if not events:
            if not isinstance(command, CreateEncounter):
                raise ArchiveError(f"{where}: the first event must create the encounter, not {type(command).__name__}")
            if command.id != header.encounter or command.rules_version != header.rules_version:
                raise ArchiveError(f"{where}: the create event (encounter {command.id!r}, rules version {command.rules_version}) does not match the header")
        elif isinstance(command, CreateEncounter):
            raise ArchiveError(f"{where}: a second create event")
        if version_needed(command) > RULES_VERSION:  # a newer Fray's fight: never folded under other rules
            raise ArchiveError(
                f"{where}: this fight is played under rules version {version_needed(command)}; "
                f"this Fray knows versions {FIRST_KEPT_VERSION} to {RULES_VERSION}: use a newer Fray"
            )
        try:
            state = apply(state, line.event)
        except Exception as e:  # rules not installed, a stream these rules cannot play
            raise ArchiveError(f"{where}: the fight does not fold under this Fray's rules: {e}") from None
        last = position
        seen.add(line.event.id)
        events.append(line.event)
        if each is not None:
            each(line.event, state)  # read each state as the fold makes it (fray verify: the log)
    if header is None:
        raise ArchiveError(f"{source}: empty, not a Fray fight export")
    if state is None:
        raise ArchiveError(f"{source}: a header and no events")
    return Fight(header, events, state)


def pre_release(version: int) -> str | None:
    """The warning for a fight recorded before rules versions were kept (docs/decisions.md), or None."""
    if version >= FIRST_KEPT_VERSION:
        return None
    return (
        f"this fight was recorded with rules version {version}, from before versions were kept; "
        f"it is folded under version {FIRST_KEPT_VERSION}'s rules, which may not show exactly what its table saw"
    )


def renamed(fight: Fight, new_id: str) -> Fight:
    """The same fight under another encounter id (its create event names the id)."""
    if not NEW_ID.fullmatch(new_id):
        raise ArchiveError(f"the new id {new_id[:70]!r} must be 1 to 64 letters, digits, '-' or '_'")
    first = fight.events[0]
    create = msgspec.structs.replace(first.command, id=new_id)
    events = [msgspec.structs.replace(first, command=create), *fight.events[1:]]
    state = None
    for event in events:
        state = apply(state, event)
    assert state is not None
    return Fight(msgspec.structs.replace(fight.header, encounter=new_id), events, state)


def vet(fight: Fight) -> None:
    """ArchiveError unless every event is one this server could have stored (server/vetting.py):
    a file is not trusted further than a client (`fray import`)."""
    from .vetting import Unstorable, vet_events

    try:
        vet_events(fight.events)
    except Unstorable as e:
        raise ArchiveError(f"event #{e.seq}: {e}") from None


async def import_fight(store, fight: Fight) -> str:
    """Append the fight's events to a new encounter of `store`; its id. ArchiveError for an
    id that cannot name a file, or an event the server could not have stored (`vet`)."""
    encounter = fight.header.encounter
    if not NEW_ID.fullmatch(encounter):  # an id names files (the archive's): the file's is not trusted
        raise ArchiveError(f"the encounter id {encounter[:70]!r} is not 1 to 64 letters, digits, '-' or '_': import it under another id with --as NEW_ID")
    vet(fight)
    if await store.exists(encounter):
        raise ArchiveError(f"an encounter {encounter!r} already exists here; import it under another id with --as NEW_ID")
    # Submitted together, appended in order by the store's one writer.
    appended = await asyncio.gather(*(store.submit(encounter, e.id, encode_event(e)) for e in fight.events))
    assert all(created for _, created in appended), "parse() refuses a command id seen twice"
    created = fight.events[0].at // 1000 or int(time.time())
    await store.set_meta(encounter, {"created": str(created), "profile": fight.state.profile, "imported": str(int(time.time()))})
    return encounter


# --- deleting, and the sweep of ended fights -------------------------------------------


async def delete_fight(app, encounter: str, reason: str) -> None:
    """Every key of the fight, its sockets on this replica closed first."""
    from .security import links_key, revoked_key  # security imports the store, not this

    await app.state.access.close_encounter(encounter, reason)
    await app.state.store.delete(encounter, also=(links_key(encounter), revoked_key(encounter)))
    app.state.hub.forget(encounter)


def parse_duration(text: str) -> float | None:
    """'30d', '12h', '90m', '45s' -> seconds; '', 'off' or '0' -> None (keep every fight)."""
    text = text.strip().lower()
    if text in ("", "off", "0"):
        return None
    match = DURATION.fullmatch(text)
    if match is None or int(match[1]) == 0:
        raise ValueError(f"a retention time is a number and a unit, like 30d, 12h, 90m or 45s (or 'off'), not {text[:40]!r}")
    return int(match[1]) * UNITS[match[2]]


class Sweeper:
    """Every so often, delete (or archive to `archive`, then delete) the fights that
    ended over `retain` seconds ago. Cheap: one read of each fight's last event; a
    fight is folded only once its last event is old enough, and a stale fight that
    has not ended is not folded again until it changes."""

    def __init__(self, app, retain: float, archive: pathlib.Path | None = None, clock: Callable[[], float] = time.time) -> None:
        self.app, self.retain, self.archive, self.clock = app, retain, archive, clock
        self.every = min(max(retain / 10, 1.0), 3600.0)
        self._not_ended: dict[str, str] = {}  # encounter -> the last position it was seen at, not ended
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="fray-retention")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.sweep()
            except StoreUnavailable:
                pass  # Redis is away; the next sweep tries again
            except Exception:
                log.exception("sweeping ended fights failed")

    async def sweep(self) -> list[str]:
        """One pass; the fights it removed."""
        store, removed = self.app.state.store, []
        cutoff_ms = (self.clock() - self.retain) * 1000
        for encounter in await store.list_encounters():
            try:
                if await self._sweep_one(store, encounter, cutoff_ms):
                    removed.append(encounter)
            except StoreUnavailable:
                raise  # the next sweep tries again
            except Exception:  # one fight that cannot be swept (an id no file may have) stops no other
                log.exception("sweeping the ended fight %r failed; the others go on", encounter[:70])
        return removed

    async def _sweep_one(self, store, encounter: str, cutoff_ms: float) -> bool:
        """Remove this fight if it ended over `retain` ago; whether it did."""
        last = await store.last(encounter)
        if last is None or position_key(last[0])[0] > cutoff_ms or self._not_ended.get(encounter) == last[0]:
            return False
        state = None
        async for _, payload in _events(store, encounter):
            state = apply(state, decode_event(payload))
        if state is None or state.status != "ended":
            self._not_ended[encounter] = last[0]
            return False
        if self.archive is not None:
            await export_to_file(store, encounter, self.archive)
        await delete_fight(self.app, encounter, "this fight ended and has been removed from the server")
        self._not_ended.pop(encounter, None)
        log.info("removed the ended fight %s%s", encounter, f" (archived in {self.archive})" if self.archive else "")
        return True


async def _events(store, encounter: str) -> AsyncIterator[tuple[str, bytes]]:
    after = "0-0"
    while page := await store.read(encounter, after=after, count=PAGE):
        for item in page:
            yield item
        after = page[-1][0]
