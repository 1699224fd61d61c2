// Controls built from data: the declaration forms come from view.actions
// (one form per Choice the rules say is legal now), so a new action or option
// in rules/ shows up here without a client change.

import { h } from "./dom.js";
import { nameOf } from "./render.js";

const humanize = (key) => key.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
const isLimit = (key) => /^(max|min)_/.test(key); // a bound shown as a hint, not an action field

/* ---------- one field per option ---------- */

function optionLabel(key, value, actor) {
  if (key === "weapon" && typeof value === "number" && actor?.weapons?.[value]) {
    const w = actor.weapons[value];
    return `${w.name} (${w.damage}${w.bonus ? `, +${w.bonus}` : ""})`;
  }
  if (value === "") return "(default)";
  return String(value);
}

/** Returns [element, read] where read() gives the value to put in the action, or undefined. */
function optionField(prefix, key, values, actor) {
  const id = `${prefix}-${key}`;
  const testid = `opt-${prefix}-${key}`;
  if (isLimit(key)) {
    return [h("p", { class: "hint", testid }, `${humanize(key)}: ${values.join(", ")}`), () => undefined];
  }
  if (!values.length) {
    // No listed values: the rules take free text here (a spell's name, say).
    const text = h("input", { id, testid, autocomplete: "off" });
    return [h("div", { class: "field" }, h("label", { for: id }, humanize(key)), text), () => text.value.trim()];
  }
  const bools = values.every((v) => typeof v === "boolean");
  if (bools && values.includes(true) && values.includes(false)) {
    const box = h("input", { type: "checkbox", id, testid, checked: values[0] === true });
    return [h("div", { class: "field check" }, box, h("label", { for: id }, humanize(key))), () => box.checked];
  }
  if (values.length === 1) {
    return [h("p", { class: "hint", testid }, `${humanize(key)}: ${optionLabel(key, values[0], actor)}`), () => values[0]];
  }
  const select = h(
    "select",
    { id, testid },
    values.map((v, i) => h("option", { value: String(i) }, optionLabel(key, v, actor))),
  );
  return [h("div", { class: "field" }, h("label", { for: id }, humanize(key)), select), () => values[Number(select.value)]];
}

function targetField(prefix, view, targets) {
  const id = `${prefix}-target`;
  const select = h(
    "select",
    { id, testid: `target-${prefix}` },
    targets.map((t) => {
      const c = view.combatants.find((x) => x.id === t);
      return h("option", { value: t }, t === "" ? "(no target)" : c ? `${c.name} (${c.side})` : t);
    }),
  );
  return [h("div", { class: "field" }, h("label", { for: id }, "Target"), select), () => select.value];
}

/**
 * A destination on the grid: two coordinates in feet, multiples of 5. Required
 * for `move`; for any other choice that lists `max_feet` it is optional, behind
 * an "also move" box (a bow shot with a step, say).
 */
function moveFields(prefix, actor, optional) {
  const input = (axis, value) =>
    h("input", { type: "number", id: `${prefix}-${axis}`, testid: `opt-${prefix}-${axis}`, min: 0, step: 5, value: String(value), inputmode: "numeric" });
  const x = input("x", actor?.x ?? 0);
  const y = input("y", actor?.y ?? 0);
  const also = optional ? h("input", { type: "checkbox", id: `${prefix}-moving`, testid: `opt-${prefix}-moving` }) : null;
  const sync = () => {
    if (also) x.disabled = y.disabled = !also.checked;
  };
  also?.addEventListener("change", sync);
  sync();
  const el = h(
    "div",
    { class: "field destination" },
    also ? h("div", { class: "check" }, also, h("label", { for: also.id }, "Also move")) : null,
    h(
      "div",
      { class: "coords" },
      h("label", { for: x.id }, "x (ft)"),
      x,
      h("label", { for: y.id }, "y (ft)"),
      y,
    ),
  );
  const read = () => (also && !also.checked ? {} : { x: Math.trunc(Number(x.value)), y: Math.trunc(Number(y.value)) });
  const set = (fx, fy) => {
    x.value = String(fx);
    y.value = String(fy);
    if (also) also.checked = true;
    sync();
  };
  return { el, x, y, read, set };
}

/* ---------- a form per choice ---------- */

function choiceForm(view, actorId, choice, panels) {
  const actor = view.combatants.find((c) => c.id === actorId);
  const prefix = `${actorId}-${choice.type}`;
  const readers = [];
  const fields = [];
  let move = null;
  if (choice.targets?.length) {
    const [el, read] = targetField(prefix, view, choice.targets);
    fields.push(el);
    readers.push(["target", read]);
  }
  const options = choice.options ?? {};
  if (choice.type === "move" || "max_feet" in options) {
    move = moveFields(prefix, actor, choice.type !== "move");
    fields.push(move.el);
  }
  for (const [key, values] of Object.entries(options)) {
    const [el, read] = optionField(prefix, key, values, actor);
    fields.push(el);
    readers.push([key, read]);
  }
  const submit = h("button", { type: "submit", testid: `submit-${prefix}` }, `Declare: ${humanize(choice.type).toLowerCase()}`);
  const form = h(
    "form",
    { class: `choice choice-${choice.type.replace(/[^a-z0-9_-]/gi, "")}`, testid: `choice-${prefix}`, "data-type": choice.type },
    h("fieldset", {}, h("legend", {}, humanize(choice.type)), fields, submit),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const action = { type: choice.type, ...(move ? move.read() : {}) };
    for (const [key, read] of readers) {
      const value = read();
      if (value !== undefined) action[key] = value;
    }
    panels.send({ type: "declare", actor: actorId, action }, `${actor?.name ?? actorId}: ${choice.type}`);
  });
  if (move) {
    form.addEventListener("focusin", () => (panels.moveTarget = move));
    const mark = () => {
      const at = move.read();
      panels.onMarker("x" in at ? at : null);
    };
    for (const input of [move.x, move.y]) input.addEventListener("input", mark);
    form.querySelector(`[data-testid="opt-${prefix}-moving"]`)?.addEventListener("change", mark);
    move.form = form;
  }
  return { form, move };
}

