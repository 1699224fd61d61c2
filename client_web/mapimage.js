// The battle map's background (issue 13; rules/battlemap.py): the GM's image under the
// grid, at its scale (pixels a 5-ft square spans), from the view every viewer has; and
// the GM's form to set or remove it. The image is sent in the stream, so it is small.

import { $, h, svg } from "./dom.js";

const MAP_BYTES = 45000; // rules/battlemap.py MAP_BYTES
const MEDIA = ["image/png", "image/jpeg", "image/webp"];

/** The background as an SVG image placed at (0, 0) ft, or null. `px(ft, origin)` maps feet to map units; `sq` is one square's units. */
export function backdrop(view, bounds, px, sq) {
  const m = view.battle_map;
  if (!m) return null;
  return svg("image", {
    href: `data:${m.media};base64,${m.image}`,
    x: px(0, bounds.x0),
    y: px(0, bounds.y0),
    width: (m.width / m.square) * sq,
    height: (m.height / m.square) * sq,
    preserveAspectRatio: "none",
    class: "backdrop",
    testid: "map-backdrop",
    "aria-hidden": "true",
  });
}

export class MapForm {
  constructor(send, complain) {
    this.file = h("input", { type: "file", id: "map-file", testid: "map-file", accept: MEDIA.join(",") });
    this.square = h("input", { type: "number", id: "map-square", testid: "map-square", min: 4, max: 1000, value: "40" });
    this.remove = h("button", { type: "button", testid: "map-remove", on: { click: () => send({ type: "set_map" }, "remove the battle map") } }, "Remove");
    this.form = h(
      "form",
      { class: "inline", testid: "map-form" },
      h("label", { for: "map-file" }, "Image"),
      this.file,
      h("label", { for: "map-square" }, "pixels a 5-ft square"),
      this.square,
      h("button", { type: "submit", testid: "map-set" }, "Set the map"),
      this.remove,
    );
    this.form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = this.file.files?.[0];
      const square = Number(this.square.value);
      if (!file) return complain("Choose an image file first.");
      if (!MEDIA.includes(file.type)) return complain("The battle map must be a PNG, JPEG or WebP image.");
      if (file.size > MAP_BYTES) return complain(`The image is ${Math.ceil(file.size / 1000)} KB: at most ${MAP_BYTES / 1000} KB fit. Make it smaller.`);
      if (!Number.isInteger(square) || square < 4 || square > 1000) return complain("A 5-ft square spans 4 to 1000 pixels of the image.");
      try {
        const bitmap = await createImageBitmap(file);
        const image = await base64(file);
        send({ type: "set_map", image, media: file.type, width: bitmap.width, height: bitmap.height, square }, "set the battle map");
        bitmap.close();
      } catch (err) {
        complain(`That image could not be read: ${err.message}`);
      }
    });
    this.el = h("details", { class: "map-tools", testid: "map-section" }, h("summary", {}, "Battle map image (GM)"), this.form);
    $(".map-panel")?.append(this.el);
  }

  update(view) {
    this.remove.disabled = !view.battle_map;
  }
}

function base64(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(",", 2)[1]);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}
