"""Replays: an encounter's stream folded from scratch up to a chosen event and
shown to one viewer exactly as that viewer saw it then, and the viewer's log
exported as JSON or as a Markdown account of the fight.

Each log line is filtered with the state just after the event that made it,
as the live fan-out does, so a replay never shows a player more than the
table showed them: no seed before the end, no GM notes, no hidden figures.
"""

import re

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from fray_table.rules import RULES_VERSION
from fray_table.rules.commands import AddCombatant, EditCombatant, Fork, Restore
from fray_table.rules.events import Event, decode_event
from fray_table.rules.model import Encounter, Entry
from fray_table.rules.reducer import apply
from fray_table.rules.summary import Summary, summarize
from fray_table.rules.upgrade import version_needed
from fray_table.rules.view import Viewer, log_for, view
from fray_table.server.api import claims_of, error, export_stream
from fray_table.server.store import StoreUnavailable
from fray_table.server.tokens import BadToken
from fray_table.server.views import senders

NAMING = (AddCombatant, EditCombatant, Restore)  # the events that may add, rename or reveal a combatant
MAX_EVENTS = 20_000  # a replay folds at most this many events per request
_encoder = msgspec.json.Encoder()


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


class ReplayError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


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


async def fold_until(store, encounter: str, viewer: Viewer, at: int | None, newest: int = RULES_VERSION, link: str = "") -> Fold:
    """Fold the stream from scratch; keep the state after event `at` (None: the last).
    The whole stream is read (bounded) so the timeline knows its length and rounds."""
    events = await store.read(encounter, count=MAX_EVENTS + 1)
    if not events:
        raise ReplayError(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    if len(events) > MAX_EVENTS:
        raise ReplayError(413, "replay/too-long", f"this fight has over {MAX_EVENTS} events: too long to replay here")
    try:
        decoded = [decode_event(payload) for _, payload in events]
    except msgspec.ValidationError:
        raise ReplayError(409, "rules/unknown-version", "this fight holds an event this server cannot read (a newer release's)") from None
    return fold_events(decoded, viewer, at, newest, link)


def fold_events(decoded: list[Event], viewer: Viewer, at: int | None = None, newest: int = RULES_VERSION, link: str = "") -> Fold:
    """The fight of `decoded` (its whole stream) as `viewer` saw it up to event `at` (None:
    the last), folded under its own rules version. A fight whose rules are newer than
    `newest` (the newest this replica, or this Fray, folds) is refused: ReplayError.
    `link`: the viewer's token id (a player's lines for a sender alone: server.views.senders)."""
    needed = max(version_needed(e.command) for e in decoded)
    if needed > newest:
        raise ReplayError(409, "rules/unknown-version", f"this fight is played under rules version {needed}; this Fray knows versions up to {newest}")
    last = len(decoded) - 1
    stop = last if at is None else max(0, min(at, last))
    # A veiled fork (rules/fork.py): its GM reads its origin's events as the link it was forked from did.
    veil, veiled = -1, viewer
    forks = [e.command for e in decoded if isinstance(e.command, Fork)]
    if viewer.role == "gm" and forks and forks[-1].veil >= 0:
        veil, veiled = forks[-1].veil, Viewer(role=forks[-1].veil_role, combatants=tuple(forks[-1].veil_combatants))
    state: Encounter | None = None
    kept: Encounter | None = None
    lines: list[Entry] = []
    counted: list[Entry] = []
    made_in: list[int] = []
    names: dict[str, str] = {}
    rounds: list[dict] = []
    for seq, event in enumerate(decoded):
        before = state.round if state is not None else 0
        state = apply(state, event)
        if state.round != before:
            rounds.append({"seq": seq, "round": state.round})
        if seq <= stop:
            seen = veiled if seq <= veil else viewer
            own = link if seen is viewer and viewer.role == "player" else ""
            shown = senders(log_for(state.recent, state, seen), own)
            lines.extend(shown)
            counted.extend(senders(log_for(state.recent, state, seen, points=True), own) if seen.role != "gm" else shown)
            made_in.extend(rounds_of(shown, before))
            if seq == stop or isinstance(event.command, NAMING):  # who the viewer was shown, by name
                names.update((c.id, c.name) for c in state.combatants if seen.role == "gm" or not c.unseen)
        if seq == stop:
            kept = state  # apply() never changes a state: the moment stays as it was
    assert kept is not None and state is not None
    seen_as = veiled if stop <= veil else viewer
    return Fold(
        count=len(decoded),
        seq=stop,
        state=kept,
        log=lines,
        rounds=rounds,
        viewer=seen_as,
        ended=state.status == "ended",
        made_in=made_in,
        names=names,
        counted=counted,
    )


async def _fold(request: Request, at: int | None) -> Fold | Response:
    """The fight up to `at` as the token's viewer saw it, or the response refusing it."""
    try:
        claims = await claims_of(request.app, request.path_params["id"], request.query_params.get("token"))
        return await fold_until(request.app.state.store, request.path_params["id"], claims.viewer(), at, request.app.state.rules_version, claims.i)
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    except ReplayError as e:
        return error(e.status, e.code, e.message)


async def replay_endpoint(request: Request) -> Response:
    """GET /api/encounters/{id}/replay?token=...&at=<seq>: the fight at event `at`, as this viewer saw it."""
    raw = request.query_params.get("at", "")
    if raw and not raw.isdigit():
        return error(400, "request/invalid", "'at' is an event number: 0, 1, 2, ...")
    folded = await _fold(request, int(raw) if raw else None)
    if isinstance(folded, Response):
        return folded
    viewer = folded.viewer
    # A replay is read-only: no actions to offer.
    body = {
        "seq": folded.seq,
        "count": folded.count,
        "view": view(folded.state, viewer, actions={}),
        "log": folded.log,
        "rounds": folded.rounds,
        "ended": folded.ended,
        "summary": folded.summary(),
    }
    return Response(_encoder.encode(body), media_type="application/json", headers={"Cache-Control": "no-store"})


async def log_endpoint(request: Request) -> Response:
    """GET /api/encounters/{id}/log?token=...: the whole log, each line as this viewer saw it live."""
    folded = await _fold(request, None)
    if isinstance(folded, Response):
        return folded
    return Response(_encoder.encode(folded.log), media_type="application/json", headers={"Cache-Control": "no-store"})


async def export_endpoint(request: Request) -> Response:
    """GET /api/encounters/{id}/export?token=...&format=json|md: the viewer's whole log;
    format=jsonl: the raw stream, for the GM (api.export_stream)."""
    fmt = request.query_params.get("format", "json")
    if fmt == "jsonl":
        return await export_stream(request)
    if fmt not in ("json", "md"):
        return error(400, "request/invalid", "'format' is 'json', 'md' or (for the GM: the raw stream) 'jsonl'")
    encounter = request.path_params["id"]
    folded = await _fold(request, None)
    if isinstance(folded, Response):
        return folded
    viewer = folded.viewer
    safe = re.sub(r"[^A-Za-z0-9_-]", "", encounter)[:40] or "encounter"
    if fmt == "json":
        body, media = _encoder.encode(folded.log), "application/json"
    else:
        body, media = markdown(folded.state, viewer, folded.log).encode(), "text/markdown; charset=utf-8"
    disposition = f'attachment; filename="fray-{safe}.{fmt}"'
    return Response(body, media_type=media, headers={"Content-Disposition": disposition, "Cache-Control": "no-store"})


# --- the Markdown account ------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")
_ROUND_OPENS = re.compile(r"^Round (\d+): declarations are open")


def md(text: str) -> str:
    """Text from the fight (names are the GM's free text) as literal Markdown."""
    return _MD_SPECIAL.sub(r"\\\1", text.replace("\n", " "))


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


def roll_words(entry: Entry) -> list[str]:
    """Each die, its modifiers and the outcome, in plain words."""
    words = []
    for r in entry.rolls:
        forced = ", a result forced by the GM" if r.forced else ""
        words.append(f"rolled a d{r.sides}: {r.value} ({md(r.purpose)}{forced})")
    if entry.mods:
        words.append("modifiers: " + ", ".join(f"{signed(m.value)} {md(m.name)}" for m in entry.mods))
    if entry.need is not None and entry.total is not None:
        verdict = "succeeds" if entry.total >= entry.need else "fails"
        words.append(f"total {entry.total} against {entry.need} needed: {verdict}")
    return words


def markdown(state: Encounter, viewer: Viewer, log: list[Entry]) -> str:
    names = {c.id: c.name for c in state.combatants}
    if viewer.role == "player":
        seen_as = "a player (" + ", ".join(md(names.get(c, c)) for c in viewer.combatants) + ")"
    else:
        seen_as = {"gm": "the GM", "spectator": "a spectator"}.get(viewer.role, viewer.role)
    lines = [
        f"# Fray: the fight of encounter {md(state.id)}",
        "",
        f"- Rules: {md(state.profile)} (rules version {state.rules_version})",
        f"- Status: {state.status}, round {state.round}, {state.seq} events",
        f"- Seen as: {seen_as}",
        f"- Seed sha256: `{state.seed_hash}`",
    ]
    if viewer.role == "gm" or state.status == "ended":
        lines.append(f"- Seed (re-run the log with it to check every roll): `{state.seed.hex()}`")
    else:
        lines.append("- Seed: still secret; it is revealed when the fight ends.")
    lines += ["", "## Before the fight", ""]
    for entry in log:
        if entry.kind == "round" and (m := _ROUND_OPENS.match(entry.text)):
            lines += ["", f"## Round {m.group(1)}", ""]
            continue
        if entry.kind == "phase":
            lines += ["", f"### {md(entry.text.rstrip('.'))}", ""]
            continue
        tag = " *(rejected)*" if entry.kind == "rejected" else ""
        lines.append(f"- {md(entry.text)}{tag}")
        lines += [f"  - {w}" for w in roll_words(entry)]
    return "\n".join(lines) + "\n"
