import { describe, expect, it } from 'vitest';
import { centreOn, fit, pan, toDrawing, viewBoxText, zoomAt } from './viewbox';

describe('viewbox', () => {
  const full = fit(2728, 1636);

  it('fits the whole drawing with a margin', () => {
    expect(full).toEqual({ x: -8, y: -8, w: 2744, h: 1652 });
  });

  it('zooms about a point that stays put', () => {
    const z = zoomAt(full, 0.5, 1000, 500, full);
    expect(z.w).toBeCloseTo(full.w / 2);
    // The point keeps its relative place in the box.
    expect((1000 - z.x) / z.w).toBeCloseTo((1000 - full.x) / full.w);
    expect((500 - z.y) / z.h).toBeCloseTo((500 - full.y) / full.h);
  });

  it('bounds the zoom', () => {
    let z = full;
    for (let i = 0; i < 50; i++) z = zoomAt(z, 0.5, 0, 0, full);
    expect(z.w).toBeCloseTo(full.w * 0.02);
    for (let i = 0; i < 50; i++) z = zoomAt(z, 2, 0, 0, full);
    expect(z.w).toBeCloseTo(full.w * 4);
  });

  it('pans and centres', () => {
    expect(pan(full, 10, -5)).toEqual({ ...full, x: 2, y: -13 });
    const c = centreOn({ x: 0, y: 0, w: 200, h: 100 }, 1000, 400);
    expect(c).toEqual({ x: 900, y: 350, w: 200, h: 100 });
  });

  it('maps screen points to the drawing under meet scaling', () => {
    // A 200×100 box in a 400×400 element: scale 2, 100 px bands above and below.
    const b = { x: 0, y: 0, w: 200, h: 100 };
    expect(toDrawing(b, 400, 400, 200, 200)).toEqual([100, 50]);
    expect(toDrawing(b, 400, 400, 0, 100)).toEqual([0, 0]);
    expect(viewBoxText({ x: 1.234, y: 2, w: 3.05, h: 4 })).toBe('1.2 2 3.1 4');
  });
});
