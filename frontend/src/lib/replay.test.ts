import { describe, expect, it, test } from 'vitest';
import { blockLabel, budgetRange, clampBudget, columnPeaks, countByLevel, describeRemoval, dotsToDraw, evictionSteps, isolatedPoints, keptIndices, markRuns, mergeStep, sampleRequests, stackColumns, stackOrder, yTop } from './replay';
import type { ReplayStep, ReplayTimeline } from './types/debugger';
import { scrollToRow, visibleRows } from './virtual';
import { segments } from './marks';
import { partKind, summarize } from './wire';
import { nodeStyle, pathData, timeText } from './graphsvg';

describe('stackColumns', () => {
  test('stackOrder keeps the categories with content, unlogged first', () => {
    expect(stackOrder({ categories: ['user', 'thinking', 'unlogged'], cats: [[0, 1], [0, 0], [2, 2]] })).toEqual([2, 0]);
  });
  test('stacks the unlogged band under the logged content', () => {
    const { kept, series } = stackColumns({ categories: ['user', 'unlogged'], cats: [[1, 2], [5, 5]], after: [6, 7] });
    expect(kept).toEqual([1, 0]);
    expect(Array.from(series[0])).toEqual([5, 5]);
    expect(Array.from(series[1])).toEqual([6, 7]);
  });
  test('cumulates kept categories, the last series is the total', () => {
    const { kept, series } = stackColumns({ cats: [[1, 2], [0, 0], [3, 4]], after: [4, 6] });
    expect(kept).toEqual([0, 2]);
    expect(Array.from(series[0])).toEqual([1, 2]);
    expect(Array.from(series[1])).toEqual([4, 6]);
  });
  test('at chosen requests only, as stacked at every request', () => {
    const t = { categories: ['user', 'thinking', 'unlogged'], cats: [[1, 2, 0, 4], [0, 0, 0, 0], [5, 5, 6, 5]], after: [6, 7, 6, 9] };
    const all = stackColumns(t);
    const { kept, series } = stackColumns(t, [1, 3]);
    expect(kept).toEqual([2, 0]);
    expect(series.map((s) => Array.from(s))).toEqual(all.series.map((s) => [s[1], s[3]]));
  });
});

test('evictionSteps and countByLevel', () => {
  const marks = [{ k: 5, episode: 0, name: 'a', level: 3 }, { k: 2, episode: 1, name: 'b', level: 4 }, { k: 5, episode: 2, name: 'c', level: 3 }];
  expect(evictionSteps(marks)).toEqual([2, 5]);
  expect(countByLevel(marks)).toEqual([0, 0, 0, 2, 1]);
});

describe('describeRemoval', () => {
  const name = (i: number) => ['e1', 'a1'][i];
  test.each([
    [{ i: 3, block: 1, reason: 'evicted', request: 6, episode: 1, level: 3 }, 'evicted at level 3 (intermediate) with episode a1 before request 7'],
    [{ i: 3, block: -1, reason: 'truncated', request: -1, episode: -1 }, 'dropped by truncation'],
    [{ i: 3, block: -1, reason: 'compacted', request: 9, episode: -1, level: 4 }, 'summarized by the compaction before request 10'],
  ])('%j', (r, want) => expect(describeRemoval(r, name)).toBe(want));
});

describe('budgets', () => {
  test('range covers the peak with a round step', () => {
    expect(budgetRange([100, 20_549, 3])).toEqual({ min: 50, max: 22_000, step: 50 });
    expect(budgetRange([1_000_000])).toEqual({ min: 5000, max: 1_050_000, step: 5000 });
  });
  test('clamp', () => {
    expect(clampBudget(Number.NaN, 5, 10)).toBe(5);
    expect(clampBudget(12.6, 5, 10)).toBe(10);
    expect(clampBudget(7.4, 5, 10)).toBe(7);
  });
});

