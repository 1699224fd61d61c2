"""What-if forks (rules/fork.py): a new encounter whose stream is a prefix of
another's and one `fork` event, with a fresh seed, new links and a link back.

Who may fork: the GM, of a running or an ended fight; anyone else holding a link
to the fight (a replay link), of an ended fight only: its seed is revealed. Whoever
forks is the GM of the fork; one who forked from a player's or a spectator's link
reads the origin's events as that link did (the fork's veil, rules/fork.py): not
the origin GM's lines, notes or hidden figures, in the log, the replay or an export.
Such a fork starts from a state its new GM could read whole, so it is made only at
an event where that link saw all the GM did (no hidden figures, no unseen combatant,
no GM-only figure, no sealed declaration: `unseen_by`); elsewhere it is refused
(`fork/veiled-state`), and the GM of a veiled fork may not undo the origin's events
(server/undo.py: a restore would bring back figures of then). A fork from a link
that is not the GM's makes a fight, so it needs the admin key where creating one does.
`POST /api/encounters/{id}/fork` (server/api.py) and `fray fork` (server/fight_data.py)
both come here.
"""

import asyncio
import secrets
import time
from collections.abc import Sequence

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..rules import RULES_VERSION
from ..rules.commands import End, Fork
from ..rules.events import Actor, Event, decode_event, encode_event
from ..rules.model import Encounter
from ..rules.reducer import apply, check, fold
from ..rules.upgrade import version_needed
from ..rules.view import Viewer, view
from .api import SECURITY_HEADERS, base_url, claims_of, error, forwarded, issue_links, json_body, new_encounter_id, player_links
from .hub import UnknownVersion
from .store import StoreUnavailable
from .tokens import BadToken

MAX_EVENTS = 20_000  # as a replay: the prefix is read and folded whole


