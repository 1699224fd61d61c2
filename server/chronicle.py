"""A fight's stream folded once for its replays, off the event loop, kept by position.

`/replay`, `/log`, `/dice` and the exports show a fight as one viewer saw it, which
takes every event's lines. Folded from scratch on the event loop for each request,
a long fight stalled every table of the replica (issue 28). Here a fight is folded
once into a `Chronicle`, in a worker thread, and kept: a later request reads only
the events appended since (from the position it reached, a page at a time), and the
state after any event comes from the nearest checkpoint the chronicle kept (every
`CHECKPOINT_EVERY` events), not from the start. No length is refused; a fight of rules newer than the replica's is (409
`rules/unknown-version`), before any of its events is folded.

`Rebuilds` holds the chronicles (the most recently used, up to `KEPT_EVENTS` events in
all), the answers already made (by fight, viewer, event and stream length), and the
limits: `Limits.rebuilds` at once per replica, one at a time per link (one more of the
link's waits its turn: a replay page asks again as it scrubs), a short queue; past them,
`429 replay/busy`.

The lines shown are exactly those of a fold from scratch: each event's lines are
filtered by `rules.view.log_for` against what that filter reads of the state just
after the event (its combatants' sides, its origin), kept for the purpose.
"""

import asyncio
import collections
import re
from collections.abc import Callable
from typing import cast

import msgspec

from ..rules import RULES_VERSION
from ..rules.commands import AddCombatant, EditCombatant, Fork, Restore
from ..rules.events import Event, decode_event
from ..rules.model import Encounter, Entry, Origin, copied
from ..rules.reducer import folding
from ..rules.summary import Summary, summarize
from ..rules.upgrade import version_needed
from ..rules.view import Viewer, log_for
from .views import senders

NAMING = (AddCombatant, EditCombatant, Restore)  # the events that may add, rename or reveal a combatant
CHECKPOINT_EVERY = 256  # events between the states a chronicle keeps
PAGE = 2_000  # events read from Redis at a time
MAX_PAGES = 500  # a million events: the loop that reads a stream is bounded
KEPT_EVENTS = 100_000  # events kept in chronicles (about 1 KB each), over every fight, before the least recently used goes
ANSWER_BYTES = 64 * 1024 * 1024  # answers kept, the most recently used, up to this many bytes in all
WAITING = 4  # rebuilds that may wait for a free worker, per allowed at once
LINK_WAITING = 1  # a link's rebuilds that may wait behind its running one (a replay page that scrubs)


class Fold(msgspec.Struct):
    count: int  # events in the stream
    seq: int  # the last event folded into `state` (0 = the create event)
    state: Encounter
    log: list[Entry]  # the viewer's lines, oldest first, up to `seq`
    rounds: list[dict]  # [{seq, round}]: the event that opened each round, over the whole stream
    viewer: Viewer
    ended: bool  # the whole stream: has the fight ended (so anyone may fork it: server/forks.py)
    made_in: list[int] = []  # the round each line of `log` was made in
    names: dict[str, str] = {}  # id -> name of every combatant the viewer was shown, up to `seq`
    counted: list[Entry] = []  # `log` as rules.summary counts it: damage lines with the points their text states

    def summary(self) -> Summary:
        """The fight up to `seq` in numbers, as this viewer saw it (rules.summary)."""
        return summarize(zip(self.made_in, self.counted, strict=True), self.names, self.state.round, self.state.undone)


class Side(msgspec.Struct, frozen=True, gc=False):
    id: str
    side: str


class Frame(msgspec.Struct, frozen=True, gc=False):
    """What `rules.view.log_for` reads of the state just after an event: its origin and
    its combatants' sides. Shared by the events between two changes of either."""

    origin: Origin | None
    combatants: tuple[Side, ...]


