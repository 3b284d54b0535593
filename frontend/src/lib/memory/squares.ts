// moveAsSquares makes the wheel and the drag of a big knowledge graph
// cheap where the CPU draws WebGL (no GPU). Sigma never sees them: the
// wheel, and the pointer's moves while a button is held, are stopped
// before they reach its listeners. So its camera stays put during a
// gesture, and it neither redraws (about 250 ms a frame at 10,000
// entities) nor looks for the node under the pointer (which reads its
// picking buffer back: 1 to 2 s per wheel event there). Meanwhile its
// canvases hide and a 2D canvas shows each node as a small square in its
// colour, where the gesture (gesture.ts) moves it: no edges and no labels,
// as sigma shows none while its camera moves. When the wheel rests
// SETTLE_MS or the button is released, the camera is set once where the
// gesture leaves it, and sigma's canvases come back with the frame it
// draws there. A press that moves less than DRAG_PX is a click, which
// sigma takes.
import type Sigma from 'sigma';
import { Gesture } from './gesture';

// DRAG_PX is how far a press must move to pan rather than click.
const DRAG_PX = 4;

// SETTLE_MS is how long the wheel rests before sigma draws the graph
// where it left the camera.
const SETTLE_MS = 200;

// Squares is a graph's moveAsSquares: justDragged is true between the end
// of a drag and the click the browser sends after it (which is not a
// click on the graph); stop removes the listeners and the 2D canvas.
export interface Squares {
  justDragged: () => boolean;
  stop: () => void;
}

export function moveAsSquares(r: Sigma, container: HTMLElement): Squares {
  const gesture = new Gesture();
  const overlay = document.createElement('canvas');
  overlay.dataset.testid = 'kg-moving';
  overlay.style.cssText = 'position:absolute;inset:0;pointer-events:none;visibility:hidden';
  container.appendChild(overlay);
  const sigmaLayers = () => [...container.querySelectorAll('canvas')].filter((c) => c !== overlay);
  // The nodes as drawn when the gesture began: viewport positions by
  // colour.
  let start: Map<string, number[]> | null = null;
  let settleTimer: ReturnType<typeof setTimeout> | undefined;
  let frame = 0;
  let last: { x: number; y: number } | null = null;
  let pressedAt: { x: number; y: number } | null = null;
  let dragged = false;
  let justDragged = false;
  let stopped = false;

  const begin = () => {
    if (start) return;
    start = new Map();
    r.getGraph().forEachNode((id) => {
      const d = r.getNodeDisplayData(id);
      if (!d || d.hidden) return;
      const p = r.framedGraphToViewport(d);
      let xs = start!.get(d.color);
      if (!xs) start!.set(d.color, (xs = []));
      xs.push(p.x, p.y);
    });
    const { width, height } = r.getDimensions();
    overlay.width = width;
    overlay.height = height;
    overlay.style.visibility = 'visible';
    for (const c of sigmaLayers()) c.style.visibility = 'hidden';
  };
  const draw = () => {
    frame = 0;
    if (!start) return;
    const ctx = overlay.getContext('2d')!;
    const { width, height } = overlay;
    ctx.clearRect(0, 0, width, height);
    const side = Math.max(2, Math.min(8, 3 * Math.sqrt(gesture.scale)));
    for (const [color, xs] of start) {
      ctx.fillStyle = color;
      ctx.beginPath();
      for (let i = 0; i < xs.length; i += 2) {
        const x = gesture.scale * xs[i] + gesture.tx;
        const y = gesture.scale * xs[i + 1] + gesture.ty;
        if (x < -side || y < -side || x > width + side || y > height + side) continue;
        ctx.rect(x - side / 2, y - side / 2, side, side);
      }
      ctx.fill();
    }
  };
  const moved = () => {
    begin();
    if (!frame) frame = requestAnimationFrame(draw);
  };
  const settle = () => {
    clearTimeout(settleTimer);
    if (!gesture.active || stopped) return;
    const camera = r.getCamera();
    const { width, height } = r.getDimensions();
    const next = gesture.camera(camera.getState(), width, height, (p) => r.viewportToFramedGraph(p));
    gesture.reset();
    start = null;
    r.once('afterRender', () => {
      if (start) return; // another gesture began meanwhile
      overlay.style.visibility = 'hidden';
      for (const c of sigmaLayers()) c.style.visibility = '';
    });
    camera.setState({ ...next, ratio: camera.getBoundedRatio(next.ratio) });
  };
  const at = (e: MouseEvent) => {
    const box = container.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const onWheel = (e: WheelEvent) => {
    if (!e.deltaY) return;
    e.preventDefault();
    e.stopPropagation();
    const zoom = r.getSetting('zoomingRatio');
    const p = at(e);
    gesture.zoomAt(p.x, p.y, e.deltaY < 0 ? zoom : 1 / zoom);
    moved();
    clearTimeout(settleTimer);
    settleTimer = setTimeout(settle, SETTLE_MS);
  };
  const onDown = (e: MouseEvent) => {
    if (e.button !== 0) return;
    last = pressedAt = at(e);
    dragged = false;
  };
  // A press that moves less than DRAG_PX is a click, which sigma takes.
  const onMove = (e: MouseEvent) => {
    if (!last || !pressedAt) return;
    e.stopPropagation();
    const p = at(e);
    if (!dragged && Math.hypot(p.x - pressedAt.x, p.y - pressedAt.y) < DRAG_PX) return;
    gesture.panBy(p.x - last.x, p.y - last.y);
    last = p;
    dragged = true;
    moved();
  };
  const onUp = () => {
    if (!last) return;
    last = pressedAt = null;
    if (dragged) {
      justDragged = true;
      setTimeout(() => (justDragged = false), 0);
    }
    settle();
  };
  container.addEventListener('wheel', onWheel, { capture: true, passive: false });
  container.addEventListener('mousedown', onDown, { capture: true });
  window.addEventListener('mousemove', onMove, { capture: true });
  window.addEventListener('mouseup', onUp, { capture: true });
  return {
    justDragged: () => justDragged,
    stop: () => {
      stopped = true;
      clearTimeout(settleTimer);
      container.removeEventListener('wheel', onWheel, { capture: true });
      container.removeEventListener('mousedown', onDown, { capture: true });
      window.removeEventListener('mousemove', onMove, { capture: true });
      window.removeEventListener('mouseup', onUp, { capture: true });
      overlay.remove();
    },
  };
}
