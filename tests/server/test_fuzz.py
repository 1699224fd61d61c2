"""Generated garbage against one real server: random bytes, deep JSON, huge
numbers, unicode, wrong tags, valid shapes with absurd values, on the
websocket and the HTTP endpoints. No 5xx, no crash, no other client
disconnected or told anything, and the state bytes (the GM digest) unchanged
after every rejected message. Bounded: a fixed number of examples, one server."""

import contextlib
import json
import string

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import FrayServer, token_of
from websockets.sync.client import connect

pytestmark = pytest.mark.redis

FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "dex": 14, "x": 10, "y": 10},
        {"id": "gob", "name": "Goblin", "side": "goblins", "dex": 9, "x": 15, "y": 10, "hidden": True},
    ]
}
TAGS = [
    "create",
    "add_combatant",
    "edit_combatant",
    "remove_combatant",
    "start",
    "declare",
    "advance",
    "force_rolls",
    "answer",
    "call_morale",
    "end",
    "fireball",
    "",
    "command",
    "ping",
]
ACTIONS = ["attack", "move", "hold", "charge", "parry", "shoot", "throw_oil", "grapple", "cast", "nope"]
WAIT = 10.0

# --- strategies -----------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 1, 2**63, -(2**63) - 1, 2**64, 10**30]),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.sampled_from(["alda", "gob", "", "x" * 200, "💥", "\x00"]),
)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
ids = st.one_of(st.text(max_size=120), st.integers(), st.none())


@st.composite
def absurd_commands(draw) -> dict:
    """Valid shapes (right field names) with absurd values."""
    tag = draw(st.sampled_from(TAGS))
    fields = draw(
        st.dictionaries(
            st.sampled_from(
                [
                    "id",
                    "actor",
                    "target",
                    "values",
                    "combatant",
                    "hp",
                    "ac",
                    "x",
                    "y",
                    "awaiting",
                    "choice",
                    "side",
                    "modifier",
                    "notes",
                    "weapons",
                    "name",
                    "conditions",
                    "called_shots",
                ]
            ),
            json_values,
            max_size=4,
        )
    )
    if draw(st.booleans()):
        fields["action"] = {
            "type": draw(st.sampled_from(ACTIONS)),
            **draw(st.dictionaries(st.sampled_from(["target", "x", "y", "weapon", "called_shots", "from_behind", "delay", "spell"]), json_values, max_size=3)),
        }
    if tag == "add_combatant" and draw(st.booleans()):
        fields["combatant"] = {
            "name": draw(st.text(max_size=70)),
            "side": draw(st.text(max_size=50)),
            **draw(st.dictionaries(st.sampled_from(["hp", "hp_max", "ac", "dex", "x", "y", "move", "id"]), json_values, max_size=4)),
        }
    return {"type": "command", "id": draw(ids), "command": {"type": tag, **fields}}


def deep(depth: int, opener: str) -> str:
    closer = {"[": "]", '{"a":': "}"}[opener]
    return opener * depth + "1" + closer * depth


frames = st.one_of(
    st.binary(max_size=200),
    st.text(max_size=200),
    st.builds(lambda d, o: deep(d, o), st.integers(1, 3000), st.sampled_from(["[", '{"a":'])),
    st.builds(lambda d: '{"type": "command", "id": "d", "command": ' + deep(d, "[") + "}", st.integers(1, 3000)),
    json_values.map(json.dumps),
    st.dictionaries(st.sampled_from(["type", "id", "command"]), json_values, max_size=3).map(json.dumps),
    absurd_commands().map(json.dumps),
    st.sampled_from(['{"type": "ping"}', '{"type": "ping", "id": 5}', '{"type": "command"}', "null", "[]", '"x"', "1e999", "{}" * 2]),
)

# --- the arena: one server, one encounter, a sender and two bystanders -------------------


