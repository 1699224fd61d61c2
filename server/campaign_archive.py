"""A campaign's stream as a file, like a fight's (server/archive.py): a header line
`{"format": "fray-campaign", "version": 1, "campaign", "events", "exported"}`, then one
line per event, oldest first, `{"position", "event"}`. Importing checks the whole file
(shape, order, that it folds) before appending anything, under its own id or a new one."""

import hashlib
import time

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..rules.campaign.commands import AddCharacter, CreateCampaign
from ..rules.campaign.events import CampaignEvent, decode_event, encode_event
from ..rules.campaign.foundry import from_actor
from ..rules.campaign.reducer import apply
from .api import SECURITY_HEADERS, error, forwarded, read_body, too_large
from .campaign_store import is_campaign_id, new_campaign_id
from .campaigns import actor_of, link, seat, seen, submit
from .store import StoreUnavailable, position_key

FORMAT, VERSION = "fray-campaign", 1


class Header(msgspec.Struct, forbid_unknown_fields=True):
    format: str
    version: int
    campaign: str
    events: int = 0
    exported: int = 0


class Line(msgspec.Struct, forbid_unknown_fields=True):
    position: str
    event: CampaignEvent


_encode = msgspec.json.Encoder().encode
_header = msgspec.json.Decoder(Header)
_line = msgspec.json.Decoder(Line)


class ArchiveError(Exception):
    pass


async def export(request: Request) -> Response:
    """GM only: the campaign's stream as JSON lines."""
    if isinstance(got := await seat(request, gm=True), Response):
        return got
    campaign = request.path_params["id"]
    stored = await request.app.state.campaigns.read(campaign)
    lines = [_encode(Header(FORMAT, VERSION, campaign, len(stored), int(time.time() * 1000)))]
    lines += [_encode(Line(position, decode_event(payload))) for position, payload in stored]
    headers = {**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="{campaign}.jsonl"'}
    return Response(b"\n".join(lines) + b"\n", media_type="application/x-ndjson", headers=headers)


def parse(data: bytes, new_id: str = "") -> list[CampaignEvent]:
    """The file's events, checked whole; under `new_id` if given. ArchiveError names the first fault."""
    header: Header | None = None
    events: list[CampaignEvent] = []
    last, state = (0, -1), None
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            if header is None:
                header = _header.decode(raw)
                if (header.format, header.version) != (FORMAT, VERSION):
                    raise ArchiveError(f"line {number}: not a Fray campaign export ({header.format[:40]!r} version {header.version})")
                continue
            line = _line.decode(raw)
            position = position_key(line.position)
        except (msgspec.DecodeError, RecursionError, ValueError) as e:
            raise ArchiveError(f"line {number}: not a campaign export line: {e}") from None
        if position <= last:
            raise ArchiveError(f"line {number}: position {line.position} does not follow the one before it")
        event, first = line.event, not events
        if first != isinstance(event.command, CreateCampaign):
            raise ArchiveError(f"line {number}: the first event, and only it, creates the campaign")
        if first and new_id:
            event = msgspec.structs.replace(event, command=msgspec.structs.replace(event.command, id=new_id))
        try:
            state = apply(state, event)
        except Exception as e:  # a profile not installed here
            raise ArchiveError(f"line {number}: the campaign does not fold under this Fray's rules: {e}") from None
        last = position
        events.append(event)
    if not events:
        raise ArchiveError("the file holds no campaign")
    return events


async def import_campaign(request: Request) -> Response:
    """POST a file (as creation is allowed: server/security.py); `?as=campaign-...` for another id."""
    presented = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    if (why := request.app.state.access.creation_refused(presented, forwarded(request))) is not None:
        return error(403, "auth/admin-key", why)
    raw = await read_body(request)
    if raw is None:
        return too_large(request)
    new_id = request.query_params.get("as", "")
    if new_id and not is_campaign_id(new_id):
        return error(400, "request/invalid", "a campaign id is 'campaign-' and up to 64 letters or digits")
    try:
        events = parse(raw, new_id)
    except ArchiveError as e:
        return error(400, "campaign/bad-file", str(e))
    create = events[0].command
    assert isinstance(create, CreateCampaign)
    campaign = create.id
    if not is_campaign_id(campaign):
        campaign = new_campaign_id()
        events = parse(raw, campaign)
    store, access = request.app.state.campaigns, request.app.state.access
    try:
        if await store.read(campaign):
            return error(409, "campaign/exists", f"a campaign {campaign!r} already exists here; import it under another id with ?as=")
        for event in events:
            await store.append(campaign, event.id, encode_event(event))
        gm = await access.issue(campaign, "gm", name="GM")
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"id": campaign, "events": len(events), "links": {"gm": link(request, campaign, gm)}}, status_code=201, headers=SECURITY_HEADERS)


async def import_foundry(request: Request) -> Response:
    """GM only: a Foundry VTT OSE actor (its exported JSON) added as a character (rules.campaign.foundry);
    `?owner=` names its player. The answer says what was left out."""
    if isinstance(got := await seat(request, gm=True), Response):
        return got
    claims, loaded = got
    raw = await read_body(request)
    if raw is None:
        return too_large(request)
    try:
        character, left = from_actor(msgspec.json.decode(raw), request.query_params.get("owner", ""))
    except (msgspec.DecodeError, RecursionError, ValueError) as e:
        return error(400, "campaign/bad-file", f"not a Foundry VTT OSE actor: {e}")
    event = CampaignEvent(f"foundry-{hashlib.sha256(raw).hexdigest()[:16]}", actor_of(claims), AddCharacter(character), at=int(time.time() * 1000))
    done = await submit(request, loaded, event)
    if isinstance(done, Response):
        return done
    _, after, now = done
    added = after.characters[-1].id
    return JSONResponse({"character": added, "left_out": left, **seen(claims, now)}, status_code=201, headers=SECURITY_HEADERS)
