"""The HTTP API: create encounters, their logs and digests, invite links.

Every answer is JSON; every refusal is `{code, message}` with a stable code.
"""

import asyncio
import hashlib
import secrets
import time

import msgspec
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from ..rules import FIRST_KEPT_VERSION
from ..rules.commands import AddCombatant, CreateEncounter
from ..rules.events import Actor, Event, encode_event
from ..rules.model import Combatant, Encounter
from ..rules.profiles import validate_options
from ..rules.reducer import apply, canonical, check
from . import demo, protocol
from .hub import UnknownVersion
from .store import StoreUnavailable
from .tokens import ROLES, BadToken

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    profile: str = "holmes-phases"
    options: dict[str, int | bool | str] = {}
    modules: dict[str, str] = {}  # module -> the profile it is taken from (rules.ruleset.compose)
    combatants: list[Combatant] | None = None  # None: the demo fight
    players: dict[str, list[str]] | None = None  # link name -> combatant ids; default: one per combatant of the first side
    # The rules version the fight is played under: 0, this server's newest; an older kept one to
    # play on under the rules a table began with (docs/decisions.md, 'History never changes').
    rules_version: int = 0


class LinkBody(msgspec.Struct, forbid_unknown_fields=True):
    role: str  # 'player' | 'spectator'
    name: str = ""
    combatants: list[str] = []  # a player's
    ttl: int = 0  # seconds until the link expires; 0: never


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=SECURITY_HEADERS)


def base_url(request: Request) -> str:
    """Where links point: `--public-url` when given, else the address this request
    came to (behind a trusted proxy, the forwarded one: server/forwarded.py)."""
    return request.app.state.public_url or str(request.base_url)


class SlowBody(Exception):
    """The body did not arrive within `--request-timeout` (answered 408 by `slow_body`)."""


async def slow_body(request: Request, exc: Exception) -> Response:
    return error(408, "request/timeout", f"the body did not arrive within {request.app.state.limits.request_seconds:g} s")


