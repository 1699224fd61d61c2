// "How deadly is this fight?": the GM asks the server to play the fight many
// times from where it stands, every side by a simple tactic (server/simulate.py,
// POST /api/encounters/{id}/simulate), and reads each side's odds with their
// 95% interval, how long fights last and who falls.

import { h, replace } from "./dom.js";

const RUNS = [
  ["200", "200 fights (quick)"],
  ["500", "500 fights"],
  ["2000", "2000 fights (closer odds)"],
];
const TACTICS = [
  ["nearest", "each attacks the nearest foe"],
  ["weakest", "each attacks the weakest foe"],
  ["focus", "all on one foe"],
];

const percent = (p) => `${(100 * p).toFixed(1)}%`;

export class Deadliness {
  constructor(encounter, token, complain) {
    this.url = `/api/encounters/${encodeURIComponent(encounter)}/simulate?${new URLSearchParams({ token })}`;
    this.complain = complain;
    this.sides = [];
    this.runs = h("select", { id: "simulate-runs", testid: "simulate-runs" }, RUNS.map(([v, l]) => h("option", { value: v, selected: v === "500" }, l)));
    this.tactics = h("div", { class: "row", testid: "simulate-tactics" });
    this.go = h("button", { type: "submit", testid: "simulate-go" }, "Simulate");
    this.result = h("div", { testid: "simulate-result", "aria-live": "polite" });
    const form = h(
      "form",
      { class: "gm-form", testid: "simulate-form" },
      h("p", { class: "hint" }, "Plays this fight many times from where it stands, with fresh dice, every side by a simple tactic."),
      h("div", { class: "row" }, h("div", { class: "field" }, h("label", { for: "simulate-runs" }, "How many"), this.runs)),
      this.tactics,
      this.go,
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.simulate();
    });
    this.el = h("details", { class: "gm-section", testid: "simulate-section" }, h("summary", {}, "How deadly is this fight?"), form, this.result);
  }

  update(view) {
    const sides = [...new Set(view.combatants.filter((c) => !c.vessel).map((c) => c.side))].sort();
    if (JSON.stringify(sides) === JSON.stringify(this.sides)) return;
    this.sides = sides;
    replace(
      this.tactics,
      sides.map((side) =>
        h(
          "div",
          { class: "field" },
          h("label", { for: `simulate-tactic-${side}` }, `${side} fight`),
          h("select", { id: `simulate-tactic-${side}`, "data-side": side }, TACTICS.map(([v, l]) => h("option", { value: v }, l))),
          h("label", { class: "check" }, h("input", { type: "checkbox", "data-flee": side }), " flee at half strength"),
          h("label", { class: "check" }, h("input", { type: "checkbox", "data-options": side }), " use attack routines and double attacks"),
        ),
      ),
    );
  }

  async simulate() {
    const sides = {};
    for (const side of this.sides) {
      const tactic = this.tactics.querySelector(`[data-side="${CSS.escape(side)}"]`).value;
      const flee = this.tactics.querySelector(`[data-flee="${CSS.escape(side)}"]`).checked;
      const options = this.tactics.querySelector(`[data-options="${CSS.escape(side)}"]`).checked;
      sides[side] = { tactic, ...(flee ? { flee_at: 0.5 } : {}), ...(options ? { options: true } : {}) };
    }
    this.go.disabled = true;
    replace(this.result, h("p", { class: "hint" }, "Simulating…"));
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ runs: Number(this.runs.value), sides }),
      });
      const body = await response.json();
      if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
      this.show(body);
    } catch (err) {
      replace(this.result);
      this.complain(`Cannot simulate the fight: ${err.message}`);
    } finally {
      this.go.disabled = false;
    }
  }

  show(n) {
    const odds = Object.entries(n.sides).map(([side, s]) =>
      h("li", { testid: `simulate-odds-${side}` }, `${side} wins ${percent(s.odds)} of the fights (95% interval ${percent(s.interval[0])} to ${percent(s.interval[1])})`),
    );
    if (n.no_winner.fights) odds.push(h("li", { testid: "simulate-odds-none" }, `no winner after ${n.rounds_at_most} rounds: ${percent(n.no_winner.odds)}`));
    const falls = Object.values(n.falls)
      .filter((f) => f.odds > 0)
      .sort((a, b) => b.odds - a.odds)
      .map((f) => h("li", {}, `${f.name} (${f.side}): out of the fight in ${percent(f.odds)}`));
    const played = n.runs < n.asked ? `${n.runs} of the ${n.asked} fights asked (the server's time budget)` : `${n.runs} fights`;
    replace(
      this.result,
      h("p", { testid: "simulate-summary" }, `${played}, ${n.rounds.mean.toFixed(1)} rounds on average (${n.rounds.min} to ${n.rounds.max}).`),
      h("ul", { class: "plain" }, odds),
      falls.length ? h("details", {}, h("summary", {}, "Who falls"), h("ul", { class: "plain" }, falls)) : null,
    );
  }
}