class Arena:
    def __init__(self, server: FrayServer) -> None:
        self.server = server
        self.made = server.create(FIGHT)
        self.gm_token = token_of(self.made["links"]["gm"])
        self.base = f"{server.url}/api/encounters/{self.made['id']}"
        self.stack = contextlib.ExitStack()
        self.http = self.stack.enter_context(httpx.Client(timeout=WAIT))  # one client: no TLS setup per call
        links = [self.made["links"]["gm"], self.made["links"]["spectator"], self.made["links"]["players"]["alda"]]
        self.sender, *self.bystanders = [self.stack.enter_context(connect(server.ws_url(link), open_timeout=WAIT, max_size=2**22)) for link in links]
        for ws in (self.sender, *self.bystanders):
            assert json.loads(ws.recv(WAIT))["type"] == "welcome"
        self.seen: list[dict] = []  # what the bystanders got

    def digest(self) -> dict:
        r = self.http.get(f"{self.base}/digest", params={"token": self.gm_token})
        assert r.status_code == 200, r.text
        return r.json()

    def reply(self) -> dict:
        """The sender's answer to its last message, skipping updates (bounded)."""
        for _ in range(50):
            message = json.loads(self.sender.recv(WAIT))
            if message["type"] != "update":
                return message
        raise AssertionError("no reply in 50 messages")

    def drain_bystanders(self) -> None:
        for ws in self.bystanders:
            for _ in range(1000):
                try:
                    self.seen.append(json.loads(ws.recv(0)))
                except TimeoutError:
                    break

    def close(self) -> None:
        self.stack.close()


@pytest.fixture(scope="module")
def arena(redis_url, tmp_path_factory):
    server = FrayServer(redis_url, tmp_path_factory.mktemp("fuzz"), env={"FRAY_RATE": "100000", "FRAY_BURST": "100000"})
    arena = Arena(server)
    yield arena
    try:
        arena.drain_bystanders()
        for ws in arena.bystanders:  # still connected, still answered, never told about the garbage
            ws.send(json.dumps({"type": "ping", "id": "alive"}))
            for _ in range(100):
                message = json.loads(ws.recv(WAIT))
                if message["type"] == "pong":
                    break
                arena.seen.append(message)
        assert {m["type"] for m in arena.seen} <= {"update"}, {m["type"] for m in arena.seen}
        log = server.log_path.read_text()
        assert "Traceback" not in log, log[-3000:]
    finally:
        arena.close()
        server.stop()


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(frame=frames)
def test_websocket_garbage_gets_a_clear_error_and_changes_nothing(arena, frame):
    before = arena.digest()
    arena.sender.send(frame)
    reply = arena.reply()
    assert reply["type"] in ("error", "ack", "pong"), reply
    if reply["type"] == "error":
        assert reply["code"] != "server/internal", reply
        assert "/" in reply["code"] and len(reply["message"]) > 10, reply
        assert arena.digest() == before  # nothing changed
    elif reply["type"] == "ack":  # garbage that happened to be a legal command: let it fold
        for _ in range(100):
            if arena.digest()["position"] == reply["position"] or reply["duplicate"]:
                break
    arena.drain_bystanders()


http_paths = st.one_of(
    st.sampled_from(["/log", "/digest", "/links", "/links/abc/revoke", "/links/" + "é" * 5 + "/revoke"]),
    st.text(alphabet=string.ascii_letters + string.digits + "/-_.%", max_size=30).map(lambda s: "/" + s),
)
tokens = st.one_of(
    st.none(),
    st.text(max_size=60),
    st.sampled_from(["a.b", ".", "x" * 3000 + ".y"]),
    st.builds(lambda a, b: f"{a}.{b}", st.text(string.ascii_letters + "-_", max_size=40), st.text(string.ascii_letters + "-_", max_size=44)),
)
bodies = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    absurd_commands().map(lambda c: json.dumps(c["command"]).encode()),
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["player", "spectator", "gm", "x"]),
            "combatants": st.lists(st.text(max_size=5), max_size=3),
            "ttl": st.integers(-(2**40), 2**40),
        }
    ).map(lambda d: json.dumps(d).encode()),
)


JSON = {"content-type": "application/json"}


@FUZZ
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE"]), path=http_paths, token=tokens, body=bodies, gm=st.booleans(), create=st.booleans())
def test_http_garbage_never_gets_a_5xx(arena, method, path, token, body, gm, create):
    before = arena.digest()
    url = f"{arena.server.url}/api/encounters" if create else arena.base + path
    params = {"token": arena.gm_token if gm else token} if (gm or token is not None) else {}
    r = arena.http.request(method, url, params=params, content=body, headers=JSON)  # past the edge (test_edge.py), to the routes
    assert r.status_code < 500, (method, url, r.status_code, r.text)
    if r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
        assert r.json().get("message") or r.json().get("detail") or r.status_code in (404, 405)
    after = arena.digest()
    assert after["sha256"] == before["sha256"]  # no HTTP call changes the fight's state
