"""The GM hands combatants to a tactic ("let the goblins fight"), and takes them back.

A hand-over is an invite link like any other: a player link for those combatants,
named `tactics: <the tactic>`, listed and revocable with the others. On it this
process runs a bot (fray_table.client.bot) that joins through its own listening
socket, over the public protocol, so it meets the same checks as any client and
sees what a player holding that link sees. Taking them back revokes the link: its
sockets are closed on every replica, and the bot stops.

- `GET  /api/encounters/{id}/tactics?token=<gm>`: `{tactics, handovers}`.
- `POST /api/encounters/{id}/tactics?token=<gm>` with `{side | combatants, tactic, flee_at, options}`.
- `POST /api/encounters/{id}/tactics/{token_id}/release?token=<gm>`: take them back.
"""

import asyncio
import logging

import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..client.bot import label, play
from ..rules.conditions import out_of_fight
from ..rules.declare import by_tactic
from .api import SECURITY_HEADERS, error, gm_claims, gm_room, json_body
from .simulate import plans_from
from .store import StoreUnavailable
from .tactics import TACTICS

log = logging.getLogger("fray.handover")
NAMED = by_tactic("")  # a hand-over link's name begins so: 'tactics: nearest', as the log reads its declarations
HOURS = 12  # a bot's life at most (client.bot.SECONDS)


class HandOverBody(msgspec.Struct, forbid_unknown_fields=True):
    tactic: str = "nearest"
    side: str = ""
    combatants: list[str] = []
    flee_at: float = 0.0
    options: bool = False


class Bots:
    """The bots this process runs, by their link's token id."""

    def __init__(self) -> None:
        self.running: dict[str, asyncio.Task] = {}

    def start(self, token_id: str, link: str, plan) -> None:
        task = asyncio.create_task(play(link, plan, seconds=HOURS * 3600), name=f"fray bot {token_id}")
        self.running[token_id] = task
        task.add_done_callback(lambda t: self._ended(token_id, t))

    def _ended(self, token_id: str, task: asyncio.Task) -> None:
        if self.running.get(token_id) is task:
            del self.running[token_id]
        if not task.cancelled():
            if (failed := task.exception()) is not None:
                log.error("the bot on link %s failed", token_id, exc_info=failed)
            else:
                log.info("the bot on link %s stopped: %s", token_id, task.result())

    async def stop(self, token_id: str) -> None:
        task = self.running.pop(token_id, None)
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def close(self) -> None:
        for token_id in list(self.running):
            await self.stop(token_id)


def own_address(request: Request) -> str:
    """This process's listening socket, as a bot inside it dials it (loopback for a wildcard)."""
    host, port = request.scope.get("server") or ("127.0.0.1", 8000)
    host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


async def handovers(request: Request) -> list[dict]:
    listed = await request.app.state.access.links(request.path_params["id"])
    running = request.app.state.bots.running
    return [
        {
            "token_id": item["token_id"],
            "name": item["name"],
            "tactic": item["name"][len(NAMED) :],
            "combatants": item["combatants"],
            "here": item["token_id"] in running,
        }
        for item in listed
        if item["role"] == "player" and item["name"].startswith(NAMED) and not item["revoked"]
    ]


async def tactics_endpoint(request: Request) -> Response:
    """GET: the tactics and the hand-overs in force; POST: hand combatants to a tactic."""
    if isinstance(room := await gm_room(request), Response):
        return room
    try:
        if request.method == "GET":
            return JSONResponse({"tactics": list(TACTICS), "handovers": await handovers(request)}, headers=SECURITY_HEADERS)
        body = await json_body(request, HandOverBody, "hand-over")
        if isinstance(body, Response):
            return body
        try:
            plan = plans_from({"_": {"tactic": body.tactic, "flee_at": body.flee_at, "options": body.options}})["_"]
        except ValueError as e:
            return error(400, "request/invalid", str(e).removeprefix("side '_': "))
        state = room.state
        if state.status == "ended":
            return error(409, "encounter/ended", "the fight has ended")
        known = {c.id: c for c in state.combatants}
        if bool(body.side) == bool(body.combatants):
            return error(400, "request/invalid", "hand over a 'side' or a list of 'combatants' (one of the two)")
        if unknown := [cid for cid in body.combatants if cid not in known]:
            return error(400, "request/invalid", f"there are no combatants {unknown}")
        chosen = body.combatants or [c.id for c in state.combatants if c.side == body.side and not out_of_fight(c)]
        if not chosen:
            return error(400, "request/invalid", f"no combatant of side {body.side!r} is still in the fight")
        access = request.app.state.access
        made = await access.issue_claims(state.id, "player", tuple(chosen), NAMED + label(plan))
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    request.app.state.bots.start(made.i, f"{own_address(request)}/e/{state.id}?token={access.signer.sign(made)}", plan)
    answer = {"token_id": made.i, "name": made.n, "tactic": label(plan), "combatants": list(made.c), "here": True}
    return JSONResponse(answer, status_code=201, headers=SECURITY_HEADERS)


async def release_endpoint(request: Request) -> Response:
    """Take the combatants back: the hand-over's link revoked (on every replica), its bot stopped."""
    encounter, token_id = request.path_params["id"], request.path_params["token_id"]
    if isinstance(claims := await gm_claims(request), Response):
        return claims
    try:
        if not any(item["token_id"] == token_id for item in await handovers(request)):
            return error(404, "link/unknown", f"this encounter has no hand-over {token_id[:40]!r}")
        await request.app.state.access.revoke(encounter, token_id)
    except StoreUnavailable as e:
        return error(503, "store/unavailable", str(e))
    await request.app.state.bots.stop(token_id)
    return JSONResponse({"token_id": token_id, "released": True}, headers=SECURITY_HEADERS)
