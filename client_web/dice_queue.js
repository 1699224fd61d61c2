// The GM's forced dice (issue 13): "d20: 20, 17; d6: 3" queues results for one kind
// of die each (force_rolls {values, sides}), each used by the next roll of that kind
// only; plain "20 6" queues them for whatever die rolls next (force_rolls {values}).

const KIND = /^d(\d+)\s*:\s*(.*)$/i;

/** The queues a typed line asks for, [{sides, values}] (sides 0: any die), or a sentence saying what is wrong. */
export function parseForced(text) {
  const out = [];
  for (const group of text.split(/[;\n]+/).map((g) => g.trim()).filter(Boolean)) {
    const kind = group.match(KIND);
    const sides = kind ? Number(kind[1]) : 0;
    const values = (kind ? kind[2] : group).split(/[\s,]+/).filter(Boolean).map(Number);
    if (kind && (sides < 2 || sides > 1000)) return `A die to force has 2 to 1000 sides: "d${kind[1]}" has not.`;
    if (!values.length) return `Give at least one value${sides ? ` for the d${sides}` : ""}.`;
    const top = sides || 1000;
    if (values.some((v) => !Number.isInteger(v) || v < 1 || v > top)) {
      return sides ? `A d${sides} shows whole numbers from 1 to ${sides}.` : "Give whole numbers from 1 to 1000, separated by commas or spaces.";
    }
    out.push({ sides, values });
  }
  return out.length ? out : "Give the results to force, such as \"d20: 20, 17; d6: 3\" or \"20 6\".";
}

function ordinal(n) {
  const tens = n % 100;
  return `${n}${tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th")}`;
}

/** Each kind of die's queue and what each value will feed: "d20: 20 (the next d20), 17 (the 2nd d20)". */
export function byDieText(view) {
  const queues = Object.entries(view.forced_by_die ?? {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  if (!queues.length) return "none";
  const nth = (i) => (i === 0 ? "the next" : `the ${ordinal(i + 1)}`);
  return queues.map(([sides, values]) => `d${sides}: ${values.map((v, i) => `${v} (${nth(i)} d${sides})`).join(", ")}`).join("; ");
}

/** Send each queue a typed line asks for; returns a complaint, or null. */
export function sendForced(text, send) {
  const parsed = parseForced(text);
  if (typeof parsed === "string") return parsed;
  for (const { sides, values } of parsed) {
    send(sides ? { type: "force_rolls", values, sides } : { type: "force_rolls", values }, sides ? `force d${sides} results` : "force dice");
  }
  return null;
}
