// The end of a fight in numbers (issue 13; rules/summary.py): rounds, who fell and to
// whom, damage dealt and taken, and the dice the GM forced or the table rolled, as this
// link saw them. Fetched once from the replay endpoint when the fight has ended.

import { $, h, replace } from "./dom.js";

export function summaryBody(s) {
  const dice = (list) => list.map((d) => `d${d.sides} ${d.value} (${d.purpose})`).join("; ");
  return [
    h("p", { testid: "summary-rounds" }, `${s.rounds} round${s.rounds === 1 ? "" : "s"}.`),
    h("h3", {}, "Who fell"),
    s.fell.length
      ? h("ul", { class: "plain", testid: "summary-fell" }, s.fell.map((f) => h("li", {}, `${f.name}, in round ${f.round}${f.by ? `, to ${f.by}` : ""}`)))
      : h("p", { class: "muted", testid: "summary-fell" }, "Nobody fell."),
    h("h3", {}, "Damage"),
    s.damage.length
      ? h(
          "table",
          { class: "summary-damage", testid: "summary-damage" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Combatant"), h("th", { scope: "col" }, "Dealt"), h("th", { scope: "col" }, "Taken"))),
          h("tbody", {}, s.damage.map((t) => h("tr", { "data-id": t.id }, h("th", { scope: "row" }, t.name), h("td", {}, String(t.dealt)), h("td", {}, String(t.taken))))),
        )
      : h("p", { class: "muted", testid: "summary-damage" }, "No damage was dealt."),
    h("h3", {}, "Dice"),
    h(
      "p",
      { testid: "summary-dice" },
      `${s.seeded} rolled by the seed; ${s.forced.length} forced by the GM${s.forced.length ? `: ${dice(s.forced)}` : ""}; ` +
        `${s.entered.length} rolled at the table${s.entered.length ? `: ${dice(s.entered)}` : ""}.`,
    ),
  ];
}

export class EndSummary {
  constructor(encounter, token) {
    this.url = `/api/encounters/${encodeURIComponent(encounter)}/replay?${new URLSearchParams({ token })}`;
    this.el = h("section", { class: "panel summary-panel", testid: "summary", "aria-labelledby": "summary-h", hidden: true });
    const log = $(".log-panel");
    if (log) log.before(this.el);
    this.loaded = false;
  }

  async update(view) {
    if (view.status !== "ended" || this.loaded) return;
    this.loaded = true;
    try {
      const r = await fetch(this.url, { cache: "no-store" });
      if (!r.ok) throw new Error(`the server answered ${r.status}`);
      this.show((await r.json()).summary);
    } catch (err) {
      this.loaded = false; // the next change tries again
      console.warn("Fray: no summary", err);
    }
  }

  show(summary) {
    replace(this.el, h("h2", { id: "summary-h" }, "The end of the fight"), summaryBody(summary));
    this.el.hidden = false;
  }
}
