// What just happened (the GM's, issue 27): after the GM closes declarations, the lines of
// that round's resolution, newest last, in a panel under the GM's bar, so the GM need
// not scroll to the log at the foot of the page. It fills until declarations open again
// (or the fight ends): a prompt answered on the way adds to the same round's lines.

import { h, replace } from "./dom.js";
import { rollChip } from "./render.js";

const SHOWN = 12; // lines shown; the rest are in the log

export class Recent {
  constructor() {
    this.lines = h("ol", { class: "plain recent-lines" });
    this.heading = h("h2", { id: "recent-h" }, "What just happened");
    this.more = h("p", { class: "small muted", testid: "recent-more", hidden: true });
    // A <details>: the GM folds it away while declaring; the next resolution opens it again.
    this.fold = h("details", { open: true }, h("summary", { testid: "recent-fold" }, this.heading), this.lines, this.more);
    this.el = h("section", { class: "panel recent", testid: "recent", "aria-labelledby": "recent-h", hidden: true }, this.fold);
    this.from = null; // the last event already shown before the GM resolved
    this.round = 0;
    this.entries = [];
    this.shown = false; // scrolled into view once for this resolution
  }

  /** The GM closed declarations: collect what follows `after` (the last event shown). */
  begin(round, after) {
    this.from = after;
    this.round = round;
    this.entries = [];
    this.shown = false;
    this.fold.open = true;
  }

  add(entries) {
    if (this.from === null) return;
    const fresh = entries.filter((e) => e.seq > this.from && e.kind !== "chat" && e.kind !== "whisper");
    if (!fresh.length) return;
    this.entries.push(...fresh);
    this.draw();
  }

  draw() {
    const last = this.entries.slice(-SHOWN);
    this.heading.textContent = `What just happened: round ${this.round}`;
    replace(
      this.lines,
      last.map((e) =>
        h("li", { testid: "recent-line", class: `entry kind-${e.kind.replace(/[^a-z0-9_-]/gi, "")}` },
          h("span", { class: "text" }, e.text),
          e.rolls?.length ? h("span", { class: "rolls" }, e.rolls.map(rollChip)) : null),
      ),
    );
    const earlier = this.entries.length - last.length;
    this.more.hidden = !earlier;
    this.more.textContent = earlier ? `${earlier} earlier ${earlier === 1 ? "line" : "lines"} of this round in the combat log.` : "";
    this.el.hidden = false;
    if (!this.shown) {
      this.shown = true;
      // The GM may be far down the page (the console): bring the lines to them, under the sticky bar.
      const bar = document.querySelector("[data-testid=gm-bar]");
      const top = this.el.getBoundingClientRect().top;
      const under = bar ? bar.getBoundingClientRect().height : 0;
      if (top < under || top > window.innerHeight / 2) window.scrollBy(0, top - under - 8);
    }
  }
}
