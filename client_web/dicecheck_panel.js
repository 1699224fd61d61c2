// The replay's "Check the dice" (dicecheck.js): once the seed is revealed, every die the
// seed rolled in the lines shown is re-derived here and compared; the answer says how
// many match, or names the first that does not.

import { h } from "./dom.js";
import { checkDice } from "./dicecheck.js";

export class DiceCheck {
  constructor() {
    this.body = null;
    this.button = h("button", { type: "button", testid: "check-dice", on: { click: () => this.check() } }, "Check the dice");
    this.result = h("span", { testid: "dice-check", role: "status" }, "");
    this.el = h("p", { class: "small dice-check" }, this.button, " ", this.result);
  }

  update(body) {
    this.body = body;
    const seed = body.view.seed;
    this.button.disabled = !seed;
    this.button.title = seed ? "Re-derive every die the seed rolled, here in the page" : "The seed is revealed when the fight ends";
    this.result.textContent = "";
  }

  async check() {
    const { view, log } = this.body;
    const seedHex = view.seed;
    // The seed's sha256 was shown from the start (seed_hash): the revealed seed must be that one.
    if (globalThis.crypto?.subtle) {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(seedHex.match(/../g).map((b) => parseInt(b, 16)))));
      const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
      if (hex !== view.seed_hash) {
        document.body.dataset.diceChecked = "mismatch";
        this.result.textContent = `The revealed seed's sha256 is ${hex.slice(0, 12)}…, not the ${view.seed_hash.slice(0, 12)}… shown from the start.`;
        return;
      }
    }
    const { checked, matched, mismatch, marks } = checkDice(log, seedHex, view.origin?.at ?? -1);
    document.body.dataset.diceChecked = mismatch ? "mismatch" : "ok";
    this.mark(log, marks);
    this.result.textContent = mismatch
      ? `Event #${mismatch.seq}: d${mismatch.sides} ${mismatch.value} (${mismatch.purpose}) does not match the seed, which gives ${mismatch.expected}; ${matched} of ${checked} match.`
      : `All ${checked} dice the seed rolled match the revealed seed (sha256 ${view.seed_hash.slice(0, 12)}…, as shown from the start).`;
  }

  /** Each checked die's chip in the log (newest first: the last line is the first item) says whether it matched. */
  mark(log, marks) {
    const items = document.querySelectorAll("[data-testid=log] > li");
    for (const [i, j, expected] of marks) {
      const chip = items[log.length - 1 - i]?.querySelectorAll(".rolls > *")[j];
      if (!chip) continue;
      const ok = expected === log[i].rolls[j].value;
      chip.dataset.check = ok ? "match" : "mismatch";
      chip.title = ok ? "matches the revealed seed" : `the revealed seed gives ${expected}`;
    }
  }
}