class ReplayError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Busy(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


OPENS = re.compile(r"^Round (\d+): declarations are open")  # rules.resolve's line opening a round


def rounds_of(lines: list[Entry], round_: int) -> list[int]:
    """The round each of one event's lines was made in, from the round it began in (an
    advance resolves one round and opens the next)."""
    made = []
    for e in lines:
        if e.kind == "round" and (opened := OPENS.match(e.text)):
            round_ = int(opened.group(1))
        made.append(round_)
    return made


class Chronicle:
    """One fight's events, each one's lines and frame, and checkpoints of its state.
    Extended (`extend`) by one worker at a time; read (`fold`) by any, each reading only
    the first `count` events it was handed, which no later extension changes."""

    def __init__(self, encounter: str) -> None:
        self.encounter = encounter
        self.position = "0-0"  # the stream position of the last event folded
        self.events: list[Event] = []
        self.lines: list[list[Entry]] = []  # each event's lines (its state's `recent`)
        self.began: list[int] = []  # the round each event began in
        self.frames: list[Frame] = []
        self.named: dict[int, tuple[tuple[str, str, bool], ...]] = {}  # a NAMING event: (id, name, unseen) of each combatant after it
        self.rounds: list[dict] = []
        self.forks: list[tuple[int, Fork]] = []
        self.checkpoints: list[Encounter] = []  # the state after event k * CHECKPOINT_EVERY
        self.last: Encounter | None = None  # the state after the last event; never changed once set
        self.round = 0  # the round the next event begins in

    @property
    def count(self) -> int:
        return len(self.events)

    def extend(self, raw: list[tuple[str, bytes]], newest: int = RULES_VERSION) -> None:
        """Fold events read after `position` (in a worker thread)."""
        try:
            decoded = [decode_event(payload) for _, payload in raw]
        except msgspec.ValidationError:
            raise ReplayError(409, "rules/unknown-version", "this fight holds an event this server cannot read (a newer release's)") from None
        self.add(decoded, newest)
        if raw:
            self.position = raw[-1][0]

    def add(self, decoded: list[Event], newest: int = RULES_VERSION) -> None:
        """Fold these events, the stream's next; a fight whose rules are newer than `newest`
        (the newest this replica, or this Fray, folds) is refused before any is folded: ReplayError."""
        needed = max((version_needed(e.command) for e in decoded), default=0)
        if needed > newest:
            raise ReplayError(409, "rules/unknown-version", f"this fight is played under rules version {needed}; this Fray knows versions up to {newest}")
        frame = self.frames[-1] if self.frames else None
        state = self.last
        for event, state in zip(decoded, folding(decoded, self.last), strict=True):
            seq, began = len(self.events), self.round
            self.events.append(event)
            self.lines.append(list(state.recent))
            self.began.append(began)
            if state.round != began:
                self.rounds.append({"seq": seq, "round": state.round})
            self.round = state.round
            sides = tuple(Side(c.id, c.side) for c in state.combatants)
            if frame is None or frame.origin != state.origin or frame.combatants != sides:
                frame = Frame(state.origin, sides)
            self.frames.append(frame)
            if isinstance(event.command, NAMING):
                self.named[seq] = tuple((c.id, c.name, c.unseen) for c in state.combatants)
            if isinstance(event.command, Fork):
                self.forks.append((seq, event.command))
            if seq % CHECKPOINT_EVERY == 0:
                kept = copied(state)
                kept.recent = self.lines[-1]  # as the state after that event had it
                self.checkpoints.append(kept)
        if decoded:
            self.last = state  # folding's own copy: nothing else holds it now

    def state_at(self, seq: int, count: int, last: Encounter) -> Encounter:
        """The state just after event `seq` (< count): from the checkpoint before it."""
        if seq == count - 1:
            return last
        k = seq // CHECKPOINT_EVERY
        state = self.checkpoints[k]
        for after in folding(self.events[k * CHECKPOINT_EVERY + 1 : seq + 1], state):
            state = after  # folding's own copy, changed in place: the last one is the one kept
        return state

    def fold(self, viewer: Viewer, at: int | None, count: int, last: Encounter, link: str = "") -> Fold:
        """The fight up to event `at` (None: the last) as `viewer` saw it, over its first
        `count` events: what a fold from scratch of those events gives (server/replay.py).
        `link`: a player's token id: a line for a command's sender alone is its link's (server.views.senders)."""
        stop = count - 1 if at is None else max(0, min(at, count - 1))
        # A veiled fork (rules/fork.py): its GM reads its origin's events as the link it was forked from did.
        veil, veiled = -1, viewer
        forks = [f for seq, f in self.forks if seq < count]
        if viewer.role == "gm" and forks and forks[-1].veil >= 0:
            veil, veiled = forks[-1].veil, Viewer(role=forks[-1].veil_role, combatants=tuple(forks[-1].veil_combatants))
        state = self.state_at(stop, count, last)
        lines: list[Entry] = []
        counted: list[Entry] = []
        made_in: list[int] = []
        names: dict[str, str] = {}
        for seq in range(stop + 1):
            seen = veiled if seq <= veil else viewer
            if self.lines[seq]:
                frame = cast(Encounter, self.frames[seq])
                own = link if seen is viewer else ""  # under a veil, the origin's lines are read by combatants
                shown = senders(log_for(self.lines[seq], frame, seen), own)
                lines.extend(shown)
                counted.extend(senders(log_for(self.lines[seq], frame, seen, points=True), own) if seen.role != "gm" else shown)
                made_in.extend(rounds_of(shown, self.began[seq]))
            if seq == stop:  # who the viewer was shown, by name
                names.update((c.id, c.name) for c in state.combatants if seen.role == "gm" or not c.unseen)
            elif (named := self.named.get(seq)) is not None:
                names.update((cid, name) for cid, name, unseen in named if seen.role == "gm" or not unseen)
        rounds = [r for r in self.rounds if r["seq"] < count]
        seen_as = veiled if stop <= veil else viewer
        return Fold(
            count=count,
            seq=stop,
            state=state,
            log=lines,
            rounds=rounds,
            viewer=seen_as,
            ended=last.status == "ended",
            made_in=made_in,
            names=names,
            counted=counted,
        )


class Rebuilds:
    """The replica's chronicles, its answers made from them, and the limits on making them."""

    def __init__(self, store, at_once: int, newest: int = RULES_VERSION) -> None:
        self.store = store
        self.at_once = at_once
        self.newest = newest  # the newest rules version this replica folds
        self._workers = asyncio.Semaphore(at_once)
        self._waiting = 0  # rebuilds running or waiting for a worker
        self._links: dict[str, int] = {}  # link -> its rebuilds running or waiting
        self._turns: dict[str, asyncio.Lock] = {}  # link -> its turn: one rebuild at a time
        self._chronicles: collections.OrderedDict[str, Chronicle] = collections.OrderedDict()
        self._extending: dict[str, asyncio.Lock] = {}
        self._answers: collections.OrderedDict[tuple, bytes] = collections.OrderedDict()
        self._kept = 0  # bytes of the answers kept

    async def answer(self, encounter: str, link: str, key: tuple, make: Callable[[Chronicle, int, Encounter], bytes]) -> bytes | None:
        """`make(chronicle, count, last)`'s bytes for the fight as it stands now, made in a worker
        (or kept from an earlier request of the same `key` at the same length); None when there is
        no such fight. Raises Busy past the limits, StoreUnavailable."""
        queued = self._links.get(link, 0)
        if queued > LINK_WAITING:
            raise Busy("this link already has replays, logs or exports being prepared: wait for them, then ask again")
        if self._waiting >= self.at_once * (1 + WAITING):
            raise Busy(f"this server is preparing {self._waiting} replays, logs or exports: ask again in a moment")
        self._links[link] = queued + 1
        self._waiting += 1
        turn = self._turns.setdefault(link, asyncio.Lock())
        try:
            async with turn, self._workers:  # one at a time for a link, `at_once` for the replica
                chronicle = await self._up_to_date(encounter)
                if chronicle is None or chronicle.last is None:
                    return None
                count, last = chronicle.count, chronicle.last
                whole = (encounter, count, *key)
                made = self._answers.get(whole)
                if made is not None:
                    self._answers.move_to_end(whole)
                    return made
                made = await asyncio.to_thread(make, chronicle, count, last)
                self._answers[whole] = made
                self._kept += len(made)
                while self._kept > ANSWER_BYTES:
                    self._kept -= len(self._answers.popitem(last=False)[1])
                return made
        finally:
            self._waiting -= 1
            self._links[link] -= 1
            if not self._links[link]:
                del self._links[link], self._turns[link]

    async def _up_to_date(self, encounter: str) -> Chronicle | None:
        """The fight's chronicle, with every event the stream holds now (read a page at a time,
        folded in a worker); a new one if the stream is no longer the one it folded."""
        lock = self._extending.setdefault(encounter, asyncio.Lock())
        async with lock:
            try:
                chronicle = await self._read_on(self._chronicles.get(encounter) or Chronicle(encounter))
                if chronicle.count and await self.store.length(encounter) != chronicle.count:  # deleted, then written again
                    chronicle = await self._read_on(Chronicle(encounter))
            except BaseException:  # a page half folded, or the store away: keep nothing half made
                self._chronicles.pop(encounter, None)
                raise
            if not chronicle.count:  # no such fight: nothing of it is kept
                self._chronicles.pop(encounter, None)
                return None
            self._chronicles[encounter] = chronicle
            self._chronicles.move_to_end(encounter)
            while sum(c.count for c in self._chronicles.values()) > KEPT_EVENTS and len(self._chronicles) > 1:
                gone, _ = self._chronicles.popitem(last=False)
                if (idle := self._extending.get(gone)) is not None and not idle.locked():
                    del self._extending[gone]
            return chronicle

    async def _read_on(self, chronicle: Chronicle) -> Chronicle:
        for _ in range(MAX_PAGES):
            page = await self.store.read(chronicle.encounter, after=chronicle.position, count=PAGE)
            if page:
                await asyncio.to_thread(chronicle.extend, page, self.newest)
            if len(page) < PAGE:
                break
        return chronicle


def fold_events(decoded: list[Event], viewer: Viewer, at: int | None = None, newest: int = RULES_VERSION) -> Fold:
    """The fight of `decoded` (its whole stream) as `viewer` saw it up to event `at` (None:
    the last), folded under its own rules version; ReplayError for rules newer than `newest`."""
    chronicle = Chronicle("")
    chronicle.add(decoded, newest)
    if chronicle.last is None:
        raise ReplayError(404, "encounter/unknown", "there is no event to replay")
    return chronicle.fold(viewer, at, chronicle.count, chronicle.last)