async def read_body(request: Request) -> bytes | None:
    """The request body, or None once it is over the limit (read no further); SlowBody
    once it has taken `--request-timeout` (server/timeouts.py times the head)."""
    limit = request.app.state.limits.body_bytes
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        return None
    chunks, size = [], 0
    try:
        async with asyncio.timeout(request.app.state.limits.request_seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    return None
                chunks.append(chunk)
    except TimeoutError:
        raise SlowBody() from None
    return b"".join(chunks)


def too_large(request: Request) -> Response:
    return error(413, "request/too-large", f"the body is over {request.app.state.limits.body_bytes} bytes")


async def claims_of(app, encounter: str, token: str | None):
    return await app.state.access.claims(encounter, token)


async def gm_claims(request: Request):
    """The GM's claims for this request, or the error response to send."""
    try:
        claims = await claims_of(request.app, request.path_params["id"], request.query_params.get("token"))
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    if claims.r != "gm":
        return error(403, "auth/forbidden", "only the GM may do that")
    return claims


async def create_encounter(app, body: CreateBody, base_url: str) -> dict:
    store, access = app.state.store, app.state.access
    version = body.rules_version or app.state.rules_version  # by default the newest this replica knows
    if not FIRST_KEPT_VERSION <= version <= app.state.rules_version:
        raise ValueError(f"rules_version {version}: this server plays fights under rules versions {FIRST_KEPT_VERSION} to {app.state.rules_version}")
    validate_options(body.profile, body.options, body.modules, version)
    encounter = new_encounter_id()
    combatants = demo.combatants() if body.combatants is None else body.combatants
    system = Actor("system", "server")
    events = [
        Event(
            "create",
            system,
            CreateEncounter(
                id=encounter, profile=body.profile, seed=secrets.token_bytes(32), rules_version=version, options=body.options, modules=body.modules
            ),
            at=int(time.time() * 1000),
        )
    ]
    events += [Event(f"add-{i}", Actor("gm", "setup"), AddCombatant(c)) for i, c in enumerate(combatants)]
    state = None  # fold the setup here first: nothing is stored unless all of it is valid
    for event in events:
        if state is not None and (rejected := check(state, event)) is not None:
            assert isinstance(event.command, AddCombatant)  # only the create comes before a state, and it is not checked
            raise ValueError(f"combatant {event.command.combatant.name!r}: {rejected.message}")
        state = apply(state, event)
    assert state is not None  # there is always the create event
    players = player_links(state, body.players)  # checked before anything is stored
    for event in events:
        await store.append(encounter, event.id, encode_event(event))
    await store.set_meta(encounter, {"created": str(int(time.time())), "profile": body.profile})
    return await issue_links(access, encounter, state, players, base_url)


def new_encounter_id() -> str:
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


def player_links(state: Encounter, players: dict[str, list[str]] | None) -> dict[str, list[str]]:
    """The player links a new fight gets (link name -> its combatants): those asked
    for, each naming combatants it has; by default one per combatant of the first side."""
    if players is None:
        first = state.combatants[0].side if state.combatants else ""
        return {c.id: [c.id] for c in state.combatants if c.side == first}
    ids = {c.id for c in state.combatants}
    for name, owned in players.items():
        if unknown := [cid for cid in owned if cid not in ids]:
            raise ValueError(f"player link {name!r} names unknown combatants {unknown}")
    return players


async def issue_links(access, encounter: str, state: Encounter, players: dict[str, list[str]], base_url: str) -> dict:
    """A new fight's answer: its id, its seed's hash and its links (the GM's, a spectator's, one a player)."""
    link = lambda token: f"{base_url}e/{encounter}?token={token}"  # noqa: E731
    return {
        "id": encounter,
        "seed_hash": state.seed_hash,
        "links": {
            "gm": link(await access.issue(encounter, "gm", name="GM")),
            "spectator": link(await access.issue(encounter, "spectator", name="spectator")),
            "players": {name: link(await access.issue(encounter, "player", tuple(owned), name=name)) for name, owned in players.items()},
        },
    }


async def json_body(request: Request, kind: type, what: str):
    """The request's JSON body as `kind`, or the response refusing it (too large, not valid)."""
    raw = await read_body(request)
    if raw is None:
        return too_large(request)
    try:
        body: object = msgspec.json.decode(raw or b"{}", type=kind)
    except msgspec.DecodeError as e:
        return error(400, "request/invalid", f"the {what} is not valid: {e}")
    except RecursionError:
        return error(400, "request/invalid", f"the {what} nests too deeply")
    if (where := protocol.unplain(body)) is not None:
        return error(400, protocol.BAD_TEXT, f"the {what}'s {protocol.bad_text(where)}")
    return body


FORWARDING = ("forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip")


def forwarded(request: Request) -> bool:
    """Did the request come through a proxy or a tunnel (one on this machine included)? It says so in these headers."""
    return any(name in request.headers for name in FORWARDING)


async def create(request: Request) -> Response:
    presented = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if (why := request.app.state.access.creation_refused(presented, forwarded(request))) is not None:
        return error(403, "auth/admin-key", why)
    body = await json_body(request, CreateBody, "encounter description")
    if isinstance(body, Response):
        return body
    try:
        made = await create_encounter(request.app, body, base_url(request))
    except ValueError as e:
        return error(400, "request/invalid", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse(made, status_code=201, headers=SECURITY_HEADERS)


async def gm_room(request: Request):
    """The encounter's room, for the GM; or the response refusing the request (not the GM,
    no such encounter, the store away)."""
    encounter = request.path_params["id"]
    if isinstance(claims := await gm_claims(request), Response):
        return claims
    try:
        room = await request.app.state.hub.room(encounter)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    except UnknownVersion as e:
        return error(409, e.code, str(e))
    if room is None:
        return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    return room


async def encounter_digest(request: Request) -> Response:
    """GM only: the hash of this replica's live state, to compare replicas and replays."""
    if isinstance(room := await gm_room(request), Response):
        return room
    digest = hashlib.sha256(canonical(room.state)).hexdigest()
    return JSONResponse({"position": room.position, "seq": room.state.seq, "sha256": digest}, headers=SECURITY_HEADERS)


async def links(request: Request) -> Response:
    """GM only. GET: every invite link of the encounter; POST: issue a new one."""
    encounter = request.path_params["id"]
    if isinstance(claims := await gm_claims(request), Response):
        return claims
    access = request.app.state.access
    link = lambda token: f"{base_url(request)}e/{encounter}?token={token}"  # noqa: E731
    try:
        if request.method == "GET":
            listed = await access.links(encounter)
            for item in listed:
                item["link"] = link(item.pop("token"))
            return JSONResponse({"links": listed}, headers=SECURITY_HEADERS)
        body = await json_body(request, LinkBody, "link description")
        if isinstance(body, Response):
            return body
        if body.role not in ROLES or body.role == "gm":
            return error(400, "request/invalid", "a new link's role is 'player' or 'spectator'")
        if len(body.name) > 60 or not 0 <= body.ttl <= 366 * 86400:
            return error(400, "request/invalid", "a link's name is at most 60 characters and its ttl 0 to 31622400 seconds")
        room = await request.app.state.hub.room(encounter)
        if room is None:
            return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
        known = {c.id for c in room.state.combatants}
        if body.role == "spectator" and body.combatants:
            return error(400, "request/invalid", "a spectator link controls no combatants")
        if unknown := [cid for cid in body.combatants if cid not in known]:
            return error(400, "request/invalid", f"the link names unknown combatants {unknown}")
        # Not read back through verify(): a link of ttl 1 may have expired by then (a 500 it was).
        made = await access.issue_claims(encounter, body.role, tuple(body.combatants), body.name, body.ttl)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    token = access.signer.sign(made)
    return JSONResponse(
        {"token_id": made.i, "role": made.r, "name": made.n, "combatants": list(made.c), "expires": made.x, "revoked": False, "link": link(token)},
        status_code=201,
        headers=SECURITY_HEADERS,
    )


async def revoke(request: Request) -> Response:
    """GM only: revoke a player or spectator link; its open sockets are closed."""
    encounter, token_id = request.path_params["id"], request.path_params["token_id"]
    if isinstance(claims := await gm_claims(request), Response):
        return claims
    access = request.app.state.access
    try:
        listed = {item["token_id"]: item for item in await access.links(encounter)}
        if token_id not in listed:
            return error(404, "link/unknown", f"this encounter has no link {token_id[:40]!r}")
        if listed[token_id]["role"] == "gm":
            return error(400, "link/is-gm", "the GM's own link cannot be revoked")
        await access.revoke(encounter, token_id)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"token_id": token_id, "revoked": True}, headers=SECURITY_HEADERS)


