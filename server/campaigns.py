"""A campaign over HTTP: create one, read it as your link sees it, send it commands, and
the GM's player links. JSON in and out; every refusal is `{code, message}`. The campaign
is folded from its stream for each request (a campaign is small), so every replica
answers alike. Its links are signed like a fight's (server/tokens.py) and kept under
the campaign's hash tag (server/security.py); a player's link names their characters."""

import hashlib
import time

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..rules.campaign.commands import AddCharacter, Command, CreateCampaign, SetMonster
from ..rules.campaign.events import CampaignEvent, decode_event, encode_event
from ..rules.campaign.reducer import apply, canonical, folded_log
from ..rules.campaign.sheet import Character
from ..rules.campaign.state import Campaign, Finding
from ..rules.campaign.view import log_for, view
from ..rules.commands import SYSTEM
from ..rules.events import Actor
from ..rules.model import Combatant
from ..rules.ready import READY, combatant
from ..rules.ruleset import installed
from .api import SECURITY_HEADERS, base_url, error, forwarded, json_body
from .campaign_store import is_campaign_id, new_campaign_id
from .store import StoreUnavailable
from .tokens import BadToken, Claims


class CreateBody(msgspec.Struct, forbid_unknown_fields=True):
    name: str = "A campaign"
    profile: str = "ll-house"  # 000's lasting harm is what a campaign carries
    characters: list[Character] = []
    bestiary: list[Combatant] | None = None  # None: the ready monsters (rules/ready.py)


def seeded() -> list[SetMonster]:
    """The bestiary a campaign starts with: the ready monsters the GM console offers, the
    demo's and the docs' scenarios' among them (rules/ready.py), with their morale."""
    return [SetMonster(combatant(m), morale=m.morale) for m in READY]


class CommandBody(msgspec.Struct, forbid_unknown_fields=True):
    id: str  # the command id: a retry with the same id is taken once
    command: Command


class LinkBody(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    characters: list[str]


class Loaded(msgspec.Struct):
    state: Campaign
    log: list
    position: str


class Unreadable(Exception):
    """A campaign of a newer release's (its rules version, or an event this code cannot
    read): not folded here, as a fight is not (server/hub.py's UnknownVersion)."""


async def load(app, campaign: str) -> Loaded | None:
    stored = await app.state.campaigns.read(campaign)
    if not stored:
        return None
    try:
        events = [decode_event(payload) for _, payload in stored]
    except msgspec.ValidationError:
        raise Unreadable(f"campaign {campaign} holds an event this server cannot read (a newer release's): ask another") from None
    first = events[0].command
    if isinstance(first, CreateCampaign) and first.rules_version > app.state.rules_version:
        raise Unreadable(f"campaign {campaign} is kept under rules version {first.rules_version}; this server knows versions up to {app.state.rules_version}")
    state, log = folded_log(events)
    assert state is not None
    return Loaded(state, log, stored[-1][0])


def actor_of(claims: Claims) -> Actor:
    return Actor(claims.r, claims.n, claims.c if claims.r == "player" else ())


def link(request: Request, campaign: str, token: str) -> str:
    return f"{base_url(request)}c/{campaign}?token={token}"


async def seat(request: Request, gm: bool = False):
    """(claims, loaded campaign), or the response refusing the request."""
    campaign = request.path_params["id"]
    if not is_campaign_id(campaign):
        return error(404, "campaign/unknown", f"there is no campaign {campaign!r}")
    try:
        claims = await request.app.state.access.claims(campaign, request.query_params.get("token"))
        loaded = await load(request.app, campaign)
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    except Unreadable as e:
        return error(409, "rules/unknown-version", str(e))
    if gm and claims.r != "gm":
        return error(403, "auth/forbidden", "only the GM may do that")
    if loaded is None:
        return error(404, "campaign/unknown", f"there is no campaign {campaign!r}")
    return claims, loaded


def seen(claims: Claims, loaded: Loaded) -> dict:
    """The campaign as the link sees it, its lines, and the stream position it reflects;
    the GM's with the hash of its canonical bytes (to compare replicas and imports)."""
    who = claims.c if claims.r == "player" else ()
    digest = {"sha256": hashlib.sha256(canonical(loaded.state)).hexdigest()} if claims.r == "gm" else {}
    return {**view(loaded.state, claims.r, who), "log": log_for(loaded.log, claims.r, who), "position": loaded.position, **digest}


async def create(request: Request) -> Response:
    presented = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if (why := request.app.state.access.creation_refused(presented, forwarded(request))) is not None:
        return error(403, "auth/admin-key", why)
    body = await json_body(request, CreateBody, "campaign description")
    if isinstance(body, Response):
        return body
    if body.profile not in installed() or not 1 <= len(body.name) <= 80:
        return error(400, "request/invalid", f"a campaign needs a name of 1-80 characters and an installed profile, not {body.profile!r}")
    campaign, now = new_campaign_id(), int(time.time() * 1000)
    events = [CampaignEvent("create", Actor("system", "server"), CreateCampaign(campaign, body.name, body.profile, request.app.state.rules_version), at=now)]
    events += [CampaignEvent(f"add-{i}", Actor("gm", "setup"), AddCharacter(c), at=now) for i, c in enumerate(body.characters)]
    monsters = seeded() if body.bestiary is None else [SetMonster(m) for m in body.bestiary]
    events += [CampaignEvent(f"monster-{i}", Actor("gm", "setup"), m, at=now) for i, m in enumerate(monsters)]
    state = None
    for e in events:  # folded here first: nothing is stored unless all of it is taken
        state = apply(state, e)
        if state.recent and state.recent[0].kind == "rejected":
            return error(400, state.recent[0].code or "request/invalid", state.recent[0].text)
    assert state is not None
    try:
        for e in events:
            await request.app.state.campaigns.append(campaign, e.id, encode_event(e))
        access = request.app.state.access
        owners: dict[str, list[str]] = {}
        for c in state.characters:
            owners.setdefault(c.owner or c.sheet.name, []).append(c.id)
        links = {
            "gm": link(request, campaign, await access.issue(campaign, "gm", name="GM")),
            "players": {name: link(request, campaign, await access.issue(campaign, "player", tuple(ids), name=name)) for name, ids in owners.items()},
        }
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"id": campaign, "links": links}, status_code=201, headers=SECURITY_HEADERS)