describe('visibleRows', () => {
  test.each([
    [1000, 20, 0, 100, 0, 11],
    [1000, 20, 2000, 100, 94, 111],
    [1000, 20, 19990, 100, 993, 1000],
    [0, 20, 0, 100, 0, 0],
    [3, 20, 0, 500, 0, 3],
  ])('%d rows of %d px at %d in %d px → [%d, %d)', (count, h, top, height, start, end) => {
    const w = visibleRows(count, h, top, height, 6);
    expect([w.start, w.end]).toEqual([start, end]);
    expect(w.offset).toBe(start * h);
    expect(w.total).toBe(count * h);
  });
  test('scrollToRow', () => {
    expect(scrollToRow(0, 20, 100, 200)).toBe(0);
    expect(scrollToRow(10, 20, 100, 200)).toBe(100);
    expect(scrollToRow(20, 20, 100, 200)).toBe(220);
  });
});

describe('segments', () => {
  test('byte spans over multi-byte text', () => {
    // "é" is two bytes in UTF-8: the mark of "b" starts at byte 3.
    expect(segments('éab', [{ start: 3, end: 4 }])).toEqual([{ text: 'éa', mark: false }, { text: 'b', mark: true }]);
  });
  test('markup stays text', () => {
    const s = segments('<img src=x onerror=alert(1)>', [{ start: 1, end: 4 }]);
    expect(s.map((x) => x.text).join('')).toBe('<img src=x onerror=alert(1)>');
    expect(s[1]).toEqual({ text: 'img', mark: true });
  });
  test('out-of-range and overlapping spans', () => {
    expect(segments('abc', [{ start: 1, end: 99 }, { start: 0, end: 2 }])).toEqual([{ text: 'ab', mark: true }, { text: 'c', mark: true }]);
    expect(segments('', [{ start: 0, end: 1 }])).toEqual([]);
  });
});

describe('graph drawing', () => {
  test('pathData', () => {
    expect(pathData([{ x: 0, y: 0 }, { x: 10.04, y: 5 }])).toBe('M 0 0 L 10 5');
    expect(pathData([{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }, { x: 3, y: 3 }], true)).toBe('M 0 0 C 1 1 2 2 3 3');
    expect(pathData([])).toBe('');
  });
  test('timeText', () => {
    expect(timeText({ time: '2026-01-02T03:04:05Z', end_time: '2026-01-02T03:09:00Z' })).toBe('2026-01-02 03:04:05 → 2026-01-02 03:09:00');
    expect(timeText({ time: '2026-01-02T03:04:05Z' })).toBe('from 2026-01-02 03:04:05');
    expect(timeText({})).toBe('');
  });
  test('states look different', () => {
    const evicted = nodeStyle({ kind: 'expl', state: 'evicted', level: '4' });
    const stripped = nodeStyle({ kind: 'expl', state: 'stripped', level: '2' });
    const closed = nodeStyle({ kind: 'expl', state: 'closed' });
    expect(evicted.opacity).toBeLessThan(1);
    expect(stripped.stroke).not.toBe(closed.stroke);
    expect(nodeStyle({ state: 'future' }).opacity).toBeLessThan(0.5);
  });
});

describe('yTop', () => {
  it('fits the policy\'s input when the uncapped input dwarfs it', () => {
    expect(yTop(168_000, 20_000, 20_000, false)).toEqual({ top: 25_000, clipped: true });
    expect(yTop(168_000, 9_000, 20_000, false)).toEqual({ top: 25_000, clipped: true });
  });
  it('shows everything when asked or when the lines stay close', () => {
    expect(yTop(168_000, 20_000, 20_000, true)).toEqual({ top: 168_000, clipped: false });
    expect(yTop(40_000, 20_000, 20_000, false)).toEqual({ top: 40_000, clipped: false });
    expect(yTop(1000, 0, 0, false)).toEqual({ top: 1000, clipped: false });
  });
});

