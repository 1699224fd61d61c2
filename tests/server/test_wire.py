"""The send path (issue 24, docs/decisions.md): with the uvicorn of constraints.txt, an
update is framed once and written onto uvicorn's transport (connection.UvicornWire), and
the handshake uvicorn keeps is let go (the scope keeps only the headers the socket reads); a uvicorn whose protocol object lacks an attribute
the wire reads gets the ASGI send instead, and its clients still get every update.
The app runs in this process under a real uvicorn on loopback, so its sockets can be seen."""

import contextlib
import logging
import urllib.parse

import httpx
import pytest
import uvicorn
import websockets
from support import TIMEOUT, Table, free_port, in_process

from fray_table.server import connection
from fray_table.server.app import create_app

pytestmark = pytest.mark.redis


@contextlib.asynccontextmanager
async def serving(redis_url: str):
    app = create_app(redis_url)
    port = free_port()
    async with in_process(uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, ws_per_message_deflate=False, lifespan="on")):
        yield app, f"127.0.0.1:{port}"


async def table(host: str, link: str) -> Table:
    parts = urllib.parse.urlparse(link)
    url = f"ws://{host}/ws/encounters/{parts.path.rsplit('/', 1)[-1]}?{parts.query}"
    opened = Table(await websockets.connect(url, open_timeout=TIMEOUT))
    assert (await opened.next())["type"] == "welcome"
    return opened


async def played(app, host: str) -> list:
    """A fight with a GM and a spectator; the GM forces dice, and both see it. Their hub clients."""
    async with httpx.AsyncClient() as http:
        made = (await http.post(f"http://{host}/api/encounters", json={}, timeout=TIMEOUT)).json()
    gm, spectator = await table(host, made["links"]["gm"]), await table(host, made["links"]["spectator"])
    try:
        ack = await gm.send({"type": "force_rolls", "values": [7, 3]})
        assert ack["type"] == "ack", ack
        await spectator.until(ack["position"])
        await gm.until(ack["position"])
        assert gm.view["forced"] == [7, 3] and spectator.position == ack["position"]
        return list(app.state.hub.rooms[made["id"]].clients)
    finally:
        await gm.close()
        await spectator.close()


async def test_the_pinned_uvicorn_gets_updates_through_the_wire(redis_url, monkeypatch, caplog):
    monkeypatch.setattr(connection, "_told", set())
    caplog.set_level(logging.INFO, logger="fray.connection")
    async with serving(redis_url) as (app, host):
        clients = await played(app, host)
    assert len(clients) == 2
    for client in clients:
        assert isinstance(client._wire, connection.UvicornWire)  # else uvicorn changed: see docs/decisions.md, issue 24
        protocol = client._wire._protocol
        assert protocol.response is None and protocol.request is None  # the handshake is let go
        assert {name for name, _ in protocol.scope["headers"]} == {b"host"}  # and of its headers, all the socket does not read
    assert any("written onto uvicorn's transport" in r.getMessage() for r in caplog.records)


async def test_a_protocol_object_without_an_attribute_the_wire_reads_gets_the_asgi_send(redis_url, monkeypatch, caplog):
    # As a uvicorn release that renamed `close_sent` would be: the wire's check finds no `sent_close`.
    monkeypatch.setattr(connection, "WIRE_READS", (*connection.WIRE_READS, "sent_close"))
    monkeypatch.setattr(connection, "_told", set())
    caplog.set_level(logging.INFO, logger="fray.connection")
    async with serving(redis_url) as (app, host):
        clients = await played(app, host)  # every update still arrives
    assert [client._wire for client in clients] == [None, None]
    said = [r.getMessage() for r in caplog.records if r.name == "fray.connection"]
    assert said.count("websocket messages go through the ASGI send: uvicorn's protocol object has no sent_close (a release other than constraints.txt's?)") == 1
