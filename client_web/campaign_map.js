// The ground before a fight from the campaign: the chosen characters and monsters as
// tokens on 5-ft squares, placed by dragging them (a pointer: mouse, finger) or by
// choosing a token and then a square (a click or the keyboard). Its places go with the
// new fight (POST .../fights {places}); where nothing is moved, the server's own row.

import { h, replace } from "./dom.js";

const FT = 5; // feet a square
const COLS = 16;
const ROWS = 8;
const PARTY_Y = 10; // as server/campaign_fights.py places them when the GM does not
const MONSTERS_Y = 15;
const SPACING = 10;

export class PlacingMap {
  constructor() {
    this.el = h("div", { class: "placing", testid: "placing-map", role: "group", "aria-label": "Where each one stands (drag, or choose a token then a square)" });
    this.places = new Map(); // key (a character id or a monster's name) -> [x, y] in feet
    this.tokens = [];
    this.chosen = null;
  }

  /** Show these tokens ({key, label, kind}); a token already placed keeps its square. */
  show(tokens) {
    const party = tokens.filter((t) => t.kind === "party");
    const monsters = tokens.filter((t) => t.kind !== "party");
    const start = (list, y) => list.forEach((t, i) => { if (!this.places.has(t.key)) this.places.set(t.key, [SPACING + SPACING * i, y]); });
    start(party, PARTY_Y);
    start(monsters, MONSTERS_Y);
    this.tokens = tokens;
    this.draw();
  }

  /** The places of the tokens shown, for the fight. */
  chosenPlaces() {
    return Object.fromEntries(this.tokens.map((t) => [t.key, this.places.get(t.key)]));
  }

  place(key, x, y) {
    const taken = this.tokens.some((t) => t.key !== key && String(this.places.get(t.key)) === String([x, y]));
    if (!taken) this.places.set(key, [x, y]);
    this.chosen = null;
    this.draw();
  }

  draw() {
    const cols = Math.max(COLS, ...this.tokens.map((t) => this.places.get(t.key)[0] / FT + 1));
    const at = new Map(this.tokens.map((t) => [String(this.places.get(t.key)), t]));
    const squares = [];
    for (let row = 0; row < ROWS; row += 1) {
      for (let col = 0; col < cols; col += 1) {
        const [x, y] = [col * FT, row * FT];
        const t = at.get(String([x, y]));
        squares.push(h("div", { class: "square", "data-x": x, "data-y": y, testid: `square-${x}-${y}`, on: { click: () => this.chosen && this.place(this.chosen, x, y) } },
          t ? this.token(t) : null));
      }
    }
    this.el.style.setProperty("--cols", String(cols));
    replace(this.el, squares);
  }

  token(t) {
    const button = h("button", {
      type: "button", class: `place-token ${t.kind}`, testid: `token-${t.key}`, "aria-pressed": String(this.chosen === t.key),
      title: t.label, on: { click: (ev) => { ev.stopPropagation(); this.chosen = this.chosen === t.key ? null : t.key; this.draw(); } },
    }, t.label.slice(0, 3));
    button.addEventListener("pointerdown", (ev) => {
      if (ev.button > 0) return;
      const up = (end) => {
        document.removeEventListener("pointerup", up);
        const square = document.elementFromPoint(end.clientX, end.clientY)?.closest?.(".square");
        if (square && square.contains(button)) return; // no move: a click
        if (square) this.place(t.key, Number(square.dataset.x), Number(square.dataset.y));
      };
      document.addEventListener("pointerup", up);
    });
    return button;
  }
}
