// Draws the episode DAG that Go laid out (app/graphs.Drawing) as SVG built
// with DOM calls: every label goes in through textContent and every
// attribute through setAttribute with values the app computes, so that no
// session text is ever parsed as markup.
import type { Drawing, DrawnNode, GraphPoint } from './types/debugger';
import { levelColor } from './replay';

const NS = 'http://www.w3.org/2000/svg';

// pathData writes an edge route as SVG path data: a polyline, or cubic
// Bézier pieces (3k+1 points) when spline is set.
export function pathData(points: GraphPoint[], spline = false): string {
  if (points.length === 0) return '';
  const f = (p: GraphPoint) => `${round(p.x)} ${round(p.y)}`;
  let d = `M ${f(points[0])}`;
  if (spline && (points.length - 1) % 3 === 0) {
    for (let i = 1; i + 2 < points.length; i += 3) d += ` C ${f(points[i])} ${f(points[i + 1])} ${f(points[i + 2])}`;
    return d;
  }
  for (let i = 1; i < points.length; i++) d += ` L ${f(points[i])}`;
  return d;
}

function round(v: number): string {
  return String(Math.round(v * 10) / 10);
}

export interface NodeStyle {
  fill: string;
  stroke: string;
  dash: string;
  opacity: number;
  text: string;
}

// nodeStyle maps a node's state, kind and level to its look.
export function nodeStyle(attrs: Record<string, string>): NodeStyle {
  const kind = attrs.kind ?? '';
  const fill = kind === 'expl' ? '#1d3557' : kind === 'act' ? '#1f4d3a' : '#2a2f3a';
  const s: NodeStyle = { fill, stroke: '#9aa3b2', dash: '', opacity: 1, text: '#e6e9ef' };
  switch (attrs.state) {
    case 'open':
      s.stroke = '#4f9cf9';
      break;
    case 'stripped':
      s.stroke = levelColor(Number(attrs.level ?? 0));
      s.dash = '4 2';
      break;
    case 'evicted':
      s.stroke = levelColor(4);
      s.dash = '2 2';
      s.opacity = 0.55;
      s.text = '#9aa3b2';
      break;
    case 'missing':
      s.fill = 'transparent';
      s.dash = '1 3';
      break;
    case 'future':
      s.opacity = 0.2;
      break;
  }
  if (attrs.inferred === 'true' && !s.dash) s.dash = '6 3';
  return s;
}

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// stateText says a node's state in words, for its tooltip and label.
export function stateText(attrs: Record<string, string>): string {
  const lv = attrs.level ? ` level ${attrs.level}` : '';
  return `${attrs.kind ?? ''} · ${attrs.state ?? ''}${lv}${attrs.inferred === 'true' ? ' · inferred' : ''}`;
}

// timeText says when an episode ran, from its time attributes (RFC 3339),
// "" when the session recorded no times.
export function timeText(attrs: Record<string, string>): string {
  if (!attrs.time) return '';
  const fmt = (t: string) => new Date(t).toISOString().replace('T', ' ').slice(0, 19);
  return attrs.end_time ? `${fmt(attrs.time)} → ${fmt(attrs.end_time)}` : `from ${fmt(attrs.time)}`;
}

// renderGraph replaces the children of svg with the drawing, viewed
// whole (the caller may move the viewBox to zoom and pan). onnode is
// called with a node when it is clicked or activated with the keyboard.
export function renderGraph(svg: SVGSVGElement, d: Drawing, selected: string, onnode: (n: DrawnNode) => void): void {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', `0 0 ${Math.max(1, d.width)} ${Math.max(1, d.height)}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  const defs = el('defs', {});
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' });
  marker.appendChild(el('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#9aa3b2' }));
  defs.appendChild(marker);
  svg.appendChild(defs);
  const edges = el('g', { class: 'edges' });
  for (const e of d.edges) {
    const p = el('path', { d: pathData(e.points, e.spline), fill: 'none', stroke: '#9aa3b2', 'stroke-width': 1.2, 'marker-end': 'url(#arrow)', opacity: e.future ? 0.2 : 0.9 });
    const title = el('title', {});
    title.textContent = `${e.from} → ${e.to}`;
    p.appendChild(title);
    edges.appendChild(p);
  }
  svg.appendChild(edges);
  const nodes = el('g', { class: 'nodes' });
  for (const n of d.nodes) {
    const st = nodeStyle(n.attrs);
    const g = el('g', { class: 'node', tabindex: 0, role: 'button', opacity: st.opacity, 'data-state': n.attrs.state ?? '', 'data-episode': n.attrs.episode ?? '' });
    g.setAttribute('aria-label', `episode ${n.label}: ${stateText(n.attrs)}`);
    const rect = el('rect', { x: n.x - n.w / 2, y: n.y - n.h / 2, width: n.w, height: n.h, rx: 6, fill: st.fill, stroke: n.id === selected ? '#ffffff' : st.stroke, 'stroke-width': n.id === selected ? 2.5 : 1.5 });
    if (st.dash) rect.setAttribute('stroke-dasharray', st.dash);
    const text = el('text', { x: n.x, y: n.y + 4, 'text-anchor': 'middle', fill: st.text, 'font-size': 12 });
    text.textContent = n.label;
    const title = el('title', {});
    title.textContent = [n.label, stateText(n.attrs), timeText(n.attrs), n.attrs.description ?? ''].filter(Boolean).join('\n');
    g.append(rect, text, title);
    g.addEventListener('click', () => onnode(n));
    g.addEventListener('keydown', (ev) => {
      if ((ev as KeyboardEvent).key === 'Enter' || (ev as KeyboardEvent).key === ' ') {
        ev.preventDefault();
        onnode(n);
      }
    });
    nodes.appendChild(g);
  }
  svg.appendChild(nodes);
}
