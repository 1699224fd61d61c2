"""A whole table in real Chromium (issue 5): a GM, two players and a spectator,
each page in its own browser context, play two rounds of the showcase fight of
docs/scenarios/holmes-showcase.toml (surprise, a thief from behind, burning oil,
a parry that disarms, a charge against a set spear, morale) through the pages'
own controls, every die forced from the GM console's queue. Then the replay
viewer goes back to round 1. Also: dragging a token declares a move."""

import copy
import re
import tomllib

import pytest
from pages import Pages, declare, gm_advance, gm_force, overflowing, screenshot, square, until_round
from playwright.sync_api import Page, expect
from support import ROOT

pytestmark = pytest.mark.browser

SHOWCASE = ROOT / "docs" / "scenarios" / "holmes-showcase.toml"
SCENARIO = tomllib.loads(SHOWCASE.read_text())

# The showcase's dice for its first two rounds, in the order they are rolled (the
# TOML comments each one with 003's numbers; descending AC = 19 - ascending).
SURPRISE = [
    5,  # party's d6: 5, not surprised (003: 'surprised if 1 or 2 is rolled on a 6-sided die')
    2,  # orcs' d6: 2, surprised: the party gets a free round at +2 to hit
]
ROUND_1 = [
    11,  # Bran stabs Grul from behind: d20 11 + 2 surprise + AC 6 (shield ignored) = 19 >= 19: hit
    4,  # damage d6: Grul 9 -> 5 HP
    1,  # Grul's gawper d6: 1 ('drop anything held in-hand on a 2 or less'): the axe falls
    1,  # Cora's flask into the melee around Snag (003: 'attacking into an ongoing melee must randomly determine'): d3 1, Snag
    8,  # Cora's flask at Snag: d20 8 + 2 surprise + 2 size M + AC 7 = 19: hit
    # Cora's torch goes at the oil on Snag: no die (rules version 8, 'targeting the splashed oil')
    8,  # Cora's torch: d20 8 + 2 surprise + AC 9 ('always ... against Armour Class 9') = 19: lit
    5,  # Snag burns, round 1: d6 5, 5 damage (9 -> 4 HP), keeps burning on 4-6
]
ROUND_2 = [
    14,  # Snag clubs Bran, who parries: d20 14 - 4 parry + AC 6 = 16: miss, but the club
    #   (weight 4) is heavier than the dagger (1): Bran is disarmed
    16,  # Ukk's set spear meets Alda's charge first (spear 6 ft > sword 3 ft): d20 16 + AC 4 = 20: hit
    3,  # damage d6 3
    2,  # set spear d6 2 ('an additional 1-6 points of damage'): Alda 12 -> 7 HP
    12,  # Alda's charge: d20 12 + 2 charge + AC 7 = 21: hit
    5,  # damage d6 5: Ukk 5 -> 0 HP, falls
    3,  # Snag burns, round 2: d6 3 ('1-4 ... applied and rolled again'): 4 -> 1 HP
    3,
    4,  # Ukk's death calls the orcs' morale: 2d6 = 7, '6-8 Stand off or hold ground'
]
assert SURPRISE + ROUND_1 + ROUND_2 == SCENARIO["dice"][: len(SURPRISE + ROUND_1 + ROUND_2)]

PLAYERS = {"Alda's player": ["alda"], "Bran and Cora's player": ["bran", "cora"]}


def drag_token(page: Page, who: str, to: tuple[int, int], check=None) -> None:
    """Press on a token, move in steps (pointer events), and drop it on a square;
    `check()` runs while the token is still held."""
    card = page.get_by_test_id(f"combatant-{who}")
    page.get_by_test_id(f"token-{who}").scroll_into_view_if_needed()  # on a phone the controls come first
    start = square(page, int(card.get_attribute("data-x")), int(card.get_attribute("data-y")))
    end = square(page, *to)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    if check:
        check()
    page.mouse.up()


def logged(page: Page, text: str, roll: str | None = None):
    """The log lines containing `text` (and, if given, a roll chip reading `roll` forced)."""
    lines = page.get_by_test_id("log-entry").filter(has_text=text)
    if roll is not None:
        lines = lines.filter(has=page.get_by_test_id("roll").filter(has_text=re.compile(rf"^{re.escape(roll)} forced")))
    return lines


