"""The Starlette app: HTTP API, invite pages, and the encounter websocket.

Thin: it checks who may send what and that it is well formed, appends to the
store, and leaves every game decision to the reducer.
"""

import asyncio
import contextlib
import hashlib
import logging
import os
import pathlib
import secrets
import time

import msgspec
import redis.asyncio as aioredis
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import client_web
from rules import RULES_VERSION
from rules.commands import AddCombatant, CreateEncounter, Undo
from rules.errors import Rejected
from rules.events import Actor, Event, encode_event
from rules.model import Combatant
from rules.profiles import PROFILES, validate_options
from rules.reducer import apply, canonical, check
from rules.view import log_for
from server import demo, protocol, replay, undo
from server.hub import Client, Hub
from server.limits import Limits, RateGuard
from server.security import Access, SecurityHeaders, TooManySockets
from server.store import RedisStore, StoreUnavailable, position_key
from server.tokens import ROLES, BadToken, Signer

log = logging.getLogger("fray.app")
CLIENT_DIR = pathlib.Path(client_web.__file__).parent
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    profile: str = "holmes-phases"
    options: dict[str, int | bool | str] = {}
    combatants: list[Combatant] | None = None  # None: the demo fight
    players: dict[str, list[str]] | None = None  # link name -> combatant ids; default: one per combatant of the first side


class LinkBody(msgspec.Struct, forbid_unknown_fields=True):
    role: str  # 'player' | 'spectator'
    name: str = ""
    combatants: list[str] = []  # a player's
    ttl: int = 0  # seconds until the link expires; 0: never


def error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status, headers=SECURITY_HEADERS)


async def load_secret(redis_url: str) -> bytes:
    """FRAY_SECRET, or one generated once and kept in Redis (so in the data folder,
    and shared by every replica on that Redis)."""
    if env := os.environ.get("FRAY_SECRET"):
        return env.encode()
    client = aioredis.from_url(redis_url)
    try:
        await client.set("fray:secret", secrets.token_hex(32), nx=True)
        return await client.get("fray:secret")
    finally:
        await client.aclose()


def create_app(redis_url: str, *, on_ready=None, limits: Limits = Limits(), admin_key: str = "",
               loopback: bool = True, origins: tuple[str, ...] = ()) -> Starlette:
    """`loopback`: the server listens on loopback only (creation is then open without an admin key)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        store = RedisStore(redis_url)
        await store.start()
        app.state.store = store
        app.state.signer = Signer(await load_secret(redis_url))
        app.state.limits = limits
        app.state.access = Access(redis_url, app.state.signer, limits=limits, admin_key=admin_key, loopback=loopback, origins=origins)
        await app.state.access.start()
        app.state.hub = Hub(store)
        await app.state.hub.start()
        if on_ready is not None:
            await on_ready(app)
        try:
            yield
        finally:
            await app.state.hub.stop()
            await app.state.access.close()
            await store.close()

    routes = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/api/encounters", create, methods=["POST"]),
        Route("/api/encounters/{id}/log", encounter_log),
        Route("/api/encounters/{id}/digest", encounter_digest),
        Route("/api/encounters/{id}/links", links, methods=["GET", "POST"]),
        Route("/api/encounters/{id}/links/{token_id}/revoke", revoke, methods=["POST"]),
        Route("/api/profiles", profiles),
        Route("/api/encounters/{id}/replay", replay.replay_endpoint),
        Route("/api/encounters/{id}/export", replay.export_endpoint),
        Route("/e/{id}", page),
        WebSocketRoute("/ws/encounters/{id}", encounter_socket),
        Mount("/static", StaticFiles(directory=CLIENT_DIR), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders, headers=SECURITY_HEADERS)])


async def index(request: Request) -> Response:
    return JSONResponse(
        {"fray": "combat encounter server", "create": "POST /api/encounters", "docs": "README.md"},
        headers=SECURITY_HEADERS,
    )


async def profiles(request: Request) -> Response:
    """The rule profiles and their options, as data: the GM console builds its form from them."""
    return Response(msgspec.json.encode(PROFILES), media_type="application/json", headers=SECURITY_HEADERS)


async def healthz(request: Request) -> Response:
    try:
        await request.app.state.store.list_encounters()
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"ok": True}, headers=SECURITY_HEADERS)


async def page(request: Request) -> Response:
    return FileResponse(CLIENT_DIR / "index.html", headers=SECURITY_HEADERS)


async def create_encounter(app, body: CreateBody, base_url: str) -> dict:
    store, access = app.state.store, app.state.access
    validate_options(body.profile, body.options)
    encounter = secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
    combatants = demo.combatants() if body.combatants is None else body.combatants
    system = Actor("system", "server")
    events = [Event("create", system, CreateEncounter(
        id=encounter, profile=body.profile, seed=secrets.token_bytes(32), rules_version=RULES_VERSION, options=body.options
    ), at=int(time.time() * 1000))]
    events += [Event(f"add-{i}", Actor("gm", "setup"), AddCombatant(c)) for i, c in enumerate(combatants)]
    state = None  # fold the setup here first: nothing is stored unless all of it is valid
    for event in events:
        if state is not None and (rejected := check(state, event)) is not None:
            raise ValueError(f"combatant {event.command.combatant.name!r}: {rejected.message}")
        state = apply(state, event)
    for event in events:
        await store.append(encounter, event.id, encode_event(event))
    await store.set_meta(encounter, {"created": str(int(time.time())), "profile": body.profile})
    ids = [c.id for c in state.combatants]
    if body.players is None:
        first = state.combatants[0].side if state.combatants else ""
        players = {c.id: [c.id] for c in state.combatants if c.side == first}
    else:
        players = body.players
        for name, owned in players.items():
            unknown = [cid for cid in owned if cid not in ids]
            if unknown:
                raise ValueError(f"player link {name!r} names unknown combatants {unknown}")
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


async def read_body(request: Request) -> bytes | None:
    """The request body, or None once it is over the limit (read no further)."""
    limit = request.app.state.limits.body_bytes
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def too_large(request: Request) -> Response:
    return error(413, "request/too-large", f"the body is over {request.app.state.limits.body_bytes} bytes")


async def create(request: Request) -> Response:
    presented = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if (why := request.app.state.access.creation_refused(presented)) is not None:
        return error(403, "auth/admin-key", why)
    raw = await read_body(request)
    if raw is None:
        return too_large(request)
    try:
        body = msgspec.json.decode(raw or b"{}", type=CreateBody)
    except msgspec.DecodeError as e:
        return error(400, "request/invalid", f"the encounter description is not valid: {e}")
    except RecursionError:
        return error(400, "request/invalid", "the encounter description nests too deeply")
    try:
        made = await create_encounter(request.app, body, str(request.base_url))
    except ValueError as e:
        return error(400, "request/invalid", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse(made, status_code=201, headers=SECURITY_HEADERS)


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


async def encounter_log(request: Request) -> Response:
    encounter = request.path_params["id"]
    try:
        claims = await claims_of(request.app, encounter, request.query_params.get("token"))
        room = await request.app.state.hub.fold_from_scratch(encounter)
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    if room is None:
        return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    entries = log_for([e for _, e in room.log], room.state, claims.viewer())
    return Response(protocol.encoder.encode(entries), media_type="application/json", headers=SECURITY_HEADERS)


async def encounter_digest(request: Request) -> Response:
    """GM only: the hash of this replica's live state, to compare replicas and replays."""
    encounter = request.path_params["id"]
    if isinstance(claims := await gm_claims(request), Response):
        return claims
    try:
        room = await request.app.state.hub.room(encounter)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    if room is None:
        return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    digest = hashlib.sha256(canonical(room.state)).hexdigest()
    return JSONResponse({"position": room.position, "seq": room.state.seq, "sha256": digest}, headers=SECURITY_HEADERS)


