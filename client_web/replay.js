// The replay viewer: the same page, read-only, fed by GET /api/encounters/{id}/replay
// (server/replay.py) instead of the websocket. The server folds the stream up to
// the chosen event and filters it for this link's viewer, so a player's replay
// shows what that player saw then, never the GM's view.

import { checkLog } from "./dice.js";
import { $, h, replace } from "./dom.js";
import { nameCombatantFigures } from "./gm_links.js";
import { renderGrid } from "./map.js";
import * as draw from "./render.js";
import { EndSummary } from "./summary.js";

const SPEEDS = [
  ["0.5", "½ event a second"],
  ["1", "1 event a second"],
  ["2", "2 events a second"],
  ["4", "4 events a second"],
  ["10", "10 events a second"],
];
const FETCH_TIMEOUT_MS = 10000;
const SCRUB_DEBOUNCE_MS = 120;

export class Replay {
  constructor(encounter, token) {
    this.encounter = encounter;
    this.token = token;
    this.seq = null;
    this.wanted = null; // the event asked for last: steps count from it, so quick presses are not lost
    this.count = 0;
    this.rounds = [];
    this.playing = false;
    this.timer = null;
    this.inflight = null;
    this.scrubTimer = null;
    this.view = null;
    this.named = null; // the GM's: combatant figures named on the cards (gm_links.nameCombatantFigures)
    this.root = $("[data-testid=replay]");
    this.build();
  }

  api(path, params = {}) {
    const q = new URLSearchParams({ token: this.token, ...params });
    return `/api/encounters/${encodeURIComponent(this.encounter)}/${path}?${q}`;
  }

  build() {
    const button = (testid, label, text, click) =>
      h("button", { type: "button", testid, "aria-label": label, title: label, on: { click } }, text);
    this.slider = h("input", {
      type: "range", id: "replay-slider", testid: "replay-slider", min: 0, max: 0, step: 1, value: "0",
      "aria-label": "Event in the fight",
    });
    this.slider.addEventListener("input", () => {
      this.pause();
      this.position.textContent = `Event ${this.slider.value} of ${this.count - 1}`;
      clearTimeout(this.scrubTimer);
      this.scrubTimer = setTimeout(() => this.load(Number(this.slider.value)), SCRUB_DEBOUNCE_MS);
    });
    this.position = h("span", { testid: "replay-position", class: "replay-position" }, "Loading…");
    this.first = button("replay-first", "First event", "« First", () => this.go(0));
    this.back = button("replay-back", "One event back", "◀ Back", () => this.go(this.from() - 1));
    this.play = button("replay-play", "Play", "▶ Play", () => (this.playing ? this.pause() : this.start()));
    this.forward = button("replay-forward", "One event forward", "Forward ▶", () => this.go(this.from() + 1));
    this.last = button("replay-last", "Last event", "Last »", () => this.go(this.count - 1));
    this.speed = h(
      "select",
      { id: "replay-speed", testid: "replay-speed" },
      SPEEDS.map(([v, label]) => h("option", { value: v, selected: v === "2" }, label)),
    );
    // A what-if fork from the event shown (server/forks.py): the GM's at any time, anyone's once the fight has ended.
    this.fork = button("replay-fork", "Fork the fight here: a new fight from this event on", "Fork here", () => this.forkHere());
    // Every random roll recomputed from the revealed seed, in this browser (client_web/dice.js, docs/dice.md).
    this.checkDice = button("check-dice", "Check the dice: recompute every roll from the revealed seed, here", "Check the dice", () => this.check());
    this.diceResult = h("span", { testid: "dice-result", role: "status" });
    this.roundJump = h("select", { id: "replay-round", testid: "replay-round" });
    this.roundJump.addEventListener("change", () => {
      if (this.roundJump.value !== "") this.go(Number(this.roundJump.value));
    });
    const live = `/e/${encodeURIComponent(this.encounter)}?${new URLSearchParams({ token: this.token })}`;
    replace(
      this.root,
      h("h2", {}, "Replay"),
      h("div", { class: "timeline" }, h("label", { for: "replay-slider", class: "sr-only" }, "Timeline"), this.slider, this.position),
      h(
        "div",
        { class: "buttons" },
        this.first, this.back, this.play, this.forward, this.last,
        h("div", { class: "field" }, h("label", { for: "replay-speed" }, "Speed"), this.speed),
        h("div", { class: "field" }, h("label", { for: "replay-round" }, "Jump to"), this.roundJump),
        this.fork,
      ),
      h(
        "p",
        { class: "small" },
        "Export the log as you saw it: ",
        h("a", { href: this.api("export", { format: "md" }), testid: "export-md", download: "" }, "Markdown account"),
        " · ",
        h("a", { href: this.api("export", { format: "json" }), testid: "export-json", download: "" }, "JSON"),
        " · ",
        h("a", { href: live, testid: "live-link" }, "Back to the live table"),
      ),
      h("p", { class: "small" }, this.checkDice, " ", this.diceResult),
    );
    this.root.hidden = false;
    document.body.dataset.mode = "replay";
    $("#controls-h").textContent = "Replay";
    $("[data-testid=connection]").textContent = "replay";
    $("[data-testid=connection]").dataset.kind = "live";
    $("[data-testid=status-banner]").hidden = true;
    $("[data-testid=log-link]").hidden = true;
    $("[data-testid=replay-link]").hidden = true;
  }

