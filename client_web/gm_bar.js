// The GM's bar: sticky at the top of the page, it says what the round waits on
// and holds the one button that moves it on (start; close declarations and
// resolve; the answer to a prompt), with who is still awaited. A prompt also
// changes the tab's title, and chimes if the GM turned the sound on.

import { h, replace } from "./dom.js";
import { answerLabel, dieForm, nameOf } from "./render.js";

const SOUND_KEY = "fray.sound"; // "on" when the GM wants a chime on each new prompt
const ARM_MS = 5000; // how long "resolve anyway?" waits for its second click

function chime() {
  // A short two-note chime (WebAudio: nothing to download, nothing in the CSP to allow).
  const Audio = window.AudioContext ?? window.webkitAudioContext;
  if (!Audio) return;
  const ctx = (chime.ctx ??= new Audio());
  const now = ctx.currentTime;
  for (const [i, freq] of [660, 880].entries()) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.15 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + i * 0.15);
    osc.stop(now + i * 0.15 + 0.15);
  }
}

export class GmBar {
  /**
   * @param {(command: object, label: string) => void} send
   * @param {(awaiting: string, choice: string) => void} answer
   */
  constructor(send, answer) {
    this.send = send;
    this.answer = answer;
    this.view = null;
    this.armed = null; // the timer of an armed "resolve anyway?"
    this.prompted = null; // the prompt already chimed for
    // Announced when it changes (the next step, a prompt's question): a screen reader hears the round move on.
    this.step = h("p", { class: "bar-step", testid: "bar-step", "aria-live": "polite" });
    this.awaited = h("p", { class: "bar-awaited small", testid: "bar-awaited" });
    this.actions = h("div", { class: "buttons bar-actions", testid: "bar-actions" });
    let stored = "";
    try {
      stored = localStorage.getItem(SOUND_KEY) ?? "";
    } catch {
      /* storage refused: the sound stays off */
    }
    this.sound = h("input", { type: "checkbox", id: "bar-sound", testid: "bar-sound", checked: stored === "on" });
    this.sound.addEventListener("change", () => {
      try {
        localStorage.setItem(SOUND_KEY, this.sound.checked ? "on" : "");
      } catch {
        /* not kept across reloads, but on for now */
      }
      if (this.sound.checked) chime(); // the click lets the page play sound, and the GM hears what it will be
    });
    this.el = h(
      "section",
      { class: "gm-bar", testid: "gm-bar", "aria-label": "The GM's next step", "data-chimes": "0" },
      h("div", { class: "bar-main" }, this.step, this.actions),
      h("div", { class: "bar-side" }, this.awaited,
        h("div", { class: "field check small" }, this.sound, h("label", { for: "bar-sound" }, "Sound on prompts"))),
    );
  }

  /** Close declarations and resolve; with declarations missing, the first click asks for a second. */
  advance(button) {
    const missing = this.view?.awaited ?? [];
    if (!missing.length || this.armed) {
      this.disarm();
      this.send({ type: "advance" }, "close declarations and resolve");
      return;
    }
    const names = missing.map((id) => nameOf(this.view, id)).join(", ");
    button.textContent = `${names} ${missing.length === 1 ? "has" : "have"} not declared: resolve anyway? Click again`;
    button.classList.add("danger");
    button.dataset.armed = "true";
    this.armedButton = button;
    this.armed = setTimeout(() => this.disarm(), ARM_MS);
  }

  disarm() {
    clearTimeout(this.armed);
    this.armed = null;
    const b = this.armedButton;
    if (b) {
      b.textContent = b.dataset.label ?? b.textContent;
      b.classList.remove("danger");
      delete b.dataset.armed;
    }
    this.armedButton = null;
  }

  update(view) {
    const before = this.view;
    this.view = view;
    const a = view.awaiting;
    const key = JSON.stringify([view.status, view.phase, view.round, a?.id ?? null]);
    if (this.el.dataset.key !== key) {
      this.el.dataset.key = key;
      this.disarm();
      this.draw(view);
    }
    this.el.dataset.state = a ? "prompt" : view.status === "setup" ? "setup" : view.status === "ended" ? "ended" : view.phase;
    const waiting = view.status === "running" && view.phase === "declaration" && !a;
    this.awaited.hidden = !waiting;
    this.awaited.textContent = view.awaited.length
      ? `Still to declare: ${view.awaited.map((id) => nameOf(view, id)).join(", ")}`
      : "Everyone has declared.";
    if (this.armed && before && JSON.stringify(before.awaited) !== JSON.stringify(view.awaited)) this.disarm();
    if (a && this.prompted !== a.id) {
      this.prompted = a.id;
      if (this.sound.checked) {
        chime();
        this.el.dataset.chimes = String(Number(this.el.dataset.chimes) + 1);
      }
    }
    if (!a) this.prompted = null;
  }

  draw(view) {
    const a = view.awaiting;
    const button = (testid, label, click) => h("button", { type: "button", testid, "data-label": label, on: { click } }, label);
    this.el.classList.toggle("urgent", Boolean(a));
    if (a) {
      const who = a.who === "gm" ? "" : ` (for ${nameOf(view, a.who)})`;
      replace(this.step, h("strong", {}, "Answer: "), a.prompt, who);
      replace(
        this.actions,
        a.kind === "die"
          ? dieForm(a, this.answer, "bar-")
          : a.options.map((opt) => button(`bar-answer-${opt}`, answerLabel(view, a, opt), () => this.answer(a.id, opt))),
      );
    } else if (view.status === "setup") {
      replace(this.step, h("strong", {}, "Next: "), "start the fight (surprise is rolled, then round 1's declarations open).");
      replace(this.actions, button("bar-start", "Start the fight", () => this.send({ type: "start" }, "start")));
    } else if (view.status === "ended") {
      replace(this.step, "The fight has ended; the seed is revealed under the log.");
      this.actions.replaceChildren();
    } else if (view.phase === "declaration") {
      replace(this.step, h("strong", {}, "Next: "), `close round ${view.round}'s declarations and resolve it.`);
      const b = button("bar-advance", "Close declarations and resolve", () => this.advance(b));
      replace(this.actions, b);
    } else {
      replace(this.step, `Resolving the ${view.phase} phase…`);
      this.actions.replaceChildren();
    }
  }
}
