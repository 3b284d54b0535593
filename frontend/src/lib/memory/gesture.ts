// A zoom and pan gesture over a drawn graph, kept as a transform of the
// view it started from. Drawing a graph of 10,000 entities with sigma
// takes a quarter of a second per frame where the CPU rasterizes WebGL
// (no GPU). So while the wheel turns or the pointer drags, the knowledge
// graph draws its nodes as small squares on a 2D canvas, where the
// transform puts them (components/memory/KnowledgeGraph.svelte), and sigma
// draws the graph once, where the gesture leaves the camera, when it
// rests.
//
// The transform maps a point p of the starting view to scale·p + (tx, ty)
// on the screen, in CSS pixels with the origin at the top left.

export interface CameraState {
  x: number;
  y: number;
  ratio: number;
  angle: number;
}

export class Gesture {
  scale = 1;
  tx = 0;
  ty = 0;

  // active reports whether the gesture moved the picture.
  get active(): boolean {
    return this.scale !== 1 || this.tx !== 0 || this.ty !== 0;
  }

  // zoomAt scales the picture by factor about screen point (x, y), which
  // stays where it is.
  zoomAt(x: number, y: number, factor: number): void {
    this.tx = x - factor * (x - this.tx);
    this.ty = y - factor * (y - this.ty);
    this.scale *= factor;
  }

  // panBy moves the picture by (dx, dy).
  panBy(dx: number, dy: number): void {
    this.tx += dx;
    this.ty += dy;
  }

  // source returns the point of the starting view now shown at screen point
  // (x, y).
  source(x: number, y: number): { x: number; y: number } {
    return { x: (x - this.tx) / this.scale, y: (y - this.ty) / this.scale };
  }

  // camera returns the camera that draws what the gesture shows: centred
  // on the graph point now at the centre of a width × height view, with
  // the ratio divided by the scale. toGraph maps a point of the starting view
  // to the camera's coordinates (sigma's viewportToFramedGraph).
  camera(from: CameraState, width: number, height: number, toGraph: (p: { x: number; y: number }) => { x: number; y: number }): CameraState {
    const c = toGraph(this.source(width / 2, height / 2));
    return { x: c.x, y: c.y, ratio: from.ratio / this.scale, angle: from.angle };
  }

  reset(): void {
    this.scale = 1;
    this.tx = 0;
    this.ty = 0;
  }
}
