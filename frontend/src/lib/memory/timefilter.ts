// The time slider's model: which relations are visible at a position.
// Position i < sessions.length stands for session i's date: a relation
// with a normalized time is visible when its period starts on or before
// that day; one without is visible (when untimed relations are shown)
// once the session it was told in has passed. The last position shows
// everything.
import type { KnowledgeEdge, TimelineSession } from '../types/memory';

export interface Cut {
  // until is the end of the chosen day (Unix ms); null shows every relation.
  until: number | null;
  session: number; // the chosen session's number; Infinity for all
  untimed: boolean;
}

const day = 24 * 3600 * 1000;

// cutAt returns the cut of slider position i over sessions.
export function cutAt(sessions: TimelineSession[], i: number, untimed: boolean): Cut {
  if (i >= sessions.length || i < 0) return { until: null, session: Infinity, untimed };
  const s = sessions[i];
  const t = s.time ? Date.parse(s.time) : NaN;
  const until = Number.isNaN(t) ? null : Math.floor(t / day) * day + day - 1;
  return { until, session: s.n, untimed };
}

// visible reports whether an edge shows under cut c.
export function visible(e: KnowledgeEdge, c: Cut): boolean {
  if (c.until === null && c.session === Infinity) return true;
  if (e.start) return c.until === null || e.start <= c.until;
  if (!c.untimed) return false;
  return (e.session ?? 0) <= c.session;
}

// Tally counts the visible edges by the granularity of their time.
export interface Tally {
  visible: number;
  byGran: Record<string, number>;
}

export function tally(edges: KnowledgeEdge[], c: Cut): Tally {
  const out: Tally = { visible: 0, byGran: {} };
  for (const e of edges) {
    if (!visible(e, c)) continue;
    out.visible++;
    const g = e.gran || (e.time ? 'text' : 'none');
    out.byGran[g] = (out.byGran[g] ?? 0) + 1;
  }
  return out;
}

// describe renders a cut for the slider's label.
export function describe(sessions: TimelineSession[], i: number): string {
  if (i >= sessions.length) return 'all relations';
  const s = sessions[i];
  const date = s.time ? new Date(s.time).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }) : s.stamp;
  return `up to ${date} (session ${s.n})`;
}
