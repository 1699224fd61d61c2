// The battle map: an SVG of 5-ft squares with a token per combatant, coloured
// by side, down combatants crossed out. A click picks a square (in feet); a
// token the viewer may move can be dragged to declare a move (pointer events;
// the declaration form's x/y fields, or a click on a square, do the same by keyboard).

import { $, h, replace, svg } from "./dom.js";
import { backdrop } from "./mapimage.js";
import { mine, sideIndex } from "./render.js";

const SQUARE_FT = 5; // positions are in feet on a 5-ft grid
const SQ = 40; // one square, in SVG user units
const MARGIN_FT = 10; // empty ground drawn around the combatants
const MAX_LINES = 120; // beyond this many squares a side, skip the grid lines

let bounds = null; // grows, never shrinks, so the map does not jump about
let holding = false; // a token is being dragged: a redraw now would drop it
let pending = null; // the latest redraw asked for during a drag, drawn once the token is let go
let latest = null; // the latest view drawn or asked for: a drop is judged against it

function gridBounds(view) {
  const cs = view.combatants;
  if (!cs.length) return bounds ?? { x0: 0, y0: 0, x1: 40, y1: 30 };
  const b = {
    x0: Math.max(0, Math.min(...cs.map((c) => c.x)) - MARGIN_FT),
    y0: Math.max(0, Math.min(...cs.map((c) => c.y)) - MARGIN_FT),
    x1: Math.max(...cs.map((c) => c.x)) + MARGIN_FT,
    y1: Math.max(...cs.map((c) => c.y)) + MARGIN_FT,
  };
  if (bounds) {
    b.x0 = Math.min(b.x0, bounds.x0);
    b.y0 = Math.min(b.y0, bounds.y0);
    b.x1 = Math.max(b.x1, bounds.x1);
    b.y1 = Math.max(b.y1, bounds.y1);
  }
  bounds = b;
  return b;
}

function initials(name) {
  const words = name.trim().split(/\s+/);
  const digits = name.match(/\d+$/)?.[0] ?? "";
  return (words[0].slice(0, digits ? 1 : 2) + digits).slice(0, 3);
}

/** Each combatant's letters on the map, none shared: a repeat gets a number ("Or", "Or2"). */
function letters(view) {
  const taken = new Map(); // letters -> how many have them
  const out = {};
  for (const c of view.combatants) {
    let mark = initials(c.name);
    const n = (taken.get(mark) ?? 0) + 1;
    taken.set(mark, n);
    if (n > 1) mark = `${mark.slice(0, 2)}${n}`;
    out[c.id] = mark;
  }
  return out;
}

/** Who a token is, in words (a tap on it, and the key): what a hover's tooltip used to hold alone. */
function described(view, c) {
  const hp = c.hp === null || c.hp === undefined ? c.condition : `${c.hp}/${c.hp_max} HP`;
  const marks = conditionsOf(c, view);
  return `${c.name} (${c.side}${c.unseen ? ", unseen by the table" : ""}), ${hp}${c.down ? ", down" : ""}${marks.length ? `, ${marks.join(", ")}` : ""}, at ${c.x},${c.y} ft`;
}

// Short marks for conditions on a token (the card and the token's title spell them out).
const MARKS = { prone: "Pr", burning: "Fi", oiled: "Oi", pinned: "Pn", disarmed: "Ds", helpless: "He", asleep: "Zz", surprised: "Su", fled: "Fl", surrendered: "Sr" };

function conditionsOf(c, view) {
  const list = [...c.conditions];
  if (view.surprised?.includes(c.side) && !list.includes("surprised")) list.push("surprised");
  return list.filter((n) => n !== "dead");
}

const WORD_FONT = 7; // SVG units
const WORD_WIDTH = SQ - 4; // the condition word stays inside its own square

