"""The browser's own check of the dice (client_web/dice.js) under node: it passes docs/dice.md's
test vectors as the Python does, and judges a fight's log as `fray verify` does (a fight that
verifies, one tampered roll, a tampered seed, a fork). The replay page runs the same module
in Chromium (tests/browser/test_browser_dice_check.py)."""

import json
import shutil
import subprocess

import pytest
from support import ROOT
from test_verify import BIG, BRAWL, SEED, VECTORS, forked, log_of, tampered

from fray_table.rules.view import Viewer
from fray_table.server import verify

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed (the browser test runs the same module in Chromium)")
MODULE = (ROOT / "client_web" / "dice.js").as_uri()


def node(script: str, data=None):
    """Run `script` as an ES module with `dice` imported and `data` as the JSON of stdin; its printed JSON."""
    code = f"import * as dice from {json.dumps(MODULE)};\nconst data = JSON.parse(require_stdin());\n{script}"
    code = code.replace(
        "require_stdin()", "(await new Promise((ok) => { let s = ''; process.stdin.on('data', (c) => (s += c)); process.stdin.on('end', () => ok(s)); }))"
    )
    done = subprocess.run([NODE, "--input-type=module", "-e", code], input=json.dumps(data), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_vectors_in_javascript():
    rows = [[p, i, str(s), r] for p, i, s, r in VECTORS]
    got = node(
        "const seed = dice.fromHex(data.seed);\n"
        "console.log(JSON.stringify(data.rows.map(([p, i, s]) => String(dice.draw(seed, p, i, BigInt(s) > 2n ** 53n ? BigInt(s) : Number(s))))));",
        {"seed": SEED.hex(), "rows": rows},
    )
    assert got == [str(r) for *_, r in VECTORS]
    assert str(BIG) in [row[2] for row in rows]
    assert node("console.log(JSON.stringify(dice.sha256hex(new TextEncoder().encode(data))));", "fray") == SEED.hex()


def judged(lines: list[dict]) -> tuple[dict, verify.Report]:
    """The log judged by dice.js and by server/verify.py."""
    js = node("console.log(JSON.stringify(dice.checkLog(data)));", lines)
    return js, verify.check(verify.parse(json.dumps(lines).encode()))


@pytest.mark.parametrize("viewer", [Viewer("gm"), Viewer("player", ("alda",))])
def test_a_fight_verifies_in_javascript_as_in_python(viewer):
    js, py = judged(log_of(BRAWL, viewer))
    assert js["ok"] and py.ok
    assert (js["random"], js["forced"], js["entered"], js["unchecked"]) == (py.random, py.forced, py.entered, py.unchecked)
    assert js["notes"] == py.lines


def test_a_tampered_roll_and_a_tampered_seed_are_caught_in_javascript():
    lines, line, roll = tampered(log_of(BRAWL, Viewer("gm")))
    js, py = judged(lines)
    assert not js["ok"] and not py.ok
    assert js["notes"][-1].startswith(f"event {line['seq']}, draw ") and f"shows {roll['value']}; the seed gives" in js["notes"][-1]
    assert js["notes"][-1].split(" (the line")[0].replace("'", "") == py.lines[-1].split(" (the line")[0].replace("'", "")

    lines = log_of(BRAWL, Viewer("spectator"))
    lines[-1]["text"] = lines[-1]["text"].replace("Seed revealed: ", "Seed revealed: 00", 1)
    js, py = judged(lines)
    assert not js["ok"] and js["notes"] == py.lines and js["notes"][-1].startswith("the seed does not match the published hash")


def test_a_forks_log_in_javascript():
    js, py = judged(log_of(forked(), Viewer("spectator")))
    assert js["ok"] and py.ok and js["unchecked"] == py.unchecked > 0 and js["random"] == py.random and js["notes"] == py.lines


def test_a_log_lacking_a_line_with_dice_verifies_in_javascript_as_in_python():
    """Each seeded roll's draw index (docs/dice.md) lets both checks skip a line the log lacks."""
    lines = log_of(BRAWL, Viewer("gm"))
    seqs = [line["seq"] for line in lines if any("draw" in r for r in line.get("rolls", []))]
    seq = next(s for s in seqs if seqs.count(s) >= 2)
    first = next(line for line in lines if line["seq"] == seq and any("draw" in r for r in line.get("rolls", [])))
    js, py = judged([line for line in lines if line is not first])
    assert js["ok"] and py.ok and js["random"] == py.random
