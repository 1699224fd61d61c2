"""The browser client in real Chromium (Debian's /usr/bin/chromium), against a real
`fray serve`: invite links, live updates, controls built from view.actions, forced
dice, reconnect with `after=`. Screenshots go to tests/artifacts/.

Sync Playwright: these tests stay plain functions (asyncio_mode=auto would run an
`async def` inside an event loop, where the sync API refuses to start).
"""

import json
import re
import time

import msgspec
import pytest
from pages import (
    TIMEOUT_MS,
    Pages,
    cards,
    gm_advance,
    gm_edit,
    gm_force,
    overflowing,
    screenshot,
    until_round,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_browser_attack_through_the_controls(fray_server, table: Pages) -> None:
    made = fray_server.create()
    player_link = next(iter(made["links"]["players"].values()))
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(player_link, "player", width=390)  # a phone

    everyone = cards(gm)
    me = next(c for c in cards(player).values() if c["mine"] == "true")
    foes = [c for c in everyone.values() if c["side"] != me["side"]]
    assert foes, "the demo fight has no enemy for the player"
    reach = lambda c: max(abs(int(c["x"]) - int(me["x"])), abs(int(c["y"]) - int(me["y"])))  # noqa: E731
    target = min(foes, key=reach)
    if reach(target) > 5:  # bring it within a sword's reach, through the GM console
        gm_edit(gm, target["id"], "x", int(me["x"]) + 5)
        gm_edit(gm, target["id"], "y", int(me["y"]))
        expect(gm.get_by_test_id(f"pos-{target['id']}")).to_have_text(f"{int(me['x']) + 5}, {me['y']}")

    # No side surprised (a 6 for each side's d6), then start.
    gm_force(gm, [6] * len({c["side"] for c in everyone.values()}))
    gm.get_by_test_id("start").click()
    for page in (gm, player):
        expect(page.get_by_test_id("round")).to_have_text("1")
        expect(page.get_by_test_id("phase")).to_have_text("declaration")
    expect(gm.get_by_test_id("forced-queue")).to_have_text("none")

    # The player declares through controls built from view.actions.
    panel = player.get_by_test_id(f"declare-{me['id']}")
    expect(panel).to_be_visible()
    expect(player.get_by_test_id("gm-console")).to_be_hidden()
    player.get_by_test_id(f"action-{me['id']}").select_option("attack")
    player.get_by_test_id(f"target-{me['id']}-attack").select_option(target["id"])
    player.get_by_test_id(f"submit-{me['id']}-attack").press("Enter")  # keyboard, not the mouse
    expect(player.get_by_test_id(f"current-{me['id']}")).to_contain_text("Declared")
    expect(gm.get_by_test_id(f"declared-{me['id']}")).to_be_visible()

    # Forced dice make the outcome certain: a d20 of 18 hits any demo goblin, then 3 damage
    # (18, not 20: a natural 20 may ask for a choice under some profiles).
    hp, hp_max = int(target["hp"]), gm.get_by_test_id(f"hp-{target['id']}").text_content().split("/")[1]
    gm_force(gm, [18, 3])
    gm_advance(gm)
    until_round(gm, 2)

    expect(gm.get_by_test_id(f"hp-{target['id']}")).to_have_text(f"{hp - 3}/{hp_max}")
    expect(player.get_by_test_id(f"hp-{target['id']}")).not_to_have_text(re.compile(f"^(unhurt|{hp}/{hp_max})$"))
    for page in (gm, player):
        expect(page.get_by_test_id("round")).to_have_text("2")
        expect(page.get_by_test_id("phase")).to_have_text("declaration")
        d20 = page.get_by_test_id("roll").filter(has_text=re.compile(r"^d20 → 18 forced"))
        expect(page.get_by_test_id("log-entry").filter(has=d20).filter(has_text="attacks")).to_have_count(1)
        expect(page.get_by_test_id("log-entry").filter(has_text=re.compile(r"takes 3 damage")).first).to_be_visible()
    assert overflowing(player) == []
    screenshot(gm, "browser-gm.png")
    screenshot(player, "browser-player.png")
    table.check()


def test_browser_reconnects_with_after_and_keeps_the_log(fray_server, table: Pages) -> None:
    made = fray_server.create()
    sockets = []  # every websocket the player page opens, through a pass-through route

    def route(ws):
        sockets.append(ws)
        ws.connect_to_server()

    player = table.open(next(iter(made["links"]["players"].values())), "player", route=route)
    joined = player.get_by_test_id("log-entry").filter(has_text="joins")
    expect(joined).not_to_have_count(0)
    count = joined.count()

    sockets[0].close(code=1012, reason="test drops the connection")
    expect(player.get_by_test_id("status-banner")).to_contain_text("Reconnecting")
    expect(player.get_by_test_id("status-banner")).to_be_hidden()
    assert len(sockets) >= 2
    assert re.search(r"[?&]after=\d+-\d+", sockets[1].url), sockets[1].url

    # Updates flow on the new socket, and the resumed log holds no duplicates.
    gm = table.open(made["links"]["gm"], "gm")
    gm.get_by_test_id("start").click()
    expect(player.get_by_test_id("round")).to_have_text("1")
    expect(player.get_by_test_id("phase")).to_have_text("declaration")
    expect(joined).to_have_count(count)
    screenshot(player, "browser-reconnected.png")
    table.check()


def test_browser_spectator_has_no_controls(fray_server, table: Pages) -> None:
    made = fray_server.create()
    gm = table.open(made["links"]["gm"], "gm")
    gm.get_by_test_id("start").click()
    spectator = table.open(made["links"]["spectator"], "spectator")
    expect(spectator.get_by_test_id("round")).to_have_text("1")
    expect(spectator.get_by_test_id("role")).to_have_text("spectator")
    expect(spectator.get_by_test_id("gm-console")).to_be_hidden()
    expect(spectator.locator("[data-testid^='declare-']:not([data-testid='declare-panels'])")).to_have_count(0)
    expect(spectator.get_by_test_id("no-actions")).to_contain_text("spectators have no controls")
    expect(spectator.locator("button:visible")).to_have_count(0)
    table.check()


def test_browser_page_without_a_good_token_explains(fray_server, table: Pages) -> None:
    page = table.open(f"{fray_server.url}/e/nope", "no token", live=False)
    expect(page.get_by_test_id("status-banner")).to_contain_text("invite link")
    expect(page.get_by_test_id("connection")).to_have_text("refused")

    made = fray_server.create()
    forged = table.open(f"{fray_server.url}/e/{made['id']}?token=forged", "forged token", live=False)
    expect(forged.get_by_test_id("status-banner")).to_contain_text("Cannot join")
    expect(forged.get_by_test_id("connection")).to_have_text("refused")  # and no retrying
    table.check()


# --- The client against a scripted server -------------------------------------
# The page comes from the real server; its websocket is answered by the test, with
# messages checked against server/protocol.py, to reach what a live fight reaches
# only by chance: a prompt to answer, an action type this client has never seen,
# hostile text in names.

HOSTILE = '<img src=x onerror="document.title=1">'


def scripted(message: dict) -> str:
    """The message as the server would send it: decoded with the protocol's types
    (so the script cannot drift from them) and encoded back with every default."""
    from fray_table.server import protocol

    return protocol.encoder.encode(protocol.server_decoder.decode(json.dumps(message))).decode()


class ScriptedViews:
    """Views as the hub sends them: the first whole, each later one as a patch
    from the one before (server/patch.py)."""

    def __init__(self) -> None:
        self.shown: dict | None = None

    def whole(self, view: dict) -> dict:
        from fray_table.rules.view import View

        self.shown = msgspec.to_builtins(msgspec.convert(view, View))
        return self.shown

    def update(self, position: str, view: dict, log: list | None = None) -> str:
        from fray_table.server.patch import diff

        before = self.shown
        return scripted(dict(type="update", position=position, patch=diff(before, self.whole(view)), log=log or []))


def combatant(cid: str, name: str, side: str, x: int, **more) -> dict:
    return dict(id=cid, name=name, side=side, x=x, y=10, move=120, dex=10, down=False, conditions=[], condition="unhurt") | more


def scripted_view(**more) -> dict:
    view = dict(
        id="scripted",
        profile="holmes-phases",
        options={},
        status="running",
        round=3,
        phase="declaration",
        seq=40,
        seed_hash="ab" * 32,
        declarations=[],
        awaited=["hero"],
        surprised=[],
        you=dict(role="player", combatants=["hero"]),
        combatants=[
            combatant("hero", "Hero", "party", 10, hp=7, hp_max=9, ac_shown=4, weapons=[dict(name="sword", damage="1d8")]),
            combatant("foe", HOSTILE, "monsters", 15, condition="wounded", hidden=True, conditions=["burning"]),
        ],
        actions={
            "hero": [
                dict(type="attack", targets=["foe"], options={"weapon": [0], "called_shots": [0, 1, 2, 3]}),
                dict(type="juggle", targets=["", "foe"], options={"balls": [3, 5, 7], "style": ["", "fancy"], "blindfold": [False, True], "chant": []}),
            ]
        },
    )
    return view | more


def test_browser_controls_follow_unknown_choices_and_prompts(fray_server, table: Pages) -> None:
    sent: list[dict] = []
    sockets = []
    views = ScriptedViews()

    def server(ws):
        sockets.append(ws)
        ws.on_message(lambda text: sent.append(json.loads(text)))
        log = [dict(seq=39, kind="attack", text=f"{HOSTILE} burns.", rolls=[dict(sides=6, value=2, purpose="burn")])]
        ws.send(
            scripted(
                dict(
                    type="welcome",
                    encounter="scripted",
                    viewer=dict(role="player", combatants=["hero"]),
                    position="100-0",
                    view=views.whole(scripted_view()),
                    log=log,
                )
            )
        )

    page = table.open(f"{fray_server.url}/e/scripted?token=scripted", "scripted", width=390, route=server)

    # Text from the server is text, never markup.
    expect(page.get_by_test_id("combatant-foe")).to_contain_text(HOSTILE)
    expect(page.get_by_test_id("hp-foe")).to_have_text("wounded")
    expect(page.get_by_test_id("log-entry").first).to_contain_text(f"{HOSTILE} burns.")
    expect(page.get_by_test_id("roll").first).to_have_text(re.compile(r"^d6 → 2"))
    assert page.locator("img").count() == 0 and page.title() != "1"

    # An action type no client code knows: every option becomes a control.
    page.get_by_test_id("action-hero").select_option("juggle")
    page.get_by_test_id("target-hero-juggle").select_option("foe")
    page.get_by_test_id("opt-hero-juggle-balls").select_option(label="5")
    page.get_by_test_id("opt-hero-juggle-blindfold").check()
    page.get_by_test_id("opt-hero-juggle-chant").fill("hup hup")
    page.get_by_test_id("submit-hero-juggle").click()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not sent and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    declared = sent[-1]
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", declared["id"])
    assert declared["type"] == "command"
    assert declared["command"] == {
        "type": "declare",
        "actor": "hero",
        "action": {"type": "juggle", "target": "foe", "balls": 5, "style": "", "blindfold": True, "chant": "hup hup"},
    }

    # The round parks on a prompt for the viewer's combatant: answer it.
    ws = sockets[0]
    ws.send(json.dumps({"type": "ack", "id": declared["id"], "position": "101-0", "duplicate": False}))
    awaiting = dict(id="41:riposte:foe", who="hero", kind="riposte", prompt="Hero parried: counter-attack at +3?", options=["counter", "decline"])
    ws.send(views.update("102-0", scripted_view(phase="attack", actions={}, awaited=[], awaiting=awaiting)))
    expect(page.get_by_test_id("awaiting")).to_contain_text("counter-attack at +3?")
    expect(page.get_by_test_id("declare-hero")).to_have_count(0)
    page.get_by_test_id("answer-counter").click()
    while len(sent) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    answer = sent[-1]
    assert answer["command"] == {"type": "answer", "awaiting": "41:riposte:foe", "choice": "counter"}

    # An error about that command comes back as a toast naming it.
    ws.send(json.dumps({"type": "error", "id": answer["id"], "code": "answer/not-yours", "message": "that choice is not yours to make"}))
    toast = page.get_by_test_id("toast").filter(has_text="that choice is not yours to make")
    expect(toast).to_be_visible()
    expect(toast).to_have_attribute("data-code", "answer/not-yours")

    # An answer that is a combatant's id (001's extra attack: on whom?) is shown by name, as text,
    # in a sentence; so is the way out.
    extra = dict(id="41:extra-attack:1", who="hero", kind="extra_attack", prompt="Hero gains an immediate extra attack: on whom?", options=["foe", "decline"])
    ws.send(views.update("102-1", scripted_view(phase="attack", actions={}, awaited=[], awaiting=extra)))
    expect(page.get_by_test_id("answer-foe")).to_have_text(f"Attack {HOSTILE}")
    expect(page.get_by_test_id("answer-decline")).to_have_text("No extra attack")
    # An answer no sentence is known for is shown as words, not as a raw name.
    odd = dict(id="41:odd:1", who="hero", kind="house-rule", prompt="Hero may shout: shout?", options=["shout_loudly", "stay_quiet"])
    ws.send(views.update("102-2", scripted_view(phase="attack", actions={}, awaited=[], awaiting=odd)))
    expect(page.get_by_test_id("answer-shout_loudly")).to_have_text("Shout loudly")

    # The next patch lands on the view the last one made: the prompt goes, round 4 comes.
    ws.send(views.update("103-0", scripted_view(round=4), [dict(seq=44, kind="round", text="Round 4: declarations are open.")]))
    expect(page.get_by_test_id("round")).to_have_text("4")
    expect(page.get_by_test_id("awaiting")).to_be_hidden()
    expect(page.get_by_test_id("declare-hero")).to_be_visible()
    expect(page.get_by_test_id("log-entry").first).to_have_text("Round 4: declarations are open.")

    # A patch that does not fit the view makes the page join afresh (the welcome is whole).
    ws.send(scripted(dict(type="update", position="104-0", patch=[[["combatants", 9, "hp"], 1]], log=[])))
    expect(page.get_by_test_id("status-banner")).to_be_hidden()
    while len(sockets) < 2 and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert "after=103-0" in sockets[1].url
    expect(page.get_by_test_id("round")).to_have_text("3")  # the new welcome's view
    assert overflowing(page) == []
    screenshot(page, "browser-scripted.png")
    table.check()
