// Controls built from data: the declaration forms come from view.actions
// (one form per Choice the rules say is legal now), so a new action or option
// in rules/ shows up here without a client change.

import { h, replace, words } from "./dom.js";
import { gameWords, nameOf } from "./render.js";

/** Whether a thrown torch has something to light on `c` (rules/words.py: `torch_lights`). */
const lit = (view, c) => c.conditions.includes(gameWords(view)?.torch_lights ?? "");

const humanize = (key) => words(key, true);
const isLimit = (key) => /^(max|min)_/.test(key); // a bound shown as a hint, not an action field

/* ---------- one field per option ---------- */

const GRID = 5; // feet: one square, a weapon's reach unless it says otherwise (rules/model.py Weapon)
const feetBetween = (a, b) => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)); // rules/combat.py distance

function optionLabel(key, value, actor) {
  if (key === "weapon" && typeof value === "number" && actor?.weapons?.[value]) {
    const w = actor.weapons[value];
    const lost = w.broken ? ", broken" : w.dropped ? ", dropped" : "";
    return `${w.name} (${w.damage}${w.bonus ? `, +${w.bonus}` : ""}${lost})`;
  }
  if (value === "") return "(default)";
  return String(value);
}

/** A choice's field in the rules' words (GET /api/profiles: `words.fields`, each module's
 * `labels`): {label, help}; else its name as words, with no help. */
function fieldWords(view, key) {
  const said = gameWords(view)?.fields?.[key];
  return { label: said?.label ?? humanize(key), help: said?.help ?? "" };
}

/**
 * Returns [element, read, input, set]: read() gives the value to put in the action, or
 * undefined; set(value) shows a value already declared (a reload mid-round).
 */
function optionField(view, prefix, key, values, actor) {
  const id = `${prefix}-${key}`;
  const testid = `opt-${prefix}-${key}`;
  const { label, help } = fieldWords(view, key);
  const helpId = `${id}-help`;
  const helpLine = help ? h("p", { class: "help", id: helpId, testid: `help-${prefix}-${key}` }, help) : null;
  const described = help ? { "aria-describedby": helpId } : {};
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  if (isLimit(key)) {
    return [h("p", { class: "hint", testid }, `${label}: ${values.join(", ")}`), () => undefined, null, () => {}];
  }
  if (!values.length) {
    // No listed values: the rules take free text here (a spell's name, say).
    const text = h("input", { id, testid, autocomplete: "off", ...described });
    const set = (v) => (text.value = v === undefined ? "" : String(v));
    return [h("div", { class: "field" }, h("label", { for: id }, label), text, helpLine), () => text.value.trim(), null, set];
  }
  const bools = values.every((v) => typeof v === "boolean");
  if (bools && values.includes(true) && values.includes(false)) {
    const box = h("input", { type: "checkbox", id, testid, checked: values[0] === true, ...described });
    const set = (v) => (box.checked = v === true);
    return [h("div", { class: `field check${help ? " helped" : ""}` }, box, h("label", { for: id }, label), helpLine), () => box.checked, null, set];
  }
  if (values.length === 1) {
    return [h("p", { class: "hint", testid }, `${label}: ${optionLabel(key, values[0], actor)}`), () => values[0], null, () => {}];
  }
  const select = h(
    "select",
    { id, testid, ...described },
    values.map((v, i) => h("option", { value: String(i) }, optionLabel(key, v, actor))),
  );
  const set = (v) => {
    const i = values.findIndex((x) => same(x, v));
    if (i >= 0) select.value = String(i);
  };
  return [h("div", { class: "field" }, h("label", { for: id }, label), select, helpLine), () => values[Number(select.value)], select, set];
}

/**
 * Targets as the table thinks of them: foes first, nearest first, then the rest by distance
 * ("" = no target, first as listed). A torch goes first at the oiled, the only ones it can light.
 */
