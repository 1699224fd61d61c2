// "Let the goblins fight": the GM hands a side, or one combatant, to a tactic
// (server/handover.py, POST /api/encounters/{id}/tactics). A bot then declares
// for them as soon as each round's declarations open, marked in the log
// ("Goblin 2 (tactics: nearest) declares: ..."); the GM may change any of those
// before resolving, and takes them back at any time (their link is revoked).
// The tactics' names are the server's (server/tactics.py), fetched, not retyped.

import { h, replace } from "./dom.js";

export class Tactics {
  constructor(encounter, token, complain) {
    this.base = `/api/encounters/${encodeURIComponent(encounter)}/tactics`;
    this.query = new URLSearchParams({ token }).toString();
    this.complain = complain;
    this.who = h("select", { id: "tactics-who", testid: "tactics-who" });
    this.tactic = h("select", { id: "tactics-tactic", testid: "tactics-tactic" });
    this.flee = h("input", { type: "checkbox", testid: "tactics-flee" });
    this.options = h("input", { type: "checkbox", testid: "tactics-options" });
    this.go = h("button", { type: "submit", testid: "tactics-go", disabled: true }, "Hand over"); // until the tactics are known
    this.asked = 0; // refreshes asked for: only the latest one's answer is shown
    this.list = h("ul", { class: "plain", testid: "tactics-list", "aria-live": "polite" });
    this.choices = "";
    const form = h(
      "form",
      { class: "gm-form", testid: "tactics-form" },
      h("p", { class: "hint" }, "A tactic declares for them as soon as each round's declarations open; change any declaration before you resolve, or take them back."),
      h(
        "div",
        { class: "row" },
        h("div", { class: "field" }, h("label", { for: "tactics-who" }, "Who"), this.who),
        h("div", { class: "field" }, h("label", { for: "tactics-tactic" }, "Tactic"), this.tactic),
      ),
      h("label", { class: "check" }, this.flee, " flee at half strength"),
      h("label", { class: "check" }, this.options, " use attack routines and double attacks"),
      this.go,
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.handOver();
    });
    this.el = h("details", { class: "gm-section", testid: "tactics-section" }, h("summary", {}, "Monsters on tactics"), form, this.list);
    this.el.addEventListener("toggle", () => this.el.open && this.refresh());
  }

  update(view) {
    // Each side still fighting, then each combatant: a side's value is "side:<name>", a combatant's its id.
    const sides = [...new Set(view.combatants.filter((c) => !c.down).map((c) => c.side))].sort();
    const items = [...sides.map((s) => [`side:${s}`, `every ${s}`]), ...view.combatants.filter((c) => !c.down).map((c) => [c.id, `${c.name} (${c.side})`])];
    const key = JSON.stringify(items);
    if (key === this.choices) return;
    this.choices = key;
    const chosen = this.who.value;
    replace(this.who, items.map(([value, label]) => h("option", { value }, label)));
    if (items.some(([value]) => value === chosen)) this.who.value = chosen;
  }

  async call(path, body) {
    const response = await fetch(`${this.base}${path}?${this.query}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.message ?? `the server answered ${response.status}`);
    return answer;
  }

  async refresh() {
    const asked = ++this.asked;
    try {
      const answer = await this.call("");
      if (asked === this.asked) this.show(answer); // an older answer arriving late does not undo a newer one
    } catch (err) {
      this.complain(`Cannot list the tactics: ${err.message}`);
    }
  }

  show({ tactics, handovers }) {
    if (this.tactic.options.length !== tactics.length) replace(this.tactic, tactics.map((t) => h("option", { value: t }, t)));
    this.go.disabled = !this.tactic.value; // a hand-over names a tactic: none before they are listed
    replace(
      this.list,
      handovers.map((o) =>
        h(
          "li",
          { testid: `tactics-handover-${o.token_id}` },
          `${o.combatants.join(", ")} on ${o.name} `,
          h("button", { type: "button", testid: "tactics-release", on: { click: () => this.release(o.token_id) } }, "Take back"),
        ),
      ),
    );
  }

  async handOver() {
    const who = this.who.value;
    const body = {
      ...(who.startsWith("side:") ? { side: who.slice(5) } : { combatants: [who] }),
      tactic: this.tactic.value,
      ...(this.flee.checked ? { flee_at: 0.5 } : {}),
      ...(this.options.checked ? { options: true } : {}),
    };
    this.go.disabled = true;
    try {
      await this.call("", body);
      await this.refresh();
    } catch (err) {
      this.complain(`Cannot hand them over: ${err.message}`);
    } finally {
      this.go.disabled = !this.tactic.value;
    }
  }

  async release(tokenId) {
    try {
      await this.call(`/${encodeURIComponent(tokenId)}/release`, {});
      await this.refresh();
    } catch (err) {
      this.complain(`Cannot take them back: ${err.message}`);
    }
  }
}
