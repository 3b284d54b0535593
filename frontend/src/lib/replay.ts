// Pure logic behind the replay views: stacking the timeline's category
// columns, eviction levels and their colours, stepping between evictions,
// and describing why a part of the context is missing. DOM-free so that
// vitest covers it.
import type { BlockItem, Mark, Over, Removal, ReplayStep, ReplayTimeline, StepMarks, StepOvers } from './types/debugger';

export interface CategoryStyle {
  label: string;
  color: string;
}

// Styles by replay category (engine/cwl.CategoryNames).
export const replayCategories: Record<string, CategoryStyle> = {
  system: { label: 'system', color: '#8a8f98' },
  tools: { label: 'tool schemas', color: '#5c6675' },
  user: { label: 'user', color: '#4f9cf9' },
  injected: { label: 'injected by the agent (reminders, environment)', color: '#7fb8ff' },
  summary: { label: 'summaries', color: '#b58cff' },
  assistant: { label: 'assistant text', color: '#39c5a3' },
  thinking: { label: 'thinking', color: '#f2c14e' },
  toolCall: { label: 'tool calls', color: '#f08a5d' },
  toolResult: { label: 'tool output (other)', color: '#e05a6b' },
  'toolResult.search': { label: 'tool output: search', color: '#ffa8b8' },
  'toolResult.read': { label: 'tool output: read', color: '#b8325a' },
  'toolResult.shell': { label: 'tool output: shell', color: '#8e3c9e' },
  'toolResult.edit': { label: 'tool output: edit', color: '#d9779f' },
  unlogged: { label: 'unlogged (system prompt, tool schemas: estimated)', color: '#4a5263' },
};

// bottomFirst lists categories stacked under all others: what every
// request carries before the log's first message.
const bottomFirst = ['unlogged'];

// blockLabel names a block of the context for its row: its kind, and the
// tool it calls, answers or describes.
export function blockLabel(bl: Pick<BlockItem, 'type' | 'section' | 'tool' | 'isError'>): string {
  if (bl.section === 'toolSchema') return `tool schema ${bl.tool ?? ''}`.trimEnd();
  if (bl.section === 'injected') return 'injected';
  if (bl.type === 'tool_call') return `call ${bl.tool ?? ''}`.trimEnd();
  if (bl.type === 'tool_result') return `output ${bl.tool ?? ''}`.trimEnd() + (bl.isError ? ' (error)' : '');
  return bl.type;
}

export function categoryStyle(name: string): CategoryStyle {
  return replayCategories[name] ?? { label: name, color: '#999999' };
}

// The paper's eviction levels.
export const levelNames = ['', 'reasoning', 'bulk', 'intermediate', 'full'];
export const levelColors = ['#8a8f98', '#f2c14e', '#f08a5d', '#e05a6b', '#b058ff'];

export function levelName(level: number): string {
  return levelNames[level] ?? `level ${level}`;
}

export function levelColor(level: number): string {
  return levelColors[level] ?? '#ffffff';
}

// stackOrder lists the categories the timeline stacks, bottom first: those
// with content in some request, what every request carries before the
// log's first message (unlogged) under all others.
export function stackOrder(t: Pick<ReplayTimeline, 'cats'> & { categories?: string[] }): number[] {
  const order = t.cats.map((_, c) => c);
  const names = t.categories ?? [];
  order.sort((a, b) => Number(bottomFirst.includes(names[b] ?? '')) - Number(bottomFirst.includes(names[a] ?? '')) || a - b);
  return order.filter((c) => t.cats[c].some((v) => v > 0));
}

// stackColumns turns the timeline's category columns into cumulative
// series over the categories of stackOrder (kept gives the category of
// each series; the last series is the total input): at every request,
// or at requests at only, series[i][j] then being request at[j]'s. A
// chart that draws the areas at one request per pixel column sums 1,300
// requests, not 13,000.
export function stackColumns(t: Pick<ReplayTimeline, 'cats' | 'after'> & { categories?: string[] }, at?: ArrayLike<number>, kept = stackOrder(t)): { kept: number[]; series: Float64Array[] } {
  const n = at ? at.length : t.after.length;
  const running = new Float64Array(n);
  const series: Float64Array[] = [];
  for (const c of kept) {
    const col = t.cats[c];
    if (at) for (let j = 0; j < n; j++) running[j] += col[at[j]];
    else for (let i = 0; i < n; i++) running[i] += col[i];
    series.push(running.slice());
  }
  return { kept, series };
}