export function sortTargets(view, actor, targets, type = "") {
  const at = (t) => view.combatants.find((x) => x.id === t);
  const rank = (t) => {
    const c = at(t);
    if (t === "" || !c || !actor) return [-1, 0, 0];
    const useless = type === "throw_torch" && !lit(view, c) ? 1 : 0;
    return [useless, c.side === actor.side ? 1 : 0, feetBetween(actor, c)];
  };
  return targets
    .map((t, i) => [t, rank(t), i])
    .sort(([, a, i], [, b, j]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || i - j)
    .map(([t]) => t);
}

function targetField(prefix, view, targets, actor, type) {
  const id = `${prefix}-target`;
  const select = h(
    "select",
    { id, testid: `target-${prefix}` },
    sortTargets(view, actor, targets, type).map((t) => {
      const c = view.combatants.find((x) => x.id === t);
      const far = c && actor ? `, ${feetBetween(actor, c)} ft` : "";
      return h("option", { value: t }, t === "" ? "(no target)" : c ? `${c.name} (${c.side}${far})` : t);
    }),
  );
  return [h("div", { class: "field" }, h("label", { for: id }, "Target"), select), () => select.value, select];
}

/** How far a combatant's weapon reaches (rules/combat.py: a weapon's range, else its reach, else a square). */
const reachOf = (actor, i) => {
  const w = actor.weapons?.[i];
  return w ? w.range || (w.reach ?? GRID) : GRID;
};

const MOBILE = ["bow", "dagger", "thrown"]; // 003: bows and thrown weapons may move and shoot (rules/ranged.py MOBILE)

/**
 * A declaration that can only fail, said before it is sent: [sentence, override or null].
 * The override is offered where the rules let it work after all (the reducer still judges it).
 * `dest` is where the actor moves to as part of this choice, if it does.
 */
function doomed(view, actor, type, read, dest) {
  if (!actor) return null;
  const weapon = read.weapon !== undefined ? actor.weapons?.[read.weapon] : undefined;
  const target = read.target ? view.combatants.find((c) => c.id === read.target) : null;
  if (weapon && (weapon.broken || weapon.dropped) && ["attack", "charge", "parry", "set_spear", "shoot"].includes(type)) {
    return [`${actor.name}'s ${weapon.name} is ${weapon.broken ? "broken" : "dropped"}: pick another weapon${weapon.dropped ? " or pick it up first" : ""}.`, null];
  }
  if (type === "set_spear" && weapon && !weapon.polearm) return [`A ${weapon.name} is not a spear or polearm: it cannot be set against a charge.`, null];
  if (type === "attack" && target && weapon) {
    // 003: 'Attacks made while stationary are resolved' in the attack phase, before anyone moves;
    // the reach is the strike's own (rules/combat.py: a weapon's range, else its reach).
    const reach = weapon.range || (weapon.reach ?? GRID);
    const far = feetBetween(actor, target);
    if (far > reach) {
      return [`${target.name} is ${far} ft away and the ${weapon.name} reaches ${reach} ft: a standing attack comes before anyone moves, so it cannot land. Charge or approach to close in.`, null];
    }
  }
  if (type === "shoot" && target && weapon?.range) {
    // Moving first, the shot is taken from the new square, in the movement phase (rules/actions.py Shoot.steps).
    const first = Boolean(read.move_first && dest);
    const from = first ? dest : actor;
    const far = feetBetween(from, target);
    if (far > weapon.range) {
      const where = first ? "from that square" : "from here";
      const hint = !first && MOBILE.includes(weapon.missile) ? " Move first (tick Also move and Move first, and pick the square) to shoot from nearer." : "";
      return [`${target.name} is ${far} ft away ${where} and the ${weapon.name} ranges ${weapon.range} ft.${hint}`, null];
    }
  }
  if (type === "throw_torch" && target && gameWords(view) && !lit(view, target)) {
    return [`There is no oil on ${target.name} to ignite.`, "Declare it anyway: a flask thrown earlier this round may oil it first"];
  }
  return null;
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
  const read = () => {
    if (also && !also.checked) return {};
    for (const [axis, input] of [["x", x], ["y", y]]) {
      if (input.value.trim() === "" || !Number.isFinite(Number(input.value))) {
        throw new Error(`Where to? The ${axis} field is empty: give both x and y in feet (a click on the map fills them in).`);
      }
    }
    return { x: Math.trunc(Number(x.value)), y: Math.trunc(Number(y.value)) };
  };
  const set = (fx, fy) => {
    x.value = String(fx);
    y.value = String(fy);
    if (also) also.checked = true;
    sync();
  };
  return { el, x, y, read, set };
}

/** A remembered declaration in a few words, for the "same as last round" button's tooltip. */
function describeAction(view, action) {
  const parts = [humanize(action.type).toLowerCase()];
  if (action.target) parts.push(nameOf(view, action.target));
  if ("x" in action) parts.push(`to (${action.x}, ${action.y})`);
  return parts.join(" ");
}

/**
 * Why last round's order for `id` no longer makes sense now, or null if it still holds:
 * its choice is not offered, its target is down or gone or not offered, it would approach
 * someone it already stands beside, move where it stands or where another stands, or
 * can only fail (doomed). The server still judges whatever is sent.
 */
export function stale(view, id, action) {
  const actor = view.combatants.find((c) => c.id === id);
  const choice = (view.actions?.[id] ?? []).find((c) => c.type === action.type);
  if (!actor) return "it is gone";
  if (!choice) return `${actor.name} cannot ${humanize(action.type).toLowerCase()} now`;
  if (action.target) {
    const target = view.combatants.find((c) => c.id === action.target);
    if (!target) return `${nameOf(view, action.target)} is gone`;
    if (target.down) return `${target.name} is down`;
    if (choice.targets && !choice.targets.includes(action.target)) return `${target.name} cannot be picked now`;
    // 003's approach closes in: beside the target already, there is nothing to close.
    if (action.type === "approach" && feetBetween(actor, target) <= reachOf(actor, 0)) return `${actor.name} is already beside ${target.name}`;
  }
  if (action.type === "move") {
    if (action.x === actor.x && action.y === actor.y) return `${actor.name} is already there`;
    const there = view.combatants.find((c) => c.id !== id && !c.down && c.x === action.x && c.y === action.y);
    if (there) return `${there.name} stands there`;
  }
  const dest = "x" in action ? { x: action.x, y: action.y } : null;
  const problem = doomed(view, actor, action.type, action, dest);
  return problem && !problem[1] ? problem[0].replace(/[.:]\s.*$|\.$/, "") : null;
}

/* ---------- a form per choice ---------- */

function choiceForm(view, actorId, choice, panels) {
  const actor = view.combatants.find((c) => c.id === actorId);
  const prefix = `${actorId}-${choice.type}`;
  const readers = [];
  const fields = [];
  let move = null;
  const inputs = [];
  if (choice.targets?.length) {
    const [el, read, input] = targetField(prefix, view, choice.targets, actor, choice.type);
    fields.push(el);
    readers.push(["target", read]);
    inputs.push(input);
  }
  const options = choice.options ?? {};
  if (choice.type === "move" || "max_feet" in options) {
    move = moveFields(prefix, actor, choice.type !== "move");
    fields.push(move.el);
  }
  const setters = [];
  for (const [key, values] of Object.entries(options)) {
    const [el, read, input, set] = optionField(view, prefix, key, values, actor);
    fields.push(el);
    readers.push([key, read]);
    setters.push([key, set]);
    if (input) inputs.push(input);
  }
  // Said before sending: a declaration that can only fail (doomed), and its override where the rules allow one.
  const warn = h("p", { class: "warn", testid: `warn-${prefix}`, role: "status", hidden: true });
  const overrideBox = h("input", { type: "checkbox", id: `${prefix}-override`, testid: `override-${prefix}` });
  const overrideLabel = h("label", { for: overrideBox.id });
  const override = h("div", { class: "field check", hidden: true }, overrideBox, overrideLabel);
  const submit = h("button", { type: "submit", testid: `submit-${prefix}` }, `Declare: ${humanize(choice.type).toLowerCase()}`);
  const values = () => Object.fromEntries(readers.map(([key, read]) => [key, read()]).filter(([, v]) => v !== undefined));
  const judge = () => {
    let dest = null;
    try {
      const at = move ? move.read() : {};
      if ("x" in at) dest = at;
    } catch {
      /* an empty field: judged as staying put, and refused on submit */
    }
    const problem = doomed(view, actor, choice.type, values(), dest);
    warn.hidden = !problem;
    override.hidden = !problem?.[1];
    if (!problem?.[1]) overrideBox.checked = false;
    warn.textContent = problem ? problem[0] : "";
    overrideLabel.textContent = problem?.[1] ?? "";
    warn.classList.toggle("blocked", Boolean(problem) && !(problem[1] && overrideBox.checked));
    return problem;
  };
  for (const input of inputs) input.addEventListener("change", judge);
  overrideBox.addEventListener("change", judge);
  const form = h(
    "form",
    { class: `choice choice-${choice.type.replace(/[^a-z0-9_-]/gi, "")}`, testid: `choice-${prefix}`, "data-type": choice.type },
    h("fieldset", {}, h("legend", {}, humanize(choice.type)), fields, warn, override, submit),
  );
  form.addEventListener("input", judge); // the destination and the boxes (move first, also move) count too
  judge();
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    let action;
    try {
      action = { type: choice.type, ...(move ? move.read() : {}), ...values() };
    } catch (err) {
      panels.complain(err.message, "declare/bad-field");
      return;
    }
    const problem = judge();
    if (problem && !(problem[1] && overrideBox.checked)) {
      panels.complain(`${problem[0]} Nothing was declared${problem[1] ? " (tick the box below to declare it anyway)" : ""}.`, "declare/can-only-fail");
      return;
    }
    panels.declare(actorId, action, `${actor?.name ?? actorId}: ${choice.type}`);
  });
  if (move) {
    form.addEventListener("focusin", () => (panels.moveTarget = move));
    const mark = () => {
      let at = {};
      try {
        at = move.read();
      } catch {
        /* a field is empty: no marker until it is filled in */
      }
      panels.onMarker("x" in at ? at : null);
    };
    for (const input of [move.x, move.y]) input.addEventListener("input", mark);
    form.querySelector(`[data-testid="opt-${prefix}-moving"]`)?.addEventListener("change", mark);
    move.form = form;
  }
  /** Show a declaration already made (a reload mid-round), so a second tap sends the same. */
  const fill = (action) => {
    const target = form.querySelector(`[data-testid="target-${prefix}"]`);
    if (target && action.target !== undefined && [...target.options].some((o) => o.value === action.target)) target.value = action.target;
    for (const [key, set] of setters) if (key in action) set(action[key]);
    if (move && "x" in action) move.set(action.x, action.y);
    judge();
  };
  return { form, move, fill, submit, label: humanize(choice.type).toLowerCase() };
}

