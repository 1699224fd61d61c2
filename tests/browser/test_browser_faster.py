"""Playing faster (issue 23, part 3), in real Chromium: the GM's actions in each round
of the demo fight, counted on the GM's page. 'Before': the GM declares for every goblin
from the console. 'After': the goblins are on a tactic (server/handover.py), and the GM
resolves. The party is declared by its players on their own pages, and the dice are
forced from a second GM page (the test's hand, not the GM's), so both fights are the
same fight: the same declarations, and every d20 a 2 (nobody is hit), round after round."""

import re
import time

import pytest
from pages import TIMEOUT_MS, Pages, declare, gm_force
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser

GOBLINS = {"gob1": "Goblin 1", "gob2": "Goblin 2", "gob3": "Goblin 3", "gob4": "Goblin 4"}
# What each adventurer's player declares in round 1, then "the same as last round".
PARTY = {"alda": ("attack", "gob1"), "bran": ("attack", "gob2"), "cora": ("hold", None)}
# What the goblins declare, by hand or by the tactic 'nearest': Goblins 3 and 4 stand 10 ft
# from the party, out of their weapons' reach, so they charge in round 1 and attack after.
ROUND_1 = ["Goblin 1 attacks Alda", "Goblin 2 attacks Alda", "Goblin 3 charges Alda", "Goblin 4 charges Brother Bran"]
DECLARED = {
    1: ["attack Alda", "attack Alda", "charge Alda", "charge Brother Bran"],
    2: ["attack Alda", "attack Alda", "attack Alda", "attack Brother Bran"],
}
D20S = 8  # a round's d20s at most: round 1's 4 standing attacks, 2 charges and the 2 strikes back at them

# The GM's page counts what the hands do to it: a press of a pointer (mouse, pen or
# finger), a key, an option picked from a list (Playwright picks it from script, so that
# one is not 'trusted'; the page's own script never sends 'input' to a list).
COUNT_ON_PAGE = """() => {
    window.gmActions = 0;
    const count = () => { window.gmActions += 1; };
    document.addEventListener("pointerdown", (e) => e.isTrusted && count(), true);
    document.addEventListener("keydown", (e) => e.isTrusted && count(), true);
    document.addEventListener("input", (e) => e.target.tagName === "SELECT" && count(), true);
}"""


class Hands:
    """The GM's hands on the GM's page: every click and pick from a list goes through here, counted."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.count = 0
        page.evaluate(COUNT_ON_PAGE)

    def click(self, target: Locator) -> None:
        target.click()
        self.count += 1

    def pick(self, target: Locator, value: str) -> None:
        """Pick `value` from a list, unless it is the one shown already (a GM looks first)."""
        if target.input_value() != value:
            target.select_option(value)
            self.count += 1

    def on_page(self) -> int:
        return self.page.evaluate("window.gmActions")


def by_hand(hands: Hands, gm: Page, goblin: str) -> None:
    """The GM declares for `goblin` from the console, as 'nearest' would: at the first
    target its form offers (the nearest foe), an attack where it stands if its weapon
    reaches (the form says when it cannot land), else a charge."""
    panel = gm.get_by_test_id(f"declare-{goblin}")
    if panel.get_attribute("open") is None:
        hands.click(panel.locator("summary"))
    action = gm.get_by_test_id(f"action-{goblin}")
    hands.pick(action, "attack")
    if gm.get_by_test_id(f"warn-{goblin}-attack").is_visible():  # "... so it cannot land. Charge or approach to close in."
        hands.pick(action, "charge")
        hands.click(gm.get_by_test_id(f"submit-{goblin}-charge"))
    else:
        hands.click(gm.get_by_test_id(f"submit-{goblin}-attack"))
    expect(gm.get_by_test_id(f"current-{goblin}")).to_contain_text("Declared")


def party_declares(players: dict[str, Page], round_: int) -> None:
    for cid, page in players.items():
        expect(page.get_by_test_id("round")).to_have_text(str(round_))
        if round_ == 1:
            declare(page, cid, *PARTY[cid])
        else:
            page.get_by_test_id("same-party").click()
            expect(page.get_by_test_id(f"current-{cid}")).to_contain_text("Declared")


def resolve(hands: Hands, gm: Page, round_: int, mine: set[str]) -> int:
    """Close declarations and resolve, then answer each prompt the bar puts to a combatant
    the GM plays (`mine`, names) or to the GM, with its first answer, until the next
    round's declarations open. Returns how many prompts the GM answered."""
    bar = gm.get_by_test_id("gm-bar")
    expect(bar.get_by_test_id("bar-awaited")).to_have_text("Everyone has declared.")
    hands.click(bar.get_by_test_id("bar-advance"))
    answered = set()
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while not (gm.get_by_test_id("round").text_content() == str(round_ + 1) and bar.get_attribute("data-state") == "declaration"):
        step = bar.get_by_test_id("bar-step").text_content() or ""
        assert time.monotonic() < deadline, f"round {round_ + 1} never came; the bar: {step!r}"
        key = bar.get_attribute("data-key")
        if bar.get_attribute("data-state") == "prompt" and key not in answered:
            who = re.search(r"\(for (.+)\)$", step)
            if who is None or who.group(1) in mine:
                hands.click(bar.locator("[data-testid^=bar-answer-]").first)
                answered.add(key)
        gm.wait_for_timeout(50)
    return len(answered)