/** HP as a bar under the token, or the GM's condition word when the figures are hidden. */
function healthBar(c, cx, cy, r, scale = 1) {
  const y = cy + r + scale;
  if (c.hp === null || c.hp === undefined) {
    // In a crowded square the word would cover the next token: the key says it instead.
    if (c.condition === "unhurt" || c.down || scale < 1) return [];
    // One word a line ("badly" over "wounded"), on a dark pill over the token's foot,
    // squeezed if need be: at phone width a long word must not run under the next token.
    const lines = c.condition.split(/\s+/).slice(0, 2);
    const lineH = WORD_FONT + 1;
    const wide = Math.min(WORD_WIDTH, Math.max(...lines.map((l) => l.length)) * WORD_FONT * 0.58 + 4);
    const top = cy + r + 6 - lines.length * lineH; // below the initials, clear of the token in the next row
    return [
      svg(
        "g",
        { class: "hp-word", testid: `word-${c.id}` },
        svg("rect", { class: "hp-word-back", x: cx - wide / 2, y: top - 1, width: wide, height: lines.length * lineH + 1, rx: 2 }),
        lines.map((line, i) =>
          svg(
            "text",
            {
              x: cx, y: top + (i + 1) * lineH - 2, "font-size": WORD_FONT, "text-anchor": "middle",
              ...(line.length * WORD_FONT * 0.58 > WORD_WIDTH - 2 ? { textLength: WORD_WIDTH - 2, lengthAdjust: "spacingAndGlyphs" } : {}),
            },
            line,
          ),
        ),
      ),
    ];
  }
  const w = r * 1.9;
  const part = Math.max(0, Math.min(1, c.hp / Math.max(1, c.hp_max)));
  const level = part * 2 < 1 ? "low" : part < 1 ? "mid" : "full";
  return [
    svg("rect", { class: "hp-back", x: cx - w / 2, y, width: w, height: 4 * scale, rx: 1 }),
    svg("rect", { class: `hp-fill ${level}`, x: cx - w / 2, y, width: w * part, height: 4 * scale, rx: 1 }),
  ];
}

/** Condition marks in the token's top right corner; in a crowded square, one mark (the first,
 * or "+n" for several) inside the token's own part of the square, so none covers another. */
function markers(c, view, cx, cy, r, cell) {
  const marks = conditionsOf(c, view);
  if (cell) {
    if (!marks.length) return [];
    const text = marks.length > 1 ? `+${marks.length}` : (MARKS[marks[0]] ?? marks[0].slice(0, 2));
    const w = cell.size * 0.5;
    const hgt = cell.size * 0.32;
    return [
      svg(
        "g",
        { class: `mark mark-${marks.length > 1 ? "more" : marks[0].replace(/[^a-z]/g, "")}` },
        svg("rect", { x: cell.x + cell.size - w, y: cell.y, width: w, height: hgt, rx: 1 }),
        svg("text", { x: cell.x + cell.size - w / 2, y: cell.y + hgt * 0.78, "font-size": hgt * 0.8, "text-anchor": "middle" }, text),
      ),
    ];
  }
  const shown = marks.slice(0, 2).map((n) => MARKS[n] ?? n.slice(0, 2));
  if (marks.length > 2) shown[1] = `+${marks.length - 1}`;
  return shown.map((text, i) =>
    svg(
      "g",
      { class: `mark mark-${marks[i]?.replace(/[^a-z]/g, "") ?? "more"}` },
      svg("rect", { x: cx + r * 0.35, y: cy - r - 2 + i * 11, width: 15, height: 10, rx: 2 }),
      svg("text", { x: cx + r * 0.35 + 7.5, y: cy - r + 5.5 + i * 11, "font-size": 8, "text-anchor": "middle" }, text),
    ),
  );
}

/**
 * @param {object} view
 * @param {{x: number, y: number} | null} marker  a chosen move destination
 * @param {(x: number, y: number) => void} onPick  a square was clicked (feet)
 * @param {{limit: (id: string) => number | null, drop: (id: string, x: number, y: number) => void,
 *          refuse: (id: string, feet: number, limit: number) => void} | null} drag
 *   who may be dragged (the move's max_feet, or null), and what a drop within it or beyond it does
 */