async def read(request: Request) -> Response:
    if isinstance(got := await seat(request), Response):
        return got
    return JSONResponse(seen(*got), headers=SECURITY_HEADERS)


async def command(request: Request) -> Response:
    """A command from a link: refused at once if the reducer would refuse it now (nothing is
    stored), else appended; the answer is the campaign as the link now sees it."""
    if isinstance(got := await seat(request), Response):
        return got
    claims, loaded = got
    body = await json_body(request, CommandBody, "command")
    if isinstance(body, Response):
        return body
    if body.command.roles == SYSTEM or not 1 <= len(body.id) <= 64:
        return error(400, "request/invalid", "that command is the server's own, or the command id is not 1-64 characters")
    event = CampaignEvent(body.id, actor_of(claims), body.command, at=int(time.time() * 1000))
    done = await submit(request, loaded, event)
    if isinstance(done, Response):
        return done
    position, _, now = done
    return JSONResponse({"ack": position, **seen(claims, now)}, headers=SECURITY_HEADERS)


async def submit(request: Request, loaded: Loaded, event: CampaignEvent) -> tuple[str, Campaign, Loaded] | Response:
    """Judge `event` against the campaign as loaded (409 if the reducer refuses it: nothing is
    stored), append it, and read the campaign again: (its position, the state it made, the
    campaign now), or the response refusing it."""
    after = apply(loaded.state, event)
    if after.recent and after.recent[0].kind == "rejected":
        return error(409, after.recent[0].code or "campaign/rejected", after.recent[0].text)
    campaign = request.path_params["id"]
    try:
        position, _ = await request.app.state.campaigns.append(campaign, event.id, encode_event(event))
        now = await load(request.app, campaign)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    assert now is not None
    return position, after, now


async def links(request: Request) -> Response:
    """GM only. GET: the campaign's links; POST {name, characters}: a new player link."""
    if isinstance(got := await seat(request, gm=True), Response):
        return got
    campaign, access = request.path_params["id"], request.app.state.access
    try:
        if request.method == "GET":
            listed = await access.links(campaign)
            for item in listed:
                item["link"] = link(request, campaign, item.pop("token"))
                item["characters"] = item.pop("combatants")
            return JSONResponse({"links": listed}, headers=SECURITY_HEADERS)
        body = await json_body(request, LinkBody, "link description")
        if isinstance(body, Response):
            return body
        known = {c.id for c in got[1].state.characters}
        if not body.characters or (unknown := [c for c in body.characters if c not in known]) or not 1 <= len(body.name) <= 60:
            return error(
                400, "request/invalid", f"a player link names 1-60 characters of name and known characters (unknown: {unknown if body.characters else []})"
            )
        token = await access.issue(campaign, "player", tuple(body.characters), name=body.name)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"name": body.name, "characters": body.characters, "link": link(request, campaign, token)}, status_code=201, headers=SECURITY_HEADERS)


async def revoke(request: Request) -> Response:
    """GM only: revoke a player's link to the campaign (the GM's own cannot be)."""
    if isinstance(got := await seat(request, gm=True), Response):
        return got
    campaign, token_id, access = request.path_params["id"], request.path_params["token_id"], request.app.state.access
    try:
        listed = {item["token_id"]: item for item in await access.links(campaign)}
        if token_id not in listed:
            return error(404, "link/unknown", f"this campaign has no link {token_id[:40]!r}")
        if listed[token_id]["role"] == "gm":
            return error(400, "link/is-gm", "the GM's own link cannot be revoked")
        await access.revoke(campaign, token_id)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"token_id": token_id, "revoked": True}, headers=SECURITY_HEADERS)


def schema() -> dict:
    """The JSON Schema of a campaign's commands, a character (the file a character is
    imported and exported as) and a finding: `fray schema --campaign`."""
    (command, character, finding), components = msgspec.json.schema_components([Command, Character, Finding], ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Fray campaign",
        "$defs": components,
        "properties": {"command": command, "character": character, "finding": finding},
    }