describe('dots of the reported line', () => {
  test.each([
    { values: [], want: [] },
    { values: [5], want: [0] },
    { values: [5, 6, null, 7, null, null, 8], want: [3, 6] },
    { values: [null, 1, null, 2, 3, null], want: [1] },
    { values: [1, 2, 3], want: [] },
  ])('isolatedPoints($values)', ({ values, want }) => {
    expect(isolatedPoints(values)).toEqual(want);
  });

  it('draws every dot while each has room, else only the isolated ones in view', () => {
    expect(dotsToDraw(0, 99, 600, [3, 50])).toBeNull();
    expect(dotsToDraw(0, 99, 599, [3, 50])).toEqual([3, 50]);
    expect(dotsToDraw(10, 13067, 1300, [3, 50, 13000, 13067])).toEqual([50, 13000, 13067]);
  });
});

describe('markRuns', () => {
  it('joins marks at most gap pixels apart into runs, in order', () => {
    expect(markRuns([], 2)).toEqual([]);
    expect(markRuns([7], 2)).toEqual([[7, 7]]);
    expect(markRuns([3, 4, 6, 9, 10, 20], 2)).toEqual([[3, 6], [9, 10], [20, 20]]);
    expect(markRuns([3, 4, 6, 9, 10, 20], 3)).toEqual([[3, 10], [20, 20]]);
    expect(markRuns([0, 1, 2, 3], 0.5)).toEqual([[0, 0], [1, 1], [2, 2], [3, 3]]);
  });
});

describe('columnPeaks', () => {
  const peaksOf = (line: number[], lo: number, hi: number, px: number) => {
    const peaks = new Uint8Array(line.length);
    columnPeaks(line, lo, hi, px, peaks);
    return [...keptIndices(peaks)];
  };

  it('marks every request while there is at most one per pixel', () => {
    expect(peaksOf([5, 1, 4, 2], 0, 3, 4)).toEqual([0, 1, 2, 3]);
    expect(peaksOf([5, 1, 4, 2, 3], 1, 3, 3)).toEqual([1, 2, 3]);
  });

  it('marks the highest request of each column, one per column, each among those sampleRequests keeps', () => {
    // Two columns of ten requests each.
    const total = [3, 4, 9, 4, 4, 4, 1, 4, 4, 3, 2, 2, 2, 2, 8, 2, 2, 0, 2, 2];
    expect(peaksOf(total, 0, 19, 2)).toEqual([2, 14]);
    const n = 13068;
    const line = Array.from({ length: n }, (_, i) => ((i * 7919) % 484) * 100);
    for (const px of [300, 1366]) {
      const peaks = peaksOf(line, 0, n - 1, px);
      expect(peaks.length).toBe(px);
      const keep = new Uint8Array(n);
      sampleRequests([line], 0, n - 1, px, keep);
      for (const p of peaks) expect(keep[p]).toBe(1);
    }
  });
});

