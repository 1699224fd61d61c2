// Table chat and GM whispers (issue 13; rules/chat.py): the chat and whisper lines of
// the log this viewer may read, newest last, and a form to talk. The GM whispers to
// the player of a combatant, a player to the GM; spectators read. Every line is text.

import { $, h, replace } from "./dom.js";

const MAX = 500; // rules/chat.py MAX_TEXT

export class Chat {
  constructor(send) {
    this.send = send;
    this.lines = h("ol", { class: "plain chat-lines", testid: "chat-lines", "aria-live": "polite" });
    this.text = h("input", { id: "chat-text", testid: "chat-text", maxlength: MAX, autocomplete: "off", placeholder: "Say something to the table" });
    this.to = h("select", { id: "chat-to", testid: "chat-to", "aria-label": "To" });
    this.form = h(
      "form",
      { class: "inline chat-form", testid: "chat-form", hidden: true },
      h("label", { for: "chat-text", class: "small" }, "Say"),
      this.text,
      this.to,
      h("button", { type: "submit", testid: "chat-send" }, "Send"),
    );
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.text.value.trim();
      if (!text) return;
      const to = this.to.value;
      this.send(to ? { type: "say", text, to } : { type: "say", text }, to ? "whisper" : "chat");
      this.text.value = "";
    });
    this.el = h(
      "section",
      { class: "panel chat-panel", testid: "chat", "aria-labelledby": "chat-h" },
      h("h2", { id: "chat-h" }, "Table talk"),
      this.lines,
      this.form,
    );
    const log = $(".log-panel");
    if (log) log.before(this.el);
    this.key = "";
  }

  /** Log entries as they come (reset: the whole log again). */
  add(entries, reset) {
    if (reset) this.lines.replaceChildren();
    for (const e of entries) {
      if (e.kind !== "chat" && e.kind !== "whisper") continue;
      this.lines.append(h("li", { class: e.kind, testid: "chat-line", "data-kind": e.kind }, e.text));
    }
  }

  /** Who may be spoken to, from the view: the GM's combatants' players, or the GM. */
  update(view) {
    const role = view.you.role;
    this.form.hidden = role === "spectator";
    const options = role === "gm"
      ? [["", "to everyone"], ...view.combatants.map((c) => [c.id, `whisper to ${c.name}'s player`])]
      : [["", "to everyone"], ["gm", "whisper to the GM"]];
    const key = JSON.stringify(options);
    if (key === this.key) return;
    this.key = key;
    const chosen = this.to.value;
    replace(this.to, options.map(([value, label]) => h("option", { value }, label)));
    if (options.some(([value]) => value === chosen)) this.to.value = chosen;
  }
}
