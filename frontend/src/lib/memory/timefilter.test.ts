import { describe as suite, expect, test } from 'vitest';
import { cutAt, describe, tally, visible } from './timefilter';
import type { KnowledgeEdge, TimelineSession } from '../types/memory';

const sessions: TimelineSession[] = [
  { n: 1, stamp: '1:56 pm on 8 May, 2023', time: '2023-05-08T13:56:00Z', passages: 18 },
  { n: 2, stamp: '1:14 pm on 25 May, 2023', time: '2023-05-25T13:14:00Z', passages: 17 },
];
const may7 = Date.UTC(2023, 4, 7);
const may25 = Date.UTC(2023, 4, 25);
const edges: KnowledgeEdge[] = [
  { id: 'r1', from: 'a', to: 'b', label: 'went to', origin: 'extracted', time: '7 May, 2023', gran: 'day', start: may7, session: 1 },
  { id: 'r2', from: 'a', to: 'c', label: 'painted', origin: 'extracted', time: 'May, 2023', gran: 'month', start: Date.UTC(2023, 4, 1), session: 2 },
  { id: 'r3', from: 'a', to: 'd', label: 'visits', origin: 'reviewed', time: '25 May, 2023', gran: 'day', start: may25, session: 2 },
  { id: 'r4', from: 'a', to: 'e', label: 'likes', origin: 'extracted', session: 1 },
  { id: 'r5', from: 'a', to: 'f', label: 'has', origin: 'imported', session: 2 },
  { id: 'r6', from: 'a', to: 'g', label: 'went', origin: 'imported', time: 'last week', session: 2 },
];

suite('time slider', () => {
  test.each([
    // position, untimed shown, visible ids
    [0, true, ['r1', 'r2', 'r4']],
    [0, false, ['r1', 'r2']],
    [1, true, ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']],
    [1, false, ['r1', 'r2', 'r3']],
    [2, false, ['r1', 'r2', 'r3', 'r4', 'r5', 'r6']],
  ] as const)('position %i, untimed %s', (i, untimed, ids) => {
    const c = cutAt(sessions, i, untimed);
    expect(edges.filter((e) => visible(e, c)).map((e) => e.id)).toEqual(ids);
  });

  test('the cut ends with the session day', () => {
    expect(cutAt(sessions, 1, true).until).toBe(may25 + 24 * 3600 * 1000 - 1);
  });

  test('tally counts by granularity', () => {
    expect(tally(edges, cutAt(sessions, 1, true))).toEqual({ visible: 6, byGran: { day: 2, month: 1, none: 2, text: 1 } });
  });

  test('labels', () => {
    expect(describe(sessions, 0)).toBe('up to 8 May 2023 (session 1)');
    expect(describe(sessions, 2)).toBe('all relations');
  });
});
