// The episode DAG's camera: a viewBox over the drawing, fitted to the
// panel, zoomed about a point, panned, and centred on a node. Pure
// functions of plain numbers, so that they are tested without a browser.

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

// MIN_SCALE and MAX_SCALE bound the zoom, as the share of the whole
// drawing's width in view (1 is fitted).
export const MIN_SCALE = 0.02;
export const MAX_SCALE = 4;

// fit is the box that shows the whole drawing (w × h) with a margin.
export function fit(w: number, h: number, margin = 8): Box {
  return { x: -margin, y: -margin, w: Math.max(1, w) + 2 * margin, h: Math.max(1, h) + 2 * margin };
}

// zoomAt scales box b by factor f (below 1 zooms in) about the point
// (px, py) in drawing coordinates, which stays where it is on screen.
// The result's width stays between MIN_SCALE and MAX_SCALE times full.
export function zoomAt(b: Box, f: number, px: number, py: number, full: Box): Box {
  const w = Math.min(full.w * MAX_SCALE, Math.max(full.w * MIN_SCALE, b.w * f));
  const k = w / b.w;
  return { x: px - (px - b.x) * k, y: py - (py - b.y) * k, w, h: b.h * k };
}

// pan moves box b by (dx, dy) drawing units.
export function pan(b: Box, dx: number, dy: number): Box {
  return { ...b, x: b.x + dx, y: b.y + dy };
}

// centreOn moves box b so that (cx, cy) is in its middle, at the same
// zoom.
export function centreOn(b: Box, cx: number, cy: number): Box {
  return { ...b, x: cx - b.w / 2, y: cy - b.h / 2 };
}

// toDrawing converts a point on screen, relative to the element of size
// (ew × eh) showing box b with "xMidYMid meet", to drawing coordinates.
export function toDrawing(b: Box, ew: number, eh: number, sx: number, sy: number): [number, number] {
  const s = Math.min(ew / b.w, eh / b.h);
  const ox = (ew - b.w * s) / 2;
  const oy = (eh - b.h * s) / 2;
  return [b.x + (sx - ox) / s, b.y + (sy - oy) / s];
}

// viewBoxText writes b as an SVG viewBox attribute.
export function viewBoxText(b: Box): string {
  const r = (v: number) => Math.round(v * 10) / 10;
  return `${r(b.x)} ${r(b.y)} ${r(b.w)} ${r(b.h)}`;
}