// evictionSteps returns the sorted distinct requests with an eviction.
export function evictionSteps(marks: Mark[]): number[] {
  return [...new Set(marks.map((m) => m.k))].sort((a, b) => a - b);
}

// marksAt returns the marks of request k.
export function marksAt(marks: Mark[], k: number): Mark[] {
  return marks.filter((m) => m.k === k);
}

// countByLevel counts marks by level (index 1-4).
export function countByLevel(marks: Mark[]): number[] {
  const out = [0, 0, 0, 0, 0];
  for (const m of marks) if (m.level >= 0 && m.level < out.length) out[m.level]++;
  return out;
}

// describeRemoval says in words what removed a part of the context.
// Request numbers are shown 1-based, as the timeline shows them.
export function describeRemoval(r: Removal, episodeName: (i: number) => string): string {
  switch (r.reason) {
    case 'truncated':
      return 'dropped by truncation';
    case 'compacted':
      return r.request >= 0 ? `summarized by the compaction before request ${r.request + 1}` : 'summarized by compaction';
  }
  const parts = [`evicted at level ${r.level ?? '?'}${r.level ? ` (${levelName(r.level)})` : ''}`];
  if (r.episode >= 0) parts.push(`with episode ${episodeName(r.episode)}`);
  if (r.request >= 0) parts.push(`before request ${r.request + 1}`);
  if (r.step) parts.push(`step ${r.step}`);
  return parts.join(' ');
}

// clampBudget keeps a budget within the slider's range, as an integer.
export function clampBudget(v: number, lo: number, hi: number): number {
  if (!Number.isFinite(v)) return lo;
  return Math.round(Math.max(lo, Math.min(hi, v)));
}

// budgetRange picks the τ slider's range for a timeline: from a small
// floor to just above the largest uncapped input, with a step of about
// 1/500 of the range rounded to a power of ten times 1, 2 or 5.
export function budgetRange(before: number[]): { min: number; max: number; step: number } {
  const peak = before.reduce((a, b) => Math.max(a, b), 0);
  const max = Math.max(1000, Math.ceil((peak * 1.05) / 1000) * 1000);
  const raw = max / 500;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) ?? p;
  return { min: step, max, step };
}

// Y_FIT_RATIO is how far the uncapped input must rise above what the
// policy keeps before the timeline's y-axis fits the policy's input and
// lets the uncapped line run off the top.
export const Y_FIT_RATIO = 2.5;

// yTop is the top of the timeline's y-axis: the whole data (dataMax) when
// all is asked or the uncapped input stays near what the policy keeps;
// else the larger of the policy's peak and τ, with headroom, so that a
// small τ does not flatten the chart. clipped says the uncapped line (and
// the reported one) run above it.
export function yTop(dataMax: number, keptPeak: number, budget: number, all: boolean): { top: number; clipped: boolean } {
  const kept = Math.max(keptPeak, budget);
  if (all || kept <= 0 || dataMax <= Y_FIT_RATIO * kept) return { top: dataMax, clipped: false };
  return { top: kept * 1.25, clipped: true };
}

// isolatedPoints returns the indices of the values that have no value on
// either side: a line through such a point has no length, so only a dot
// shows it.
export function isolatedPoints(values: ArrayLike<number | null>): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] == null) continue;
    if ((i === 0 || values[i - 1] == null) && (i === values.length - 1 || values[i + 1] == null)) out.push(i);
  }
  return out;
}

// dotsToDraw says which points of a line get a dot when idx0..idx1 are in
// view on a plot px wide: all of them (null) while each has room (6 px),
// else only the isolated ones, which no line shows. Drawing a dot for
// each of 13,000 requests took a tenth of a second per redraw and showed
// nothing the line did not.
export function dotsToDraw(idx0: number, idx1: number, px: number, isolated: number[]): number[] | null {
  if ((idx1 - idx0 + 1) * 6 <= px) return null;
  return isolated.filter((i) => i >= idx0 && i <= idx1);
}

// markRuns groups the x positions of marks (ascending, in whole device
// pixels) into runs whose neighbours are at most gap pixels apart, as
// [first, last] pairs. Marks wider than the gap, drawn along a run,
// overlap into one shape, which is drawn once instead of once per mark:
// at paper scale a level's marks fill hundreds of neighbouring pixels.
export function markRuns(xs: ArrayLike<number>, gap: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = 0; i < xs.length; i++) {
    const last = runs[runs.length - 1];
    if (last && xs[i] - last[1] <= gap) last[1] = xs[i];
    else runs.push([xs[i], xs[i]]);
  }
  return runs;
}