describe('sampleRequests', () => {
  const sample = (lines: number[][], lo: number, hi: number, px: number) => {
    const keep = new Uint8Array(lines[0].length);
    sampleRequests(lines, lo, hi, px, keep);
    return [...keptIndices(keep)];
  };

  it('keeps every request while there are at most four per pixel', () => {
    expect(sample([[5, 1, 4, 2, 3, 9, 0, 7]], 0, 7, 2)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(sample([[5, 1, 4, 2, 3, 9, 0, 7]], 2, 5, 1)).toEqual([2, 3, 4, 5]);
  });

  it('keeps the first, last, lowest and highest of each column of each line', () => {
    // Two columns of ten requests each.
    const total = [3, 4, 9, 4, 4, 4, 1, 4, 4, 3, 2, 2, 2, 2, 8, 2, 2, 0, 2, 2];
    expect(sample([total], 0, 19, 2)).toEqual([0, 2, 6, 9, 10, 14, 17, 19]);
    // A second line adds its own extremes.
    const before = total.map((_, i) => (i === 4 ? 50 : i === 12 ? -1 : 10));
    expect(sample([total, before], 0, 19, 2)).toEqual([0, 2, 4, 6, 9, 10, 12, 14, 17, 19]);
  });

  it('keeps every peak of a long sawtooth at any width', () => {
    const n = 13068;
    const line = Array.from({ length: n }, (_, i) => (i % 484) * 100);
    const peaks = line.map((v, i) => [v, i]).filter(([v]) => v === 483 * 100).map(([, i]) => i);
    for (const px of [300, 1000, 1366]) {
      const kept = new Set(sample([line], 0, n - 1, px));
      expect(kept.size).toBeLessThanOrEqual(4 * px);
      for (const p of peaks) expect(kept.has(p)).toBe(true);
    }
  });

  it('adds a zoomed range at full detail to a coarse sample of the whole', () => {
    const line = Array.from({ length: 1000 }, (_, i) => i % 7);
    const keep = new Uint8Array(1000);
    sampleRequests([line], 0, 999, 10, keep);
    sampleRequests([line], 500, 520, 100, keep);
    const kept = [...keptIndices(keep)];
    for (let i = 500; i <= 520; i++) expect(kept).toContain(i);
    expect(kept.length).toBeLessThan(100);
  });
});

describe('mergeStep', () => {
  const base = { policy: 'paper', budget: 1000, after: [1, 2], before: [3, 4], lines: [7, 8], counterName: 'estimate' } as unknown as ReplayTimeline;
  const none = { k: [], episode: [], level: [] };
  const s = (requests: number) => ({ policy: 'pi-cwl', budget: 2000, requests, after: [0, 1], cached: [0, 0], cats: [], evictions: none, restored: none, unreachable: { k: [], over: [] }, cost: {}, assumptions: [] }) as unknown as ReplayStep;

  it('takes what the step changes and keeps the rest', () => {
    expect(mergeStep(base, s(2))).toMatchObject({ policy: 'pi-cwl', budget: 2000, after: [0, 1], before: [3, 4], lines: [7, 8], counterName: 'estimate' });
  });

  it('leaves the split out when the step has none, not that of another τ', () => {
    const split = { ...base, cats: [[1, 1]], cached: [1, 2] } as unknown as ReplayTimeline;
    expect(mergeStep(split, { ...s(2), split: true, cats: [[0, 1]] })).toMatchObject({ cats: [[0, 1]], cached: [0, 0] });
    expect(mergeStep(split, { ...s(2), split: false, cats: [], cached: [] })).toMatchObject({ cats: [], cached: [] });
  });

  it('refuses a step about another number of requests', () => {
    expect(mergeStep(base, s(3))).toBeNull();
  });

  it("lays the step's marks and requests over budget out as the timeline's", () => {
    const t = mergeStep(base, {
      ...s(2),
      evictions: { k: [0, 1, 1], episode: [4, 5, 6], level: [1, 2, 4] },
      restored: { k: [1], episode: [4], level: [1] },
      unreachable: { k: [1], over: [250] },
    });
    expect(t?.evictions).toEqual([{ k: 0, episode: 4, level: 1 }, { k: 1, episode: 5, level: 2 }, { k: 1, episode: 6, level: 4 }]);
    expect(t?.restored).toEqual([{ k: 1, episode: 4, level: 1 }]);
    expect(t?.unreachable).toEqual([{ k: 1, over: 250 }]);
  });
});

describe('blockLabel', () => {
  test.each([
    [{ type: 'text', section: 'toolSchema', tool: 'Read' }, 'tool schema Read'],
    [{ type: 'text', section: 'injected' }, 'injected'],
    [{ type: 'tool_call', tool: 'Bash' }, 'call Bash'],
    [{ type: 'tool_result', tool: 'Bash', isError: true }, 'output Bash (error)'],
    [{ type: 'tool_result' }, 'output'],
    [{ type: 'thinking' }, 'thinking'],
  ])('%o is %s', (bl, want) => {
    expect(blockLabel(bl)).toBe(want);
  });
});

describe('wire summaries', () => {
  test('group the parts one side lacks, largest first', () => {
    expect(summarize([
      { role: 'system', type: 'text', section: 'toolSchema', tokens: 300 },
      { role: 'system', type: 'text', section: 'toolSchema', tokens: 200 },
      { role: 'system', type: 'text', section: '', tokens: 20 },
    ])).toBe('2 tool schemas (500 tokens), 1 system prompt (20 tokens)');
    expect(summarize([])).toBe('');
    expect(partKind({ role: 'tool', type: 'tool_result', section: '' })).toBe('tool output');
  });
});
