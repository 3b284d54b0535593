import { describe, expect, it } from 'vitest';
import { countAt, entityStates, factText, fromBlock, itemAt, jumpFor, stateLabel, variantBudgets } from './sessionmemory';
import type { MemoryItem, SessionMemory } from './types/debugger';

const place = (request: number, message: number, block: number) => ({ request, message, block });

function item(over: Partial<MemoryItem>): MemoryItem {
  return { relation: 'r1', spans: [], recalled: [], subject: 'pager.go', predicate: 'edited in', object: 'task 1', where: place(2, 5, 0), places: [place(2, 5, 0)], ...over };
}

describe('itemAt', () => {
  const it2 = item({ spans: [{ entered: 2, evicted: 5, level: 2 }, { entered: 3, evicted: 8, level: 4 }], recalled: [9], places: [place(2, 5, 0), place(3, 7, 1)] });
  it.each([
    [1, 'pending', 0],
    [2, 'context', 0],
    [6, 'context', 0],
    [8, 'evicted', 4],
    [9, 'recovered', 4],
    [30, 'recovered', 4],
  ])('at request %i it is %s (L%i)', (k, state, level) => {
    const s = itemAt(it2, k);
    expect(s.state).toBe(state);
    expect(s.level).toBe(level);
  });

  it('ignores a recall before the last eviction', () => {
    expect(itemAt(item({ spans: [{ entered: 0, evicted: 10, level: 1 }], recalled: [4] }), 12).state).toBe('evicted');
  });

  it('leads an evicted item to the request and block of its last eviction', () => {
    expect(jumpFor(it2, 8)).toEqual(place(8, 7, 1));
    expect(jumpFor(it2, 1)).toEqual(place(2, 5, 0));
    expect(jumpFor(it2, 6)).toEqual(place(6, 5, 0));
    expect(stateLabel(itemAt(it2, 8))).toBe('evicted L4 at request 9');
  });

  it('finds the items of a block', () => {
    expect(fromBlock(it2, 7, 1)).toBe(true);
    expect(fromBlock(it2, 7, 0)).toBe(false);
    expect(factText(it2)).toBe('pager.go edited in task 1');
  });
});

describe('countAt and entityStates', () => {
  const items = [
    item({ relation: 'a', spans: [{ entered: 0, evicted: 3, level: 1 }] }),
    item({ relation: 'b', spans: [{ entered: 1, evicted: -1, level: 0 }] }),
    item({ relation: 'c', spans: [{ entered: 5, evicted: -1, level: 0 }] }),
  ];
  const m = {
    items,
    graph: { edges: [{ id: 'a', from: 'x', to: 'y' }, { id: 'b', from: 'y', to: 'z' }, { id: 'c', from: 'w', to: 'w' }], nodes: [] },
  } as unknown as SessionMemory;

  it('counts by state and level', () => {
    const c = countAt(items, 4);
    expect([c.pending, c.context, c.evicted, c.recovered]).toEqual([1, 1, 1, 0]);
    expect(c.byLevel[1]).toBe(1);
  });

  it('gives an entity the liveliest state of its relations', () => {
    const s = entityStates(m, 4);
    expect(s.get('x')?.state).toBe('evicted');
    expect(s.get('y')?.state).toBe('context');
    expect(s.get('w')?.state).toBe('pending');
  });
});

describe('variantBudgets', () => {
  it('spreads a few budgets over the sweep, above the recall budget', () => {
    const xs = Array.from({ length: 41 }, (_, i) => i * 1000);
    const b = variantBudgets(xs, 20000);
    expect(b[0]).toBeGreaterThan(500);
    expect(b.length).toBeLessThanOrEqual(9);
    expect(b).toContain(40000);
    expect(b).toContain(20000);
    expect([...b].sort((x, y) => x - y)).toEqual(b);
  });
  it('keeps every budget of a short sweep', () => {
    expect(variantBudgets([400, 1000, 2000], 1000)).toEqual([1000, 2000]);
  });
});