export class DeclarePanels {
  /**
   * @param {HTMLElement} root
   * @param {(command: object, label: string) => void} send
   * @param {(marker: {x: number, y: number} | null) => void} onMarker
   */
  constructor(root, send, onMarker, complain = () => {}, memoryKey = "") {
    this.root = root;
    this.send = send;
    this.onMarker = onMarker;
    this.complain = complain;
    this.panels = new Map(); // actor id -> {el, signature, current, select, forms, declared}
    this.moveTarget = null; // the destination fields the map fills, once one is focused
    this.view = null;
    // What this page declared for each combatant, and in which round: "the same as last round"
    // sends those again (the server checks each anew). Kept for the tab's life (sessionStorage).
    this.memoryKey = memoryKey && `fray.declared.${memoryKey}`;
    this.memory = {};
    try {
      this.memory = JSON.parse(sessionStorage.getItem(this.memoryKey) || "{}");
    } catch {
      this.memory = {};
    }
    this.same = h("div", { class: "buttons same-last", testid: "same-last", hidden: true });
    root.before(this.same);
  }

  /** Send a declaration, remembering it for "the same as last round". */
  declare(actor, action, label) {
    this.memory[actor] = { round: this.view?.round ?? 0, action };
    try {
      sessionStorage.setItem(this.memoryKey, JSON.stringify(this.memory));
    } catch {
      /* remembered for this page only */
    }
    this.send({ type: "declare", actor, action }, label);
  }

