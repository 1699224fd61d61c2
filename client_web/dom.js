// Building DOM without innerHTML: every string becomes a text node or an
// attribute value, so nothing the server sends is ever parsed as markup.

const SVG_NS = "http://www.w3.org/2000/svg";
// IDL properties set directly on HTML elements (attributes would only set defaults).
const PROPS = new Set(["value", "checked", "disabled", "hidden", "open", "selected", "type"]);

export function h(tag, props, ...children) {
  return build(document.createElement(tag), props, children, false);
}

export function svg(tag, props, ...children) {
  return build(document.createElementNS(SVG_NS, tag), props, children, true);
}

function build(el, props, children, isSvg) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "on") {
      for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
    } else if (key === "style") {
      // CSSOM, not the style attribute: allowed under a strict CSP.
      for (const [name, v] of Object.entries(value)) el.style.setProperty(name, String(v));
    } else if (key === "testid") {
      el.setAttribute("data-testid", value);
    } else if (key.startsWith("on")) {
      throw new Error(`use {on: {...}} for event handlers, not ${key}`);
    } else if (!isSvg && PROPS.has(key)) {
      el[key] = value;
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

/** A rules name as words: "con_bonus" -> "con bonus" (with `capital`: "Con bonus"). */
export function words(name, capital = false) {
  const said = name.replace(/_/g, " ");
  return capital ? said.replace(/^./, (c) => c.toUpperCase()) : said;
}
