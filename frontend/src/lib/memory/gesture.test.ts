import { describe, expect, it } from 'vitest';
import { Gesture } from './gesture';

// A camera over a plain plane: the view is width × height pixels, its
// centre shows graph point (x, y), and one pixel is ratio graph units.
const view = { width: 800, height: 600 };
const toGraphOf = (cam: { x: number; y: number; ratio: number }) => (p: { x: number; y: number }) => ({
  x: cam.x + (p.x - view.width / 2) * cam.ratio,
  y: cam.y + (p.y - view.height / 2) * cam.ratio,
});

describe('Gesture', () => {
  it('keeps the point it zooms about under the pointer', () => {
    const g = new Gesture();
    g.zoomAt(200, 100, 2);
    g.zoomAt(200, 100, 1.5);
    expect(g.scale).toBe(3);
    expect(g.source(200, 100)).toEqual({ x: 200, y: 100 });
    expect([g.tx, g.ty]).toEqual([-400, -200]);
  });

  it('returns the camera that draws what the moved view shows', () => {
    const from = { x: 10, y: -5, ratio: 0.5, angle: 0 };
    const toGraph = toGraphOf(from);
    const g = new Gesture();
    g.zoomAt(600, 450, 2);
    g.panBy(-30, 40);
    const cam = g.camera(from, view.width, view.height, toGraph);
    expect(cam.ratio).toBe(0.25);
    // Every screen point shows the same graph point under the new camera
    // as under the gesture.
    for (const [x, y] of [[0, 0], [123, 456], [800, 600]]) {
      const moved = toGraph(g.source(x, y));
      const drawn = toGraphOf(cam)({ x, y });
      expect(drawn.x).toBeCloseTo(moved.x, 9);
      expect(drawn.y).toBeCloseTo(moved.y, 9);
    }
  });

  it('is inactive until it moves, and after a reset', () => {
    const g = new Gesture();
    expect(g.active).toBe(false);
    g.panBy(1, 0);
    expect(g.active).toBe(true);
    g.reset();
    expect(g.active).toBe(false);
  });
});