export function renderGrid(view, marker, onPick, drag = null) {
  latest = view;
  if (holding) {
    // Someone else acted mid-drag: draw it after the drop, so the drag goes on.
    pending = [view, marker, onPick, drag];
    return;
  }
  pending = null;
  const b = gridBounds(view);
  const cols = (b.x1 - b.x0) / SQUARE_FT + 1;
  const rows = (b.y1 - b.y0) / SQUARE_FT + 1;
  const colour = sideIndex(view);
  const px = (ft, origin) => ((ft - origin) / SQUARE_FT) * SQ;

  const board = svg("svg", {
    viewBox: `0 0 ${cols * SQ} ${rows * SQ}`,
    role: "img",
    "aria-label": `Battle map, ${cols} by ${rows} squares of 5 feet`,
    class: "map",
    testid: "map",
    "data-x0": b.x0, // the top left square, in feet: where a test (or a tool) finds a square
    "data-y0": b.y0,
  });
  board.append(svg("rect", { class: "ground", x: 0, y: 0, width: cols * SQ, height: rows * SQ }));
  const image = backdrop(view, b, px, SQ); // the GM's battle map image, under the grid lines
  if (image) board.append(image);
  if (Math.max(cols, rows) <= MAX_LINES) {
    for (let i = 1; i < cols; i++) board.append(svg("line", { class: "gridline", x1: i * SQ, y1: 0, x2: i * SQ, y2: rows * SQ }));
    for (let j = 1; j < rows; j++) board.append(svg("line", { class: "gridline", x1: 0, y1: j * SQ, x2: cols * SQ, y2: j * SQ }));
  }
  if (marker) {
    board.append(
      svg("rect", {
        class: "destination",
        testid: "move-marker",
        x: px(marker.x, b.x0) + 3,
        y: px(marker.y, b.y0) + 3,
        width: SQ - 6,
        height: SQ - 6,
        rx: 6,
      }),
    );
  }

  // Several combatants on one square share it: each gets its own part of the square (2 side by
  // side, 3 or 4 in a 2x2, up to 9 in a 3x3), its disc, letters, bar and mark inside that part.
  const stacks = new Map();
  for (const c of view.combatants) {
    const key = `${c.x},${c.y}`;
    stacks.set(key, [...(stacks.get(key) ?? []), c]);
  }
  const mark = letters(view);
  const byId = new Map(view.combatants.map((c) => [c.id, c]));
  for (const group of stacks.values()) {
    group.forEach((c, i) => {
      const n = group.length;
      const across = n === 1 ? 1 : Math.ceil(Math.sqrt(n));
      const size = SQ / across;
      const cell = n === 1 ? null : { x: px(c.x, b.x0) + (i % across) * size, y: px(c.y, b.y0) + Math.floor(i / across) * size + (n === 2 ? SQ / 4 : 0), size };
      // In a part of a square: the disc low and left, the mark in the top right corner, clear of the letters.
      const r = n === 1 ? SQ * 0.42 : size * 0.34;
      const cx = cell ? cell.x + size * 0.42 : px(c.x, b.x0) + SQ / 2;
      const cy = cell ? cell.y + size * 0.52 : px(c.y, b.y0) + SQ / 2;
      const draggable = drag?.limit(c.id) != null;
      const token = svg(
        "g",
        {
          class: `token side-${colour(c.side)}${c.down ? " down" : ""}${mine(view, c.id) ? " mine" : ""}${draggable ? " draggable" : ""}${c.unseen ? " unseen" : ""}`,
          testid: `token-${c.id}`,
          "data-id": c.id,
        },
        svg("title", {}, described(view, c)),
        svg("circle", { cx, cy, r }),
        svg("text", { x: cx, y: cy, "font-size": r * (mark[c.id].length > 2 ? 0.7 : 0.8), "text-anchor": "middle", "dominant-baseline": "central" }, mark[c.id]),
      );
      token.append(...healthBar(c, cx, cy, r, cell ? size / SQ : 1), ...markers(c, view, cx, cy, r, cell));
      if (c.down) {
        const d = r * 0.75;
        token.append(
          svg("line", { class: "cross", x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d }),
          svg("line", { class: "cross", x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d }),
        );
      }
      board.append(token);
    });
  }
  /** The square under a pointer, in feet, or null off the map. */
  const squareAt = (ev) => {
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(board.getScreenCTM().inverse());
    const x = b.x0 + Math.floor(pt.x / SQ) * SQUARE_FT;
    const y = b.y0 + Math.floor(pt.y / SQ) * SQUARE_FT;
    return x >= b.x0 && y >= b.y0 && x <= b.x1 && y <= b.y1 ? { x, y } : null;
  };
  const dragged = drag ? wireDrag(board, view, b, drag, squareAt, px) : () => false;
  if (onPick) board.classList.add("pickable");
  board.addEventListener("click", (ev) => {
    if (dragged()) return; // the end of a drag is not a pick
    // A tap on a token says who it is (a phone has no hover); nobody moves onto a token's square.
    const token = ev.target.closest?.(".token");
    if (token) {
      const c = byId.get(token.dataset.id);
      if (c) $("[data-testid=map-said]").textContent = described(view, c);
      return;
    }
    const at = onPick && squareAt(ev);
    if (at) onPick(at.x, at.y);
  });
  replace($("[data-testid=grid]"), board);

  const sides = [...new Set(view.combatants.map((c) => c.side))];
  replace(
    $("[data-testid=legend]"),
    sides.map((s) => h("li", {}, h("span", { class: `swatch side-${colour(s)}`, "aria-hidden": "true" }), s)),
  );
  renderKey(view, mark, colour);
}

