"""The Starlette app: HTTP API, invite pages, and the encounter websocket.

Thin: it checks who may send what and that it is well formed, appends to the
store, and leaves every game decision to the reducer.
"""

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
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import client_web
from rules import RULES_VERSION
from rules.commands import AddCombatant, CreateEncounter
from rules.events import Actor, Event, encode_event
from rules.model import Combatant
from rules.profiles import validate_options
from rules.reducer import apply, canonical, check
from rules.view import log_for
from server import demo, protocol
from server.hub import Client, Hub
from server.store import RedisStore, StoreUnavailable
from server.tokens import BadToken, Signer

log = logging.getLogger("fray.app")
CLIENT_DIR = pathlib.Path(client_web.__file__).parent
MAX_BODY = 256 * 1024
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


def create_app(redis_url: str, *, on_ready=None) -> Starlette:
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        store = RedisStore(redis_url)
        await store.start()
        app.state.store = store
        app.state.signer = Signer(await load_secret(redis_url))
        app.state.hub = Hub(store)
        await app.state.hub.start()
        if on_ready is not None:
            await on_ready(app)
        try:
            yield
        finally:
            await app.state.hub.stop()
            await store.close()

    routes = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/api/encounters", create, methods=["POST"]),
        Route("/api/encounters/{id}/log", encounter_log),
        Route("/api/encounters/{id}/digest", encounter_digest),
        Route("/e/{id}", page),
        WebSocketRoute("/ws/encounters/{id}", encounter_socket),
        Mount("/static", StaticFiles(directory=CLIENT_DIR), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def index(request: Request) -> Response:
    return JSONResponse(
        {"fray": "combat encounter server", "create": "POST /api/encounters", "docs": "README.md"},
        headers=SECURITY_HEADERS,
    )


async def healthz(request: Request) -> Response:
    try:
        await request.app.state.store.list_encounters()
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"ok": True})


async def page(request: Request) -> Response:
    return FileResponse(CLIENT_DIR / "index.html", headers=SECURITY_HEADERS)


async def create_encounter(app, body: CreateBody, base_url: str) -> dict:
    store, signer = app.state.store, app.state.signer
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
            "gm": link(signer.issue(encounter, "gm", name="GM")),
            "spectator": link(signer.issue(encounter, "spectator", name="spectator")),
            "players": {name: link(signer.issue(encounter, "player", tuple(owned), name=name)) for name, owned in players.items()},
        },
    }


async def create(request: Request) -> Response:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        return error(413, "request/too-large", f"the body is over {MAX_BODY} bytes")
    try:
        body = msgspec.json.decode(raw or b"{}", type=CreateBody)
    except msgspec.DecodeError as e:
        return error(400, "request/invalid", f"the encounter description is not valid: {e}")
    try:
        made = await create_encounter(request.app, body, str(request.base_url))
    except ValueError as e:
        return error(400, "request/invalid", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse(made, status_code=201, headers=SECURITY_HEADERS)


def claims_of(app, encounter: str, token: str | None):
    if not token:
        raise BadToken("an invite token is needed (the ?token= of your link)")
    return app.state.signer.verify(token, encounter)


async def encounter_log(request: Request) -> Response:
    encounter = request.path_params["id"]
    try:
        claims = claims_of(request.app, encounter, request.query_params.get("token"))
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    room = await request.app.state.hub.fold_from_scratch(encounter)
    if room is None:
        return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    entries = log_for([e for _, e in room.log], room.state, claims.viewer())
    return Response(protocol.encoder.encode(entries), media_type="application/json", headers=SECURITY_HEADERS)


async def encounter_digest(request: Request) -> Response:
    """GM only: the hash of this replica's live state, to compare replicas and replays."""
    encounter = request.path_params["id"]
    try:
        claims = claims_of(request.app, encounter, request.query_params.get("token"))
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    if claims.r != "gm":
        return error(403, "auth/forbidden", "only the GM may read the state digest")
    try:
        room = await request.app.state.hub.room(encounter)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    if room is None:
        return error(404, "encounter/unknown", f"there is no encounter {encounter!r}")
    digest = hashlib.sha256(canonical(room.state)).hexdigest()
    return JSONResponse({"position": room.position, "seq": room.state.seq, "sha256": digest}, headers=SECURITY_HEADERS)


async def encounter_socket(ws: WebSocket) -> None:
    app = ws.app
    encounter = ws.path_params["id"]
    await ws.accept()
    try:
        claims = claims_of(app, encounter, ws.query_params.get("token"))
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
    viewer = claims.viewer()
    client = Client(viewer, ws.send_text, ws.close)
    client.push(room.welcome(viewer, ws.query_params.get("after") or "0-0"))
    app.state.hub.join(room, client)
    by = Actor(role=claims.r, name=claims.n, combatants=claims.c)
    last_ack = "0-0"
    try:
        while True:
            text = await ws.receive_text()
            await room.reached(last_ack)
            reply = await handle(app, room, by, claims.i, text)
            if isinstance(reply, protocol.Ack):
                last_ack = reply.position
            client.push(protocol.encoder.encode(reply).decode())
    except WebSocketDisconnect:
        pass
    finally:
        await app.state.hub.leave(room, client)


async def refuse(ws: WebSocket, code: str, message: str, close_code: int) -> None:
    await ws.send_text(protocol.encoder.encode(protocol.Error(code=code, message=message)).decode())
    await ws.close(close_code, message[:120])


async def handle(app, room, by: Actor, token_id: str, text: str) -> protocol.Message:
    try:
        message = protocol.client_decoder.decode(text)
    except msgspec.ValidationError as e:
        return protocol.Error(code="protocol/invalid", message=f"that message is not valid: {e}")
    except msgspec.DecodeError:
        return protocol.Error(code="protocol/bad-json", message="that message is not JSON")
    if isinstance(message, protocol.Ping):
        return protocol.Pong(id=message.id)
    if not message.id or len(message.id) > 100:
        return protocol.Error(code="protocol/bad-id", message="a command needs an id of 1 to 100 characters")
    event = Event(id=f"{token_id}.{message.id}", by=by, command=message.command, at=int(time.time() * 1000))
    if (seen := room.seen.get(event.id)) is not None:
        return protocol.Ack(id=message.id, position=seen, duplicate=True)
    if (rejected := check(room.state, event)) is not None:
        return protocol.Error(id=message.id, code=rejected.code, message=rejected.message)
    try:
        position, created = await app.state.store.append(room.id, event.id, encode_event(event))
    except StoreUnavailable as e:
        return protocol.Error(id=message.id, code="store/unavailable", message=str(e))
    return protocol.Ack(id=message.id, position=position, duplicate=not created)