def word_inside_its_square(page: Page, who: str) -> bool:
    """The condition word under a hidden combatant's token stays within its own column of the grid."""
    return page.eval_on_selector(
        f"[data-testid=word-{who}]",
        """(word) => {
            const svg = word.ownerSVGElement, box = word.getBBox(), x = word.parentNode.dataset.id;
            const card = document.querySelector(`[data-testid=combatant-${x}]`);
            const left = (card.dataset.x - svg.dataset.x0) / 5 * 40;
            return box.x >= left && box.x + box.width <= left + 40;
        }""",
    )


def test_browser_table_plays_two_rounds_and_replays_round_one(fray_server, table: Pages) -> None:
    combatants = copy.deepcopy(SCENARIO["combatants"])
    for c in combatants:
        c["hidden"] = c["id"] == "snag"  # players see a word for Snag's wounds, not figures
    made = fray_server.create({"combatants": combatants, "options": SCENARIO["options"], "players": PLAYERS})
    links = made["links"]
    gm = table.open(links["gm"], "gm")
    alda = table.open(links["players"]["Alda's player"], "alda", width=390)  # a phone
    party = table.open(links["players"]["Bran and Cora's player"], "bran and cora", width=1000)
    spectator = table.open(links["spectator"], "spectator")
    players = (alda, party, spectator)

    # --- Start: the GM queues the surprise dice and round 1's, then starts.
    gm_force(gm, SURPRISE + ROUND_1)
    gm.get_by_test_id("start").click()
    for page in (gm, *players):
        expect(page.get_by_test_id("round")).to_have_text("1")
        expect(logged(page, "orcs rolls d6 2: surprised.", "d6 → 2")).to_have_count(1)
        expect(page.get_by_test_id("cond-grul-surprised")).to_be_visible()
        expect(page.get_by_test_id("order-ukk")).to_have_attribute("data-state", "surprised")
    expect(spectator.locator("[data-testid=token-snag] .mark-surprised")).to_have_count(1)
    expect(gm.get_by_test_id("forced-queue")).to_have_text(", ".join(map(str, ROUND_1)))

    # The spectator watches: no controls, no draggable token, no GM console.
    expect(spectator.get_by_test_id("no-actions")).to_contain_text("spectators have no controls")
    expect(spectator.locator("[data-testid^='declare-']:not([data-testid='declare-panels'])")).to_have_count(0)
    expect(spectator.locator("button:visible, input:visible, .token.draggable")).to_have_count(0)
    expect(spectator.get_by_test_id("gm-console")).to_be_hidden()
    # Each player declares for their own combatants only.
    expect(alda.locator("[data-testid^='declare-']:not([data-testid='declare-panels'])")).to_have_count(1)

    # --- Round 1 (the orcs are surprised and may not declare).
    declare(party, "bran", "attack", "grul", from_behind=True)
    declare(party, "cora", "throw_oil", "snag")  # flask and torch: the torch box comes ticked
    drag_token(alda, "alda", (20, 10))  # on the phone: drag the token 10 ft east
    expect(alda.get_by_test_id("current-alda")).to_have_text("Declared: move to (20, 10)")
    expect(gm.get_by_test_id("awaited")).to_contain_text("Everyone has declared.")
    gm_advance(gm)
    until_round(gm, 2)

    expect(gm.get_by_test_id("forced-queue")).to_have_text("none")
    expect(gm.get_by_test_id("hp-grul")).to_have_text("5/9")
    expect(gm.get_by_test_id("hp-snag")).to_have_text("4/9")
    expect(gm.get_by_test_id("wound-snag")).to_have_text("badly wounded")
    expect(gm.get_by_test_id("pos-alda")).to_have_text("20, 10")
    for page in players:
        expect(page.get_by_test_id("round")).to_have_text("2")
        expect(page.get_by_test_id("hp-snag")).to_have_text("badly wounded")  # hidden: the word, not 4/9
        expect(page.get_by_test_id("word-snag").locator("text")).to_have_text(["badly", "wounded"])  # a word a line
        expect(page.get_by_test_id("cond-snag-burning")).to_have_text("burning (1 round so far)")
        expect(page.locator("[data-testid=token-snag] .mark-burning")).to_have_count(1)
        expect(page.get_by_test_id("weapon-grul-0")).to_have_attribute("data-state", "dropped")
        expect(page.get_by_test_id("pos-alda")).to_have_text("20, 10")
    for page in (gm, *players):
        expect(logged(page, "Bran attacks Grul", "d20 → 11")).to_have_count(1)
        expect(logged(page, "Grul takes 4 damage", "d6 → 4")).to_have_count(1)
        expect(logged(page, "Grul is caught gawping", "d6 → 1")).to_have_count(1)
        expect(logged(page, "Cora throws a lit torch at the oil on Snag", "d20 → 8")).to_have_count(1)
        expect(logged(page, "The oil on Snag burns (round 1)", "d6 → 5")).to_have_count(1)
    assert word_inside_its_square(alda, "snag")
    screenshot(alda, "table-round-1-alda-phone.png")

    # --- Round 2: the orcs act; the GM declares for them from the same kind of panels.
    gm_force(gm, ROUND_2)
    declare(party, "bran", "parry")
    declare(alda, "alda", "charge", "ukk")
    declare(party, "cora", "cast", "mog", spell="magic missile")
    declare(gm, "ukk", "set_spear")
    declare(gm, "snag", "attack", "bran")
    declare(gm, "grul", "recover")
    declare(gm, "mog", "approach", "alda")
    expect(gm.get_by_test_id("declared-ukk")).to_contain_text("set a spear against a charge")
    expect(gm.get_by_test_id("declared-alda")).to_contain_text("charge Ukk")
    expect(spectator.get_by_test_id("declared-ukk")).to_have_text("Ukk: has declared")  # sealed until resolved
    gm_advance(gm)
    until_round(gm, 3)

    expect(gm.get_by_test_id("forced-queue")).to_have_text("none")
    expect(gm.get_by_test_id("hp-alda")).to_have_text("7/12")
    expect(gm.get_by_test_id("hp-ukk")).to_have_text("0/5")
    expect(gm.get_by_test_id("hp-snag")).to_have_text("1/9")
    expect(gm.get_by_test_id("morale-grul")).to_have_text("stands off or holds ground (round 3)")
    expect(gm.get_by_test_id("cond-snag-burning")).to_have_text("burning (2 rounds so far)")
    expect(alda.get_by_test_id("hp-alda")).to_have_text("7/12")
    expect(alda.get_by_test_id("wound-alda")).to_have_text("wounded")
    expect(party.get_by_test_id("weapon-bran-0")).to_have_attribute("data-state", "dropped")
    expect(party.get_by_test_id("weapon-bran-0")).to_contain_text("dropped")
    for page in players:
        expect(page.get_by_test_id("round")).to_have_text("3")
        expect(page.get_by_test_id("cond-bran-disarmed")).to_be_visible()
        expect(page.get_by_test_id("weapon-grul-0")).to_have_attribute("data-state", "in hand")  # picked up
        expect(page.get_by_test_id("down-ukk")).to_be_visible()
        expect(page.locator("[data-testid=token-ukk].down")).to_have_count(1)
        expect(page.get_by_test_id("morale-grul")).to_have_count(0)  # morale is the GM's
        expect(page.get_by_test_id("pos-alda")).to_have_text("55, 10")
    for page in (gm, *players):
        expect(logged(page, "Snag attacks Bran", "d20 → 14")).to_have_count(1)
        expect(logged(page, "Bran's parry holds, but the heavier club knocks the dagger away")).to_have_count(1)
        expect(logged(page, "Ukk meets the charge of Alda", "d20 → 16")).to_have_count(1)
        expect(logged(page, "Alda takes 5 damage (1d6 + 1d6 set spear)", "d6 → 2")).to_have_count(1)
        expect(logged(page, "Alda charges Ukk:", "d20 → 12")).to_have_count(1)
        expect(logged(page, "Ukk falls.")).to_have_count(1)
        expect(logged(page, "The oil on Snag burns (round 2)", "d6 → 3")).to_have_count(1)
        expect(logged(page, "Grul checks morale (first death on its side)", "d6 → 4")).to_have_count(1)
    assert word_inside_its_square(alda, "snag")
    assert overflowing(alda) == []
    screenshot(gm, "table-round-2-gm.png")
    screenshot(party, "table-round-2-player.png")
    screenshot(spectator, "table-round-2-spectator.png")
    screenshot(alda, "table-round-2-alda-phone.png")

    # --- The replay viewer, from the spectator's link: back to round 1.
    replay = table.open(links["spectator"] + "&replay=1", "replay", live=False)
    expect(replay.get_by_test_id("round")).to_have_text("3")
    round_1 = replay.locator("[data-testid=replay-round] option", has_text=re.compile(r"^Round 1 \("))
    replay.get_by_test_id("replay-round").select_option(round_1.get_attribute("value"))
    expect(replay.get_by_test_id("round")).to_have_text("1")
    expect(replay.get_by_test_id("phase")).to_have_text("declaration")
    expect(replay.get_by_test_id("hp-grul")).to_have_text("9/9")
    expect(replay.get_by_test_id("hp-snag")).to_have_text("unhurt")
    expect(replay.get_by_test_id("cond-grul-surprised")).to_be_visible()
    expect(replay.get_by_test_id("conditions-snag")).not_to_contain_text("burning")
    expect(replay.get_by_test_id("pos-alda")).to_have_text("10, 10")
    expect(logged(replay, "Bran attacks Grul")).to_have_count(0)
    expect(replay.get_by_test_id("replay-round")).to_be_enabled()
    # Round 2's first event: the moment round 1 ended.
    round_2 = replay.locator("[data-testid=replay-round] option", has_text=re.compile(r"^Round 2 \("))
    replay.get_by_test_id("replay-round").select_option(round_2.get_attribute("value"))
    expect(replay.get_by_test_id("round")).to_have_text("2")
    expect(replay.get_by_test_id("hp-grul")).to_have_text("5/9")
    expect(replay.get_by_test_id("hp-snag")).to_have_text("badly wounded")
    expect(replay.get_by_test_id("cond-snag-burning")).to_have_text("burning (1 round so far)")
    expect(replay.get_by_test_id("pos-alda")).to_have_text("20, 10")
    expect(logged(replay, "Bran attacks Grul", "d20 → 11")).to_have_count(1)
    expect(logged(replay, "Ukk falls.")).to_have_count(0)
    expect(replay.locator("button:visible", has_text="Declare")).to_have_count(0)
    screenshot(replay, "table-replay-round-1.png")
    table.check()


