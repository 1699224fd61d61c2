"""Replays: an encounter's stream folded up to a chosen event and shown to one
viewer exactly as that viewer saw it then, and the viewer's log exported as JSON
or as a Markdown account of the fight.

Each log line is filtered with the state just after the event that made it,
as the live fan-out does, so a replay never shows a player more than the
table showed them: no seed before the end, no GM notes, no hidden figures.
The folding is server/chronicle.py's: off the event loop, kept, limited.
"""

import re
from collections.abc import Callable

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ..rules.model import Encounter, Entry
from ..rules.view import Viewer, view
from .api import claims_of, error, export_stream
from .chronicle import Busy, Fold, ReplayError, fold_events  # noqa: F401  (fray replay imports these from here)
from .store import StoreUnavailable
from .tokens import BadToken

_encoder = msgspec.json.Encoder()


async def _answer(request: Request, kind: str, make: Callable[[Fold], bytes], at: int | None = None) -> bytes | Response:
    """`make` of the fight up to `at` as the token's viewer saw it (server/chronicle.py: folded
    off the event loop, kept by position, limited), or the response refusing it."""
    encounter = request.path_params["id"]
    try:
        claims = await claims_of(request.app, encounter, request.query_params.get("token"))
        viewer = claims.viewer()
        link = claims.i if viewer.role == "player" else ""  # a player's lines for a sender alone are its link's (server.views.senders)
        made = await request.app.state.rebuilds.answer(
            encounter, claims.i, (kind, viewer, at, link), lambda chronicle, count, last: make(chronicle.fold(viewer, at, count, last, link))
        )
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    except Busy as e:
        return error(429, "replay/busy", e.message)
    except ReplayError as e:
        return error(e.status, e.code, e.message)
    if made is None:
        return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    return made


async def replay_endpoint(request: Request) -> Response:
    """GET /api/encounters/{id}/replay?token=...&at=<seq>: the fight at event `at`, as this viewer saw it."""
    raw = request.query_params.get("at", "")
    if raw and not (raw.isdigit() and len(raw) <= 12):
        return error(400, "request/invalid", "'at' is an event number: 0, 1, 2, ...")

    def make(folded: Fold) -> bytes:
        body = {
            "seq": folded.seq,
            "count": folded.count,
            "view": view(folded.state, folded.viewer, actions={}),  # a replay is read-only: no actions to offer
            "log": folded.log,
            "rounds": folded.rounds,
            "ended": folded.ended,
            "summary": folded.summary(),
        }
        return _encoder.encode(body)

    made = await _answer(request, "replay", make, int(raw) if raw else None)
    if isinstance(made, Response):
        return made
    return Response(made, media_type="application/json", headers={"Cache-Control": "no-store"})


async def log_endpoint(request: Request) -> Response:
    """GET /api/encounters/{id}/log?token=...: the whole log, each line as this viewer saw it live;
    with `after=SEQ` and/or `limit=N`, a page: the lines of events after SEQ, at most N."""
    after, limit = request.query_params.get("after", ""), request.query_params.get("limit", "")
    if not all(raw == "" or (raw.isdigit() and len(raw) <= 12) for raw in (after, limit)):
        return error(400, "request/invalid", "'after' is an event number and 'limit' a number of lines: 0, 1, 2, ...")
    first, most = (int(after) + 1 if after else 0), (int(limit) if limit else None)

    def make(folded: Fold) -> bytes:
        lines = folded.log if not first else [e for e in folded.log if e.seq >= first]
        return _encoder.encode(lines if most is None else lines[:most])

    made = await _answer(request, f"log:{first}:{most}", make)
    if isinstance(made, Response):
        return made
    return Response(made, media_type="application/json", headers={"Cache-Control": "no-store"})


async def export_endpoint(request: Request) -> Response:
    """GET /api/encounters/{id}/export?token=...&format=json|md: the viewer's whole log;
    format=jsonl: the raw stream, for the GM (api.export_stream)."""
    fmt = request.query_params.get("format", "json")
    if fmt == "jsonl":
        return await export_stream(request)
    if fmt not in ("json", "md"):
        return error(400, "request/invalid", "'format' is 'json', 'md' or (for the GM: the raw stream) 'jsonl'")
    encounter = request.path_params["id"]

    def make(folded: Fold) -> bytes:
        return _encoder.encode(folded.log) if fmt == "json" else markdown(folded.state, folded.viewer, folded.log).encode()

    body = await _answer(request, f"export:{fmt}", make)
    if isinstance(body, Response):
        return body
    safe = re.sub(r"[^A-Za-z0-9_-]", "", encounter)[:40] or "encounter"
    media = "application/json" if fmt == "json" else "text/markdown; charset=utf-8"
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