async def links(request: Request) -> Response:
    """GM only. GET: every invite link of the encounter; POST: issue a new one."""
    encounter = request.path_params["id"]
    if isinstance(claims := await gm_claims(request), Response):
        return claims
    access = request.app.state.access
    link = lambda token: f"{request.base_url}e/{encounter}?token={token}"  # noqa: E731
    try:
        if request.method == "GET":
            listed = await access.links(encounter)
            for item in listed:
                item["link"] = link(item.pop("token"))
            return JSONResponse({"links": listed}, headers=SECURITY_HEADERS)
        raw = await read_body(request)
        if raw is None:
            return too_large(request)
        try:
            body = msgspec.json.decode(raw or b"{}", type=LinkBody)
        except msgspec.DecodeError as e:
            return error(400, "request/invalid", f"the link description is not valid: {e}")
        except RecursionError:
            return error(400, "request/invalid", "the link description nests too deeply")
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
        token = await access.issue(encounter, body.role, tuple(body.combatants), body.name, body.ttl)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    made = access.signer.verify(token, encounter)
    return JSONResponse({"token_id": made.i, "role": made.r, "name": made.n, "combatants": list(made.c),
                         "expires": made.x, "revoked": False, "link": link(token)}, status_code=201, headers=SECURITY_HEADERS)


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


def error_text(code: str, message: str, id: str = "") -> str:
    return protocol.encoder.encode(protocol.Error(code=code, message=message, id=id)).decode()