FIGHT = {
    "combatants": [
        {"id": "alda", "name": "Alda", "side": "party", "ac": 15, "hp": 9, "hp_max": 9, "dex": 14, "x": 10, "y": 10, "move": 20},
        {"id": "gob", "name": "Goblin", "side": "goblins", "ac": 13, "hp": 4, "hp_max": 4, "dex": 9, "x": 25, "y": 10},
    ]
}


def test_browser_drag_a_token_to_declare_a_move(fray_server, table: Pages) -> None:
    made = fray_server.create(FIGHT)
    sent: list[str] = []

    def route(ws):  # pass-through, keeping what the page sends
        server = ws.connect_to_server()
        ws.on_message(lambda text: (sent.append(text), server.send(text)))

    gm = table.open(made["links"]["gm"], "gm")
    gm_force(gm, [6, 6])  # nobody surprised
    gm.get_by_test_id("start").click()
    player = table.open(made["links"]["players"]["alda"], "player", route=route)
    expect(player.get_by_test_id("round")).to_have_text("1")
    expect(player.locator("[data-testid=token-alda].draggable")).to_have_count(1)
    expect(player.locator("[data-testid=token-gob].draggable")).to_have_count(0)  # not hers

    # Beyond her 20 ft: the ghost says so while held, and the drop sends nothing.
    def too_far() -> None:
        expect(player.get_by_test_id("drag-ghost")).to_have_class(re.compile(r"\bfar\b"))
        expect(player.get_by_test_id("drag-ghost")).to_contain_text("25 ft: too far")
        expect(player.get_by_test_id("drag-reach")).to_be_visible()
        screenshot(player, "drag-too-far.png")

    commands = len(sent)
    drag_token(player, "alda", (35, 10), check=too_far)
    toast = player.get_by_test_id("toast").filter(has_text="Alda moves at most 20 ft a round, and that square is 25 ft away")
    expect(toast).to_have_attribute("data-code", "move/too-far")
    expect(player.get_by_test_id("drag-ghost")).to_have_count(0)
    expect(player.get_by_test_id("current-alda")).to_have_text("Not declared yet.")
    player.wait_for_timeout(200)
    assert [m for m in sent[commands:] if '"declare"' in m] == []

    # Within reach (a diagonal step counts 5 ft): the move is declared, and the GM sees it.
    def within() -> None:
        expect(player.get_by_test_id("drag-ghost")).to_have_class(re.compile(r"\bok\b"))
        expect(player.get_by_test_id("drag-ghost")).to_have_text("20 ft")

    drag_token(player, "alda", (30, 20), check=within)
    expect(player.get_by_test_id("current-alda")).to_have_text("Declared: move to (30, 20)")
    expect(gm.get_by_test_id("declared-alda")).to_contain_text("move to (30, 20)")
    expect(player.get_by_test_id("opt-alda-move-x")).to_have_value("30")
    expect(player.get_by_test_id("move-marker")).to_be_visible()
    declared = [m for m in sent if '"declare"' in m]
    assert len(declared) == 1 and '"action":{"type":"move","x":30,"y":20' in declared[0].replace(" ", "")
    screenshot(player, "drag-move.png")
    table.check()