class ForkRefused(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def fork_events(
    origin: Sequence[Event],
    at: int,
    encounter: str,
    seed: bytes,
    options: dict | None = None,
    now_ms: int = 0,
    seen_as: Viewer | None = None,
    rules_version: int = 0,
    newest: int = RULES_VERSION,
) -> tuple[list[Event], Encounter]:
    """The fork's events (origin's 0..at, then the fork event) and its state after them;
    ForkRefused naming what is wrong (no such event, an event that ended the fight,
    options these rules refuse). `seen_as`: the link it is forked from, when not the
    GM's: the fork's GM then reads events 0..at as that link did (a veil).
    `rules_version`: the fork goes on under that version (today's rules), 0: its origin's.
    `newest`: the newest rules version folded here; an origin of newer rules is refused."""
    if not 0 <= at < len(origin):
        raise ForkRefused(400, "fork/unknown-event", f"there is no event #{at} to fork after (the last is #{len(origin) - 1})")
    needed = max(version_needed(e.command) for e in origin[: at + 1])
    if needed > newest:
        raise ForkRefused(409, "rules/unknown-version", f"this fight is played under rules version {needed}; this server knows versions up to {newest}")
    state = fold(origin[: at + 1])  # one copy of the state for the whole prefix
    assert state is not None
    if state.status == "ended":
        ended = next((i for i, e in enumerate(origin[: at + 1]) if i and isinstance(e.command, End)), at)
        raise ForkRefused(400, "fork/after-end", f"the fight had ended by event #{at}: fork at an event before #{ended}, the end")
    veil, role, combatants = -1, "", []  # the fork's GM reads the origin as its GM did
    if seen_as is not None and seen_as.role != "gm":  # as the link it is forked from did
        if unseen_by(state, seen_as):
            raise ForkRefused(
                403,
                "fork/veiled-state",
                f"at event #{at} this fight held what your link did not see (hidden figures, unseen combatants, "
                "the GM's own figures or sealed declarations): only its GM may fork there",
            )
        veil, role, combatants = at, seen_as.role, list(seen_as.combatants)
    elif state.origin is not None and state.origin.veil >= 0:  # the GM of a veiled fork: the veil stays
        veil, role, combatants = state.origin.veil, state.origin.veil_role, list(state.origin.veil_combatants)
    command = Fork(
        id=encounter,
        seed=seed,
        origin=state.id,
        at=at,
        options=options or {},
        veil=veil,
        veil_role=role,
        veil_combatants=combatants,
        rules_version=rules_version,
    )
    fork = Event(f"fork-{encounter}", Actor("system", "server"), command, at=now_ms)
    if (refused := check(state, fork)) is not None:
        raise ForkRefused(400, refused.code, refused.message)
    return [*origin[: at + 1], fork], apply(state, fork)


def unseen_by(state: Encounter, viewer: Viewer) -> bool:
    """Does `state` hold anything `viewer` was not shown, beyond what a veiled fork clears
    (GM notes, forced dice, the seed: rules/fork.py)? The GM's view against the viewer's,
    the GM's own badges (hidden, unseen, shield) and its queue and seed set aside."""
    gm, seen = view(state, Viewer("gm"), actions={}), view(state, viewer, actions={})
    gm.you = seen.you
    gm.seed = seen.seed
    gm.forced, gm.forced_by_die = None, msgspec.UNSET
    for card in gm.combatants:
        if card.hidden or card.unseen is True:
            return True
        card.notes, card.shield = None, msgspec.UNSET
        if card.morale == "" and card.morale_round == 0:  # no morale result: the table's card says nothing either
            card.morale, card.morale_round = None, None
    return msgspec.json.encode(gm) != msgspec.json.encode(seen)


async def fork_stream(
    store,
    origin_id: str,
    at: int,
    encounter: str,
    options: dict | None = None,
    seen_as: Viewer | None = None,
    rules_version: int = 0,
    newest: int = RULES_VERSION,
) -> Encounter:
    """Make the fork, encounter `encounter`, on `store`; its state (fork_events says the rest)."""
    if at >= MAX_EVENTS:
        raise ForkRefused(413, "fork/too-long", f"a fork keeps at most {MAX_EVENTS} events of its origin")
    raw = await store.read(origin_id, count=at + 1)
    if not raw:
        raise ForkRefused(404, "encounter/unknown", f"there is no encounter {origin_id!r}")
    origin = [decode_event(payload) for _, payload in raw]
    # Folded in a worker: a long prefix must not stall every table of the replica (issue 28).
    events, state = await asyncio.to_thread(
        fork_events, origin, at, encounter, secrets.token_bytes(32), options, int(time.time() * 1000), seen_as, rules_version, newest
    )
    for event in events:
        await store.append(encounter, event.id, encode_event(event))
    await store.set_meta(encounter, {"created": str(int(time.time())), "profile": state.profile, "forked_from": origin_id})
    return state


# --- POST /api/encounters/{id}/fork ----------------------------------------------


class ForkBody(msgspec.Struct, forbid_unknown_fields=True):
    at: int  # the last event of the origin the fork keeps (the `seq` of its log lines)
    options: dict[str, int | bool | str] = {}  # options changed from the fork on
    today: bool = False  # the fork goes on under this server's newest rules, not its origin's


async def fork_endpoint(request: Request) -> Response:
    """POST {"at": seq, "options": {...}, "today": false}: a fork of this fight after event `at`
    (201, as a new encounter's answer, with `origin`); with `today`, under this server's newest rules. The GM may fork a running or ended fight; another link's
    holder, an ended one only."""
    origin = request.path_params["id"]
    token = request.query_params.get("token")
    try:
        claims = await claims_of(request.app, origin, token)
    except BadToken as e:
        return error(403, "auth/bad-token", str(e))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    body = await json_body(request, ForkBody, "fork")
    if isinstance(body, Response):
        return body
    if claims.r != "gm":  # a fork makes a fight: the admin key where creating needs it
        presented = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        if (why := request.app.state.access.creation_refused(presented, forwarded(request))) is not None:
            return error(403, "auth/admin-key", f"forking from a link that is not the GM's makes a fight: {why}")
    try:
        if claims.r != "gm":
            try:
                room = await request.app.state.hub.room(origin)
            except UnknownVersion as e:
                return error(409, e.code, str(e))
            if room is None:
                return error(404, "encounter/unknown", f"there is no encounter {origin!r}")
            if room.state.status != "ended":
                return error(403, "fork/running", "only the GM may fork a fight that is still running; anyone with a link may once it has ended")
        encounter = new_encounter_id()
        newest = request.app.state.rules_version
        state = await fork_stream(request.app.state.store, origin, body.at, encounter, body.options, claims.viewer(), newest if body.today else 0, newest)
        made = await issue_links(request.app.state.access, encounter, state, player_links(state, None), base_url(request))
    except ForkRefused as e:
        return error(e.status, e.code, e.message)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    made["origin"] = {"id": origin, "at": body.at, "link": f"{base_url(request)}e/{origin}?token={token}"}
    return JSONResponse(made, status_code=201, headers=SECURITY_HEADERS)