async def encounter_socket(ws: WebSocket) -> None:
    app = ws.app
    access: Access = app.state.access
    encounter = ws.path_params["id"]
    await ws.accept()
    if not access.origin_allowed(ws.headers.get("origin"), ws.headers.get("host")):
        await refuse(ws, "auth/origin", f"websocket connections from {ws.headers.get('origin', '')[:60]!r} are not allowed", 4403)
        return
    after = ws.query_params.get("after") or "0-0"
    try:
        position_key(after)
    except ValueError:
        await refuse(ws, "protocol/bad-position", f"'after' must be a stream position like 1795958387706-0, not {after[:40]!r}", 4400)
        return
    try:
        claims = await claims_of(app, encounter, ws.query_params.get("token"))
        room = await app.state.hub.room(encounter)
    except BadToken as e:
        await refuse(ws, "auth/bad-token", str(e), 4401)
        return
    except StoreUnavailable as e:
        await refuse(ws, "store/unavailable", str(e), 1013)
        return
    if room is None:
        await refuse(ws, "encounter/unknown", f"there is no encounter {encounter!r}", 4404)
        return

    async def close_revoked(reason: str) -> None:
        with contextlib.suppress(Exception):  # the socket may be gone already, or not reading
            await asyncio.wait_for(refuse(ws, "auth/revoked", reason, 4403), 2.0)

    try:
        seat = access.sit(claims, close_revoked)
    except TooManySockets as e:
        await refuse(ws, "limit/sockets", str(e), 4429)
        return
    viewer = claims.viewer()
    client = Client(viewer, ws.send_text, ws.close)
    client.push(room.welcome(viewer, after))
    app.state.hub.join(room, client)
    by = Actor(role=claims.r, name=claims.n, combatants=claims.c)
    guard = RateGuard(app.state.limits)
    last_ack = "0-0"
    try:
        while not seat.revoked:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            if seat.revoked:
                break
            if not guard.admit():
                if guard.exhausted:
                    await refuse(ws, "rate/limited", f"too many messages (over {app.state.limits.rate:g} a second); closing", 1008)
                    break
                client.push(error_text("rate/limited", f"too many messages: at most {app.state.limits.rate:g} a second; this one was dropped"))
                continue
            text = message.get("text")
            if text is None:
                client.push(error_text("protocol/binary", "send JSON in text frames, not binary frames"))
                continue
            reply = await handle(app, room, by, claims.i, text, last_ack)
            if isinstance(reply, protocol.Ack):
                last_ack = reply.position
            client.push(protocol.encoder.encode(reply).decode())
    except WebSocketDisconnect:
        pass
    finally:
        access.leave(seat)
        await app.state.hub.leave(room, client)


async def refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.send_text(error_text(code, message))
    await ws.close(close_code, message.encode()[:120].decode(errors="ignore"))


async def handle(app, room, by: Actor, token_id: str, text: str, last_ack: str = "0-0") -> protocol.Message:
    """One client message -> its answer. `last_ack`: the position of this
    connection's last acknowledged command."""
    try:
        message = protocol.client_decoder.decode(text)
    except msgspec.ValidationError as e:
        return protocol.Error(code="protocol/invalid", message=f"that message is not valid: {e}")
    except msgspec.DecodeError as e:
        return protocol.Error(code="protocol/bad-json", message=f"that message is not JSON: {e}")
    except RecursionError:
        return protocol.Error(code="protocol/too-deep", message="that message nests arrays or objects too deeply")
    if isinstance(message, protocol.Ping):
        return protocol.Pong(id=message.id)
    if not message.id or len(message.id) > 100:
        return protocol.Error(code="protocol/bad-id", message="a command needs an id of 1 to 100 characters")
    if "system" in message.command.roles:  # create, restore: the server alone writes them
        tag = message.command.__struct_config__.tag
        return protocol.Error(id=message.id, code="auth/forbidden", message=f"a {by.role} may not send '{tag}': only the server writes it")
    event = Event(id=f"{token_id}.{message.id}", by=by, command=message.command, at=int(time.time() * 1000))
    if (seen := room.seen.get(event.id)) is not None:
        return protocol.Ack(id=message.id, position=seen, duplicate=True)
    try:
        rejected = check(room.state, event)
        if rejected is not None and position_key(room.position) < position_key(last_ack):
            # Refused by a state that does not yet hold this sender's own last
            # command (a quick 'start' then 'declare'): wait for it, then judge again.
            # Waiting only then keeps a pipelining client's commands flowing.
            await room.reached(last_ack)
            rejected = check(room.state, event)
    except Exception:  # a bug in a rule's check: refuse the command, keep the connection
        log.exception("checking %s failed", message.command)
        return protocol.Error(id=message.id, code="server/internal", message="the server could not check that command (a bug, logged)")
    if rejected is not None:
        return protocol.Error(id=message.id, code=rejected.code, message=rejected.message)
    if isinstance(event.command, Undo):  # stored as the restore computed for it (server/undo.py)
        try:
            event = await undo.compensate(app.state.store, room.id, event)
        except Rejected as r:
            return protocol.Error(id=message.id, code=r.code, message=r.message)
        except StoreUnavailable as e:
            return protocol.Error(id=message.id, code="store/unavailable", message=str(e))
        except Exception:
            log.exception("undoing with %s failed", message.command)
            return protocol.Error(id=message.id, code="server/internal", message="the server could not compute that undo (a bug, logged)")
    try:
        payload = encode_event(event)
    except (OverflowError, ValueError) as e:  # JSON ints are unbounded; the stream's msgpack is 64-bit
        return protocol.Error(id=message.id, code="protocol/invalid", message=f"a number in that command is out of range: {e}")
    try:
        position, created = await app.state.store.append(room.id, event.id, payload)
    except StoreUnavailable as e:
        return protocol.Error(id=message.id, code="store/unavailable", message=str(e))
    return protocol.Ack(id=message.id, position=position, duplicate=not created)