async def export_stream(request: Request) -> Response:
    """GM only (GET .../export?format=jsonl): the raw stream, one JSON line an event (server/archive.py)."""
    from . import archive

    encounter = request.path_params["id"]
    if isinstance(room := await gm_room(request), Response):
        return room
    origin = room.state.origin
    if origin is not None and origin.veil >= 0:  # a fork from a player's or spectator's link (server/forks.py)
        return error(403, "export/veiled", f"this fork's first {origin.veil + 1} events are another GM's fight: its raw stream is not yours to export")
    lines = archive.export_lines(request.app.state.store, encounter)
    try:
        first = await anext(lines)  # a missing fight or an unreachable store is said before the 200
    except archive.ArchiveError as e:
        return error(404, "encounter/unknown", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))

    async def body():
        yield first
        async for line in lines:
            yield line

    safe = "".join(c for c in encounter if c.isalnum() or c in "-_")[:40] or "encounter"
    return StreamingResponse(
        body(),
        media_type="application/x-ndjson",
        headers={**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="fray-{safe}.jsonl"', "Cache-Control": "no-store"},
    )


async def delete_encounter(request: Request) -> Response:
    """GM only: delete a fight that is not running (ended, or never started), every key of it."""
    from . import archive

    encounter = request.path_params["id"]
    if isinstance(room := await gm_room(request), Response):
        return room
    if room.state.status == "running":
        return error(409, "encounter/running", "this fight is still running: end it before deleting it")
    try:
        await archive.delete_fight(request.app, encounter, "the GM deleted this fight")
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"id": encounter, "deleted": True}, headers=SECURITY_HEADERS)


# --- every refusal under /api is {code, message} ------------------------------------

HTTP_CODES = {404: "api/not-found", 405: "api/method-not-allowed"}


async def http_error(request: Request, exc: HTTPException) -> Response:
    """Starlette's own refusals (no such route, a method the route does not take):
    JSON under /api, as every other answer there; plain text elsewhere."""
    headers = dict(exc.headers or {})
    if not request.url.path.startswith("/api/"):
        return PlainTextResponse(exc.detail, status_code=exc.status_code, headers=headers)
    if exc.status_code == 405:
        message = f"{request.method} is not allowed here; this route takes {headers.get('Allow', 'other methods')}"
    elif exc.status_code == 404:
        message = f"there is no API route {request.url.path[:80]!r} (the routes are in docs/protocol.md)"
    else:
        message = exc.detail
    code = HTTP_CODES.get(exc.status_code, f"http/{exc.status_code}")
    return JSONResponse({"code": code, "message": message}, status_code=exc.status_code, headers={**SECURITY_HEADERS, **headers})


async def server_error(request: Request, exc: Exception) -> Response:
    if request.url.path.startswith("/api/"):
        return error(500, "server/internal", "the server failed to answer that request (a bug, logged)")
    return PlainTextResponse("Internal Server Error", status_code=500)