// forColumns divides requests lo..hi (0-based, inclusive) among the px
// pixel columns of a chart and calls each with the first and last
// request of each column. With at most perPixel requests per column it
// calls nothing and returns false: every request is then drawn.
function forColumns(lo: number, hi: number, px: number, perPixel: number, each: (a: number, b: number) => void): boolean {
  const count = hi - lo + 1;
  const columns = Math.max(1, Math.floor(px));
  if (count <= perPixel * columns) return false;
  for (let c = 0; c < columns; c++) {
    const a = lo + Math.floor((c * count) / columns);
    const b = lo + Math.floor(((c + 1) * count) / columns) - 1;
    if (b >= a) each(a, b);
  }
  return true;
}

// sampleRequests picks which of requests lo..hi (0-based, inclusive) a
// chart px pixels wide draws, and adds them to keep. With at most four
// requests per pixel it keeps them all; with more it keeps, in each
// pixel's column of requests, the first and the last, and those where
// each of lines is lowest and highest (M4 aggregation, Jugel et al.,
// VLDB 2014). The drawn lines then keep every peak and trough of those
// lines, and each point drawn is a real request, so the stacked areas
// stay consistent with one another.
export function sampleRequests(lines: ArrayLike<number>[], lo: number, hi: number, px: number, keep: Uint8Array): void {
  const sampled = forColumns(lo, hi, px, 4, (a, b) => {
    keep[a] = 1;
    keep[b] = 1;
    for (const line of lines) {
      let min = a;
      let max = a;
      for (let i = a + 1; i <= b; i++) {
        if (line[i] < line[min]) min = i;
        if (line[i] > line[max]) max = i;
      }
      keep[min] = 1;
      keep[max] = 1;
    }
  });
  if (!sampled) keep.fill(1, lo, hi + 1);
}

// columnPeaks marks in peaks, for each pixel column of requests lo..hi
// (as sampleRequests divides them), the request where line is highest,
// or every request while there is at most one per pixel. The stacked
// category areas are drawn at those requests only: an area filled down
// to zero covers the same pixels at a column's peak as through all of its
// requests, and twelve areas of one point per pixel cost a quarter of
// twelve of four.
export function columnPeaks(line: ArrayLike<number>, lo: number, hi: number, px: number, peaks: Uint8Array): void {
  const sampled = forColumns(lo, hi, px, 1, (a, b) => {
    let max = a;
    for (let i = a + 1; i <= b; i++) if (line[i] > line[max]) max = i;
    peaks[max] = 1;
  });
  if (!sampled) peaks.fill(1, lo, hi + 1);
}

// keptIndices lists the indices keep marks, in order.
export function keptIndices(keep: Uint8Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < keep.length; i++) n += keep[i];
  const out = new Uint32Array(n);
  for (let i = 0, j = 0; i < keep.length; i++) if (keep[i]) out[j++] = i;
  return out;
}

// mergeStep lays a step (what another policy or budget changes, see
// Debugger.ReplayStep) over a timeline of the same replay. It returns null
// when the step is about another number of requests (the session grew
// since), which then needs a whole replay. A step without its split
// leaves the timeline's cats and cached empty, not those of another τ.
// The step's marks and requests over budget come in columns, and are laid
// out as the timeline's objects.
export function mergeStep(base: ReplayTimeline, s: ReplayStep): ReplayTimeline | null {
  if (s.requests !== base.after.length) return null;
  return {
    ...base,
    policy: s.policy, budget: s.budget, after: s.after, cached: s.cached, cats: s.cats,
    evictions: markObjects(s.evictions), restored: markObjects(s.restored), unreachable: overObjects(s.unreachable),
    cost: s.cost, assumptions: s.assumptions,
  };
}

// markObjects lays a step's marks out as a timeline's.
export function markObjects(m: StepMarks): Mark[] {
  const out: Mark[] = new Array(m.k.length);
  for (let i = 0; i < out.length; i++) out[i] = { k: m.k[i], episode: m.episode[i], level: m.level[i] };
  return out;
}

// overObjects lays a step's requests over budget out as a timeline's.
export function overObjects(o: StepOvers): Over[] {
  const out: Over[] = new Array(o.k.length);
  for (let i = 0; i < out.length; i++) out[i] = { k: o.k[i], over: o.over[i] };
  return out;
}