  /** The combatants of `side` that may declare now, undeclared, with a declaration from last
   * round: [those whose order still holds, [id, why not] for the others]. */
  repeatable(view, side) {
    const declared = new Set(view.declarations.map((d) => d.actor));
    const last = Object.keys(view.actions ?? {}).filter((id) => {
      const c = view.combatants.find((x) => x.id === id);
      return c?.side === side && !declared.has(id) && this.memory[id]?.round === view.round - 1;
    });
    const holding = [];
    const not = [];
    for (const id of last) {
      const why = stale(view, id, this.memory[id].action);
      if (why) not.push([id, why]);
      else holding.push(id);
    }
    return [holding, not];
  }

  sameAsLastRound(side) {
    const view = this.view;
    for (const id of this.repeatable(view, side)[0]) {
      this.declare(id, this.memory[id].action, `${nameOf(view, id)}: the same as last round`);
    }
  }

  renderSame(view) {
    const sides = [...new Set(view.combatants.map((c) => c.side))].map((side) => [side, ...this.repeatable(view, side)]);
    const key = JSON.stringify(sides);
    if (this.same.dataset.key === key) return;
    this.same.dataset.key = key;
    const offered = sides.filter(([, ids]) => ids.length);
    const refused = sides.flatMap(([, , not]) => not);
    this.same.hidden = !offered.length && !refused.length;
    const said = (id) => `${nameOf(view, id)}'s ${describeAction(view, this.memory[id].action)}`;
    replace(
      this.same,
      offered.map(([side, ids]) =>
        h("button", { type: "button", testid: `same-${side}`, title: ids.map((id) => `${nameOf(view, id)}: ${describeAction(view, this.memory[id].action)}`).join("; "),
          on: { click: () => this.sameAsLastRound(side) } },
        `${side}: the same as last round (${ids.map((id) => nameOf(view, id)).join(", ")})`),
      ),
      refused.length
        ? h("p", { class: "small muted same-not", testid: "same-not" }, `Not the same as last round: ${refused.map(([id, why]) => `${said(id)} no longer holds: ${why}.`).join(" ")}`)
        : null,
    );
  }