def test_browser_cards_show_lasting_wounds_and_conditions(fray_server, table: Pages) -> None:
    """What the GM's edits and the rules leave on a figure, as each kind of page shows it."""
    fight = copy.deepcopy(FIGHT)
    fight["combatants"][0]["weapons"] = [{"name": "sword", "damage": "1d8", "broken": True}, {"name": "dagger", "damage": "1d4", "dropped": True}]
    fight["combatants"][1].update(hidden=True, hp=1, subdual=2, conditions=["prone", "pinned"])
    made = fray_server.create(fight)
    gm = table.open(made["links"]["gm"], "gm")
    player = table.open(made["links"]["players"]["alda"], "player", width=390)

    for page in (gm, player):
        expect(page.get_by_test_id("weapon-alda-0")).to_have_attribute("data-state", "broken")
        expect(page.get_by_test_id("weapon-alda-0")).to_contain_text("sword 1d8broken")
        expect(page.get_by_test_id("weapon-alda-1")).to_have_attribute("data-state", "dropped")
        expect(page.get_by_test_id("cond-gob-prone")).to_have_text("prone")
        expect(page.get_by_test_id("cond-gob-pinned")).to_have_text("pinned")
        expect(page.get_by_test_id("wound-gob")).to_have_count(0 if page is player else 1)
    expect(gm.get_by_test_id("hp-gob")).to_have_text("1/4")
    expect(gm.get_by_test_id("wound-gob")).to_have_text("badly wounded")
    expect(gm.get_by_test_id("subdual-gob")).to_have_text("2 (of 4 HP)")
    expect(player.get_by_test_id("hp-gob")).to_have_text("badly wounded")  # hidden: no figures
    expect(player.get_by_test_id("subdual-gob")).to_have_count(0)
    assert word_inside_its_square(player, "gob")
    assert overflowing(player) == []
    screenshot(player, "cards-phone.png")
    table.check()