def play(fray_server, table: Pages, rounds: int, tactics: bool, body: dict | None = None, d20s: tuple[int, ...] = ()) -> tuple[Hands, list[int]]:
    """The demo to round `rounds`' declarations: the goblins handed to 'nearest' from the
    console (`tactics`) or not, the dice forced (`d20s` first, then 2s), the fight started.
    Returns the GM's hands and the players' pages; the GM's actions so far are the setup's."""
    made = fray_server.create(body)  # the demo: Alda, Brother Bran and Cora against four goblins
    gm = table.open(made["links"]["gm"], "gm")
    dice = table.open(made["links"]["gm"], "dice")
    players = {cid: table.open(link, cid) for cid, link in made["links"]["players"].items()}
    assert sorted(players) == sorted(PARTY)
    gm_force(dice, [6, 6])  # surprise: nobody
    queued = [*d20s, *[2] * (D20S * rounds)]
    dice.get_by_test_id("force-input").fill("d20: " + ", ".join(map(str, queued)))
    dice.get_by_test_id("force-rolls").click()
    expect(dice.get_by_test_id("forced-by-die")).to_contain_text(f"{queued[0]} (the next d20)")

    hands = Hands(gm)
    if tactics:
        hands.click(gm.get_by_test_id("tactics-section").locator("summary"))
        hands.pick(gm.get_by_test_id("tactics-who"), "side:goblins")
        hands.click(gm.get_by_test_id("tactics-go"))
        expect(gm.get_by_test_id("tactics-list")).to_contain_text("gob1, gob2, gob3, gob4 on tactics: nearest")
    hands.click(gm.get_by_test_id("bar-start"))
    expect(gm.get_by_test_id("round")).to_have_text("1")
    return hands, players


def rounds_played(hands: Hands, players: dict[str, Page], rounds: int, tactics: bool) -> tuple[list[int], list[int]]:
    """Play rounds 1 to `rounds`: the GM's actions in each, and the prompts the GM answered in each."""
    gm = hands.page
    counts, prompts = [], []
    for round_ in range(1, rounds + 1):
        expect(gm.get_by_test_id("round")).to_have_text(str(round_))
        before = hands.count
        party_declares(players, round_)
        if not tactics:
            for goblin in GOBLINS:
                by_hand(hands, gm, goblin)
        expect(gm.get_by_test_id("declared-gob4")).to_contain_text(DECLARED[min(round_, 2)][3])
        prompts.append(resolve(hands, gm, round_, set() if tactics else set(GOBLINS.values())))
        counts.append(hands.count - before)
    return counts, prompts


def the_same_fight(gm: Page, rounds: int, tactics: bool) -> None:
    """Both fights are one: the goblins declared what 'nearest' declares, and nobody was hit."""
    lines = gm.locator("[data-testid=log-entry] .text").all_text_contents()
    marked = " (tactics: nearest)" if tactics else ""
    declared = [line for line in lines if re.match(r"^Goblin \d( \(tactics: nearest\))? declares: ", line)]
    expected = [f"{name}{marked} declares: {said}." for r in range(1, rounds + 1) for name, said in zip(GOBLINS.values(), DECLARED[min(r, 2)], strict=True)]
    assert sorted(declared) == sorted(expected)
    for done in ROUND_1:
        assert any(line.startswith(done) for line in lines), done
    assert not [line for line in lines if re.search(r"takes \d+ damage", line)]