  update(view) {
    this.view = view;
    const actions = view.actions ?? {};
    const ids = Object.keys(actions);
    this.renderSame(view);
    for (const [id, panel] of this.panels) {
      if (!ids.includes(id)) {
        panel.el.remove();
        this.panels.delete(id);
      }
    }
    for (const id of ids) {
      // Rebuild a panel only when what it offers changed, so a half-filled form survives updates.
      const actor = view.combatants.find((c) => c.id === id);
      // What the forms are built from: the choices, the actor, and each target as the lists sort and judge it.
      const targets = [...new Set(actions[id].flatMap((c) => c.targets ?? []))].map((t) => {
        const c = view.combatants.find((x) => x.id === t);
        return c ? [c.name, c.side, c.x, c.y, c.conditions] : t;
      });
      const signature = JSON.stringify([actions[id], actor?.name, actor?.weapons, actor?.x, actor?.y, targets]);
      let panel = this.panels.get(id);
      if (!panel || panel.signature !== signature) {
        const built = this.build(view, id, actor, actions[id], panel);
        if (panel) panel.el.replaceWith(built.el);
        else this.root.append(built.el);
        panel = { ...built, signature, declared: panel ? panel.declared : null };
        this.panels.set(id, panel);
      }
      const mine = view.declarations.find((d) => d.actor === id);
      panel.current.textContent = mine ? `Declared: ${mine.text}` : "Not declared yet.";
      // Declared already: the button says it changes the declaration, never silently.
      for (const f of panel.forms) f.submit.textContent = `${mine ? "Change the declaration" : "Declare"}: ${f.label}`;
      panel.el.classList.toggle("done", Boolean(mine));
      // On the GM's page, where every combatant has a panel, a declared one folds away (a
      // player's stays open: it is their one control, and shows their move on the map).
      if (Boolean(mine) !== panel.declared) {
        if (mine && view.you.role === "gm") panel.el.open = false;
        panel.declared = Boolean(mine);
      }
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
    else this.showDeclared(view, id, forms, select);
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

  /** A fresh panel (a reload mid-round) shows what was declared: its choice, and, where this
   * tab remembers it (sessionStorage), its target and options. */
  showDeclared(view, id, forms, select) {
    const declared = view.declarations.find((d) => d.actor === id);
    if (!declared?.type) return;
    const form = forms.find((f) => f.type === declared.type);
    if (!form) return;
    select.value = declared.type;
    const kept = this.memory[id];
    if (kept?.round === view.round && kept.action.type === declared.type) form.fill(kept.action);
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