def test_browser_monster_attack_routine_is_built_from_the_choice_data(fray_server, table: Pages) -> None:
    """A monster's attack routine (claw, claw, bite) in the GM's declaration form: the view's attack
    choice lists `routine` [false, true] and the client builds a checkbox for it with no code of its own;
    003: 'monsters ... must attack with a combat bonus of 0' when attacking multiple times."""
    weapons = [{"name": "claw", "damage": "1d3"}, {"name": "claw", "damage": "1d3"}, {"name": "bite", "damage": "1d6"}]
    made = fray_server.create(
        {
            "combatants": [
                {"id": "alda", "name": "Alda", "side": "party", "ac": 10, "hp": 20, "hp_max": 20, "attack_bonus": 0, "dex": 10, "x": 10, "y": 10},
                {
                    "id": "bear",
                    "name": "Bear",
                    "side": "beasts",
                    "klass": "monster",
                    "hd": 5,
                    "ac": 12,
                    "hp": 30,
                    "hp_max": 30,
                    "dex": 12,
                    "x": 15,
                    "y": 10,
                    "weapons": weapons,
                },
            ]
        }
    )
    gm = table.open(made["links"]["gm"], "gm")
    gm_force(gm, [5, 6, 10, 2, 10, 3, 10, 5])  # nobody surprised; three hits at d20 10 (+ 0 + AC 9 = 19): 2, 3, 5
    gm.get_by_test_id("start").click()
    expect(gm.get_by_test_id("round")).to_have_text("1")
    declare(gm, "bear", "attack", "alda", routine=True)
    expect(gm.get_by_test_id("declared-bear")).to_contain_text("attack Alda, its attack routine (claw, claw, bite)")
    gm_advance(gm)
    until_round(gm, 2)
    expect(logged(gm, "Bear attacks (routine) Alda: d20 10 + 0 combat bonus (multiple attacks) + AC 9 = 19 ≥ 19: hit.")).to_have_count(3)
    expect(logged(gm, "Alda takes 5 damage (1d6), 10 HP left.")).to_have_count(1)
    expect(gm.get_by_test_id("opt-alda-attack-routine")).to_have_count(0)  # a character has no routine
    table.check()