export class DeclarePanels {
  /**
   * @param {HTMLElement} root
   * @param {(command: object, label: string) => void} send
   * @param {(marker: {x: number, y: number} | null) => void} onMarker
   */
  constructor(root, send, onMarker) {
    this.root = root;
    this.send = send;
    this.onMarker = onMarker;
    this.panels = new Map(); // actor id -> {el, signature, current, select, forms}
    this.moveTarget = null; // the destination fields the map fills, once one is focused
  }

  update(view) {
    const actions = view.actions ?? {};
    const ids = Object.keys(actions);
    for (const [id, panel] of this.panels) {
      if (!ids.includes(id)) {
        panel.el.remove();
        this.panels.delete(id);
      }
    }
    for (const id of ids) {
      // Rebuild a panel only when what it offers changed, so a half-filled form survives updates.
      const actor = view.combatants.find((c) => c.id === id);
      const targetNames = actions[id].flatMap((c) => c.targets ?? []).map((t) => nameOf(view, t));
      const signature = JSON.stringify([actions[id], actor?.name, actor?.weapons, targetNames]);
      let panel = this.panels.get(id);
      if (!panel || panel.signature !== signature) {
        const built = this.build(view, id, actor, actions[id], panel);
        if (panel) panel.el.replaceWith(built.el);
        else this.root.append(built.el);
        panel = { ...built, signature };
        this.panels.set(id, panel);
      }
      const mine = view.declarations.find((d) => d.actor === id);
      panel.current.textContent = mine ? `Declared: ${mine.text}` : "Not declared yet.";
      panel.el.classList.toggle("done", Boolean(mine));
    }
    // Keep the panels in the order the view lists combatants.
    for (const id of ids) this.root.append(this.panels.get(id).el);
    if (this.moveTarget && !this.moveTarget.x.isConnected) this.moveTarget = null;
  }

  build(view, id, actor, choices, old) {
    const open = old ? old.el.open : view.you.role !== "gm"; // the GM opens whom they play
    const forms = choices.map((choice) => ({
      type: choice.type,
      limit: choice.type === "move" ? (choice.options?.max_feet?.[0] ?? null) : null,
      ...choiceForm(view, id, choice, this),
    }));
    const select = h(
      "select",
      { id: `action-${id}`, testid: `action-${id}` },
      forms.map((f) => h("option", { value: f.type }, humanize(f.type))),
    );
    if (old && forms.some((f) => f.type === old.select.value)) select.value = old.select.value;
    const show = () => {
      for (const f of forms) f.form.hidden = f.type !== select.value;
    };
    select.addEventListener("change", show);
    show();
    const current = h("p", { class: "current", testid: `current-${id}` });
    const el = h(
      "details",
      { class: "declare", testid: `declare-${id}`, open },
      h("summary", {}, `Declare for ${actor?.name ?? id}`),
      current,
      h("div", { class: "field action" }, h("label", { for: select.id }, "Action"), select),
      h("div", { class: "choices" }, forms.map((f) => f.form)),
    );
    el.addEventListener("toggle", () => this.onMarker(null));
    return { el, current, select, forms };
  }

  /** The destination fields a map click fills: the focused ones, else the first open panel's. */
  destination() {
    if (this.moveTarget?.x.isConnected && this.moveTarget.form.closest("details").open) return this.moveTarget;
    for (const panel of this.panels.values()) {
      if (!panel.el.open) continue;
      const shown = panel.forms.find((f) => !f.form.hidden);
      if (shown?.move) return shown.move;
      const walk = panel.forms.find((f) => f.type === "move");
      if (walk) {
        panel.select.value = "move";
        panel.select.dispatchEvent(new Event("change"));
        return walk.move;
      }
    }
    return null;
  }

  /** A square was picked on the map: it becomes the destination of the active form. */
  pick(x, y) {
    const move = this.destination();
    if (!move) return null;
    move.set(x, y);
    this.moveTarget = move;
    return { x, y };
  }

  /** How far `id` may move if dragged now (the move choice's max_feet), or null. */
  moveLimit(id) {
    const walk = this.panels.get(id)?.forms.find((f) => f.type === "move");
    return walk ? walk.limit : null;
  }

  /** A token was dropped within its move: fill in its move declaration and send it. */
  declareMove(id, x, y) {
    const panel = this.panels.get(id);
    const walk = panel?.forms.find((f) => f.type === "move");
    if (!walk) return null;
    panel.el.open = true;
    panel.select.value = "move";
    panel.select.dispatchEvent(new Event("change"));
    walk.move.set(x, y);
    this.moveTarget = walk.move;
    walk.form.requestSubmit();
    return { x, y };
  }

  get canPick() {
    return [...this.panels.values()].some((p) => p.el.open && p.forms.some((f) => f.move));
  }
}
