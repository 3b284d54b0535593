// Level of detail for big knowledge graphs drawn without a GPU: zoomed
// out, the entities are gathered into the cells of a grid over the
// layout, each drawn as one node sized by how many it holds, and the
// relations between cells as one edge each, so that a frame rasterizes
// hundreds of shapes instead of tens of thousands.

export interface LodNode {
  id: string;
  x: number;
  y: number;
  degree: number;
  label: string;
}

export interface Cell {
  id: string;
  x: number; // the mean position of its entities
  y: number;
  count: number;
  // label names the cell by its best-connected entity.
  label: string;
}

export interface Link {
  from: string;
  to: string;
  weight: number; // relations between the two cells
}

export interface Aggregate {
  cells: Cell[];
  links: Link[];
  cellOf: Map<string, string>; // entity id -> cell id
}

// aggregate gathers nodes into a cols × cols grid over their bounding box
// and keeps at most maxLinks links, the heaviest first; a relation inside
// one cell draws nothing.
export function aggregate(nodes: LodNode[], edges: { from: string; to: string }[], cols = 40, maxLinks = 2000): Aggregate {
  let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const n of nodes) {
    x0 = Math.min(x0, n.x); x1 = Math.max(x1, n.x);
    y0 = Math.min(y0, n.y); y1 = Math.max(y1, n.y);
  }
  const w = Math.max(1e-9, x1 - x0);
  const h = Math.max(1e-9, y1 - y0);
  const cellOf = new Map<string, string>();
  const acc = new Map<string, { sx: number; sy: number; count: number; best: LodNode }>();
  for (const n of nodes) {
    const cx = Math.min(cols - 1, Math.floor(((n.x - x0) / w) * cols));
    const cy = Math.min(cols - 1, Math.floor(((n.y - y0) / h) * cols));
    const id = `cell:${cx}:${cy}`;
    cellOf.set(n.id, id);
    const a = acc.get(id);
    if (!a) acc.set(id, { sx: n.x, sy: n.y, count: 1, best: n });
    else {
      a.sx += n.x;
      a.sy += n.y;
      a.count++;
      if (n.degree > a.best.degree) a.best = n;
    }
  }
  const cells: Cell[] = [];
  for (const [id, a] of acc) {
    cells.push({ id, x: a.sx / a.count, y: a.sy / a.count, count: a.count, label: a.count === 1 ? a.best.label : `${a.best.label} +${a.count - 1}` });
  }
  const weights = new Map<string, Link>();
  for (const e of edges) {
    const a = cellOf.get(e.from);
    const b = cellOf.get(e.to);
    if (!a || !b || a === b) continue;
    const [from, to] = a < b ? [a, b] : [b, a];
    const key = `${from}|${to}`;
    const l = weights.get(key);
    if (l) l.weight++;
    else weights.set(key, { from, to, weight: 1 });
  }
  const links = [...weights.values()].sort((p, q) => q.weight - p.weight || (p.from + p.to < q.from + q.to ? -1 : 1)).slice(0, maxLinks);
  return { cells, links, cellOf };
}