  async start() {
    if (this.seq >= this.count - 1) await this.go(0);
    this.playing = true;
    this.play.textContent = "Pause";
    this.play.setAttribute("aria-label", "Pause");
    this.play.setAttribute("aria-pressed", "true");
    this.tick();
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    this.play.textContent = "▶ Play";
    this.play.setAttribute("aria-label", "Play");
    this.play.setAttribute("aria-pressed", "false");
  }

  tick() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    const delay = 1000 / Number(this.speed.value);
    this.timer = setTimeout(async () => {
      if (!this.playing) return;
      if (this.seq >= this.count - 1) {
        this.pause();
        return;
      }
      await this.go(this.seq + 1);
      this.tick();
    }, delay);
  }

  from() {
    return this.wanted ?? this.seq;
  }

  go(at) {
    if (this.count) at = Math.max(0, Math.min(this.count - 1, at));
    return this.load(at);
  }

  /** Fetch the fight at event `at` (null: the last event) and draw it. */
  async load(at) {
    this.inflight?.abort();
    this.wanted = at;
    const control = new AbortController();
    this.inflight = control;
    const timer = setTimeout(() => control.abort(), FETCH_TIMEOUT_MS);
    let body;
    try {
      const response = await fetch(this.api("replay", at === null ? {} : { at: String(at) }), { signal: control.signal });
      body = await response.json();
      if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
    } catch (err) {
      if (control.signal.aborted && this.inflight !== control) return; // a newer request took over
      this.pause();
      this.wanted = null;
      draw.toast(`Cannot load the replay: ${err.message}`, "replay/failed");
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.inflight !== control) return;
    this.inflight = null;
    this.show(body);
  }

  /** The whole log as this link saw it, every roll checked against the seed its fight
   * published and revealed, by this page's own code: no answer of the server is trusted. */
  async check() {
    this.checkDice.disabled = true;
    this.diceResult.textContent = "Checking…";
    try {
      const response = await fetch(this.api("export", { format: "json" }));
      const body = await response.json();
      if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
      const r = checkLog(body);
      const counted = `${r.random} random ${r.random === 1 ? "roll" : "rolls"} checked; ${r.forced} forced by the GM and ${r.entered} entered at the table`;
      const origin = r.unchecked ? `; ${r.unchecked} of the fight this one was forked from, not checked here` : "";
      this.diceResult.textContent = r.ok
        ? `Every random roll is the one the seed gives (${counted}${origin}).`
        : `Not verified: ${r.notes[r.notes.length - 1]}.`;
      this.diceResult.dataset.ok = String(r.ok);
    } catch (err) {
      this.diceResult.textContent = `Cannot check the dice: ${err.message}`;
      this.diceResult.dataset.ok = "false";
    } finally {
      this.checkDice.disabled = false;
    }
  }

  /** Fork the fight after the event shown, then open the fork as its GM. */
  async forkHere() {
    this.pause();
    const at = this.seq;
    this.fork.disabled = true;
    try {
      const response = await fetch(this.api("fork"), {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ at }),
      });
      const body = await response.json();
      if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
      window.location.assign(body.links.gm);
    } catch (err) {
      draw.toast(`Cannot fork the fight: ${err.message}`, "fork/failed");
      this.fork.disabled = false;
    }
  }

  show(body) {
    this.seq = body.seq;
    this.wanted = null;
    this.count = body.count;
    this.slider.max = String(body.count - 1);
    this.slider.value = String(body.seq);
    this.slider.setAttribute("aria-valuetext", `event ${body.seq} of ${body.count - 1}, round ${body.view.round}, ${body.view.phase}`);
    this.position.textContent = `Event ${body.seq} of ${body.count - 1}`;
    if (JSON.stringify(body.rounds) !== JSON.stringify(this.rounds)) {
      this.rounds = body.rounds;
      replace(
        this.roundJump,
        h("option", { value: "" }, "a round…"),
        body.rounds.map((r) => h("option", { value: String(r.seq) }, `Round ${r.round} (event ${r.seq})`)),
      );
    }
    this.roundJump.value = "";
    this.first.disabled = this.back.disabled = body.seq <= 0;
    this.forward.disabled = this.last.disabled = body.seq >= body.count - 1;
    // Who may fork (server/forks.py): the GM; anyone else once the fight has ended, before its end.
    const mayFork = body.view.you.role === "gm" || body.ended;
    this.fork.hidden = !mayFork;
    this.fork.disabled = body.ended && body.seq >= body.count - 1;
    document.body.dataset.replaySeq = String(body.seq);

    const view = (this.view = body.view);
    if (view.you.role === "gm" && !this.named) {
      // Asked once; if the profiles did not load, the next event shown asks again.
      this.named = nameCombatantFigures(() => draw.renderCards(this.view)).then((ok) => (this.named = ok));
    }
    draw.renderHeader(view);
    draw.renderCards(view);
    draw.renderRound(view);
    draw.renderAwaiting(view, null);
    renderGrid(view, null, null);
    draw.addLog(body.log, true);
    this.summary ??= new EndSummary(this.encounter, this.token);
    if (view.status === "ended") this.summary.show(body.summary); // the fight in numbers, as this link saw it
    else this.summary.el.hidden = true;
    const idle = $("[data-testid=no-actions]");
    idle.hidden = false;
    idle.textContent = `A replay: the fight as ${view.you.role === "gm" ? "the GM" : `a ${view.you.role}`} saw it at event ${body.seq}.`;
  }
}
