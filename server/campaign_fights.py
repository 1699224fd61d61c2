"""Fights from a campaign (DESIGN, 'The campaign'). The GM starts a fight with copies of
campaign characters (rules.campaign.roster.fight_sheets) and monsters; the campaign
records it (`start_fight`). When it has ended, the GM asks for its report: the server
reads the fight's stream, works out what it did to each character
(rules.campaign.findings) and appends them to the campaign for the GM's review. The
fight's stream never reads the campaign's: it holds its own copies from its start."""

import urllib.parse

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from ..rules.campaign.bestiary import monsters
from ..rules.campaign.commands import ReportFight, StartFight
from ..rules.campaign.events import CampaignEvent, encode_event
from ..rules.campaign.findings import findings
from ..rules.campaign.reducer import apply
from ..rules.campaign.roster import fight_sheets
from ..rules.events import Actor, decode_event
from ..rules.model import Combatant
from ..rules.reducer import fold
from . import api
from .api import SECURITY_HEADERS, error, json_body
from .campaigns import seat, seen, submit
from .store import StoreUnavailable

SYSTEM = Actor("system", "server")
PAGE = 1000
PARTY_Y, MONSTERS_Y, SPACING = 10, 15, 10  # feet: where a fight's combatants stand when the GM places none: face to face


class FightBody(msgspec.Struct, forbid_unknown_fields=True):
    characters: list[str]
    monsters: list[Combatant] = []
    bestiary: dict[str, int] = {}  # a bestiary monster's name -> how many (rules.campaign.bestiary)
    profile: str = ""  # '': the campaign's
    options: dict[str, int | bool | str] = {}
    modules: dict[str, str] = {}
    places: dict[str, list[int]] = {}  # a character's id or a monster's name in the fight -> [x, y] in feet


def placed(sheets: list[Combatant], monsters: list[Combatant], places: dict[str, list[int]]) -> list[Combatant]:
    out = []
    for i, c in enumerate(sheets):
        x, y = places.get(c.id, [SPACING + SPACING * i, PARTY_Y])[:2]
        out.append(msgspec.structs.replace(c, x=x, y=y))
    for i, m in enumerate(monsters):
        if m.name in places:
            x, y = places[m.name][:2]
            out.append(msgspec.structs.replace(m, x=x, y=y))
        else:
            out.append(m if (m.x, m.y) != (0, 0) else msgspec.structs.replace(m, x=SPACING + SPACING * i, y=MONSTERS_Y))
    return out


async def start(request: Request) -> Response:
    """GM only: a new fight of copies of the named characters (and monsters); its links."""
    if isinstance(got := await seat(request, gm=True), Response):
        return got
    claims, loaded = got
    body = await json_body(request, FightBody, "fight description")
    if isinstance(body, Response):
        return body
    campaign, state = request.path_params["id"], loaded.state
    check = apply(state, CampaignEvent("check", SYSTEM, StartFight("(new)", body.characters)))
    if check.recent[0].kind == "rejected":
        return error(409, check.recent[0].code or "campaign/rejected", check.recent[0].text)
    if any(len(at) != 2 for at in body.places.values()):
        return error(400, "request/invalid", "each place is [x, y] in feet")
    sheets = fight_sheets(state, body.characters)
    try:
        drawn = [*body.monsters, *monsters(state, body.bestiary)]
    except ValueError as e:
        return error(400, "request/invalid", str(e))
    owners: dict[str, list[str]] = {}
    for c in state.characters:
        if c.id in body.characters:
            owners.setdefault(c.owner or c.sheet.name, []).append(c.id)
    create = api.CreateBody(body.profile or state.profile, body.options, body.modules, placed(sheets, drawn, body.places), owners)
    try:
        made = await api.create_encounter(request.app, create, api.base_url(request))
        event = CampaignEvent(f"fight-{made['id']}", SYSTEM, StartFight(made["id"], body.characters))
        await request.app.state.campaigns.append(campaign, event.id, encode_event(event))
    except ValueError as e:
        return error(400, "request/invalid", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    return JSONResponse({"fight": made["id"], "links": made["links"]}, status_code=201, headers=SECURITY_HEADERS)


async def report(request: Request) -> Response:
    """GM only: what an ended fight did to its characters, added to the campaign for review."""
    if isinstance(got := await seat(request, gm=True), Response):
        return got
    claims, loaded = got
    fight = request.path_params["fight"]
    record = next((f for f in loaded.state.fights if f.fight == fight), None)
    if record is None:
        return error(404, "campaign/unknown-fight", f"fight {fight!r} was not started from this campaign")
    try:
        events = await _events(request.app.state.store, fight)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    ended = fold(events)
    if ended is None or ended.status != "ended":
        return error(409, "campaign/fight-running", f"fight {fight!r} has not ended: its report comes when the GM ends it")
    found = findings(fight, events, record.characters)
    event = CampaignEvent(f"report-{fight}", SYSTEM, ReportFight(fight, found))
    done = await submit(request, loaded, event)
    if isinstance(done, Response):
        return done
    _, _, now = done
    return JSONResponse({"findings": msgspec.to_builtins(found), **seen(claims, now)}, headers=SECURITY_HEADERS)


async def _events(store, fight: str) -> list:
    out, after = [], "0-0"
    while True:
        page = await store.read(fight, after=after, count=PAGE)
        out += [decode_event(payload) for _, payload in page]
        if len(page) < PAGE:
            return out
        after = page[-1][0]


REPLAY_LINK = "campaign"  # the name of the spectator link a campaign's readers replay a fight through


async def replay(request: Request) -> Response:
    """A scar's moment in its fight's replay: 303 to the fight's replay page at event `at`,
    through the fight's spectator link named 'campaign' (made once). The GM's for any fight
    of the campaign; a player's for an ended fight one of their characters was in."""
    if isinstance(got := await seat(request), Response):
        return got
    claims, loaded = got
    fight, at = request.path_params["fight"], request.query_params.get("at", "")
    record = next((f for f in loaded.state.fights if f.fight == fight), None)
    if record is None or (claims.r == "player" and not set(record.characters) & set(claims.c)):
        return error(404, "campaign/unknown-fight", f"fight {fight!r} is not one of yours in this campaign")
    access = request.app.state.access
    try:
        state = fold(await _events(request.app.state.store, fight))
        if state is None:
            return error(404, "campaign/unknown-fight", f"fight {fight!r} is no longer stored")
        if claims.r != "gm" and state.status != "ended":
            return error(409, "campaign/fight-running", "a fight is replayed from the campaign once it has ended")
        kept = [x for x in await access.links(fight) if x["role"] == "spectator" and x["name"] == REPLAY_LINK and not x["revoked"]]
        token = kept[0]["token"] if kept else await access.issue(fight, "spectator", name=REPLAY_LINK)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    query = {"token": token, "replay": "1", **({"at": at} if at.isdigit() else {})}
    return RedirectResponse(f"{api.base_url(request)}e/{fight}?{urllib.parse.urlencode(query)}", status_code=303, headers=SECURITY_HEADERS)