def test_browser_faster_gm_declares_for_every_goblin_by_hand(fray_server, table: Pages) -> None:
    """'Before': every goblin declared from the GM console, every round."""
    rounds = 3
    hands, players = play(fray_server, table, rounds + 1, tactics=False)
    assert hands.count == 1  # the setup: Start the fight
    counts, prompts = rounds_played(hands, players, rounds, tactics=False)
    # Each goblin's declaration panel starts folded on the GM's page (and folds again once
    # declared): a click opens it, a click on "Declare" sends it, and 4 goblins make 8; a
    # ninth click resolves. Round 1: Goblins 3 and 4 cannot reach, so "charge" is picked
    # for each (2 more). Round 2: they now stand beside their foes, and their forms still
    # show round 1's "charge": "attack" is picked back for each (2 more). Round 3: 9.
    assert counts == [11, 11, 9]
    assert prompts == [0, 0, 0]  # nobody parried: no prompt came

    # "The same as last round" (issue 13) sends the goblins' round 3 again in one click: a
    # round in which nothing changes takes 2 (the party's players do the same on theirs).
    before = hands.count
    party_declares(players, rounds + 1)
    hands.click(hands.page.get_by_test_id("same-goblins"))
    expect(hands.page.get_by_test_id("declared-gob4")).to_contain_text("attack Brother Bran")
    assert resolve(hands, hands.page, rounds + 1, set(GOBLINS.values())) == 0
    assert hands.count - before == 2
    the_same_fight(hands.page, rounds + 1, tactics=False)
    assert hands.on_page() == hands.count  # the page saw every action counted, and no other
    table.check()


def test_browser_faster_goblins_on_a_tactic(fray_server, table: Pages) -> None:
    """'After': the goblins handed to 'nearest', the party declared: the GM resolves, once a round."""
    rounds = 3
    hands, players = play(fray_server, table, rounds, tactics=True)
    # The setup, once a fight: open "Monsters on tactics", Hand over ("every goblins" and
    # "nearest" are the lists' first choices), Start the fight.
    assert hands.count == 3
    counts, prompts = rounds_played(hands, players, rounds, tactics=True)
    assert counts == [1, 1, 1]  # resolve: the tactic declared for the goblins as the round opened
    assert prompts == [0, 0, 0]
    assert all(n <= 2 for n in counts)
    # And round 4's declarations are in already, the tactic's, for the GM to resolve.
    tactics_lines = hands.page.get_by_test_id("log-entry").filter(has_text=re.compile(r"^Goblin \d \(tactics: nearest\) declares: "))
    expect(tactics_lines).to_have_count(4 * (rounds + 1))
    the_same_fight(hands.page, rounds + 1, tactics=True)
    assert hands.on_page() == hands.count
    table.check()


@pytest.mark.parametrize(("tactics", "gm_actions", "gm_answers"), [(False, 12, 1), (True, 1, 0)], ids=["by-hand", "on-a-tactic"])
def test_browser_faster_a_prompt_to_a_goblin(fray_server, table: Pages, tactics: bool, gm_actions: int, gm_answers: int) -> None:
    """The demo under 001 (profile challenges): Goblin 1's natural 20 asks whether to take the
    Attack Result or a normal hit and an extra attack. By hand, the GM answers it: round 1's
    11 actions and the answer. On a tactic, the tactic answers it (its first answer, as the
    simulator does) and the GM's round is still the one click."""
    hands, players = play(fray_server, table, 1, tactics=tactics, body={"profile": "challenges"}, d20s=(20,))
    counts, prompts = rounds_played(hands, players, 1, tactics=tactics)
    assert (counts, prompts) == ([gm_actions], [gm_answers])
    log = hands.page.get_by_test_id("log-entry")
    expect(log.filter(has_text=re.compile(r"^Goblin 1 attacks Alda: d20 20 .*a natural 20"))).to_have_count(1)
    expect(log.filter(has_text=re.compile(r"^Goblin 1 takes the Attack Result"))).to_have_count(1)  # the first answer
    assert hands.on_page() == hands.count
    table.check()