/** The names on the map without a hover: each token's letters, its name, its marks in words,
 * and who shares its square. */
function renderKey(view, mark, colour) {
  const at = (c) => view.combatants.filter((o) => o.id !== c.id && o.x === c.x && o.y === c.y).map((o) => o.name);
  replace(
    $("[data-testid=map-key]"),
    view.combatants.map((c) => {
      const marks = conditionsOf(c, view);
      const others = at(c);
      return h(
        "li",
        { testid: `key-${c.id}`, class: c.down ? "is-down" : "" },
        h("span", { class: `key-mark side-${colour(c.side)}` }, mark[c.id]),
        " ",
        `${c.name}${c.down ? ", down" : ""}${marks.length ? ` (${marks.join(", ")})` : ""}${others.length ? `, sharing a square with ${others.join(" and ")}` : ""}`,
      );
    }),
  );
}

/**
 * Dragging a token: the squares within its move are shaded, a ghost follows the
 * pointer with the distance (003's grid: a diagonal step counts 5 ft, as
 * rules/combat.py's distance), and the drop declares the move or says why not.
 * Returns a function telling whether a drag has just ended (to swallow its click).
 */
function wireDrag(board, view, b, drag, squareAt, px) {
  let held = null; // {id, c, limit, from, at, reach, ghost}
  let justDropped = false;
  const feet = (c, at) => Math.max(Math.abs(at.x - c.x), Math.abs(at.y - c.y));

  const ghostAt = (at) => {
    const there = standing(held.id, at);
    const within = feet(held.c, at) <= held.limit && !there;
    held.ghost.setAttribute("class", `drag-ghost ${within ? "ok" : "far"}`);
    held.ghost.setAttribute("transform", `translate(${px(at.x, b.x0)} ${px(at.y, b.y0)})`);
    // The label stays on the map: below the top row, and anchored inwards at the sides.
    const label = held.ghost.lastChild;
    const side = at.x >= b.x1 - SQUARE_FT ? "end" : at.x <= b.x0 + SQUARE_FT ? "start" : "middle";
    label.setAttribute("y", at.y === b.y0 ? SQ + 10 : -3);
    label.setAttribute("x", { end: SQ, start: 0, middle: SQ / 2 }[side]);
    label.setAttribute("text-anchor", side);
    held.ghost.lastChild.textContent = there ? `${there.name} is there` : within ? `${feet(held.c, at)} ft` : `${feet(held.c, at)} ft: too far`;
    held.ghost.dataset.x = String(at.x);
    held.ghost.dataset.y = String(at.y);
  };
  const end = () => {
    held?.reach.remove();
    held?.ghost.remove();
    held = null;
    holding = false;
    if (pending) renderGrid(...pending); // what arrived during the drag
  };
  /** A standing combatant other than `id` on that square, in the latest view. */
  const standing = (id, at) => (latest ?? view).combatants.find((o) => o.id !== id && !o.down && o.x === at.x && o.y === at.y) ?? null;

  board.addEventListener("pointerdown", (ev) => {
    const el = ev.target.closest?.(".token.draggable");
    if (!el || ev.button > 0) return;
    const c = view.combatants.find((x) => x.id === el.dataset.id);
    const limit = drag.limit(c?.id);
    if (!c || limit == null) return;
    ev.preventDefault();
    board.setPointerCapture(ev.pointerId);
    const x0 = Math.max(b.x0, c.x - limit);
    const y0 = Math.max(b.y0, c.y - limit);
    const reach = svg("rect", {
      class: "reach", testid: "drag-reach",
      x: px(x0, b.x0), y: px(y0, b.y0),
      width: px(Math.min(b.x1, c.x + limit) + SQUARE_FT, x0), height: px(Math.min(b.y1, c.y + limit) + SQUARE_FT, y0),
    });
    const ghost = svg(
      "g",
      { testid: "drag-ghost", "aria-hidden": "true" },
      svg("rect", { x: 3, y: 3, width: SQ - 6, height: SQ - 6, rx: 6 }),
      svg("text", { x: SQ / 2, y: -3, "font-size": 9, "text-anchor": "middle" }, ""),
    );
    board.querySelector(".token")?.before(reach);
    board.append(ghost);
    held = { id: c.id, c, limit, from: { x: c.x, y: c.y }, reach, ghost, moved: false };
    holding = true;
    ghostAt(held.from);
  });
  board.addEventListener("pointermove", (ev) => {
    const at = held && squareAt(ev);
    if (!at) return;
    if (at.x !== held.from.x || at.y !== held.from.y) held.moved = true;
    ghostAt(at);
  });
  board.addEventListener("pointerup", (ev) => {
    if (!held) return;
    const { id, c, limit, moved } = held;
    const at = squareAt(ev);
    const there = at && standing(id, at);
    const fresh = pending?.[3] ?? drag; // the callbacks of the latest redraw, if one waited
    end();
    if (!moved) return; // a press without a move: a click, handled as one
    justDropped = true;
    setTimeout(() => (justDropped = false), 0);
    if (!at || (at.x === c.x && at.y === c.y)) return;
    const distance = feet(c, at);
    if (distance > limit) fresh.refuse(id, distance, limit);
    else if (there) fresh.occupied?.(id, there);
    else fresh.drop(id, at.x, at.y);
  });
  // A finger on a token drags it, not the page: touch-action on an SVG shape is not always
  // honoured, and a pan the browser starts would cancel the pointer (pointercancel).
  board.addEventListener(
    "touchstart",
    (ev) => {
      if (ev.target.closest?.(".token.draggable")) ev.preventDefault();
    },
    { passive: false },
  );
  board.addEventListener("pointercancel", end);
  board.addEventListener("lostpointercapture", end);
  return () => justDropped;
}
